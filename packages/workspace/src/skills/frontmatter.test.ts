import { describe, expect, it } from 'vitest';
import {
  FRONTMATTER_MAX_ALIASES,
  FRONTMATTER_MAX_DEPTH,
  frontmatterBool,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
} from './frontmatter.js';

describe('parseFrontmatter', () => {
  it('reads key: value pairs with lower-cased keys and the body after the closing ---', async () => {
    const parsed = await parseFrontmatter(
      '---\nName: review\nDescription: Review a diff\n---\n\n# Steps\n',
    );
    expect(parsed.hasFrontmatter).toBe(true);
    expect(parsed.error).toBeUndefined();
    expect(parsed.data).toEqual({ name: 'review', description: 'Review a diff' });
    expect(parsed.body).toBe('\n# Steps\n');
  });

  it('reads folded and literal block scalars as YAML does', async () => {
    const { data } = await parseFrontmatter(
      [
        '---',
        'description: >-',
        '  Review a pull request',
        '  for style and bugs.',
        'when_to_use: |',
        '  When asked to review.',
        '  When a diff is pasted.',
        'argument-hint: >',
        '  <path>',
        '---',
        'body',
      ].join('\n'),
    );
    expect(data).toEqual({
      description: 'Review a pull request for style and bugs.',
      when_to_use: 'When asked to review.\nWhen a diff is pasted.\n',
      'argument-hint': '<path>\n',
    });
  });

  it('reads block and flow sequences as lists of their scalar items', async () => {
    const { data } = await parseFrontmatter(
      [
        '---',
        'allowed-tools:',
        '  - read',
        '  - "bash"',
        'triggers: [review, \'pull request\', "pr"]',
        'mixed: [a, {not: scalar}, [nested], b]',
        'empty: []',
        'paths:',
        '---',
      ].join('\n'),
    );
    expect(data).toEqual({
      'allowed-tools': ['read', 'bash'],
      triggers: ['review', 'pull request', 'pr'],
      mixed: ['a', 'b'],
      empty: [],
      paths: '',
    });
  });

  it('keeps every scalar as the text written: quotes removed, no numbers, booleans or nulls', async () => {
    const { data } = await parseFrontmatter(
      [
        '---',
        'a: "quoted: with colon"',
        "b: 'it''s'",
        'c: say "hi"',
        'd: 1.0',
        'e: yes',
        'f: ~',
        'g: "line\\nbreak"',
        'h: x # a comment',
        'i: p@ss#word',
        '---',
      ].join('\n'),
    );
    expect(data).toEqual({
      a: 'quoted: with colon',
      b: "it's",
      c: 'say "hi"',
      d: '1.0',
      e: 'yes',
      f: '~',
      g: 'line\nbreak',
      h: 'x',
      i: 'p@ss#word',
    });
  });

  it('flattens nested mappings into dotted lower-cased keys', async () => {
    const { data } = await parseFrontmatter(
      '---\nname: review\nMetadata:\n  Version: 2\n  owner:\n    team: tools\n---\n',
    );
    expect(data).toEqual({
      name: 'review',
      'metadata.version': '2',
      'metadata.owner.team': 'tools',
    });
  });

  it('lets a later key that differs only in case win', async () => {
    const { data } = await parseFrontmatter('---\nName: first\nname: second\n---\n');
    expect(data).toEqual({ name: 'second' });
  });

  it('reads an empty or comment-only block as no data', async () => {
    expect(await parseFrontmatter('---\n---\nbody')).toMatchObject({
      data: {},
      body: 'body',
      hasFrontmatter: true,
    });
    expect((await parseFrontmatter('---\n# only a comment\n---\n')).data).toEqual({});
  });

  it('treats a first line of --- without a closing --- as no frontmatter at all', async () => {
    const text = '---\nname: review\nbody without end';
    const parsed = await parseFrontmatter(text);
    expect(parsed).toMatchObject({ hasFrontmatter: false, unclosed: true, body: text, data: {} });
    expect(parsed.error).toBeUndefined();
  });

  it('treats a document not starting with --- as all body', async () => {
    const parsed = await parseFrontmatter('# Title\n---\nname: x\n---\n');
    expect(parsed).toMatchObject({ hasFrontmatter: false, unclosed: false, data: {} });
  });

  it('accepts CRLF line endings and indented fences', async () => {
    const parsed = await parseFrontmatter(' --- \r\nname: review\r\n---\r\nbody');
    expect(parsed.data).toEqual({ name: 'review' });
    expect(parsed.body).toBe('body');
  });

  it('keeps a __proto__ key as plain data', async () => {
    const { data } = await parseFrontmatter('---\n__proto__: polluted\n---\n');
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseFrontmatter refuses what it cannot trust, without throwing', () => {
  it('reports invalid YAML with the document line of the error and no data', async () => {
    const parsed = await parseFrontmatter(
      '---\nname: review\ndescription: Use when: reviewing\n---\nbody',
    );
    expect(parsed).toMatchObject({ data: {}, body: 'body', hasFrontmatter: true });
    expect(parsed.error?.line).toBe(3);
    expect(parsed.error?.reason).toMatch(/^it is not valid YAML \(.+\); quote a value/);
    expect(parsed.error?.reason).not.toContain('reviewing');
  });

  it('reports an unclosed quote and a duplicate key as invalid YAML at their lines', async () => {
    const quote = await parseFrontmatter('---\nname: "review\n---\n');
    expect(quote.error).toMatchObject({ reason: expect.stringContaining('not valid YAML') });
    const duplicate = await parseFrontmatter('---\nname: a\ntriggers: [x]\nname: b\n---\n');
    expect(duplicate.error).toMatchObject({
      line: 4,
      reason: expect.stringContaining('unique'),
    });
  });

  it('refuses a root that is a list or a single value', async () => {
    for (const block of ['- a\n- b', 'just words']) {
      const parsed = await parseFrontmatter(`---\n${block}\n---\n`);
      expect(parsed.data).toEqual({});
      expect(parsed.error).toEqual({
        line: 2,
        reason: 'it must be a mapping of "key: value" lines, not a list or a single value',
      });
    }
  });

  it('refuses custom and non-string tags, allowing only !!str, !!seq and !!map', async () => {
    const custom = await parseFrontmatter('---\nname: review\nrun: !shell rm -rf /\n---\n');
    expect(custom.error).toEqual({
      line: 3,
      reason:
        'the tag !shell is not allowed; remove it (only plain text, lists and mappings are read)',
    });
    const binary = await parseFrontmatter('---\nblob: !!binary aGk=\n---\n');
    expect(binary.error?.reason).toContain('tag:yaml.org,2002:binary is not allowed');
    const plain = await parseFrontmatter('---\nversion: !!str 1\nlist: !!seq [a]\n---\n');
    expect(plain).toMatchObject({ data: { version: '1', list: ['a'] } });
    expect(plain.error).toBeUndefined();
  });

  it('refuses a key that is a list or a mapping', async () => {
    const parsed = await parseFrontmatter('---\nname: x\n? [a, b]\n: c\n---\n');
    expect(parsed.error).toEqual({
      line: 3,
      reason: 'a key must be plain text, not a list or a mapping',
    });
  });

  it('resolves a few aliases but refuses an alias bomb', async () => {
    const honest = await parseFrontmatter('---\ntools: &t [read, edit]\nalso: *t\n---\n');
    expect(honest.data).toEqual({ tools: ['read', 'edit'], also: ['read', 'edit'] });

    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
      ['h', 'g'],
    ]) {
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    const bomb = await parseFrontmatter(`---\n${levels.join('\n')}\n---\n`);
    expect(bomb.data).toEqual({});
    expect(bomb.error).toEqual({
      line: 3,
      reason: `its aliases expand to too much data (more than ${FRONTMATTER_MAX_ALIASES} expansions); write the values out`,
    });
  });

  it('refuses nesting deeper than the limit before building the document', async () => {
    // 8,000 levels fit in a SKILL.md and were measured to abort the process inside the yaml package.
    for (const [block, line] of [
      [`key: ${'['.repeat(8_000)}${']'.repeat(8_000)}`, 2],
      [`key: ${'{a: '.repeat(2_000)}x${'}'.repeat(2_000)}`, 2],
      [`name: x\nkey:\n  ${'- '.repeat(4_000)}x`, 4],
    ] as const) {
      const parsed = await parseFrontmatter(`---\n${block}\n---\nbody`);
      expect(parsed).toMatchObject({ data: {}, body: 'body' });
      expect(parsed.error).toEqual({
        line,
        reason: `its lists and mappings nest deeper than ${FRONTMATTER_MAX_DEPTH} levels`,
      });
    }
    const atLimit = `key: ${'['.repeat(FRONTMATTER_MAX_DEPTH - 1)}${']'.repeat(FRONTMATTER_MAX_DEPTH - 1)}`;
    expect((await parseFrontmatter(`---\n${atLimit}\n---\n`)).error).toBeUndefined();
  });
});

describe('frontmatter field readers', () => {
  it('accept the underscore and the hyphen spelling, first present wins', async () => {
    const { data } = await parseFrontmatter(
      '---\nwhen-to-use: hyphen\nargument_hint: <path>\nallowed-tools: Read, BASH ,\n---\n',
    );
    expect(frontmatterString(data, 'when_to_use', 'when-to-use')).toBe('hyphen');
    expect(frontmatterString(data, 'argument_hint', 'argument-hint')).toBe('<path>');
    expect(frontmatterList(data, 'allowed_tools', 'allowed-tools')).toEqual(['Read', 'BASH']);
    expect(frontmatterString(data, 'missing')).toBe('');
  });

  it('read a list where a string is expected as empty, and an empty value as an empty list', async () => {
    const { data } = await parseFrontmatter('---\nname:\n  - a\npaths:\n---\n');
    expect(frontmatterString(data, 'name')).toBe('');
    expect(frontmatterList(data, 'paths')).toEqual([]);
  });

  it('read booleans from true/yes/1/on and false/no/0/off, else the default', async () => {
    const bool = async (value: string, fallback: boolean) =>
      frontmatterBool(
        (await parseFrontmatter(`---\nflag: ${value}\n---\n`)).data,
        fallback,
        'flag',
      );
    for (const word of ['true', 'Yes', '1', 'ON', '"true"']) {
      expect(await bool(word, false)).toBe(true);
    }
    for (const word of ['false', 'NO', '0', 'off']) expect(await bool(word, true)).toBe(false);
    expect(await bool('maybe', true)).toBe(true);
    expect(await bool('maybe', false)).toBe(false);
    expect(frontmatterBool({}, true, 'flag')).toBe(true);
  });

  it('pass over a spelling with an unrecognised boolean to the next one', async () => {
    const { data } = await parseFrontmatter(
      '---\nuser_invocable: perhaps\nuser-invocable: no\n---\n',
    );
    expect(frontmatterBool(data, true, 'user_invocable', 'user-invocable')).toBe(false);
  });
});

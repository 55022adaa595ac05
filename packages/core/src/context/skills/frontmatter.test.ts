import { describe, expect, it } from 'vitest';
import {
  frontmatterBool,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
} from './frontmatter.js';

describe('parseFrontmatter', () => {
  it('reads key: value pairs with lower-cased keys and the body after the closing ---', () => {
    const parsed = parseFrontmatter(
      '---\nName: review\nDescription: Review a diff\n---\n\n# Steps\n',
    );
    expect(parsed.hasFrontmatter).toBe(true);
    expect(parsed.data).toEqual({ name: 'review', description: 'Review a diff' });
    expect(parsed.body).toBe('\n# Steps\n');
  });

  it('reads `key:` followed by `- item` lines as a list', () => {
    const { data } = parseFrontmatter(
      '---\nallowed-tools:\n  - read\n  - "bash"\n- edit\npaths:\ntriggers:\n---\n',
    );
    expect(data['allowed-tools']).toEqual(['read', 'bash', 'edit']);
    expect(data.paths).toEqual([]);
    expect(data.triggers).toEqual([]);
  });

  it('reads inline lists, stripping matching quotes and empty items', () => {
    const { data } = parseFrontmatter(
      `---\ntriggers: [review, "pull request", 'pr', , ]\nempty: []\n---\n`,
    );
    expect(data.triggers).toEqual(['review', 'pull request', 'pr']);
    expect(data.empty).toEqual([]);
  });

  it('strips only matching outer quotes from scalars', () => {
    const { data } = parseFrontmatter(
      `---\na: "quoted"\nb: 'single'\nc: "unbalanced'\nd: say "hi"\ne: "a: b"\n---\n`,
    );
    expect(data).toEqual({ a: 'quoted', b: 'single', c: `"unbalanced'`, d: 'say "hi"', e: 'a: b' });
  });

  it('skips comment and blank lines, and comments do not end a list', () => {
    const { data, ignoredLines } = parseFrontmatter(
      '---\n# a comment\nlist:\n  # inside\n  - a\n\n  - b\nname: x # not a comment\n---\n',
    );
    expect(data).toEqual({ list: ['a', 'b'], name: 'x # not a comment' });
    expect(ignoredLines).toEqual([]);
  });

  it('treats a first line of --- without a closing --- as no frontmatter at all', () => {
    const text = '---\nname: review\nbody without end';
    const parsed = parseFrontmatter(text);
    expect(parsed).toMatchObject({ hasFrontmatter: false, unclosed: true, body: text, data: {} });
  });

  it('treats a document not starting with --- as all body', () => {
    const parsed = parseFrontmatter('# Title\n---\nname: x\n---\n');
    expect(parsed).toMatchObject({ hasFrontmatter: false, unclosed: false, data: {} });
  });

  it('accepts CRLF line endings and indented fences', () => {
    const parsed = parseFrontmatter(' --- \r\nname: review\r\n---\r\nbody');
    expect(parsed.data).toEqual({ name: 'review' });
    expect(parsed.body).toBe('body');
  });

  it('reports lines it cannot read instead of failing, and a later key wins', () => {
    const parsed = parseFrontmatter(
      '---\nname: a\njust words\n: no key\n- stray: item\nname: b\n---\n',
    );
    expect(parsed.data).toEqual({ name: 'b' });
    expect(parsed.ignoredLines).toEqual([3, 4, 5]);
  });

  it('keeps a __proto__ key as plain data', () => {
    const { data } = parseFrontmatter('---\n__proto__: polluted\n---\n');
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('frontmatter field readers', () => {
  it('accept the underscore and the hyphen spelling, first present wins', () => {
    const { data } = parseFrontmatter(
      '---\nwhen-to-use: hyphen\nargument_hint: <path>\nallowed-tools: Read, BASH ,\n---\n',
    );
    expect(frontmatterString(data, 'when_to_use', 'when-to-use')).toBe('hyphen');
    expect(frontmatterString(data, 'argument_hint', 'argument-hint')).toBe('<path>');
    expect(frontmatterList(data, 'allowed_tools', 'allowed-tools')).toEqual(['Read', 'BASH']);
    expect(frontmatterString(data, 'missing')).toBe('');
  });

  it('read a list where a string is expected as empty', () => {
    const { data } = parseFrontmatter('---\nname:\n  - a\n---\n');
    expect(frontmatterString(data, 'name')).toBe('');
  });

  it('read booleans from true/yes/1/on and false/no/0/off, else the default', () => {
    const bool = (value: string, fallback: boolean) =>
      frontmatterBool(parseFrontmatter(`---\nflag: ${value}\n---\n`).data, fallback, 'flag');
    for (const word of ['true', 'Yes', '1', 'ON', '"true"']) expect(bool(word, false)).toBe(true);
    for (const word of ['false', 'NO', '0', 'off']) expect(bool(word, true)).toBe(false);
    expect(bool('maybe', true)).toBe(true);
    expect(bool('maybe', false)).toBe(false);
    expect(frontmatterBool({}, true, 'flag')).toBe(true);
  });

  it('pass over a spelling with an unrecognised boolean to the next one', () => {
    const { data } = parseFrontmatter('---\nuser_invocable: perhaps\nuser-invocable: no\n---\n');
    expect(frontmatterBool(data, true, 'user_invocable', 'user-invocable')).toBe(false);
  });
});

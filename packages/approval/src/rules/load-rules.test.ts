import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRuleSet, readRulesFile } from './load-rules.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rules-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('readRulesFile', () => {
  it('reads a missing file as no rules', async () => {
    expect(await readRulesFile(join(dir, 'none.json'), 'user')).toEqual([]);
  });

  it('reads each rule with its file and index', async () => {
    const path = await file(
      'rules.json',
      JSON.stringify({
        rules: [
          { tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' },
          { tool: 'write', path: 'docs/**', decision: 'ask', workdir: '/w' },
        ],
      }),
    );
    const rules = await readRulesFile(path, 'user');
    expect(rules.map((rule) => rule.source)).toEqual([
      { origin: 'user', file: path, index: 0 },
      { origin: 'user', file: path, index: 1 },
    ]);
  });

  it.each([
    ['not JSON', '{ rules: [', /is not valid JSON/],
    ['wrong shape', '[]', /has the wrong shape/],
    ['unknown key', '{"rules": [], "extra": 1}', /has the wrong shape/],
    [
      'unknown decision',
      '{"rules":[{"tool":"bash","prefix":["ls"],"decision":"maybe"}]}',
      /rule #0 is invalid \(decision: decision must be/,
    ],
    [
      'empty prefix',
      '{"rules":[{"tool":"bash","prefix":["ls"],"decision":"allow"},{"tool":"bash","prefix":[],"decision":"deny"}]}',
      /rule #1 is invalid \(prefix: prefix must hold at least one word/,
    ],
    [
      'relative workdir',
      '{"rules":[{"tool":"write","path":"a","decision":"ask","workdir":"rel"}]}',
      /rule #0 is invalid \(workdir: workdir must be an absolute path/,
    ],
    [
      'unknown tool',
      '{"rules":[{"tool":"curl","prefix":["x"],"decision":"ask"}]}',
      /rule #0 is invalid \(tool: tool must be "bash" \(with a prefix\), "write" \/ "edit" \(with a path\), or an MCP tool/,
    ],
    [
      'an MCP tool without its server',
      '{"rules":[{"tool":"mcp__search","decision":"allow"}]}',
      /rule #0 is invalid \(tool: an MCP tool is named "mcp__<server>__<tool>"/,
    ],
    [
      'a path on an MCP rule',
      '{"rules":[{"tool":"mcp__docs__*","path":"x","decision":"allow"}]}',
      /rule #0 is invalid/,
    ],
    [
      'path on a bash rule',
      '{"rules":[{"tool":"bash","path":"x","decision":"ask"}]}',
      /rule #0 is invalid/,
    ],
  ])('refuses a file with %s, naming the file', async (_name, text, message) => {
    const path = await file('rules.json', text);
    const error = await readRulesFile(path, 'user').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'configuration' });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(message);
  });
});

describe('loadRuleSet', () => {
  const project = JSON.stringify({
    rules: [
      { tool: 'bash', prefix: ['ls'], decision: 'deny' },
      { tool: 'bash', prefix: ['rm'], decision: 'allow' },
    ],
  });

  it('takes only the ask and deny rules of a trusted project', async () => {
    const path = await file('project.json', project);
    const set = await loadRuleSet({
      user: join(dir, 'none.json'),
      project: path,
      projectTrusted: true,
    });
    expect(set.rules.map((rule) => rule.rule.decision)).toEqual(['deny']);
    expect(set.ignored).toMatchObject([{ why: 'allow_in_project', source: { index: 1 } }]);
    expect(set.untrustedFile).toBeNull();
  });

  it('does not read the project file of an untrusted folder, even a bad one', async () => {
    const path = await file('project.json', 'not json');
    const set = await loadRuleSet({
      user: join(dir, 'none.json'),
      project: path,
      projectTrusted: false,
    });
    expect(set).toEqual({ rules: [], ignored: [], untrustedFile: path });
  });
});

describe('MCP tool rules', () => {
  it.each(['mcp__docs__search', 'mcp__docs__*', 'mcp__my-server__read_file'])(
    'reads a rule for %s',
    async (tool) => {
      const path = await file(
        'rules.json',
        JSON.stringify({ rules: [{ tool, decision: 'allow' }] }),
      );
      const [sourced] = await readRulesFile(path, 'user');
      expect(sourced?.rule).toEqual({ tool, decision: 'allow' });
    },
  );
});

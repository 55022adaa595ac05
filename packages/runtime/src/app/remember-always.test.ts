import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { appendRulesFile } from './append-rules-file.js';
import { createRuntimePolicy, userRulesFile } from './runtime-rules.js';

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({});
});
afterEach(() => ws.cleanup());

const settings = () =>
  loadSettings({
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_SANDBOX: 'off',
      XDG_CONFIG_HOME: ws.path('config'),
    },
    cwd: ws.dir,
    homeDir: ws.dir,
  });
const npmTest = { name: 'bash', arguments: { command: 'npm test' } };
const allowNpmTest = { tool: 'bash' as const, prefix: ['npm', 'test'], decision: 'allow' as const };

describe('an "always for this session" answer', () => {
  it('lets the same call run in that session only, and writes nothing', async () => {
    const policy = createRuntimePolicy(settings());
    expect((await policy.judge(npmTest, ws.dir, 's1')).verdict).toBe('approval_required');
    const proposal = await policy.propose(npmTest, ws.dir, 'session', 's1');
    expect(proposal.rules).toEqual([allowNpmTest]);
    policy.rememberForSession('s1', proposal.rules ?? []);
    expect((await policy.judge(npmTest, ws.dir, 's1')).verdict).toBe('allow');
    expect((await policy.judge(npmTest, ws.dir, 's2')).verdict).toBe('approval_required');
    expect((await policy.judge(npmTest, ws.dir)).verdict).toBe('approval_required');
    const judged = await policy.judge(npmTest, ws.dir, 's1');
    expect(judged.rules[0]?.source.origin).toBe('session');
    await expect(readFile(userRulesFile(settings()), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('an "always in this project" answer', () => {
  it('is written to the user rules file scoped to the workdir and applies at once', async () => {
    const policy = createRuntimePolicy(settings());
    expect((await policy.judge(npmTest, ws.dir)).verdict).toBe('approval_required');
    const proposal = await policy.propose(npmTest, ws.dir, 'project');
    expect(proposal.rules).toEqual([{ ...allowNpmTest, workdir: ws.dir }]);
    const written = await policy.rememberInProject(ws.dir, proposal.rules ?? []);
    expect(written.file).toBe(userRulesFile(settings()));
    expect((await policy.judge(npmTest, ws.dir)).verdict).toBe('allow');
    // Another project is not covered.
    const other = await createTempWorkspace({});
    try {
      expect((await policy.judge(npmTest, other.dir)).verdict).toBe('approval_required');
    } finally {
      await other.cleanup();
    }
  });
});

describe('adding rules to a rules file', () => {
  const file = () => ws.path('config/tiny-claw/rules.json');

  it('keeps what the file holds, adds each rule once and keeps two-space JSON', async () => {
    const denyPush = { tool: 'bash', prefix: ['git', 'push'], decision: 'deny', reason: 'by hand' };
    await appendRulesFile(file(), [denyPush as never]);
    const first = await appendRulesFile(file(), [allowNpmTest, allowNpmTest]);
    expect(first.added).toEqual([allowNpmTest]);
    const again = await appendRulesFile(file(), [
      { decision: 'allow', prefix: ['npm', 'test'], tool: 'bash' },
    ]);
    expect(again.added).toEqual([]);
    const text = await readFile(file(), 'utf8');
    expect(JSON.parse(text)).toEqual({ rules: [denyPush, allowNpmTest] });
    expect(text).toContain('\n  "rules": [\n');
  });

  it.each([
    ['not JSON', '{ rules: ['],
    ['the wrong shape', '{ "rule": [] }'],
    ['an invalid rule', '{ "rules": [ { "tool": "bash", "decision": "allow" } ] }'],
  ])('refuses a file that is %s and leaves it as it was', async (_what, text) => {
    const target = file();
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    await expect(appendRulesFile(target, [allowNpmTest])).rejects.toThrow(
      new RegExp(`Rules file ${target.replaceAll('/', '\\/').replaceAll('.', '\\.')}`),
    );
    expect(await readFile(target, 'utf8')).toBe(text);
  });

  it('writes through a symbolic link to the file it points to', async () => {
    const real = ws.path('dotfiles-rules.json');
    await writeFile(real, '{ "rules": [] }\n');
    await mkdir(ws.path('config/tiny-claw'), { recursive: true });
    await symlink(real, file());
    await appendRulesFile(file(), [allowNpmTest]);
    expect(JSON.parse(await readFile(real, 'utf8'))).toEqual({ rules: [allowNpmTest] });
  });
});

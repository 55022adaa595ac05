import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld } from './__fixtures__/approval-cli.js';

// Kept permission rules through the real binary: `policy check` reports what `run` does.
let world: ApprovalWorld;
let env: Record<string, string>;

beforeEach(async () => {
  world = await createApprovalWorld({ 'package.json': '{"scripts":{"test":"echo tested"}}\n' });
  env = { XDG_CONFIG_HOME: world.outside.path('config'), TINY_CLAW_SANDBOX: 'off' };
});
afterEach(() => world.cleanup());

async function userRules(text: string): Promise<string> {
  const path = join(env.XDG_CONFIG_HOME as string, 'tiny-claw', 'rules.json');
  await mkdir(join(env.XDG_CONFIG_HOME as string, 'tiny-claw'), { recursive: true });
  await writeFile(path, text);
  return path;
}

async function projectRules(rules: unknown[]): Promise<string> {
  await mkdir(world.ws.path('.claw'), { recursive: true });
  const path = world.ws.path('.claw/rules.json');
  await writeFile(path, JSON.stringify({ rules }));
  return path;
}

const bash = (command: string) => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });
const check = (command: string, extra: string[] = []) =>
  world.cli(['policy', 'check', ...extra, '--', command], env);

describe('a user rule allowing npm test', () => {
  beforeEach(async () => {
    await userRules(
      JSON.stringify({ rules: [{ tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' }] }),
    );
  });

  it('lets run run npm test without a pause, and policy check says allow with the rule', async () => {
    const { cli } = await world.run([bash('npm test --version'), { text: 'done' }], [], env);
    expect(cli.code, cli.stderr).toBe(0);
    const checked = await check('npm test --version');
    expect(checked.code).toBe(0);
    const path = join(env.XDG_CONFIG_HOME as string, 'tiny-claw', 'rules.json');
    expect(checked.stdout).toBe(`allow\nrule: allow bash npm test (from ${path} #0)\n`);
  });

  it('still asks for npm test && rm -rf build, in run and in policy check', async () => {
    const { cli } = await world.run([bash('npm test && rm -rf build')], [], env);
    expect(cli.code, cli.stderr).toBe(4);
    const checked = await check('npm test && rm -rf build', ['--json']);
    const json = JSON.parse(checked.stdout) as Record<string, unknown>;
    expect(json.verdict).toBe('approval_required');
    expect(json.commands).toEqual([
      ['npm', 'test'],
      ['rm', '-rf', 'build'],
    ]);
    expect(json.rule).toMatchObject({ decision: 'allow', prefix: ['npm', 'test'], index: 0 });
  });
});

describe('a project rules file', () => {
  const rules = [
    { tool: 'bash', prefix: ['ls'], decision: 'deny', reason: 'no listing here' },
    { tool: 'bash', prefix: ['rm'], decision: 'allow' },
  ];

  it('changes nothing in an untrusted folder', async () => {
    const path = await projectRules(rules);
    expect((await check('ls')).stdout).toBe('allow\n');
    expect((await check('rm a')).stdout.split('\n')[0]).toBe('approval_required');
    const listed = await world.cli(['policy', 'rules'], env);
    expect(listed.stdout).toContain(`ignored: ${path}`);
    expect(listed.stdout).toContain('is not a trusted folder');
  });

  it('in a trusted folder: its deny rule applies and its allow rule does not', async () => {
    const path = await projectRules(rules);
    expect((await world.cli(['trust', world.ws.dir], env)).code).toBe(0);
    const denied = await check('ls');
    expect(denied.stdout.split('\n').slice(0, 1)).toEqual(['deny']);
    expect(denied.stdout).toContain('no listing here');
    expect((await check('rm a')).stdout.split('\n')[0]).toBe('approval_required');
    const { cli } = await world.run([bash('ls'), { text: 'done' }], [], env);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr).toContain('no listing here');
    const listed = JSON.parse((await world.cli(['policy', 'rules', '--json'], env)).stdout) as {
      rules: { file: string; index: number }[];
      ignored: { file: string; index: number; why: string }[];
    };
    expect(listed.rules).toMatchObject([{ file: path, index: 0, decision: 'deny' }]);
    expect(listed.ignored).toMatchObject([{ file: path, index: 1, why: 'allow_in_project' }]);
  });
});

describe('a bad user rules file is a configuration error naming the file and rule', () => {
  it.each([
    ['not JSON', '{ "rules": [', 'is not valid JSON'],
    ['wrong shape', '{ "rule": [] }', 'has the wrong shape'],
    [
      'unknown decision',
      '{"rules":[{"tool":"bash","prefix":["ls"],"decision":"sometimes"}]}',
      'rule #0 is invalid',
    ],
    [
      'empty prefix',
      '{"rules":[{"tool":"bash","prefix":["ls"],"decision":"ask"},{"tool":"bash","prefix":[],"decision":"ask"}]}',
      'rule #1 is invalid',
    ],
    [
      'relative workdir',
      '{"rules":[{"tool":"write","path":"a","decision":"ask","workdir":"w"}]}',
      'rule #0 is invalid (workdir',
    ],
  ])('%s: policy check and run exit 78', async (_name, text, message) => {
    const path = await userRules(text);
    for (const result of [await check('ls'), await world.cli(['run', 'go'], env)]) {
      expect(result.code, result.stderr).toBe(78);
      expect(result.stderr).toContain(path);
      expect(result.stderr).toContain(message);
    }
  });
});

describe('policy check input', () => {
  it('reads the command from stdin when none follows --', async () => {
    const result = await world.cli(['policy', 'check'], env, 'rm -rf .git\n');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('deny');
  });

  it.each([
    [['policy', 'check', 'ls']],
    [['policy', 'check', '--tool', 'write']],
    [['policy', 'check', '--path', 'a', '--', 'ls']],
    [['policy', 'nope']],
  ])('refuses %j as a usage error', async (args) => {
    expect((await world.cli(args, env, '')).code).toBe(2);
  });

  it('judges a write call by its path', async () => {
    const result = await world.cli(['policy', 'check', '--tool', 'write', '--path', '.env'], env);
    expect(result.stdout.split('\n')[0]).toBe('approval_required');
  });
});

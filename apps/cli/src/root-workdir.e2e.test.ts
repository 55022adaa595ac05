import { symlink } from 'node:fs/promises';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';

// A workdir of / or of the home directory with tools that change files is refused unless the user
// consents. HOME is a temporary folder here; the echo provider answers, so a run that is let
// through ends at once.

let ws: TempWorkspace;
let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'home/project/a.txt': 'a\n', 'elsewhere/b.txt': 'b\n' });
  home = ws.path('home');
  await symlink(home, ws.path('home-link'));
  env = {
    HOME: home,
    XDG_CONFIG_HOME: ws.path('xdg'),
    TINY_CLAW_STATE_DIR: ws.path('state'),
    TINY_CLAW_PROVIDER: 'echo',
    TINY_CLAW_ENABLED_TOOLS: 'read,write,edit,bash',
    TINY_CLAW_SANDBOX: 'off',
  };
});
afterEach(() => ws.cleanup());

const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli({ bin, args, cwd: ws.path('elsewhere'), env: { ...env, ...extra }, timeoutMs: 60_000 });

const REFUSAL = 'refusing to work in';

describe('run refuses / and the home directory as workdir while write, edit or bash is enabled', () => {
  const spellings: Array<[string, () => { args: string[]; env?: Record<string, string> }]> = [
    ['--workdir /', () => ({ args: ['--workdir', '/'] })],
    ['--workdir=/', () => ({ args: ['--workdir=/'] })],
    ['--workdir $HOME', () => ({ args: ['--workdir', home] })],
    ['--workdir $HOME/', () => ({ args: ['--workdir', `${home}/`] })],
    ['--workdir of a symlink to $HOME', () => ({ args: ['--workdir', ws.path('home-link')] })],
    ['TINY_CLAW_WORKDIR=/', () => ({ args: [], env: { TINY_CLAW_WORKDIR: '/' } })],
    ['TINY_CLAW_WORKDIR=$HOME', () => ({ args: [], env: { TINY_CLAW_WORKDIR: home } })],
  ];

  it.each(spellings)('%s: exit 2 naming the flag and the setting', async (_, spelled) => {
    const { args, env: extra } = spelled();
    const result = await cli(['run', 'hello', ...args], extra);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(REFUSAL);
    expect(result.stderr).toContain('with write, edit, bash enabled');
    expect(result.stderr).toContain('--allow-root-workdir');
    expect(result.stderr).toContain('TINY_CLAW_ALLOW_ROOT_WORKDIR=1');
    expect(result.stdout).toBe('');
  });

  it('runs there with --allow-root-workdir, before or after the command, or the setting', async () => {
    for (const [args, extra] of [
      [['run', 'hello', '--workdir', '/', '--allow-root-workdir'], {}],
      [['--allow-root-workdir', 'run', 'hello', '--workdir', home], {}],
      [['run', 'hello'], { TINY_CLAW_WORKDIR: home, TINY_CLAW_ALLOW_ROOT_WORKDIR: '1' }],
    ] as const) {
      const result = await cli([...args], extra);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('hello\n');
    }
  });

  it('runs there when only reading tools are enabled, and in a folder under home', async () => {
    const readOnly = await cli(['run', 'hello', '--workdir', '/'], {
      TINY_CLAW_ENABLED_TOOLS: 'read',
    });
    expect(readOnly.code, readOnly.stderr).toBe(0);
    const project = await cli(['run', 'hello', '--workdir', `${home}/project`]);
    expect(project.code, project.stderr).toBe(0);
  });

  it('health reports the refusal and the setting instead of refusing', async () => {
    const refused = await cli(['health'], { TINY_CLAW_WORKDIR: home });
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain(`workdir_check=refused: ${REFUSAL} your home directory`);
    expect(refused.stdout).toContain('TINY_CLAW_ALLOW_ROOT_WORKDIR=off (default)');
    const allowed = await cli(['health', '--json'], {
      TINY_CLAW_WORKDIR: home,
      TINY_CLAW_ALLOW_ROOT_WORKDIR: 'on',
    });
    const report = JSON.parse(allowed.stdout);
    expect(report.workdirCheck).toEqual({ refused: false });
    expect(report.settings).toContainEqual({
      name: 'TINY_CLAW_ALLOW_ROOT_WORKDIR',
      value: 'on',
      source: 'env',
    });
  });

  it('refuses a value given to the flag, as a usage error', async () => {
    const result = await cli(['run', 'hello', '--allow-root-workdir=yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--allow-root-workdir takes no value');
  });
});

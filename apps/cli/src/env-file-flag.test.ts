import { chmod } from 'node:fs/promises';
import { createTempWorkspace } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { takeGlobalFlags } from './env-file-flag.js';
import { main } from './main.js';
import type { Output } from './output.js';
import { UsageError } from './usage-error.js';

describe('takeGlobalFlags', () => {
  it('takes the flag before or after the command name, in both spellings', () => {
    expect(takeGlobalFlags(['--env-file', 'a.env', 'run', 'hi'])).toEqual({
      envFile: 'a.env',
      allowRootWorkdir: false,
      rest: ['run', 'hi'],
    });
    expect(takeGlobalFlags(['health', '--json', '--env-file=a.env'])).toEqual({
      envFile: 'a.env',
      allowRootWorkdir: false,
      rest: ['health', '--json'],
    });
    expect(takeGlobalFlags(['health'])).toEqual({
      envFile: undefined,
      allowRootWorkdir: false,
      rest: ['health'],
    });
  });

  it('leaves everything after -- to the command', () => {
    expect(takeGlobalFlags(['run', '--', '--env-file', 'x', '--allow-root-workdir'])).toEqual({
      envFile: undefined,
      allowRootWorkdir: false,
      rest: ['run', '--', '--env-file', 'x', '--allow-root-workdir'],
    });
  });

  it('refuses a flag without a path, one followed by another flag, and a repeated flag', () => {
    expect(() => takeGlobalFlags(['health', '--env-file'])).toThrow(UsageError);
    expect(() => takeGlobalFlags(['--env-file', '--json', 'health'])).toThrow(
      '--env-file needs the path of a settings file',
    );
    expect(() => takeGlobalFlags(['--env-file=', 'health'])).toThrow(UsageError);
    expect(() => takeGlobalFlags(['--env-file', 'a', 'health', '--env-file', 'b'])).toThrow(
      '--env-file can be given only once',
    );
  });
});

function capture() {
  const text = { stdout: '', stderr: '' };
  const out: Output = {
    stdout: (t) => {
      text.stdout += t;
    },
    stderr: (t) => {
      text.stderr += t;
    },
    color: false,
    interactive: false,
  };
  return { out, text };
}

describe('takeGlobalFlags: --allow-root-workdir', () => {
  it('takes the consent flag before or after the command name', () => {
    expect(takeGlobalFlags(['--allow-root-workdir', 'run', 'hi'])).toMatchObject({
      allowRootWorkdir: true,
      rest: ['run', 'hi'],
    });
    expect(takeGlobalFlags(['run', 'hi', '--workdir=/', '--allow-root-workdir'])).toMatchObject({
      allowRootWorkdir: true,
      rest: ['run', 'hi', '--workdir=/'],
    });
  });

  it('refuses a value, pointing to the setting instead', () => {
    expect(() => takeGlobalFlags(['run', '--allow-root-workdir=yes'])).toThrow(
      '--allow-root-workdir takes no value; give it alone, or set TINY_CLAW_ALLOW_ROOT_WORKDIR=1',
    );
  });
});

describe('main with --env-file', () => {
  it('exits 2 with a usage message when the file does not exist', async () => {
    const { out, text } = capture();
    expect(await main(['health', '--env-file', '/nonexistent/tiny-claw.env'], out)).toBe(2);
    expect(text.stderr).toBe(
      "tiny-claw: --env-file /nonexistent/tiny-claw.env: no such file\nRun 'tiny-claw --help' for usage.\n",
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    'exits 2 with a usage message when the file cannot be read',
    async () => {
      const ws = await createTempWorkspace({ 'locked.env': 'TINY_CLAW_MODEL=m\n' });
      try {
        await chmod(ws.path('locked.env'), 0o000);
        const { out, text } = capture();
        expect(await main(['--env-file', ws.path('locked.env'), 'health'], out)).toBe(2);
        expect(text.stderr).toContain(`--env-file ${ws.path('locked.env')}: cannot be read`);
      } finally {
        await ws.cleanup();
      }
    },
  );

  it('exits 78 naming the file and the line when the file is not KEY=VALUE', async () => {
    const ws = await createTempWorkspace({ 'bad.env': 'TINY_CLAW_MODEL=m\nnot an assignment\n' });
    try {
      const { out, text } = capture();
      expect(await main(['health', '--env-file', ws.path('bad.env')], out)).toBe(78);
      expect(text.stderr).toContain(`Invalid .env line 2 in ${ws.path('bad.env')}`);
    } finally {
      await ws.cleanup();
    }
  });
});

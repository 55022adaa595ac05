import { chmod } from 'node:fs/promises';
import { createTempWorkspace } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { takeEnvFileFlag } from './env-file-flag.js';
import { main } from './main.js';
import type { Output } from './output.js';
import { UsageError } from './usage-error.js';

describe('takeEnvFileFlag', () => {
  it('takes the flag before or after the command name, in both spellings', () => {
    expect(takeEnvFileFlag(['--env-file', 'a.env', 'run', 'hi'])).toEqual({
      envFile: 'a.env',
      rest: ['run', 'hi'],
    });
    expect(takeEnvFileFlag(['health', '--json', '--env-file=a.env'])).toEqual({
      envFile: 'a.env',
      rest: ['health', '--json'],
    });
    expect(takeEnvFileFlag(['health'])).toEqual({ envFile: undefined, rest: ['health'] });
  });

  it('leaves everything after -- to the command', () => {
    expect(takeEnvFileFlag(['run', '--', '--env-file', 'x'])).toEqual({
      envFile: undefined,
      rest: ['run', '--', '--env-file', 'x'],
    });
  });

  it('refuses a flag without a path, one followed by another flag, and a repeated flag', () => {
    expect(() => takeEnvFileFlag(['health', '--env-file'])).toThrow(UsageError);
    expect(() => takeEnvFileFlag(['--env-file', '--json', 'health'])).toThrow(
      '--env-file needs the path of a settings file',
    );
    expect(() => takeEnvFileFlag(['--env-file=', 'health'])).toThrow(UsageError);
    expect(() => takeEnvFileFlag(['--env-file', 'a', 'health', '--env-file', 'b'])).toThrow(
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

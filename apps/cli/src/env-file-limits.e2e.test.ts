import { execFile, execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';

// Settings files are read only when they are regular files of at most 1 MiB. The command is run
// the way a user runs it — the executable itself, whose `#!/usr/bin/env -S node --` line keeps
// Node from reading an `--env-file` argument on its own (`node bin --env-file x` would) — so a
// named pipe reaches tiny-claw, which must refuse it at once instead of waiting for a writer.

let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'project/notes.txt': 'hi\n', 'home/.keep': '' });
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: ws.path('home'),
    XDG_CONFIG_HOME: ws.path('xdg'),
    XDG_CACHE_HOME: join(tmpdir(), 'tiny-claw-test-cache'),
    NO_COLOR: '1',
    TINY_CLAW_STATE_DIR: ws.path('state'),
  };
});
afterEach(() => ws.cleanup());

interface Exit {
  code: number | null;
  stderr: string;
  ms: number;
}

function tinyClaw(args: string[]): Promise<Exit> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      bin,
      args,
      { cwd: ws.path('project'), env, timeout: 30_000, killSignal: 'SIGKILL' },
      (error, _stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stderr, ms: Date.now() - started });
      },
    );
    child.stdin?.end();
  });
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
const oversized = `# ${'x'.repeat(1024 * 1024)}\n`;

describe('--env-file must name a regular file of at most 1 MiB (usage error, exit 2)', () => {
  it('refuses a named pipe at once instead of blocking on it', async () => {
    mkfifo(ws.path('team.env'));
    const result = await tinyClaw(['health', '--env-file', '../team.env']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--env-file ../team.env: it is a named pipe (FIFO), not a regular file',
    );
    expect(result.stderr).toContain("Run 'tiny-claw --help' for usage.");
    expect(result.ms).toBeLessThan(20_000);
  });

  it('refuses a device and a file over 1 MiB, saying why', async () => {
    const device = await tinyClaw(['--env-file=/dev/zero', 'health']);
    expect(device.code).toBe(2);
    expect(device.stderr).toContain('--env-file /dev/zero: it is a character device');
    await ws.write('big.env', oversized);
    const big = await tinyClaw(['health', '--env-file', '../big.env']);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(
      '--env-file ../big.env: it is 1048579 bytes, over the 1 MiB (1048576-byte) limit',
    );
  });
});

describe('the user config and a trusted .env obey the same limits (configuration error, exit 78)', () => {
  it('refuses a named pipe as the user config without blocking', async () => {
    await ws.write('xdg/tiny-claw/.keep', '');
    mkfifo(ws.path('xdg/tiny-claw/.env'));
    const result = await tinyClaw(['health']);
    expect(result.code).toBe(78);
    expect(result.stderr).toContain(
      `Cannot use the settings file ${ws.path('xdg/tiny-claw/.env')}: it is a named pipe (FIFO)`,
    );
  });

  it('refuses a trusted .env over 1 MiB, and a trusted .env that is a named pipe', async () => {
    expect((await tinyClaw(['trust'])).code).toBe(0);
    await ws.write('project/.env', oversized);
    const big = await tinyClaw(['health']);
    expect(big.code).toBe(78);
    expect(big.stderr).toContain(
      `Cannot use the settings file ${ws.path('project/.env')}: it is 1048579 bytes`,
    );
    await rm(ws.path('project/.env'));
    mkfifo(ws.path('project/.env'));
    const pipe = await tinyClaw(['health']);
    expect(pipe.code).toBe(78);
    expect(pipe.stderr).toContain('it is a named pipe (FIFO), not a regular file');
  });

  it('still reads a regular settings file of ordinary size', async () => {
    await ws.write('xdg/tiny-claw/.env', 'TINY_CLAW_MAX_TOKENS=333\n');
    const result = await tinyClaw(['health']);
    expect(result.code, result.stderr).toBe(0);
  });
});

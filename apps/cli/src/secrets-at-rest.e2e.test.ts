import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The built CLI with the scripted model: what a user's run leaves in the state dir.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

// Credential-shaped values are assembled at run time so none sits in the repository.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const spread = (length: number, step: number, alphabet = ALNUM): string =>
  Array.from({ length }, (_, i) => alphabet[(i * step + 5) % alphabet.length]).join('');
const openaiKey = `sk-${'proj'}-${spread(48, 11)}`;
const awsKey = `AK${'IA'}${spread(16, 7, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;

let ws: TempWorkspace;
let outside: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({
    '.env.example': `OPENAI_API_KEY=${openaiKey}\nAWS_ACCESS_KEY_ID=${awsKey}\n`,
  });
  outside = await createTempWorkspace({}, 'tiny-claw-state-');
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

/** Every file under `dir` with its text, recursively. */
async function filesUnder(dir: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile());
  return Promise.all(
    files.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: await readFile(path, 'utf8') };
    }),
  );
}

function settings(stateDir: string, script: string, traceMode: string): Record<string, string> {
  return {
    TINY_CLAW_STATE_DIR: stateDir,
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_PROVIDER: 'scripted',
    TINY_CLAW_SCRIPT: script,
    TINY_CLAW_ENABLED_TOOLS: 'read',
    TINY_CLAW_TRACE_MODE: traceMode,
  };
}

describe('nothing secret reaches the state dir', () => {
  it.each(['off', 'metadata', 'replay'])(
    'with tracing %s, keys read from a file and echoed in the answer are stored only as redaction markers',
    async (traceMode) => {
      const stateDir = outside.path(`state-${traceMode}`);
      const script = await writeScript(
        outside.dir,
        {
          turns: [
            { tool_calls: [{ name: 'read', arguments: { path: '.env.example' } }] },
            { text: `The file sets ${openaiKey} and ${awsKey}.` },
          ],
        },
        `script-${traceMode}.json`,
      );
      const result = await runCli({
        bin,
        args: ['run', `which keys does .env.example set? mine is ${openaiKey}`],
        cwd: ws.dir,
        env: settings(stateDir, script, traceMode),
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      // The answer itself goes to the terminal, as asked.
      expect(result.stdout).toContain(openaiKey);

      const files = await filesUnder(stateDir);
      const leaks = files.filter(({ text }) => text.includes(openaiKey) || text.includes(awsKey));
      expect(leaks.map(({ path }) => path)).toEqual([]);

      const memory = files.find(({ path }) => path.endsWith('memory.jsonl'));
      expect(memory?.text).toContain('[REDACTED:openai-api-key]');
      expect(memory?.text).toContain('[REDACTED:aws-access-key-id]');
      if (traceMode !== 'off') {
        expect(files.some(({ path }) => path.includes('trace'))).toBe(true);
      }
    },
  );
});

describe('a prompt over 1 MiB is refused with exit 2 and leaves the session untouched', () => {
  it('refuses an over-long prompt given as arguments', async () => {
    const stateDir = outside.path('state-args');
    const script = await writeScript(outside.dir, { turns: [{ text: 'never' }] }, 'args.json');
    // Ten arguments of 110,000 characters, joined with spaces: 1.05 MiB.
    const words = Array.from({ length: 10 }, () => 'w'.repeat(110_000));
    const result = await runCli({
      bin,
      args: ['run', ...words],
      cwd: ws.dir,
      env: settings(stateDir, script, 'replay'),
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /the prompt is 1\.0 MiB \(1,100,009 bytes of UTF-8\), over the 1 MiB limit; nothing was sent or stored/,
    );
    expect(await filesUnder(join(stateDir, 'sessions'))).toEqual([]);
  });

  it('stops reading an endless stdin once it passes the limit', { timeout: 40_000 }, async () => {
    const stateDir = outside.path('state-stdin');
    const script = await writeScript(outside.dir, { turns: [{ text: 'never' }] }, 'stdin.json');
    // `yes` never ends: the run must stop reading, not buffer it.
    const child = spawn('sh', ['-c', `yes prompt | "${process.execPath}" "${bin}" run -`], {
      cwd: ws.dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        NO_COLOR: '1',
        ...settings(stateDir, script, 'replay'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    // Should the run read for ever, the whole pipeline is stopped rather than left behind.
    const guard = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 30_000);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    clearTimeout(guard);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^tiny-claw: the prompt is over the 1 MiB limit \(reading stopped after [\d,]+ bytes\); nothing was sent or stored\./m,
    );
    expect(await filesUnder(join(stateDir, 'sessions'))).toEqual([]);
  });
});

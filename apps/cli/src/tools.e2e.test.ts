import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The tools as a user meets them: the real CLI with the scripted provider and a temp workspace.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let outside: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'inside\n' });
  outside = await createTempWorkspace({ 'secret.txt': 'TOP-SECRET-OUTSIDE\n' });
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

type Turn = {
  text?: string;
  tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }>;
};

async function runScript(turns: Turn[], env: Record<string, string> = {}) {
  const script = await writeScript(outside.dir, { turns }, `script-${Date.now()}.json`);
  const result = await runCli({
    bin,
    args: ['run', 'go', '--json'],
    cwd: ws.dir,
    env: {
      TINY_CLAW_STATE_DIR: join(outside.dir, '.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_ENABLED_TOOLS: 'read,write,edit,bash',
      ...env,
    },
    timeoutMs: 60_000,
  });
  return result;
}

/** The tool results the model saw, read back from what the CLI printed on stderr. */
const results = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('← '));

describe('tools through the CLI', () => {
  it('refuses reads of ../x, of an absolute outside path and through a symlink that points outside', async () => {
    await symlink(outside.dir, ws.path('link'));
    const result = await runScript([
      {
        tool_calls: [
          { name: 'read', arguments: { path: `../${outside.dir.split('/').pop()}/secret.txt` } },
          { name: 'read', arguments: { path: outside.path('secret.txt') } },
          { name: 'read', arguments: { path: 'link/secret.txt' } },
          { name: 'read', arguments: { path: 'a.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = results(result.stderr);
    expect(lines.slice(0, 3).every((line) => line.startsWith('← read failed:'))).toBe(true);
    expect(lines[3]).toMatch(/^← read ok/);
    expect(result.stderr + result.stdout).not.toContain('TOP-SECRET-OUTSIDE');
  });

  it('refuses a write into .git and leaves it untouched', async () => {
    await mkdir(ws.path('.git'));
    await writeFile(ws.path('.git/config'), '[core]\n');
    const result = await runScript([
      { tool_calls: [{ name: 'write', arguments: { path: '.git/config', content: 'pwned' } }] },
      { text: 'done' },
    ]);
    expect(results(result.stderr)[0]).toMatch(/^← write failed:/);
    expect(await readFile(ws.path('.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('runs bash without the API keys tiny-claw itself was given', async () => {
    const result = await runScript(
      [
        { tool_calls: [{ name: 'bash', arguments: { command: 'printenv > env.txt' } }] },
        { text: 'done' },
      ],
      {
        OPENAI_API_KEY: 'sk-live-should-never-leak-1234567890',
        GITHUB_TOKEN: 'ghp_shouldnotleak',
        // About the tool's environment, not approval: printenv into a file would pause the run.
        TINY_CLAW_APPROVAL_PROVIDER: 'off',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(results(result.stderr)[0]).toMatch(/^← bash ok/);
    const env = await readFile(ws.path('env.txt'), 'utf8');
    expect(env).toContain('PATH=');
    expect(env).not.toContain('OPENAI_API_KEY');
    expect(env).not.toContain('should-never-leak');
    expect(env).not.toContain('ghp_shouldnotleak');
  });

  it('stops `sleep 100` at a 1 s timeout within ~3 s and leaves no process behind', async () => {
    const marker = `tc-sleep-${process.pid}-${Date.now()}`;
    const started = Date.now();
    const result = await runScript(
      [
        {
          tool_calls: [
            {
              name: 'bash',
              arguments: { command: `exec -a ${marker} sleep 100`, timeout_seconds: 1 },
            },
          ],
        },
        { text: 'done' },
      ],
      // About the timeout, not approval: whether `exec -a` pauses is the risk policy's business.
      { TINY_CLAW_APPROVAL_PROVIDER: 'off' },
    );
    const elapsed = Date.now() - started;
    expect(result.code, result.stderr).toBe(0);
    expect(results(result.stderr)[0]).toMatch(/^← bash failed: exit_code=124 timed_out=true/);
    expect(elapsed).toBeLessThan(8_000);
    const survivors = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(marker));
    expect(survivors).toEqual([]);
  });

  it('treats a write between reads as a barrier: the later read sees the new content', async () => {
    const result = await runScript([
      { tool_calls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
      {
        tool_calls: [
          { name: 'read', arguments: { path: 'a.txt' } },
          { name: 'write', arguments: { path: 'a.txt', content: 'rewritten\n' } },
          { name: 'read', arguments: { path: 'a.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = results(result.stderr);
    expect(lines).toHaveLength(4);
    expect(lines.every((line) => line.includes(' ok '))).toBe(true);
    expect(await readFile(ws.path('a.txt'), 'utf8')).toBe('rewritten\n');
  });

  it('edits with indentation that differs from the file and keeps CRLF', async () => {
    await writeFile(ws.path('code.py'), 'def f():\r\n    if x:\r\n        return 1\r\n');
    const result = await runScript([
      { tool_calls: [{ name: 'read', arguments: { path: 'code.py' } }] },
      {
        tool_calls: [
          {
            name: 'edit',
            arguments: {
              path: 'code.py',
              old_text: 'if x:\n    return 1',
              new_text: 'if x:\n    return 2',
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    expect(results(result.stderr)[1]).toMatch(/^← edit ok/);
    expect(await readFile(ws.path('code.py'), 'utf8')).toBe(
      'def f():\r\n    if x:\r\n        return 2\r\n',
    );
  });

  it('cancels on Ctrl-C: exit 130, the bash process group killed, the trace marked cancelled', async () => {
    const marker = `37.${process.pid}${Date.now() % 100000}`;
    const script = await writeScript(outside.dir, {
      turns: [
        { tool_calls: [{ name: 'bash', arguments: { command: `sleep ${marker}` } }] },
        { text: 'never' },
      ],
    });
    const child = spawn(process.execPath, [bin, 'run', 'go', '--json'], {
      cwd: ws.dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        TINY_CLAW_STATE_DIR: join(outside.dir, '.state'),
        TINY_CLAW_WORKDIR: ws.dir,
        TINY_CLAW_PROVIDER: 'scripted',
        TINY_CLAW_SCRIPT: script,
        TINY_CLAW_ENABLED_TOOLS: 'bash',
        TINY_CLAW_APPROVAL_PROVIDER: 'off',
      },
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      // Interrupt once, when the command is running (a second Ctrl-C would quit at once).
      if (!interrupted && stderr.includes('→ bash')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(130);
    const result = JSON.parse(stdout);
    expect(result.stopReason).toBe('cancelled');
    const trace = JSON.parse(await readFile(result.tracePath, 'utf8'));
    expect(trace.root.status).toBe('cancelled');
    const survivors = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(`sleep ${marker}`));
    expect(survivors).toEqual([]);
  });
});

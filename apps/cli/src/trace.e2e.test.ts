import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliKey, traceFixture, writeTraceFile, XSS_PAYLOAD } from './__fixtures__/trace-files.js';

// The built binary, exactly as a user runs it (the turbo test task builds first). The trace files are
// written here directly, in the recorder's layout, so these tests do not depend on a run writing one.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'notes/a.txt': 'alpha\n' });
  env = { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir };
});
afterEach(() => ws.cleanup());

const cli = (args: string[]) => runCli({ bin, args, env, cwd: ws.dir });

async function twoSessions() {
  await writeTraceFile(
    ws.path('.state'),
    traceFixture('run0001', cliKey(ws.dir), '2025-06-01T10:00:00.000Z'),
  );
  await writeTraceFile(
    ws.path('.state'),
    traceFixture('run0002', cliKey(ws.dir, 'alpha'), '2025-06-01T11:00:00.000Z'),
  );
}

describe('tiny-claw trace', () => {
  it('lists the traces of every session, newest first, and of one with --session', async () => {
    await twoSessions();
    const all = await cli(['trace', 'list']);
    expect(all.code, all.stderr).toBe(0);
    expect(
      all.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(' ')[0]),
    ).toEqual(['run0002', 'run0001']);
    const one = await cli(['trace', 'list', '--session', 'default', '--json']);
    expect(JSON.parse(one.stdout).map((t: { traceId: string }) => t.traceId)).toEqual(['run0001']);
  });

  it('shows the last trace as a tree with durations, statuses, tokens and the error', async () => {
    await twoSessions();
    const result = await cli(['trace', 'show', 'last']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('trace run0002 · session');
    expect(result.stdout).toContain('agent.run main  ok  1.50s');
    expect(result.stdout).toContain('tokens 120 in / 11 out');
    expect(result.stdout).toContain('tool.call write  error  480ms');
    expect(result.stdout).toContain('✗ ToolError: path escapes the workdir');
    expect(result.stdout).not.toContain('\x1b[');
    const scoped = await cli(['trace', 'show', 'last', '--session', 'default', '--json']);
    expect(JSON.parse(scoped.stdout).trace_id).toBe('run0001');
  });

  it('writes ./tiny-claw-trace-<id>.html for trace view and prints its path', async () => {
    await twoSessions();
    const result = await cli(['trace', 'view', 'last']);
    expect(result.code, result.stderr).toBe(0);
    const path = ws.path('tiny-claw-trace-run0002.html');
    expect(result.stdout).toBe(`${path}\n`);
    const html = await readFile(path, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toContain(XSS_PAYLOAD);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const custom = await cli(['trace', 'view', 'run0001', '--out', 'pages/one.html']);
    expect(custom.stdout).toBe(`${ws.path('pages/one.html')}\n`);
  });

  it('exits 1 with how to record a trace when there is none, and for an unknown id', async () => {
    const none = await cli(['trace', 'show', 'last']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Record one with: tiny-claw run');
    await twoSessions();
    const unknown = await cli(['trace', 'view', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('See the trace ids with: tiny-claw trace list');
  });

  it('rejects bad flags with exit 2 and a pointer to tiny-claw trace --help', async () => {
    for (const args of [
      ['trace'],
      ['trace', 'show'],
      ['trace', 'show', '../secret'],
      ['trace', 'list', '--nope'],
      ['trace', 'view', 'last', '--json'],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain("Run 'tiny-claw trace --help' for usage.");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('prints its help', async () => {
    const result = await cli(['trace', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tiny-claw trace show <id|last> [--session NAME] [--json]');
  });
});

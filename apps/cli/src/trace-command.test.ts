import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliKey, traceFixture, writeTraceFile, XSS_PAYLOAD } from './__fixtures__/trace-files.js';
import { traceCommand } from './commands/trace.js';
import type { Output } from './output.js';
import { UsageError } from './usage-error.js';

// traceCommand in-process: settings come from process.env, as in the real binary.
const ENV_KEYS = ['TINY_CLAW_STATE_DIR', 'TINY_CLAW_WORKDIR', 'TINY_CLAW_TRACE_MODE'] as const;
let saved: Record<string, string | undefined>;
let ws: TempWorkspace;
let stateDir: string;

beforeEach(async () => {
  saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  ws = await createTempWorkspace({ 'notes/a.txt': 'alpha\n' });
  stateDir = ws.path('.state');
  process.env.TINY_CLAW_STATE_DIR = stateDir;
  process.env.TINY_CLAW_WORKDIR = ws.dir;
});

afterEach(async () => {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  await ws.cleanup();
});

function capture(tty = false) {
  const text = { stdout: '', stderr: '' };
  const out: Output = {
    stdout: (t) => {
      text.stdout += t;
    },
    stderr: (t) => {
      text.stderr += t;
    },
    color: tty,
    interactive: tty,
  };
  return { out, text };
}

async function trace(argv: string[], tty = false) {
  const { out, text } = capture(tty);
  const code = await traceCommand(argv, out);
  return { code, ...text };
}

/** Three runs: two in the default session, the newest one in session "alpha". */
async function threeTraces() {
  const main = cliKey(ws.dir);
  const alpha = cliKey(ws.dir, 'alpha');
  await writeTraceFile(stateDir, traceFixture('aaaa1111', main, '2025-06-01T10:00:00.000Z'));
  await writeTraceFile(stateDir, traceFixture('bbbb2222', main, '2025-06-01T11:00:00.000Z'));
  await writeTraceFile(stateDir, traceFixture('cccc3333', alpha, '2025-06-01T12:00:00.000Z'));
  return { main, alpha };
}

describe('trace list', () => {
  it('lists every trace newest first with its session, duration, status and steps', async () => {
    const { main, alpha } = await threeTraces();
    const result = await trace(['list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^TRACE\s+SESSION\s+STARTED\s+DURATION\s+STATUS\s+STEPS\s+STOP\s+RUN$/,
    );
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([
      'cccc3333',
      'bbbb2222',
      'aaaa1111',
    ]);
    expect(lines[1]).toContain(alpha);
    expect(lines[2]).toMatch(
      new RegExp(
        `^bbbb2222\\s+${main}\\s+2025-06-01 11:00:00Z\\s+1\\.50s\\s+ok\\s+2\\s+final\\s+main$`,
      ),
    );
  });

  it('keeps to one session with --session NAME, the name given to run --session', async () => {
    await threeTraces();
    const result = await trace(['list', '--session', 'Alpha']);
    expect(result.stdout).toContain('cccc3333');
    expect(result.stdout).not.toContain('bbbb2222');
  });

  it('accepts a full session key as printed by trace list', async () => {
    const { main } = await threeTraces();
    const result = await trace(['list', '--session', main, '--json']);
    expect(JSON.parse(result.stdout).map((t: { traceId: string }) => t.traceId)).toEqual([
      'bbbb2222',
      'aaaa1111',
    ]);
  });

  it('prints JSON with --json, [] when there are none', async () => {
    expect(JSON.parse((await trace(['list', '--json'])).stdout)).toEqual([]);
    const { alpha } = await threeTraces();
    const [first] = JSON.parse((await trace(['list', '--json'])).stdout);
    expect(first).toMatchObject({ traceId: 'cccc3333', sessionKey: alpha, status: 'ok' });
  });

  it('shows a run name with a bidi override or an escape sequence escaped, in text and JSON', async () => {
    const tree = traceFixture('dddd4444', cliKey(ws.dir), '2025-06-01T10:00:00.000Z');
    tree.root.name = 'evil\u202egnp.exe\x1b]0;t\x07';
    await writeTraceFile(stateDir, tree);
    const text = await trace(['list']);
    expect(text.stdout).toContain('evil\\u202egnp.exe\\x1b]0;t\\x07');
    const json = await trace(['list', '--json']);
    expect(json.stdout).not.toContain('\u202e');
    expect(JSON.parse(json.stdout)[0].name).toBe(tree.root.name);
  });

  it('says how to record a trace when there is none, without failing', async () => {
    const result = await trace(['list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`no traces in ${stateDir}`);
    expect(result.stderr).toContain('Record one with: tiny-claw run');
  });
});

describe('trace show', () => {
  it('shows the newest trace of any session for "last"', async () => {
    await threeTraces();
    const result = await trace(['show', 'last']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('trace cccc3333 · session');
    expect(result.stdout).toContain(
      '├─ llm.call llm.scripted  ok  380ms  scripted  tokens 120 in / 11 out',
    );
    expect(result.stdout).toContain('✗ ToolError: path escapes the workdir');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      '7 spans · 2 steps · 2 llm calls · 2 tool calls · 1 error · tokens 320 in / 41 out · 1.50s · ok',
    );
  });

  it('shows the newest trace of one session for "last --session NAME"', async () => {
    await threeTraces();
    const result = await trace(['show', 'last', '--session', 'default']);
    expect(result.stdout).toContain('trace bbbb2222');
  });

  it('finds a trace by a unique prefix of its id and prints the file as JSON with --json', async () => {
    const { main } = await threeTraces();
    const result = await trace(['show', 'aaaa', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(
      traceFixture('aaaa1111', main, '2025-06-01T10:00:00.000Z'),
    );
  });

  it('colours the tree only when stdout is a colour terminal', async () => {
    await threeTraces();
    expect((await trace(['show', 'last'], true)).stdout).toContain('\x1b[1;31merror\x1b[0m');
    expect((await trace(['show', 'last'], false)).stdout).not.toContain('\x1b[');
  });

  it('exits 1 for an unknown id, pointing at trace list', async () => {
    await threeTraces();
    const result = await trace(['show', 'zzzz']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tiny-claw: No trace "zzzz" found/);
    expect(result.stderr).toContain('See the trace ids with: tiny-claw trace list\n');
  });

  it('exits 1 when there are no traces yet, saying how to record one', async () => {
    for (const ref of ['last', 'abc']) {
      const result = await trace(['show', ref]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`tiny-claw: no traces in ${stateDir}.`);
      expect(result.stderr).toContain('Record one with: tiny-claw run "<prompt>" (tracing is on');
    }
  });

  it('exits 1 for "last" in a session without traces, naming the session in the hint', async () => {
    await threeTraces();
    const result = await trace(['show', 'last', '--session', 'my work']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no traces for session "my work"');
    expect(result.stderr).toContain(
      `Record one with: tiny-claw run "<prompt>" --session 'my work'`,
    );
  });

  it('exits 1 naming the file when a trace file is not a valid trace', async () => {
    const { main } = await threeTraces();
    const path = join(stateDir, 'sessions', main, 'traces', 'dddd4444.json');
    await writeFile(path, '{"schema_version": 9}');
    const result = await trace(['show', 'dddd4444']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tiny-claw: .*dddd4444\.json is not a schema v1 trace/);
  });
});

describe('trace view', () => {
  it('writes one self-contained HTML page to --out and prints its path', async () => {
    await threeTraces();
    const result = await trace(['view', 'last', '--out', ws.path('out/page.html')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${ws.path('out/page.html')}\n`);
    const html = await readFile(ws.path('out/page.html'), 'utf8');
    expect(html).toContain('<code class="trace-id">cccc3333</code>');
    expect(html).not.toContain(XSS_PAYLOAD);
    expect(html).not.toMatch(/\s(src|href)=|https?:\/\//);
  });

  it('writes ./tiny-claw-trace-<id>.html by default', async () => {
    await threeTraces();
    const before = process.cwd();
    process.chdir(ws.dir);
    try {
      const result = await trace(['view', 'bbbb']);
      expect(result.stdout).toBe(`${ws.path('tiny-claw-trace-bbbb2222.html')}\n`);
      expect(await readFile(ws.path('tiny-claw-trace-bbbb2222.html'), 'utf8')).toMatch(
        /^<!doctype html>/,
      );
    } finally {
      process.chdir(before);
    }
  });

  it('writes the page to stdout with --out -', async () => {
    await threeTraces();
    const result = await trace(['view', 'last', '--out', '-']);
    expect(result.stdout).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/);
  });

  it('exits 1 when the page cannot be written', async () => {
    await threeTraces();
    await ws.write('blocker', 'a file, not a directory');
    const result = await trace(['view', 'last', '--out', ws.path('blocker/page.html')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tiny-claw: .*blocker\/page\.html/);
  });

  it('exits 1 for an unknown id', async () => {
    await threeTraces();
    expect((await trace(['view', 'nope'])).code).toBe(1);
  });
});

describe('trace usage', () => {
  it('prints help for --help at every level', async () => {
    for (const argv of [['--help'], ['list', '-h'], ['show', '--help'], ['view', '--help']]) {
      const result = await trace(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('tiny-claw trace view <id|last>');
    }
  });

  it('rejects bad subcommands, flags and ids with a UsageError (exit 2)', async () => {
    for (const argv of [
      [],
      ['frobnicate'],
      ['list', 'extra'],
      ['list', '--nope'],
      ['show'],
      ['show', 'a', 'b'],
      ['show', '../../etc/passwd'],
      ['show', 'last', '--out', 'x.html'],
      ['view', 'last', '--json'],
      ['view', 'last', '--out', ''],
      ['list', '--session', ''],
      ['list', '--session', 'a\tb'],
    ]) {
      await expect(traceCommand(argv, capture().out), argv.join(' ')).rejects.toThrow(UsageError);
    }
  });
});

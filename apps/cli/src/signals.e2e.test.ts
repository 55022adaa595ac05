import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunResult } from '@tiny-claw/core';
import {
  createTempWorkspace,
  processesWith,
  survivingProcesses,
  type TempWorkspace,
  writeScript,
} from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';

// SIGINT, SIGTERM and SIGHUP, sent to the real CLI while a bash command of the run is running.
// Each command first writes a gate file, so a signal is sent only once the command has started.

let ws: TempWorkspace;
let outside: TempWorkspace;
let marker: string;

beforeEach(async () => {
  ws = await createTempWorkspace({});
  outside = await createTempWorkspace({}, 'tiny-claw-signals-');
  // A number unique to this test, in the command line of every process the command starts.
  marker = `${process.pid}${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;
});
afterEach(async () => {
  // Whatever a failed test left running must not outlive it.
  for (const pid of await processesWith(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await ws.cleanup();
  await outside.cleanup();
});

interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

async function startRun(command: string): Promise<RunningCli> {
  const script = await writeScript(outside.dir, {
    turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'never' }],
  });
  const child = spawn(process.execPath, [bin, 'run', 'go', '--json'], {
    cwd: ws.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NO_COLOR: '1',
      TINY_CLAW_STATE_DIR: outside.path('state'),
      TINY_CLAW_WORKDIR: ws.dir,
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_ENABLED_TOOLS: 'bash',
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const exited = new Promise<number | null>((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves once `ready()` holds; fails if the CLI exits first. Polls: no clock decides. */
async function until(run: RunningCli, ready: () => Promise<boolean> | boolean, what: string) {
  let gone = false;
  void run.exited.then(() => {
    gone = true;
  });
  while (!(await ready())) {
    if (gone) throw new Error(`the CLI exited before ${what}:\n${run.stderr()}`);
    await delay(20);
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function cancelledBy(signal: 'SIGTERM' | 'SIGHUP') {
  const gate = ws.path('started');
  const run = await startRun(`: > started; sleep 30.${marker}`);
  await until(run, () => exists(gate), 'the command started');
  run.child.kill(signal);
  const code = await run.exited;
  const result = JSON.parse(run.stdout()) as RunResult;
  const trace = JSON.parse(await readFile(result.tracePath ?? '', 'utf8'));
  return { code, stderr: run.stderr(), result, trace };
}

describe('signals while a run is working', () => {
  it('SIGTERM cancels like Ctrl-C: exit 143, the trace ends cancelled, no command left running', async () => {
    const { code, stderr, result, trace } = await cancelledBy('SIGTERM');
    expect(code, stderr).toBe(143);
    expect(stderr).toContain('SIGTERM received: cancelling the run');
    expect(result.stopReason).toBe('cancelled');
    expect(trace.root.status).toBe('cancelled');
    expect(trace.root.attributes.stop_reason).toBe('cancelled');
    expect(await survivingProcesses(marker, { intervalMs: 20 })).toEqual([]);
  });

  it('SIGHUP cancels like Ctrl-C: exit 143, the trace ends cancelled, no command left running', async () => {
    const { code, stderr, result, trace } = await cancelledBy('SIGHUP');
    expect(code, stderr).toBe(143);
    expect(stderr).toContain('SIGHUP received: cancelling the run');
    expect(result.stopReason).toBe('cancelled');
    expect(trace.root.status).toBe('cancelled');
    expect(await survivingProcesses(marker, { intervalMs: 20 })).toEqual([]);
  });

  it('a second Ctrl-C quits at once and still kills a command that ignores SIGTERM', async () => {
    const gate = ws.path('started');
    const run = await startRun(`trap "" TERM; : > started; sleep 31.${marker}`);
    await until(run, () => exists(gate), 'the command started');
    run.child.kill('SIGINT');
    // The second one only once the first is being handled: the notice is written as it starts.
    await until(run, () => run.stderr().includes('cancelling the run'), 'the first Ctrl-C');
    run.child.kill('SIGINT');
    expect(await run.exited, run.stderr()).toBe(130);
    // Quit at once: no run result was printed, the cancelled run never got to finish.
    expect(run.stdout()).toBe('');
    expect(await survivingProcesses(marker, { intervalMs: 20 })).toEqual([]);
  });

  it('a second signal of another kind quits at once too, with its own code', async () => {
    const gate = ws.path('started');
    const run = await startRun(`trap "" TERM; : > started; sleep 32.${marker}`);
    await until(run, () => exists(gate), 'the command started');
    run.child.kill('SIGINT');
    await until(run, () => run.stderr().includes('cancelling the run'), 'the first Ctrl-C');
    run.child.kill('SIGTERM');
    expect(await run.exited, run.stderr()).toBe(143);
    expect(run.stdout()).toBe('');
    expect(await survivingProcesses(marker, { intervalMs: 20 })).toEqual([]);
  });
});

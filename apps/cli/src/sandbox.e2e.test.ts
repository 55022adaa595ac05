import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import {
  createTempWorkspace,
  processesWith,
  runCli,
  survivingProcesses,
  type TempWorkspace,
  writeScript,
} from '@tiny-claw/testkit';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';

// The bash sandbox as a user meets it: the built CLI with the scripted provider, killed with
// SIGKILL while a bash command runs. Each command writes a gate file first, so the kill comes
// only once the command has started; the processes of a run are found by numbers unique to the
// test in their command lines.

let ws: TempWorkspace;
let outside: TempWorkspace;
/** Digits unique to this test, used as the fraction of every `sleep` the command starts. */
let unique: string;
let sandboxActive: 'bwrap' | 'off' = 'off';
let sandboxReason = '';

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NO_COLOR: '1',
    TINY_CLAW_STATE_DIR: outside.path('state'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_ENABLED_TOOLS: 'bash',
    // About process lifetime, not approval: the bash call must run without a question.
    TINY_CLAW_APPROVAL_PROVIDER: 'off',
    ...extra,
  };
}

beforeAll(async () => {
  ws = await createTempWorkspace({});
  outside = await createTempWorkspace({}, 'tiny-claw-sandbox-');
  const health = await runCli({ bin, args: ['health', '--json'], env: baseEnv(), cwd: ws.dir });
  const report = JSON.parse(health.stdout) as {
    sandbox: { active: 'bwrap' | 'off'; reason: string };
  };
  sandboxActive = report.sandbox.active;
  sandboxReason = report.sandbox.reason;
  await ws.cleanup();
  await outside.cleanup();
});

beforeEach(async () => {
  ws = await createTempWorkspace({});
  outside = await createTempWorkspace({}, 'tiny-claw-sandbox-');
  unique = `${process.pid}${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;
});
afterEach(async () => {
  // Whatever a failed test left running must not outlive it.
  for (const pid of await processesWith(unique)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await ws.cleanup();
  await outside.cleanup();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<void>;
}

async function startRun(command: string, env: Record<string, string>): Promise<RunningCli> {
  const script = await writeScript(outside.dir, {
    turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'never' }],
  });
  const child = spawn(process.execPath, [bin, 'run', 'go', '--json'], {
    cwd: ws.dir,
    env: baseEnv({ TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: script, ...env }),
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const exited = new Promise<void>((done) =>
    child.on('close', () => {
      clearTimeout(timer);
      done();
    }),
  );
  return { child, stderr: () => stderr, exited };
}

/** Resolves once `ready()` holds; fails if the CLI exits first. */
async function until(run: RunningCli, ready: () => Promise<boolean>, what: string) {
  let gone = false;
  void run.exited.then(() => {
    gone = true;
  });
  while (!(await ready())) {
    if (gone) throw new Error(`the CLI exited before ${what}:\n${run.stderr()}`);
    await delay(20);
  }
}

/** True if `file` appears within `ms` (polled): longer than any sleep of the commands here. */
async function appearsWithin(file: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await exists(file)) return true;
    await delay(100);
  }
  return exists(file);
}

describe('the sandboxed bash of the CLI', () => {
  it('leaves nothing running after kill -9 of the CLI: the command, its setsid escapes and the marker it was about to write', async (context) => {
    if (sandboxActive !== 'bwrap') context.skip(`bubblewrap is not usable here: ${sandboxReason}`);
    const command = [
      `env -i setsid sleep 30.${unique} > /dev/null 2>&1 &`,
      `setsid sleep 31.${unique} > /dev/null 2>&1 &`,
      'touch started',
      `sleep 2.${unique}; echo done > marker.txt`,
    ].join('\n');
    const run = await startRun(command, { TINY_CLAW_SANDBOX: 'bwrap' });
    await until(run, () => exists(ws.path('started')), 'the command started');
    await until(
      run,
      async () => (await processesWith(`30.${unique}`)).length > 0,
      'the setsid child started',
    );
    run.child.kill('SIGKILL');
    await run.exited;
    expect(await survivingProcesses(unique)).toEqual([]);
    expect(await appearsWithin(ws.path('marker.txt'), 4_000)).toBe(false);
  });

  it("keeps the CLI's own environment out of reach of its commands", async (context) => {
    if (sandboxActive !== 'bwrap') context.skip(`bubblewrap is not usable here: ${sandboxReason}`);
    const secret = `sk-test-e2e-${unique}-never-leak`;
    const command = [
      "{ cat /proc/*/environ | tr '\\0' '\\n'; ps e -A -ww; tr '\\0' '\\n' < /proc/$PPID/environ; } > seen.txt 2>&1",
      'true',
    ].join('\n');
    const run = await startRun(command, { TINY_CLAW_SANDBOX: 'auto', OPENAI_API_KEY: secret });
    await run.exited;
    const seen = await readFile(ws.path('seen.txt'), 'utf8');
    expect(seen).toContain('PATH=');
    expect(seen).not.toContain(secret);
  });

  it('shows the sandbox in health, as text and as JSON', async () => {
    const text = await runCli({ bin, args: ['health'], env: baseEnv(), cwd: ws.dir });
    expect(text.stdout).toContain(`sandbox=${sandboxActive}\n`);
    expect(text.stdout).toContain('sandbox_mode=auto\n');
    expect(text.stdout).toContain(`sandbox_reason=${sandboxReason}\n`);
    const off = await runCli({
      bin,
      args: ['health', '--json'],
      env: baseEnv({ TINY_CLAW_SANDBOX: 'off' }),
      cwd: ws.dir,
    });
    const report = JSON.parse(off.stdout) as { sandbox: Record<string, string> };
    expect(report.sandbox).toMatchObject({ mode: 'off', active: 'off' });
    expect(report.sandbox.reason).toContain('TINY_CLAW_SANDBOX=off');
  });
});

describe('the CLI without the sandbox', () => {
  it('kills the command through its death signal after kill -9 of the CLI: the marker is never written', async () => {
    const command = `touch started; sleep 2.${unique}; echo done > marker.txt`;
    const run = await startRun(command, { TINY_CLAW_SANDBOX: 'off' });
    await until(run, () => exists(ws.path('started')), 'the command started');
    run.child.kill('SIGKILL');
    await run.exited;
    // The shells die with the CLI; the `sleep` they started ends on its own.
    expect(await appearsWithin(ws.path('marker.txt'), 4_000)).toBe(false);
    expect(await survivingProcesses(unique)).toEqual([]);
  });
});

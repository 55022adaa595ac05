import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { ToolContext, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../sandbox/sandbox-status.js';
import { survivorsAfter, uniqueSleep } from './__fixtures__/live-processes.js';
import { BASH_LIMITS, createBashTool } from './index.js';

const ALL_TOOLS = ['bash', 'edit', 'read', 'write'];

const isLinux = process.platform === 'linux';
// Every robustness rule holds with and without the sandbox.
const MODES: Array<'bwrap' | 'off'> =
  sandboxStatus('auto').active === 'bwrap' ? ['bwrap', 'off'] : ['off'];
let base: string;
let root: string;
const tool = createBashTool();

function ctx(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { workdir: root, signal, toolCallId: 'call-1', runId: 'run-1', visibleTools: ALL_TOOLS };
}

async function bash(
  args: Record<string, unknown>,
  context: ToolContext = ctx(),
  bashTool = tool,
): Promise<ToolOutput> {
  return bashTool.run(bashTool.parse(args), context);
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-bash-')));
  root = path.join(base, 'w');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await writeFile(path.join(root, 'src', 'a.txt'), 'A\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('bash tool definition', () => {
  it('is not parallel-safe and exposes command/cwd/timeout_seconds', () => {
    expect(tool.name).toBe('bash');
    expect(tool.parallelSafe).toBe(false);
    expect(Object.keys(tool.parameters.properties as object)).toEqual([
      'command',
      'cwd',
      'timeout_seconds',
    ]);
  });

  it('applies defaults: cwd "." and a 120 s timeout', () => {
    expect(tool.parse({ command: 'ls' })).toEqual({
      command: 'ls',
      cwd: '.',
      timeout_seconds: 120,
    });
  });

  it('rejects a timeout over 600 s with a clear error instead of clamping it', () => {
    expect(() => tool.parse({ command: 'ls', timeout_seconds: 601 })).toThrow(
      /timeout_seconds cannot exceed 600/,
    );
    expect(tool.parse({ command: 'ls', timeout_seconds: 600 }).timeout_seconds).toBe(600);
  });

  it('rejects zero, negative and fractional timeouts and an empty command', () => {
    expect(() => tool.parse({ command: 'ls', timeout_seconds: 0 })).toThrow(/at least 1/);
    expect(() => tool.parse({ command: 'ls', timeout_seconds: -5 })).toThrow(/timeout_seconds/);
    expect(() => tool.parse({ command: 'ls', timeout_seconds: 1.5 })).toThrow(/timeout_seconds/);
    expect(() => tool.parse({ command: '   ' })).toThrow(/non-empty command/);
    expect(() => tool.parse({})).toThrow(/command/);
  });
});

describe('bash tool results', () => {
  it('reports a successful command with its output', async () => {
    const out = await bash({ command: 'echo hello' });
    expect(out.isError).toBe(false);
    expect(out.content).toBe(
      'exit_code=0 stdout_truncated=false stderr_truncated=false\nstdout:\nhello',
    );
    expect(out.metadata).toMatchObject({ exit_code: 0, timed_out: false });
  });

  it('marks a non-zero exit as bash_command_failed with the exit code', async () => {
    const out = await bash({ command: 'echo oops >&2; exit 3' });
    expect(out.isError).toBe(true);
    expect(out.failure?.code).toBe('bash_command_failed');
    expect(out.metadata).toMatchObject({ exit_code: 3, timed_out: false });
    expect(out.content).toBe(
      'exit_code=3 stdout_truncated=false stderr_truncated=false\nstderr:\noops',
    );
  });

  it('shows bash errors as bash prints them, without harness internals', async () => {
    const out = await bash({ command: 'nosuchcmd_xyz' });
    expect(out.metadata?.exit_code).toBe(127);
    expect(out.content).toContain('stderr:\nbash: line 1: nosuchcmd_xyz: command not found');
    expect(out.content).not.toContain('$BASH');
  });

  it('runs in the workdir by default and in a relative cwd when given', async () => {
    expect((await bash({ command: 'pwd' })).content).toContain(`stdout:\n${root}`);
    expect((await bash({ command: 'pwd; cat a.txt', cwd: 'src' })).content).toContain(
      `stdout:\n${path.join(root, 'src')}\nA`,
    );
  });

  it('refuses a cwd outside the workdir, missing, or not a directory', async () => {
    const outside = await bash({ command: 'pwd', cwd: '..' });
    expect(outside.failure?.code).toBe('path_outside_root');
    const missing = await bash({ command: 'pwd', cwd: 'nope' });
    expect(missing).toMatchObject({ isError: true, failure: { code: 'not_found' } });
    expect(missing.content).toContain('bash cwd does not exist: nope');
    const file = await bash({ command: 'pwd', cwd: 'src/a.txt' });
    expect(file.failure?.code).toBe('not_a_directory');
  });

  it('refuses to run inside a protected path', async () => {
    await mkdir(path.join(root, '.state'));
    const guarded = createBashTool({ protectedPaths: ['.state'] });
    const out = await bash({ command: 'pwd', cwd: '.state' }, ctx(), guarded);
    expect(out.failure?.code).toBe('protected_path');
  });

  it('refuses a command with a NUL byte or over the argument size limit without running it', async () => {
    const nul = await bash({ command: 'touch made\u0000' });
    expect(nul.failure?.code).toBe('nul_in_command');
    expect(nul.failure?.kind).toBe('invalid_arguments');
    const long = await bash({
      command: `touch made; # ${'x'.repeat(BASH_LIMITS.maxCommandBytes)}`,
    });
    expect(long.failure?.code).toBe('command_too_long');
    expect(long.failure).toMatchObject({ kind: 'invalid_arguments', suggestedTool: 'write' });
    expect(long.failure?.advice).toContain('Write the script to a file with write');
    expect((await bash({ command: 'ls' })).content).not.toContain('made');
  });

  it('does not run at all when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await bash({ command: 'touch made' }, ctx(controller.signal));
    expect(out.failure?.code).toBe('cancelled');
    expect((await bash({ command: 'ls' })).content).not.toContain('made');
  });

  it('kills the process group when the run is cancelled mid-command', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    // Cancel once the command is surely running (it has printed and left a flag in the workdir),
    // not after a guessed delay: a loaded machine can take longer than that to start it.
    const flag = path.join(root, 'running.flag');
    let abortedAt = 0;
    void (async () => {
      for (let i = 0; i < 1_000 && !existsSync(flag); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      abortedAt = Date.now();
      controller.abort();
    })();
    const out = await bash(
      { command: `echo started; touch running.flag; sleep ${marker}` },
      ctx(controller.signal),
    );
    // The command ends soon after the cancellation, not when its sleep would have.
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(6_000);
    expect(out).toMatchObject({ isError: true, failure: { code: 'cancelled' } });
    expect(out.content).toContain('started');
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });
});

describe('bash environment', () => {
  it('does not show OPENAI_API_KEY to printenv even when it is set in the source env', async () => {
    const scrubbed = createBashTool({
      env: {
        PATH: process.env.PATH,
        OPENAI_API_KEY: 'sk-test-should-never-leak-0123456789',
        FEISHU_APP_SECRET: 'feishu-secret-value',
        VISIBLE: 'yes',
      },
    });
    const out = await bash(
      { command: 'printenv; cat /proc/self/environ | tr "\\0" "\\n"' },
      ctx(),
      scrubbed,
    );
    expect(out.content).toContain('VISIBLE=yes');
    expect(out.content).not.toContain('OPENAI_API_KEY');
    expect(out.content).not.toContain('sk-test-should-never-leak');
    expect(out.content).not.toContain('feishu-secret-value');
    const single = await bash({ command: 'printenv OPENAI_API_KEY' }, ctx(), scrubbed);
    expect(single.metadata?.exit_code).toBe(1);
  });

  it('drops extra secret names given as options', async () => {
    const scrubbed = createBashTool({
      env: { PATH: process.env.PATH, MY_DB_URL: 'db://x', OTHER: 'o' },
      extraSecretEnvNames: ['MY_DB_URL'],
    });
    const out = await bash({ command: 'printenv MY_DB_URL OTHER' }, ctx(), scrubbed);
    expect(out.content).not.toContain('db://x');
    expect(out.content).toContain('o');
  });

  it('sets PAGER=cat, GIT_PAGER=cat and GIT_TERMINAL_PROMPT=0', async () => {
    const out = await bash({ command: 'echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"' });
    expect(out.content).toContain('stdout:\ncat cat 0');
  });
});

// Commands that try to outlive, flood or hang the tool. Bounds are generous: shared slow cores.
describe.each(MODES)('bash robustness (sandbox %s)', (mode) => {
  const modeTool = createBashTool({ sandbox: mode });
  const run = (args: Record<string, unknown>) => bash(args, ctx(), modeTool);
  const timedIn = async (args: Record<string, unknown>) => {
    const started = Date.now();
    const out = await run(args);
    return { out, ms: Date.now() - started };
  };

  it('sleep with a 1 s timeout returns with exit code 124 and leaves no sleep behind', async () => {
    const marker = uniqueSleep();
    const { out, ms } = await timedIn({ command: `sleep ${marker}`, timeout_seconds: 1 });
    expect(ms).toBeLessThan(5_000);
    expect(out).toMatchObject({
      isError: true,
      failure: { code: 'bash_timeout' },
      metadata: { exit_code: 124, timed_out: true },
    });
    expect(out.content.startsWith('exit_code=124 timed_out=true')).toBe(true);
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('background jobs of a timed-out command are all killed with the group', async () => {
    const marker = uniqueSleep();
    const { out, ms } = await timedIn({
      command: `sleep ${marker} & sleep ${marker} & wait`,
      timeout_seconds: 1,
    });
    expect(ms).toBeLessThan(5_000);
    expect(out.metadata?.timed_out).toBe(true);
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('nohup, subshell, double-fork and setsid children do not survive the call', async () => {
    const marker = uniqueSleep();
    const commands = [
      `nohup sleep ${marker} > /dev/null 2>&1 &`,
      `(sleep ${marker} &)`,
      `( (sleep ${marker} > /dev/null 2>&1 &) & )`,
      // setsid leaves the process group; on Linux the environment tag still finds it.
      ...(isLinux && hasCommand('setsid') ? [`setsid sleep ${marker} > /dev/null 2>&1 &`] : []),
    ];
    for (const command of commands) {
      const { out, ms } = await timedIn({ command, timeout_seconds: 10 });
      expect(ms, command).toBeLessThan(6_000);
      expect(out.metadata?.exit_code, command).toBe(0);
      expect(out.metadata?.leftovers_killed, command).toBe(true);
      expect(out.content, command).toContain('background processes were still running');
      expect(await survivorsAfter(marker, 3_000), command).toEqual([]);
    }
  });

  it('a background child holding stdout does not hang the tool beyond the ~2 s drain', async () => {
    const marker = uniqueSleep();
    const quiet = await timedIn({
      command: `sleep ${marker} > /dev/null 2>&1 &`,
      timeout_seconds: 60,
    });
    expect(quiet.ms).toBeLessThan(3_000);
    const holding = await timedIn({ command: `echo hi; sleep ${marker} &`, timeout_seconds: 60 });
    expect(holding.ms).toBeLessThan(7_000);
    expect(holding.out.content).toContain('stdout:\nhi');
    expect(holding.out.metadata?.leftovers_killed).toBe(true);
    expect(await survivorsAfter(marker, 3_000)).toEqual([]);
  });

  it('endless output is capped at 1 MiB in memory and 30,000 chars to the model', async () => {
    // Retained memory after a full GC: RSS alone also counts chunks that are garbage already.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const retained = () => {
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const before = retained();
    const { out, ms } = await timedIn({ command: 'yes', timeout_seconds: 1 });
    const growth = retained() - before;
    expect(ms).toBeLessThan(6_000);
    expect(out.metadata).toMatchObject({ timed_out: true, exit_code: 124, stdout_truncated: true });
    expect(out.metadata?.stdout_bytes as number).toBeGreaterThan(1024 * 1024);
    expect(out.content.length).toBeLessThanOrEqual(30_000);
    expect(out.content).toMatch(/\[\.\.\. \d+ bytes omitted \.\.\.\]/);
    expect(growth).toBeLessThan(50 * 1024 * 1024);
  });

  it('one 5 MB line is cut with a marker and never reaches the model whole', async () => {
    const out = await run({ command: "head -c 5000000 /dev/zero | tr '\\0' a" });
    expect(out.isError).toBe(false);
    expect(out.metadata?.stdout_truncated).toBe(true);
    expect(out.content.length).toBeLessThanOrEqual(30_000);
    const omitted = Number(/\[\.\.\. (\d+) bytes omitted/.exec(out.content)?.[1]);
    expect(omitted).toBeGreaterThan(4_900_000);
  });

  it('invalid UTF-8 becomes replacement characters and ANSI/OSC sequences are stripped', async () => {
    const out = await run({
      command: "printf '\\xff\\xfe\\x1b]0;pwn\\x07ok \\x1b[31mred\\x1b[0m\\n'",
    });
    expect(out.content).toContain('stdout:\n\uFFFD\uFFFDok red');
    expect(out.content).not.toContain('\u001b');
    expect(out.content).not.toContain('pwn');
  });

  // Contained by the timeout + group kill. As a precaution on this shared machine the bomb also
  // runs under `ulimit -u`; RLIMIT_NPROC is not enforced for root, so as root it first drops to
  // an unused uid with setpriv (whose process count the limit then caps).
  const canBoundForks =
    isLinux && (process.getuid?.() !== 0 || (hasCommand('setpriv') && hasCommand('id')));
  it.runIf(canBoundForks)(
    'a fork bomb is stopped by the leftover kill, or by the timeout when it stays in front',
    async () => {
      for (const foreground of [false, true]) {
        const marker = `bomb${Math.floor(Math.random() * 1e9)}`;
        // A fresh uid per run: its process count (which `ulimit -u` caps) starts at zero even
        // where init is slow to reap the zombies of earlier runs.
        const uid = 200_000 + Math.floor(Math.random() * 100_000);
        // The classic bomb backgrounds itself, so the shell exits at once and the bomb is a
        // leftover; without `&` the shell waits on it, and the timeout is what stops it.
        const bomb = `ulimit -u 64; ${marker}(){ ${marker}|${marker}${foreground ? ';' : '&'} }; ${marker}`;
        const command =
          process.getuid?.() === 0
            ? `setpriv --reuid=${uid} --regid=${uid} --clear-groups bash -c '${bomb}' 2>/dev/null`
            : `ulimit -u $(( $(ps -u "$(id -u)" --no-headers | wc -l) + 64 )); bash -c '${bomb}' 2>/dev/null`;
        const { out, ms } = await timedIn({ command, timeout_seconds: 2 });
        // What stops it depends on timing (the timeout, the leftover kill, or the bomb running
        // out of processes under the limit); the rule is that the call returns and nothing
        // survives it.
        expect(ms).toBeLessThan(10_000);
        expect(out.metadata?.exit_code).toEqual(expect.any(Number));
        if (out.metadata?.timed_out) expect(out.metadata.exit_code).toBe(124);
        expect(await survivorsAfter(marker, 5_000)).toEqual([]);
      }
    },
  );

  it('kill -9 $PPID and kill -TERM 0 end the command but do not reach the harness', async () => {
    // $PPID is the wrapper shell; the command's shell dies with it (in the sandbox with the
    // whole namespace, without one through setpriv's death signal).
    const parent = await run({ command: 'kill -9 $PPID; sleep 0.2; echo survived' });
    expect(parent.metadata?.exit_code).toBe(137);
    const group = await run({ command: 'kill -TERM 0; echo unreachable' });
    expect(group.metadata?.exit_code).toBe(143);
    expect(group.content).not.toContain('unreachable');
    // Still here, and still able to run commands.
    expect((await run({ command: 'echo alive' })).content).toContain('alive');
  });

  it('a command reading stdin gets EOF at once instead of waiting', async () => {
    const { out, ms } = await timedIn({
      command: 'read x; echo "status=$? x=[$x]"',
      timeout_seconds: 30,
    });
    expect(ms).toBeLessThan(3_000);
    expect(out.content).toContain('status=1 x=[]');
  });

  it('exit 137 and a segfault are reported as 137 and 128+11', async () => {
    const exited = await run({ command: 'exit 137' });
    expect(exited).toMatchObject({
      failure: { code: 'bash_command_failed' },
      metadata: { exit_code: 137 },
    });
    const segv = await run({ command: 'kill -SEGV $$' });
    expect(segv.metadata?.exit_code).toBe(139);
    expect(segv.content).toContain('SIGSEGV');
  });
});

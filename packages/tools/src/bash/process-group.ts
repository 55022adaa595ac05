import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { trackCommand } from './live-commands.js';
import { DEFAULT_OUTPUT_BUFFER_BYTES, OutputBuffer, type OutputSnapshot } from './output-buffer.js';
import { findLiveLeftovers, PROCESS_TAG_ENV, signalGroup, signalProcess } from './process-sweep.js';

/**
 * Timing defaults of {@link runInProcessGroup}.
 *
 * @example
 * runInProcessGroup({ ...options, killGraceMs: PROCESS_GROUP_DEFAULTS.killGraceMs });
 */
export const PROCESS_GROUP_DEFAULTS = {
  /** Between SIGTERM and SIGKILL on timeout or cancellation. */
  killGraceMs: 2000,
  /** How long to wait for the pipes to close once the shell has exited. */
  drainMs: 2000,
  /** After killing whatever still holds the pipes, how long to wait before abandoning them. */
  abandonMs: 500,
} as const;

/**
 * The shell actually spawned (`bash -c WRAPPER_SCRIPT bash <command> <drain> <setpriv>`). The
 * command runs in a *second* bash, a child of this one, so that `$PPID` inside the command is this
 * wrapper and not the harness (or bubblewrap): `kill -9 $PPID` kills the wrapper, never tiny-claw.
 *
 * - It closes every inherited descriptor above stderr first (fd 3 stays when sandboxed: it is the
 *   report pipe), so nothing the harness inherited reaches the command.
 * - Its own stderr goes to /dev/null so its job reports ("Segmentation fault  "$BASH" -c …") do not
 *   leak wrapper internals; the command gets the real stderr through fd 4. The inner `$0` is
 *   `bash`, so its messages read `bash: line 1: …`.
 * - `$3`, when set, is `setpriv`: the command's shell dies with the wrapper (`--pdeathsig KILL`),
 *   as the wrapper dies with the harness, so a killed harness leaves no shell to run the rest.
 * - `$2`, when set, means it runs as the first process of a bubblewrap PID namespace, where
 *   everything dies the moment it exits. It writes `started` to fd 3 (so a sandbox that could not
 *   be set up is told apart from a failing command), survives a SIGTERM meant for the command
 *   (`trap`), and once the command has exited waits up to `$2` tenths of a second while a
 *   leftover process still holds stdout/stderr — the drain the harness does itself without a
 *   namespace — then writes `leftovers` to fd 3 if anything is still alive, and exits.
 *
 * No `exec` of the inner shell: bash would replace itself and `$PPID` would be the harness again.
 */
const WRAPPER_SCRIPT = [
  'exec 4>&2 2>/dev/null',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  'for f in /dev/fd/*; do n=${f##*/}; case $n in ""|*[!0-9]*|0|1|2|4) ;; 3) [ -n "$2" ] || exec 3>&- ;; *) eval "exec $n>&-" ;; esac; done',
  '[ -z "$2" ] || { trap "stopping=1" TERM; echo started >&3; }',
  'if [ -n "$3" ]; then "$3" --pdeathsig KILL "$BASH" -c "$1" bash 2>&4 3>&- 4>&-; else "$BASH" -c "$1" bash 2>&4 3>&- 4>&-; fi',
  'rc=$?',
  '[ -n "$2" ] || exit $rc',
  // Live processes of the namespace other than its init (1) and this shell; sets $holding when
  // one has the output pipes open. Builtins only, so that the scan sees no process of its own.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  'scan() { leftover=; holding=; for d in /proc/[1-9]*; do p=${d#/proc/}; case $p in 1|$$|*[!0-9]*) continue ;; esac; s=; read -r s < "$d/stat" || continue; s=${s##*) }; case ${s%% *} in ""|Z|X) continue ;; esac; leftover=1; for f in "$d"/fd/*; do if [ "$f" -ef /dev/fd/1 ] || [ "$f" -ef /dev/fd/4 ]; then holding=1; return; fi; done; done; }',
  'i=0; scan',
  'while [ -n "$holding" ] && [ -z "$stopping" ] && [ "$i" -lt "$2" ]; do sleep 0.1; i=$((i + 1)); scan; done',
  '[ -z "$leftover" ] || echo leftovers >&3',
  'exit $rc',
].join('\n');

/**
 * Options of {@link runInProcessGroup}.
 *
 * @example
 * const options: ProcessGroupOptions = { command: 'ls', cwd: '/repo', env: {}, timeoutMs: 5000 };
 */
export interface ProcessGroupOptions {
  command: string;
  /** Absolute directory to run in. */
  cwd: string;
  /** Complete environment of the child (already scrubbed). */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Aborting kills the process group like a timeout does. */
  signal?: AbortSignal;
  /** Default {@link PROCESS_GROUP_DEFAULTS}.killGraceMs. */
  killGraceMs?: number;
  /** Default {@link PROCESS_GROUP_DEFAULTS}.drainMs. */
  drainMs?: number;
  /** Per stream; default 1 MiB. */
  maxBufferBytes?: number;
  /** Shell binary; default `bash` from PATH. */
  shell?: string;
  /**
   * A program the shell is started through, with its arguments (bubblewrap and its mounts, or
   * `setpriv --pdeathsig KILL`): `launcher.command launcher.args… bash -c …`. It must exec the
   * shell or keep running until the shell is done.
   */
  launcher?: { command: string; args: readonly string[] };
  /**
   * Bytes the launcher reads on descriptor `fd` (above 3): a pipe the harness writes `data` into
   * and closes (bubblewrap's `--seccomp FD`). No file holds them, so nothing can swap them.
   */
  launcherInput?: { fd: number; data: Uint8Array };
  /**
   * The launcher puts the shell in a PID namespace of its own and dies on SIGTERM, taking the
   * whole namespace with it (bubblewrap). Then a timeout or abort sends SIGTERM only to the
   * processes inside (found by their tag), so the command still gets its grace period, and SIGKILL
   * to the launcher; the drain and the leftover check happen inside the namespace.
   */
  isolated?: boolean;
  /**
   * `setpriv` with `--pdeathsig` support: the command's shell is started through it too, so it is
   * killed when the wrapper shell dies (the launcher should give the wrapper the same).
   */
  deathSignalHelper?: string;
}

/**
 * How a command ended and what it printed.
 *
 * @example
 * const r: ProcessGroupResult = await runInProcessGroup(options);
 * if (r.timedOut) console.log('killed after timeout');
 */
export interface ProcessGroupResult {
  /** Exit code of the shell, or null when a signal ended it. */
  code: number | null;
  /** Signal that ended the shell, if any. */
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  stdout: OutputSnapshot;
  stderr: OutputSnapshot;
  durationMs: number;
  /** Processes still alive once the shell had exited (background jobs, daemons) were killed. */
  leftoversKilled: boolean;
  /** Something we could not find kept the pipes open; reading stopped. */
  pipesAbandoned: boolean;
  /** Set when the shell could not be started; nothing ran. */
  spawnError?: string;
  /**
   * Isolated only: the launcher exited without ever starting the shell (the sandbox could not be
   * set up); its complaint is in `stderr`.
   */
  launchFailed?: boolean;
}

/** Time for a process that has just closed its pipes to finish exiting (and turn zombie). */
const SETTLE_MS = 15;

/**
 * Kill what is left of a command: the whole process group, and every live process tagged with
 * this call's environment tag (those that left the group). The group is signalled whatever the
 * scan says, because a scan can race with forks. With SIGKILL it looks again a few times so that
 * processes forked meanwhile outside the group are caught too. Calls `onFound` (synchronously,
 * before any further await) as soon as something alive is confirmed.
 */
async function killEverything(
  pgid: number | undefined,
  tag: string,
  signal: NodeJS.Signals,
  rounds: number,
  onFound: () => void = () => {},
  spareLeader = false,
): Promise<void> {
  let alive = await findLiveLeftovers(tag, pgid);
  if (alive.length > 0 && signal === 'SIGKILL') {
    // A process that closed the pipes a moment ago may still be exiting: look once more
    // before calling it a leftover, so a normal exit is not reported as one.
    await sleep(SETTLE_MS);
    alive = await findLiveLeftovers(tag, pgid);
  }
  for (let round = 0; round < rounds; round += 1) {
    if (alive.length > 0) onFound();
    // One kill(-pgid) reaches every member atomically, even a fork bomb's newest children.
    if (!spareLeader) signalGroup(pgid, signal);
    for (const pid of alive) if (!spareLeader || pid !== pgid) signalProcess(pid, signal);
    if (alive.length === 0 || signal !== 'SIGKILL') break;
    // Let the kernel deliver the kills, then look again for anything forked meanwhile.
    await sleep(20);
    alive = await findLiveLeftovers(tag, pgid);
  }
}

/**
 * The child's descriptors: stdin closed, stdout and stderr piped; with `isolated`, fd 3 for what
 * the wrapper reports from inside the namespace; with `inputFd`, a pipe there for the launcher.
 */
function stdioFor(isolated: boolean, inputFd: number | undefined): ('ignore' | 'pipe')[] {
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe'];
  if (isolated) stdio.push('pipe');
  if (inputFd !== undefined) {
    while (stdio.length < inputFd) stdio.push('ignore');
    stdio[inputFd] = 'pipe';
  }
  return stdio;
}

/**
 * Run `command` with `bash -c` in its own session and process group (`detached: true` →
 * `setsid`), stdin closed (`'ignore'` = /dev/null), stdout/stderr captured into bounded
 * {@link OutputBuffer}s, and every process it started stopped by the time this resolves.
 *
 * Lifecycle:
 * - timeout or `signal` abort → SIGTERM to the group (and tagged processes), SIGKILL after
 *   `killGraceMs`; `timedOut`/`cancelled` is set;
 * - the shell exits → wait up to `drainMs` for the pipes to close (a background child may hold
 *   them), then SIGKILL the group and tagged processes; if the pipes are still open after
 *   `abandonMs`, stop reading (`pipesAbandoned`);
 * - on every exit, leftovers (group members and tagged processes) are SIGKILLed
 *   (`leftoversKilled`).
 * So it resolves within about `timeoutMs + killGraceMs + drainMs` in the worst case.
 *
 * Covered: background jobs (`cmd &`), `nohup`, subshells and double forks (same group), `setsid`
 * and daemonizing processes that keep the inherited environment (found by the tag on Linux),
 * `kill -9 $PPID` / `kill 0` from the command (they hit the wrapper shell or the command's own
 * group, never the harness). Not covered without `isolated`: processes that clear their
 * environment *and* leave the group (`env -i setsid …`) or that run on macOS after leaving the
 * group; processes started through another service (systemd-run, docker, ssh); a same-user
 * command that deliberately signals the harness by pid. With `isolated` (bubblewrap's PID
 * namespace) every process of the command dies with the namespace, whatever it did. Fork bombs
 * are stopped by the group kill but are not prevented — use cgroups (`pids.max`) for that.
 *
 * While it runs the command is registered with `killRunningCommands`, which the process's
 * `exit` event calls.
 *
 * @example
 * const result = await runInProcessGroup({ command: 'echo hi', cwd: '/repo', env: {}, timeoutMs: 10_000 });
 * result.stdout.head.toString(); // 'hi\n'
 */
export function runInProcessGroup(options: ProcessGroupOptions): Promise<ProcessGroupResult> {
  const killGraceMs = options.killGraceMs ?? PROCESS_GROUP_DEFAULTS.killGraceMs;
  const drainMs = options.drainMs ?? PROCESS_GROUP_DEFAULTS.drainMs;
  const maxBufferBytes = options.maxBufferBytes ?? DEFAULT_OUTPUT_BUFFER_BYTES;
  const stdout = new OutputBuffer(maxBufferBytes);
  const stderr = new OutputBuffer(maxBufferBytes);
  const tag = randomBytes(16).toString('hex');
  const started = performance.now();
  const isolated = options.isolated === true;
  // Inside the namespace the wrapper drains; it counts in tenths of a second.
  const innerDrain = isolated ? String(Math.max(1, Math.ceil(drainMs / 100))) : '';

  return new Promise((resolve) => {
    let code: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let timedOut = false;
    let cancelled = false;
    let terminating = false;
    let leftoversKilled = false;
    let pipesAbandoned = false;
    let finished = false;
    let report = '';
    let untrack = () => {};
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void): NodeJS.Timeout | undefined => {
      // Nothing may be scheduled once finished: it would only keep the event loop alive.
      if (finished) return undefined;
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
      return timer;
    };

    const base = (): Omit<ProcessGroupResult, 'spawnError'> => ({
      code,
      signal: exitSignal,
      timedOut,
      cancelled,
      stdout: stdout.snapshot(),
      stderr: stderr.snapshot(),
      durationMs: Math.round(performance.now() - started),
      leftoversKilled,
      pipesAbandoned,
    });

    if (options.signal?.aborted) {
      cancelled = true;
      resolve(base());
      return;
    }

    const shellArgs = [
      options.shell ?? 'bash',
      '-c',
      WRAPPER_SCRIPT,
      'bash',
      options.command,
      innerDrain,
      options.deathSignalHelper ?? '',
    ];
    const [file = 'bash', ...args] = options.launcher
      ? [options.launcher.command, ...options.launcher.args, ...shellArgs]
      : shellArgs;
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        cwd: options.cwd,
        env: { ...options.env, [PROCESS_TAG_ENV]: tag },
        detached: true,
        stdio: stdioFor(isolated, options.launcherInput?.fd),
      });
    } catch (error) {
      // Synchronous failures: invalid arguments (NUL bytes), E2BIG on some platforms.
      resolve({ ...base(), spawnError: error instanceof Error ? error.message : String(error) });
      return;
    }
    const pgid = child.pid;
    if (pgid !== undefined) untrack = trackCommand(pgid, tag);
    const input = options.launcherInput;
    if (input !== undefined) {
      const pipe = child.stdio[input.fd] as Writable | null;
      // A launcher that dies before reading closes the pipe: its failure is reported below.
      pipe?.on('error', () => {});
      pipe?.end(Buffer.from(input.data));
    }
    const reportPipe = isolated ? (child.stdio[3] as Readable | null) : undefined;

    const finish = async (spawnError?: string) => {
      if (finished) return;
      finished = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      options.signal?.removeEventListener('abort', onAbort);
      if (pgid !== undefined) {
        // The shell is gone; anything still tagged or in its group outlived it.
        await killEverything(pgid, tag, 'SIGKILL', 5, () => {
          leftoversKilled = true;
        });
      }
      untrack();
      child.stdout?.destroy();
      child.stderr?.destroy();
      reportPipe?.destroy();
      if (report.includes('leftovers')) leftoversKilled = true;
      const launchFailed =
        isolated && pgid !== undefined && !report.includes('started') && !timedOut && !cancelled;
      const result = { ...base(), ...(launchFailed ? { launchFailed } : {}) };
      resolve(spawnError === undefined ? result : { ...result, spawnError });
    };

    const terminate = () => {
      if (terminating) return;
      terminating = true;
      // The group at once; the scan for members that left it follows. Isolated, the group is the
      // launcher alone, whose death would SIGKILL the command at once: it waits for the SIGKILL.
      if (!isolated) signalGroup(pgid, 'SIGTERM');
      void killEverything(pgid, tag, 'SIGTERM', 1, undefined, isolated);
      later(killGraceMs, () => {
        signalGroup(pgid, 'SIGKILL');
        void killEverything(pgid, tag, 'SIGKILL', 5);
      });
    };

    function onAbort() {
      if (finished) return;
      cancelled = true;
      terminate();
    }

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // Reading errors (EIO after abandoning) must not crash the harness.
    child.stdout?.on('error', () => {});
    child.stderr?.on('error', () => {});
    reportPipe?.on('data', (chunk: Buffer) => {
      // Two short words at most; anything longer is not the wrapper's.
      if (report.length < 64) report += chunk.toString('utf8');
    });
    reportPipe?.on('error', () => {});

    child.on('error', (error) => {
      // Spawn failures (ENOENT for bash, a vanished cwd) arrive here and no 'exit' follows.
      if (pgid === undefined) void finish(error.message);
    });

    child.on('exit', (exitCode, signal) => {
      code = exitCode;
      exitSignal = signal;
      // Finished in time: background children holding the pipes are the drain's business.
      if (timeoutTimer) {
        clearTimeout(timeoutTimer);
        timers.delete(timeoutTimer);
      }
      // Background children may keep stdout/stderr open forever: bound the wait.
      later(drainMs, () => {
        if (finished) return;
        const markFound = () => {
          leftoversKilled = true;
        };
        void killEverything(pgid, tag, 'SIGKILL', 5, markFound).then(() => {
          later(PROCESS_GROUP_DEFAULTS.abandonMs, () => {
            pipesAbandoned = true;
            void finish();
          });
        });
      });
    });

    // 'close' follows 'exit' once both pipes are closed: the normal end.
    child.on('close', () => {
      // Without a pid the spawn failed and 'error' reports why.
      if (pgid !== undefined) void finish();
    });

    const timeoutTimer = later(options.timeoutMs, () => {
      timedOut = true;
      terminate();
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // Last resort should 'exit' never come (it always should after SIGKILL).
    later(options.timeoutMs + killGraceMs + drainMs + 5000, () => {
      pipesAbandoned = true;
      void finish();
    });
  });
}

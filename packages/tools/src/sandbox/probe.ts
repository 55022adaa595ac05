import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { bwrapProbeArguments } from './bwrap-args.js';
import { findExecutable } from './find-executable.js';
import { seccompArchOf, unixSocketFilter } from './seccomp-filter.js';
import { SECCOMP_FD, spawnWithFilterSync } from './seccomp-launch.js';
import { seccompText } from './seccomp-text.js';
import { sandboxText } from './strings.js';

/**
 * Whether bubblewrap loads the unix-socket filter here: it does (`loads`, with the program); it
 * cannot, for a reason of this machine — an architecture without
 * a filter, a kernel without seccomp — and the sandbox does without (`unavailable`); or it
 * refused it for another reason (`broken`), which a required sandbox must not ignore.
 *
 * @example
 * const filter: UnixSocketFilterProbe = { state: 'unavailable', why: 'this kernel has no seccomp' };
 */
export type UnixSocketFilterProbe =
  | { state: 'loads'; program: Uint8Array }
  | { state: 'unavailable' | 'broken'; why: string };

/**
 * Whether bubblewrap can sandbox commands here, learnt by running a trivial command in the same
 * namespaces the bash tool asks for (a binary on PATH proves nothing: user namespaces may be
 * disabled, or blocked by AppArmor), and whether it loads the unix-socket filter.
 *
 * @example
 * const probe: BubblewrapProbe = { usable: true, path: '/usr/bin/bwrap', version: '0.8.0', filter };
 */
export type BubblewrapProbe =
  | { usable: true; path: string; version: string; filter: UnixSocketFilterProbe }
  | { usable: false; reason: string };

/** Long enough for a loaded machine; a working bwrap answers in milliseconds. */
const PROBE_TIMEOUT_MS = 10_000;

// One trial per binary and process: health, the run banner and every tool built share it.
const bubblewrapCache = new Map<string, BubblewrapProbe>();
const setprivCache = new Map<string, string | undefined>();

/** The first line of what a failed trial printed, or how it failed. */
function failureOf(result: ReturnType<typeof spawnSync>): string {
  if (result.error) return result.error.message;
  const text = String(result.stderr ?? '').trim();
  const line = text.split('\n')[0]?.trim();
  if (line) return line;
  return result.signal ? `killed by ${result.signal}` : `exit code ${result.status}`;
}

function trial(file: string, args: readonly string[]): ReturnType<typeof spawnSync> {
  return spawnSync(file, args, {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
}

function succeeded(result: ReturnType<typeof spawnSync>): boolean {
  return !result.error && result.status === 0;
}

/** Without a `Seccomp:` line in its status the kernel was built without seccomp. */
function kernelHasSeccomp(): boolean {
  try {
    return /^Seccomp:/m.test(readFileSync('/proc/self/status', 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Run the trial with the filter: it loads, or why not. Run first, since a success also proves
 * that bubblewrap creates its namespaces here.
 */
function filterTrial(path: string): UnixSocketFilterProbe {
  const arch = seccompArchOf(process.arch);
  if (arch === undefined) {
    return { state: 'unavailable', why: seccompText.noFilterFor(process.arch) };
  }
  const program = unixSocketFilter(arch);
  const filtered = spawnWithFilterSync(
    path,
    [...bwrapProbeArguments({ seccompFd: SECCOMP_FD }), 'true'],
    program,
    { timeout: PROBE_TIMEOUT_MS, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
  );
  if (succeeded(filtered)) return { state: 'loads', program };
  if (!kernelHasSeccomp()) return { state: 'unavailable', why: seccompText.kernelWithout };
  return { state: 'broken', why: seccompText.refused(failureOf(filtered)) };
}

function probeAt(path: string): BubblewrapProbe {
  const version = trial(path, ['--version']);
  if (!succeeded(version)) {
    return { usable: false, reason: sandboxText.bwrapBroken(path, failureOf(version)) };
  }
  const number = /(\d+(?:\.\d+)+)/.exec(String(version.stdout))?.[1] ?? 'unknown version';
  const filter = filterTrial(path);
  if (filter.state !== 'loads') {
    // The filter's failure means something only once bubblewrap is known to work without it.
    const sandboxed = trial(path, [...bwrapProbeArguments(), 'true']);
    if (!succeeded(sandboxed)) {
      return { usable: false, reason: sandboxText.bwrapRefused(path, failureOf(sandboxed)) };
    }
  }
  return { usable: true, path, version: number, filter };
}

/**
 * Find bubblewrap (`bwrapPath`, else `/usr/bin/bwrap` — which Ubuntu's AppArmor policy lets
 * create user namespaces —, else `bwrap` on `PATH`) and check that it works, once per binary and
 * process. Synchronous and quick (two tiny spawns, three when the filter does not load), so
 * `health` can call it.
 *
 * @example
 * const probe = probeBubblewrap();
 * if (!probe.usable) console.warn(probe.reason); // 'bwrap not found on PATH (…)'
 */
export function probeBubblewrap(bwrapPath?: string): BubblewrapProbe {
  if (process.platform !== 'linux') {
    return { usable: false, reason: sandboxText.notLinux(process.platform) };
  }
  const path =
    bwrapPath === undefined
      ? findExecutable('bwrap', process.env.PATH, ['/usr/bin/bwrap'])
      : findExecutable(bwrapPath, undefined, [bwrapPath]);
  if (path === undefined) {
    const reason =
      bwrapPath === undefined ? sandboxText.bwrapNotFound : sandboxText.bwrapMissingAt(bwrapPath);
    return { usable: false, reason };
  }
  let probe = bubblewrapCache.get(path);
  if (probe === undefined) {
    probe = probeAt(path);
    bubblewrapCache.set(path, probe);
  }
  return probe;
}

/**
 * The `setpriv` (util-linux) that can give a command `--pdeathsig KILL`, so it dies with the
 * harness when there is no sandbox; undefined when there is none (macOS, minimal images).
 * Checked once per process by running it.
 *
 * @example
 * const setpriv = findSetpriv(); // '/usr/bin/setpriv'
 */
export function findSetpriv(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const path = findExecutable('setpriv', process.env.PATH, ['/usr/bin/setpriv']);
  if (path === undefined) return undefined;
  if (!setprivCache.has(path)) {
    const result = trial(path, ['--pdeathsig', 'KILL', 'true']);
    setprivCache.set(path, result.error || result.status !== 0 ? undefined : path);
  }
  return setprivCache.get(path);
}

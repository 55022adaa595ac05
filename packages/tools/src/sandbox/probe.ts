import { spawnSync } from 'node:child_process';
import { bwrapProbeArguments } from './bwrap-args.js';
import { findExecutable } from './find-executable.js';
import { sandboxText } from './strings.js';

/**
 * Whether bubblewrap can sandbox commands here, learnt by running a trivial command in the same
 * namespaces the bash tool asks for (a binary on PATH proves nothing: user namespaces may be
 * disabled, or blocked by AppArmor).
 *
 * @example
 * const probe: BubblewrapProbe = { usable: true, path: '/usr/bin/bwrap', version: '0.8.0' };
 */
export type BubblewrapProbe =
  | { usable: true; path: string; version: string }
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

function probeAt(path: string): BubblewrapProbe {
  const version = trial(path, ['--version']);
  if (version.error || version.status !== 0) {
    return { usable: false, reason: sandboxText.bwrapBroken(path, failureOf(version)) };
  }
  const sandboxed = trial(path, [...bwrapProbeArguments(), 'true']);
  if (sandboxed.error || sandboxed.status !== 0) {
    return { usable: false, reason: sandboxText.bwrapRefused(path, failureOf(sandboxed)) };
  }
  const number = /(\d+(?:\.\d+)+)/.exec(String(version.stdout))?.[1] ?? 'unknown version';
  return { usable: true, path, version: number };
}

/**
 * Find bubblewrap (`bwrapPath`, else `/usr/bin/bwrap` — which Ubuntu's AppArmor policy lets
 * create user namespaces —, else `bwrap` on `PATH`) and check that it works, once per binary and
 * process. Synchronous and quick (two tiny spawns), so `health` can call it.
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

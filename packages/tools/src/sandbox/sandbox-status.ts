import { findSetpriv, probeBubblewrap } from './probe.js';
import {
  normalizeSandboxOptions,
  type ResolvedSandboxOptions,
  type SandboxMode,
  type SandboxOptions,
  type SandboxStatus,
} from './sandbox-options.js';
import { seccompText } from './seccomp-text.js';
import { sandboxText } from './strings.js';

/**
 * How commands will actually be started: inside bubblewrap, or directly (under `setpriv
 * --pdeathsig KILL` when there is one). `unusable` is set when `bwrap` was asked for and cannot
 * work, which callers turn into a configuration error rather than run unconfined.
 * `unixSocketFilter` is the seccomp program bubblewrap loads while the network is off.
 */
export interface ResolvedSandbox {
  status: SandboxStatus;
  options: ResolvedSandboxOptions;
  bwrapPath?: string;
  setpriv?: string;
  unusable?: boolean;
  unixSocketFilter?: { program: Uint8Array };
}

function withoutSandbox(
  options: ResolvedSandboxOptions,
  why: string,
  unusable = false,
): ResolvedSandbox {
  const setpriv = findSetpriv();
  const lifetime = setpriv === undefined ? sandboxText.noSetpriv : sandboxText.pdeathsig;
  // Refused outright, the reason is an error message: how commands would have run is beside it.
  const reason = unusable ? why : `${why}; ${lifetime}`;
  return {
    status: { mode: options.mode, active: 'off', reason },
    options,
    ...(setpriv === undefined ? {} : { setpriv }),
    ...(unusable ? { unusable } : {}),
  };
}

/**
 * Decide the sandbox for `option`: `off` as asked; `bwrap` and `auto` by probing bubblewrap once
 * per process ({@link probeBubblewrap}); `auto` falls back to `off`, `bwrap` is marked unusable.
 * With the network off, bubblewrap also loads the unix-socket filter. Where it cannot (another
 * architecture, a kernel without seccomp) the sandbox runs without it and the reason says so;
 * where bubblewrap refuses it for another reason, `bwrap` is unusable and `auto` keeps the rest of
 * the sandbox, again saying so.
 *
 * @example
 * const sandbox = resolveSandbox(normalizeSandboxOptions('auto'));
 * sandbox.status.active; // 'bwrap' where bubblewrap works
 */
export function resolveSandbox(options: ResolvedSandboxOptions): ResolvedSandbox {
  if (options.mode === 'off') return withoutSandbox(options, sandboxText.turnedOff);
  const probe = probeBubblewrap(options.bwrapPath);
  if (!probe.usable) {
    if (options.mode === 'bwrap') {
      return withoutSandbox(options, sandboxText.bwrapRequested(probe.reason), true);
    }
    return withoutSandbox(options, probe.reason);
  }
  const works = sandboxText.works(probe.version, probe.path);
  const active = (reason: string): ResolvedSandbox => ({
    status: { mode: options.mode, active: 'bwrap', reason },
    options,
    bwrapPath: probe.path,
  });
  if (options.network) return active(`${works}; ${sandboxText.networkOn}`);
  const filter = probe.filter;
  if (filter.state === 'loads') {
    return { ...active(works), unixSocketFilter: { program: filter.program } };
  }
  if (filter.state === 'broken' && options.mode === 'bwrap') {
    return withoutSandbox(options, sandboxText.bwrapRequested(filter.why), true);
  }
  return active(`${works}; ${seccompText.reachable(filter.why)}`);
}

/**
 * What a `sandbox` setting amounts to here, for `health` and a run banner: the mode asked for,
 * the one in force and why. Never throws; bubblewrap is probed once per process (one tiny spawn).
 *
 * @example
 * sandboxStatus('auto');
 * // { mode: 'auto', active: 'bwrap', reason: 'bubblewrap 0.8.0 works here (/usr/bin/bwrap)' }
 * sandboxStatus({ mode: 'off' }).active; // 'off'
 */
export function sandboxStatus(option?: SandboxMode | SandboxOptions): SandboxStatus {
  return resolveSandbox(normalizeSandboxOptions(option)).status;
}

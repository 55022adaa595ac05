import { ConfigurationError } from '@tiny-claw/core';
import { prepareCommandLaunch } from './command-launch.js';
import {
  normalizeSandboxOptions,
  type SandboxMode,
  type SandboxOptions,
} from './sandbox-options.js';
import { resolveSandbox } from './sandbox-status.js';

/**
 * How to start a long-running program (an MCP server) under the same confinement as `bash`:
 * run `launcher.command ...launcher.args <program> ...` with `env`, and, when `launcher.input` is
 * set, write its bytes to descriptor `input.fd` of the launcher (bubblewrap reads its unix-socket
 * filter there). `active` says whether bubblewrap confines it.
 *
 * @example
 * const launch: SandboxedLaunch = { launcher: { command: '/usr/bin/setpriv', args: ['--pdeathsig', 'KILL'] }, env: {}, active: 'off' };
 */
export interface SandboxedLaunch {
  launcher?: {
    command: string;
    args: readonly string[];
    input?: { fd: number; data: Uint8Array };
  };
  env: NodeJS.ProcessEnv;
  active: 'bwrap' | 'off';
}

/**
 * The launch of a program inside the sandbox `bash` commands get: with bubblewrap, `/` read-only,
 * the workdir writable, the credential locations, the protected paths and the state dir hidden,
 * its own PID namespace, killed with its parent (`--die-with-parent`), and the network as
 * `sandbox.network` says; without bubblewrap (`off`, or `auto` where it cannot work), directly
 * under `setpriv --pdeathsig KILL` when there is one, so the program still dies with its parent.
 * The launcher arguments come from the same builder `bash` uses.
 *
 * @throws ConfigurationError when `sandbox` is `'bwrap'` and bubblewrap cannot work here.
 * @example
 * const launch = await sandboxedLaunch({ sandbox: { mode: 'auto', network: true }, workdir: '/repo', env: { PATH: '/usr/bin' } });
 * spawn(launch.launcher?.command ?? 'server', [...(launch.launcher?.args ?? []), 'server'], { env: launch.env });
 */
export async function sandboxedLaunch(options: {
  sandbox?: SandboxMode | SandboxOptions;
  workdir: string;
  cwd?: string;
  protectedPaths?: readonly string[];
  env: NodeJS.ProcessEnv;
  /**
   * The program's own files when they lie under `/tmp`, which the sandbox replaces with an empty
   * one: kept readable (never writable), unless they are inside a mount the sandbox already
   * decides (the workdir, a hidden path).
   */
  readableTmp?: readonly string[];
}): Promise<SandboxedLaunch> {
  const sandbox = resolveSandbox(normalizeSandboxOptions(options.sandbox));
  if (sandbox.unusable) throw new ConfigurationError(sandbox.status.reason);
  const launch = await prepareCommandLaunch(sandbox, {
    workdir: options.workdir,
    cwd: options.cwd ?? options.workdir,
    protectedPaths: options.protectedPaths ?? [],
    env: options.env,
    ...(options.readableTmp === undefined ? {} : { readableTmp: options.readableTmp }),
  });
  const { launcher, launcherInput } = launch.processOptions;
  return {
    ...(launcher
      ? {
          launcher: {
            command: launcher.command,
            args: launcher.args,
            ...(launcherInput ? { input: launcherInput } : {}),
          },
        }
      : {}),
    env: launch.env,
    active: sandbox.status.active,
  };
}

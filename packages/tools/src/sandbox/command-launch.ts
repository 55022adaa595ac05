import path from 'node:path';
import { bwrapArguments, type SandboxMount } from './bwrap-args.js';
import type { GitGuard } from './git/git-guard.js';
import { defaultHiddenPaths } from './hidden-paths.js';
import { planMounts } from './mount-plan.js';
import type { ResolvedSandbox } from './sandbox-status.js';
import { SECCOMP_FD } from './seccomp-launch.js';

/**
 * How to start one command: through bubblewrap (`isolated`), or directly under `setpriv
 * --pdeathsig KILL` when there is one; with the environment to give it and, when sandboxed, the
 * paths it cannot see (spelled as the command might spell them, for advice).
 *
 * @example
 * const launch = await prepareCommandLaunch(sandbox, { workdir, cwd, protectedPaths, env });
 * runInProcessGroup({ command, cwd, env: launch.env, timeoutMs, ...launch.processOptions });
 */
export interface CommandLaunch {
  processOptions: {
    launcher?: { command: string; args: readonly string[] };
    launcherInput?: { fd: number; data: Uint8Array };
    isolated?: boolean;
    deathSignalHelper?: string;
  };
  env: NodeJS.ProcessEnv;
  /** Hidden paths as absolute paths, under HOME as `~/…` and `$HOME/…`, in the workdir relative. */
  hidden: readonly string[];
  /** With the sandbox: what guards git's metadata; audit it once the command has ended. */
  gitGuard?: GitGuard;
}

/** `target` relative to `base` when it lies strictly inside it. */
function under(base: string, target: string): string | undefined {
  const relative = path.relative(base, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative;
}

/** How a command may name a hidden path: absolute, from HOME, or relative to the workdir. */
function spellings(hidden: string, home: string | undefined, workdir: string): string[] {
  const names = [hidden];
  const fromHome = home && path.isAbsolute(home) ? under(home, hidden) : undefined;
  if (fromHome) names.push(`~/${fromHome}`, `$HOME/${fromHome}`, `\${HOME}/${fromHome}`);
  const fromWorkdir = under(workdir, hidden);
  if (fromWorkdir) names.push(fromWorkdir);
  return names;
}

/**
 * Prepare the launch of one command under `sandbox`. With bubblewrap this inspects the
 * filesystem (what exists, the git dirs, symlinks) each time, since it may change between
 * commands, and creates a missing protected directory inside the workdir so it can be hidden.
 * Inside the sandbox `TMPDIR` is `/tmp`, its private, writable temporary directory. While the
 * network is off, bubblewrap reads the unix-socket filter from a pipe (`launcherInput`).
 *
 * @example
 * const launch = await prepareCommandLaunch(sandbox, { workdir: '/repo', cwd: '/repo', protectedPaths: [], env });
 */
export async function prepareCommandLaunch(
  sandbox: ResolvedSandbox,
  input: {
    workdir: string;
    cwd: string;
    protectedPaths: readonly string[];
    env: NodeJS.ProcessEnv;
    /** Paths under `/tmp` (which the sandbox replaces with an empty one) to keep readable. */
    readableTmp?: readonly string[];
  },
): Promise<CommandLaunch> {
  if (sandbox.status.active === 'off' || sandbox.bwrapPath === undefined) {
    const setpriv = sandbox.setpriv;
    return {
      processOptions:
        setpriv === undefined
          ? {}
          : {
              launcher: { command: setpriv, args: ['--pdeathsig', 'KILL'] },
              deathSignalHelper: setpriv,
            },
      env: input.env,
      hidden: [],
    };
  }
  const planned = await planMounts({
    workdir: input.workdir,
    cwd: input.cwd,
    network: sandbox.options.network,
    hide: [...defaultHiddenPaths(input.env), ...sandbox.options.hide],
    protectedPaths: input.protectedPaths.map((entry) => path.resolve(input.workdir, entry)),
    env: input.env,
  });
  const kept: SandboxMount[] = [];
  for (const file of input.readableTmp ?? []) {
    const absolute = path.resolve(file);
    const covered = [...planned.mounts, ...kept].some(
      (mount) =>
        absolute === mount.path ||
        absolute.startsWith(`${mount.path}/`) ||
        mount.path.startsWith(`${absolute}/`),
    );
    // Only what the private /tmp would hide, never into or over a mount the plan already has.
    if (absolute.startsWith('/tmp/') && !covered) kept.push({ kind: 'read-only', path: absolute });
  }
  const plan = { ...planned, mounts: [...planned.mounts, ...kept] };
  const workdir = plan.mounts.find((mount) => mount.kind === 'writable')?.path ?? input.workdir;
  const hidden = plan.mounts
    .filter((mount) => mount.kind === 'hide-dir' || mount.kind === 'hide-file')
    .filter((mount) => mount.path !== plan.gitGuard.standIn)
    .flatMap((mount) => spellings(mount.path, input.env.HOME, workdir));
  const filter = sandbox.unixSocketFilter;
  const launcher = {
    command: sandbox.bwrapPath,
    args: bwrapArguments(plan, filter === undefined ? {} : { seccompFd: SECCOMP_FD }),
  };
  return {
    processOptions: {
      launcher,
      isolated: true,
      ...(filter === undefined ? {} : { launcherInput: { fd: SECCOMP_FD, data: filter.program } }),
    },
    env: { ...input.env, TMPDIR: '/tmp' },
    hidden,
    gitGuard: plan.gitGuard,
  };
}

import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../path-guard.js';
import type { SandboxMount, SandboxPlan } from './bwrap-args.js';
import { type GitGuard, prepareGitGuard } from './git/git-guard.js';
import { realOrUndefined } from './git/git-layout.js';

/**
 * What one sandboxed command is planned from.
 *
 * @example
 * const input: MountPlanInput = { workdir: '/repo', cwd: '/repo/src', network: false, hide: [], protectedPaths: ['/repo/.tiny-claw'], env: process.env };
 */
export interface MountPlanInput {
  /** The workdir: the only writable place (with a private /tmp). */
  workdir: string;
  /** Absolute directory the command starts in, inside the workdir. */
  cwd: string;
  network: boolean;
  /** Absolute paths to hide (credential locations, user additions). */
  hide: readonly string[];
  /**
   * Paths hidden *and* never writable, even before they exist (the state dir): a missing one
   * inside the workdir is created (mode 0700) so that it can be covered.
   */
  protectedPaths: readonly string[];
  /** The command's environment: where git's own configuration files are (HOME, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
}

/**
 * A sandbox plan with the git guard that made its git mounts; audit the guard after the command
 * (see `auditGitGuard`).
 *
 * @example
 * const plan: PlannedSandbox = await planMounts(input);
 */
export interface PlannedSandbox extends SandboxPlan {
  readonly gitGuard: GitGuard;
}

async function hiddenMount(candidate: string): Promise<SandboxMount | undefined> {
  const real = await realOrUndefined(candidate);
  if (real === undefined || real === '/') return undefined;
  const info = await stat(real).catch(() => undefined);
  if (info === undefined) return undefined;
  return { kind: info.isDirectory() ? 'hide-dir' : 'hide-file', path: real };
}

/**
 * Inspect the filesystem and plan the mounts of one sandboxed command: the workdir writable, its
 * git metadata guarded (see `prepareGitGuard`), every hidden and protected path replaced. Paths that do not
 * exist are skipped (the rest of the filesystem is read-only, so they cannot be created) — except
 * protected paths inside the workdir, which are created first so they can be covered.
 *
 * A hidden directory that contains the workdir stays hidden around it (the workdir wins, being
 * deeper); a hidden or protected directory inside the workdir stays hidden, and nothing inside it
 * is bound back.
 *
 * @example
 * const plan = await planMounts({ workdir: '/repo', cwd: '/repo', network: false, hide: [], protectedPaths: [], env: process.env });
 * bwrapArguments(plan);
 */
export async function planMounts(input: MountPlanInput): Promise<PlannedSandbox> {
  const workdir = (await realOrUndefined(input.workdir)) ?? path.resolve(input.workdir);
  for (const entry of input.protectedPaths) {
    const absolute = path.resolve(workdir, entry);
    if (isInside(workdir, absolute) && absolute !== workdir) {
      await mkdir(absolute, { recursive: true, mode: 0o700 }).catch(() => {});
    }
  }
  const hidden = new Map<string, SandboxMount>();
  const candidates = [
    ...input.hide,
    ...input.protectedPaths.map((entry) => path.resolve(workdir, entry)),
  ];
  const absentHidden: string[] = [];
  for (const candidate of candidates) {
    const mount = await hiddenMount(candidate);
    if (mount && !hidden.has(mount.path)) hidden.set(mount.path, mount);
    else if (mount === undefined && path.isAbsolute(candidate)) absentHidden.push(candidate);
  }
  // Hidden places inside the workdir: binding anything inside them back would reveal it.
  const hiddenInside = [...hidden.keys()].filter((hiddenPath) => isInside(workdir, hiddenPath));
  const gitGuard = await prepareGitGuard(workdir, hiddenInside, input.env, absentHidden);
  return {
    mounts: [{ kind: 'writable', path: workdir }, ...hidden.values(), ...gitGuard.mounts],
    cwd: input.cwd,
    network: input.network,
    gitGuard,
  };
}

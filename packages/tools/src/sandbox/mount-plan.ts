import { mkdir, open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../path-guard.js';
import type { SandboxMount, SandboxPlan } from './bwrap-args.js';

/**
 * What one sandboxed command is planned from.
 *
 * @example
 * const input: MountPlanInput = { workdir: '/repo', cwd: '/repo/src', network: false, hide: [], protectedPaths: ['/repo/.tiny-claw'] };
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
}

/** Bytes read from a `.git` file when looking for its `gitdir:` line. */
const MAX_GITFILE_BYTES = 64 * 1024;

async function realOrUndefined(target: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch {
    return undefined;
  }
}

async function readHead(file: string, bytes: number): Promise<string | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * The git directories whose hooks and config a command must not change: `<workdir>/.git`, or the
 * target of a `.git` file's `gitdir:` line and its `commondir` (linked worktrees, submodules).
 * A `.git` directory without `hooks` gets an empty one, so that a command cannot plant hooks by
 * creating it.
 */
async function gitDirs(workdir: string): Promise<string[]> {
  const dotGit = path.join(workdir, '.git');
  const info = await stat(dotGit).catch(() => undefined);
  if (info?.isDirectory()) {
    const real = (await realOrUndefined(dotGit)) ?? dotGit;
    await mkdir(path.join(real, 'hooks')).catch(() => {});
    return [real];
  }
  if (!info?.isFile()) return [];
  const match = /^\s*gitdir:\s*(.+?)\s*$/m.exec((await readHead(dotGit, MAX_GITFILE_BYTES)) ?? '');
  if (!match?.[1]) return [];
  const gitdir = await realOrUndefined(path.resolve(workdir, match[1]));
  if (gitdir === undefined) return [];
  const common = (await readHead(path.join(gitdir, 'commondir'), 4096))?.trim();
  const commonDir = common ? await realOrUndefined(path.resolve(gitdir, common)) : undefined;
  return commonDir === undefined ? [gitdir] : [gitdir, commonDir];
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
 * git hooks and config read-only, every hidden and protected path replaced. Paths that do not
 * exist are skipped (the rest of the filesystem is read-only, so they cannot be created) — except
 * protected paths inside the workdir, which are created first so they can be covered.
 *
 * A hidden directory that contains the workdir stays hidden around it (the workdir wins, being
 * deeper); a hidden or protected directory inside the workdir stays hidden, and nothing inside it
 * is bound back.
 *
 * @example
 * const plan = await planMounts({ workdir: '/repo', cwd: '/repo', network: false, hide: [], protectedPaths: [] });
 * bwrapArguments(plan);
 */
export async function planMounts(input: MountPlanInput): Promise<SandboxPlan> {
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
  for (const candidate of candidates) {
    const mount = await hiddenMount(candidate);
    if (mount && !hidden.has(mount.path)) hidden.set(mount.path, mount);
  }
  // Hidden places inside the workdir: binding anything inside them back would reveal it.
  const hiddenInside = [...hidden.keys()].filter((hiddenPath) => isInside(workdir, hiddenPath));
  const readOnly: SandboxMount[] = [];
  for (const dir of await gitDirs(workdir)) {
    for (const name of ['hooks', 'config']) {
      const real = await realOrUndefined(path.join(dir, name));
      if (real === undefined || !isInside(workdir, real)) continue;
      if (hiddenInside.some((hiddenPath) => isInside(hiddenPath, real))) continue;
      readOnly.push({ kind: 'read-only', path: real });
    }
  }
  return {
    mounts: [{ kind: 'writable', path: workdir }, ...hidden.values(), ...readOnly],
    cwd: input.cwd,
    network: input.network,
  };
}

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../../path-guard.js';
import type { SandboxMount } from '../bwrap-args.js';
import { fixedConfigSources, gitConfigPaths } from './git-config-paths.js';
import { fileIdentity, indexGitlinks } from './git-index.js';
import {
  commonDirOf,
  type DotGit,
  dotGitOf,
  exists,
  GIT_CONTROL_ENTRIES,
  identityOf,
  isGitDirectory,
  realLocation,
  realOrUndefined,
  repositoryOf,
} from './git-layout.js';
import type { GitGuardReason } from './quarantine.js';
import { execLines, SEQUENCER_LISTS } from './rebase-todo.js';
import { holdStandIn } from './stand-in.js';

/**
 * The git guard keeps a sandboxed command from planting anything that git would run *outside*
 * the sandbox the next time someone uses git in the workdir (`core.fsmonitor`, `core.pager`,
 * aliases, filter drivers, hooks, a redirect to another git directory, a repository of its own).
 *
 * Before the command it plans mounts:
 * - the workdir's `.git` is pinned (a mount point cannot be renamed, removed or replaced);
 * - in every git directory inside the workdir, the configuration, hooks, `commondir` and the git
 *   directories of worktrees and submodules are read-only — objects, refs, the index and HEAD stay
 *   writable, so `git add`, `git commit` and `git checkout -b` work;
 * - where the workdir has no repository of its own, an empty read-only `.git` stands in for one,
 *   so no repository can be created there (git skips an empty `.git` when it looks for one);
 * - each submodule's `.git`, the hooks directory `core.hooksPath` names and every configuration
 *   file git includes are read-only when they lie in the workdir.
 * After the command (its whole PID namespace is gone by then, so nothing races the check) it moves
 * aside, never deletes, what appeared where git would read it: a new control entry, a repository
 * in a submodule's place or at the root, a hooks directory or included file that did not exist;
 * and it removes `exec` lines a paused rebase gained.
 */
export interface GitGuard {
  /** Mounts for the sandbox, on top of the writable workdir. */
  readonly mounts: readonly SandboxMount[];
  /** Paths kept read-only for git's sake, for advice when a command fails on one. */
  readonly readOnly: readonly string[];
  /** The stand-in `.git`, when the workdir has no repository of its own. */
  readonly standIn?: string;
  /** What the audit after the command compares with. */
  readonly snapshot: GitGuardSnapshot;
}

interface Watched {
  readonly path: string;
  readonly reason: GitGuardReason;
}

/** What the workdir looked like before the command, as far as the audit needs. */
export interface GitGuardSnapshot {
  readonly workdir: string;
  readonly dotGit: DotGit;
  /** Identity (device and inode) of `<workdir>/.git` itself. */
  readonly dotGitIdentity?: string;
  /** Identity of the git directory `<workdir>/.git` leads to, when it leads to one. */
  readonly gitDirIdentity?: string;
  /** Whether the workdir itself was a git directory (a bare repository). */
  readonly workdirWasGitDirectory: boolean;
  /** Paths that did not exist and must not appear. */
  readonly watched: readonly Watched[];
  /** The writable git directory whose index may gain submodules, with its gitlinks. */
  readonly index?: {
    readonly gitDir: string;
    readonly commonDir: string;
    readonly top: string;
    readonly identity?: string;
    readonly gitlinks: ReadonlySet<string>;
  };
  readonly todos: readonly {
    readonly gitDir: string;
    readonly file: string;
    readonly exec: readonly string[];
  }[];
}

/** The repository git finds from a directory above `workdir`: its git directory and top. */
async function enclosingRepository(
  workdir: string,
): Promise<{ gitDir: string; top: string } | undefined> {
  let dir = path.dirname(workdir);
  for (;;) {
    const found = await dotGitOf(dir);
    if (found.kind === 'directory' || found.kind === 'symlink')
      return { gitDir: found.gitDir, top: dir };
    if (found.kind === 'gitfile' && found.gitDir !== undefined)
      return { gitDir: found.gitDir, top: dir };
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

interface Planner {
  workdir: string;
  hidden: readonly string[];
  mounts: SandboxMount[];
  readOnly: string[];
  watched: Watched[];
}

/** Inside the workdir and not under a hidden path (which nothing may be bound into). */
function mountable(planner: Planner, target: string): boolean {
  return (
    isInside(planner.workdir, target) &&
    target !== planner.workdir &&
    !planner.hidden.some((hidden) => isInside(hidden, target))
  );
}

async function protect(planner: Planner, target: string, reason: GitGuardReason): Promise<void> {
  if (!mountable(planner, target)) return;
  const real = await realOrUndefined(target);
  if (real === undefined) {
    if (!(await exists(target))) planner.watched.push({ path: target, reason });
    return;
  }
  if (!mountable(planner, real) || planner.readOnly.includes(real)) return;
  planner.mounts.push({ kind: 'read-only', path: real });
  planner.readOnly.push(real);
}

async function protectGitDirectory(planner: Planner, gitDir: string): Promise<void> {
  if (!mountable(planner, gitDir)) return;
  // Pinned, so that it cannot be renamed or replaced while its control entries stay protected.
  if (gitDir !== path.join(planner.workdir, '.git'))
    planner.mounts.push({ kind: 'writable', path: gitDir });
  // A missing hooks directory is created empty, so that none can be planted in its place.
  await mkdir(path.join(gitDir, 'hooks')).catch(() => {});
  for (const name of GIT_CONTROL_ENTRIES)
    await protect(planner, path.join(gitDir, name), 'control_file');
}

/**
 * Look at the workdir's git metadata before a sandboxed command and plan its protection.
 * `workdir` is real (symlink-free); `hidden` are the paths the sandbox hides, and `absentHidden`
 * those it should hide but cannot yet, since they do not exist (tiny-claw's own settings file in
 * the workdir): one the command creates is moved aside afterwards too.
 *
 * @example
 * const guard = await prepareGitGuard('/repo', [], process.env);
 * const actions = await auditGitGuard(guard); // after the command
 */
export async function prepareGitGuard(
  workdir: string,
  hidden: readonly string[],
  env: NodeJS.ProcessEnv,
  absentHidden: readonly string[] = [],
): Promise<GitGuard> {
  // A hidden path that does not exist cannot be covered; one that appears is moved aside after.
  const watched: Watched[] = (await Promise.all(absentHidden.map(realLocation)))
    .filter((target) => isInside(workdir, target) && target !== workdir)
    .map((target) => ({ path: target, reason: 'hidden_created' }));
  const planner: Planner = { workdir, hidden, mounts: [], readOnly: [], watched };
  const dotGitPath = path.join(workdir, '.git');
  const dotGit = await dotGitOf(workdir);
  let standIn: string | undefined;
  let repository: { gitDir: string; top: string } | undefined;
  switch (dotGit.kind) {
    case 'directory':
      planner.mounts.push({ kind: 'writable', path: dotGitPath });
      repository = { gitDir: dotGit.gitDir, top: workdir };
      break;
    case 'symlink':
      repository = { gitDir: dotGit.gitDir, top: workdir };
      break;
    case 'gitfile':
      planner.mounts.push({ kind: 'read-only', path: dotGitPath });
      planner.readOnly.push(dotGitPath);
      if (dotGit.gitDir !== undefined) repository = { gitDir: dotGit.gitDir, top: workdir };
      break;
    case 'absent':
    case 'not-a-repository':
    case 'other':
      if (dotGit.kind === 'other') {
        repository = await enclosingRepository(workdir);
        break;
      }
      if (dotGit.kind === 'absent') await mkdir(dotGitPath, { mode: 0o755 }).catch(() => {});
      if (await exists(dotGitPath)) {
        standIn = dotGitPath;
        holdStandIn(workdir);
        planner.mounts.push({ kind: 'hide-dir', path: dotGitPath });
      }
      repository = await enclosingRepository(workdir);
      break;
  }
  const gitDirs: string[] = [];
  if (repository !== undefined) {
    gitDirs.push(repository.gitDir);
    const common = await commonDirOf(repository.gitDir);
    if (common !== undefined && common !== repository.gitDir) gitDirs.push(common);
  }
  for (const gitDir of gitDirs) await protectGitDirectory(planner, gitDir);

  let index: GitGuardSnapshot['index'];
  if (repository !== undefined) {
    const commonDir = gitDirs[1] ?? repository.gitDir;
    const read = await indexGitlinks(repository.gitDir, commonDir);
    const gitlinks = new Set(read.kind === 'read' ? read.gitlinks : []);
    for (const link of gitlinks) {
      await protect(planner, path.join(repository.top, link, '.git'), 'submodule_repository');
    }
    if (mountable(planner, repository.gitDir)) {
      index = {
        gitDir: repository.gitDir,
        commonDir,
        top: repository.top,
        identity: await fileIdentity(path.join(repository.gitDir, 'index')),
        gitlinks,
      };
    }
  }

  const configured = await gitConfigPaths(workdir, repository?.top ?? workdir, gitDirs, env);
  if (configured?.hooksPath !== undefined)
    await protect(planner, configured.hooksPath, 'hooks_path');
  for (const file of [...(configured?.includes ?? []), ...fixedConfigSources(env, [])])
    await protect(planner, file, 'included_config');

  const todos: GitGuardSnapshot['todos'][number][] = [];
  for (const gitDir of gitDirs.filter((dir) => mountable(planner, dir))) {
    for (const file of SEQUENCER_LISTS)
      todos.push({ gitDir, file, exec: await execLines(path.join(gitDir, file)) });
  }

  const ownGitDir = repositoryOf(dotGit);
  const dotGitIdentity = await identityOf(dotGitPath);
  const gitDirIdentity = ownGitDir === undefined ? undefined : await identityOf(ownGitDir);
  const snapshot: GitGuardSnapshot = {
    workdir,
    dotGit,
    ...(dotGitIdentity ? { dotGitIdentity } : {}),
    ...(gitDirIdentity ? { gitDirIdentity } : {}),
    workdirWasGitDirectory: ownGitDir === undefined && (await isGitDirectory(workdir)),
    watched: planner.watched,
    ...(index ? { index } : {}),
    todos,
  };
  return {
    mounts: planner.mounts,
    readOnly: planner.readOnly,
    ...(standIn ? { standIn } : {}),
    snapshot,
  };
}

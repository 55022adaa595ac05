import { lstat, mkdir, rmdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../../path-guard.js';
import type { SandboxMount } from '../bwrap-args.js';
import { fixedConfigSources, gitConfigPaths } from './git-config-paths.js';
import { fileIdentity, indexGitlinks } from './git-index.js';
import {
  commonDirOf,
  type DotGit,
  dotGitOf,
  GIT_CONTROL_ENTRIES,
  isGitDirectory,
  realLocation,
  realOrUndefined,
} from './git-layout.js';
import { type GitGuardAction, type GitGuardReason, quarantine } from './quarantine.js';
import { execLines, removeNewExecLines, TODO_FILES } from './rebase-todo.js';

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

/** Stand-ins in use per workdir in this process, so one command does not remove another's. */
const standInsInUse = new Map<string, number>();

async function identityOf(target: string): Promise<string | undefined> {
  const info = await lstat(target).catch(() => undefined);
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

async function exists(target: string): Promise<boolean> {
  return (await lstat(target).catch(() => undefined)) !== undefined;
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
        standInsInUse.set(workdir, (standInsInUse.get(workdir) ?? 0) + 1);
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
    for (const file of TODO_FILES)
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

/** The git directory `<workdir>/.git` leads to, when it leads to a repository. */
function repositoryOf(dotGit: DotGit): string | undefined {
  switch (dotGit.kind) {
    case 'directory':
    case 'symlink':
      return dotGit.gitDir;
    case 'gitfile':
      return dotGit.gitDir;
    default:
      return undefined;
  }
}

async function auditDotGit(snapshot: GitGuardSnapshot, standIn: string | undefined) {
  const actions: GitGuardAction[] = [];
  const dotGitPath = path.join(snapshot.workdir, '.git');
  let now = await dotGitOf(snapshot.workdir);
  if (standIn !== undefined) {
    const left = (standInsInUse.get(snapshot.workdir) ?? 1) - 1;
    if (left > 0) standInsInUse.set(snapshot.workdir, left);
    else standInsInUse.delete(snapshot.workdir);
    // The stand-in this guard made goes again once no command of this process uses it.
    if (snapshot.dotGit.kind === 'absent' && now.kind === 'not-a-repository' && now.empty) {
      if (left === 0) await rmdir(dotGitPath).catch(() => {});
      now = await dotGitOf(snapshot.workdir);
    }
  }
  const nowGitDir = repositoryOf(now);
  if (nowGitDir !== undefined && (await identityOf(nowGitDir)) !== snapshot.gitDirIdentity) {
    const before = repositoryOf(snapshot.dotGit);
    if (now.kind === 'gitfile' && snapshot.dotGit.kind === 'gitfile') {
      // The pointer is read-only; what changed is the directory it points to.
      actions.push(await quarantine(nowGitDir, 'repository_created'));
    } else {
      actions.push(
        await quarantine(
          dotGitPath,
          before === undefined ? 'repository_created' : 'dot_git_replaced',
        ),
      );
      // A symbolic `.git` is the one kind a command can swap (a mount point cannot be): restore it.
      if (snapshot.dotGit.kind === 'symlink')
        await symlink(snapshot.dotGit.target, dotGitPath).catch(() => {});
    }
    now = await dotGitOf(snapshot.workdir);
  } else if (
    snapshot.dotGit.kind === 'symlink' &&
    (await identityOf(dotGitPath)) !== snapshot.dotGitIdentity
  ) {
    if (await exists(dotGitPath)) actions.push(await quarantine(dotGitPath, 'dot_git_replaced'));
    await symlink(snapshot.dotGit.target, dotGitPath).catch(() => {});
    now = await dotGitOf(snapshot.workdir);
  }
  // With no repository at `.git`, git would take the workdir itself for a bare repository.
  if (
    repositoryOf(now) === undefined &&
    !snapshot.workdirWasGitDirectory &&
    (await isGitDirectory(snapshot.workdir))
  )
    actions.push(await quarantine(path.join(snapshot.workdir, 'HEAD'), 'bare_repository'));
  return actions;
}

async function auditIndex(snapshot: GitGuardSnapshot): Promise<GitGuardAction[]> {
  const index = snapshot.index;
  if (index === undefined) return [];
  if ((await fileIdentity(path.join(index.gitDir, 'index'))) === index.identity) return [];
  const read = await indexGitlinks(index.gitDir, index.commonDir);
  if (read.kind !== 'read') return [];
  const actions: GitGuardAction[] = [];
  for (const link of read.gitlinks) {
    if (index.gitlinks.has(link)) continue;
    const nested = path.join(index.top, link, '.git');
    if (isInside(snapshot.workdir, nested) && (await exists(nested)))
      actions.push(await quarantine(nested, 'submodule_repository'));
  }
  return actions;
}

/**
 * After the command: undo what it planted for git, and say what was undone (empty when nothing).
 *
 * @example
 * const actions = await auditGitGuard(guard);
 * if (actions.length > 0) console.log(actions.map((action) => action.path));
 */
export async function auditGitGuard(guard: GitGuard): Promise<GitGuardAction[]> {
  const { snapshot } = guard;
  const actions = await auditDotGit(snapshot, guard.standIn);
  for (const watched of snapshot.watched) {
    if (await exists(watched.path)) actions.push(await quarantine(watched.path, watched.reason));
  }
  actions.push(...(await auditIndex(snapshot)));
  for (const todo of snapshot.todos) {
    try {
      const removed = await removeNewExecLines(todo.gitDir, todo.file, todo.exec);
      if (removed.length > 0)
        actions.push({ reason: 'rebase_exec', path: path.join(todo.gitDir, todo.file), removed });
    } catch (error) {
      actions.push({
        reason: 'rebase_exec',
        path: path.join(todo.gitDir, todo.file),
        failed: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return actions;
}

/**
 * How a command or its errors may name the git metadata the guard keeps read-only: absolute,
 * and relative to the workdir (`.git`, `.git/config`).
 *
 * @example
 * gitProtectedSpellings(guard); // ['/repo/.git', '.git', '/repo/.git/config', '.git/config', …]
 */
export function gitProtectedSpellings(guard: GitGuard): string[] {
  const { workdir } = guard.snapshot;
  const absolute = [path.join(workdir, '.git'), ...guard.readOnly];
  if (guard.standIn !== undefined) absolute.push(guard.standIn);
  return [
    ...new Set(
      absolute.flatMap((target) => {
        const relative = path.relative(workdir, target);
        return relative && !relative.startsWith('..') ? [target, relative] : [target];
      }),
    ),
  ];
}

import { rmdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../../path-guard.js';
import type { GitGuard, GitGuardSnapshot } from './git-guard.js';
import { fileIdentity, indexGitlinks } from './git-index.js';
import { dotGitOf, exists, identityOf, isGitDirectory, repositoryOf } from './git-layout.js';
import { type GitGuardAction, quarantine } from './quarantine.js';
import { removeNewExecLines } from './rebase-todo.js';
import { releaseStandIn } from './stand-in.js';

async function auditDotGit(snapshot: GitGuardSnapshot, standIn: string | undefined) {
  const actions: GitGuardAction[] = [];
  const dotGitPath = path.join(snapshot.workdir, '.git');
  let now = await dotGitOf(snapshot.workdir);
  if (standIn !== undefined) {
    const left = releaseStandIn(snapshot.workdir);
    // The stand-in goes again once no command of this process uses it — also one an earlier
    // process left behind when it was killed mid-command (an empty `.git` either way).
    const wasEmpty =
      snapshot.dotGit.kind === 'absent' ||
      (snapshot.dotGit.kind === 'not-a-repository' && snapshot.dotGit.empty);
    if (wasEmpty && now.kind === 'not-a-repository' && now.empty) {
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

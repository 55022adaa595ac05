import { randomBytes } from 'node:crypto';
import { rename } from 'node:fs/promises';

/**
 * Why the git guard changed something after a sandboxed command:
 * - `repository_created`: a `.git` appeared at the workdir's root, where none was;
 * - `dot_git_replaced`: the workdir's `.git` was swapped for something else;
 * - `control_file`: a git directory gained a configuration, hooks or redirect entry;
 * - `submodule_repository`: a submodule path gained a repository of its own;
 * - `hooks_path`: the hooks directory git's configuration names was created;
 * - `included_config`: a configuration file git's configuration includes was created;
 * - `bare_repository`: the workdir itself became a git directory;
 * - `rebase_exec`: a paused rebase or cherry-pick gained commands to run;
 * - `hidden_created`: a path the sandbox hides (tiny-claw's own settings file) was created in the
 *   workdir, where tiny-claw would read it next time.
 *
 * @example
 * const reason: GitGuardReason = 'control_file';
 */
export type GitGuardReason =
  | 'repository_created'
  | 'dot_git_replaced'
  | 'control_file'
  | 'submodule_repository'
  | 'hooks_path'
  | 'included_config'
  | 'bare_repository'
  | 'rebase_exec'
  | 'hidden_created';

/**
 * One thing the git guard undid: `path` was moved to `movedTo` (kept, never deleted), or, for
 * `rebase_exec`, lines were removed from it. `failed` says why undoing it did not work.
 *
 * @example
 * const action: GitGuardAction = { reason: 'control_file', path: '/repo/.git/commondir', movedTo: '/repo/.git/commondir.tiny-claw-quarantine-…' };
 */
export interface GitGuardAction {
  readonly reason: GitGuardReason;
  readonly path: string;
  readonly movedTo?: string;
  /** Lines removed from `path` (rebase commands). */
  readonly removed?: readonly string[];
  readonly failed?: string;
}

/**
 * Move `target` aside, next to itself, under a name git never reads.
 *
 * @example
 * await quarantine('/repo/.git/commondir', 'control_file');
 */
export async function quarantine(target: string, reason: GitGuardReason): Promise<GitGuardAction> {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const movedTo = `${target}.tiny-claw-quarantine-${stamp}-${randomBytes(3).toString('hex')}`;
  try {
    await rename(target, movedTo);
    return { reason, path: target, movedTo };
  } catch (error) {
    return {
      reason,
      path: target,
      failed: error instanceof Error ? error.message : String(error),
    };
  }
}

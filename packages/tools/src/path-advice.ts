import type { PathGuardErrorType } from './path-guard.js';
import { failureOf, type ToolFailure } from './tool-failure.js';

/**
 * What the model should do when the path guard refuses a path, for every workspace tool alike.
 * Advice names bash only when the model can call it.
 *
 * @example
 * pathGuardFailure('protected_path', ['read', 'bash']).advice;
 * // 'Write somewhere else in the workspace. To change git state, run git commands with bash …'
 */
export function pathGuardFailure(
  errorType: PathGuardErrorType,
  visibleTools: readonly string[],
): ToolFailure {
  switch (errorType) {
    case 'invalid_path':
      return failureOf('invalid_arguments', pathAdvice.invalid);
    case 'path_outside_root':
      return failureOf('outside_workdir', pathAdvice.outside);
    case 'protected_path':
      return failureOf(
        'protected_path',
        visibleTools.includes('bash') ? pathAdvice.protectedWithBash : pathAdvice.protected,
      );
    case 'workdir_unavailable':
      return failureOf('execution_error', pathAdvice.workdirUnavailable);
  }
}

/**
 * Model-facing advice for path guard refusals, kept in one place for a future locale.
 *
 * @example
 * pathAdvice.outside; // 'Use a path relative to the workdir that stays inside it …'
 */
export const pathAdvice = {
  invalid:
    'Pass exactly one path, relative to the workdir, spelled as it appeared in earlier output (no control characters, no symlink loops).',
  outside:
    'Use a path relative to the workdir that stays inside it (no `..` that climbs out, no absolute path elsewhere, no symlink that points out). Do not try other spellings of the same path.',
  protectedWithBash:
    'Write somewhere else in the workspace. To change git state, run git commands with bash instead of writing into .git; the agent’s own state directory cannot be changed by tools at all.',
  protected:
    'Write somewhere else in the workspace, or ask the user to make this change; .git and the agent’s own state directory cannot be written by tools.',
  workdirUnavailable:
    'The workspace directory itself is missing or unreadable, so no path can work until it is restored; tell the user.',
} as const;

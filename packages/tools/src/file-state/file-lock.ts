import { withPathLock } from '@tiny-claw/workspace/files';

/**
 * Run `fn` while holding an in-process lock on `key` (use the canonical absolute path returned
 * by `resolveInWorkdir`). Calls for the same key run one after another in call order; other
 * keys are not blocked. The lock is released whether `fn` resolves or rejects. One lock table is
 * shared by the whole process, so every tool (edit, write, …) serialises on the same file even
 * when they were created with different ledgers or none.
 *
 * It does not protect against other processes: those are caught by the read ledger's
 * "modified since read" check instead.
 *
 * @example
 * await Promise.all([
 *   withFileLock('/repo/a.ts', () => editA()),
 *   withFileLock('/repo/a.ts', () => editB()), // starts after editA settles
 * ]);
 */
export const withFileLock: <T>(key: string, fn: () => Promise<T>) => Promise<T> = withPathLock;

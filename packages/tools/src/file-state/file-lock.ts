/** Tail of the queue per key; removed when the last holder releases, so the map never grows. */
const tails = new Map<string, Promise<void>>();

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
export async function withFileLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => held);
  tails.set(key, tail);
  try {
    await previous;
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/**
 * Number of keys currently locked or queued (for tests and leak checks).
 *
 * @example
 * lockedKeyCount(); // 0 when idle
 */
export function lockedKeyCount(): number {
  return tails.size;
}

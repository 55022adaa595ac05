const tails = new Map<string, Promise<void>>();

/**
 * Run `task` after every earlier task holding the same `key` (a path) has finished, so read-modify-
 * write sequences on one file never interleave within this process. Tasks on other keys run freely;
 * a failing task releases the lock like a succeeding one.
 *
 * @example
 * await withPathLock('/state/sessions/k/plan', () => rewriteTodo());
 */
export async function withPathLock<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => held);
  tails.set(key, tail);
  await previous;
  try {
    return await task();
  } finally {
    release();
    // The last holder removes the entry, so a long-lived process does not keep one per session.
    if (tails.get(key) === tail) tails.delete(key);
  }
}

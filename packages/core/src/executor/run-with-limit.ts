/**
 * Map `items` through `worker` with at most `limit` promises in flight; results keep input order.
 *
 * @example
 * await runWithLimit([1, 2, 3], 2, async (n) => n * 2); // [2, 4, 6]
 */
export async function runWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  worker: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await worker(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

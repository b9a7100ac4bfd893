/** Runs `work` over `items` with at most `limit` in flight, keeping input order. */
export async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  // One iterator shared by the workers: each takes the next item when it is free.
  const queue = items.entries();
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (const [index, item] of queue) results[index] = await work(item);
  });
  await Promise.all(workers);
  return results;
}

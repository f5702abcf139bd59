/** Runs tasks with at most `limit` in flight, starting none once `stop()` says so. */
export async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      await task(item);
    }
  });
  await Promise.all(workers);
}

// Runs an async function over items with at most `limit` calls in flight, results in item order.
// Used for cancels and lookups: the rate limiter decides when each request goes, this only keeps
// a burst from opening more requests at once than the transport has connections for.
// Invariants: every item is processed exactly once; a rejection of `fn` is the caller's to catch
// (callers pass functions that do not throw, and this fails fast if one does).
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i] as T, i);
    }
  };
  const n = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: n }, () => worker()));
  return out;
}

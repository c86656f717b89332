// Identity of two lists, item by item: how a consumer that keeps what it derived from a list (a
// map, a total) finds that a producer handed the same items again. The in-memory ledger keeps the
// object of every position that did not change, so a cycle with no fill finds its positions the same.

/** Whether `a` and `b` hold the very same items (===) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

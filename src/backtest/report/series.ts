// The report's series in time order, whole or per token, in linear time when they already are (as
// a backtest produces them): metrics.ts and html.ts read every series through these two, so the
// order rule is written once. Both keep the order of a stable sort by time (equal times keep
// input order), so a result never depends on which path ran; neither changes its argument.

/** `xs` in time order: `xs` itself when already so (no copy), else a stably sorted copy. */
export function byTime<T extends { readonly timeMs: number }>(xs: readonly T[]): readonly T[] {
  for (let i = 1; i < xs.length; i++)
    if ((xs[i] as T).timeMs < (xs[i - 1] as T).timeMs) return [...xs].sort((a, b) => a.timeMs - b.timeMs);
  return xs;
}

/**
 * Each token's samples in time order. The same lists as grouping byTime(xs) by token: a stable
 * sort of the whole keeps each token's equal-time samples in input order, as sorting each
 * token's own list does. Map keys are in order of first appearance in `xs` (callers sort keys).
 */
export function byTokenInTime<T extends { readonly timeMs: number; readonly tokenId: string }>(
  xs: readonly T[],
): Map<string, readonly T[]> {
  const groups = new Map<string, T[]>();
  for (const x of xs) {
    const l = groups.get(x.tokenId);
    if (l === undefined) groups.set(x.tokenId, [x]);
    else l.push(x);
  }
  // A list out of order is replaced by its sorted copy (byTime's result is a fresh array then).
  for (const [token, l] of groups) {
    const sorted = byTime(l);
    if (sorted !== l) groups.set(token, sorted as T[]);
  }
  return groups;
}

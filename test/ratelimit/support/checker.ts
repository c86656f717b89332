// An independent sliding-window checker for tests and the limiter benchmark: it shares no code
// with the limiter. Given the send times of one budget, it finds the largest number of sends in
// any window of length W, whatever its alignment, and counts the sends that found the window
// ending at them over the limit. The largest count over all half-open windows [a, a + W) is
// reached by a window ending at a send, so checking (t − W, t] for every send t is exhaustive.

export interface WindowCheck {
  /** Largest number of sends in any window of the length. */
  readonly max: number;
  /** Sends t for which (t − W, t] held more than the limit. */
  readonly violations: number;
}

export function checkWindow(times: readonly number[], limit: number, windowMs: number): WindowCheck {
  const t = [...times].sort((a, b) => a - b);
  let max = 0;
  let violations = 0;
  let lo = 0;
  for (let i = 0; i < t.length; i++) {
    const end = t[i] as number;
    while ((t[lo] as number) <= end - windowMs) lo++;
    // Sends at exactly `end` after i belong to this window too: count them.
    let hi = i;
    while (hi + 1 < t.length && t[hi + 1] === end) hi++;
    const n = hi - lo + 1;
    if (n > max) max = n;
    if (i - lo + 1 > limit) violations++;
  }
  return { max, violations };
}

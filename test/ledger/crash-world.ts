// What the ledger crash test and its child (crash-child.ts) agree on: the clock's start, the
// orders' size and how much of each the fake exchange matched (deterministic, in millionths).
export const CRASH_T0 = Date.UTC(2026, 5, 12, 12, 0, 0);
export const ORDER_SIZE = 10_000_000;
export const CYCLE_ORDERS = 20;

/** What the fake exchange says order k has matched: 0..10 shares of a 10-share order. */
export function exchangeMatched(k: number): number {
  return (k % 6) * 2_000_000;
}

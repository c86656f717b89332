// Refresh tolerance and maximum order age, for declarative strategies: reconcile keeps an order
// only at the exact (token, side, price) wanted, so a strategy that wants a resting order to stay
// when the wanted price moved a little re-states the order's own price. Rules, per wanted quote in
// the order given (inner quotes first):
// - a resting order of ours (live or in flight) on the same token and side, not yet claimed by an
//   earlier quote, within `tolerance` of the wanted price, is claimed: the exact price first, else
//   the nearest (the older on a tie);
// - a claimed order at another price is kept (the quote takes its price) only if `accept` allows
//   that price (the strategy's own invariants: range, tick, side of the mid) and it is not too old;
// - an order at least `maxAgeMs` old (live ones; 0: no limit) is refreshed: at the wanted price
//   the quote is left out this once, so reconcile cancels the order and the next call places it
//   anew; at another price the quote keeps its own price, which replaces the order at once.
// Output: one quote per key (quotes moved onto one price are merged, first tag kept). Pure.
import type { Price } from '../core/money.js';
import { remainingSize, type LiveOrder } from '../core/order.js';
import { MergedQuotes, type DesiredQuote } from '../core/quote.js';

export interface StickyOptions {
  /** Largest |resting price − wanted price| kept, price millionths (0: the exact price only). */
  readonly tolerance: number;
  /** Orders at least this old are refreshed (0: never). */
  readonly maxAgeMs: number;
  readonly nowMs: number;
  /** May this quote rest at price p instead of its own? */
  readonly accept: (q: DesiredQuote, p: Price) => boolean;
}

export function stickToResting(
  quotes: readonly DesiredQuote[],
  open: readonly LiveOrder[],
  o: StickyOptions,
): DesiredQuote[] {
  const candidates: LiveOrder[] = [];
  for (const x of open) if ((x.state === 'live' || x.state === 'inflight') && remainingSize(x) > 0) candidates.push(x);
  // Claimed candidates, by position (an order is open once: its id is claimed with it).
  const claimed: boolean[] = candidates.map(() => false);
  const out = new MergedQuotes();

  for (const q of quotes) {
    let best: LiveOrder | null = null;
    let bestAt = -1;
    for (let i = 0; i < candidates.length; i++) {
      const x = candidates[i] as LiveOrder;
      // The cheap comparisons first: most candidates are on another token or side.
      if (x.tokenId !== q.tokenId || x.side !== q.side || claimed[i] === true) continue;
      const d = Math.abs(x.price - q.price);
      if (d > o.tolerance) continue;
      if (best === null) {
        best = x;
        bestAt = i;
        continue;
      }
      const bd = Math.abs(best.price - q.price);
      if (d < bd || (d === bd && x.createdAtMs < best.createdAtMs)) {
        best = x;
        bestAt = i;
      }
    }
    if (best === null) {
      out.add(q);
      continue;
    }
    claimed[bestAt] = true;
    if (best.price === q.price) {
      if (!tooOld(best, o)) out.add(q);
      continue;
    }
    out.add(!tooOld(best, o) && o.accept(q, best.price) ? { ...q, price: best.price } : q);
  }
  return out.toArray();
}

/** A live order at least maxAgeMs old (0: no limit): refreshed. */
function tooOld(x: LiveOrder, o: StickyOptions): boolean {
  return o.maxAgeMs > 0 && x.state === 'live' && o.nowMs - x.createdAtMs >= o.maxAgeMs;
}

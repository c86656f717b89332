// The mutable two-sided price ladder that both the writer (to restate books at chunk starts) and
// the reader (to rebuild books) keep per token. Invariants: bids strictly descending, asks
// strictly ascending, every size > 0 (a change to size 0 removes the level, and removing an
// absent level is a no-op, as on the exchange's feed). Levels are immutable objects, so a Book
// built from a copy of the arrays never sees later changes.
import type { Level } from '../../core/book.js';
import type { Price, Shares } from '../../core/money.js';

export class Ladder {
  bids: Level[] = [];
  asks: Level[] = [];

  /** Replaces both sides; inputs must already be best-first (as in a Book). */
  replace(bids: readonly Level[], asks: readonly Level[]): void {
    this.bids = bids.slice();
    this.asks = asks.slice();
  }

  set(side: 'bids' | 'asks', price: Price, size: Shares): void {
    const levels = side === 'bids' ? this.bids : this.asks;
    const desc = side === 'bids';
    // Binary search for the first index whose price is not better than `price`.
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      const p = (levels[m] as Level).price;
      if (desc ? p > price : p < price) lo = m + 1;
      else hi = m;
    }
    const at = levels[lo];
    if (at !== undefined && at.price === price) {
      if (size === 0) levels.splice(lo, 1);
      else levels[lo] = { price, size };
    } else if (size !== 0) {
      levels.splice(lo, 0, { price, size });
    }
  }
}

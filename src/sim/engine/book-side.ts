// One side (bids or asks) of a market's YES-terms book: an array indexed by price / grid, each slot
// a lazily created level holding a FIFO of resting orders (doubly linked, head = oldest) and their
// total remaining size, plus a pointer to the best level. Invariants: a level's qty is the sum of
// its orders' remaining and count their number; `best` is the highest non-empty bid index (−1 when
// none) or the lowest non-empty ask index (`slots` when none). Appending and unlinking are O(1);
// only emptying the best level scans, toward worse prices, to the next non-empty one.
// Named RestingSide/RestingLevel, not BookSide/Level: those are the core's aggregated book
// (src/core/book.ts), which this queue of orders renders into (market.ts `levels`).
import type { OrderNode } from './order.js';

export class RestingLevel {
  head: OrderNode | null = null;
  tail: OrderNode | null = null;
  qty = 0;
  count = 0;
}

export class RestingSide {
  levels: (RestingLevel | null)[];
  best: number;
  /** Resting orders on this side. */
  orders = 0;

  constructor(
    readonly isBid: boolean,
    public slots: number,
  ) {
    this.levels = new Array<RestingLevel | null>(slots).fill(null);
    this.best = isBid ? -1 : slots;
  }

  isEmpty(): boolean {
    return this.orders === 0;
  }

  /** Appends a resting order at the tail of its level's queue (time priority). */
  push(o: OrderNode, idx: number): void {
    let lv = this.levels[idx];
    if (lv === undefined || lv === null) {
      lv = new RestingLevel();
      this.levels[idx] = lv;
    }
    o.idx = idx;
    o.prev = lv.tail;
    o.next = null;
    if (lv.tail === null) lv.head = o;
    else lv.tail.next = o;
    lv.tail = o;
    lv.qty += o.remaining;
    lv.count++;
    this.orders++;
    o.resting = true;
    if (this.isBid ? idx > this.best : idx < this.best) this.best = idx;
  }

  /** Unlinks a resting order; its remaining size leaves the level's total. */
  remove(o: OrderNode): void {
    const idx = o.idx;
    const lv = this.levels[idx] as RestingLevel;
    if (o.prev === null) lv.head = o.next;
    else o.prev.next = o.next;
    if (o.next === null) lv.tail = o.prev;
    else o.next.prev = o.prev;
    o.prev = null;
    o.next = null;
    o.resting = false;
    lv.qty -= o.remaining;
    lv.count--;
    this.orders--;
    if (lv.count === 0 && idx === this.best) this.advanceBest();
  }

  /** A resting order's remaining shrank by `f` (a partial fill). */
  reduce(o: OrderNode, f: number): void {
    (this.levels[o.idx] as RestingLevel).qty -= f;
  }

  private advanceBest(): void {
    const levels = this.levels;
    if (this.isBid) {
      let i = this.best - 1;
      while (i >= 0) {
        const lv = levels[i];
        if (lv !== null && lv !== undefined && lv.count > 0) break;
        i--;
      }
      this.best = i;
    } else {
      const n = this.slots;
      let i = this.best + 1;
      while (i < n) {
        const lv = levels[i];
        if (lv !== null && lv !== undefined && lv.count > 0) break;
        i++;
      }
      this.best = i;
    }
  }

  /**
   * Re-indexes every level after the market's grid narrowed by `factor` (new grid = old / factor):
   * index i moves to i × factor. Queues and their order are kept as they are.
   */
  regrid(factor: number, slots: number): void {
    const oldSlots = this.slots;
    const next = new Array<RestingLevel | null>(slots).fill(null);
    for (let i = 0; i < this.levels.length; i++) {
      const lv = this.levels[i];
      if (lv === null || lv === undefined || lv.count === 0) continue;
      const j = i * factor;
      next[j] = lv;
      for (let o = lv.head; o !== null; o = o.next) o.idx = j;
    }
    this.levels = next;
    this.slots = slots;
    if (this.isBid) this.best = this.best < 0 ? -1 : this.best * factor;
    else this.best = this.best >= oldSlots ? slots : this.best * factor;
  }
}

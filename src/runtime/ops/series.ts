// The console's equity and inventory history: a bounded ring of samples, one per ops tick (a
// second), stamped by the injected clock. Invariants kept: at most `capacity` samples, oldest
// dropped first; times never go backwards (a sample older than the newest is refused, so the chart's
// x axis is monotonic); values are floats for display only (derived from exact millionths by the
// caller, never read back into money).
import { InvariantError } from '../../core/errors.js';

export interface SeriesPoint {
  /** Epoch ms, from the injected clock. */
  readonly t: number;
  /** PnL total (realized + unrealized at the mids), collateral units. */
  readonly equity: number;
  /** Shares held, summed over every token. */
  readonly inventory: number;
}

/** Columns, oldest first, as the page's chart takes them (t in epoch seconds). */
export interface SeriesColumns {
  readonly t: number[];
  readonly equity: number[];
  readonly inventory: number[];
}

/** Two hours at one sample a second. */
export const DEFAULT_SERIES_CAPACITY = 7_200;

export class SeriesRing {
  readonly capacity: number;
  private readonly buf: Array<SeriesPoint | undefined>;
  /** Index of the oldest sample. */
  private head = 0;
  private count = 0;

  constructor(capacity = DEFAULT_SERIES_CAPACITY) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new InvariantError(`series capacity must be a positive integer, got ${String(capacity)}`);
    this.capacity = capacity;
    this.buf = new Array<SeriesPoint | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The newest sample, or null when empty. */
  last(): SeriesPoint | null {
    return this.count === 0 ? null : (this.buf[(this.head + this.count - 1) % this.capacity] ?? null);
  }

  /** Appends a sample; false (and nothing kept) when it is older than the newest. */
  push(p: SeriesPoint): boolean {
    const newest = this.last();
    if (newest !== null && p.t < newest.t) return false;
    if (this.count < this.capacity) {
      this.buf[(this.head + this.count) % this.capacity] = p;
      this.count++;
    } else {
      this.buf[this.head] = p;
      this.head = (this.head + 1) % this.capacity;
    }
    return true;
  }

  /** Every sample, oldest first. */
  points(): SeriesPoint[] {
    const out: SeriesPoint[] = [];
    for (let i = 0; i < this.count; i++) {
      const p = this.buf[(this.head + i) % this.capacity];
      if (p !== undefined) out.push(p);
    }
    return out;
  }

  columns(): SeriesColumns {
    const c: SeriesColumns = { t: [], equity: [], inventory: [] };
    for (const p of this.points()) {
      c.t.push(p.t / 1000);
      c.equity.push(p.equity);
      c.inventory.push(p.inventory);
    }
    return c;
  }
}

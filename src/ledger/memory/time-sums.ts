// Sums of amounts by record time, for the in-memory ledger's daily PnL: "Σ realized_delta recorded
// at or after t" (the SQLite ledger's `sum(...) WHERE recorded_at_ms >= ?`) in O(log n), and the
// latest entry at or before t (the PnL baseline snapshot, `ORDER BY at_ms DESC, seq DESC`).
// Invariants kept:
// - entries are kept in append order (= record order, = seq order) in growable typed arrays, with
//   prefix sums, so no object is allocated per entry;
// - while every entry's time is ≥ the previous one's (a clock that never steps back: the virtual
//   clock of a backtest), reads binary-search; after a step back they scan (O(n)), exact either way;
// - amounts are safe integers and so are their sums (millionths of money), so float64 sums are exact.

export class TimeSums {
  private times: Float64Array;
  private values: Float64Array;
  /** prefix[i] = Σ values[0..i); prefix has one more slot than the entries. */
  private prefix: Float64Array;
  private n = 0;
  private ordered = true;

  constructor(capacity = 1024) {
    this.times = new Float64Array(capacity);
    this.values = new Float64Array(capacity);
    this.prefix = new Float64Array(capacity + 1);
  }

  get length(): number {
    return this.n;
  }

  /** Appends an entry; returns its 1-based sequence number. */
  push(atMs: number, value: number): number {
    if (this.n === this.times.length) this.grow();
    if (this.n > 0 && atMs < (this.times[this.n - 1] as number)) this.ordered = false;
    this.times[this.n] = atMs;
    this.values[this.n] = value;
    this.prefix[this.n + 1] = (this.prefix[this.n] as number) + value;
    this.n++;
    return this.n;
  }

  /** Σ values of the entries whose time is ≥ t. */
  sumSince(t: number): number {
    const n = this.n;
    if (this.ordered) return (this.prefix[n] as number) - (this.prefix[this.firstIndex(t, false)] as number);
    let s = 0;
    for (let i = 0; i < n; i++) if ((this.times[i] as number) >= t) s += this.values[i] as number;
    return s;
  }

  /**
   * Index (0-based) of the entry with the latest time ≤ t, the later-appended among equal times,
   * or -1 when there is none.
   */
  latestAtOrBefore(t: number): number {
    const n = this.n;
    if (this.ordered) return this.firstIndex(t, true) - 1;
    let best = -1;
    for (let i = 0; i < n; i++) {
      const at = this.times[i] as number;
      if (at <= t && (best < 0 || at >= (this.times[best] as number))) best = i;
    }
    return best;
  }

  /** In time order: the first index whose time is ≥ t, or (`after`) > t; n when none. */
  private firstIndex(t: number, after: boolean): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.times[mid] as number;
      if (at < t || (after && at === t)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  timeAt(i: number): number {
    return this.times[i] as number;
  }

  valueAt(i: number): number {
    return this.values[i] as number;
  }

  clear(): void {
    this.n = 0;
    this.ordered = true;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const t = new Float64Array(cap);
    t.set(this.times);
    const v = new Float64Array(cap);
    v.set(this.values);
    const p = new Float64Array(cap + 1);
    p.set(this.prefix);
    this.times = t;
    this.values = v;
    this.prefix = p;
  }
}

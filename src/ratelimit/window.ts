// One exact sliding window: at most `limit` sends in any span of `windowMs` (+ `marginMs`),
// whatever the alignment. Shared by the client limiter and the simulator's edge throttling.
//
// Structure: a ring buffer holding the send times of the last `limit` sends, oldest first. A new
// send of cost c at `now` is admitted iff the (limit − c + 1)-th most recent send is at least
// windowMs + marginMs old, which is exactly "the window ending now would hold ≤ limit sends".
// That makes every check O(1) and the log never holds more than `limit` entries.
//
// Invariants kept:
// - times are recorded in non-decreasing order (a time earlier than the last one is recorded as
//   the last one: later is the conservative direction, it expires later);
// - a send is "in" the window while now − t < windowMs + marginMs; any limit + 1 consecutive
//   admitted sends are therefore at least windowMs + marginMs apart;
// - nothing is refunded: a recorded send stays until it ages out.
import { RateLimitConfigError } from './errors.js';

export class SlidingWindowLog {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  /** windowMs + marginMs: how long a send counts. */
  readonly spanMs: number;
  private readonly times: Float64Array;
  /** Next write position in the ring. */
  private next = 0;
  /** Entries held (≤ limit). */
  private size = 0;

  constructor(limit: number, windowMs: number, marginMs = 0) {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new RateLimitConfigError(`window limit must be a positive integer, got ${String(limit)}`);
    if (!Number.isFinite(windowMs) || windowMs <= 0)
      throw new RateLimitConfigError(`windowMs must be positive, got ${String(windowMs)}`);
    if (!Number.isFinite(marginMs) || marginMs < 0)
      throw new RateLimitConfigError(`marginMs must be ≥ 0, got ${String(marginMs)}`);
    this.limit = limit;
    this.windowMs = windowMs;
    this.marginMs = marginMs;
    this.spanMs = windowMs + marginMs;
    this.times = new Float64Array(limit);
  }

  /**
   * True when `cost` sends at `now` fit while still leaving `reserve` slots free for others
   * (the scheduler's reservations for earlier, higher-priority waiters).
   */
  hasRoom(now: number, cost = 1, reserve = 0): boolean {
    // Index, counted from the newest (0), of the entry that must have aged out.
    const k = this.limit - cost - reserve;
    if (k < 0) return false;
    if (k >= this.size) return true;
    let i = this.next - 1 - k;
    if (i < 0) i += this.limit;
    return now - (this.times[i] as number) >= this.spanMs;
  }

  /** Records `cost` sends at `now`. Call only after hasRoom said yes (tryAdmit does both). */
  record(now: number, cost = 1): void {
    const times = this.times;
    const cap = this.limit;
    let t = now;
    if (this.size > 0) {
      const last = times[this.next === 0 ? cap - 1 : this.next - 1] as number;
      if (t < last) t = last;
    }
    let n = this.next;
    for (let j = 0; j < cost; j++) {
      times[n] = t;
      n = n + 1 === cap ? 0 : n + 1;
    }
    this.next = n;
    this.size = Math.min(cap, this.size + cost);
  }

  /** Admits and records `cost` sends at `now` if they fit; false (nothing recorded) otherwise. */
  tryAdmit(now: number, cost = 1): boolean {
    if (!this.hasRoom(now, cost)) return false;
    this.record(now, cost);
    return true;
  }

  /**
   * Milliseconds from `now` until `cost` sends would fit (leaving `reserve` free), assuming no
   * other send is recorded meanwhile. 0 when they fit now; Infinity when cost + reserve > limit
   * (the reservations must be consumed first; see waitForSlotMs for a queue-aware estimate).
   */
  waitMs(now: number, cost = 1, reserve = 0): number {
    const k = this.limit - cost - reserve;
    if (k < 0) return Number.POSITIVE_INFINITY;
    if (k >= this.size) return 0;
    let i = this.next - 1 - k;
    if (i < 0) i += this.limit;
    const w = (this.times[i] as number) + this.spanMs - now;
    return w > 0 ? w : 0;
  }

  /** Same as waitMs with reserve 0: the Retry-After a server would give for this window. */
  retryAfterMs(now: number, cost = 1): number {
    return this.waitMs(now, cost, 0);
  }

  /**
   * Earliest wait until slot number `slot` (1-based) among future sends becomes usable, assuming
   * every earlier future slot is taken as soon as it frees. Past one window's worth of slots this
   * chains whole spans, so it stays a finite lower bound for long queues.
   */
  waitForSlotMs(now: number, slot: number): number {
    if (slot <= 0) return 0;
    let extraSpans = 0;
    let s = slot;
    while (s > this.limit) {
      s -= this.limit;
      extraSpans++;
    }
    const base = this.waitMs(now, s, 0);
    if (extraSpans === 0) return base;
    // Slot s + j·limit can be used no sooner than one span after slot s + (j − 1)·limit.
    return base + extraSpans * this.spanMs;
  }

  /** Sends that still count at `now` (now − t < windowMs + marginMs). O(log limit). */
  count(now: number): number {
    // Entries are sorted by time; binary search the oldest one still inside.
    let lo = 0;
    let hi = this.size; // answer in [0, size]: number of entries, from the newest, that are inside
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1; // try "mid newest entries are inside"
      let i = this.next - mid;
      if (i < 0) i += this.limit;
      if (now - (this.times[i] as number) < this.spanMs) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Forgets every send (tests and the simulator's reset only). */
  clear(): void {
    this.next = 0;
    this.size = 0;
  }
}

/**
 * Several windows enforced together (a route's own windows, the combined cap, the general cap):
 * a send is admitted only if every window has room, and is then recorded in all of them.
 */
export class WindowSet {
  readonly windows: readonly SlidingWindowLog[];

  constructor(windows: readonly SlidingWindowLog[]) {
    this.windows = windows;
  }

  /** Builds a set from window specs with one margin. */
  static of(specs: readonly { readonly limit: number; readonly windowMs: number }[], marginMs = 0): WindowSet {
    return new WindowSet(specs.map((s) => new SlidingWindowLog(s.limit, s.windowMs, marginMs)));
  }

  hasRoom(now: number, cost = 1): boolean {
    const ws = this.windows;
    for (let i = 0; i < ws.length; i++) if (!(ws[i] as SlidingWindowLog).hasRoom(now, cost)) return false;
    return true;
  }

  record(now: number, cost = 1): void {
    const ws = this.windows;
    for (let i = 0; i < ws.length; i++) (ws[i] as SlidingWindowLog).record(now, cost);
  }

  tryAdmit(now: number, cost = 1): boolean {
    if (!this.hasRoom(now, cost)) return false;
    this.record(now, cost);
    return true;
  }

  /** Wait until every window has room for `cost` (the largest of the windows' waits). */
  retryAfterMs(now: number, cost = 1): number {
    let w = 0;
    for (const win of this.windows) w = Math.max(w, win.retryAfterMs(now, cost));
    return w;
  }
}

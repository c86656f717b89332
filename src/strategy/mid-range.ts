// The lowest and highest mid of a MidSeries over a time window ending now: what the fast-mid guard
// asks of a token every cycle (guards.ts midMove). A scan reads every sample of the window (the
// book cache keeps 120), so it is answered from two monotonic deques kept per mid column and
// window length, fed with the samples appended since the last question: O(1) a question, amortized
// (windowMove: the largest move from a mid over the window, mirrored or not).
// Invariants:
// - the answer is exactly the scan's: the minimum and maximum of mid[i] over the indices i in
//   [start, end) with atMs[i] ≥ since (atMs never decreases along a column), NaN samples ignored;
// - a question the deques cannot answer (a window starting earlier than the last one asked, a
//   series that ends before samples already taken, other columns under the same key) is scanned;
// - the deques hold indices of the column, which is append-only (MidSeries: entries before `end`
//   are never written again); a column that is replaced (the cache grew or compacted it) is a
//   new key, so its deques start afresh.
import type { MidSeries } from '../core/book.js';
import { SCALE } from '../core/money.js';

interface Deques {
  readonly atMs: ArrayLike<number>;
  /** Next index of the column to take in. */
  next: number;
  /** The window start of the last question. */
  since: number;
  /** Indices whose mids increase (front: the minimum of the window). */
  readonly minQ: number[];
  minHead: number;
  /** Indices whose mids decrease (front: the maximum). */
  readonly maxQ: number[];
  maxHead: number;
}

/** Per mid column, per window length. */
const deques = new WeakMap<object, Map<number, Deques>>();

/** The lowest and highest mid of the last question (`empty`: none in the window). */
const range = { lo: 0, hi: 0, empty: true };

/**
 * The largest |mid − sample| over the samples of `series` at or after `since` (0 when there is
 * none); with `flip`, each sample counts as 1 − its mid (mirrored, the highest gives the lowest).
 * `windowMs` names the deques (one set per window length asked of a column).
 */
export function windowMove(series: MidSeries, since: number, windowMs: number, mid: number, flip: boolean): number {
  windowRange(series, since, windowMs);
  let lo = mid;
  let hi = mid;
  if (!range.empty) {
    const low = flip ? SCALE - range.hi : range.lo;
    const high = flip ? SCALE - range.lo : range.hi;
    if (low < lo) lo = low;
    if (high > hi) hi = high;
  }
  return Math.max(mid - lo, hi - mid);
}

/** Sets `range` for the samples of `series` at or after `since`. */
function windowRange(series: MidSeries, since: number, windowMs: number): void {
  const d = dequesOf(series, since, windowMs);
  if (d === null) {
    scanRange(series, since);
    return;
  }
  const mids = series.mid;
  const at = series.atMs;
  for (let i = Math.max(d.next, series.start); i < series.end; i++) {
    const v = mids[i] as number;
    if (Number.isNaN(v)) continue;
    while (d.minQ.length > d.minHead && (mids[d.minQ[d.minQ.length - 1] as number] as number) >= v) d.minQ.pop();
    d.minQ.push(i);
    while (d.maxQ.length > d.maxHead && (mids[d.maxQ[d.maxQ.length - 1] as number] as number) <= v) d.maxQ.pop();
    d.maxQ.push(i);
  }
  d.next = Math.max(d.next, series.end);
  d.since = since;
  d.minHead = evict(d.minQ, d.minHead, series.start, at, since);
  d.maxHead = evict(d.maxQ, d.maxHead, series.start, at, since);
  if (d.minHead === d.minQ.length) {
    range.empty = true;
    return;
  }
  range.empty = false;
  range.lo = mids[d.minQ[d.minHead] as number] as number;
  range.hi = mids[d.maxQ[d.maxHead] as number] as number;
}

/** The deques for this question, or null when it must be scanned (see the header). */
function dequesOf(series: MidSeries, since: number, windowMs: number): Deques | null {
  let byWindow = deques.get(series.mid);
  if (byWindow === undefined) {
    byWindow = new Map();
    deques.set(series.mid, byWindow);
  }
  const d = byWindow.get(windowMs);
  if (d === undefined || d.atMs !== series.atMs) {
    const fresh: Deques = { atMs: series.atMs, next: 0, since, minQ: [], minHead: 0, maxQ: [], maxHead: 0 };
    byWindow.set(windowMs, fresh);
    return fresh;
  }
  return since < d.since || series.end < d.next ? null : d;
}

/** Drops the front indices before `start` or older than `since`; compacts the array now and then. */
function evict(q: number[], head: number, start: number, at: ArrayLike<number>, since: number): number {
  let h = head;
  while (h < q.length && ((q[h] as number) < start || (at[q[h] as number] as number) < since)) h++;
  if (h > 64 && h * 2 > q.length) {
    q.splice(0, h);
    return 0;
  }
  return h;
}

/** The scan the deques stand for. */
function scanRange(series: MidSeries, since: number): void {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  const at = series.atMs;
  const mids = series.mid;
  for (let i = series.end - 1; i >= series.start; i--) {
    if ((at[i] as number) < since) break;
    const m = mids[i] as number;
    if (m < lo) lo = m;
    if (m > hi) hi = m;
  }
  range.empty = lo > hi;
  range.lo = lo;
  range.hi = hi;
}

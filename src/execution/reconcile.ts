// Reconcile: the pure diff between the quotes wanted resting and our orders (docs/ARCHITECTURE.md §3).
// Orders are keyed by (token, side, price); a key whose resting size is within the size tolerance
// of what is wanted is left alone, so an unchanged quote keeps its place in the queue. Invariants:
// - at most one placement per key, and none at a key with an in-flight or unknown order (an
//   in-flight placement already counts as resting; an unknown one may be resting);
// - only `live` orders are cancelled: in-flight ones are not known to the exchange yet, cancelling
//   ones are already on their way out (their size does not count as resting), unknown ones wait
//   for the order manager's lookup;
// - when too much rests at a key, the oldest orders are kept up to the wanted size and the
//   youngest cancelled (queue priority is age);
// - applying the plan (cancels → `cancelling`, placements → `inflight`) and reconciling again
//   yields an empty plan (idempotence, property-tested);
// - the output depends only on the inputs, never on their order.
import { InvariantError } from '../core/errors.js';
import { mulMicros, type Shares } from '../core/money.js';
import { remainingSize, type LiveOrder, type Side } from '../core/order.js';
import type { DesiredQuote } from '../core/quote.js';
import {
  quoteKey,
  type BlockedKey,
  type CancelIntent,
  type CancelReason,
  type PlacementIntent,
  type ReconcilePlan,
} from './types.js';

export interface ReconcileOptions {
  /** Absolute size tolerance in share millionths (default 0). */
  readonly toleranceShares?: number;
  /** Relative size tolerance in basis points of the wanted size (default 0). The larger wins. */
  readonly toleranceBps?: number;
  /**
   * Minimum order size of a token, share millionths. A shortfall smaller than this cannot be
   * topped up with a second order, so the key is replaced whole instead. Default: no minimum.
   */
  readonly minOrderSize?: (tokenId: string) => number;
}

interface Want {
  readonly tokenId: string;
  readonly side: Side;
  readonly price: number;
  size: number;
  readonly tag: string | undefined;
  /** The first quote's post-only choice at the key (absent: the daemon's default). */
  readonly postOnly: boolean | undefined;
}

/** The tolerance around a wanted size D: max(absolute, D × bps / 10⁴), floored. */
export function sizeTolerance(wanted: number, opts: ReconcileOptions = {}): number {
  const abs = opts.toleranceShares ?? 0;
  const bps = opts.toleranceBps ?? 0;
  if (!Number.isSafeInteger(abs) || abs < 0)
    throw new InvariantError(`toleranceShares must be a non-negative integer, got ${String(abs)}`);
  if (!Number.isSafeInteger(bps) || bps < 0)
    throw new InvariantError(`toleranceBps must be a non-negative integer, got ${String(bps)}`);
  // D × bps / 10⁴ = mulMicros(D, bps × 100): exact even when D × bps passes 2^53.
  return Math.max(abs, mulMicros(wanted, bps * 100, 'floor'));
}

export function reconcile(
  desired: readonly DesiredQuote[],
  live: readonly LiveOrder[],
  opts: ReconcileOptions = {},
): ReconcilePlan {
  const wants = aggregateDesired(desired);
  const byKey = groupOrders(live);
  const keys = sortedKeys(wants, byKey);

  const cancels: CancelIntent[] = [];
  const placements: Omit<PlacementIntent, 'kind'>[] = [];
  const kept: LiveOrder[] = [];
  const blocked: BlockedKey[] = [];

  const cancel = (o: LiveOrder, key: string, reason: CancelReason): void => {
    cancels.push({ orderId: o.id, key, tokenId: o.tokenId, side: o.side, price: o.price, reason });
  };

  for (const key of keys) {
    const want = wants.get(key);
    const orders = byKey.get(key) ?? [];
    const pending = orders.filter((o) => (o.state === 'inflight' || o.state === 'unknown') && remainingSize(o) > 0);
    const resting = orders
      .filter((o) => o.state === 'live' && remainingSize(o) > 0)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || compareStrings(a.id, b.id));

    if (want === undefined) {
      for (const o of resting) cancel(o, key, 'not-desired');
      continue;
    }

    const wanted = want.size;
    const tol = sizeTolerance(wanted, opts);
    // Pending orders cannot be cancelled, so they are counted first; then the oldest live
    // orders are kept while they fit under the upper bound.
    let total = 0;
    const keptHere: LiveOrder[] = [];
    for (const o of pending) {
      total += remainingSize(o);
      keptHere.push(o);
    }
    for (const o of resting) {
      const r = remainingSize(o);
      if (total + r <= wanted + tol) {
        total += r;
        keptHere.push(o);
      } else cancel(o, key, 'excess');
    }

    // Tolerance keeps an existing order; it never excuses an empty key.
    if (total > 0 && total >= wanted - tol) {
      for (const o of keptHere) kept.push(o);
      continue;
    }

    const missing = wanted - total;
    if (pending.length > 0) {
      for (const o of keptHere) kept.push(o);
      blocked.push({
        key,
        reason: pending.some((o) => o.state === 'unknown') ? 'unknown' : 'inflight',
        missing: missing as Shares,
      });
      continue;
    }
    const min = opts.minOrderSize?.(want.tokenId) ?? 0;
    const quote = (size: number): DesiredQuote => {
      // Optional fields only when set, written out (a conditional spread costs more than the rest).
      const q: { -readonly [K in keyof DesiredQuote]: DesiredQuote[K] } = {
        tokenId: want.tokenId,
        side: want.side,
        price: want.price as DesiredQuote['price'],
        size: size as Shares,
      };
      if (want.tag !== undefined) q.tag = want.tag;
      if (want.postOnly !== undefined) q.postOnly = want.postOnly;
      return q;
    };
    if (missing >= min) {
      for (const o of keptHere) kept.push(o);
      placements.push({ key, quote: quote(missing) });
    } else {
      // A top-up this small would be rejected: replace the key's orders by one of the full size.
      for (const o of keptHere) cancel(o, key, 'resize');
      placements.push({ key, quote: quote(wanted) });
    }
  }

  return { cancels, placements: tagPlacements(placements, cancels), kept, blocked };
}

/** Sums quotes sharing a key; drops zero sizes; throws on values no strategy may produce. */
function aggregateDesired(desired: readonly DesiredQuote[]): Map<string, Want> {
  const wants = new Map<string, Want>();
  for (const q of desired) {
    if (!Number.isSafeInteger(q.price) || !Number.isSafeInteger(q.size) || q.size < 0) {
      throw new InvariantError(
        `desired quote with invalid price/size: ${q.tokenId} ${q.side} ${String(q.price)} × ${String(q.size)}`,
      );
    }
    if (q.side !== 'BUY' && q.side !== 'SELL')
      throw new InvariantError(`desired quote with invalid side: ${String(q.side)}`);
    if (q.size === 0) continue;
    const key = quoteKey(q.tokenId, q.side, q.price);
    const w = wants.get(key);
    if (w === undefined)
      wants.set(key, {
        tokenId: q.tokenId,
        side: q.side,
        price: q.price,
        size: q.size,
        tag: q.tag,
        postOnly: q.postOnly,
      });
    else w.size += q.size;
  }
  return wants;
}

function groupOrders(live: readonly LiveOrder[]): Map<string, LiveOrder[]> {
  assertUniqueIds(live);
  const byKey = new Map<string, LiveOrder[]>();
  for (const o of live) {
    const key = quoteKey(o.tokenId, o.side, o.price);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [o]);
    else list.push(o);
  }
  return byKey;
}

/** The error of an order id found twice in the live set. */
export function duplicateOrderId(id: string): InvariantError {
  return new InvariantError(`order ${id} appears twice in the live set`);
}

/** The ids of the live set; an id twice is an InvariantError (duplicateOrderId). */
export function uniqueIds(live: readonly LiveOrder[]): Set<string> {
  const ids = new Set<string>();
  for (const o of live) {
    if (ids.has(o.id)) throw duplicateOrderId(o.id);
    ids.add(o.id);
  }
  return ids;
}

/** An order id twice in the live set is an InvariantError (a short set is scanned, a long one hashed). */
export function assertUniqueIds(live: readonly LiveOrder[]): void {
  const n = live.length;
  if (n > 8) {
    uniqueIds(live);
    return;
  }
  for (let i = 1; i < n; i++) {
    const id = (live[i] as LiveOrder).id;
    for (let j = 0; j < i; j++) if ((live[j] as LiveOrder).id === id) throw duplicateOrderId(id);
  }
}

/**
 * Per token and side, as many placements as there were cancels are `replace` (best prices
 * first: they restore the quotes nearest the touch), the rest `new`. Output: replace first.
 */
function tagPlacements(
  placements: readonly Omit<PlacementIntent, 'kind'>[],
  cancels: readonly CancelIntent[],
): PlacementIntent[] {
  // Cancels per token: [BUY, SELL] (keyed by the token id alone: a joined string key would be
  // built and hashed anew for every lookup).
  const cancelled = new Map<string, [number, number]>();
  for (const c of cancels) {
    let n = cancelled.get(c.tokenId);
    if (n === undefined) {
      n = [0, 0];
      cancelled.set(c.tokenId, n);
    }
    n[c.side === 'BUY' ? 0 : 1]++;
  }
  const sorted = placements.length > 1 ? [...placements].sort((a, b) => compareQuotes(a.quote, b.quote)) : placements;
  const replace: PlacementIntent[] = [];
  const fresh: PlacementIntent[] = [];
  for (const p of sorted) {
    const n = cancelled.get(p.quote.tokenId);
    const side = p.quote.side === 'BUY' ? 0 : 1;
    if (n !== undefined && n[side] > 0) {
      n[side]--;
      replace.push({ key: p.key, quote: p.quote, kind: 'replace' });
    } else fresh.push({ key: p.key, quote: p.quote, kind: 'new' });
  }
  for (const p of fresh) replace.push(p);
  return replace;
}

/** Token, then BUY before SELL, then best price first (bids high → low, asks low → high). */
interface KeyParts {
  readonly tokenId: string;
  readonly side: Side;
  readonly price: number;
}

function compareQuotes(a: KeyParts, b: KeyParts): number {
  return (
    compareStrings(a.tokenId, b.tokenId) ||
    compareStrings(a.side, b.side) ||
    (a.side === 'BUY' ? b.price - a.price : a.price - b.price)
  );
}

/** Every key of `wants` and `byKey` once, in compareQuotes order of their (token, side, price). */
function sortedKeys(wants: Map<string, Want>, byKey: Map<string, LiveOrder[]>): string[] {
  const entries: Array<{ readonly key: string; readonly q: KeyParts }> = [];
  for (const [key, w] of wants) entries.push({ key, q: w });
  for (const [key, orders] of byKey) {
    if (wants.has(key)) continue;
    const o = orders[0];
    if (o === undefined) throw new InvariantError(`key without quote or order: ${key}`);
    entries.push({ key, q: o });
  }
  if (entries.length > 1) entries.sort((a, b) => compareQuotes(a.q, b.q));
  return entries.map((e) => e.key);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

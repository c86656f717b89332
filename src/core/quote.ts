// What a strategy asks for and what it is told back: the quotes it wants resting (DesiredQuote)
// and the placements the exchange refused (PlacementRejection). The strategy SDK, risk, reconcile
// and the order manager all speak these. Invariants kept by every value:
// - prices and sizes are integer millionths (Price, Shares); a quote's size is what should rest,
//   never a delta;
// - a quote is identified by (token, side, price): two quotes at one key are one quote of the
//   summed size, so a key rests at most one intended order.
// Pure types, the quote key (its strings are interned: see quoteKey) and MergedQuotes (one quote
// per key, as a strategy builds its list); no I/O.
import type { Price, Shares } from './money.js';
import type { Side } from './order.js';

/** An order a strategy wants resting (after risk: one that may be sent). */
export interface DesiredQuote {
  readonly tokenId: string;
  readonly side: Side;
  /** On the market's tick, inside [tick, 1 − tick] (risk drops anything else). */
  readonly price: Price;
  /** Total size wanted resting at this key, in share millionths (> 0). */
  readonly size: Shares;
  /** Free label from the strategy ("band-0", "bid-1"), carried to logs and the ledger. */
  readonly tag?: string;
  /**
   * Post-only (rejected rather than matched if it would cross the book); absent: the daemon's
   * `orders.postOnly` (true by default). A strategy that means to take liquidity says false.
   */
  readonly postOnly?: boolean;
}

/** A placement the exchange refused (the strategy sees the previous cycle's). */
export interface PlacementRejection {
  readonly tokenId: string;
  readonly side: Side;
  readonly price: Price;
  readonly errorMsg: string;
  /** A post-only quote refused because it would have crossed the book. */
  readonly postOnlyCross: boolean;
}

/** Interned keys by token, then side and price (see quoteKey); cleared whole when it grows past the cap. */
const KEYS = new Map<string, Map<number, string>>();
let keysHeld = 0;
const MAX_KEYS = 200_000;

/**
 * The identity of a quote, `token|side|price`: an unchanged key keeps its order and its place in
 * the queue. Interned: the same key is the same string object every cycle, so the maps keyed by it
 * (strategy pairs, refresh tolerance, reconcile) find it by its cached hash instead of building
 * and hashing a new ~90-character string. At most MAX_KEYS are held (a long run over many prices
 * starts afresh), so the cache never grows without bound.
 */
export function quoteKey(tokenId: string, side: Side, price: number): string {
  let byPrice = KEYS.get(tokenId);
  if (byPrice === undefined) {
    byPrice = new Map<number, string>();
    KEYS.set(tokenId, byPrice);
  }
  // Sides share a map: a BUY key at p under +p, a SELL key under −p − 1 (prices are ≥ 0).
  const slot = side === 'BUY' ? price : -price - 1;
  let key = byPrice.get(slot);
  if (key === undefined) {
    if (keysHeld >= MAX_KEYS) {
      KEYS.clear();
      keysHeld = 0;
      byPrice = new Map<number, string>();
      KEYS.set(tokenId, byPrice);
    }
    key = `${tokenId}|${side}|${price}`;
    byPrice.set(slot, key);
    keysHeld++;
  }
  return key;
}

/** Quotes held before MergedQuotes finds keys by a map instead of a scan. */
const SCAN_MAX = 16;

/**
 * A list with one quote per key (token, side, price), in the order each key was first added: a
 * quote at a key already held adds its size to the first (whose tag and post-only stay). A
 * market's list is a handful of quotes, so a key is found by scanning them, which costs less than
 * building and probing a map for each market every cycle (a 50-market profile); past SCAN_MAX
 * quotes it is found by quoteKey in a map.
 */
export class MergedQuotes {
  private readonly list: DesiredQuote[] = [];
  private byKey: Map<string, number> | null = null;

  get length(): number {
    return this.list.length;
  }

  add(q: DesiredQuote): void {
    const i = this.indexOf(q.tokenId, q.side, q.price);
    if (i >= 0) {
      const prev = this.list[i] as DesiredQuote;
      this.list[i] = { ...prev, size: (prev.size + q.size) as Shares };
      return;
    }
    this.byKey?.set(quoteKey(q.tokenId, q.side, q.price), this.list.length);
    this.list.push(q);
    if (this.byKey === null && this.list.length > SCAN_MAX) {
      const m = new Map<string, number>();
      this.list.forEach((x, j) => m.set(quoteKey(x.tokenId, x.side, x.price), j));
      this.byKey = m;
    }
  }

  /** The quotes so far (a copy: adding more does not change it). */
  toArray(): DesiredQuote[] {
    return this.list.slice();
  }

  private indexOf(tokenId: string, side: Side, price: number): number {
    if (this.byKey !== null) return this.byKey.get(quoteKey(tokenId, side, price)) ?? -1;
    const l = this.list;
    for (let i = 0; i < l.length; i++) {
      const x = l[i] as DesiredQuote;
      if (x.price === price && x.side === side && x.tokenId === tokenId) return i;
    }
    return -1;
  }
}

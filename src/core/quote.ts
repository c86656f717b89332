// What a strategy asks for and what it is told back: the quotes it wants resting (DesiredQuote)
// and the placements the exchange refused (PlacementRejection). The strategy SDK, risk, reconcile
// and the order manager all speak these. Invariants kept by every value:
// - prices and sizes are integer millionths (Price, Shares); a quote's size is what should rest,
//   never a delta;
// - a quote is identified by (token, side, price): two quotes at one key are one quote of the
//   summed size, so a key rests at most one intended order.
// Pure types and the quote key (its strings are interned: see quoteKey); no I/O.
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

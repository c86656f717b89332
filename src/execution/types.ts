// Execution types shared by strategies, risk, reconcile and the order manager. Invariants kept:
// - prices and sizes are integer millionths (Price, Shares); a quote's size is what should rest,
//   never a delta;
// - a quote is identified by its key (token, side, price): two quotes with one key are one quote
//   of the summed size, so a key rests at most one intended order;
// - a LiveOrder's remaining size is originalSize − sizeMatched; its `state` is the order
//   manager's view of it, and only `live` orders may be cancelled by reconcile (in-flight and
//   unknown ones wait for their answer, cancelling ones for theirs).
// Types and two tiny pure helpers only: no I/O.
import type { Side } from '../core/amounts.js';
import type { Price, Shares } from '../core/money.js';

export type { Side };

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

/**
 * The order manager's view of one of our orders.
 * - `inflight`: a placement sent and not yet answered (counts as resting: never place another at
 *   its key; never cancelled by reconcile, since the exchange may not know it yet);
 * - `live`: acknowledged and resting;
 * - `cancelling`: a cancel sent and not yet answered (never cancelled twice; its size does not
 *   count as resting, since it is on its way out);
 * - `unknown`: an answer was lost (timeout, 5xx): it may or may not rest. Nothing is placed at its
 *   key until the manager resolves it (order lookup by id).
 */
export type LiveOrderState = 'inflight' | 'live' | 'cancelling' | 'unknown';

export interface LiveOrder {
  /** Exchange order id (the EIP-712 digest, known before the placement is sent). */
  readonly id: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly price: Price;
  readonly originalSize: Shares;
  readonly sizeMatched: Shares;
  readonly state: LiveOrderState;
  /** When we created it (our clock, epoch ms): older orders hold better queue places. */
  readonly createdAtMs: number;
  readonly tag?: string;
}

/**
 * `replace` when the placement takes the place of an order of the same token and side cancelled
 * in the same plan (a moved quote: the rate limiter sends these first), else `new`.
 */
export type PlacementKind = 'new' | 'replace';

export interface PlacementIntent {
  readonly key: string;
  /** The order to place; its size is what is missing at the key (may be a top-up). */
  readonly quote: DesiredQuote;
  readonly kind: PlacementKind;
}

/**
 * Why reconcile cancels an order:
 * - `not-desired`: nothing is wanted at its key any more;
 * - `excess`: more rests at the key than wanted (the youngest orders go first);
 * - `resize`: too little rests and the shortfall is below the minimum order size, so the key's
 *   orders are replaced by one of the full size.
 */
export type CancelReason = 'not-desired' | 'excess' | 'resize';

export interface CancelIntent {
  readonly orderId: string;
  readonly key: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly price: Price;
  readonly reason: CancelReason;
}

/** Why a key got no placement although it wants more size. */
export type BlockReason = 'inflight' | 'unknown';

export interface BlockedKey {
  readonly key: string;
  readonly reason: BlockReason;
  /** Size still missing at the key, share millionths. */
  readonly missing: Shares;
}

export interface ReconcilePlan {
  /** Cancels first (the order manager sends them before placements). */
  readonly cancels: readonly CancelIntent[];
  /** At most one per key; `replace` ones first, each group best price first. */
  readonly placements: readonly PlacementIntent[];
  /** Orders left resting (or awaited) because they match what is wanted. */
  readonly kept: readonly LiveOrder[];
  /** Keys that want size but wait for an in-flight or unknown order first. */
  readonly blocked: readonly BlockedKey[];
}

/** The identity of a quote: an unchanged key keeps its order and its place in the queue. */
export function quoteKey(tokenId: string, side: Side, price: number): string {
  return `${tokenId}|${side}|${price}`;
}

/** Size still resting (or to rest) of an order. */
export function remainingSize(o: Pick<LiveOrder, 'originalSize' | 'sizeMatched'>): Shares {
  return Math.max(0, o.originalSize - o.sizeMatched) as Shares;
}

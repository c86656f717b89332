// Reconcile's plan types: what the pure diff (reconcile.ts) hands the order manager, and the key
// that identifies a quote. The domain types they are built from (DesiredQuote, LiveOrder, Side)
// live in the core (src/core/quote.ts, src/core/order.ts). Invariants kept:
// - a quote is identified by its key (token, side, price): an unchanged key keeps its order and
//   its place in the queue;
// - only `live` orders may be cancelled by reconcile (in-flight and unknown ones wait for their
//   answer, cancelling ones for theirs).
// Types and one tiny pure helper only: no I/O.
import type { Shares, Price } from '../core/money.js';
import type { LiveOrder, Side } from '../core/order.js';
import type { DesiredQuote } from '../core/quote.js';

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

export { quoteKey } from '../core/quote.js';

// Our orders as the domain sees them: sides, order types, the exchange's answer to a placement,
// the order-entry limits of the interface, and the order manager's view of one of our open orders
// (LiveOrder). One definition each: every layer (exchange parsers, signing, the matching engine,
// the ledger, execution, the strategy SDK) imports these from here.
// Invariants kept by every value of these types:
// - money is integer millionths (Price, Shares), never a float;
// - a LiveOrder's remaining size is originalSize − sizeMatched, and its `state` is a projection of
//   the ledger's order state (order-lifecycle.ts `LIVE_ORDER_STATE_OF`), never a state of its own;
// - a placement status or an amount the wire leaves empty is `null`, never zero.
// Pure types and constants; no I/O.
import type { Price, Shares } from './money.js';

export type Side = 'BUY' | 'SELL';

export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export const ORDER_TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

// ---------------------------------------------------------------------------------------------
// Order-entry limits of the interface (docs/exchange-interface.md): the order manager chunks by
// them, the clients and gateways refuse more.

/** Signed orders in one POST /orders request (docs/protocol.md §4). */
export const MAX_ORDERS_PER_BATCH = 15;
/**
 * Order ids one DELETE /orders may carry: "Maximum 3000 orders per request"
 * (https://docs.polymarket.com/api-reference/trade/cancel-multiple-orders).
 */
export const MAX_ORDERS_PER_CANCEL = 3000;

// ---------------------------------------------------------------------------------------------
// Placement answers

export type PlacementStatus = 'live' | 'matched' | 'delayed' | 'unmatched';
export const PLACEMENT_STATUSES: readonly PlacementStatus[] = ['live', 'matched', 'delayed', 'unmatched'];

/** One placement answer, parsed. `accepted` applies docs/protocol.md §4. */
export interface PlacementResult {
  readonly success: boolean;
  /** "" when none. */
  readonly errorMsg: string;
  readonly orderId: string | null;
  readonly status: PlacementStatus | null;
  /** Amounts as decimal units in millionths; null when `""` (a resting order has none yet). */
  readonly takingAmount: number | null;
  readonly makingAmount: number | null;
  readonly accepted: boolean;
}

// ---------------------------------------------------------------------------------------------
// Our open orders as the order manager tracks them

/**
 * The order manager's view of one of our orders: the projection of its ledger state
 * (order-lifecycle.ts) onto what quoting needs to know.
 * - `inflight` (ledger signed, sent): a placement sent and not yet answered (counts as resting:
 *   never place another at its key; never cancelled by reconcile, since the exchange may not know
 *   it yet);
 * - `live` (ledger live): acknowledged and resting;
 * - `cancelling` (ledger cancelling): a cancel sent and not yet answered (never cancelled twice;
 *   its size does not count as resting, since it is on its way out);
 * - `unknown` (ledger unknown): an answer was lost (timeout, 5xx): it may or may not rest. Nothing
 *   is placed at its key until the manager resolves it (order lookup by id).
 * An order in any other ledger state (closing or terminal) is no longer a LiveOrder.
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

/** Size still resting (or to rest) of an order. */
export function remainingSize(o: Pick<LiveOrder, 'originalSize' | 'sizeMatched'>): Shares {
  return Math.max(0, o.originalSize - o.sizeMatched) as Shares;
}

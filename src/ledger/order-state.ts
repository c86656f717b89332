// How the exchange's status strings (docs/protocol.md §4) map onto the order life cycle the ledger
// records (the states and their transitions are the core's: src/core/order-lifecycle.ts), and the
// few facts about an answer the ledger acts on. Pure. Invariants: an unrecognised status maps to
// null (the caller refuses it), never to a guess; a `Duplicated.` rejection keeps the order open.
import type { OrderState } from '../core/order-lifecycle.js';
import type { PlacementStatus } from '../core/order.js';

/** Order-record status (§2.5, protocol §4) → state; `NOT_FOUND` stands for a 404 lookup. */
export function stateFromLookupStatus(status: string): OrderState | null {
  const s = status
    .trim()
    .toUpperCase()
    .replace(/^ORDER_STATUS_/, '');
  switch (s) {
    case 'LIVE':
      return 'live';
    case 'MATCHED':
      return 'matched';
    case 'CANCELED':
    case 'CANCELLED':
    case 'CANCELED_MARKET_RESOLVED':
      return 'canceled';
    case 'INVALID':
      return 'rejected';
    case 'NOT_FOUND':
      return 'not_found';
    default:
      return null;
  }
}

/** Placement-result status (protocol §4), case-insensitive, or null when unrecognised. */
export function parsePlacementStatus(status: string): PlacementStatus | null {
  const s = status.trim().toLowerCase();
  return s === 'live' || s === 'matched' || s === 'delayed' || s === 'unmatched' ? s : null;
}

/** FOK and FAK never rest: whatever did not match on arrival is killed. */
export function isImmediateOrderType(orderType: string): boolean {
  const t = orderType.toUpperCase();
  return t === 'FOK' || t === 'FAK';
}

/**
 * A `Duplicated.` rejection means an order with this id already exists on the exchange (a resend
 * of an order that did arrive): it is not a rejection of the order, so the ledger keeps it open.
 */
export function isDuplicateRejection(errorMsg: string): boolean {
  return /\bduplicated\b/i.test(errorMsg);
}

/**
 * Whether order `o` (as a ledger holds it) is live, with exchange status `status` and `sizeMatched`
 * matched, where `status` reads as live (`stateOf`, by default stateFromLookupStatus): a lookup
 * with that answer records nothing and answers live with no new match (restsAsLookedUp).
 */
export function restsAs(
  o:
    | { readonly state: OrderState; readonly exchangeStatus: string | null; readonly sizeMatched: number }
    | null
    | undefined,
  status: string,
  sizeMatched: number,
  stateOf: (status: string) => OrderState | null = stateFromLookupStatus,
): boolean {
  return (
    o !== null &&
    o !== undefined &&
    o.state === 'live' &&
    o.exchangeStatus === status &&
    o.sizeMatched === sizeMatched &&
    stateOf(status) === 'live'
  );
}

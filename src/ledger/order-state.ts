// The order life cycle as the ledger records it, and the mapping from the exchange's status strings
// (protocol.md §4) onto it. Pure. Invariants kept:
// - `signed` is written before the order leaves the process; every open state (signed, sent,
//   unknown, live, cancelling, closing) is a durable obligation that startup reconciliation works
//   through by looking the order up;
// - a cancel is written (`cancelling`) before it is sent; an answered cancel (or any end of an
//   order's life that was not a read of its final matched size) leaves it `closing`: an order is
//   final (terminal) only once its matched size has been read after it stopped being live, so a
//   crash between a cancel and that read can never lose the fills matched before the cancel;
// - matched, canceled, rejected and not_found are terminal: our own calls cannot move an order out
//   of them (that is a bug, InvariantError), only an exchange lookup can (the exchange is the truth);
// - an `unknown` order (ambiguous send: timeout, 5xx, dropped connection) may be sent again (same
//   signed order, same id) or resolved by lookup, never assumed rejected.
export type OrderState =
  | 'signed' // written, not yet handed to the transport
  | 'sent' // handed to the transport, no answer yet
  | 'unknown' // the answer was lost or ambiguous: resolve by lookup
  | 'live' // resting on the book (possibly partly matched)
  | 'cancelling' // our cancel is written and about to be sent (or sent, no answer yet)
  | 'closing' // no longer live (our cancel was answered), its final matched size not yet read
  | 'matched' // fully matched, or an FOK/FAK whose rest was killed
  | 'canceled' // canceled (by us, by the market's resolution, or an `unmatched` placement)
  | 'rejected' // refused by the exchange (or invalid); never rested
  | 'not_found'; // the exchange does not know the id: it never arrived

export const ORDER_STATES: readonly OrderState[] = [
  'signed', 'sent', 'unknown', 'live', 'cancelling', 'closing', 'matched', 'canceled', 'rejected', 'not_found',
];
export const OPEN_ORDER_STATES: readonly OrderState[] = ['signed', 'sent', 'unknown', 'live', 'cancelling', 'closing'];
export const TERMINAL_ORDER_STATES: readonly OrderState[] = ['matched', 'canceled', 'rejected', 'not_found'];

const OPEN = new Set<OrderState>(OPEN_ORDER_STATES);

export function isOpenState(s: OrderState): boolean {
  return OPEN.has(s);
}

const ALLOWED: Readonly<Record<OrderState, readonly OrderState[]>> = {
  signed: ['sent', 'unknown', 'live', 'matched', 'canceled', 'rejected'],
  sent: ['unknown', 'live', 'matched', 'canceled', 'rejected'],
  unknown: ['sent', 'live', 'matched', 'canceled', 'rejected'],
  live: ['unknown', 'cancelling', 'closing', 'matched'],
  // A cancel certainly not sent goes back to live; refused or ambiguous goes unknown (resolved by
  // lookup); answered goes closing. Fully matched meanwhile (a fill) is final as it is.
  cancelling: ['live', 'unknown', 'closing', 'matched'],
  // Only the final read (a lookup: exchange authority) ends it; a fill may complete it meanwhile.
  closing: ['matched'],
  matched: [],
  canceled: [],
  rejected: [],
  not_found: [],
};

/** Whether our own code may move an order from `from` to `to` (a lookup may move it anywhere). */
export function canTransition(from: OrderState, to: OrderState): boolean {
  return ALLOWED[from].includes(to);
}

/** Order-record status (§2.5, protocol §4) → state; `NOT_FOUND` stands for a 404 lookup. */
export function stateFromLookupStatus(status: string): OrderState | null {
  const s = status.trim().toUpperCase().replace(/^ORDER_STATUS_/, '');
  switch (s) {
    case 'LIVE': return 'live';
    case 'MATCHED': return 'matched';
    case 'CANCELED':
    case 'CANCELLED':
    case 'CANCELED_MARKET_RESOLVED': return 'canceled';
    case 'INVALID': return 'rejected';
    case 'NOT_FOUND': return 'not_found';
    default: return null;
  }
}

export type PlacementStatus = 'live' | 'matched' | 'delayed' | 'unmatched';

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

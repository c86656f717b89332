// The one order state machine: the life cycle of one of our orders as the ledger records it, the
// transitions our own code may make, and the order manager's view of it (LiveOrderState,
// src/core/order.ts) as a named projection of those states. Pure. Invariants kept:
// - `signed` is written before the order leaves the process; every open state (signed, sent,
//   unknown, live, cancelling, closing) is a durable obligation that startup reconciliation works
//   through by looking the order up;
// - a cancel is written (`cancelling`) before it is sent; an answered cancel (or any end of an
//   order's life that was not a read of its final matched size) leaves it `closing`: an order is
//   final (terminal) only once its matched size has been read after it stopped being live, so a
//   crash between a cancel and that read can never lose the fills matched before the cancel;
// - matched, canceled, rejected and not_found are terminal: our own calls cannot move an order out
//   of them, only an exchange lookup can (the exchange is the truth);
// - an `unknown` order (ambiguous send: timeout, 5xx, dropped connection) may be sent again (same
//   signed order, same id) or resolved by lookup, never assumed rejected;
// - the live-order states are not a second machine: each is the image of ledger states under
//   LIVE_ORDER_STATE_OF, and a live-order transition is allowed exactly when some ledger
//   transition between their preimages is (so the two can never disagree).
import { InvariantError } from './errors.js';
import type { LiveOrderState } from './order.js';

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
  'signed',
  'sent',
  'unknown',
  'live',
  'cancelling',
  'closing',
  'matched',
  'canceled',
  'rejected',
  'not_found',
];
export const OPEN_ORDER_STATES: readonly OrderState[] = ['signed', 'sent', 'unknown', 'live', 'cancelling', 'closing'];
export const TERMINAL_ORDER_STATES: readonly OrderState[] = ['matched', 'canceled', 'rejected', 'not_found'];

const OPEN = new Set<OrderState>(OPEN_ORDER_STATES);

export function isOpenState(s: OrderState): boolean {
  return OPEN.has(s);
}

/** The transitions our own code may make (a lookup, exchange authority, may move an order anywhere). */
export const ORDER_TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
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
  return ORDER_TRANSITIONS[from].includes(to);
}

// ---------------------------------------------------------------------------------------------
// The order manager's view: a projection of the ledger states

/**
 * The live-order state of each ledger state; null: the order is no longer one the order manager
 * tracks for reconcile (closing orders are owed only their final read, terminal ones nothing).
 * - signed, sent → `inflight` (written and maybe sent, no answer yet);
 * - unknown → `unknown`; live → `live`; cancelling → `cancelling`;
 * - closing, matched, canceled, rejected, not_found → null.
 */
export const LIVE_ORDER_STATE_OF: Readonly<Record<OrderState, LiveOrderState | null>> = {
  signed: 'inflight',
  sent: 'inflight',
  unknown: 'unknown',
  live: 'live',
  cancelling: 'cancelling',
  closing: null,
  matched: null,
  canceled: null,
  rejected: null,
  not_found: null,
};

export const LIVE_ORDER_STATES: readonly LiveOrderState[] = ['inflight', 'live', 'cancelling', 'unknown'];

/**
 * The live-order transitions the ledger's table allows: from `a` to `b` (null: dropped from the
 * tracked set) when some ledger state projecting to `a` may move to one projecting to `b`.
 */
export const LIVE_ORDER_TRANSITIONS: Readonly<Record<LiveOrderState, readonly (LiveOrderState | null)[]>> = (() => {
  const out = {} as Record<LiveOrderState, (LiveOrderState | null)[]>;
  for (const a of LIVE_ORDER_STATES) out[a] = [];
  for (const from of ORDER_STATES) {
    const a = LIVE_ORDER_STATE_OF[from];
    if (a === null) continue;
    for (const to of ORDER_TRANSITIONS[from]) {
      const b = LIVE_ORDER_STATE_OF[to];
      if (!out[a].includes(b)) out[a].push(b);
    }
  }
  return out;
})();

/** Whether the order manager may move a tracked order from `from` to `to` (null: drop it). */
export function canLiveTransition(from: LiveOrderState, to: LiveOrderState | null): boolean {
  return LIVE_ORDER_TRANSITIONS[from].includes(to);
}

/**
 * Checks a live-order state change where it happens: staying in a state is not a change; any
 * other move the ledger's table does not allow is a bug in our code (InvariantError).
 */
export function checkLiveTransition(orderId: string, from: LiveOrderState, to: LiveOrderState | null): void {
  if (from === to || canLiveTransition(from, to)) return;
  throw new InvariantError(`order ${orderId}: live-order state ${from} cannot become ${to ?? 'untracked'}`);
}

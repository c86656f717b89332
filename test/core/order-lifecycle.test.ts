// The one order state machine (src/core/order-lifecycle.ts): the ledger's table, the live-order
// projection of it, and the check the order manager calls. The transitions listed here are the
// ones the code makes, each named by its call site, so a change to the table that breaks one fails.
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../../src/core/errors.js';
import {
  canLiveTransition,
  canTransition,
  checkLiveTransition,
  isOpenState,
  LIVE_ORDER_STATE_OF,
  LIVE_ORDER_STATES,
  LIVE_ORDER_TRANSITIONS,
  OPEN_ORDER_STATES,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  TERMINAL_ORDER_STATES,
  type OrderState,
} from '../../src/core/order-lifecycle.js';
import type { LiveOrderState } from '../../src/core/order.js';

/** The ledger's own marks (src/ledger/ledger.ts, authority 'own'), from the states they are called in. */
const LEDGER_MOVES: ReadonlyArray<readonly [string, OrderState, OrderState]> = [
  ['markSent', 'signed', 'sent'],
  ['markSent (a resend)', 'unknown', 'sent'],
  ['markAccepted live', 'sent', 'live'],
  ['markAccepted matched', 'sent', 'matched'],
  ['markAccepted unmatched', 'sent', 'canceled'],
  ['markAccepted after a lost answer', 'unknown', 'live'],
  ['markRejected', 'sent', 'rejected'],
  ['markRejected before sending', 'signed', 'rejected'],
  ['markRejected Duplicated.', 'sent', 'unknown'],
  ['markUnknown placement', 'sent', 'unknown'],
  ['markUnknown lookup', 'live', 'unknown'],
  ['markUnknown cancel', 'cancelling', 'unknown'],
  ['markCanceled never sent', 'signed', 'canceled'],
  ['markCancelling', 'live', 'cancelling'],
  ['markCancelAnswered', 'cancelling', 'closing'],
  ['markCancelNotSent', 'cancelling', 'live'],
  ['addMatched full (live)', 'live', 'matched'],
  ['addMatched full (cancelling)', 'cancelling', 'matched'],
  ['addMatched full (closing)', 'closing', 'matched'],
];

/** The order manager's moveTo calls (src/execution/order-manager.ts), from the states they see. */
const MANAGER_MOVES: ReadonlyArray<readonly [string, LiveOrderState, LiveOrderState]> = [
  ['cancelOrders', 'live', 'cancelling'],
  ['cancelFailed (certain)', 'cancelling', 'live'],
  ['toUnknown from cancelAnswered / cancelFailed', 'cancelling', 'unknown'],
  ['toUnknown from sendChunk / onPlacement', 'inflight', 'unknown'],
  ['rejectOrder Duplicated.', 'inflight', 'unknown'],
  ['mirror placement accepted', 'inflight', 'live'],
  ['mirror lookup LIVE', 'unknown', 'live'],
  ['mirror stale lookup of a pending cancel', 'cancelling', 'live'],
  ['mirror lookup unknown', 'live', 'unknown'],
];

describe('the order state machine', () => {
  it('allows every ledger transition the code makes', () => {
    for (const [site, from, to] of LEDGER_MOVES) expect(canTransition(from, to), `${site}: ${from} → ${to}`).toBe(true);
  });

  it('allows every live-order transition the order manager makes', () => {
    for (const [site, from, to] of MANAGER_MOVES) {
      expect(canLiveTransition(from, to), `${site}: ${from} → ${to}`).toBe(true);
      expect(() => checkLiveTransition('o1', from, to)).not.toThrow();
    }
  });

  it('gives terminal states no way out, and every state is open or terminal, not both', () => {
    for (const s of TERMINAL_ORDER_STATES) expect(ORDER_TRANSITIONS[s], s).toEqual([]);
    for (const s of ORDER_STATES) expect(isOpenState(s) !== TERMINAL_ORDER_STATES.includes(s), s).toBe(true);
    expect([...OPEN_ORDER_STATES, ...TERMINAL_ORDER_STATES].sort()).toEqual([...ORDER_STATES].sort());
    // Every open state leads somewhere: none is a trap our own code cannot leave.
    for (const s of OPEN_ORDER_STATES) expect(ORDER_TRANSITIONS[s].length, s).toBeGreaterThan(0);
  });

  it('only moves between known states and never back to signed', () => {
    for (const from of ORDER_STATES) {
      for (const to of ORDER_TRANSITIONS[from]) {
        expect(ORDER_STATES).toContain(to);
        expect(to).not.toBe('signed');
        expect(to).not.toBe(from);
      }
    }
  });
});

describe('the live-order projection', () => {
  it('is total: every ledger state has an image, terminal and closing ones none', () => {
    expect(Object.keys(LIVE_ORDER_STATE_OF).sort()).toEqual([...ORDER_STATES].sort());
    for (const s of TERMINAL_ORDER_STATES) expect(LIVE_ORDER_STATE_OF[s], s).toBeNull();
    expect(LIVE_ORDER_STATE_OF.closing).toBeNull();
    for (const s of OPEN_ORDER_STATES) if (s !== 'closing') expect(LIVE_ORDER_STATE_OF[s], s).not.toBeNull();
  });

  it('covers every live-order state', () => {
    const image = new Set(Object.values(LIVE_ORDER_STATE_OF).filter((s) => s !== null));
    expect([...image].sort()).toEqual([...LIVE_ORDER_STATES].sort());
  });

  it('derives exactly these live-order moves from the ledger table', () => {
    const sorted = (xs: readonly (LiveOrderState | null)[]): string[] => xs.map((x) => x ?? 'untracked').sort();
    expect(sorted(LIVE_ORDER_TRANSITIONS.inflight)).toEqual(['inflight', 'live', 'unknown', 'untracked']);
    expect(sorted(LIVE_ORDER_TRANSITIONS.live)).toEqual(['cancelling', 'unknown', 'untracked']);
    expect(sorted(LIVE_ORDER_TRANSITIONS.cancelling)).toEqual(['live', 'unknown', 'untracked']);
    expect(sorted(LIVE_ORDER_TRANSITIONS.unknown)).toEqual(['inflight', 'live', 'untracked']);
  });

  it('agrees with the ledger: a live move is allowed iff some ledger move between its preimages is', () => {
    const pre = (l: LiveOrderState | null): OrderState[] => ORDER_STATES.filter((s) => LIVE_ORDER_STATE_OF[s] === l);
    for (const a of LIVE_ORDER_STATES) {
      for (const b of [...LIVE_ORDER_STATES, null]) {
        const viaLedger = pre(a).some((s) => pre(b).some((t) => canTransition(s, t)));
        expect(canLiveTransition(a, b), `${a} → ${b ?? 'untracked'}`).toBe(viaLedger);
      }
    }
  });

  it('refuses a move the table does not allow, and takes staying put as no move', () => {
    expect(() => checkLiveTransition('o1', 'unknown', 'cancelling')).toThrow(InvariantError);
    expect(() => checkLiveTransition('o1', 'live', 'inflight')).toThrow(
      /order o1: live-order state live cannot become inflight/,
    );
    expect(() => checkLiveTransition('o1', 'cancelling', 'inflight')).toThrow(InvariantError);
    for (const s of LIVE_ORDER_STATES) expect(() => checkLiveTransition('o1', s, s)).not.toThrow();
  });
});

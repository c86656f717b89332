// Orders: written before sending, every state change in order_events, open orders for startup
// reconciliation, transitions (our own reports vs the exchange's lookup), placement matches.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvariantError } from '../../src/core/errors.js';
import { LedgerError } from '../../src/ledger/errors.js';
import { mc, px, sh, signedOrder, T0, testLedger, YES, type TestLedger } from './helpers.js';

let t: TestLedger;
beforeEach(() => {
  t = testLedger();
});
afterEach(() => t.cleanup());

const states = (id: string): string[] => t.ledger.orderEvents(id).map((e) => e.state);

describe('orders', () => {
  it('records a signed order before sending, with intent metadata', () => {
    const o = signedOrder({
      strategy: 'mm-basic',
      replaces: '0xold',
      meta: { level: 2, reason: 'requote' },
      signedJson: '{"salt":"1"}',
    });
    expect(t.ledger.recordSignedOrder(o)).toBe(true);
    const got = t.ledger.order(o.id);
    expect(got).toMatchObject({
      id: o.id,
      tokenId: YES,
      side: 'BUY',
      price: 500_000,
      size: 10_000_000,
      state: 'signed',
      stateAtMs: T0,
      sizeMatched: 0,
      strategy: 'mm-basic',
      replaces: '0xold',
      meta: { level: 2, reason: 'requote' },
      signedJson: '{"salt":"1"}',
    });
    expect(t.ledger.orderEvents(o.id)).toEqual([
      { seq: expect.any(Number), orderId: o.id, atMs: T0, state: 'signed', detail: null },
    ]);
    expect(t.ledger.openOrders().map((x) => x.id)).toEqual([o.id]);
  });

  it('writing the same order twice is a no-op; the same id with other contents is refused', () => {
    const o = signedOrder();
    expect(t.ledger.recordSignedOrder(o)).toBe(true);
    expect(t.ledger.recordSignedOrder(o)).toBe(false);
    expect(states(o.id)).toEqual(['signed']);
    expect(() => t.ledger.recordSignedOrder({ ...o, price: px(510_000) })).toThrow(
      expect.objectContaining({ code: 'LEDGER_DUPLICATE_ORDER' }),
    );
  });

  it('records a batch in one call and survives reopening', () => {
    const batch = [signedOrder(), signedOrder({ side: 'SELL', price: px(520_000) }), signedOrder()];
    expect(t.ledger.recordSignedOrders(batch)).toBe(3);
    t.reopen();
    expect(t.ledger.openOrders().map((o) => o.id)).toEqual(batch.map((o) => o.id));
  });

  it('a batch with one bad order writes none of it', () => {
    const good = signedOrder();
    expect(() => t.ledger.recordSignedOrders([good, signedOrder({ size: sh(0) })])).toThrow(InvariantError);
    expect(t.ledger.order(good.id)).toBeNull();
  });

  it('appends every state change, with its time, through the whole life of an order', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    t.clock.advance(5);
    expect(t.ledger.markSent(o.id)).toBe('sent');
    t.clock.advance(40);
    expect(t.ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null })).toBe('live');
    t.clock.advance(1000);
    expect(t.ledger.markLookup(o.id, { status: 'LIVE', sizeMatched: sh(4_000_000) })).toEqual({
      state: 'live',
      newlyMatched: 4_000_000,
    });
    t.clock.advance(1000);
    expect(t.ledger.markCancelling([o.id], 'requote')).toEqual(['cancelling']);
    t.clock.advance(10);
    expect(t.ledger.markCancelAnswered(o.id)).toBe('closing');
    // Answered, not final: the order is still owed the read of what matched before the cancel.
    expect(t.ledger.openOrders().map((x) => x.state)).toEqual(['closing']);
    t.clock.advance(20);
    expect(t.ledger.markLookup(o.id, { status: 'CANCELED', sizeMatched: sh(4_500_000) })).toEqual({
      state: 'canceled',
      newlyMatched: 500_000,
    });
    const ev = t.ledger.orderEvents(o.id);
    expect(ev.map((e) => [e.state, e.atMs])).toEqual([
      ['signed', T0],
      ['sent', T0 + 5],
      ['live', T0 + 45],
      ['live', T0 + 1045],
      ['cancelling', T0 + 2045],
      ['closing', T0 + 2055],
      ['canceled', T0 + 2075],
    ]);
    expect(ev.map((e) => e.detail)).toEqual([
      null,
      null,
      'accepted: live',
      'lookup: LIVE sizeMatched=4000000',
      'requote',
      'cancel answered',
      'lookup: CANCELED sizeMatched=4500000',
    ]);
    expect(t.ledger.order(o.id)).toMatchObject({
      state: 'canceled',
      stateAtMs: T0 + 2075,
      sizeMatched: 4_500_000,
      exchangeStatus: 'CANCELED',
    });
    expect(t.ledger.openOrders()).toEqual([]);
    // The partial fill stays: canceling does not undo matched shares.
    expect(t.ledger.position(YES)?.size).toBe(4_500_000);
  });

  it('open orders are signed, sent, unknown and live ones (what reconciliation looks up)', () => {
    const ids = ['signed', 'sent', 'unknown', 'live', 'rejected', 'canceled', 'matched', 'not_found'].map((s) => {
      const o = signedOrder({ meta: { s } });
      t.ledger.recordSignedOrder(o);
      return o.id;
    });
    const [, sent, unknown, live, rejected, canceled, matched, notFound] = ids as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    t.ledger.markSent(sent);
    t.ledger.markSent(unknown);
    t.ledger.markUnknown(unknown, 'timeout');
    t.ledger.markAccepted(live, { status: 'live', makingAmount: null, takingAmount: null });
    t.ledger.markRejected(rejected, 'not enough balance / allowance');
    t.ledger.markCanceled(canceled, 'never sent: shutdown');
    t.ledger.markMatched(matched);
    t.ledger.markLookup(notFound, { status: 'NOT_FOUND', sizeMatched: sh(0) });
    expect(t.ledger.openOrders().map((o) => o.id)).toEqual(ids.slice(0, 4));
    expect(t.ledger.order(rejected)).toMatchObject({ state: 'rejected', errorMsg: 'not enough balance / allowance' });
    expect(t.ledger.order(notFound)?.state).toBe('not_found');
  });

  it('an order being cancelled stays open until its final read: cancelling, then closing', () => {
    const a = signedOrder({ meta: { n: 1 } });
    const b = signedOrder({ meta: { n: 2 } });
    t.ledger.recordSignedOrders([a, b]);
    for (const o of [a, b]) t.ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null });
    expect(t.ledger.markCancelling([a.id, b.id], 'requote')).toEqual(['cancelling', 'cancelling']);
    t.ledger.markCancelAnswered(a.id);
    // A crash here: both are still obligations that startup reconciliation finds.
    expect(t.ledger.openOrders().map((o) => [o.id, o.state])).toEqual([
      [a.id, 'closing'],
      [b.id, 'cancelling'],
    ]);
    // Our own word cannot make a live order final: only a read of its matched size can.
    expect(t.ledger.markCanceled(a.id, 'by us')).toBe('closing');
    expect(t.ledger.markCancelNotSent(b.id, 'ECONNREFUSED')).toBe('live');
    expect(t.ledger.markLookup(a.id, { status: 'CANCELED', sizeMatched: sh(0) }).state).toBe('canceled');
    expect(t.ledger.openOrders().map((o) => o.id)).toEqual([b.id]);
  });

  it('a Duplicated rejection keeps the order open for a lookup (it is on the exchange)', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    t.ledger.markSent(o.id);
    expect(t.ledger.markRejected(o.id, `order ${o.id} is invalid. Duplicated.`)).toBe('unknown');
    expect(t.ledger.openOrders().map((x) => x.id)).toEqual([o.id]);
  });

  it('an unknown order may be sent again', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    t.ledger.markSent(o.id);
    t.ledger.markUnknown(o.id, 'timeout');
    expect(t.ledger.markSent(o.id)).toBe('sent');
    expect(states(o.id)).toEqual(['signed', 'sent', 'unknown', 'sent']);
  });

  it('sending an order that is live or done is a bug', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    t.ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null });
    expect(() => t.ledger.markSent(o.id)).toThrow(expect.objectContaining({ code: 'LEDGER_BAD_TRANSITION' }));
    t.ledger.markCanceled(o.id, 'x');
    expect(() => t.ledger.markSent(o.id)).toThrow(LedgerError);
  });

  it('a late report that contradicts a terminal state is logged and ignored; a lookup is obeyed', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    t.ledger.markSent(o.id);
    // The lookup answered before the placement response did.
    t.ledger.markLookup(o.id, { status: 'ORDER_STATUS_CANCELED', sizeMatched: sh(0) });
    expect(t.ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null })).toBe('canceled');
    const last = t.ledger.orderEvents(o.id).at(-1);
    expect(last).toMatchObject({ state: 'canceled', detail: 'ignored live: accepted: live (order already canceled)' });
    // The exchange's own record wins over anything the ledger thought.
    expect(t.ledger.markLookup(o.id, { status: 'LIVE', sizeMatched: sh(0) }).state).toBe('live');
  });

  it('a lookup older than what the ledger knows (smaller sizeMatched) changes nothing', () => {
    const o = signedOrder({ size: sh(4_000_000) });
    t.ledger.recordSignedOrder(o);
    expect(t.ledger.markLookup(o.id, { status: 'MATCHED', sizeMatched: sh(4_000_000) })).toEqual({
      state: 'matched',
      newlyMatched: 4_000_000,
    });
    expect(t.ledger.markLookup(o.id, { status: 'LIVE', sizeMatched: sh(1_000_000) })).toEqual({
      state: 'matched',
      newlyMatched: 0,
    });
    expect(t.ledger.orderEvents(o.id).at(-1)?.detail).toBe('stale lookup ignored: LIVE sizeMatched=1000000 < 4000000');
    expect(t.ledger.order(o.id)).toMatchObject({ state: 'matched', sizeMatched: 4_000_000 });
  });

  it('repeating a mark does not add an event', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    t.ledger.markCanceled(o.id, 'a');
    t.ledger.markCanceled(o.id, 'b');
    expect(states(o.id)).toEqual(['signed', 'canceled']);
  });

  it('refuses unknown ids and unknown statuses', () => {
    expect(() => t.ledger.markSent('nope')).toThrow(expect.objectContaining({ code: 'LEDGER_UNKNOWN_ORDER' }));
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    expect(() => t.ledger.markAccepted(o.id, { status: 'weird', makingAmount: null, takingAmount: null })).toThrow(
      expect.objectContaining({ code: 'LEDGER_UNKNOWN_STATUS' }),
    );
    expect(() => t.ledger.markLookup(o.id, { status: 'PENDING', sizeMatched: sh(0) })).toThrow(LedgerError);
    expect(t.ledger.order(o.id)?.state).toBe('signed');
  });

  it('records a match on arrival from the exact placement amounts (BUY: making = collateral)', () => {
    const o = signedOrder({ price: px(500_000), size: sh(10_000_000) });
    t.ledger.recordSignedOrder(o);
    t.ledger.markSent(o.id);
    // 4 shares matched on arrival for 1.96 collateral (price improvement), the rest rests.
    expect(
      t.ledger.markAccepted(o.id, {
        status: 'matched',
        makingAmount: 1_960_000,
        takingAmount: 4_000_000,
        feeMicros: mc(3_000),
      }),
    ).toBe('live');
    expect(t.ledger.order(o.id)).toMatchObject({
      state: 'live',
      sizeMatched: 4_000_000,
      makingAmount: 1_960_000,
      takingAmount: 4_000_000,
      exchangeStatus: 'matched',
    });
    expect(t.ledger.fillsOfOrder(o.id)).toEqual([
      expect.objectContaining({
        side: 'BUY',
        size: 4_000_000,
        notional: 1_960_000,
        price: 490_000,
        feeMicros: 3_000,
        liquidity: 'taker',
        source: 'placement',
      }),
    ]);
    expect(t.ledger.position(YES)).toMatchObject({ size: 4_000_000, cost: 1_960_000, realized: -3_000 });
    // The lookup later reports the same 4 shares: nothing new.
    expect(t.ledger.markLookup(o.id, { status: 'LIVE', sizeMatched: sh(4_000_000) }).newlyMatched).toBe(0);
    expect(t.ledger.fillsOfOrder(o.id)).toHaveLength(1);
  });

  it('a fully matched GTC order and a partly matched FAK order are done', () => {
    const gtc = signedOrder({ side: 'BUY', size: sh(2_000_000) });
    const fak = signedOrder({ side: 'BUY', size: sh(5_000_000), orderType: 'FAK' });
    t.ledger.recordSignedOrders([gtc, fak]);
    expect(t.ledger.markAccepted(gtc.id, { status: 'matched', makingAmount: 1_000_000, takingAmount: 2_000_000 })).toBe(
      'matched',
    );
    expect(t.ledger.markAccepted(fak.id, { status: 'matched', makingAmount: 500_000, takingAmount: 1_000_000 })).toBe(
      'matched',
    );
    expect(t.ledger.order(fak.id)?.sizeMatched).toBe(1_000_000);
    expect(t.ledger.openOrders()).toEqual([]);
    expect(states(gtc.id)).toEqual(['signed', 'matched']);
  });

  it('a SELL matched on arrival: making = shares, taking = collateral', () => {
    const buy = signedOrder({ side: 'BUY', size: sh(5_000_000) });
    t.ledger.recordSignedOrder(buy);
    t.ledger.markAccepted(buy.id, { status: 'matched', makingAmount: 2_500_000, takingAmount: 5_000_000 });
    const sell = signedOrder({ side: 'SELL', price: px(600_000), size: sh(5_000_000) });
    t.ledger.recordSignedOrder(sell);
    expect(
      t.ledger.markAccepted(sell.id, { status: 'matched', makingAmount: 5_000_000, takingAmount: 3_100_000 }),
    ).toBe('matched');
    expect(t.ledger.position(YES)).toMatchObject({ size: 0, cost: 0, realized: 600_000 }); // 3.10 − 2.50
  });

  it('an unmatched placement is canceled', () => {
    const o = signedOrder();
    t.ledger.recordSignedOrder(o);
    expect(t.ledger.markAccepted(o.id, { status: 'unmatched', makingAmount: null, takingAmount: null })).toBe(
      'canceled',
    );
  });

  it('prunes terminal orders and their events, keeping open orders and fills', () => {
    const done = signedOrder();
    const open = signedOrder();
    t.ledger.recordSignedOrders([done, open]);
    t.ledger.markAccepted(done.id, { status: 'matched', makingAmount: 5_000_000, takingAmount: 10_000_000 });
    t.clock.advance(86_400_000);
    expect(t.ledger.pruneOrders(t.clock.now() - 3_600_000)).toBe(1);
    expect(t.ledger.order(done.id)).toBeNull();
    expect(t.ledger.orderEvents(done.id)).toEqual([]);
    expect(t.ledger.order(open.id)?.state).toBe('signed');
    expect(t.ledger.fills()).toHaveLength(1);
  });
});

// Unit tests of the matching engine: each order type, each rejection text of docs/protocol.md §4, the
// self-trade rule, complementary tokens (transfer, mint, merge, mirrored books), fees, tick change,
// expiry, resolution, cancels, events and lookups. Every test ends with the full invariant audit.
import { afterEach, describe, expect, it } from 'vitest';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import type { MatchingEngine } from '../../../src/sim/engine/engine.js';
import { priceSizeFromAmounts } from '../../../src/sim/engine/amounts.js';
import type { Accepted, OrderUpdate, SubmitResult, Trade } from '../../../src/sim/engine/types.js';
import type { Micros } from '../../../src/core/money.js';
import { COND, fund, M, NO, ord, P, S, setup, YES } from './helpers.js';

let current: MatchingEngine | null = null;
function fresh(over: Parameters<typeof setup>[0] = {}): ReturnType<typeof setup> {
  const s = setup(over);
  current = s.engine;
  return s;
}
afterEach(() => {
  if (current !== null) expect(auditEngine(current)).toEqual([]);
  current = null;
});

function ok(r: SubmitResult): Accepted {
  if (!r.ok) throw new Error(`rejected: ${r.message}`);
  return r;
}

describe('resting and matching', () => {
  it('rests a GTC that does not cross and reserves price × size', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100');
    const r = ok(engine.submit(ord('a', 'BUY', '0.40', '10', { id: 'b1' })));
    expect(r.status).toBe('live');
    expect(r.orderStatus).toBe('LIVE');
    expect(r.trades).toHaveLength(0);
    expect(engine.balances('a').collateral).toEqual({ available: M('96'), reserved: M('4') });
    expect(engine.bookView(YES)?.bids).toEqual([{ price: P('0.4'), size: S('10') }]);
    expect(engine.getOrder('b1')).toMatchObject({
      status: 'LIVE',
      originalSize: S('10'),
      sizeMatched: 0,
      price: P('0.4'),
    });
  });

  it('fills by price then time, at the maker price', () => {
    const { engine, clock } = fresh();
    fund(engine, 's1', '0', '100');
    fund(engine, 's2', '0', '100');
    fund(engine, 's3', '0', '100');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('s1', 'SELL', '0.52', '10', { id: 'first' })));
    clock.advance(1);
    ok(engine.submit(ord('s2', 'SELL', '0.52', '10', { id: 'second' })));
    ok(engine.submit(ord('s3', 'SELL', '0.51', '5', { id: 'better' })));
    const r = ok(engine.submit(ord('b', 'BUY', '0.55', '20', { id: 'taker' })));
    expect(r.trades.map((t) => [t.makerOrderId, t.size, t.takerPrice])).toEqual([
      ['better', S('5'), P('0.51')],
      ['first', S('10'), P('0.52')],
      ['second', S('5'), P('0.52')],
    ]);
    // 5 × 0.51 + 15 × 0.52 = 10.35; the excess reserved at 0.55 came back.
    expect(r.makingAmount).toBe(M('10.35'));
    expect(r.takingAmount).toBe(S('20'));
    expect(r.status).toBe('matched');
    expect(r.orderStatus).toBe('MATCHED');
    expect(engine.balances('b').collateral).toEqual({ available: M('89.65'), reserved: 0 });
    expect(engine.balances('b').tokens.get(YES)).toEqual({ available: S('20'), reserved: 0 });
    expect(engine.getOrder('second')).toMatchObject({ status: 'LIVE', sizeMatched: S('5') });
    expect(engine.getOrder('first')).toMatchObject({ status: 'MATCHED', sizeMatched: S('10') });
    expect(engine.bookView(YES)?.asks).toEqual([{ price: P('0.52'), size: S('5') }]);
  });

  it('rests the remainder of a partly filled GTC', () => {
    const { engine } = fresh();
    fund(engine, 's', '0', '100');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('s', 'SELL', '0.50', '6')));
    const r = ok(engine.submit(ord('b', 'BUY', '0.50', '10', { id: 'part' })));
    expect(r.status).toBe('matched');
    expect(r.orderStatus).toBe('LIVE');
    expect(r.sizeMatched).toBe(S('6'));
    expect(engine.bookView(YES)?.bids).toEqual([{ price: P('0.5'), size: S('4') }]);
    expect(engine.getOrder('part')?.associateTrades).toHaveLength(1);
    expect(engine.balances('b').collateral).toEqual({ available: M('95'), reserved: M('2') });
  });

  it('a SELL taker also gets the better maker price', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    fund(engine, 's', '0', '50');
    ok(engine.submit(ord('b', 'BUY', '0.60', '10')));
    const r = ok(engine.submit(ord('s', 'SELL', '0.55', '10')));
    expect(r.trades[0]?.takerPrice).toBe(P('0.6'));
    expect(r.takingAmount).toBe(M('6'));
    expect(r.makingAmount).toBe(S('10'));
    expect(engine.balances('s').collateral.available).toBe(M('6'));
  });
});

describe('FOK and FAK', () => {
  it('FOK fills completely or is rejected with the protocol text, changing nothing', () => {
    const { engine } = fresh();
    fund(engine, 's', '0', '100');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('s', 'SELL', '0.50', '5')));
    ok(engine.submit(ord('s', 'SELL', '0.51', '5')));
    const before = engine.balances('b');
    const r = engine.submit(ord('b', 'BUY', '0.51', '11', { type: 'FOK', id: 'fok1' }));
    expect(r).toEqual({
      ok: false,
      orderId: 'fok1',
      code: 'FOK_NOT_FILLED',
      message: "order couldn't be fully filled. FOK orders are fully filled or killed.",
    });
    expect(engine.balances('b')).toEqual(before);
    expect(engine.getOrder('fok1')).toBeUndefined();
    expect(engine.bookView(YES)?.asks).toHaveLength(2);
    const f = ok(engine.submit(ord('b', 'BUY', '0.51', '10', { type: 'FOK' })));
    expect(f.orderStatus).toBe('MATCHED');
    expect(f.sizeMatched).toBe(S('10'));
    expect(engine.bookView(YES)?.asks).toEqual([]);
  });

  it("FOK does not count the owner's own resting orders as liquidity", () => {
    const { engine } = fresh();
    fund(engine, 'x', '100', '100');
    fund(engine, 's', '0', '100');
    ok(engine.submit(ord('x', 'SELL', '0.50', '10', { id: 'own' })));
    ok(engine.submit(ord('s', 'SELL', '0.51', '5')));
    const r = engine.submit(ord('x', 'BUY', '0.51', '10', { type: 'FOK' }));
    expect(r.ok).toBe(false);
    // A rejected FOK cancels nothing.
    expect(engine.getOrder('own')?.status).toBe('LIVE');
  });

  it('FOK that does not cross at all is rejected', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    const r = engine.submit(ord('b', 'BUY', '0.5', '10', { type: 'FOK' }));
    expect(r.ok ? '' : r.code).toBe('FOK_NOT_FILLED');
  });

  it('FAK fills what it can and cancels the rest, releasing its reservation', () => {
    const { engine } = fresh();
    fund(engine, 's', '0', '100');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('s', 'SELL', '0.40', '7')));
    const r = ok(engine.submit(ord('b', 'BUY', '0.45', '20', { type: 'FAK', id: 'fak' })));
    expect(r.sizeMatched).toBe(S('7'));
    expect(r.status).toBe('matched');
    expect(engine.getOrder('fak')).toMatchObject({ status: 'MATCHED', sizeMatched: S('7'), originalSize: S('20') });
    expect(engine.bookView(YES)?.bids).toEqual([]);
    expect(engine.balances('b').collateral).toEqual({ available: M('97.2'), reserved: 0 });
    expect(engine.cancel('fak', 'b')).toEqual({ canceled: false, reason: 'Order already matched' });
  });

  it('FAK with nothing to match is rejected with the protocol text', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    fund(engine, 's', '0', '100');
    ok(engine.submit(ord('s', 'SELL', '0.60', '7')));
    const r = engine.submit(ord('b', 'BUY', '0.55', '10', { type: 'FAK', id: 'fak2' }));
    expect(r).toEqual({
      ok: false,
      orderId: 'fak2',
      code: 'FAK_NO_MATCH',
      message:
        'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
    });
  });

  it("FAK facing only its owner's orders is rejected and cancels nothing", () => {
    const { engine } = fresh();
    fund(engine, 'x', '100', '100');
    ok(engine.submit(ord('x', 'SELL', '0.50', '10', { id: 'mine' })));
    const r = engine.submit(ord('x', 'BUY', '0.55', '10', { type: 'FAK' }));
    expect(r.ok ? '' : r.code).toBe('FAK_NO_MATCH');
    expect(engine.getOrder('mine')?.status).toBe('LIVE');
  });
});

describe('post-only', () => {
  it('rests when it does not cross and is rejected when it would', () => {
    const { engine } = fresh();
    fund(engine, 's', '0', '100');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('s', 'SELL', '0.50', '10')));
    const r = engine.submit(ord('b', 'BUY', '0.50', '10', { postOnly: true }));
    expect(r).toMatchObject({
      ok: false,
      code: 'POST_ONLY_CROSSES',
      message: 'invalid post-only order: order crosses book',
    });
    expect(ok(engine.submit(ord('b', 'BUY', '0.49', '10', { postOnly: true }))).status).toBe('live');
    expect(engine.balances('b').collateral.reserved).toBe(M('4.9'));
  });

  it('is refused on FOK and FAK', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    for (const type of ['FOK', 'FAK'] as const) {
      const r = engine.submit(ord('b', 'BUY', '0.49', '10', { postOnly: true, type }));
      expect(r).toMatchObject({ ok: false, code: 'INVALID_ORDER', message: 'Invalid order payload' });
    }
  });
});

describe('GTD expiry', () => {
  it('is live until expirationSec and expires exactly then, releasing its reservation', () => {
    const { engine, clock } = fresh();
    fund(engine, 'b', '100');
    const updates: OrderUpdate[] = [];
    engine.onOrderUpdate((u) => updates.push(u));
    const exp = clock.now() / 1000 + 60;
    ok(engine.submit(ord('b', 'BUY', '0.40', '10', { type: 'GTD', expirationSec: exp, id: 'g' })));
    clock.advance(59_999);
    expect(engine.getOrder('g')?.status).toBe('LIVE');
    expect(engine.bookView(YES)?.bids).toHaveLength(1);
    clock.advance(1);
    expect(engine.bookView(YES)?.bids).toEqual([]);
    expect(engine.getOrder('g')).toMatchObject({ status: 'CANCELED', expirationSec: exp });
    expect(engine.balances('b').collateral).toEqual({ available: M('100'), reserved: 0 });
    expect(updates.map((u) => u.reason)).toEqual(['placed', 'expired']);
    expect(engine.cancel('g', 'b')).toEqual({ canceled: false, reason: 'Order not found or already canceled' });
  });

  it('an expired order is never matched', () => {
    const { engine, clock } = fresh();
    fund(engine, 's', '0', '100');
    fund(engine, 'b', '100');
    ok(
      engine.submit(ord('s', 'SELL', '0.40', '10', { type: 'GTD', expirationSec: clock.now() / 1000 + 1, id: 'gone' })),
    );
    clock.advance(1000);
    const r = ok(engine.submit(ord('b', 'BUY', '0.40', '10')));
    expect(r.trades).toHaveLength(0);
    expect(engine.getOrder('gone')?.status).toBe('CANCELED');
  });

  it('expire(nowMs) sweeps explicitly and reports the count', () => {
    const { engine, clock } = fresh();
    fund(engine, 'b', '100');
    const t = clock.now() / 1000;
    ok(engine.submit(ord('b', 'BUY', '0.40', '10', { type: 'GTD', expirationSec: t + 10 })));
    ok(engine.submit(ord('b', 'BUY', '0.41', '10', { type: 'GTD', expirationSec: t + 20 })));
    ok(engine.submit(ord('b', 'BUY', '0.42', '10', { type: 'GTD', expirationSec: t + 30 })));
    expect(engine.expire((t + 20) * 1000)).toBe(2);
    expect(engine.expire((t + 25) * 1000)).toBe(0);
    expect(engine.openOrders('b').map((o) => o.price)).toEqual([P('0.42')]);
  });

  it('rejects an expiration already past and an expiration on a non-GTD order', () => {
    const { engine, clock } = fresh();
    fund(engine, 'b', '100');
    const t = clock.now() / 1000;
    expect(engine.submit(ord('b', 'BUY', '0.40', '10', { type: 'GTD', expirationSec: t })).ok).toBe(false);
    expect(engine.submit(ord('b', 'BUY', '0.40', '10', { type: 'GTC', expirationSec: t + 100 })).ok).toBe(false);
  });
});

describe('rejection texts of docs/protocol.md §4', () => {
  it('off-tick and out-of-range prices', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    expect(engine.submit(ord('b', 'BUY', '0.555', '10', { id: '0xab' }))).toEqual({
      ok: false,
      orderId: '0xab',
      code: 'INVALID_TICK',
      message: 'order 0xab is invalid. Price (0.555) breaks minimum tick size rule: 0.01',
    });
    for (const p of ['0', '1', '0.005', '0.995']) {
      const r = engine.submit(ord('b', 'BUY', p, '10', { id: 'x' }));
      expect(r.ok ? '' : r.message).toBe(`order x is invalid. Price (${p}) breaks minimum tick size rule: 0.01`);
    }
    expect(engine.submit(ord('b', 'BUY', '0.99', '10')).ok).toBe(true);
    expect(engine.submit(ord('b', 'BUY', '0.01', '10')).ok).toBe(true);
  });

  it('size under the minimum, and off the 0.01 lot', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    expect(engine.submit(ord('b', 'BUY', '0.5', '4.99', { id: 'sm' }))).toMatchObject({
      code: 'INVALID_MIN_SIZE',
      message: 'order sm is invalid. Size (4.99) lower than the minimum: 5',
    });
    expect(engine.submit(ord('b', 'BUY', '0.5', '5.001'))).toMatchObject({
      code: 'INVALID_ORDER',
      message: 'Invalid order payload',
    });
  });

  it('duplicated id, even after the first is gone', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    ok(engine.submit(ord('b', 'BUY', '0.5', '10', { id: 'dup' })));
    engine.cancel('dup');
    expect(engine.submit(ord('b', 'BUY', '0.5', '10', { id: 'dup' }))).toMatchObject({
      code: 'DUPLICATED',
      message: 'order dup is invalid. Duplicated.',
    });
  });

  it('not enough balance / allowance, counting what resting orders reserve', () => {
    const { engine } = fresh();
    fund(engine, 'b', '10', '8');
    ok(engine.submit(ord('b', 'BUY', '0.5', '16')));
    expect(engine.submit(ord('b', 'BUY', '0.5', '5'))).toMatchObject({
      code: 'NOT_ENOUGH_BALANCE',
      message: 'not enough balance / allowance',
    });
    ok(engine.submit(ord('b', 'BUY', '0.4', '5')));
    ok(engine.submit(ord('b', 'SELL', '0.9', '8')));
    expect(engine.submit(ord('b', 'SELL', '0.9', '5')).ok).toBe(false);
    expect(engine.submit(ord('nobody', 'BUY', '0.5', '5'))).toMatchObject({ code: 'NOT_ENOUGH_BALANCE' });
    // NO tokens are a separate balance: 8 were minted.
    ok(engine.submit(ord('b', 'SELL', '0.9', '8', { token: NO })));
  });

  it('the market is not yet ready: paused, closed, resolved', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    const text = 'the market is not yet ready to process new orders';
    engine.setAcceptingOrders(COND, false);
    expect(engine.submit(ord('b', 'BUY', '0.5', '10'))).toMatchObject({ code: 'MARKET_NOT_READY', message: text });
    engine.setAcceptingOrders(COND, true);
    expect(engine.submit(ord('b', 'BUY', '0.5', '10')).ok).toBe(true);
    engine.closeMarket(COND);
    expect(engine.submit(ord('b', 'BUY', '0.5', '10'))).toMatchObject({ code: 'MARKET_NOT_READY' });
    engine.setAcceptingOrders(COND, true);
    expect(engine.submit(ord('b', 'BUY', '0.5', '10'))).toMatchObject({ code: 'MARKET_NOT_READY' });
  });

  it('an unknown token is an invalid payload', () => {
    const { engine } = fresh();
    fund(engine, 'b', '100');
    expect(engine.submit(ord('b', 'BUY', '0.5', '10', { token: 'nope' }))).toMatchObject({ code: 'INVALID_ORDER' });
  });
});

describe('self-trade rule: cancel resting', () => {
  it("cancels the owner's resting order and keeps matching the others", () => {
    const { engine, clock } = fresh();
    fund(engine, 'x', '100', '100');
    fund(engine, 'y', '0', '100');
    const updates: OrderUpdate[] = [];
    engine.onOrderUpdate((u) => updates.push(u));
    ok(engine.submit(ord('x', 'SELL', '0.50', '10', { id: 'mine' })));
    clock.advance(1);
    ok(engine.submit(ord('y', 'SELL', '0.50', '10', { id: 'theirs' })));
    const r = ok(engine.submit(ord('x', 'BUY', '0.50', '15', { id: 'in' })));
    expect(r.trades.map((t) => [t.makerOrderId, t.makerOwner, t.size])).toEqual([['theirs', 'y', S('10')]]);
    expect(engine.getOrder('mine')).toMatchObject({ status: 'CANCELED', sizeMatched: 0 });
    expect(updates.filter((u) => u.orderId === 'mine').map((u) => u.reason)).toEqual(['placed', 'self-trade']);
    // The remainder rests: the book is not crossed by the owner's own order.
    expect(engine.bookView(YES)).toMatchObject({ bids: [{ price: P('0.5'), size: S('5') }], asks: [] });
    expect(engine.balances('x').tokens.get(YES)).toEqual({ available: S('110'), reserved: 0 });
  });

  it('also applies across the complementary token', () => {
    const { engine } = fresh();
    fund(engine, 'x', '100');
    ok(engine.submit(ord('x', 'BUY', '0.40', '10', { token: NO, id: 'noBid' })));
    const r = ok(engine.submit(ord('x', 'BUY', '0.60', '10', { id: 'yesBid' })));
    expect(r.trades).toHaveLength(0);
    expect(engine.getOrder('noBid')?.status).toBe('CANCELED');
    expect(engine.getOrder('yesBid')?.status).toBe('LIVE');
  });
});

describe('complementary tokens', () => {
  it('BUY YES against BUY NO mints a complete set', () => {
    const { engine } = fresh();
    fund(engine, 'y', '100');
    fund(engine, 'n', '100');
    ok(engine.submit(ord('n', 'BUY', '0.40', '10', { token: NO, id: 'noBuy' })));
    // The NO bid at 0.40 is a YES ask at 0.60.
    expect(engine.bookView(YES)?.asks).toEqual([{ price: P('0.6'), size: S('10') }]);
    expect(engine.bookView(NO)?.bids).toEqual([{ price: P('0.4'), size: S('10') }]);
    const r = ok(engine.submit(ord('y', 'BUY', '0.65', '10')));
    const t = r.trades[0] as Trade;
    expect(t).toMatchObject({
      kind: 'mint',
      yesPrice: P('0.6'),
      takerPrice: P('0.6'),
      makerPrice: P('0.4'),
      makerTokenId: NO,
      makerSide: 'BUY',
    });
    expect(engine.balances('y').collateral.available).toBe(M('94'));
    expect(engine.balances('n').collateral.available).toBe(M('96'));
    expect(engine.balances('y').tokens.get(YES)?.available).toBe(S('10'));
    expect(engine.balances('n').tokens.get(NO)?.available).toBe(S('10'));
    expect(engine.market(COND)?.lockedCollateral).toBe(M('10'));
    expect(engine.lastTrade(YES)).toMatchObject({ price: P('0.6'), side: 'BUY' });
    expect(engine.lastTrade(NO)).toMatchObject({ price: P('0.4'), side: 'SELL' });
  });

  it('SELL YES against SELL NO merges a complete set back into collateral', () => {
    const { engine } = fresh();
    fund(engine, 'a', '0', '10');
    fund(engine, 'b', '0', '10');
    ok(engine.submit(ord('a', 'SELL', '0.30', '10', { token: NO })));
    const r = ok(engine.submit(ord('b', 'SELL', '0.65', '10')));
    expect(r.trades[0]).toMatchObject({
      kind: 'merge',
      yesPrice: P('0.7'),
      takerPrice: P('0.7'),
      makerPrice: P('0.3'),
    });
    expect(engine.balances('a').collateral.available).toBe(M('3'));
    expect(engine.balances('b').collateral.available).toBe(M('7'));
    expect(engine.market(COND)?.lockedCollateral).toBe(M('10'));
  });

  it('NO against NO is a plain transfer', () => {
    const { engine } = fresh();
    fund(engine, 's', '0', '10');
    fund(engine, 'b', '10');
    ok(engine.submit(ord('s', 'SELL', '0.30', '10', { token: NO })));
    const r = ok(engine.submit(ord('b', 'BUY', '0.30', '10', { token: NO })));
    expect(r.trades[0]).toMatchObject({
      kind: 'transfer',
      takerTokenId: NO,
      makerTokenId: NO,
      takerPrice: P('0.3'),
      yesPrice: P('0.7'),
    });
    expect(engine.balances('b').tokens.get(NO)?.available).toBe(S('10'));
    expect(engine.balances('s').collateral.available).toBe(M('3'));
  });

  it('the NO book is the mirror of the YES book and the mids sum to 1', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100', '100');
    ok(engine.submit(ord('a', 'BUY', '0.41', '10')));
    ok(engine.submit(ord('a', 'BUY', '0.40', '20')));
    ok(engine.submit(ord('a', 'SELL', '0.47', '5')));
    ok(engine.submit(ord('a', 'BUY', '0.50', '7', { token: NO })));
    const yes = engine.bookView(YES);
    const no = engine.bookView(NO);
    expect(yes?.bids).toEqual([
      { price: P('0.41'), size: S('10') },
      { price: P('0.4'), size: S('20') },
    ]);
    expect(yes?.asks).toEqual([
      { price: P('0.47'), size: S('5') },
      { price: P('0.5'), size: S('7') },
    ]);
    expect(no?.bids).toEqual([
      { price: P('0.53'), size: S('5') },
      { price: P('0.5'), size: S('7') },
    ]);
    expect(no?.asks).toEqual([
      { price: P('0.59'), size: S('10') },
      { price: P('0.6'), size: S('20') },
    ]);
    expect((engine.midpoint(YES) as number) + (engine.midpoint(NO) as number)).toBe(P('1'));
    expect(engine.midpoint(YES)).toBe(P('0.44'));
    expect(engine.topOfBook(NO)).toEqual({ bid: P('0.53'), ask: P('0.59') });
    expect(engine.bookView(YES, 1)?.bids).toHaveLength(1);
  });
});

describe('fees', () => {
  it('charges bps of min(p, 1 − p) × size in collateral: buyer on top, seller deducted', () => {
    const { engine } = fresh({ makerFeeBps: 50, takerFeeBps: 200 });
    fund(engine, 'm', '0', '100');
    fund(engine, 't', '100');
    ok(engine.submit(ord('m', 'SELL', '0.70', '10')));
    // A BUY at 0.70 reserves 7 + 2% × min(0.7, 0.5) × 10 = 7.1.
    const r = ok(engine.submit(ord('t', 'BUY', '0.70', '10')));
    const t = r.trades[0] as Trade;
    // min(0.7, 0.3) × 10 = 3: taker 2% = 0.06, maker 0.5% = 0.015.
    expect(t.takerFee).toBe(M('0.06'));
    expect(t.makerFee).toBe(M('0.015'));
    expect(r.feePaid).toBe(M('0.06'));
    expect(engine.balances('t').collateral).toEqual({ available: M('92.94'), reserved: 0 });
    expect(engine.balances('m').collateral.available).toBe(M('6.985'));
    expect(engine.feesCollected).toBe(M('0.075'));
  });

  it('reserves the worst-case fee so a BUY can always pay it', () => {
    const { engine } = fresh({ makerFeeBps: 0, takerFeeBps: 100 });
    // 10 × 0.4 = 4 plus 1% × 0.4 × 10 = 0.04.
    fund(engine, 'b', '4.03');
    expect(engine.submit(ord('b', 'BUY', '0.40', '10')).ok).toBe(false);
    engine.deposit('b', M('0.01'));
    ok(engine.submit(ord('b', 'BUY', '0.40', '10')));
    expect(engine.balances('b').collateral).toEqual({ available: 0, reserved: M('4.04') });
  });

  it("rounds each fill's fee down to the millionth", () => {
    const { engine } = fresh({ makerFeeBps: 0, takerFeeBps: 3, tick: P('0.001') });
    fund(engine, 'm', '0', '100');
    fund(engine, 't', '100');
    ok(engine.submit(ord('m', 'SELL', '0.333', '5.01')));
    const r = ok(engine.submit(ord('t', 'BUY', '0.333', '5.01')));
    // 0.0003 × 0.333 × 5.01 = 0.000500499 → 0.0005
    expect(r.trades[0]?.takerFee).toBe(500);
  });
});

describe('tick change while trading', () => {
  it('narrower tick: new prices allowed, old orders keep theirs', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100', '100');
    fund(engine, 'b', '100', '100');
    ok(engine.submit(ord('a', 'BUY', '0.50', '10', { id: 'old' })));
    expect(engine.submit(ord('a', 'BUY', '0.505', '10')).ok).toBe(false);
    engine.setTick(COND, P('0.001'));
    ok(engine.submit(ord('a', 'BUY', '0.505', '10')));
    expect(engine.bookView(YES)?.bids).toEqual([
      { price: P('0.505'), size: S('10') },
      { price: P('0.5'), size: S('10') },
    ]);
    expect(engine.bookView(YES)?.tick).toBe(P('0.001'));
    const r = ok(engine.submit(ord('b', 'SELL', '0.499', '20')));
    expect(r.trades.map((t) => [t.makerOrderId === 'old', t.takerPrice])).toEqual([
      [false, P('0.505')],
      [true, P('0.5')],
    ]);
  });

  it('wider tick: off-tick resting orders stay and match at their own price; new ones must be on the new tick', () => {
    const { engine } = fresh({ tick: P('0.001') });
    fund(engine, 'a', '100', '100');
    fund(engine, 'b', '100', '100');
    ok(engine.submit(ord('a', 'SELL', '0.555', '10', { id: 'offtick' })));
    engine.setTick(COND, P('0.01'));
    expect(engine.submit(ord('b', 'BUY', '0.555', '10', { id: 'n' }))).toMatchObject({
      message: 'order n is invalid. Price (0.555) breaks minimum tick size rule: 0.01',
    });
    expect(engine.bookView(YES)?.asks).toEqual([{ price: P('0.555'), size: S('10') }]);
    const r = ok(engine.submit(ord('b', 'BUY', '0.56', '10')));
    expect(r.trades[0]).toMatchObject({ makerOrderId: 'offtick', takerPrice: P('0.555') });
  });

  it('ticks whose gcd is finer than either (0.0025 then 0.001) keep every price exact', () => {
    const { engine } = fresh({ tick: P('0.0025') });
    fund(engine, 'a', '100', '100');
    ok(engine.submit(ord('a', 'BUY', '0.4975', '10')));
    engine.setTick(COND, P('0.001'));
    ok(engine.submit(ord('a', 'BUY', '0.498', '10')));
    ok(engine.submit(ord('a', 'SELL', '0.503', '10')));
    expect(engine.bookView(YES)?.bids.map((l) => l.price)).toEqual([P('0.498'), P('0.4975')]);
    expect(engine.bookView(NO)?.asks.map((l) => l.price)).toEqual([P('0.502'), P('0.5025')]);
    engine.setTick(COND, P('0.0001'));
    ok(engine.submit(ord('a', 'BUY', '0.4981', '10')));
    expect(engine.topOfBook(YES)).toEqual({ bid: P('0.4981'), ask: P('0.503') });
  });
});

describe('resolution', () => {
  it('cancels resting orders with CANCELED_MARKET_RESOLVED, then redeems the winner at 1', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100', '10');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('a', 'SELL', '0.60', '10', { id: 'ask' })));
    ok(engine.submit(ord('b', 'BUY', '0.60', '5')));
    ok(engine.submit(ord('b', 'BUY', '0.30', '10', { id: 'bid' })));
    const updates: OrderUpdate[] = [];
    engine.onOrderUpdate((u) => updates.push(u));
    engine.resolve(COND, YES);
    expect(engine.getOrder('ask')).toMatchObject({ status: 'CANCELED_MARKET_RESOLVED', sizeMatched: S('5') });
    expect(engine.getOrder('bid')?.status).toBe('CANCELED_MARKET_RESOLVED');
    expect(updates.map((u) => u.reason)).toEqual(['resolved', 'resolved']);
    expect(engine.market(COND)).toMatchObject({ winner: YES, acceptingOrders: false, closed: true });
    expect(engine.submit(ord('b', 'BUY', '0.5', '10')).ok).toBe(false);
    expect(engine.balances('b').collateral).toEqual({ available: M('97'), reserved: 0 });
    expect(engine.redeem('b', COND)).toBe(M('5'));
    expect(engine.redeem('a', COND)).toBe(M('5'));
    expect(engine.balances('a').tokens.get(NO)?.available).toBe(0);
    expect(engine.market(COND)?.lockedCollateral).toBe(0);
    expect(() => engine.resolve(COND, NO)).toThrow(/already resolved/);
  });
});

describe('cancel', () => {
  it('answers with the protocol reasons', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100', '100');
    fund(engine, 'b', '100');
    ok(engine.submit(ord('a', 'SELL', '0.5', '10', { id: 'filled' })));
    ok(engine.submit(ord('b', 'BUY', '0.5', '10')));
    ok(engine.submit(ord('a', 'SELL', '0.6', '10', { id: 'live' })));
    expect(engine.cancel('nope')).toEqual({ canceled: false, reason: 'Order not found or already canceled' });
    expect(engine.cancel('live', 'b')).toEqual({ canceled: false, reason: 'Order not found or already canceled' });
    expect(engine.cancel('filled', 'a')).toEqual({ canceled: false, reason: 'Order already matched' });
    expect(engine.cancel('live', 'a')).toEqual({ canceled: true });
    expect(engine.cancel('live', 'a')).toEqual({ canceled: false, reason: 'Order not found or already canceled' });
    expect(engine.balances('a').tokens.get(YES)).toEqual({ available: S('90'), reserved: 0 });
  });

  it("cancelMany answers in the DELETE /order shape; cancelAll cancels an owner's resting orders", () => {
    const { engine } = fresh();
    const c2 = '0xcond2';
    engine.addMarket({
      conditionId: c2,
      tokens: ['y2', 'n2'],
      tick: P('0.01'),
      minSize: S('5'),
      makerFeeBps: 0,
      takerFeeBps: 0,
      negRisk: false,
      acceptingOrders: true,
    });
    fund(engine, 'a', '100');
    ok(engine.submit(ord('a', 'BUY', '0.1', '10', { id: 'k1' })));
    ok(engine.submit(ord('a', 'BUY', '0.2', '10', { id: 'k2' })));
    ok(engine.submit(ord('a', 'BUY', '0.2', '10', { id: 'k3', token: 'y2' })));
    ok(engine.submit(ord('a', 'BUY', '0.3', '10', { id: 'k4', token: 'n2' })));
    expect(engine.cancelMany(['k1', 'zz'], 'a')).toEqual({
      canceled: ['k1'],
      notCanceled: { zz: 'Order not found or already canceled' },
    });
    expect(engine.cancelAll('a', COND)).toEqual(['k2']);
    expect(engine.cancelAll('a').sort()).toEqual(['k3', 'k4']);
    expect(engine.openOrders('a')).toEqual([]);
    expect(engine.balances('a').collateral).toEqual({ available: M('100'), reserved: 0 });
  });
});

describe('events and lookups', () => {
  it('emits trades and order updates after the state is final; unsubscribe works', () => {
    const { engine } = fresh();
    fund(engine, 'a', '0', '100');
    fund(engine, 'b', '100');
    const trades: Trade[] = [];
    const seen: string[] = [];
    const off = engine.onTrade((t) => {
      trades.push(t);
      // The state a listener sees is final: the maker's record already shows the fill.
      seen.push(engine.getOrder(t.makerOrderId)?.status ?? '');
    });
    const updates: OrderUpdate[] = [];
    engine.onOrderUpdate((u) => updates.push(u));
    ok(engine.submit(ord('a', 'SELL', '0.5', '10', { id: 'mk' })));
    ok(engine.submit(ord('b', 'BUY', '0.5', '10', { id: 'tk' })));
    expect(trades).toHaveLength(1);
    expect(seen).toEqual(['MATCHED']);
    expect(updates.map((u) => [u.orderId, u.reason, u.status, u.sizeMatched])).toEqual([
      ['mk', 'placed', 'LIVE', 0],
      ['mk', 'fill', 'MATCHED', S('10')],
      ['tk', 'placed', 'MATCHED', S('10')],
    ]);
    off();
    ok(engine.submit(ord('a', 'SELL', '0.5', '10')));
    ok(engine.submit(ord('b', 'BUY', '0.5', '10')));
    expect(trades).toHaveLength(1);
  });

  it('a throwing listener does not stop the others and its error surfaces after the state is final', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100');
    const got: string[] = [];
    engine.onOrderUpdate(() => {
      throw new Error('listener bug');
    });
    engine.onOrderUpdate((u) => got.push(u.orderId));
    expect(() => engine.submit(ord('a', 'BUY', '0.5', '10', { id: 'ev' }))).toThrow('listener bug');
    expect(got).toEqual(['ev']);
    expect(engine.getOrder('ev')?.status).toBe('LIVE');
  });

  it('a listener may call back into the engine; its events follow the ones already queued', () => {
    const { engine } = fresh();
    fund(engine, 'a', '100', '100');
    fund(engine, 'b', '100', '100');
    const seen: string[] = [];
    let requoted = false;
    const off = engine.onTrade((t) => {
      seen.push(`trade ${t.makerOrderId}`);
      if (!requoted) {
        requoted = true;
        // The maker requotes from inside the listener.
        ok(engine.submit(ord('a', 'SELL', '0.52', '5', { id: 'requote' })));
      }
    });
    engine.onOrderUpdate((u) => {
      seen.push(`${u.reason} ${u.orderId}`);
      if (u.reason === 'fill') off(); // unsubscribing mid-delivery is safe
    });
    ok(engine.submit(ord('a', 'SELL', '0.50', '5', { id: 'q' })));
    ok(engine.submit(ord('b', 'BUY', '0.50', '5', { id: 'hit' })));
    expect(seen).toEqual(['placed q', 'trade q', 'fill q', 'placed hit', 'placed requote']);
    expect(engine.bookView(YES)?.asks).toEqual([{ price: P('0.52'), size: S('5') }]);
  });

  it('order records carry the lookup fields; pruning forgets finished orders only', () => {
    const { engine, clock } = fresh();
    fund(engine, 'a', '0', '100');
    fund(engine, 'b', '100');
    ok(engine.submit({ ...ord('a', 'SELL', '0.5', '10', { id: 'r1' }), createdAtMs: 123 }));
    ok(engine.submit(ord('b', 'BUY', '0.5', '5', { token: YES, id: 'r2' })));
    ok(engine.submit(ord('b', 'BUY', '0.4', '5', { token: YES, id: 'r3' })));
    expect(engine.getOrder('r1')).toEqual({
      id: 'r1',
      status: 'LIVE',
      conditionId: COND,
      tokenId: YES,
      outcomeIndex: 0,
      owner: 'a',
      side: 'SELL',
      price: P('0.5'),
      originalSize: S('10'),
      sizeMatched: S('5'),
      orderType: 'GTC',
      postOnly: false,
      expirationSec: 0,
      createdAtMs: 123,
      associateTrades: ['trade-1'],
    });
    clock.advance(10);
    expect(engine.pruneFinished(clock.now())).toBe(1);
    expect(engine.getOrder('r2')).toBeUndefined();
    expect(engine.getOrder('r1')?.status).toBe('LIVE');
    expect(engine.getOrder('r3')?.status).toBe('LIVE');
  });

  it('priceSizeFromAmounts reads the protocol examples and refuses inexact prices', () => {
    expect(priceSizeFromAmounts('BUY', 10_520_000, 21_040_000)).toEqual({ price: P('0.5'), size: S('21.04') });
    expect(priceSizeFromAmounts('SELL', 33_330_000, 4_099_590)).toEqual({ price: P('0.123'), size: S('33.33') });
    expect(priceSizeFromAmounts('BUY', 1_000_000, 3_000_000)).toBeNull();
    expect(priceSizeFromAmounts('BUY', 0, 3_000_000)).toBeNull();
  });

  it('addMarket refuses bad settings and duplicate tokens', () => {
    const { engine } = fresh();
    expect(() =>
      engine.addMarket({
        conditionId: 'z',
        tokens: [YES, 'q'],
        tick: P('0.01'),
        minSize: S('5'),
        makerFeeBps: 0,
        takerFeeBps: 0,
        negRisk: false,
        acceptingOrders: true,
      }),
    ).toThrow(/already belongs/);
    expect(() =>
      engine.addMarket({
        conditionId: 'z',
        tokens: ['p', 'q'],
        tick: P('0.02'),
        minSize: S('5'),
        makerFeeBps: 0,
        takerFeeBps: 0,
        negRisk: false,
        acceptingOrders: true,
      }),
    ).toThrow(/tick/);
    expect(() =>
      engine.addMarket({
        conditionId: 'z',
        tokens: ['p', 'q'],
        tick: P('0.01'),
        minSize: S('5'),
        makerFeeBps: 10_001,
        takerFeeBps: 0,
        negRisk: false,
        acceptingOrders: true,
      }),
    ).toThrow(/fee/);
  });
});

describe('account helpers', () => {
  it('deposit, withdraw, split, merge and mint move value without creating any', () => {
    const { engine } = fresh();
    engine.deposit('a', M('10'));
    expect(() => engine.withdraw('a', M('10.000001'))).toThrow(/exceeds/);
    engine.withdraw('a', M('4'));
    engine.split('a', COND, S('5'));
    expect(engine.balances('a').collateral.available).toBe(M('1'));
    expect(engine.balances('a').tokens.get(NO)?.available).toBe(S('5'));
    expect(() => engine.split('a', COND, S('2'))).toThrow(/exceeds/);
    expect(() => engine.merge('a', COND, S('6'))).toThrow(/exceeds/);
    engine.merge('a', COND, S('3'));
    expect(engine.balances('a').collateral.available).toBe(M('4'));
    expect(engine.market(COND)?.lockedCollateral).toBe(M('2'));
    engine.mint('b', COND, S('7'));
    expect(engine.balances('b').tokens.get(YES)).toEqual({ available: S('7'), reserved: 0 });
    expect(engine.balances('b').collateral.available).toBe(0);
    expect(() => engine.deposit('a', -1 as Micros)).toThrow(/non-negative/);
    expect(() => engine.redeem('a', COND)).toThrow(/not resolved/);
    expect(() => engine.split('a', 'nope', S('1'))).toThrow(/unknown market/);
  });

  it('a reserved balance cannot be withdrawn', () => {
    const { engine } = fresh();
    fund(engine, 'a', '10');
    ok(engine.submit(ord('a', 'BUY', '0.5', '10')));
    expect(() => engine.withdraw('a', M('6'))).toThrow(/exceeds/);
    engine.withdraw('a', M('5'));
    expect(engine.balances('a').collateral).toEqual({ available: 0, reserved: M('5') });
  });
});

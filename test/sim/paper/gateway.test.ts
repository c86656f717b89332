// PaperGateway on a VirtualClock against a fake market-data port serving real books (the recorded
// burst of test/fixtures/real, one poll per recorded change): resting and maker fills when a later
// book reaches our price, taker fills at the book's prices, FOK/FAK/post-only, cancels, balance
// rejections, positions and PnL after a round trip, tick changes, the NO-book mirror, and the
// exchange's request-level behaviour. After each scenario the engine's own audit must pass.
import { afterEach, describe, expect, it } from 'vitest';
import type { Book, TimedBook } from '../../../src/core/book.js';
import type { SamplingMarket } from '../../../src/core/market.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros } from '../../../src/core/money.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { ClientValidationError, ExchangeHttpError } from '../../../src/exchange/errors.js';
import { feeMicros } from '../../../src/execution/fill-tracker.js';
import { applyFill, FLAT } from '../../../src/core/pnl.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import { PaperGateway, PaperVenue, type PaperFill } from '../../../src/sim/paper/index.js';
import {
  API_KEY,
  bookOf,
  FakeMarketData,
  loadBurst,
  mirrorBook,
  settings,
  TestSigner,
  u,
  type Intent,
} from './helpers.js';

const burst = loadBurst();
const B = burst.books;
// Indices into the burst: 0 snapshot (bid 0.30 / ask 0.397), 13 ask 0.36 (300), 19 ask 0.359, 27 back to 0.39.
const askAt = (b: Book): number => (b.asks[0]?.price ?? 0) / SCALE;

interface SetupOptions {
  capital?: number;
  makerBps?: number;
  takerBps?: number;
  minSize?: number;
}

const venues: PaperVenue[] = [];
afterEach(() => {
  for (const v of venues.splice(0)) expect(auditEngine(v.engine)).toEqual([]);
});

function setup(o: SetupOptions = {}) {
  const clock = new VirtualClock(B[0]!.timestampMs);
  const md = new FakeMarketData();
  md.settings.set(
    burst.conditionId,
    settings({
      conditionId: burst.conditionId,
      yes: burst.yes,
      no: burst.no,
      tick: 0.001,
      minSize: o.minSize ?? 5,
      makerBps: o.makerBps ?? 100,
      takerBps: o.takerBps ?? 200,
    }),
  );
  const venue = new PaperVenue({ clock, capital: u(o.capital ?? 1000) as Micros });
  venues.push(venue);
  const gw = new PaperGateway({ marketData: md, venue, dialect: DIALECTS.spec, clock });
  const signer = new TestSigner();
  const fills: PaperFill[] = [];
  venue.onFill((f) => fills.push(f));
  const poll = async (book: TimedBook): Promise<Book[]> => {
    clock.advanceTo(book.timestampMs);
    md.books.set(book.assetId, book);
    return gw.getBooks([book.assetId]);
  };
  const sub = (i: Partial<Intent> & Pick<Intent, 'side' | 'price' | 'size'>) =>
    signer.submit({ tokenId: burst.yes, conditionId: burst.conditionId, tick: 0.001, ...i }, clock.now());
  const place = async (i: Partial<Intent> & Pick<Intent, 'side' | 'price' | 'size'>) => {
    const { sub: s, id } = sub(i);
    const [r] = await gw.postOrders([s], 'new');
    return { r: r!, id };
  };
  return { clock, md, venue, gw, signer, fills, poll, place, sub };
}

describe('PaperGateway: resting orders and maker fills', () => {
  it("a bid below the ask rests, and fills at its own price as maker when a later book's ask reaches it", async () => {
    const h = setup();
    await h.poll(B[0]!);
    const { r, id } = await h.place({ side: 'BUY', price: 0.36, size: 10 });
    expect(r).toEqual({
      success: true,
      errorMsg: '',
      orderId: id,
      status: 'live',
      takingAmount: null,
      makingAmount: null,
      accepted: true,
    });
    expect(await h.gw.getOrder(id)).toMatchObject({
      id,
      status: 'LIVE',
      sizeMatched: 0,
      originalSize: u(10),
      price: u(0.36),
      side: 'BUY',
      owner: API_KEY,
      makerAddress: h.signer.address,
      type: 'GTC',
      outcome: 'Yes',
    });

    // The ask walks down 0.397 → 0.39 → 0.389 without reaching 0.36: nothing fills.
    for (const b of B.slice(1, 13)) await h.poll(b);
    expect(askAt(B[12]!)).toBeGreaterThan(0.36);
    expect((await h.gw.getOrder(id))?.sizeMatched).toBe(0);
    expect(h.fills).toEqual([]);

    // The recorded ask at 0.36 (300 shares) reaches it: filled whole, at 0.36, as maker.
    expect(askAt(B[13]!)).toBe(0.36);
    await h.poll(B[13]!);
    const rec = await h.gw.getOrder(id);
    expect(rec).toMatchObject({ status: 'MATCHED', sizeMatched: u(10) });
    expect(rec?.associateTrades).toHaveLength(1);
    const fee = feeMicros(100, u(0.36), u(10)); // maker bps × min(p, 1 − p) × size, floored
    expect(fee).toBe(36_000);
    expect(h.fills).toEqual([
      expect.objectContaining({
        orderId: id,
        side: 'BUY',
        price: u(0.36),
        size: u(10),
        feeMicros: fee,
        liquidity: 'maker',
        notional: u(3.6),
      }),
    ]);
    expect(h.venue.balances().collateral).toEqual({ available: u(1000) - u(3.6) - fee, reserved: 0 });
    expect(h.venue.balances().tokens.get(burst.yes)).toEqual({ available: u(10), reserved: 0 });
  });

  it('a partial maker fill leaves the rest resting; the next book that reaches it fills more', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const { id } = await h.place({ side: 'BUY', price: 0.36, size: 500 });
    await h.poll(B[13]!); // ask 0.36 × 300
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'LIVE', sizeMatched: u(300) });
    await h.poll(B[16]!); // the same level now shows 340.09: the 300 we took come back, plus 40.09
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'MATCHED', sizeMatched: u(500) });
    expect(h.fills.map((f) => [f.price, f.size, f.liquidity])).toEqual([
      [u(0.36), u(300), 'maker'],
      [u(0.36), u(200), 'maker'],
    ]);
  });

  it('the same snapshot polled again is not fed again: liquidity we took stays taken', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const first = await h.place({ side: 'BUY', price: 0.397, size: 100.09, orderType: 'FOK' });
    expect(first.r.status).toBe('matched');
    await h.poll(B[0]!); // unchanged: same token, timestamp and hash
    expect(h.venue.stats().booksUnchanged).toBe(1);
    const second = await h.place({ side: 'BUY', price: 0.397, size: 5, orderType: 'FOK' });
    expect(second.r.errorMsg).toBe("order couldn't be fully filled. FOK orders are fully filled or killed.");
  });

  it('a stale book (older than the last fed) is ignored', async () => {
    const h = setup();
    await h.poll(B[13]!);
    h.md.books.set(burst.yes, B[0]!);
    await h.gw.getBooks([burst.yes]);
    expect(h.venue.stats()).toMatchObject({ booksFed: 1, booksStale: 1 });
    const { r } = await h.place({ side: 'BUY', price: 0.36, size: 5, orderType: 'FOK' });
    expect(r.status).toBe('matched'); // the 0.36 ask of the newer book is still there
  });

  it('our orders never appear in the books the gateway returns', async () => {
    const h = setup();
    await h.poll(B[0]!);
    await h.place({ side: 'BUY', price: 0.35, size: 100 });
    await h.place({ side: 'BUY', price: 0.36, size: 100 });
    const [book] = await h.poll(B[1]!);
    expect(book).toBe(B[1]); // the exchange's own object, untouched
    expect(book!.bids.some((l) => l.price === u(0.35) || l.price === u(0.36))).toBe(false);
  });

  it('a crossed real book: the external bids at or above the best ask are dropped, and our bid fills at its price', async () => {
    const h = setup();
    await h.poll(B[46]!);
    const { id } = await h.place({ side: 'BUY', price: 0.305, size: 20 });
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'LIVE' });
    await h.poll(B[47]!); // ask 0.301 × 45.83 arrives while the bids at 0.311 and 0.301 still show
    expect(B[47]!.bids[0]!.price).toBeGreaterThanOrEqual(B[47]!.asks[0]!.price);
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'MATCHED', sizeMatched: u(20) });
    expect(h.fills).toEqual([expect.objectContaining({ price: u(0.305), liquidity: 'maker' })]);
    // The external book the engine holds is not crossed (the audit checks it after the test).
    const top = h.venue.engine.topOfBook(burst.yes)!;
    expect(top.bid! < top.ask!).toBe(true);
  });
});

describe('PaperGateway: taking liquidity', () => {
  it("a marketable order fills as taker at the book's prices, level by level, and the rest rests", async () => {
    const h = setup();
    await h.poll(B[0]!);
    // Asks: 0.397 × 100.09, 0.398 × 3737.87. Buying 200 up to 0.398 takes both levels.
    const { r, id } = await h.place({ side: 'BUY', price: 0.398, size: 200 });
    const n1 = u(0.397 * 100.09);
    const n2 = u(0.398 * 99.91);
    expect(r).toEqual({
      success: true,
      errorMsg: '',
      orderId: id,
      status: 'matched',
      makingAmount: n1 + n2,
      takingAmount: u(200),
      accepted: true,
    });
    expect(h.fills.map((f) => [f.price, f.size, f.liquidity, f.feeMicros])).toEqual([
      [u(0.397), u(100.09), 'taker', feeMicros(200, u(0.397), u(100.09))],
      [u(0.398), u(99.91), 'taker', feeMicros(200, u(0.398), u(99.91))],
    ]);
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'MATCHED', sizeMatched: u(200) });

    // Size beyond the levels under the limit: the rest rests at the limit.
    const big = await h.place({ side: 'BUY', price: 0.397, size: 50 });
    expect(big.r.status).toBe('live'); // the 0.397 level was taken above
  });

  it('a SELL of tokens we hold takes the bids at their prices', async () => {
    const h = setup();
    await h.poll(B[0]!);
    await h.place({ side: 'BUY', price: 0.397, size: 100 });
    const { r } = await h.place({ side: 'SELL', price: 0.3, size: 100 });
    expect(r).toMatchObject({ status: 'matched', makingAmount: u(100), takingAmount: u(30) });
    expect(h.fills.at(-1)).toMatchObject({ side: 'SELL', price: u(0.3), size: u(100), liquidity: 'taker' });
  });

  it('FOK fills whole or is killed; FAK takes what it can or is rejected; post-only never takes', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const fokBig = await h.place({ side: 'BUY', price: 0.397, size: 150, orderType: 'FOK' });
    expect(fokBig.r).toMatchObject({
      success: false,
      accepted: false,
      errorMsg: "order couldn't be fully filled. FOK orders are fully filled or killed.",
    });
    expect(await h.gw.getOrder(fokBig.id)).toBeNull();
    const fok = await h.place({ side: 'BUY', price: 0.397, size: 100, orderType: 'FOK' });
    expect(fok.r).toMatchObject({ accepted: true, status: 'matched', takingAmount: u(100) });

    const fakNone = await h.place({ side: 'BUY', price: 0.35, size: 10, orderType: 'FAK' });
    expect(fakNone.r.errorMsg).toBe(
      'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
    );
    const fak = await h.place({ side: 'BUY', price: 0.397, size: 10, orderType: 'FAK' }); // 0.09 left at 0.397
    expect(fak.r).toMatchObject({ accepted: true, status: 'matched', takingAmount: u(0.09) });
    expect(await h.gw.getOrder(fak.id)).toMatchObject({ status: 'MATCHED', sizeMatched: u(0.09), originalSize: u(10) });
    expect(h.venue.openOrders()).toEqual([]);

    const po = await h.place({ side: 'BUY', price: 0.398, size: 10, postOnly: true });
    expect(po.r.errorMsg).toBe('invalid post-only order: order crosses book');
    const poOk = await h.place({ side: 'BUY', price: 0.35, size: 10, postOnly: true });
    expect(poOk.r).toMatchObject({ accepted: true, status: 'live' });
  });

  it('insufficient paper collateral or tokens: not enough balance / allowance', async () => {
    const h = setup({ capital: 10 });
    await h.poll(B[0]!);
    const buy = await h.place({ side: 'BUY', price: 0.3, size: 100 }); // needs 30 + fee
    expect(buy.r).toMatchObject({
      success: false,
      accepted: false,
      errorMsg: 'not enough balance / allowance',
      orderId: buy.id,
      status: null,
    });
    const sell = await h.place({ side: 'SELL', price: 0.5, size: 10 }); // holds no tokens
    expect(sell.r.errorMsg).toBe('not enough balance / allowance');
    const ok = await h.place({ side: 'BUY', price: 0.3, size: 30 }); // 9 + fee 0.018 reserved fits
    expect(ok.r.accepted).toBe(true);
    expect(h.venue.balances().collateral.available + h.venue.balances().collateral.reserved).toBe(u(10));
  });

  it('GTD rests until its expiration, then reads CANCELED', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const exp = Math.floor(h.clock.now() / 1000) + 60;
    const { r, id } = await h.place({ side: 'BUY', price: 0.3, size: 10, orderType: 'GTD', expirationSec: exp });
    expect(r.status).toBe('live');
    h.clock.advance(59_000);
    expect((await h.gw.getOrder(id))?.status).toBe('LIVE');
    h.clock.advance(2_000);
    expect((await h.gw.getOrder(id))?.status).toBe('CANCELED');
    expect(h.venue.balances().collateral).toEqual({ available: u(1000), reserved: 0 });
  });
});

describe('PaperGateway: cancels, checks and request-level behaviour', () => {
  it('cancel answers as DELETE /order does, and the record shows CANCELED', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const { id } = await h.place({ side: 'BUY', price: 0.35, size: 10 });
    expect(await h.gw.cancelOrder(id)).toEqual({ canceled: [id], notCanceled: new Map() });
    expect(await h.gw.cancelOrder(id)).toEqual({
      canceled: [],
      notCanceled: new Map([[id, 'Order not found or already canceled']]),
    });
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'CANCELED', sizeMatched: 0 });
    const filled = await h.place({ side: 'BUY', price: 0.397, size: 10 });
    expect(await h.gw.cancelOrder(filled.id)).toEqual({
      canceled: [],
      notCanceled: new Map([[filled.id, 'Order already matched']]),
    });
    expect(await h.gw.cancelOrder(`0x${'ab'.repeat(32)}`)).toEqual({
      canceled: [],
      notCanceled: new Map([[`0x${'ab'.repeat(32)}`, 'Order not found or already canceled']]),
    });
    expect(h.venue.balances().collateral.reserved).toBe(0);
    await expect(h.gw.cancelOrder('')).rejects.toBeInstanceOf(ClientValidationError);
  });

  it("duplicates, minimum size and tick rule answer with the exchange's texts", async () => {
    const h = setup();
    await h.poll(B[0]!);
    const { sub, id } = h.sub({ side: 'BUY', price: 0.35, size: 10 });
    const [first, again] = await h.gw.postOrders([sub, sub], 'new');
    expect(first?.accepted).toBe(true);
    expect(again).toMatchObject({ success: false, errorMsg: `order ${id} is invalid. Duplicated.` });
    const small = await h.place({ side: 'BUY', price: 0.35, size: 4.99 });
    expect(small.r.errorMsg).toBe(`order ${small.id} is invalid. Size (4.99) lower than the minimum: 5`);
    // A tick change is followed from the book: 0.355 is off the new 0.01 tick.
    await h.poll(bookOf(B[1]!, B[1]!.timestampMs, [[0.3, 100]], [[0.4, 100]], 0.01));
    const off = await h.place({ side: 'BUY', price: 0.355, size: 10 });
    expect(off.r.errorMsg).toBe(`order ${off.id} is invalid. Price (0.355) breaks minimum tick size rule: 0.01`);
    // Off-tick and too small: the tick rule is reported first, as the exchange does.
    const both = await h.place({ side: 'BUY', price: 0.355, size: 1 });
    expect(both.r.errorMsg).toContain('breaks minimum tick size rule');
  });

  it('a tick change keeps resting orders, posts off-tick external levels, and fills them as before', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const { id } = await h.place({ side: 'BUY', price: 0.361, size: 10 });
    // The market moves to tick 0.01; the real book still shows old 0.001 levels (0.359 ask).
    await h.poll(bookOf(B[1]!, B[1]!.timestampMs, [[0.3, 100]], [[0.37, 100]], 0.01));
    expect(h.venue.tickOf(burst.conditionId)).toBe(u(0.01));
    expect((await h.gw.getOrder(id))?.status).toBe('LIVE');
    await h.poll(
      bookOf(
        B[2]!,
        B[2]!.timestampMs,
        [[0.3, 100]],
        [
          [0.359, 4],
          [0.37, 100],
        ],
        0.01,
      ),
    );
    expect(await h.gw.getOrder(id)).toMatchObject({ status: 'LIVE', sizeMatched: u(4) });
    expect(h.fills[0]).toMatchObject({ price: u(0.361), liquidity: 'maker' });
    // The temporary tick used to post the 0.359 level is gone: 0.355 is still refused.
    const off = await h.place({ side: 'BUY', price: 0.355, size: 10 });
    expect(off.r.errorMsg).toContain('breaks minimum tick size rule: 0.01');
    // Back to tick 0.001.
    await h.poll(bookOf(B[3]!, B[3]!.timestampMs, [[0.3, 100]], [[0.37, 100]], 0.001));
    expect((await h.place({ side: 'BUY', price: 0.355, size: 10 })).r.accepted).toBe(true);
  });

  it('request-level problems throw before anything is applied; an unknown market is a per-order rejection', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const good = h.sub({ side: 'BUY', price: 0.35, size: 10 });
    const badCid = h.sub({ side: 'BUY', price: 0.34, size: 10, conditionId: `0x${'12'.repeat(32)}` });
    await expect(h.gw.postOrders([good.sub, badCid.sub], 'new')).rejects.toSatisfy(
      (e: unknown) =>
        e instanceof ExchangeHttpError && e.status === 400 && e.exchangeMessage === 'Invalid order payload',
    );
    expect(await h.gw.getOrder(good.id)).toBeNull(); // nothing of the batch was applied

    const malformed = { ...good.sub, order: { ...good.sub.order, makerAmount: '1.5' } } as typeof good.sub;
    await expect(h.gw.postOrders([malformed], 'new')).rejects.toBeInstanceOf(ExchangeHttpError);
    await expect(h.gw.postOrders([], 'new')).rejects.toBeInstanceOf(ClientValidationError);
    await expect(
      h.gw.postOrders(
        Array.from({ length: 16 }, () => good.sub),
        'new',
      ),
    ).rejects.toBeInstanceOf(ClientValidationError);

    const unknown = h.sub({
      side: 'BUY',
      price: 0.35,
      size: 10,
      tokenId: '123456789',
      conditionId: `0x${'34'.repeat(32)}`,
    });
    const [r] = await h.gw.postOrders([unknown.sub], 'new');
    expect(r).toEqual({
      success: false,
      errorMsg: 'Invalid order payload',
      orderId: null,
      status: null,
      takingAmount: null,
      makingAmount: null,
      accepted: false,
    });
    // The 404 is remembered: the market is not asked again right away.
    await h.gw.postOrders([unknown.sub], 'new');
    expect(h.md.settingsCalls.filter((c) => c === `0x${'34'.repeat(32)}`)).toHaveLength(1);
  });

  it("fetches a market's settings once before its first order, even with no book polled yet", async () => {
    const h = setup();
    const [a, b] = [h.sub({ side: 'BUY', price: 0.35, size: 10 }), h.sub({ side: 'BUY', price: 0.34, size: 10 })];
    const rs = await h.gw.postOrders([a.sub, b.sub], 'new');
    expect(rs.map((r) => r.status)).toEqual(['live', 'live']); // no external liquidity yet: both rest
    expect(h.md.settingsCalls).toEqual([burst.conditionId]);
    await h.poll(B[0]!);
    expect(h.md.settingsCalls).toEqual([burst.conditionId]);
  });

  it('books of a market whose settings fail are returned but not fed, and fed once the settings come', async () => {
    const h = setup();
    h.md.failNextSettings = new ExchangeHttpError({
      code: 'EXCHANGE_INTERNAL',
      route: 'GET /clob-markets/{condition_id}',
      status: 500,
      message: 'boom',
      retryable: true,
      ambiguous: true,
    });
    const books = await h.poll(B[0]!);
    expect(books).toEqual([B[0]]);
    expect(h.venue.stats()).toMatchObject({ booksFed: 0, booksUnknown: 1 });
    expect(h.gw.stats()).toMatchObject({
      marketErrors: 1,
      lastMarketError: `market ${burst.conditionId}: settings unavailable (EXCHANGE_INTERNAL)`,
    });
    await h.poll(B[1]!);
    expect(h.venue.stats().booksFed).toBe(1);
  });

  it('an aborted signal fails the call before it acts; a closed gateway fails every call and closes its port', async () => {
    const h = setup();
    await h.poll(B[0]!);
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    const { sub, id } = h.sub({ side: 'BUY', price: 0.35, size: 10 });
    await expect(h.gw.postOrders([sub], 'new', ac.signal)).rejects.toMatchObject({ code: 'EXCHANGE_ABORTED' });
    expect(await h.gw.getOrder(id)).toBeNull();
    await h.gw.close();
    expect(h.md.closed).toBe(true);
    await expect(h.gw.getOrder(id)).rejects.toMatchObject({ code: 'EXCHANGE_CLOSED' });
  });
});

describe('PaperGateway: construction', () => {
  it('builds its own venue from the paper capital, or takes one; never both or neither', async () => {
    const clock = new VirtualClock(B[0]!.timestampMs);
    const md = new FakeMarketData();
    md.settings.set(burst.conditionId, settings({ conditionId: burst.conditionId, yes: burst.yes, no: burst.no }));
    const gw = new PaperGateway({
      marketData: md,
      clock,
      dialect: DIALECTS.spec,
      capital: u(250) as Micros,
      venueOptions: { fillModel: 'cross' },
    });
    venues.push(gw.venue);
    expect(gw.kind).toBe('paper');
    expect(gw.venue.balances().collateral).toEqual({ available: u(250), reserved: 0 });
    expect(gw.venue.fillModel.name).toBe('cross');
    const venue = new PaperVenue({ clock, capital: 0 as Micros });
    expect(
      () => new PaperGateway({ marketData: md, clock, dialect: DIALECTS.spec, venue, capital: u(1) as Micros }),
    ).toThrow(/either a venue or the paper capital/);
    expect(() => new PaperGateway({ marketData: md, clock, dialect: DIALECTS.spec })).toThrow(
      /either a venue or the paper capital/,
    );
    expect(() => new PaperVenue({ clock, capital: -1 as Micros })).toThrow(/capital/);
    expect(() => new PaperVenue({ clock, capital: 0 as Micros, fillModel: 'queue' as never })).toThrow(
      /unknown fill model "queue"/,
    );
  });
});

describe('PaperGateway: one book per market', () => {
  it('only the NO book polled: it is mirrored, and a BUY NO takes its asks at their prices', async () => {
    const h = setup();
    const no = mirrorBook(B[0]!, burst.no);
    h.md.books.set(burst.no, no);
    await h.gw.getBooks([burst.no]);
    // NO asks = 1 − YES bids: best 0.70 (the YES bid 0.30 × 5000).
    expect(no.asks[0]).toEqual({ price: u(0.7), size: u(5000) });
    const { r } = await h.place({ tokenId: burst.no, side: 'BUY', price: 0.7, size: 10 });
    expect(r).toMatchObject({ status: 'matched', makingAmount: u(7), takingAmount: u(10) });
    expect(h.fills[0]).toMatchObject({ tokenId: burst.no, side: 'BUY', price: u(0.7), liquidity: 'taker' });
    expect(h.venue.positions('0xabc').map((p) => [p.asset, p.size, p.outcome])).toEqual([[burst.no, u(10), 'No']]);
  });

  it('both books in one poll: only the YES book is fed', async () => {
    const h = setup();
    h.md.books.set(burst.yes, B[0]!);
    h.md.books.set(burst.no, mirrorBook(B[0]!, burst.no));
    const books = await h.gw.getBooks([burst.no, burst.yes]);
    expect(books).toHaveLength(2);
    expect(h.venue.stats()).toMatchObject({ booksFed: 1, booksSkipped: 1, booksUnchanged: 0 });
    const levels = B[0]!.bids.length + B[0]!.asks.length;
    expect(h.venue.stats().external.posted).toBe(levels);
    // The engine's NO book is the mirror of the YES book fed: exactly the published NO book.
    const view = h.venue.engine.bookView(burst.no)!;
    expect(view.asks[0]).toEqual({ price: u(0.7), size: u(5000) });
  });
});

describe('PaperGateway: positions and PnL', () => {
  it('a round trip: taker buy, maker sell on a later book, flat position, PnL equal to the ledger math and to the collateral change', async () => {
    const h = setup();
    await h.poll(B[0]!);
    await h.place({ side: 'BUY', price: 0.397, size: 100 }); // taker at 0.397
    const [pos] = await h.gw.getPositions('0xWallet');
    expect(pos).toMatchObject({
      proxyWallet: '0xWallet',
      asset: burst.yes,
      conditionId: burst.conditionId,
      size: u(100),
      avgPrice: u(0.397),
      initialValue: u(39.7),
      totalBought: u(100),
      outcome: 'Yes',
      oppositeOutcome: 'No',
      oppositeAsset: burst.no,
      outcomeIndex: 0,
      redeemable: false,
      mergeable: false,
    });
    // Marked at the book's mid (0.30 + 0.397) / 2 = 0.3485.
    expect(pos).toMatchObject({ curPrice: u(0.3485), currentValue: u(34.85), cashPnl: u(34.85) - u(39.7) });
    const buyFee = feeMicros(200, u(0.397), u(100));
    expect(pos!.realizedPnl).toBe(-buyFee);

    const { id } = await h.place({ side: 'SELL', price: 0.45, size: 100 });
    expect((await h.gw.getOrder(id))?.status).toBe('LIVE');
    // A bid reaching 0.45 appears: our ask fills at 0.45 as maker.
    await h.poll(
      bookOf(
        B[1]!,
        B[1]!.timestampMs,
        [
          [0.46, 500],
          [0.3, 100],
        ],
        [[0.5, 100]],
      ),
    );
    expect((await h.gw.getOrder(id))?.status).toBe('MATCHED');
    expect(await h.gw.getPositions('0xWallet')).toEqual([]);

    const sellFee = feeMicros(100, u(0.45), u(100));
    let state = FLAT;
    for (const f of h.fills)
      state = applyFill(state, { side: f.side, price: f.price, size: f.size, feeMicros: f.feeMicros }).position;
    expect(state.size).toBe(0);
    expect(state.realized).toBe(u(45) - u(39.7) - buyFee - sellFee);
    // Flat: the collateral moved by exactly the realized PnL.
    expect(h.venue.balances().collateral).toEqual({ available: u(1000) + state.realized, reserved: 0 });
    expect(h.venue.balances().tokens.get(burst.yes)).toEqual({ available: 0, reserved: 0 });
  });

  it("positions carry the sampling market's display fields and mergeable when both outcomes are held", async () => {
    const h = setup();
    // Only the fields the venue reads; the port passes the record through untouched.
    const sm = {
      conditionId: burst.conditionId,
      question: 'Q?',
      marketSlug: 'q',
      slug: 'q-other',
      icon: 'i.png',
      event: { slug: 'ev' },
      endDateIso: '2026-12-31T00:00:00.000Z',
    } as unknown as SamplingMarket;
    h.md.sampling.push(sm);
    const seen: SamplingMarket[] = [];
    for await (const m of h.gw.samplingMarkets()) seen.push(m);
    expect(seen).toEqual([sm]);
    await h.poll(B[0]!);
    await h.place({ side: 'BUY', price: 0.397, size: 10 });
    await h.place({ tokenId: burst.no, side: 'BUY', price: 0.7, size: 10 });
    const ps = await h.gw.getPositions('0xw');
    expect(ps.map((p) => [p.outcomeIndex, p.mergeable, p.title, p.slug, p.eventSlug, p.endDate])).toEqual([
      [0, true, 'Q?', 'q', 'ev', '2026-12-31T00:00:00.000Z'],
      [1, true, 'Q?', 'q', 'ev', '2026-12-31T00:00:00.000Z'],
    ]);
    // The NO token is marked at 1 − the YES mid.
    expect(ps[1]!.curPrice).toBe(SCALE - u(0.3485));
  });
});

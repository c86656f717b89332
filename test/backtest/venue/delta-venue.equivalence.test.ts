// Equivalence of the DeltaVenue with the PaperVenue it replaces in backtests: random markets (tick
// 0.01 or 0.001, fees on or off, default or tight external caps), random sequences of full books of
// either token (sometimes stale, repeated or on another tick), deltas of either token (PaperVenue is
// fed the full book the delta makes, DeltaVenue the delta), public trades, our placements (both
// tokens and sides, post-only or not, GTC/GTD/FOK/FAK, at, inside and through the touch, some
// invalid), cancels, lookups and clock advances. Both venues run the same fill model (QueueFillModel
// attached with restingFromVenue for the queue models, the same seed): every answer, every fill
// (trade ids included: both count `paper-trade-N` over our fills alone), every order record, the
// balances and the counters must be equal, step by step. 300 runs per fill model; EQ_RUNS=N runs
// N (a change to the venue's rules is checked with thousands).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeBook, type Book, type Level } from '../../../src/core/book.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType, Side } from '../../../src/core/order.js';
import { mulberry32 } from '../../../src/core/random.js';
import { QueueFillModel, restingFromVenue } from '../../../src/backtest/fill-queue.js';
import { DeltaVenue, type DeltaFillModelName } from '../../../src/backtest/venue/index.js';
import type { ReplayVenuePort } from '../../../src/backtest/replay/venue-port.js';
import {
  paperMarketFromSettings,
  PaperVenue,
  type ExternalLimits,
  type PaperFill,
  type PaperOrder,
} from '../../../src/sim/paper/index.js';
import { settings } from '../../sim/paper/helpers.js';

// Two markets: orders, expiries, trade ids and random draws of one must not disturb the other.
const CIDS = [`0x${'5c'.repeat(32)}`, `0x${'6d'.repeat(32)}`] as const;
const TOKENS = [
  ['2001', '2002'],
  ['3001', '3002'],
] as const;
const CAPITAL = 3_000 * SCALE;
const T0 = Date.UTC(2026, 5, 1);

type Step =
  | {
      kind: 'book';
      m: number;
      token: 0 | 1;
      tick: number;
      bids: number[];
      asks: number[];
      spread: number;
      back: number;
      same: boolean;
      /** Then the other token's book, its mirror (as the exchange publishes both from one book). */
      mirror: boolean;
    }
  | {
      kind: 'delta';
      m: number;
      token: 0 | 1;
      changes: { ask: boolean; off: number; size: number }[];
      back: number;
      /** Then the other token's mirrored delta at the same instant. */
      mirror: boolean;
    }
  | { kind: 'trade'; m: number; token: 0 | 1; off: number; size: number; side: Side }
  | {
      kind: 'order';
      m: number;
      token: 0 | 1;
      side: Side;
      off: number;
      size: number;
      type: OrderType;
      postOnly: boolean;
      flaw: 'none' | 'tick' | 'lot' | 'dup' | 'token';
    }
  | { kind: 'cancel'; pick: number }
  | { kind: 'lookup'; pick: number }
  | { kind: 'time'; dt: number }
  | { kind: 'move'; m: number; cents: number }
  | { kind: 'resolve'; m: number; winner: 0 | 1 | -1 };

const sizeArb = fc.oneof(
  fc.integer({ min: 1, max: 40_000 }).map((h) => h * 10_000), // whole hundredths
  fc.integer({ min: 1, max: 4_000_000 }), // off the lot: truncated when posted
);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('book' as const),
      m: fc.constantFrom(0, 0, 1),
      token: fc.constantFrom(0 as const, 1 as const),
      tick: fc.constantFrom(10_000, 10_000, 10_000, 1_000),
      bids: fc.array(sizeArb, { maxLength: 6 }),
      asks: fc.array(sizeArb, { maxLength: 6 }),
      spread: fc.integer({ min: -1, max: 4 }),
      back: fc.constantFrom(0, 0, 0, 0, 5, -1), // ms in the past; −1: no exchange time
      same: fc.boolean(),
      mirror: fc.boolean(),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('delta' as const),
      m: fc.constantFrom(0, 0, 1),
      // Mostly the token fed last (the fast path), sometimes the other (a switch: full resync).
      token: fc.constantFrom(0 as const, 0 as const, 0 as const, 0 as const, 0 as const, 1 as const),
      changes: fc.array(
        fc.record({
          ask: fc.boolean(),
          off: fc.integer({ min: -2, max: 6 }),
          size: fc.oneof(fc.constant(0), sizeArb),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      back: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 3),
      mirror: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('trade' as const),
      m: fc.constantFrom(0, 0, 1),
      token: fc.constantFrom(0 as const, 1 as const),
      off: fc.integer({ min: -3, max: 3 }),
      size: fc.integer({ min: 1, max: 30_000 }).map((h) => h * 10_000),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      m: fc.constantFrom(0, 0, 1),
      token: fc.constantFrom(0 as const, 1 as const),
      side: fc.constantFrom<Side>('BUY', 'BUY', 'SELL'),
      off: fc.integer({ min: -4, max: 4 }),
      size: fc.integer({ min: 300, max: 20_000 }), // hundredths: some under the minimum of 5
      type: fc.constantFrom<OrderType>('GTC', 'GTC', 'GTC', 'GTD', 'FOK', 'FAK'),
      postOnly: fc.boolean(),
      flaw: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'tick', 'lot', 'dup', 'token'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lookup' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('time' as const), dt: fc.integer({ min: 0, max: 20_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('resolve' as const),
      m: fc.constantFrom(0, 1),
      // Mostly nothing (−1), so markets live long enough to trade before they resolve.
      winner: fc.constantFrom(0 as const, 1 as const, -1 as const, -1 as const, -1 as const, -1 as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      m: fc.constantFrom(0, 1),
      cents: fc.integer({ min: -3, max: 3 }),
    }),
  },
);

const TIGHT: Partial<ExternalLimits> = {
  maxLevels: 3,
  maxLevelSize: (150 * SCALE) as Shares,
  maxSideSize: (300 * SCALE) as Shares,
};

interface Run {
  steps: Step[];
  tick: number;
  makerBps: number;
  takerBps: number;
  tight: boolean;
  seed: number;
  retain: number;
}

const runArb: fc.Arbitrary<Run> = fc.record({
  steps: fc.array(stepArb, { minLength: 30, maxLength: 90, size: 'max' }),
  tick: fc.constantFrom(0.01, 0.001),
  makerBps: fc.constantFrom(0, 100),
  takerBps: fc.constantFrom(0, 200),
  tight: fc.constantFrom(false, false, false, true),
  seed: fc.nat(),
  retain: fc.constantFrom(3_600_000, 0, 5_000),
});

/** One token's book in its own terms, as the recording holds it. */
class TokenBook {
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();
  toBook(m: number, token: 0 | 1, ts: number | null, hash: string, tick: number | null): Book {
    const side = (lv: Map<number, number>): Level[] =>
      [...lv].map(([price, size]) => ({ price: price as Price, size: size as Shares }));
    const book = makeBook({
      market: CIDS[m] as string,
      assetId: (TOKENS[m] as readonly [string, string])[token],
      timestampMs: ts ?? 0,
      hash,
      bids: side(this.bids),
      asks: side(this.asks),
      ...(tick !== null ? { tickSize: tick as Price, minOrderSize: (5 * SCALE) as Shares } : {}),
    });
    // The public exchange may send no time at all (core/book.ts): such a book is never stale.
    return ts === null ? { ...book, timestampMs: null } : book;
  }
}

interface MarketSim {
  readonly books: [TokenBook, TokenBook];
  resolved: boolean;
  lastBook: Book | null;
  midCents: number;
}

function runOnce(model: DeltaFillModelName, r: Run): void {
  const clockP = new VirtualClock(T0);
  const clockD = new VirtualClock(T0);
  const external = r.tight ? TIGHT : {};
  let fm: QueueFillModel | 'cross' = 'cross';
  if (model === 'queue') fm = new QueueFillModel({});
  if (model === 'queue-probabilistic') fm = new QueueFillModel({ tradeProbability: 0.5, random: mulberry32(r.seed) });
  const paper = new PaperVenue({
    clock: clockP,
    capital: CAPITAL as Micros,
    fillModel: fm,
    external,
    retainFinishedMs: r.retain,
  });
  if (fm !== 'cross') fm.attach(restingFromVenue(paper));
  const delta = new DeltaVenue({
    clock: clockD,
    capital: CAPITAL as Micros,
    fillModel: model,
    external,
    retainFinishedMs: r.retain,
    ...(model === 'queue-probabilistic' ? { tradeProbability: 0.5, random: mulberry32(r.seed) } : {}),
  });
  // The replay loop's venue port, structurally (a compile-time check: tsc fails on drift).
  const port: ReplayVenuePort = delta;
  expect(port.hasMarket(CIDS[0] as string)).toBe(false);
  const sims: MarketSim[] = [];
  for (let m = 0; m < 2; m++) {
    const [yes, no] = TOKENS[m] as readonly [string, string];
    const market = paperMarketFromSettings(
      settings({
        conditionId: CIDS[m] as string,
        yes,
        no,
        tick: m === 0 ? r.tick : 0.01,
        minSize: 5,
        makerBps: r.makerBps,
        takerBps: m === 0 ? r.takerBps : 100,
      }),
    );
    paper.addMarket(market);
    delta.addMarket(market);
    sims.push({ books: [new TokenBook(), new TokenBook()], resolved: false, lastBook: null, midCents: 50 });
  }
  const fillsP: PaperFill[] = [];
  const fillsD: PaperFill[] = [];
  paper.onFill((f) => fillsP.push(f));
  delta.onFill((f) => fillsD.push(f));

  let n = 0;
  const ids: string[] = [];
  const advance = (dt: number): void => {
    clockP.advance(dt);
    clockD.advance(dt);
  };

  for (const [si, s] of r.steps.entries()) {
    const where = `step ${si} ${JSON.stringify(s)}`;
    advance(1);
    if (s.kind === 'lookup') {
      const id = ids.length > 0 ? (ids[s.pick % ids.length] as string) : 'unknown';
      expect(delta.order(id), where).toEqual(paper.order(id));
    } else if (s.kind === 'cancel') {
      const id = ids.length > 0 && s.pick % 5 !== 0 ? (ids[s.pick % ids.length] as string) : 'unknown';
      expect(delta.cancel(id), where).toEqual(paper.cancel(id));
    } else if (s.kind === 'time') {
      advance(s.dt);
    } else if (s.kind === 'resolve') {
      const sim = sims[s.m] as MarketSim;
      const cid = CIDS[s.m] as string;
      if (s.winner !== -1 && !sim.resolved) {
        const winner = (TOKENS[s.m] as readonly [string, string])[s.winner];
        // As the replay's paperVenuePort does it.
        expect(delta.openOrderCount(cid), where).toBe(paper.openOrders().filter((o) => o.market === cid).length);
        paper.engine.resolve(cid, winner);
        delta.resolveMarket(cid, winner);
        sim.resolved = true;
      }
    } else if ((s.kind === 'book' || s.kind === 'delta' || s.kind === 'trade') && (sims[s.m] as MarketSim).resolved) {
      // The backtest feeds no book or trade of a resolved market (PaperVenue would throw).
    } else {
      const sim = sims[s.m] as MarketSim;
      const tokens = TOKENS[s.m] as readonly [string, string];
      const tick = paper.tickOf(CIDS[s.m] as string) as number;
      const yesMid = sim.midCents * 10_000;
      const ownMid = (t: 0 | 1): number => (t === 0 ? yesMid : SCALE - yesMid);
      if (s.kind === 'book') {
        let book: Book;
        if (s.same && sim.lastBook !== null) {
          book = sim.lastBook;
          // A repeated book is what the recording holds for its token again.
          const tb = sim.books[book.assetId === tokens[0] ? 0 : 1];
          tb.bids.clear();
          tb.asks.clear();
          for (const l of book.bids) tb.bids.set(l.price, l.size);
          for (const l of book.asks) tb.asks.set(l.price, l.size);
        } else {
          const t = s.tick;
          const bestBid = ownMid(s.token) - t;
          const bestAsk = bestBid + s.spread * t + t;
          const tb = sim.books[s.token];
          tb.bids.clear();
          tb.asks.clear();
          s.bids.forEach((sz, i) => {
            const p = bestBid - i * t;
            if (p > 0 && p < SCALE) tb.bids.set(p, sz);
          });
          s.asks.forEach((sz, i) => {
            const p = bestAsk + i * t;
            if (p > 0 && p < SCALE) tb.asks.set(p, sz);
          });
          book = tb.toBook(s.m, s.token, s.back < 0 ? null : clockP.now() - s.back, `h${si}`, t);
        }
        expect(delta.applyBook(book), where).toBe(paper.applyBook(book));
        sim.lastBook = book;
        if (s.mirror && !s.same) {
          const o = (1 - s.token) as 0 | 1;
          const tb = sim.books[o];
          tb.bids.clear();
          tb.asks.clear();
          for (const l of book.asks) tb.bids.set(SCALE - l.price, l.size);
          for (const l of book.bids) tb.asks.set(SCALE - l.price, l.size);
          const other = tb.toBook(s.m, o, book.timestampMs, `m${si}`, s.tick);
          expect(delta.applyBook(other), `${where} (mirror)`).toBe(paper.applyBook(other));
          sim.lastBook = other;
        }
      } else if (s.kind === 'delta') {
        const tb = sim.books[s.token];
        const prices: number[] = [];
        const sizes: number[] = [];
        const isAsk: number[] = [];
        for (const c of s.changes) {
          const own = ownMid(s.token);
          const p = c.ask ? own + c.off * tick : own - tick - c.off * tick;
          if (!(p > 0 && p < SCALE)) continue;
          const mine = c.ask ? tb.asks : tb.bids;
          if (c.size > 0) mine.set(p, c.size);
          else mine.delete(p);
          prices.push(p);
          sizes.push(c.size);
          isAsk.push(c.ask ? 1 : 0);
        }
        const ts = clockP.now() - s.back;
        const book = tb.toBook(s.m, s.token, ts, '', null);
        const h = delta.tokenHandle(tokens[s.token]);
        expect(delta.applyDeltaH(h, prices.length, prices, sizes, isAsk, ts), where).toBe(paper.applyBook(book));
        sim.lastBook = book;
        if (s.mirror) {
          // The other token's side of the same change: a bid at p is the other's ask at 1 − p.
          const o = (1 - s.token) as 0 | 1;
          const ob = sim.books[o];
          const mp = prices.map((p) => SCALE - p);
          const ma = isAsk.map((a) => 1 - a);
          mp.forEach((p, j) => {
            const side = ma[j] === 1 ? ob.asks : ob.bids;
            if ((sizes[j] as number) > 0) side.set(p, sizes[j] as number);
            else side.delete(p);
          });
          const other = ob.toBook(s.m, o, ts, '', null);
          const oh = delta.tokenHandle(tokens[o]);
          expect(delta.applyDeltaH(oh, mp.length, mp, sizes, ma, ts), `${where} (mirror)`).toBe(paper.applyBook(other));
          sim.lastBook = other;
        }
      } else if (s.kind === 'trade') {
        const price = ownMid(s.token) + s.off * tick;
        const t = {
          tokenId: tokens[s.token],
          price: price as Price,
          size: s.size as Shares,
          side: s.side,
          timestampMs: clockP.now(),
        };
        expect(delta.applyTrade(t), where).toBe(paper.applyTrade(t));
      } else if (s.kind === 'order') {
        const id =
          s.flaw === 'dup' && ids.length > 0 ? (ids[s.size % ids.length] as string) : `0x${(++n).toString(16)}`;
        let price = Math.max(tick, Math.min(SCALE - tick, ownMid(s.token) + s.off * tick));
        if (s.flaw === 'tick') price += tick / 2;
        let size = s.size * 10_000;
        if (s.flaw === 'lot') size += 1;
        const o: PaperOrder = {
          id,
          tokenId: s.flaw === 'token' ? '999' : tokens[s.token],
          side: s.side,
          price: price as Price,
          size: size as Shares,
          orderType: s.type,
          ...(s.postOnly ? { postOnly: true } : {}),
          ...(s.type === 'GTD' ? { expirationSec: Math.floor(clockP.now() / 1000) + (s.size % 40) } : {}),
          maker: '0xm',
          owner: 'k',
        };
        const rp = paper.place(o);
        expect(delta.place(o), where).toEqual(rp);
        if (rp.ok && !ids.includes(id)) ids.push(id);
      } else {
        sim.midCents = Math.max(5, Math.min(95, sim.midCents + s.cents));
      }
    }
    expect(fillsD, where).toEqual(fillsP);
    expect(delta.balances(), where).toEqual(paper.balances());
  }
  for (const id of ids) expect(delta.order(id)).toEqual(paper.order(id));
  expect(delta.openOrders()).toEqual(paper.openOrders());
  const sp = paper.stats();
  expect(delta.stats()).toEqual({
    markets: sp.markets,
    booksFed: sp.booksFed,
    booksUnchanged: sp.booksUnchanged,
    booksStale: sp.booksStale,
    booksUnknown: sp.booksUnknown,
    tradesFed: sp.tradesFed,
    fills: sp.fills,
    ordersKept: sp.ordersKept,
    externalPosted: sp.external.posted,
  });
}

/**
 * Found by this test: an id placed again after its finished record was pruned (retain 0), before
 * its market's next book, inherits QueueFillModel's queue state of the old order (states are kept
 * by id until that book); DeltaVenue must do the same.
 */
const ID_REUSE: Run = JSON.parse(
  '{"steps":[{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":10000}],"back":0},{"kind":"order","m":0,"token":0,"side":"BUY","off":0,"size":500,"type":"GTC","postOnly":false,"flaw":"none"},{"kind":"move","m":0,"cents":0},{"kind":"cancel","pick":0},{"kind":"order","m":0,"token":0,"side":"BUY","off":0,"size":300,"type":"GTC","postOnly":false,"flaw":"none"},{"kind":"lookup","pick":0},{"kind":"order","m":0,"token":0,"side":"BUY","off":0,"size":300,"type":"GTC","postOnly":false,"flaw":"none"},{"kind":"move","m":0,"cents":0},{"kind":"book","m":0,"token":1,"tick":10000,"bids":[],"asks":[10000],"spread":0,"back":0,"same":false},{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":1}],"back":3},{"kind":"trade","m":1,"token":0,"off":0,"size":10000,"side":"BUY"},{"kind":"trade","m":1,"token":0,"off":0,"size":10000,"side":"BUY"},{"kind":"cancel","pick":149102781},{"kind":"delta","m":1,"token":0,"changes":[{"ask":false,"off":0,"size":0}],"back":0},{"kind":"time","dt":0},{"kind":"order","m":0,"token":0,"side":"BUY","off":0,"size":500,"type":"GTC","postOnly":false,"flaw":"dup"},{"kind":"time","dt":0},{"kind":"book","m":0,"token":0,"tick":10000,"bids":[],"asks":[],"spread":0,"back":0,"same":false},{"kind":"book","m":0,"token":0,"tick":10000,"bids":[],"asks":[],"spread":0,"back":0,"same":false},{"kind":"cancel","pick":0},{"kind":"time","dt":0},{"kind":"order","m":0,"token":0,"side":"BUY","off":0,"size":300,"type":"GTC","postOnly":false,"flaw":"none"},{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":1}],"back":0},{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":0}],"back":0},{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":0}],"back":0},{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":0}],"back":0},{"kind":"book","m":0,"token":0,"tick":10000,"bids":[],"asks":[],"spread":0,"back":0,"same":false},{"kind":"delta","m":0,"token":0,"changes":[{"ask":false,"off":0,"size":0}],"back":0},{"kind":"cancel","pick":0},{"kind":"time","dt":0}],"tick":0.01,"makerBps":0,"takerBps":0,"tight":false,"seed":0,"retain":0}',
) as Run;

describe.each<DeltaFillModelName>(['cross', 'queue', 'queue-probabilistic'])(
  'DeltaVenue ≡ PaperVenue (%s)',
  (model) => {
    it('same answers, fills, records, balances and counters on random books, deltas, trades and orders', () => {
      fc.assert(
        fc.property(runArb, (r) => runOnce(model, r)),
        { numRuns: Number(process.env.EQ_RUNS ?? 300), examples: [[ID_REUSE]] },
      );
    });
  },
);

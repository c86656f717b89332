// Recorded trades through the real PaperVenue (matching engine, external liquidity) under `cross`
// and `queue`: a taker SELL at p fills our bids priced ≥ p at our prices, best first, up to its
// size; a taker BUY our asks priced ≤ p; a trade of the NO token at q is a YES trade at 1 − q with
// the side flipped (our NO orders are YES-terms orders of the unified book); the external book is
// the same after a trade as before it; and a property over random orders and trades: every fill is
// a maker fill at our price of an order the trade reached, a trade's fills never exceed its size,
// no order fills beyond its size, and the external book is untouched.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueueFillModel, restingFromVenue } from '../../src/backtest/fill-queue.js';
import { makeBook, type Level } from '../../src/core/book.js';
import { VirtualClock } from '../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../src/core/money.js';
import { auditEngine } from '../../src/sim/engine/audit.js';
import { EXTERNAL_ACCOUNT, paperMarketFromSettings, PaperVenue, type PaperFill } from '../../src/sim/paper/index.js';
import { settings } from '../sim/paper/helpers.js';

const CID = `0x${'5c'.repeat(32)}`;
const YES = '2001';
const NO = '2002';
const u = (x: number): number => Math.round(x * SCALE);

function venueWith(model: 'cross' | 'queue'): { venue: PaperVenue; fills: PaperFill[]; clock: VirtualClock } {
  const clock = new VirtualClock(Date.UTC(2026, 5, 1));
  let q: QueueFillModel | null = null;
  const venue = new PaperVenue({
    clock,
    capital: u(10_000) as Micros,
    ...(model === 'queue' ? { fillModel: (q = new QueueFillModel()) } : {}),
  });
  q?.attach(restingFromVenue(venue));
  venue.addMarket(paperMarketFromSettings(settings({ conditionId: CID, yes: YES, no: NO, tick: 0.01, minSize: 5 })));
  const fills: PaperFill[] = [];
  venue.onFill((f) => fills.push(f));
  return { venue, fills, clock };
}

const lv = (p: number, s: number): Level => ({ price: u(p) as Price, size: u(s) as Shares });
const yesBook = (bids: Level[], asks: Level[], ts: number) =>
  makeBook({
    market: CID,
    assetId: YES,
    timestampMs: ts,
    hash: `h${ts}`,
    bids,
    asks,
    tickSize: 10_000 as Price,
    minOrderSize: u(5) as Shares,
  });

let seq = 0;
function place(venue: PaperVenue, token: string, side: 'BUY' | 'SELL', p: number, size: number): string {
  const id = `0x${(++seq).toString(16).padStart(8, '0')}`;
  const r = venue.place({
    id,
    tokenId: token,
    side,
    price: u(p) as Price,
    size: u(size) as Shares,
    orderType: 'GTC',
    maker: '0xm',
    owner: 'k',
  });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return id;
}

/** The external account's resting YES levels (price → size), per side. */
function external(venue: PaperVenue): { bids: Array<[number, number]>; asks: Array<[number, number]> } {
  const os = venue.engine.openOrders(EXTERNAL_ACCOUNT, { conditionId: CID });
  const agg = (side: 'BUY' | 'SELL'): Array<[number, number]> => {
    const m = new Map<number, number>();
    for (const o of os) if (o.side === side) m.set(o.price, (m.get(o.price) ?? 0) + o.originalSize - o.sizeMatched);
    return [...m].sort((a, b) => a[0] - b[0]);
  };
  return { bids: agg('BUY'), asks: agg('SELL') };
}

describe('trade-driven fills on the PaperVenue', () => {
  for (const model of ['cross', 'queue'] as const) {
    it(`${model}: a taker SELL fills our bids at or above its price, best first, at our prices, up to its size`, () => {
      const { venue, fills, clock } = venueWith(model);
      venue.applyBook(yesBook([lv(0.45, 100)], [lv(0.55, 100)], clock.now()));
      const a = place(venue, YES, 'BUY', 0.5, 10);
      const b = place(venue, YES, 'BUY', 0.49, 10);
      const c = place(venue, NO, 'BUY', 0.47, 10); // a YES ask at 0.53
      const before = external(venue);
      expect(
        venue.applyTrade({
          tokenId: YES,
          price: u(0.49) as Price,
          size: u(15) as Shares,
          side: 'SELL',
          timestampMs: clock.now(),
        }),
      ).toBe('fed');
      expect(fills.map((f) => [f.orderId, f.price, f.size, f.liquidity])).toEqual([
        [a, u(0.5), u(10), 'maker'],
        [b, u(0.49), u(5), 'maker'],
      ]);
      expect(external(venue)).toEqual(before);
      // The NO token's taker BUY at 0.47 is a YES taker SELL at 0.53: reaches no bid of ours (0.49 left).
      venue.applyTrade({
        tokenId: NO,
        price: u(0.47) as Price,
        size: u(50) as Shares,
        side: 'BUY',
        timestampMs: clock.now(),
      });
      expect(fills).toHaveLength(2);
      // The NO token's taker SELL at 0.51 is a YES taker BUY at 0.49... lifting YES asks ≤ 0.49: none.
      // A NO taker SELL at 0.46 is a YES taker BUY at 0.54: lifts our YES ask at 0.53 (our NO bid at 0.47).
      venue.applyTrade({
        tokenId: NO,
        price: u(0.46) as Price,
        size: u(4) as Shares,
        side: 'SELL',
        timestampMs: clock.now(),
      });
      expect(fills.slice(2).map((f) => [f.orderId, f.tokenId, f.side, f.price, f.size])).toEqual([
        [c, NO, 'BUY', u(0.47), u(4)],
      ]);
      expect(external(venue)).toEqual(before);
      expect(auditEngine(venue.engine)).toEqual([]);
    });
  }

  it('queue: a trade at our price first eats the recorded size that was ahead of us', () => {
    const { venue, fills, clock } = venueWith('queue');
    venue.applyBook(yesBook([lv(0.5, 30)], [lv(0.55, 100)], clock.now()));
    place(venue, YES, 'BUY', 0.5, 10);
    venue.applyTrade({
      tokenId: YES,
      price: u(0.5) as Price,
      size: u(25) as Shares,
      side: 'SELL',
      timestampMs: clock.now(),
    });
    expect(fills).toEqual([]);
    venue.applyTrade({
      tokenId: YES,
      price: u(0.5) as Price,
      size: u(8) as Shares,
      side: 'SELL',
      timestampMs: clock.now(),
    });
    expect(fills.map((f) => f.size)).toEqual([u(3)]);
  });

  it('a trade of an unknown token is reported, and changes nothing', () => {
    const { venue, fills } = venueWith('cross');
    expect(
      venue.applyTrade({ tokenId: '999', price: u(0.5) as Price, size: u(1) as Shares, side: 'SELL', timestampMs: 0 }),
    ).toBe('unknown-market');
    expect(fills).toEqual([]);
  });

  for (const model of ['cross', 'queue'] as const) {
    it(`${model} property: fills are ours, at our price, reached by the trade, ≤ its size, ≤ order size; the external book stays`, () => {
      const orderArb = fc.record({
        token: fc.constantFrom(YES, NO),
        side: fc.constantFrom('BUY' as const, 'SELL' as const),
        cents: fc.integer({ min: 40, max: 60 }),
        size: fc.integer({ min: 5, max: 40 }),
      });
      const tradeArb = fc.record({
        token: fc.constantFrom(YES, NO),
        side: fc.constantFrom('BUY' as const, 'SELL' as const),
        cents: fc.integer({ min: 35, max: 65 }),
        size: fc.integer({ min: 1, max: 60 }),
      });
      fc.assert(
        fc.property(
          fc.array(orderArb, { maxLength: 8 }),
          fc.array(tradeArb, { minLength: 1, maxLength: 15 }),
          (os, ts) => {
            const { venue, fills, clock } = venueWith(model);
            // A wide external book, so our orders around 0.40–0.60 rest; SELLs need tokens: buy some first.
            venue.applyBook(yesBook([lv(0.3, 1000)], [lv(0.7, 1000)], clock.now()));
            place(venue, YES, 'BUY', 0.7, 400);
            place(venue, NO, 'BUY', 0.7, 400); // the NO ask at 0.70 is the YES bid at 0.30
            const orders = new Map<string, { token: string; side: 'BUY' | 'SELL'; price: number; size: number }>();
            for (const o of os) {
              const id = place(venue, o.token, o.side, o.cents / 100, o.size);
              orders.set(id, { token: o.token, side: o.side, price: u(o.cents / 100), size: u(o.size) });
            }
            fills.length = 0;
            const ext = external(venue);
            for (const t of ts) {
              const from = fills.length;
              venue.applyTrade({
                tokenId: t.token,
                price: u(t.cents / 100) as Price,
                size: u(t.size) as Shares,
                side: t.side,
                timestampMs: clock.now(),
              });
              const got = fills.slice(from);
              // YES terms of the trade: who it reaches.
              const yp = t.token === YES ? u(t.cents / 100) : SCALE - u(t.cents / 100);
              const ySide = t.token === YES ? t.side : t.side === 'BUY' ? 'SELL' : 'BUY';
              let total = 0;
              for (const f of got) {
                const o = orders.get(f.orderId);
                expect(o).toBeDefined();
                expect(f.liquidity).toBe('maker');
                expect(f.price).toBe(o!.price);
                const oy = o!.token === YES ? o!.price : SCALE - o!.price;
                const oSide = o!.token === YES ? o!.side : o!.side === 'BUY' ? 'SELL' : 'BUY';
                if (ySide === 'SELL') {
                  expect(oSide).toBe('BUY');
                  expect(oy).toBeGreaterThanOrEqual(yp);
                } else {
                  expect(oSide).toBe('SELL');
                  expect(oy).toBeLessThanOrEqual(yp);
                }
                total += f.size;
              }
              expect(total).toBeLessThanOrEqual(u(t.size));
              expect(external(venue)).toEqual(ext);
            }
            const per = new Map<string, number>();
            for (const f of fills) per.set(f.orderId, (per.get(f.orderId) ?? 0) + f.size);
            for (const [id, n] of per) expect(n).toBeLessThanOrEqual(orders.get(id)!.size);
            expect(auditEngine(venue.engine)).toEqual([]);
          },
        ),
        { numRuns: 60 },
      );
    });
  }
});

// The domain book: sorting on ingest, best prices, mid, spread, depth, crossing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestAsk,
  bestBid,
  depthWithin,
  isCrossed,
  makeBook,
  mid,
  sortLevels,
  spread,
  type Level,
} from '../../src/core/book.js';
import { InvariantError } from '../../src/core/errors.js';
import type { Price, Shares } from '../../src/core/money.js';
import { parseBook } from '../../src/exchange/parse/book.js';
import { realJson } from '../exchange/parse/fixtures.js';

const L = (price: number, size: number): Level => ({ price: price as Price, size: size as Shares });
const base = { market: '0xm', assetId: 't', timestampMs: 1 };

describe('sortLevels', () => {
  it('orders bids descending and asks ascending whatever the input order', () => {
    const bids = [L(300_000, 1), L(100_000, 2), L(200_000, 3)];
    expect(sortLevels(bids, 'bids')).toBeNull();
    expect(bids.map((l) => l.price)).toEqual([300_000, 200_000, 100_000]);
    const asks = [L(600_000, 1), L(400_000, 2), L(500_000, 3)];
    expect(sortLevels(asks, 'asks')).toBeNull();
    expect(asks.map((l) => l.price)).toEqual([400_000, 500_000, 600_000]);
  });

  it('reverses worst-first input and leaves best-first input as it is', () => {
    const worstFirstBids = [L(1000, 1), L(2000, 1), L(3000, 1)];
    expect(sortLevels(worstFirstBids, 'bids')).toBeNull();
    expect(worstFirstBids.map((l) => l.price)).toEqual([3000, 2000, 1000]);
    const bestFirstAsks = [L(7000, 1), L(8000, 1)];
    expect(sortLevels(bestFirstAsks, 'asks')).toBeNull();
    expect(bestFirstAsks.map((l) => l.price)).toEqual([7000, 8000]);
  });

  it('reports duplicates (at their input position), zero sizes and prices outside (0, 1)', () => {
    expect(sortLevels([L(1000, 1), L(3000, 1), L(2000, 1), L(3000, 5)], 'bids')).toEqual({
      index: 3,
      reason: 'duplicated price level 0.003',
    });
    expect(sortLevels([L(1000, 1), L(1000, 1)], 'asks')?.index).toBe(1);
    expect(sortLevels([L(1000, 1), L(2000, 0)], 'asks')).toEqual({ index: 1, reason: 'size is not positive' });
    expect(sortLevels([L(0, 1)], 'bids')?.reason).toMatch(/price out of range/);
    expect(sortLevels([L(1_000_000, 1)], 'asks')?.reason).toMatch(/price out of range/);
    expect(sortLevels([L(Number.NaN, 1)], 'asks')?.reason).toMatch(/price out of range/);
    expect(sortLevels([L(5000, Number.NaN)], 'asks')?.reason).toBe('size is not positive');
  });

  it('makeBook throws InvariantError on a broken side and never mutates its input', () => {
    const bids = [L(1000, 1), L(1000, 2)];
    expect(() => makeBook({ ...base, bids, asks: [] })).toThrow(InvariantError);
    const asks = [L(9000, 1), L(8000, 2)];
    makeBook({ ...base, bids: [], asks });
    expect(asks.map((l) => l.price)).toEqual([9000, 8000]);
  });
});

// Distinct prices in (0, 1) with positive sizes.
const side = fc
  .uniqueArray(fc.integer({ min: 1, max: 999_999 }), { maxLength: 40 })
  .chain((prices) =>
    fc.tuple(
      fc.constant(prices),
      fc.array(fc.integer({ min: 1, max: 10 ** 12 }), { minLength: prices.length, maxLength: prices.length }),
    ),
  )
  .map(([prices, sizes]) => prices.map((p, i) => L(p, sizes[i] as number)));

describe('book properties', () => {
  it('sorting is invariant under shuffles of the input', () => {
    fc.assert(
      fc.property(side, side, fc.integer(), fc.integer(), (bids, asks, s1, s2) => {
        const shuffle = (ls: Level[], seed: number): Level[] => {
          const out = ls.slice();
          let x = seed >>> 0;
          for (let i = out.length - 1; i > 0; i--) {
            x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
            const j = x % (i + 1);
            [out[i], out[j]] = [out[j] as Level, out[i] as Level];
          }
          return out;
        };
        const a = makeBook({ ...base, bids, asks });
        const b = makeBook({ ...base, bids: shuffle(bids, s1), asks: shuffle(asks, s2) });
        expect(b).toEqual(a);
        for (let i = 1; i < a.bids.length; i++) expect(a.bids[i]!.price).toBeLessThan(a.bids[i - 1]!.price);
        for (let i = 1; i < a.asks.length; i++) expect(a.asks[i]!.price).toBeGreaterThan(a.asks[i - 1]!.price);
        expect(bestBid(a)?.price ?? null).toBe(bids.length === 0 ? null : Math.max(...bids.map((l) => l.price)));
        expect(bestAsk(a)?.price ?? null).toBe(asks.length === 0 ? null : Math.min(...asks.map((l) => l.price)));
      }),
      { numRuns: 500 },
    );
  });

  it('mid lies between the best bid and the best ask, and floor/ceil differ only on half-millionths', () => {
    fc.assert(
      fc.property(side, side, (bids, asks) => {
        const b = makeBook({ ...base, bids, asks });
        const lo = mid(b, 'floor');
        const hi = mid(b, 'ceil');
        const he = mid(b, 'half-even');
        if (bids.length === 0 || asks.length === 0) {
          expect([lo, hi, he]).toEqual([null, null, null]);
          return;
        }
        const bb = bestBid(b)!.price;
        const ba = bestAsk(b)!.price;
        for (const m of [lo, hi, he]) {
          expect(m).not.toBeNull();
          expect(m!).toBeGreaterThanOrEqual(Math.min(bb, ba));
          expect(m!).toBeLessThanOrEqual(Math.max(bb, ba));
          expect(Number.isInteger(m)).toBe(true);
        }
        expect(hi! - lo!).toBe((bb + ba) % 2 === 0 ? 0 : 1);
        expect(lo! + hi!).toBe(bb + ba);
        expect(spread(b)).toBe(ba - bb);
        expect(isCrossed(b)).toBe(bb >= ba);
      }),
      { numRuns: 500 },
    );
  });

  it('depthWithin equals an exact reference sum and grows with the distance', () => {
    fc.assert(
      fc.property(
        side,
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom('bids' as const, 'asks' as const),
        (levels, dist, s) => {
          const b = makeBook({ ...base, bids: s === 'bids' ? levels : [], asks: s === 'asks' ? levels : [] });
          const d = depthWithin(b, s, dist, 'floor');
          const best = b[s][0];
          const inRange = best === undefined ? [] : b[s].filter((l) => Math.abs(l.price - best.price) <= dist);
          expect(d.levels).toBe(inRange.length);
          expect(d.shares).toBe(inRange.reduce((a, l) => a + l.size, 0));
          const num = inRange.reduce((a, l) => a + BigInt(l.price) * BigInt(l.size), 0n);
          expect(BigInt(d.notional)).toBe(num / 1_000_000n);
          const dc = depthWithin(b, s, dist, 'ceil');
          expect(dc.notional - d.notional).toBe(num % 1_000_000n === 0n ? 0 : 1);
          expect(depthWithin(b, s, dist + 1000, 'floor').shares).toBeGreaterThanOrEqual(d.shares);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('book queries on real books', () => {
  const b = parseBook(realJson('wire/markets/book_get_ccxt_2026-06-12.json'));

  it('best prices, mid and spread', () => {
    expect(bestBid(b)).toEqual({ price: 5000, size: 1_000_000_000 });
    expect(bestAsk(b)).toEqual({ price: 995_000, size: 222_222_000_000 });
    expect(mid(b, 'half-even')).toBe(500_000);
    expect(spread(b)).toBe(990_000);
    expect(isCrossed(b)).toBe(false);
  });

  it('depth within a distance of the best', () => {
    // Bids within 0.002 of 0.005: 0.005, 0.004, 0.003.
    const d = depthWithin(b, 'bids', 2000, 'floor');
    expect(d.levels).toBe(3);
    expect(d.shares).toBe((1000 + 12364 + 135826.51) * 1_000_000);
    // 0.005×1000 + 0.004×12364 + 0.003×135826.51 = 5 + 49.456 + 407.47953
    expect(d.notional).toBe(461_935_530);
    expect(depthWithin(b, 'asks', 0, 'floor')).toEqual({
      levels: 1,
      shares: 222_222_000_000,
      notional: 221_110_890_000,
    });
    expect(() => depthWithin(b, 'asks', -1, 'floor')).toThrow(InvariantError);
  });

  it('an empty side has no best price, no mid and no spread', () => {
    const e = parseBook(realJson('wire/markets/book_get_empty_ask_nautilus_2026-08-03.json'));
    expect(bestAsk(e)).toBeNull();
    expect(mid(e, 'floor')).toBeNull();
    expect(spread(e)).toBeNull();
    expect(isCrossed(e)).toBe(false);
    expect(depthWithin(e, 'asks', 10_000, 'floor')).toEqual({ levels: 0, shares: 0, notional: 0 });
  });

  it('a crossed or locked book is representable and reported', () => {
    const c = makeBook({ ...base, bids: [L(310_000, 5)], asks: [L(300_000, 5)] });
    expect(isCrossed(c)).toBe(true);
    expect(spread(c)).toBe(-10_000);
    expect(isCrossed(makeBook({ ...base, bids: [L(300_000, 5)], asks: [L(300_000, 5)] }))).toBe(true);
  });
});

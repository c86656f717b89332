// Pure average-cost math: hand-computed scenarios, conservative rounding, the oversell rule,
// resolution, and the exactness property realized + unrealized = cash flows + marked value.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InvariantError } from '../../src/core/errors.js';
import { mulMicros, ONE, type Micros, type Price, type Shares } from '../../src/core/money.js';
import {
  applyFill,
  averagePrice,
  FLAT,
  fillNotional,
  replayFills,
  settlePosition,
  unrealizedPnl,
  type PnlFill,
} from '../../src/core/pnl.js';

const px = (v: number): Price => v as Price;
const sh = (v: number): Shares => v as Shares;
const mc = (v: number): Micros => v as Micros;

const buy = (price: number, size: number, fee = 0): PnlFill => ({
  side: 'BUY',
  price: px(price),
  size: sh(size),
  feeMicros: mc(fee),
});
const sell = (price: number, size: number, fee = 0): PnlFill => ({
  side: 'SELL',
  price: px(price),
  size: sh(size),
  feeMicros: mc(fee),
});

describe('average-cost PnL', () => {
  it('matches a hand-computed round trip with a fee', () => {
    let p = applyFill(FLAT, buy(400_000, 10_000_000)).position; // 10 @ 0.40 → cost 4.00
    expect(p).toMatchObject({ size: 10_000_000, cost: 4_000_000, realized: 0 });
    p = applyFill(p, buy(600_000, 10_000_000)).position; // 10 @ 0.60 → 20 shares, cost 10.00
    expect(p).toMatchObject({ size: 20_000_000, cost: 10_000_000 });
    expect(averagePrice(p)).toBe(500_000);
    expect(unrealizedPnl(p, px(550_000))).toBe(1_000_000); // 20 × 0.55 − 10
    const s1 = applyFill(p, sell(700_000, 5_000_000, 10_000)); // 5 @ 0.70, fee 0.01: (0.70 − 0.50) × 5 − 0.01
    expect(s1.realizedDelta).toBe(990_000);
    expect(s1.notional).toBe(3_500_000);
    p = s1.position;
    expect(p).toMatchObject({ size: 15_000_000, cost: 7_500_000, realized: 990_000, fees: 10_000 });
    const s2 = applyFill(p, sell(450_000, 15_000_000)); // 15 @ 0.45: (0.45 − 0.50) × 15
    expect(s2.realizedDelta).toBe(-750_000);
    expect(s2.position).toEqual({
      size: 0,
      cost: 0,
      realized: 240_000,
      fees: 10_000,
      bought: 20_000_000,
      sold: 20_000_000,
    });
    expect(averagePrice(s2.position)).toBeNull();
  });

  it('a buy fee lowers realized PnL at once instead of raising the cost basis', () => {
    const e = applyFill(FLAT, buy(500_000, 2_000_000, 20_000));
    expect(e.realizedDelta).toBe(-20_000);
    expect(e.position).toMatchObject({ cost: 1_000_000, realized: -20_000, fees: 20_000 });
  });

  it('rounds against us: buy notional up, sell proceeds down, removed cost up', () => {
    expect(fillNotional('BUY', px(333_333), sh(1_500_000))).toBe(500_000); // 0.4999995 → up
    expect(fillNotional('SELL', px(333_333), sh(1_500_000))).toBe(499_999); // → down
    // 3 shares that cost exactly 1.000000 in total: a third of the cost is 0.333333…
    let p = applyFill(FLAT, { ...buy(333_333, 3_000_000), notional: mc(1_000_000) }).position;
    const a = applyFill(p, sell(500_000, 1_000_000));
    expect(a.position.cost).toBe(666_666); // removed 333 334 (rounded up)
    expect(a.realizedDelta).toBe(166_666);
    p = applyFill(a.position, sell(500_000, 2_000_000)).position;
    // Selling out removes exactly what is left: the total is exact, 1.5 − 1.0.
    expect(p).toMatchObject({ size: 0, cost: 0, realized: 500_000 });
  });

  it('a sell beyond the position takes it below zero (out-of-order discovery), and the buy closes it', () => {
    const short = applyFill(FLAT, sell(600_000, 2_000_000));
    expect(short.position).toMatchObject({ size: -2_000_000, cost: -1_200_000, realized: 0, sold: 2_000_000 });
    expect(averagePrice(short.position)).toBe(600_000);
    // A buy of 3: 2 close the negative position (realizing 0.6 − 0.5 a share), 1 opens a long.
    const after = applyFill(short.position, buy(500_000, 3_000_000));
    expect(after.realizedDelta).toBe(200_000);
    expect(after.position).toMatchObject({ size: 1_000_000, cost: 500_000, realized: 200_000, bought: 3_000_000 });
  });

  it('fills commute: any order of the same fills gives the same size and the same realized + unrealized (property)', () => {
    const fillArb = fc.record({
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      price: fc.integer({ min: 1, max: 999 }).map((c) => c * 1_000),
      size: fc.integer({ min: 1, max: 50_000 }).map((c) => c * 10_000),
      fee: fc.integer({ min: 0, max: 5_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(fillArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.infiniteStream(fc.nat()),
        (fills, mark, rnd) => {
          const asFills = fills.map((f) => ({
            side: f.side,
            price: px(f.price),
            size: sh(f.size),
            feeMicros: mc(f.fee),
          }));
          const shuffled = [...asFills];
          const it = rnd[Symbol.iterator]();
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = (it.next().value as number) % (i + 1);
            [shuffled[i], shuffled[j]] = [
              shuffled[j] as (typeof shuffled)[number],
              shuffled[i] as (typeof shuffled)[number],
            ];
          }
          const a = replayFills(asFills);
          const b = replayFills(shuffled);
          expect(b.size).toBe(a.size);
          const total = (p: typeof a): number => p.realized + unrealizedPnl(p, px(mark));
          expect(total(b)).toBe(total(a));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects malformed fills', () => {
    expect(() => applyFill(FLAT, buy(1_000_001, 1))).toThrow(InvariantError);
    expect(() => applyFill(FLAT, buy(500_000, 0))).toThrow(InvariantError);
    expect(() => applyFill(FLAT, buy(500_000, 1.5))).toThrow(InvariantError);
    expect(() => applyFill(FLAT, buy(Number.NaN, 1))).toThrow(InvariantError);
  });

  it('resolution pays 1 to the winner and 0 to the loser', () => {
    const p = replayFills([buy(400_000, 10_000_000), buy(600_000, 10_000_000), sell(700_000, 5_000_000)]);
    const win = settlePosition(p, ONE);
    expect(win.proceeds).toBe(15_000_000);
    expect(win.realizedDelta).toBe(7_500_000); // 15 × (1 − 0.50)
    expect(win.position).toMatchObject({ size: 0, cost: 0, realized: 1_000_000 + 7_500_000 });
    const lose = settlePosition(p, px(0));
    expect(lose.realizedDelta).toBe(-7_500_000);
    expect(lose.position.realized).toBe(1_000_000 - 7_500_000);
  });
});

/** Valid fill sequences: sells never exceed what is held at that point. */
const fillSeq = fc
  .array(
    fc.record({
      buy: fc.boolean(),
      price: fc.integer({ min: 0, max: 1_000_000 }),
      size: fc.integer({ min: 1, max: 5_000_000_000 }),
      fee: fc.integer({ min: -10_000, max: 100_000 }),
      frac: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { maxLength: 40 },
  )
  .map((steps) => {
    let held = 0;
    const fills: PnlFill[] = [];
    for (const s of steps) {
      if (s.buy || held === 0) {
        fills.push(buy(s.price, s.size, s.fee));
        held += s.size;
      } else {
        const q = Math.max(1, Math.floor(held * s.frac));
        fills.push(sell(s.price, q, s.fee));
        held -= q;
      }
    }
    return fills;
  });

describe('average-cost PnL properties', () => {
  it('realized + unrealized equals cash flows plus the marked value, exactly', () => {
    fc.assert(
      fc.property(fillSeq, fc.integer({ min: 0, max: 1_000_000 }), (fills, mark) => {
        let cash = 0;
        for (const f of fills) {
          const n = fillNotional(f.side, f.price, f.size);
          cash += (f.side === 'BUY' ? -n : n) - f.feeMicros;
        }
        const p = replayFills(fills);
        expect(p.size).toBeGreaterThanOrEqual(0);
        expect(p.cost).toBeGreaterThanOrEqual(0);
        if (p.size === 0) expect(p.cost).toBe(0);
        expect(p.realized + unrealizedPnl(p, px(mark))).toBe(cash + mulMicros(mark, p.size, 'floor'));
      }),
    );
  });

  it('the average cost stays within the prices paid, up to the rounding of partial sells', () => {
    // On-tick prices and 2-decimal sizes, as real orders have: every notional is exact, so the
    // only drift is the removed cost of a partial sell, rounded up by under one millionth.
    const onTick = fillSeq.map((fs) => {
      let held = 0;
      const out: PnlFill[] = [];
      for (const f of fs) {
        const size = Math.max(10_000, Math.floor(f.size / 10_000) * 10_000);
        const price = Math.floor(f.price / 100) * 100;
        if (f.side === 'SELL' && size > held) continue;
        out.push({ ...f, size: sh(size), price: px(price) });
        held += f.side === 'BUY' ? size : -size;
      }
      return out;
    });
    fc.assert(
      fc.property(onTick, (fills) => {
        const p = replayFills(fills);
        const avg = averagePrice(p);
        if (avg === null) return;
        const buyPrices = fills.filter((f) => f.side === 'BUY').map((f) => f.price);
        const sells = fills.filter((f) => f.side === 'SELL').length;
        const slack = Math.ceil((sells * 1_000_000) / p.size) + 1;
        expect(avg).toBeGreaterThanOrEqual(Math.min(...buyPrices) - slack);
        expect(avg).toBeLessThanOrEqual(Math.max(...buyPrices) + 1);
      }),
    );
  });
});

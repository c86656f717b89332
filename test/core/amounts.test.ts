// Order amounts per docs/protocol.md §3: the public examples, and exactness for every tick.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { impliedPrice, orderAmounts, truncateSize } from '../../src/core/amounts.js';
import type { Price, Shares } from '../../src/core/money.js';
import { snapToTick, tickDecimals, TICKS, isValidOrderPrice, clampToOrderRange } from '../../src/core/tick.js';

const p = (v: number): Price => v as Price;
const s = (v: number): Shares => v as Shares;

describe('orderAmounts', () => {
  it('reproduces the public examples', () => {
    expect(orderAmounts('BUY', p(500_000), s(21_040_000), p(10_000))).toEqual({
      size: 21_040_000,
      makerAmount: 10_520_000,
      takerAmount: 21_040_000,
    });
    expect(orderAmounts('SELL', p(123_000), s(33_337_000), p(1_000))).toEqual({
      size: 33_330_000,
      makerAmount: 33_330_000,
      takerAmount: 4_099_590,
    });
  });
  it('refuses an off-tick or out-of-range price', () => {
    expect(() => orderAmounts('BUY', p(505_000), s(1_000_000), p(10_000))).toThrow(/not on tick/);
    expect(() => orderAmounts('BUY', p(0), s(1_000_000), p(10_000))).toThrow();
    expect(() => orderAmounts('SELL', p(1_000_000), s(1_000_000), p(10_000))).toThrow();
  });
  it('every tick, on-tick price and 2-decimal size gives exact amounts implying the price (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.constantFrom('BUY' as const, 'SELL' as const),
        (tick, x, cents, side) => {
          const price = clampToOrderRange(Math.round(x * 1e6), tick, 'floor');
          const size = s(cents * 10_000);
          const a = orderAmounts(side, price, size, tick);
          expect(a.size).toBe(size);
          expect(Number.isSafeInteger(a.makerAmount) && Number.isSafeInteger(a.takerAmount)).toBe(true);
          const implied = impliedPrice(side, a.makerAmount, a.takerAmount);
          expect(implied).toEqual({ price, exact: true });
          // The notional carries at most tick decimals + 2 decimals.
          const notional = side === 'BUY' ? a.makerAmount : a.takerAmount;
          expect(notional % 10 ** (6 - Math.min(6, tickDecimals(tick) + 2))).toBe(0);
        },
      ),
    );
  });
  it('truncates sizes to 2 decimals', () => {
    expect(truncateSize(33_337_000)).toBe(33_330_000);
    expect(truncateSize(9_999)).toBe(0);
  });
});

describe('ticks', () => {
  it('snaps with a named rounding for every tick', () => {
    expect(snapToTick(523_456, p(10_000), 'floor')).toBe(520_000);
    expect(snapToTick(523_456, p(10_000), 'ceil')).toBe(530_000);
    expect(snapToTick(523_456, p(5_000), 'floor')).toBe(520_000);
    expect(snapToTick(523_456, p(2_500), 'ceil')).toBe(525_000);
    expect(snapToTick(523_456, p(1_000), 'half-even')).toBe(523_000);
    expect(snapToTick(523_456, p(100), 'ceil')).toBe(523_500);
    expect(snapToTick(523_456, p(100_000), 'floor')).toBe(500_000);
    expect([...TICKS].map((t) => tickDecimals(t))).toEqual([1, 2, 3, 4, 3, 4]);
  });
  it('valid order prices lie on tick within [tick, 1 - tick]', () => {
    expect(isValidOrderPrice(10_000, p(10_000))).toBe(true);
    expect(isValidOrderPrice(990_000, p(10_000))).toBe(true);
    expect(isValidOrderPrice(995_000, p(10_000))).toBe(false);
    expect(isValidOrderPrice(995_000, p(5_000))).toBe(true);
  });
});

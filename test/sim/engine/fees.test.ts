// Fee and reservation arithmetic: exact against a bigint reference, and the reservation of a BUY
// covers any sequence of partial fills at any prices up to its limit, under any maker/taker bps.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buyNeed, bpsFloor, feeOf, LOT, notional, PRICE_GRID } from '../../../src/sim/engine/fees.js';

const priceArb = fc.integer({ min: 1, max: 9_999 }).map((i) => i * PRICE_GRID);
const sizeArb = fc.integer({ min: 1, max: 50_000_000 }).map((l) => l * LOT); // up to 500k shares
const bpsArb = fc.integer({ min: 0, max: 10_000 });

function refFee(bps: number, p: number, s: number): number {
  const m = BigInt(Math.min(p, 1_000_000 - p));
  return Number((BigInt(bps) * m * BigInt(s)) / 10_000_000_000n);
}

describe('fees', () => {
  it('notional is exact on the grid', () => {
    fc.assert(fc.property(priceArb, sizeArb, (p, s) => {
      expect(notional(p, s)).toBe(Number((BigInt(p) * BigInt(s)) / 1_000_000n));
      expect((BigInt(p) * BigInt(s)) % 1_000_000n).toBe(0n);
    }));
  });

  it('feeOf is ⌊bps × min(p, 1 − p) × size / 10¹⁰⌋ exactly, symmetric in p and 1 − p', () => {
    fc.assert(fc.property(bpsArb, priceArb, sizeArb, (bps, p, s) => {
      expect(feeOf(bps, p, s)).toBe(refFee(bps, p, s));
      expect(feeOf(bps, 1_000_000 - p, s)).toBe(feeOf(bps, p, s));
      expect(feeOf(bps, p, s)).toBeLessThanOrEqual(notional(p, s));
    }));
    expect(feeOf(200, 700_000, 10_000_000)).toBe(60_000);
  });

  it('bpsFloor is exact past 2^53 too', () => {
    expect(bpsFloor(9_000_000_000_000_000, 10_000)).toBe(9_000_000_000_000_000);
    expect(bpsFloor(1_234_567_890_123, 9_999)).toBe(Number((1_234_567_890_123n * 9_999n) / 10_000n));
  });

  it('a BUY reservation covers every partial-fill sequence at prices up to its limit', () => {
    fc.assert(fc.property(
      priceArb, fc.integer({ min: 1, max: 5_000 }), bpsArb, bpsArb,
      fc.array(fc.tuple(fc.integer({ min: 1, max: 500 }), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 20 }),
      (limit, lots, makerBps, takerBps, fills) => {
        const bpsMax = Math.max(makerBps, takerBps);
        let remaining = lots * LOT;
        let reserved = buyNeed(limit, remaining, bpsMax);
        for (const [fl, pr, asMaker] of fills) {
          if (remaining === 0) break;
          const f = Math.min(fl * LOT, remaining);
          const p = (1 + (pr % (limit / PRICE_GRID))) * PRICE_GRID; // any grid price ≤ limit
          const cost = notional(p, f) + feeOf(asMaker ? makerBps : takerBps, p, f);
          const after = buyNeed(limit, remaining - f, bpsMax);
          expect(reserved - after).toBeGreaterThanOrEqual(cost);
          reserved = after;
          remaining -= f;
        }
        expect(buyNeed(limit, 0, bpsMax)).toBe(0);
      },
    ));
  });
});

// The engine's grid arithmetic and its reservations: notionals exact on the grid, the core's one
// fee function (core/fees.ts fillFee) exact against a bigint reference for the interface's base
// fees, and the reservation of a BUY covering any sequence of partial fills at any prices up to
// its limit, under any maker/taker bps.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseFeeModel, fillFee } from '../../../src/core/fees.js';
import { buyNeed, LOT, notional, PRICE_GRID } from '../../../src/sim/engine/fees.js';

const priceArb = fc.integer({ min: 1, max: 9_999 }).map((i) => i * PRICE_GRID);
const sizeArb = fc.integer({ min: 1, max: 50_000_000 }).map((l) => l * LOT); // up to 500k shares
const bpsArb = fc.integer({ min: 0, max: 10_000 });

/** The core's fee of a fill under base fees of `bps` for either role. */
const feeOf = (bps: number, p: number, s: number): number => fillFee(baseFeeModel(bps, bps), 'taker', p, s);

function refFee(bps: number, p: number, s: number): number {
  const m = BigInt(Math.min(p, 1_000_000 - p));
  return Number((BigInt(bps) * m * BigInt(s)) / 10_000_000_000n);
}

describe('fees', () => {
  it('notional is exact on the grid', () => {
    fc.assert(
      fc.property(priceArb, sizeArb, (p, s) => {
        expect(notional(p, s)).toBe(Number((BigInt(p) * BigInt(s)) / 1_000_000n));
        expect((BigInt(p) * BigInt(s)) % 1_000_000n).toBe(0n);
      }),
    );
  });

  it('a base fee is ⌊bps × min(p, 1 − p) × size / 10¹⁰⌋ exactly on the grid, symmetric in p and 1 − p', () => {
    fc.assert(
      fc.property(bpsArb, priceArb, sizeArb, (bps, p, s) => {
        expect(feeOf(bps, p, s)).toBe(refFee(bps, p, s));
        expect(feeOf(bps, 1_000_000 - p, s)).toBe(feeOf(bps, p, s));
        expect(feeOf(bps, p, s)).toBeLessThanOrEqual(notional(p, s));
      }),
    );
    expect(feeOf(200, 700_000, 10_000_000)).toBe(60_000);
  });

  it('a BUY reservation covers every partial-fill sequence at prices up to its limit', () => {
    fc.assert(
      fc.property(
        priceArb,
        fc.integer({ min: 1, max: 5_000 }),
        bpsArb,
        bpsArb,
        fc.array(fc.tuple(fc.integer({ min: 1, max: 500 }), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 20 }),
        (limit, lots, makerBps, takerBps, fills) => {
          let remaining = lots * LOT;
          const model = baseFeeModel(makerBps, takerBps);
          let reserved = buyNeed(limit, remaining, model);
          for (const [fl, pr, asMaker] of fills) {
            if (remaining === 0) break;
            const f = Math.min(fl * LOT, remaining);
            const p = (1 + (pr % (limit / PRICE_GRID))) * PRICE_GRID; // any grid price ≤ limit
            const cost = notional(p, f) + fillFee(model, asMaker ? 'maker' : 'taker', p, f);
            const after = buyNeed(limit, remaining - f, model);
            expect(reserved - after).toBeGreaterThanOrEqual(cost);
            reserved = after;
            remaining -= f;
          }
          expect(buyNeed(limit, 0, model)).toBe(0);
        },
      ),
    );
  });
});

// The one fee function (src/core/fees.ts) against the official clients' own numbers, exact and
// floored to the collateral millionth, and its reservation bound.
import { describe, expect, it } from 'vitest';
import {
  baseFeeModel,
  BPS,
  exactRate,
  feeModelFromDetails,
  feeModelOf,
  fillFee,
  NO_FEES,
  RATE_SCALE,
  reserveFee,
  type FeeModel,
} from '../../src/core/fees.js';
import { SCALE } from '../../src/core/money.js';

const u = (x: number): number => Math.round(x * SCALE);
const model = (r: number, e: number): FeeModel => {
  const m = feeModelFromDetails({ r, e, to: true });
  if (m === null) throw new Error('model');
  return m;
};
/** The official client's float value, floored to the millionth as we charge it. */
const floored = (x: number): number => Math.floor(x * SCALE + 1e-7);

describe("fillFee: the public exchange's fd formula, C × r × (p(1 − p))^e", () => {
  // Polymarket/clob-client-v2 tests/client/feeCalculations.test.ts @ f557804adf90735651e9a54c59e11d5487c4fcf4
  // and Polymarket/py-clob-client-v2 tests/test_fee_calculations.py @ 7e943793a7cabf1f6d4553a3ecb5edb68c58fafb:
  // "platform fee (builder fee = 0)", rate 0.25, exponent 2, C = 100 contracts.
  const official: Array<[price: number, contracts: number, fee: number]> = [
    [0.5, 100, 1.5625],
    [0.3, 100, 1.1025],
    [0.1, 100, 0.2025],
    [0.05, 100, 0.05640625],
    [0.01, 100, 0.00245025],
    [0.7, 100, 1.1025],
    [0.9, 100, 0.2025],
    [0.95, 100, 0.05640625],
    [0.99, 100, 0.00245025],
    [0.5, 125.5, 1.9609375],
  ];
  it.each(official)('r 0.25, e 2: %f × %f shares → %f (taker), 0 (maker)', (p, c, fee) => {
    const m = model(0.25, 2);
    const got = fillFee(m, 'taker', u(p), u(c));
    expect(got).toBe(floored(fee));
    expect(Math.abs(got / SCALE - fee)).toBeLessThan(1e-6); // the official tests' toBeCloseTo(…, 6)
    expect(fillFee(m, 'maker', u(p), u(c))).toBe(0);
  });

  // The same files, "production fee rates — v2": an amount of $100 at price p, i.e. C = 100 / p
  // shares. At 0.5 that is 200 shares; at 0.7 (142.857… shares, not a whole number of share
  // millionths) we fill 100 shares ($70) and expect the official figure × 0.7 (linear in C).
  const production: Array<[name: string, r: number, p: number, feePer100: number]> = [
    ['sports_fees_v2', 0.03, 0.5, 1.5],
    ['sports_fees_v2', 0.03, 0.7, 0.9],
    ['politics_fees', 0.04, 0.5, 2.0],
    ['politics_fees', 0.04, 0.7, 1.2],
    ['culture_fees', 0.05, 0.5, 2.5],
    ['culture_fees', 0.05, 0.7, 1.5],
    ['crypto_fees_v2', 0.072, 0.5, 3.6],
    ['crypto_fees_v2', 0.072, 0.7, 2.16],
  ];
  it.each(production)('%s (r %f, e 1) on $100 at %f → $%f', (_name, r, p, fee) => {
    const shares = p === 0.5 ? 200 : 100;
    const scale = p === 0.5 ? 1 : 0.7;
    expect(fillFee(model(r, 1), 'taker', u(p), u(shares))).toBe(floored(fee * scale));
  });
  it('r 0.03 at 0.3 on $100 → $2.10 (C = 333.333333 shares, floored)', () => {
    // C × 0.03 × 0.21 with C = 333.333333: 2.099999998 → 2.099999 (floor to the millionth).
    expect(fillFee(model(0.03, 1), 'taker', u(0.3), 333_333_333)).toBe(2_099_999);
  });

  it('is symmetric in p and 1 − p, exact beyond 2^53, and rounds down once', () => {
    const m = model(0.072, 1);
    for (const p of [1, 123_400, 499_999, 500_000]) {
      expect(fillFee(m, 'taker', p, 7_770_000)).toBe(fillFee(m, 'taker', SCALE - p, 7_770_000));
    }
    // 2^52 share millionths at 0.5, r 1, e 1: 2^52 × 0.25 exactly.
    expect(fillFee(model(1, 1), 'taker', 500_000, 2 ** 52)).toBe(2 ** 50);
    // 1 share millionth at 0.5, r 0.07: 0.0175 of a millionth → 0.
    expect(fillFee(m, 'taker', 500_000, 1)).toBe(0);
  });

  it('reads absent fd, r or e as 0 (as the official client does) and refuses what it cannot charge exactly', () => {
    expect(fillFee(feeModelFromDetails(null) as FeeModel, 'taker', 500_000, 10_000_000)).toBe(0);
    expect(fillFee(feeModelFromDetails({ r: 0.07, e: null }) as FeeModel, 'taker', 500_000, 10_000_000)).toBe(700_000); // e 0: flat r per share
    expect(feeModelFromDetails({ r: 0.07, e: 1.5 })).toBeNull();
    expect(feeModelFromDetails({ r: -0.01, e: 1 })).toBeNull();
    expect(feeModelFromDetails({ r: 1.5, e: 1 })).toBeNull();
    expect(feeModelFromDetails({ r: 1e-13, e: 1 })).toBeNull();
    expect(exactRate(0.07)).toBe(70_000_000_000);
    expect(exactRate(0.0175)).toBe(17_500_000_000);
    expect(exactRate(1e-7)).toBe(100_000);
    expect(exactRate(1)).toBe(RATE_SCALE);
  });
});

describe("fillFee: the interface's base fees, bps × min(p, 1 − p) × size", () => {
  it('is ⌊bps × m × size / 10¹⁰⌋ by role', () => {
    const m = baseFeeModel(100, 200);
    expect(m.takerRate).toBe(200 * BPS);
    expect(fillFee(m, 'taker', 400_000, 10_000_000)).toBe(80_000);
    expect(fillFee(m, 'maker', 600_000, 10_000_000)).toBe(40_000);
    expect(fillFee(m, 'taker', 123_400, 7_770_000)).toBe(Math.floor((200 * 123_400 * 7_770_000) / 1e10));
    expect(fillFee(baseFeeModel(10_000, 10_000), 'taker', 500_000, 2 ** 52)).toBe(2 ** 51); // bigint past 2^53
    expect(fillFee(NO_FEES, 'taker', 500_000, 10_000_000)).toBe(0);
  });

  it('is chosen by the schedule, never by a dialect name', () => {
    const s = { makerBaseFeeBps: 1000, takerBaseFeeBps: 1000, feeDetails: { r: 0.07, e: 1, to: true } };
    expect(feeModelOf('base-bps', s)).toEqual(baseFeeModel(1000, 1000));
    expect(feeModelOf('fee-details', s)).toEqual(model(0.07, 1));
  });
});

describe('reserveFee', () => {
  it('covers every fill of a BUY at or below its limit, whatever the role, on both curves', () => {
    for (const m of [baseFeeModel(30, 200), model(0.25, 2), model(0.072, 1), model(0.05, 0)]) {
      for (const limit of [10_000, 300_000, 500_000, 700_000, 990_000]) {
        let remaining = 37_130_000;
        let reserved = reserveFee(m, limit, remaining);
        let i = 0;
        while (remaining > 0) {
          const f = Math.min(remaining, 3_330_000 + 10_000 * (i % 7));
          const p = Math.max(100, limit - 100 * ((i * 37) % 50));
          const fee = fillFee(m, i % 2 === 0 ? 'maker' : 'taker', p, f);
          const after = reserveFee(m, limit, remaining - f);
          expect(reserved - after).toBeGreaterThanOrEqual(fee);
          reserved = after;
          remaining -= f;
          i++;
        }
        expect(reserved).toBe(0);
      }
    }
  });
});

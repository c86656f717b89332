// EWMA volatility of the mid: a hand-computed estimate, the floor, skipped gaps and bad times,
// and properties (never below the floor, finite, scaling with the moves).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price } from '../../src/core/money.js';
import { ewmaVolatility, type MidSample } from '../../src/strategy/sdk.js';
import { OptionError } from '../../src/core/errors.js';

const s = (atMs: number, mid: number): MidSample => ({ atMs, mid: Math.round(mid * 1e6) as Price });

describe('ewmaVolatility', () => {
  // t = 0, 1, 2, 4 s; mids 0.50, 0.51, 0.50, 0.52; now = 4 s; half-life 2 s.
  const path = [s(0, 0.5), s(1_000, 0.51), s(2_000, 0.5), s(4_000, 0.52)];

  it('σ² = Σ w Δm² / Σ w Δt, w = 2^(−age / halfLife): hand-computed', () => {
    // w = 2^−1.5, 2^−1, 2^0; Δm² = 1e-4, 1e-4, 4e-4; Δt = 1, 1, 2 s
    // σ² = (0.353553·1e-4 + 0.5·1e-4 + 4e-4) / (0.353553 + 0.5 + 2) = 1.70088e-4 → σ = 0.0130418
    const v = ewmaVolatility(path, 4_000, { halfLifeMs: 2_000, floor: 0 });
    expect(v.increments).toBe(3);
    expect(v.raw).toBeCloseTo(0.013041781, 8);
    expect(v.sigma).toBe(v.raw);
  });

  it('increments over a gap longer than maxGapMs are skipped; non-increasing times too', () => {
    // Only the two 1 s moves of ±0.01 are left: σ² = 1e-4 / 1 s whatever their weights.
    const v = ewmaVolatility(path, 4_000, { halfLifeMs: 2_000, floor: 0, maxGapMs: 1_500 });
    expect(v.increments).toBe(2);
    expect(v.sigma).toBeCloseTo(0.01, 12);
    const dup = ewmaVolatility([s(0, 0.5), s(0, 0.6), s(1_000, 0.61)], 1_000, { halfLifeMs: 1_000, floor: 0 });
    expect(dup.increments).toBe(1);
    expect(dup.sigma).toBeCloseTo(0.01, 12);
  });

  it('the floor: a quiet book, or no usable increment', () => {
    expect(ewmaVolatility([s(0, 0.5), s(1_000, 0.5)], 1_000, { halfLifeMs: 1_000, floor: 0.0002 }).sigma).toBe(0.0002);
    const none = ewmaVolatility([s(0, 0.5)], 1_000, { halfLifeMs: 1_000, floor: 0.0003 });
    expect(none.sigma).toBe(0.0003);
    expect(Number.isNaN(none.raw)).toBe(true);
    expect(ewmaVolatility([], 0, { halfLifeMs: 1, floor: 0 }).sigma).toBe(0);
    expect(() => ewmaVolatility([], 0, { halfLifeMs: 0, floor: 0 })).toThrow(OptionError);
  });

  it('recent moves weigh more than old ones', () => {
    const early = ewmaVolatility([s(0, 0.5), s(1_000, 0.55), s(2_000, 0.55), s(3_000, 0.55)], 3_000, {
      halfLifeMs: 500,
      floor: 0,
    });
    const late = ewmaVolatility([s(0, 0.5), s(1_000, 0.5), s(2_000, 0.5), s(3_000, 0.55)], 3_000, {
      halfLifeMs: 500,
      floor: 0,
    });
    expect(late.sigma).toBeGreaterThan(early.sigma);
  });

  it('property: finite, at least the floor, and moves k times larger give σ k times larger', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 1, max: 5_000 }), dm: fc.integer({ min: -2_000, max: 2_000 }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 100, max: 100_000 }),
        (steps, k, half) => {
          let t = 0;
          let m = 500_000;
          const a: MidSample[] = [{ atMs: 0, mid: m as Price }];
          const b: MidSample[] = [{ atMs: 0, mid: m as Price }];
          let mb = m;
          for (const st of steps) {
            t += st.dt;
            m += st.dm;
            mb += k * st.dm;
            a.push({ atMs: t, mid: m as Price });
            b.push({ atMs: t, mid: mb as Price });
          }
          const va = ewmaVolatility(a, t, { halfLifeMs: half, floor: 0 });
          const vb = ewmaVolatility(b, t, { halfLifeMs: half, floor: 0 });
          expect(Number.isFinite(va.sigma)).toBe(true);
          expect(vb.sigma).toBeCloseTo(k * va.sigma, 9);
          expect(ewmaVolatility(a, t, { halfLifeMs: half, floor: 0.01 }).sigma).toBeGreaterThanOrEqual(0.01);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// Deterministic exp/log: close to Math's within a few ulps over the ranges the flow uses, exact at
// the anchors, inverse of each other, and logit/sigmoid round-trip.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dexp, dlog, logit, sigmoid } from '../../../src/sim/flow/detmath.js';

const rel = (a: number, b: number): number => (b === 0 ? Math.abs(a) : Math.abs(a - b) / Math.abs(b));

describe('dexp / dlog', () => {
  it('hits the anchors exactly', () => {
    expect(dexp(0)).toBe(1);
    expect(dlog(1)).toBe(0);
    expect(dlog(0)).toBe(-Infinity);
    expect(Number.isNaN(dlog(-1))).toBe(true);
    expect(Number.isNaN(dexp(NaN))).toBe(true);
    expect(dexp(710)).toBe(Infinity);
    expect(dexp(-800)).toBe(0);
    expect(dlog(Infinity)).toBe(Infinity);
  });

  it('agrees with Math.exp within 4e-16 relative on [-700, 700]', () => {
    fc.assert(
      fc.property(fc.double({ min: -700, max: 700, noNaN: true }), (x) => {
        expect(rel(dexp(x), Math.exp(x))).toBeLessThan(4e-16 * Math.max(1, Math.abs(x)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('agrees with Math.log within 1 ulp-ish over many magnitudes', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), (x) => {
        const want = Math.log(x);
        expect(Math.abs(dlog(x) - want)).toBeLessThanOrEqual(Math.max(4e-16 * Math.abs(want), 5e-16));
      }),
      { numRuns: 2_000 },
    );
  });

  it('is accurate near 1, where probabilities and uniforms live', () => {
    for (const x of [1 - 1e-12, 0.999999, 0.5, 0.25, 1e-9, 1.0000001, 2]) {
      expect(rel(dlog(x), Math.log(x))).toBeLessThan(1e-15);
    }
  });

  it('log inverts exp', () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 50, noNaN: true }), (x) => {
        expect(Math.abs(dlog(dexp(x)) - x)).toBeLessThan(1e-14 * Math.max(1, Math.abs(x)));
      }),
    );
  });

  it('logit and sigmoid are inverse on (0, 1)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), (p) => {
        expect(Math.abs(sigmoid(logit(p)) - p)).toBeLessThan(1e-12);
      }),
    );
    expect(logit(0.5)).toBe(0);
    expect(sigmoid(0)).toBe(0.5);
  });
});

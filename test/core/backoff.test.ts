// Backoff: full jitter within the exponential ceiling, capped, and never shorter than a
// Retry-After.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelay, type BackoffPolicy } from '../../src/core/backoff.js';

const P: BackoffPolicy = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 5000, maxRetryAfterMs: 30_000 };

describe('backoffDelay', () => {
  it('doubles the ceiling per retry up to the cap', () => {
    const top = () => 0.999999;
    expect(backoffDelay(P, 1, top, null)).toBe(199);
    expect(backoffDelay(P, 2, top, null)).toBe(399);
    expect(backoffDelay(P, 3, top, null)).toBe(799);
    expect(backoffDelay(P, 10, top, null)).toBe(4999);
    expect(backoffDelay(P, 3, () => 0, null)).toBe(0);
  });

  it('stays in [0, min(cap, base·2^(n−1))) for any random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (n, r) => {
          const d = backoffDelay(P, n, () => r, null);
          const ceiling = Math.min(P.maxDelayMs, P.baseDelayMs * 2 ** (n - 1));
          return Number.isInteger(d) && d >= 0 && d <= ceiling;
        },
      ),
    );
  });

  it('waits at least the Retry-After, plus at most one base of jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (ra, r) => {
          const d = backoffDelay(P, 1, () => r, ra);
          return d >= ra && d < ra + P.baseDelayMs;
        },
      ),
    );
  });
});

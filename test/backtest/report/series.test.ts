// The report's series order (series.ts) against the plain definition it stands for: a stable sort
// by time of the whole series, then each token's samples; and the report's mark against the
// last such mid at or before the end, on random series with repeated and out-of-order times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import type { ReportInput, TokenMidSample } from '../../../src/backtest/report/input.js';
import { computeReport } from '../../../src/backtest/report/metrics.js';
import { byTime, byTokenInTime } from '../../../src/backtest/report/series.js';

const sample = fc.record({
  timeMs: fc.integer({ min: 0, max: 20 }),
  tokenId: fc.constantFrom('A', 'B', 'C'),
  mid: fc.integer({ min: 1, max: 999_999 }),
});

/** The definition: Array.prototype.sort is stable, so equal times keep input order. */
const stableByTime = <T extends { timeMs: number }>(xs: readonly T[]): T[] =>
  [...xs].sort((a, b) => a.timeMs - b.timeMs);

describe('report series order', () => {
  it('property: byTime is the stable sort by time, the same array when already sorted, and leaves its argument alone', () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 60 }), (xs) => {
        const before = [...xs];
        const got = byTime(xs);
        expect(got).toHaveLength(xs.length);
        stableByTime(xs).forEach((x, i) => expect(got[i]).toBe(x));
        expect(xs).toEqual(before);
        xs.forEach((x, i) => expect(x).toBe(before[i]));
        const sorted = stableByTime(xs);
        expect(byTime(sorted)).toBe(sorted);
      }),
      { numRuns: 500 },
    );
  });

  it("property: byTokenInTime gives each token the stable time order's samples of that token", () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 60 }), (xs) => {
        const got = byTokenInTime(xs);
        const whole = stableByTime(xs);
        expect([...got.keys()].sort()).toEqual([...new Set(xs.map((x) => x.tokenId))].sort());
        for (const [token, list] of got) {
          const want = whole.filter((x) => x.tokenId === token);
          expect(list).toHaveLength(want.length);
          want.forEach((x, i) => expect(list[i]).toBe(x));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('property: a held token is marked at its last mid at or before the end, of equal times the later given', () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 40 }), fc.integer({ min: 0, max: 20 }), (mids, endMs) => {
        const input: ReportInput = {
          startMs: 0,
          endMs,
          capital: 1_000_000_000 as Micros,
          markets: ['A', 'B', 'C'].map((t) => ({ tokenId: t, name: t, tickSize: 10_000 as Price })),
          // One share of each token bought at 0.5 at time 0: each is held at the end.
          fills: ['A', 'B', 'C'].map((t) => ({
            timeMs: 0,
            tokenId: t,
            side: 'BUY' as const,
            price: 500_000 as Price,
            size: 1_000_000 as Shares,
            fee: 0 as Micros,
          })),
          mids: mids.map((x): TokenMidSample => ({ ...x, mid: x.mid as Price })),
          equity: [],
          inventory: [],
          uptime: [],
          orders: { placed: 0, placedSize: 0 as Shares, filled: 0, filledSize: 0 as Shares },
        };
        const report = computeReport(input);
        for (const token of ['A', 'B', 'C']) {
          const seen = stableByTime(input.mids).filter((x) => x.tokenId === token && x.timeMs <= endMs);
          const want = seen.length === 0 ? null : (seen[seen.length - 1] as TokenMidSample).mid;
          expect(report.markets.find((m) => m.tokenId === token)?.markMicros).toBe(want);
        }
      }),
      { numRuns: 500 },
    );
  });
});

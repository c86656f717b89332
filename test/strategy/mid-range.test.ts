// The fast-mid guard's window range (src/strategy/mid-range.ts): over any run of the book cache's
// appends (its columns growing and compacting) and questions, midMove answers exactly what a scan
// of the window answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MidSeries } from '../../src/core/book.js';
import { SCALE, type Price } from '../../src/core/money.js';
import { BookCache } from '../../src/marketdata/book-cache.js';
import { midMove } from '../../src/strategy/guards.js';
import { binary } from '../marketdata/helpers.js';

/** The definition: the largest |mid − sample| over the window's samples, by a scan. */
function scanMidMove(nowMs: number, mid: number, s: MidSeries, windowMs: number, flip: boolean): number {
  let lo = mid;
  let hi = mid;
  for (let i = s.end - 1; i >= s.start; i--) {
    if ((s.atMs[i] as number) < nowMs - windowMs) break;
    const m = flip ? SCALE - (s.mid[i] as number) : (s.mid[i] as number);
    if (m < lo) lo = m;
    if (m > hi) hi = m;
  }
  return Math.max(mid - lo, hi - mid);
}

/** A token's recent mids as the book cache keeps them (its columns grow and compact as they fill). */
class Columns {
  private readonly cache: BookCache;
  constructor(history: number) {
    this.cache = new BookCache({ maxBookAgeMs: 5_000, midHistory: history });
    this.cache.setUniverse([binary('m')]);
  }

  push(atMs: number, mid: number): void {
    this.cache.apply({ receivedAtMs: atMs, books: [], mids: new Map([['m-yes', mid as Price]]) });
  }

  series(): MidSeries {
    const w = this.cache.midWindow('m-yes');
    if (w === null) throw new Error('the token is in the universe');
    return w;
  }
}

const stepArb = fc.oneof(
  {
    arbitrary: fc.record({
      k: fc.constant('push' as const),
      dt: fc.nat(40),
      mid: fc.integer({ min: 1, max: 999_999 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('ask' as const),
      // Mostly later than the last sample; now and then earlier than a question already asked.
      dt: fc.integer({ min: -60, max: 60 }),
      mid: fc.integer({ min: 1, max: 999_999 }),
      window: fc.constantFrom(50, 120, 400),
      flip: fc.boolean(),
      old: fc.option(fc.nat(), { freq: 2 }),
    }),
    weight: 2,
  },
);

describe('midMove over the window range', () => {
  it('property: equals the scan over any run of appends, replaced columns and questions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(stepArb, { minLength: 1, maxLength: 300 }),
        (history, steps) => {
          const c = new Columns(history);
          let t = 1_000;
          const handedOut: MidSeries[] = [];
          for (const s of steps) {
            if (s.k === 'push') {
              t += s.dt;
              c.push(t, s.mid);
              continue;
            }
            // `old`: a window handed out earlier (it never changes), asked again later.
            const series =
              s.old !== null && handedOut.length > 0 ? (handedOut[s.old % handedOut.length] as MidSeries) : c.series();
            handedOut.push(series);
            const now = t + s.dt;
            expect(midMove(now, s.mid, series, s.window, s.flip)).toBe(
              scanMidMove(now, s.mid, series, s.window, s.flip),
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('two windows over one mid column with different times are answered each by its own times', () => {
    const mid = new Float64Array([100_000, 900_000, 500_000]);
    const early: MidSeries = { atMs: new Float64Array([10, 20, 30]), mid, start: 0, end: 3 };
    const late: MidSeries = { atMs: new Float64Array([10, 95, 96]), mid, start: 0, end: 3 };
    expect(midMove(100, 500_000, early, 50, false)).toBe(scanMidMove(100, 500_000, early, 50, false));
    expect(midMove(100, 500_000, late, 50, false)).toBe(400_000);
    expect(midMove(100, 500_000, early, 50, false)).toBe(0);
  });

  it('a long run at one window, its columns replaced many times, answers as the scan', () => {
    const c = new Columns(120);
    let worst = 0;
    for (let i = 0; i < 5_000; i++) {
      c.push(1_000 + i * 10, 500_000 + ((i * 7_919) % 20_001) - 10_000);
      const now = 1_000 + i * 10;
      const got = midMove(now, 500_000, c.series(), 300, i % 2 === 0);
      expect(got).toBe(scanMidMove(now, 500_000, c.series(), 300, i % 2 === 0));
      worst = Math.max(worst, got);
    }
    expect(worst).toBeGreaterThan(0);
  });
});

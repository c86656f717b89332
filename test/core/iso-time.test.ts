// isoTime must write exactly what Date.prototype.toISOString writes, for every time: inside the
// four-digit years it formats itself, outside them it defers, and the remembered day never leaks
// into another day's time.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoTime } from '../../src/core/iso-time.js';

const LAST = 253_402_300_799_999;

describe('isoTime', () => {
  it('property: equals toISOString for any time, in any order of calls', () => {
    const ms = fc.oneof(
      fc.integer({ min: 0, max: LAST }),
      fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
      fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }),
      fc.constantFrom(0, 86_399_999, 86_400_000, LAST, LAST + 1, -1, 951_782_400_000, 1.5),
    );
    fc.assert(
      fc.property(fc.array(ms, { minLength: 1, maxLength: 20 }), (times) => {
        for (const t of times) expect(isoTime(t)).toBe(new Date(t).toISOString());
      }),
      { numRuns: 3_000 },
    );
  });

  it('the last millisecond of a day and the first of the next, in both orders', () => {
    const d = Date.UTC(2024, 1, 29); // a leap day
    for (const t of [d - 1, d, d + 86_399_999, d + 86_400_000, d - 1])
      expect(isoTime(t)).toBe(new Date(t).toISOString());
  });
});

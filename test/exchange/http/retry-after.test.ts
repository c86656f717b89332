// Retry-After parsing: delay-seconds (integer or decimal, no float detour), HTTP dates against
// the injected clock, and unreadable values.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseRetryAfter } from '../../../src/exchange/http/retry-after.js';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('7', NOW)).toBe(7000);
    expect(parseRetryAfter(' 30 ', NOW)).toBe(30_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter('0.0019', NOW)).toBe(1);
  });

  it('every integer of seconds round-trips to ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (s) => parseRetryAfter(String(s), NOW) === s * 1000),
    );
  });

  it('reads an HTTP date relative to the clock, never negative', () => {
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', NOW)).toBe(0);
  });

  it('is null when absent or unreadable', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
    expect(parseRetryAfter('', NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('-5', NOW)).toBeNull();
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['2', '9'], NOW)).toBe(2000);
  });
});

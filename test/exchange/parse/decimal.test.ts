// The fast decimal scanner must agree exactly with money.ts's strict parsers: whenever it accepts,
// it returns what parseDecimalMicros returns; the read functions accept/reject exactly as the
// strict parsers do (they defer to them on anything unusual).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors.js';
import { parseDecimalMicros, parseMicros, parsePrice, parseShares } from '../../../src/core/money.js';
import { readMicros, readPrice, readShares, scanMicros } from '../../../src/exchange/parse/decimal.js';

function strictOrError(f: () => number): number | 'error' {
  try {
    return f();
  } catch {
    return 'error';
  }
}

// Strings shaped like decimals, with the edge cases that matter: leading zeros, long integer
// parts, 0–8 decimals, signs, exponents, whitespace, dots in odd places.
const decimalLike = fc.oneof(
  fc
    .tuple(fc.stringMatching(/^[0-9]{1,12}$/), fc.option(fc.stringMatching(/^[0-9]{0,8}$/)))
    .map(([i, f]) => (f === null ? i : `${i}.${f}`)),
  fc
    .tuple(
      fc.constantFrom('-', '+', ' ', ''),
      fc.stringMatching(/^[0-9.eE+-]{0,10}$/),
      fc.constantFrom('', ' ', 'e3', '.'),
    )
    .map(([a, b, c]) => a + b + c),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '0',
    '-0',
    '00.5',
    '1.',
    '.5',
    '0.000001',
    '0.0000001',
    '9999999999',
    '9007199254.740991',
    '9007199254.740992',
    '99999999999',
    '1e-3',
    'NaN',
    'Infinity',
    '',
  ),
);

describe('scanMicros', () => {
  it('agrees with parseDecimalMicros whenever it accepts', () => {
    fc.assert(
      fc.property(decimalLike, (s) => {
        const fast = scanMicros(s);
        if (fast >= 0) expect(fast).toBe(parseDecimalMicros(s));
      }),
      { numRuns: 20_000 },
    );
  });

  it('accepts every plain unsigned decimal of the common shape within the safe range', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 9_999_999_999 }),
        fc.nat({ max: 999_999 }),
        fc.integer({ min: 1, max: 6 }),
        (i, f, d) => {
          const frac = String(f).padStart(6, '0').slice(0, d);
          for (const s of [`${i}.${frac}`, String(i)]) {
            const strict = strictOrError(() => parseDecimalMicros(s));
            // Exactly the strings whose millionths are not a safe integer are refused by both.
            expect(scanMicros(s)).toBe(strict === 'error' ? -1 : strict);
          }
        },
      ),
      { numRuns: 5_000 },
    );
    expect(scanMicros('9007199254.740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(scanMicros('9007199254.740992')).toBe(-1);
  });

  it('returns -1 for shapes it does not handle', () => {
    for (const s of [
      '',
      '-1',
      '+1',
      '1.',
      '.5',
      '1e3',
      ' 1',
      '1 ',
      '0.1234567',
      '12345678901',
      '9999999999.999999x',
      '1..2',
    ]) {
      expect(scanMicros(s)).toBe(-1);
    }
  });
});

describe('readPrice / readShares / readMicros match the strict parsers', () => {
  it('accept and reject exactly the same strings, with the same values', () => {
    fc.assert(
      fc.property(decimalLike, (s) => {
        const pairs: Array<[() => number, () => number]> = [
          [() => readPrice(s, 'p'), () => parsePrice(s)],
          [() => readShares(s, 'p'), () => parseShares(s)],
          [() => readMicros(s, 'p'), () => parseMicros(s)],
        ];
        for (const [fast, strict] of pairs) expect(strictOrError(fast)).toBe(strictOrError(strict));
      }),
      { numRuns: 20_000 },
    );
  });

  it('raise ParseError with the given path and a message free of the strict parser prefix', () => {
    try {
      readShares('-2', 'books[3].bids[2].size');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).path).toBe('books[3].bids[2].size');
      expect((err as ParseError).message).toBe('books[3].bids[2].size: negative: "-2"');
    }
    expect(() => readPrice(0.5, 'x')).toThrow(/expected a decimal string, got number/);
    expect(() => readPrice(null, 'x')).toThrow(/got null/);
  });

  it('treat "-0" as the strict parser does (zero), via the fallback', () => {
    expect(readShares('-0', 'p')).toBe(0);
    expect(readPrice('-0.0', 'p')).toBe(0);
  });
});

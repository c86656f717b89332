// Money: strict parsing, exact formatting, named rounding, exact products.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  divRound,
  formatFixed,
  formatMicros,
  fromFloat,
  microsFromNumber,
  mulMicros,
  parseDecimalMicros,
  parseIntegerMicros,
  parsePrice,
  parseShares,
  roundToStep,
} from '../../src/core/money.js';

describe('parseDecimalMicros', () => {
  it('parses plain decimals exactly', () => {
    expect(parseDecimalMicros('0.52')).toBe(520_000);
    expect(parseDecimalMicros('21.04')).toBe(21_040_000);
    expect(parseDecimalMicros('0.000001')).toBe(1);
    expect(parseDecimalMicros('-3.5')).toBe(-3_500_000);
    expect(parseDecimalMicros('2202468')).toBe(2_202_468_000_000);
    expect(Object.is(parseDecimalMicros('-0'), 0)).toBe(true);
  });
  it.each(['', '1e-3', '1E5', 'NaN', 'Infinity', '0.1234567', ' 1', '1 ', '+1', '.5', '5.', '0x10', '1,5', '--1'])(
    'rejects %j naming the value',
    (bad) => {
      expect(() => parseDecimalMicros(bad, 'size')).toThrow(/size/);
      try {
        parseDecimalMicros(bad, 'size');
      } catch (e) {
        expect((e as Error).message).toContain(JSON.stringify(bad));
      }
    },
  );
  it('rejects values whose millionths are not safe integers', () => {
    expect(() => parseDecimalMicros('99999999999')).toThrow(/out of range/);
    expect(() => parseDecimalMicros('9007199254.740993')).toThrow(/out of range/);
  });
  it('rejects non-strings', () => {
    expect(() => parseDecimalMicros(0.5 as unknown as string)).toThrow(/expected a decimal string/);
  });
  it('price bounds and share sign', () => {
    expect(parsePrice('1')).toBe(1_000_000);
    expect(() => parsePrice('1.000001')).toThrow(/out of range/);
    expect(() => parsePrice('-0.1')).toThrow(/out of range/);
    expect(() => parseShares('-1')).toThrow(/negative/);
  });
  it('integer amounts', () => {
    expect(parseIntegerMicros('10520000')).toBe(10_520_000);
    expect(() => parseIntegerMicros('1.5')).toThrow();
    expect(() => parseIntegerMicros('99999999999999999999')).toThrow(/out of range/);
  });
  it('round-trips every formatted value (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (v) => {
        const s = formatMicros(v);
        expect(s).not.toMatch(/e/i);
        expect(parseDecimalMicros(s)).toBe(v);
      }),
    );
  });
});

describe('formatting', () => {
  it('never prints an exponent and trims zeros', () => {
    expect(formatMicros(1)).toBe('0.000001');
    expect(formatMicros(520_000)).toBe('0.52');
    expect(formatMicros(0)).toBe('0');
    expect(formatMicros(-1_500_000)).toBe('-1.5');
    expect(formatMicros(Number.MAX_SAFE_INTEGER)).toBe('9007199254.740991');
  });
  it('fixed decimals without rounding', () => {
    expect(formatFixed(520_000, 3)).toBe('0.520');
    expect(formatFixed(5_000_000, 0)).toBe('5');
    expect(() => formatFixed(520_001, 2)).toThrow(/without rounding/);
  });
});

describe('rounding', () => {
  it('divRound names every mode', () => {
    expect(divRound(7n, 2n, 'floor')).toBe(3n);
    expect(divRound(7n, 2n, 'ceil')).toBe(4n);
    expect(divRound(-7n, 2n, 'floor')).toBe(-4n);
    expect(divRound(-7n, 2n, 'ceil')).toBe(-3n);
    expect(divRound(-7n, 2n, 'trunc')).toBe(-3n);
    expect(divRound(5n, 2n, 'half-even')).toBe(2n);
    expect(divRound(7n, 2n, 'half-even')).toBe(4n);
    expect(divRound(-5n, 2n, 'half-even')).toBe(-2n);
    expect(divRound(11n, 4n, 'half-even')).toBe(3n);
  });
  it('mulMicros is exact past 2^53', () => {
    // 0.999999 × 9,000,000,000 shares: the raw product exceeds 2^53.
    expect(mulMicros(999_999, 9_000_000_000_000_000, 'floor')).toBe(8_999_991_000_000_000);
    expect(mulMicros(333_333, 3_000_000, 'floor')).toBe(999_999);
    expect(mulMicros(1, 1, 'floor')).toBe(0);
    expect(mulMicros(1, 1, 'ceil')).toBe(1);
    expect(Object.is(mulMicros(-1, 0, 'floor'), 0)).toBe(true);
  });
  it('mulMicros agrees with bigint for every mode (property)', () => {
    const modes = ['floor', 'ceil', 'trunc', 'half-even'] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: -2_000_000_000_000, max: 2_000_000_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom(...modes),
        (a, b, mode) => {
          expect(mulMicros(a, b, mode)).toBe(Number(divRound(BigInt(a) * BigInt(b), 1_000_000n, mode)));
        },
      ),
    );
  });
  it('roundToStep and float conversion', () => {
    expect(roundToStep(21_049_999, 10_000, 'trunc')).toBe(21_040_000);
    expect(roundToStep(-15, 10, 'floor')).toBe(-20);
    expect(fromFloat(0.1 * 3, 'floor')).toBe(300_000);
    expect(fromFloat(0.5234567, 'floor')).toBe(523_456);
    expect(fromFloat(0.5234567, 'ceil')).toBe(523_457);
    expect(() => fromFloat(Number.NaN, 'floor')).toThrow(/finite/);
    expect(microsFromNumber(0.1, 'floor')).toBe(100_000);
    expect(microsFromNumber(1e-7, 'ceil')).toBe(1);
    expect(microsFromNumber(1e-7, 'floor')).toBe(0);
    expect(microsFromNumber(-12.345, 'floor')).toBe(-12_345_000);
  });
});

describe('signed zero', () => {
  it('never comes out of a conversion', () => {
    expect(Object.is(fromFloat(-0.0000001, 'trunc'), 0)).toBe(true);
    expect(Object.is(fromFloat(-0.0000001, 'ceil'), 0)).toBe(true);
    expect(Object.is(microsFromNumber(-1e-9, 'trunc'), 0)).toBe(true);
  });
});

describe('roundToStep without BigInt', () => {
  // Below 2^52 roundToStep divides on numbers; the result must be the BigInt rule's for every
  // rounding, near the limit and across it, and a -0 never comes out.
  const modes = ['floor', 'ceil', 'trunc', 'half-even'] as const;
  const value = fc.oneof(
    fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: -(2 ** 52) - 8, max: -(2 ** 52) + 8 }),
    fc.integer({ min: 2 ** 52 - 8, max: 2 ** 52 + 8 }),
    fc.integer({ min: -2_000_000, max: 2_000_000 }),
  );
  const step = fc.oneof(
    fc.integer({ min: 1, max: 20_000 }),
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(3, 7, 10_000, 2 ** 52 - 1, 2 ** 52, 2 ** 52 + 1),
  );
  it('equals the exact quotient times the step', () => {
    fc.assert(
      fc.property(value, step, fc.constantFrom(...modes), (v, s, mode) => {
        const exact = Number(divRound(BigInt(v), BigInt(s), mode)) * s;
        expect(Object.is(roundToStep(v, s, mode), exact + 0)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
    expect(roundToStep(2 ** 52 - 1, 2 ** 52, 'floor')).toBe(0);
    expect(roundToStep(2 ** 52 + 1, 2 ** 52, 'ceil')).toBe(2 ** 53);
    expect(Object.is(roundToStep(-3, 10, 'trunc'), 0)).toBe(true);
    expect(Object.is(roundToStep(-0, 10, 'floor'), 0)).toBe(true);
    expect(roundToStep(15_000, 10_000, 'half-even')).toBe(20_000);
    expect(roundToStep(25_000, 10_000, 'half-even')).toBe(20_000);
    expect(roundToStep(-25_000, 10_000, 'half-even')).toBe(-20_000);
    expect(() => roundToStep(1.5, 10, 'floor')).toThrow();
  });
});

// The shared readers: no coercion, "" / null / missing → null only through opt readers, ISO
// handling independent of the host's time zone, number forms.
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors.js';
import {
  int,
  intOrString,
  iso,
  isoMs,
  microsOf,
  optBool,
  optStr,
  str,
  uintString,
} from '../../../src/exchange/parse/read.js';

describe('read helpers', () => {
  it('do not coerce between strings, numbers and booleans', () => {
    expect(() => str(5, 'a')).toThrow(ParseError);
    expect(() => int('5', 'a')).toThrow(ParseError);
    expect(() => int(5.5, 'a')).toThrow(/expected an integer, got number 5.5/);
    expect(() => int(Number.NaN, 'a')).toThrow(/got NaN/);
    expect(() => optBool('false', 'a')).toThrow(ParseError);
    expect(optBool(undefined, 'a')).toBeNull();
    expect(optStr('', 'a')).toBeNull();
    expect(optStr(null, 'a')).toBeNull();
    expect(() => optStr(0, 'a')).toThrow(ParseError);
  });

  it('integer strings are strict and bounded', () => {
    expect(uintString('1781289337944', 't')).toBe(1781289337944);
    for (const bad of ['', '-1', '1.0', '1e3', ' 1', '99999999999999999999'])
      expect(() => uintString(bad, 't')).toThrow(ParseError);
    expect(intOrString('7', 't')).toBe(7);
    expect(intOrString(7, 't')).toBe(7);
  });

  it('numbers become millionths with the named rounding; strings only when allowed', () => {
    expect(microsOf(0.1, 'x', 'floor')).toBe(100_000);
    expect(microsOf(1.0000005, 'x', 'floor')).toBe(1_000_000);
    expect(microsOf(1.0000005, 'x', 'ceil')).toBe(1_000_001);
    expect(() => microsOf('0.1', 'x', 'floor')).toThrow(/expected a finite number/);
    expect(microsOf('0.1', 'x', 'floor', 'number-or-string')).toBe(100_000);
    expect(() => microsOf('1e-1', 'x', 'floor', 'number-or-string')).toThrow(ParseError);
    expect(() => microsOf(Infinity, 'x', 'floor')).toThrow(ParseError);
    expect(() => microsOf(1e300, 'x', 'floor')).toThrow(ParseError);
  });

  it('ISO dates: shape checked, zone-less values read as UTC', () => {
    expect(iso('2025-07-11T18:41:17.827458Z', 'd')).toBe('2025-07-11T18:41:17.827458Z');
    expect(() => iso('11/07/2025', 'd')).toThrow(ParseError);
    expect(isoMs('2028-11-07', 'd')).toBe(Date.UTC(2028, 10, 7));
    expect(isoMs('2024-11-05T00:00:00Z', 'd')).toBe(Date.UTC(2024, 10, 5));
    expect(isoMs('2024-11-05T00:00:00', 'd')).toBe(Date.UTC(2024, 10, 5));
    expect(isoMs('2024-03-07 20:44:01.258+00', 'd')).toBe(Date.UTC(2024, 2, 7, 20, 44, 1, 258));
    expect(isoMs('2024-03-07T20:44:01+0130', 'd')).toBe(Date.UTC(2024, 2, 7, 19, 14, 1));
    expect(isoMs('2025-07-11T18:41:17.827458Z', 'd')).toBe(Date.UTC(2025, 6, 11, 18, 41, 17, 827));
    expect(() => isoMs('2024-13-45T00:00:00Z', 'd')).toThrow(ParseError);
  });
});

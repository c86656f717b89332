// Sweep grids: shape checks, the fixed expansion order (sorted keys, last fastest; indexes in that
// order whatever the JSON key order), and validation through the strategy's own parser naming the
// key and the value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  combinations,
  GridError,
  mergeParams,
  parseGridShape,
  validateGrid,
} from '../../../src/backtest/sweep/index.js';
import { registry } from '../../../strategies/index.js';

describe('parseGridShape', () => {
  it('rejects what is not an object of non-empty arrays, naming the key and value', () => {
    expect(() => parseGridShape([1], 'g.json')).toThrow(/g\.json: expected a JSON object.*\[1\]/);
    expect(() => parseGridShape(null)).toThrow(GridError);
    expect(() => parseGridShape({})).toThrow(/names no param/);
    expect(() => parseGridShape({ a: 3 })).toThrow(/key "a": expected an array of values \(got 3\)/);
    expect(() => parseGridShape({ a: [] })).toThrow(/key "a": expected at least one value/);
  });

  it('refuses grids with too many combinations before expanding them', () => {
    const big = Array.from({ length: 1000 }, (_, i) => i);
    expect(() => parseGridShape({ a: big, b: big })).toThrow(/1000000 combinations/);
  });
});

describe('combinations', () => {
  it('expands with sorted keys, the last key varying fastest', () => {
    const g = parseGridShape({ z: [1, 2], a: ['x', 'y', 'w'] });
    expect(combinations(g)).toEqual([
      { index: 0, params: { a: 'x', z: 1 } },
      { index: 1, params: { a: 'x', z: 2 } },
      { index: 2, params: { a: 'y', z: 1 } },
      { index: 3, params: { a: 'y', z: 2 } },
      { index: 4, params: { a: 'w', z: 1 } },
      { index: 5, params: { a: 'w', z: 2 } },
    ]);
  });

  it('property: the product of the lengths, every combination once, independent of key order', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 4 }),
          fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 4 }),
          { minKeys: 1, maxKeys: 4 },
        ),
        (raw) => {
          const g = parseGridShape(raw);
          const cs = combinations(g);
          expect(cs).toHaveLength(Object.values(raw).reduce((n, v) => n * v.length, 1));
          expect(cs.map((c) => c.index)).toEqual(cs.map((_, i) => i));
          expect(new Set(cs.map((c) => JSON.stringify(c.params))).size).toBe(cs.length);
          for (const c of cs) for (const [k, v] of Object.entries(c.params)) expect(raw[k]).toContain(v);
          const reversed = Object.fromEntries(Object.entries(raw).reverse());
          expect(combinations(parseGridShape(reversed))).toEqual(cs);
        },
      ),
    );
  });
});

describe('validateGrid', () => {
  const bands = registry.get('bands');
  const base = { levels: [{ margin: 0.01, size: 10 }] };

  it('accepts valid values and returns the combinations', () => {
    const cs = validateGrid(parseGridShape({ maxPosition: [5, 100], refreshTolerance: [0, 0.005] }), bands, base);
    expect(cs).toHaveLength(4);
  });

  it('names the key and the value the strategy rejects', () => {
    expect(() => validateGrid(parseGridShape({ maxPosition: [5, -3] }), bands, base, 'g.json')).toThrow(
      /g\.json: key "maxPosition": value -3 is invalid/,
    );
    expect(() => validateGrid(parseGridShape({ bogus: [1] }), bands, base)).toThrow(/key "bogus": value 1/);
  });

  it('checks whole combinations for rules across params', () => {
    // Each value is fine alone over the defaults; floor 0.6 with ceiling 0.5 is not.
    expect(() => validateGrid(parseGridShape({ priceFloor: [0, 0.6], priceCeiling: [0.5, 1] }), bands, base)).toThrow(
      /combination \{"priceCeiling":0\.5,"priceFloor":0\.6\}/,
    );
  });

  it('merges over the base params without changing them', () => {
    expect(mergeParams(base, { maxPosition: 5 })).toEqual({ levels: [{ margin: 0.01, size: 10 }], maxPosition: 5 });
    expect(mergeParams(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(base).toEqual({ levels: [{ margin: 0.01, size: 10 }] });
  });
});

describe('dotted keys (nested params)', () => {
  const bands = registry.get('bands');
  const base = {
    levels: [
      { margin: 0.01, size: 10 },
      { margin: 0.03, size: 20 },
    ],
    maxPosition: 50,
  };

  it('set one nested leaf over a copy of the base params, leaving the base and its siblings untouched', () => {
    const merged = mergeParams(base, { 'levels.1.margin': 0.05 });
    expect(merged).toEqual({
      levels: [
        { margin: 0.01, size: 10 },
        { margin: 0.05, size: 20 },
      ],
      maxPosition: 50,
    });
    expect(base.levels[1]?.margin).toBe(0.03);
    expect(mergeParams({}, { 'a.b.0': 1 })).toEqual({ a: { b: [1] } });
  });

  it('expand and validate through the strategy parser, naming the dotted key and the value', () => {
    const cs = validateGrid(parseGridShape({ 'levels.0.margin': [0.01, 0.02], maxPosition: [5] }), bands, base);
    expect(cs.map((c) => c.params)).toEqual([
      { 'levels.0.margin': 0.01, maxPosition: 5 },
      { 'levels.0.margin': 0.02, maxPosition: 5 },
    ]);
    expect(mergeParams(base, cs[1]?.params ?? {})).toMatchObject({
      levels: [
        { margin: 0.02, size: 10 },
        { margin: 0.03, size: 20 },
      ],
      maxPosition: 5,
    });
    expect(() => validateGrid(parseGridShape({ 'levels.0.size': [10, -1] }), bands, base, 'g.json')).toThrow(
      /g\.json: key "levels\.0\.size": value -1 is invalid/,
    );
    expect(() => validateGrid(parseGridShape({ 'maxPosition.x': [1] }), bands, base)).toThrow(
      /maxPosition is 50, not an object or array/,
    );
    expect(() => validateGrid(parseGridShape({ 'levels..margin': [1] }), bands, base, 'g.json')).toThrow(
      /g\.json: key "levels\.\.margin": .*empty segment/,
    );
  });
});

// The shape comparison of wire-shapes.test.ts on small values: it reports the paths a real payload
// has that were never sent, the paths sent that no real payload has, JSON types no real payload has,
// merges array elements and several values, folds id-keyed maps, and honours the allow-lists.
import { describe, expect, it } from 'vitest';
import { compareShapes, shapeOf } from './wire-shape.js';

const none = new Set<string>();

describe('shape comparison', () => {
  it('reports missing, extra and mistyped paths, array elements merged', () => {
    const real = shapeOf([{ a: '1', b: [{ x: 1 }, { y: null }], c: true }]);
    const sim = shapeOf([{ a: 1, b: [{ x: 2 }], d: 'extra' }]);
    expect(compareShapes(sim, real, none)).toEqual({
      missing: ['b[].y', 'c'],
      extra: ['d'],
      types: ['a: sent number vs real string'],
    });
  });

  it('merges several values, so an optional key or a nullable value counts once seen', () => {
    const real = shapeOf([{ a: null }, { a: 'x', b: 1 }]);
    expect(compareShapes(shapeOf([{ a: 'y', b: 2 }, { a: null }]), real, none)).toEqual({
      missing: [],
      extra: [],
      types: [],
    });
  });

  it('keys-only payloads count for keys, not for types', () => {
    const keysOnly = new Set(shapeOf([{ n: '5' }]).keys());
    expect(compareShapes(shapeOf([{ n: 5 }]), shapeOf([]), keysOnly)).toEqual({ missing: [], extra: [], types: [] });
    expect(compareShapes(shapeOf([{}]), shapeOf([]), keysOnly).missing).toEqual(['n']);
  });

  it('folds the keys of id-keyed maps, and applies the allow-lists (an allowed extra covers its subtree)', () => {
    const real = shapeOf([{ '123': { BUY: '0.5' } }], ['']);
    const sim = shapeOf([{ '9': { BUY: '0.4' }, '10': { BUY: '0.6' } }], ['']);
    expect(compareShapes(sim, real, none)).toEqual({ missing: [], extra: [], types: [] });
    const d = compareShapes(shapeOf([{ r: null, c: { z: 1 } }]), shapeOf([{ r: {} }]), none, {
      extra: { c: 'documented' },
      types: { r: { add: ['null'], why: 'documented' } },
    });
    expect(d).toEqual({ missing: [], extra: [], types: [] });
  });
});

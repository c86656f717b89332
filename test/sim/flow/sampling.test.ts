// The flow's random draws have the distributions they claim (fixed seeds: deterministic checks).
import { describe, expect, it } from 'vitest';
import { exponential, meanOneLogNormal, pareto, uniform } from '../../../src/sim/flow/sampling.js';
import { Rng } from '../../../src/sim/world/rng.js';

const N = 40_000;

describe('sampling', () => {
  it('exponential waiting times have the given mean and are positive', () => {
    const rng = new Rng('exp');
    let sum = 0;
    let over = 0;
    for (let i = 0; i < N; i++) {
      const x = exponential(rng, 5_000);
      expect(x).toBeGreaterThanOrEqual(0);
      sum += x;
      if (x > 10_000) over++;
    }
    expect(sum / N / 5_000).toBeGreaterThan(0.97);
    expect(sum / N / 5_000).toBeLessThan(1.03);
    // P(X > 2·mean) = e^−2 ≈ 0.135.
    expect(over / N).toBeGreaterThan(0.125);
    expect(over / N).toBeLessThan(0.145);
  });

  it('pareto sizes start at xmin, have the tail exponent, and respect the cap', () => {
    const rng = new Rng('pareto');
    let over2 = 0;
    let capped = 0;
    for (let i = 0; i < N; i++) {
      const x = pareto(rng, 5, 1.6, 500);
      expect(x).toBeGreaterThanOrEqual(5);
      expect(x).toBeLessThanOrEqual(500);
      if (x > 10) over2++;
      if (x === 500) capped++;
    }
    // P(X > 2·xmin) = 2^−1.6 ≈ 0.330; P(X ≥ 100·xmin) = 100^−1.6 ≈ 0.00063.
    expect(over2 / N).toBeGreaterThan(0.32);
    expect(over2 / N).toBeLessThan(0.34);
    expect(capped).toBeGreaterThan(5);
    expect(capped).toBeLessThan(60);
  });

  it('uniform stays in range; the activity factor has mean one', () => {
    const rng = new Rng('u');
    let sum = 0;
    for (let i = 0; i < N; i++) {
      const u = uniform(rng, 2, 3);
      expect(u).toBeGreaterThanOrEqual(2);
      expect(u).toBeLessThan(3);
      const a = meanOneLogNormal(rng, 0.5);
      expect(a).toBeGreaterThan(0);
      sum += a;
    }
    expect(sum / N).toBeGreaterThan(0.98);
    expect(sum / N).toBeLessThan(1.02);
    expect(meanOneLogNormal(rng, 0)).toBe(1);
  });
});

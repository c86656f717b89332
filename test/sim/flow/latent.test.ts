// The latent walk: bounded, independent of how (and how often) it is read, with the volatility and
// jump rate it was given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logit } from '../../../src/sim/flow/detmath.js';
import { LatentProcess } from '../../../src/sim/flow/latent.js';
import type { LatentParams } from '../../../src/sim/flow/params.js';
import { Rng } from '../../../src/sim/world/rng.js';
import { OptionError } from '../../../src/core/errors.js';

const T0 = Date.UTC(2026, 0, 1);
const BASE: LatentParams = {
  stepMs: 1_000,
  volMin: 0.3,
  volMax: 0.3,
  jumpsPerHour: 2,
  jumpSd: 0.3,
  pMin: 0.03,
  pMax: 0.97,
};

function walk(seed: string, p: LatentParams, vol = p.volMin, p0 = 0.5): LatentProcess {
  return new LatentProcess(new Rng(seed), p0, T0, vol, p);
}

describe('LatentProcess', () => {
  it('stays within [pMin, pMax] whatever the volatility and jumps', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.double({ min: 0, max: 8, noNaN: true }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 4, noNaN: true }),
        fc.double({ min: 0.001, max: 0.45, noNaN: true }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        (seed, vol, jumps, jumpSd, pMin, p0) => {
          const p: LatentParams = {
            ...BASE,
            volMin: vol,
            volMax: vol,
            jumpsPerHour: jumps,
            jumpSd,
            pMin,
            pMax: 1 - pMin,
          };
          const w = walk(seed, p, vol, p0);
          for (let t = 0; t <= 600_000; t += 7_000) {
            w.advanceTo(T0 + t);
            const v = w.value();
            expect(v).toBeGreaterThanOrEqual(pMin * (1 - 1e-12));
            expect(v).toBeLessThanOrEqual((1 - pMin) * (1 + 1e-12));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives the same path however it is advanced and read', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 60 }),
        (seed, gaps) => {
          const a = walk(seed, BASE);
          const b = walk(seed, BASE);
          let t = T0;
          for (const g of gaps) {
            t += g;
            // b is read at every ms boundary it passes; a only at the checkpoints.
            for (let u = t - g; u <= t; u += 997) {
              b.advanceTo(u);
              b.value();
            }
            b.advanceTo(t);
            a.advanceTo(t);
            expect(b.logit()).toBe(a.logit());
          }
          a.advanceTo(t - 5_000); // backwards: nothing happens
          expect(a.logit()).toBe(b.logit());
        },
      ),
      { numRuns: 50 },
    );
  });

  it('differs between seeds and repeats for one seed', () => {
    const a = walk('one', BASE);
    const b = walk('one', BASE);
    const c = walk('two', BASE);
    for (const w of [a, b, c]) w.advanceTo(T0 + 3_600_000);
    expect(a.value()).toBe(b.value());
    expect(c.value()).not.toBe(a.value());
  });

  it('has the volatility it was given (logit units per √hour)', () => {
    const p: LatentParams = { ...BASE, jumpsPerHour: 0, pMin: 1e-9, pMax: 1 - 1e-9 };
    const vol = 0.6;
    const w = walk('vol', p, vol);
    const incs: number[] = [];
    let prev = w.logit();
    for (let m = 1; m <= 20 * 60; m++) {
      w.advanceTo(T0 + m * 60_000);
      incs.push(w.logit() - prev);
      prev = w.logit();
    }
    const mean = incs.reduce((s, x) => s + x, 0) / incs.length;
    const sd = Math.sqrt(incs.reduce((s, x) => s + (x - mean) ** 2, 0) / (incs.length - 1));
    const want = vol * Math.sqrt(1 / 60);
    expect(sd / want).toBeGreaterThan(0.9);
    expect(sd / want).toBeLessThan(1.1);
  });

  it('jumps at the rate it was given', () => {
    const p: LatentParams = {
      ...BASE,
      volMin: 0,
      volMax: 0,
      jumpsPerHour: 6,
      jumpSd: 0.05,
      pMin: 1e-6,
      pMax: 1 - 1e-6,
    };
    const w = walk('jumps', p, 0);
    let moves = 0;
    let prev = w.logit();
    for (let s = 1; s <= 100 * 3600; s++) {
      w.advanceTo(T0 + s * 1_000);
      if (w.logit() !== prev) moves++;
      prev = w.logit();
    }
    // 600 expected (Poisson, sd ≈ 24).
    expect(moves).toBeGreaterThan(520);
    expect(moves).toBeLessThan(680);
  });

  it('set() moves the latent, clamped to the band, and rejects what is not a probability', () => {
    const w = walk('set', BASE);
    w.set(0.8);
    expect(w.value()).toBeCloseTo(0.8, 12);
    w.set(0.999);
    expect(w.logit()).toBeCloseTo(logit(0.97), 12);
    expect(() => w.set(1)).toThrow(OptionError);
    expect(() => w.set(Number.NaN)).toThrow(OptionError);
  });
});

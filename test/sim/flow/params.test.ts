// Flow settings: presets are valid and ordered by intensity, `none` is silent, overrides merge
// field by field and every bad value is reported with its path.
import { describe, expect, it } from 'vitest';
import {
  FLOW_INTENSITIES,
  FlowConfigError,
  flowPreset,
  isSilent,
  parseFlowIntensity,
  resolveFlowParams,
} from '../../../src/sim/flow/params.js';

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FlowConfigError);
    expect((e as FlowConfigError).code).toBe('SIM_FLOW_CONFIG');
    return [...(e as FlowConfigError).problems];
  }
  throw new Error('expected a FlowConfigError');
}

describe('flow params', () => {
  it('every preset resolves as it is, and is frozen', () => {
    for (const i of FLOW_INTENSITIES) {
      const p = resolveFlowParams(i);
      expect(p).toEqual(flowPreset(i));
      expect(p.intensity).toBe(i);
      expect(Object.isFrozen(p)).toBe(true);
      expect(Object.isFrozen(p.latent)).toBe(true);
    }
  });

  it('none is silent and the others are not; rates grow with intensity', () => {
    expect(isSilent(resolveFlowParams('none'))).toBe(true);
    const [low, normal, high] = (['low', 'normal', 'high'] as const).map((i) => resolveFlowParams(i));
    for (const p of [low, normal, high]) expect(isSilent(p!)).toBe(false);
    expect(low!.noise.perMinute).toBeLessThan(normal!.noise.perMinute);
    expect(normal!.noise.perMinute).toBeLessThan(high!.noise.perMinute);
    expect(low!.informed.perMinute).toBeLessThan(normal!.informed.perMinute);
    expect(normal!.informed.perMinute).toBeLessThan(high!.informed.perMinute);
    expect(low!.lp.length).toBeLessThanOrEqual(normal!.lp.length);
    expect(normal!.lp.length).toBeLessThanOrEqual(high!.lp.length);
  });

  it('parses --flow text', () => {
    expect(parseFlowIntensity('none')).toBe('none');
    expect(parseFlowIntensity(' High ')).toBe('high');
    expect(problems(() => parseFlowIntensity('medium'))[0]).toMatch(
      /intensity: expected one of none, low, normal, high, got "medium"/,
    );
  });

  it('merges overrides field by field; lp replaces the list', () => {
    const base = resolveFlowParams('normal');
    const p = resolveFlowParams('normal', { noise: { perMinute: 0 }, latent: { jumpsPerHour: 0 }, lp: [base.lp[0]!] });
    expect(p.noise.perMinute).toBe(0);
    expect(p.noise.sizeMin).toBe(base.noise.sizeMin);
    expect(p.latent.jumpsPerHour).toBe(0);
    expect(p.latent.volMax).toBe(base.latent.volMax);
    expect(p.lp).toHaveLength(1);
    // Overrides can turn `none` into something.
    expect(isSilent(resolveFlowParams('none', { noise: { perMinute: 1 } }))).toBe(false);
  });

  it('reports every bad path and value at once', () => {
    const ps = problems(() =>
      resolveFlowParams('normal', {
        tickMs: 0,
        noise: { perMinute: -1, bogus: 1 },
        informed: { edge: 1.5 },
        lp: [{ halfSpread: 1 }],
      }),
    );
    expect(ps.some((p) => p.startsWith('tickMs:'))).toBe(true);
    expect(ps.some((p) => p.startsWith('noise.perMinute:'))).toBe(true);
    expect(ps).toContain('noise.bogus: unknown key');
    expect(ps.some((p) => p.startsWith('informed.edge:'))).toBe(true);
    expect(ps.some((p) => p.startsWith('lp[0].'))).toBe(true);
  });

  it('checks relations between fields', () => {
    const ps = problems(() =>
      resolveFlowParams('normal', {
        latent: { pMin: 0.6, pMax: 0.4, volMin: 2, volMax: 1 },
        noise: {
          sizeMin: 50_000_000,
          sizeMax: 10_000_000,
          restMinMs: 10,
          restMaxMs: 5,
          fakWeight: 0,
          fokWeight: 0,
          limitWeight: 0,
        },
        informed: { sizeBase: 900_000_000, sizeMax: 10_000_000 },
      }),
    );
    for (const path of [
      'latent.pMin',
      'latent.volMin',
      'noise.sizeMin',
      'noise.restMinMs',
      'noise.fakWeight',
      'informed.sizeBase',
    ]) {
      expect(ps.some((p) => p.startsWith(`${path}:`))).toBe(true);
    }
  });

  it('sizes must be whole lots', () => {
    const ps = problems(() => resolveFlowParams('normal', { noise: { sizeMin: 5_000_001 } }));
    expect(ps[0]).toMatch(/^noise\.sizeMin: must be a multiple of 0\.01 share/);
  });
});

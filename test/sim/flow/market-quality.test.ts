// What the flow is for, measured over simulated hours on the virtual clock at the `normal`
// intensity: books stay two-sided, the YES and NO mids sum to 1 (exactly: the engine mirrors one
// book), the mid tracks the latent, a passive market maker gets filled, and adverse selection is
// real: its fills lose on a 60 s markout when informed traders are on, and do not with noise only.
// The engine's own audit (value conserved, books sound) holds after hours of flow.
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import type { FlowOverrides } from '../../../src/sim/flow/params.js';
import {
  HOUR,
  correlation,
  makeHarness,
  meanMarkout,
  passiveMaker,
  sampleBooks,
  type MakerFill,
  type MarketSpec,
} from './helpers.js';

const MARKETS: readonly MarketSpec[] = [
  { id: 'm-even', probability: 500_000 },
  { id: 'm-fav', probability: 650_000, takerFeeBps: 100 },
  { id: 'm-long', probability: 150_000, tick: 1_000, minSize: 15_000_000 },
];

type Session = ReturnType<typeof session>;

function session(seed: number, overrides: FlowOverrides, hours: number) {
  const h = makeHarness({ seed, overrides, markets: MARKETS });
  const books = sampleBooks(h);
  // Makers in the two markets near the middle, where the latent moves prices most.
  const fills: MakerFill[][] = h.markets.slice(0, 2).map((m) => passiveMaker(h, m));
  h.clock.advance(hours * HOUR);
  return { h, books, fills };
}

describe('synthetic flow over hours (normal)', () => {
  let withInformed: Session;
  let noiseOnly: Session;
  beforeAll(() => {
    withInformed = session(11, {}, 6);
    noiseOnly = session(11, { informed: { perMinute: 0 } }, 6);
  });

  it('keeps every book two-sided nearly all the time', () => {
    const { h, books } = withInformed;
    h.markets.forEach((_, i) => {
      expect(books.n[i]).toBe(6 * 3600);
      expect(books.twoSided[i]! / books.n[i]!).toBeGreaterThan(0.99);
    });
  });

  it('YES and NO mids sum to exactly 1 whenever both exist', () => {
    const { h, books } = withInformed;
    h.markets.forEach((_, i) => {
      expect(books.bothMids[i]).toBe(books.twoSided[i]);
      expect(books.midsSumToOne[i]).toBe(books.bothMids[i]);
    });
  });

  it('the mid tracks the latent', () => {
    for (const { h, books } of [withInformed, noiseOnly]) {
      h.markets.forEach((m, i) => {
        const meanGap = books.absGap[i]! / books.twoSided[i]!;
        expect(meanGap, m.conditionId).toBeLessThan(15_000); // 1.5 cents
        expect(correlation(books.mids[i]!, books.latents[i]!), m.conditionId).toBeGreaterThan(0.9);
      });
    }
  });

  it('the latent really moved, so tracking it means something', () => {
    const { h, books } = withInformed;
    h.markets.forEach((_, i) => {
      const l = books.latents[i]!;
      expect(Math.max(...l) - Math.min(...l)).toBeGreaterThan(50_000);
    });
  });

  it('a passive maker resting near the touch gets filled on both sides', () => {
    for (const { fills } of [withInformed, noiseOnly]) {
      for (const f of fills) {
        expect(f.filter((x) => x.bought).length).toBeGreaterThan(50);
        expect(f.filter((x) => !x.bought).length).toBeGreaterThan(50);
      }
    }
  });

  it('adverse selection: markouts are negative with informed traders, not with noise only', () => {
    const inf = meanMarkout(withInformed.fills.flat());
    const noise = meanMarkout(noiseOnly.fills.flat());
    expect(inf.n).toBeGreaterThan(300);
    expect(noise.n).toBeGreaterThan(150);
    // With noise only the maker keeps about the half-spread it quoted (within a tick of zero) ...
    expect(Math.abs(noise.mean)).toBeLessThan(10_000);
    // ... with informed traders on, the mid runs through its fills and it loses.
    expect(inf.mean).toBeLessThan(0);
    expect(inf.mean - noise.mean).toBeLessThan(-5_000);
    // The same, on the move of the mid alone (spread excluded).
    expect(inf.drift - noise.drift).toBeLessThan(-5_000);
    // Informed traders do trade: a large share of the maker's fills comes with them.
    expect(inf.n).toBeGreaterThan(1.5 * noise.n);
  });

  it('the flow traded as designed, without top-ups, and the engine is sound', () => {
    for (const { h } of [withInformed, noiseOnly]) {
      const st = h.flow.stats();
      expect(st.byRole.lp.submitted).toBeGreaterThan(0);
      expect(st.byRole.noise.accepted).toBeGreaterThan(0);
      // Only the taker rules a thin book can trip: never off-tick, unfunded, crossing post-only.
      for (const code of Object.keys(st.rejectedByCode)) expect(['FOK_NOT_FILLED', 'FAK_NO_MATCH']).toContain(code);
      expect(st.rejected).toBeLessThan(st.byRole.noise.submitted * 0.05);
      expect(st.takerFills).toBeGreaterThan(0);
      expect(st.makerFills).toBeGreaterThan(0);
      expect(auditEngine(h.engine)).toEqual([]);
    }
    expect(withInformed.h.flow.stats().byRole.informed.accepted).toBeGreaterThan(100);
    expect(noiseOnly.h.flow.stats().byRole.informed.submitted).toBe(0);
  });
});

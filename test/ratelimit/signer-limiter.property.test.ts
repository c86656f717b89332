// Property test of the per-signer buckets in MemoryRateLimiter on the virtual clock: over random
// arrivals (immediate tries and queued acquires), routes, batch sizes and tiers, the tokens admitted
// in any interval never exceed the exchange's burst + rate × its length (checked pairwise, exactly,
// against the published figures, not the limiter's own), and a request is charged whole or not at
// all (the modelled balance drops by exactly its tokens, or not at all).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import {
  SIGNER_TIER_TABLE,
  SIGNER_TIERS,
  type SignerBucketKind,
  type SignerTier,
} from '../../src/ratelimit/signer-tiers.js';

const ROUTES = [
  'POST /order',
  'POST /orders',
  'DELETE /order',
  'DELETE /orders',
  'DELETE /cancel-all',
  'DELETE /cancel-market-orders',
] as const;
type Route = (typeof ROUTES)[number];
const KIND: Record<Route, SignerBucketKind> = {
  'POST /order': 'order',
  'POST /orders': 'order',
  'DELETE /order': 'cancel',
  'DELETE /orders': 'cancel',
  'DELETE /cancel-all': 'cancel',
  'DELETE /cancel-market-orders': 'cancel',
};

interface Step {
  dt: number;
  route: Route;
  size: number;
  queue: boolean;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  dt: fc.oneof(
    { arbitrary: fc.constant(0), weight: 3 },
    { arbitrary: fc.integer({ min: 0, max: 40 }), weight: 2 },
    { arbitrary: fc.integer({ min: 0, max: 2000 }), weight: 1 },
  ),
  route: fc.constantFrom(...ROUTES),
  size: fc.integer({ min: 1, max: 60 }),
  queue: fc.boolean(),
});

/** Largest tokens admitted in any interval [a, b] of admission times, minus burst + rate × (b − a), in millitokens; ≤ 0 is conforming. */
function worstExcess(adm: readonly { at: number; tokens: number }[], rate: number, burst: number): number {
  const xs = [...adm].sort((a, b) => a.at - b.at);
  let worst = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < xs.length; i++) {
    let sum = 0;
    for (let j = i; j < xs.length; j++) {
      sum += (xs[j] as { tokens: number }).tokens;
      const len = (xs[j] as { at: number }).at - (xs[i] as { at: number }).at;
      const excess = sum * 1000 - (burst * 1000 + rate * len);
      if (excess > worst) worst = excess;
    }
  }
  return worst;
}

describe('per-signer buckets, property', () => {
  it('never admit more than burst + rate × elapsed in any interval, and charge batches whole or not at all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<SignerTier>(...SIGNER_TIERS),
        fc.constantFrom(0, 50, 200),
        fc.array(stepArb, { minLength: 20, maxLength: 300, size: 'max' }),
        async (tier, marginMs, steps) => {
          const clock = new VirtualClock();
          const lim = new MemoryRateLimiter({ clock, config: { signerTier: tier, marginMs } });
          const adm: Record<SignerBucketKind, { at: number; tokens: number }[]> = { order: [], cancel: [] };
          const pending: Promise<void>[] = [];
          for (const s of steps) {
            clock.advance(s.dt);
            const kind = KIND[s.route];
            const idx = kind === 'order' ? 0 : 1;
            const cap = lim.signerState()[idx]?.capacity ?? 1;
            const single = s.route === 'POST /order' || s.route === 'DELETE /order';
            const tokens = single ? 1 : 1 + ((s.size - 1) % cap);
            const priority = kind === 'cancel' ? 'cancel' : 'new';
            if (s.queue) {
              pending.push(
                lim.acquire(s.route, { priority, tokens }).then((p) => {
                  adm[kind].push({ at: p.sentAt, tokens });
                }),
              );
              continue;
            }
            const before = lim.signerState()[idx]?.tokens ?? 0;
            const p = lim.tryAcquire(s.route, { priority, tokens });
            const after = lim.signerState()[idx]?.tokens ?? 0;
            if (p === null) expect(after).toBe(before);
            else {
              expect(before - after).toBe(tokens);
              adm[kind].push({ at: p.sentAt, tokens });
            }
          }
          // Drain the queue on the virtual clock.
          for (let i = 0; i < 200 && lim.queueDepth().total > 0; i++) clock.advance(1000);
          expect(lim.queueDepth().total).toBe(0);
          await Promise.all(pending);
          const spec = SIGNER_TIER_TABLE[tier];
          expect(worstExcess(adm.order, spec.order.rate, spec.order.burst)).toBeLessThanOrEqual(0);
          expect(worstExcess(adm.cancel, spec.cancel.rate, spec.cancel.burst)).toBeLessThanOrEqual(0);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

// The daemon's rate-limiter settings from config (src/runtime/limits.ts rateLimitFromConfig): the
// per-signer tier defaults by dialect (standard for polymarket, whose exchange has the buckets; off
// for spec, whose venue has none), and an explicit rateLimit.signerTier always wins.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { VirtualClock } from '../../src/core/clock.js';
import { createRateLimiter } from '../../src/ratelimit/index.js';
import { rateLimitFromConfig } from '../../src/runtime/limits.js';

function tierOf(dialect: 'spec' | 'polymarket', signerTier?: string): unknown {
  const config = configSchema.parse({
    exchange: { dialect },
    ...(signerTier === undefined ? {} : { rateLimit: { signerTier } }),
  });
  return rateLimitFromConfig(config).signerTier;
}

describe('rateLimitFromConfig: the per-signer tier by dialect', () => {
  it('defaults to standard for polymarket and off for spec', () => {
    expect(tierOf('polymarket')).toBe('standard');
    expect(tierOf('spec')).toBe('off');
  });

  it('keeps an explicit tier, off included, whatever the dialect', () => {
    expect(tierOf('spec', 'gold')).toBe('gold');
    expect(tierOf('polymarket', 'off')).toBe('off');
    expect(tierOf('polymarket', 'silver')).toBe('silver');
  });

  it('reaches the limiter built from it', async () => {
    const clock = new VirtualClock();
    const spec = await createRateLimiter({
      clock,
      config: rateLimitFromConfig(configSchema.parse({ exchange: { dialect: 'spec' } })),
    });
    const poly = await createRateLimiter({
      clock,
      config: rateLimitFromConfig(configSchema.parse({ exchange: { dialect: 'polymarket' } })),
    });
    expect([spec.signerTier?.(), poly.signerTier?.()]).toEqual([null, 'standard']);
    await spec.close();
    await poly.close();
  });
});

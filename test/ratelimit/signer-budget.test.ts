// The per-signer buckets in MemoryRateLimiter, on the virtual clock: the tier's burst and rate,
// batches whole or not at all, order and cancel buckets apart, windows AND bucket, cancel-all's
// overdraw, the margin's reserve, adoption of what the exchange reports, and the config key.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { RateLimitConfigError, RateLimitRouteError } from '../../src/ratelimit/errors.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/config.js';
import { parseSignerHeaders, signerTokensFor, type SignerStatus } from '../../src/ratelimit/signer-tiers.js';
import type { Permit } from '../../src/ratelimit/types.js';
import { configSchema } from '../../src/config/schema.js';

function make(config: RateLimitConfigInput = {}): { clock: VirtualClock; lim: MemoryRateLimiter } {
  const clock = new VirtualClock();
  return { clock, lim: new MemoryRateLimiter({ clock, config: { marginMs: 0, ...config } }) };
}

function singles(lim: MemoryRateLimiter, route: string, n: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++)
    if (lim.tryAcquire(route, { priority: route.startsWith('DELETE') ? 'cancel' : 'new' }) !== null) ok++;
  return ok;
}

function status(s: Partial<SignerStatus>): SignerStatus {
  return { remaining: null, resetAtMs: null, tier: null, warning: false, refused: false, ...s };
}

describe('per-signer buckets in the memory limiter', () => {
  it('defaults to the standard tier: a burst of 60 orders, then one every 25 ms (40 / s)', () => {
    const { clock, lim } = make();
    expect(lim.signerTier()).toBe('standard');
    expect(singles(lim, 'POST /order', 100)).toBe(60);
    expect(lim.peekWaitMs('POST /order')).toBe(25);
    clock.advance(24);
    expect(singles(lim, 'POST /order', 1)).toBe(0);
    clock.advance(1);
    expect(singles(lim, 'POST /order', 2)).toBe(1);
    clock.advance(1000);
    expect(singles(lim, 'POST /order', 100)).toBe(40);
  });

  it('keeps the order and cancel buckets apart (cancel: burst 120, 80 / s)', () => {
    const { lim } = make();
    expect(singles(lim, 'POST /order', 60)).toBe(60);
    expect(singles(lim, 'DELETE /order', 200)).toBe(120);
    expect(lim.peekWaitMs('DELETE /order', { priority: 'cancel' })).toBe(13); // 1 token at 80 / s: 12.5 ms, rounded up
  });

  it('admits a batch whole or not at all, and only when every token of it is there', async () => {
    const { clock, lim } = make();
    expect(singles(lim, 'POST /order', 55)).toBe(55);
    expect(lim.tryAcquire('POST /orders', { priority: 'new', tokens: 10 })).toBeNull();
    expect(lim.signerState()[0]?.tokens).toBe(5); // nothing of the batch was taken
    expect(lim.peekWaitMs('POST /orders', { tokens: 10 })).toBe(125);
    const p = lim.acquire('POST /orders', { priority: 'new', tokens: 10 });
    let got: Permit | null = null;
    void p.then((x) => {
      got = x;
    });
    clock.advance(124);
    await Promise.resolve();
    expect(got).toBeNull();
    clock.advance(1);
    await Promise.resolve();
    expect((got as Permit | null)?.waitedMs).toBe(125);
    expect(lim.signerState()[0]?.tokens).toBe(0);
  });

  it('refuses at once a batch that costs more than the bucket can ever hold', () => {
    const { lim } = make();
    expect(() => lim.tryAcquire('POST /orders', { priority: 'new', tokens: 61 })).toThrow(RateLimitRouteError);
    expect(() => lim.tryAcquire('DELETE /orders', { priority: 'cancel', tokens: 121 })).toThrow(
      /split it into batches of 120 or fewer/,
    );
    expect(() => lim.tryAcquire('POST /orders', { priority: 'new', tokens: 0 })).toThrow(RateLimitRouteError);
    // A prediction may cover several requests: more tokens than a bucket holds wait for the refill.
    expect(lim.peekWaitMs('POST /orders', { tokens: 100 })).toBe(1000); // 60 now, 40 more at 40 / s
  });

  it('keeps a reserve of rate × margin tokens for latency jitter', () => {
    const { lim } = make({ marginMs: 200 });
    // 40 / s × 0.2 s = 8 tokens of the 60 stay unspent; the cancel bucket keeps 16 of 120.
    expect(singles(lim, 'POST /order', 100)).toBe(52);
    expect(singles(lim, 'DELETE /order', 200)).toBe(104);
    expect([lim.signerCapacity('order'), lim.signerCapacity('cancel')]).toEqual([52, 104]);
    expect(() => lim.tryAcquire('POST /orders', { priority: 'new', tokens: 53 })).toThrow(/at most 52/);
  });

  it('admits a request only when its windows AND its bucket have room', () => {
    // Windows of 5 / 1 s on POST /order: the window binds before the bucket of 60.
    const { clock, lim } = make({
      budgets: { buckets: { 'clob POST /order': [{ limit: 5, windowMs: 1000 }] } },
    });
    expect(singles(lim, 'POST /order', 10)).toBe(5);
    expect(lim.signerState()[0]?.tokens).toBe(55);
    clock.advance(1000); // the bucket is full again (60), the window empty
    // A batch counts once in the window but 25 tokens in the bucket: the bucket binds now.
    expect(lim.tryAcquire('POST /orders', { priority: 'new', tokens: 25 })).not.toBeNull();
    expect(lim.tryAcquire('POST /orders', { priority: 'new', tokens: 25 })).not.toBeNull();
    expect(lim.tryAcquire('POST /orders', { priority: 'new', tokens: 25 })).toBeNull(); // 10 tokens left, 3 window slots
    expect(lim.signerState()[0]?.tokens).toBe(10);
  });

  it('lets a cancel-all through on a full bucket even when 1 + its open orders exceed it, and waits out the debt after', () => {
    const { clock, lim } = make();
    expect(lim.tryAcquire('DELETE /cancel-all', { priority: 'cancel', tokens: 1 + 200 })).not.toBeNull();
    expect(lim.signerState()[1]?.tokens).toBe(120 - 201);
    expect(singles(lim, 'DELETE /order', 1)).toBe(0);
    // 82 tokens to repay before one is there: 82 / 80 s.
    expect(lim.peekWaitMs('DELETE /order', { priority: 'cancel' })).toBe(1025);
    clock.advance(1025);
    expect(singles(lim, 'DELETE /order', 2)).toBe(1);
  });

  it('holds tokens for a blocked batch against later requests of lower priority', async () => {
    const { clock, lim } = make();
    expect(singles(lim, 'POST /order', 60)).toBe(60);
    const order: string[] = [];
    void lim.acquire('POST /orders', { priority: 'replace', tokens: 10 }).then(() => order.push('replace batch'));
    void lim.acquire('POST /order', { priority: 'new' }).then(() => order.push('new single'));
    clock.advance(25); // one token: the single would fit, but the batch holds it
    await Promise.resolve();
    expect(order).toEqual([]);
    clock.advance(225);
    await Promise.resolve();
    expect(order).toEqual(['replace batch']);
    clock.advance(25);
    await Promise.resolve();
    expect(order).toEqual(['replace batch', 'new single']);
  });

  it('takes a lower balance from the exchange, never a higher one', () => {
    const { lim } = make();
    expect(singles(lim, 'POST /order', 10)).toBe(10);
    lim.observeSigner('POST /order', status({ remaining: 59 }));
    expect(lim.signerState()[0]?.tokens).toBe(50);
    lim.observeSigner('POST /order', status({ remaining: 3 }));
    expect(lim.signerState()[0]?.tokens).toBe(3);
    expect(singles(lim, 'POST /order', 10)).toBe(3);
    expect(lim.signerState()[1]?.tokens).toBe(120); // the cancel bucket is untouched
  });

  it('waits until the reset after a refusal', () => {
    const { clock, lim } = make();
    lim.observeSigner('DELETE /order', status({ remaining: 0, resetAtMs: clock.now() + 2000, refused: true }));
    expect(lim.peekWaitMs('DELETE /order', { priority: 'cancel' })).toBe(2000);
    clock.advance(1999);
    expect(singles(lim, 'DELETE /order', 1)).toBe(0);
    clock.advance(1);
    expect(singles(lim, 'DELETE /order', 1)).toBe(1);
  });

  it('adopts the tier the exchange reports, keeping the balance, and ignores a name it does not know', () => {
    const { clock, lim } = make({ signerTier: 'standard' });
    expect(singles(lim, 'POST /order', 60)).toBe(60);
    const h = parseSignerHeaders({ 'poly-ratelimit-tier': 'Silver', 'poly-ratelimit-remaining': '0' }, 200);
    expect(h).not.toBeNull();
    lim.observeSigner('POST /order', h as SignerStatus);
    expect(lim.signerTier()).toBe('silver');
    expect(singles(lim, 'POST /order', 1)).toBe(0); // no free burst on an upgrade
    clock.advance(1000);
    expect(singles(lim, 'POST /order', 400)).toBe(200); // silver: 200 / s, burst 300
    lim.observeSigner('GET /v1/user/rate-limit-tier', status({ tier: null }));
    lim.observeSigner('POST /order', parseSignerHeaders({ 'poly-ratelimit-tier': 'mythril' }, 200) as SignerStatus);
    expect(lim.signerTier()).toBe('silver');
  });

  it('reads the tier from config, and signerTier off meters nothing', () => {
    expect(make({ signerTier: 'gold' }).lim.signerState()[0]).toMatchObject({ capacity: 600, rate: 400 });
    const { lim } = make({ signerTier: 'off' });
    expect(lim.signerTier()).toBeNull();
    expect(singles(lim, 'POST /order', 500)).toBe(500);
  });

  it('refuses an unknown tier with an error naming the path', () => {
    expect(() => make({ signerTier: 'platinium' as never })).toThrow(RateLimitConfigError);
    expect(() => make({ signerTier: 'platinium' as never })).toThrow(/ratelimit\.signerTier/);
    const r = configSchema.safeParse({ rateLimit: { signerTier: 'platinium' } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues[0]?.path)).toBe('["rateLimit","signerTier"]');
  });

  it('parses the Poly-RateLimit-* headers of a fetch response', () => {
    const h = new Headers({
      'Poly-RateLimit-Remaining': '-2',
      'Poly-RateLimit-Reset': '1784913054',
      'Poly-RateLimit-Tier': 'standard',
      'Retry-After': '3',
    });
    expect(parseSignerHeaders(h, 429)).toEqual({
      remaining: -2,
      resetAtMs: 1_784_913_054_000,
      tier: 'standard',
      warning: false,
      refused: true,
    });
    expect(parseSignerHeaders(new Headers({ 'content-type': 'application/json' }), 200)).toBeNull();
    expect(parseSignerHeaders(new Headers({ 'Poly-RateLimit-Warning': 'true' }), 200)?.warning).toBe(true);
  });

  it('reads the tokens of a request from its route and body bytes', () => {
    expect(signerTokensFor('POST /orders', JSON.stringify([{}, {}, {}]))).toBe(3);
    expect(signerTokensFor('DELETE /orders', JSON.stringify(['0x1', '0x1']))).toBe(2); // submitted ids, duplicates too
    expect(signerTokensFor('POST /order', '{}')).toBe(1);
    expect(signerTokensFor('DELETE /cancel-all', undefined)).toBe(1);
    expect(signerTokensFor('POST /orders', 'not json')).toBeUndefined();
    expect(signerTokensFor('GET /book', undefined)).toBeUndefined();
  });
});

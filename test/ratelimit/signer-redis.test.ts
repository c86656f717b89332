// The per-signer buckets in the Redis-backed limiter, against a real redis-server started by this
// file (127.0.0.1, random port), on the virtual clock: two processes sharing a prefix spend one
// bucket (never more than burst + rate × elapsed together), batches whole or not at all, the same
// waits as the memory limiter, and what one process hears from the exchange (a lower balance, a
// refusal's reset) holds for both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { RateLimitRouteError } from '../../src/ratelimit/errors.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/config.js';
import { redisAvailable, startRedis, type RedisHandle } from './support/redis-server.js';
import { drive, settle } from './support/redis-drive.js';

const HAVE_REDIS = redisAvailable();
if (!HAVE_REDIS)
  console.warn('redis-server not installed: Redis signer-bucket tests skipped (CI installs it via .ci/run)');

const CONFIG: RateLimitConfigInput = { marginMs: 0 };

describe.skipIf(!HAVE_REDIS)('RedisRateLimiter per-signer buckets', () => {
  let server: RedisHandle;
  let seq = 0;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function limiters(
    n: number,
    clock: VirtualClock,
    config: RateLimitConfigInput = CONFIG,
  ): Promise<RedisRateLimiter[]> {
    const keyPrefix = `s${process.pid}-${seq++}`;
    const out: RedisRateLimiter[] = [];
    for (let i = 0; i < n; i++)
      out.push(new RedisRateLimiter({ clock, redis: await server.client(), config, keyPrefix }));
    return out;
  }

  it('two processes share one order bucket: 60 at once between them, then 40 / s', async () => {
    const clock = new VirtualClock();
    const [a, b] = (await limiters(2, clock)) as [RedisRateLimiter, RedisRateLimiter];
    const sent: { at: number; tokens: number }[] = [];
    let stop = false;
    const worker = async (lim: RedisRateLimiter, tokens: number): Promise<void> => {
      while (!stop) {
        let p;
        try {
          p = await lim.acquire(tokens === 1 ? 'POST /order' : 'POST /orders', { priority: 'new', tokens });
        } catch {
          return;
        }
        sent.push({ at: p.sentAt, tokens });
      }
    };
    const ws = [worker(a, 1), worker(b, 7), worker(a, 5), worker(b, 1)];
    const t0 = clock.now();
    await drive(clock, [a, b], t0 + 10_000);
    stop = true;
    await Promise.all([a.close(), b.close()]);
    await Promise.all(ws);
    const total = sent.reduce((n, s) => n + s.tokens, 0);
    // At most the burst plus 10 s of refill; the workers keep it saturated, so nearly all of it.
    expect(total).toBeLessThanOrEqual(60 + 400);
    expect(total).toBeGreaterThanOrEqual(60 + 400 - 7);
    // Any interval: never more than burst + rate × its length.
    const xs = [...sent].sort((x, y) => x.at - y.at);
    for (let i = 0; i < xs.length; i++) {
      let sum = 0;
      for (let j = i; j < xs.length; j++) {
        sum += (xs[j] as { tokens: number }).tokens;
        expect(sum * 1000).toBeLessThanOrEqual(
          60_000 + 40 * ((xs[j] as { at: number }).at - (xs[i] as { at: number }).at),
        );
      }
    }
  });

  it('predicts the same waits as the memory limiter, batches included', async () => {
    const clock = new VirtualClock();
    const [red] = (await limiters(1, clock)) as [RedisRateLimiter];
    const mclock = new VirtualClock();
    const mem = new MemoryRateLimiter({ clock: mclock, config: CONFIG });
    for (const [route, tokens, gap] of [
      ['POST /orders', 15, 0],
      ['POST /orders', 15, 0],
      ['POST /orders', 15, 0],
      ['POST /order', 1, 3],
      ['POST /orders', 14, 0],
      ['DELETE /orders', 100, 0],
      ['DELETE /orders', 30, 40],
      ['DELETE /cancel-all', 200, 500],
    ] as const) {
      clock.advance(gap);
      mclock.advance(gap);
      const q = { priority: route.startsWith('DELETE') ? ('cancel' as const) : ('new' as const), tokens };
      expect(await red.wouldWaitMs(route, q)).toBe(mem.peekWaitMs(route, q));
      const m = mem.tryAcquire(route, q);
      if (m !== null) expect((await red.acquire(route, q)).sentAt).toBe(clock.now());
    }
    expect(() => mem.tryAcquire('POST /orders', { priority: 'new', tokens: 61 })).toThrow(RateLimitRouteError);
    await expect(red.acquire('POST /orders', { priority: 'new', tokens: 61 })).rejects.toThrow(RateLimitRouteError);
    await red.close();
  });

  it('shares what one process hears from the exchange: a lower balance, and a refusal until its reset', async () => {
    const clock = new VirtualClock();
    const [a, b] = (await limiters(2, clock)) as [RedisRateLimiter, RedisRateLimiter];
    a.observeSigner('POST /order', { remaining: 4, resetAtMs: null, tier: null, warning: false, refused: false });
    await settle([a, b]);
    expect(await b.wouldWaitMs('POST /orders', { tokens: 5 })).toBe(25);
    b.observeSigner('DELETE /order', {
      remaining: 0,
      resetAtMs: clock.now() + 3000,
      tier: null,
      warning: false,
      refused: true,
    });
    await settle([a, b]);
    expect(await a.wouldWaitMs('DELETE /order', { priority: 'cancel' })).toBe(3000);
    a.observeSigner('POST /order', {
      remaining: null,
      resetAtMs: null,
      tier: 'silver',
      warning: false,
      refused: false,
    });
    expect(a.signerTier()).toBe('silver');
    await Promise.all([a.close(), b.close()]);
  });
});

// The Redis-backed limiter when its redis-server dies under it and comes back (a real server started
// by this file on a free 127.0.0.1 port, SIGKILLed, restarted on the same port): it fails closed
// (queued and new requests of every priority refused with RATE_LIMIT_STORE, nothing admitted),
// health() says why, the loss and the recovery are each reported once however many reconnect
// attempts happen meanwhile, ioredis never prints an unhandled 'error' event, and requests are
// admitted again once Redis is back. A Redis that hangs (SIGSTOP) fails admissions after the
// command timeout and is found back by the next admission once it answers (SIGCONT). Every wait is on an event (health change, reconnect attempt)
// under the test's timeout; nothing sleeps.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import type { BackendHealth } from '../../src/ratelimit/backend-health.js';
import { createRateLimiter, RateLimitStoreError, type RateLimiter } from '../../src/ratelimit/index.js';
import { connectRedis } from '../../src/ratelimit/redis-connect.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { redisAvailable, startRedis, type RedisHandle } from './support/redis-server.js';

const HAVE_REDIS = redisAvailable();
if (!HAVE_REDIS) console.warn('redis-server not installed: Redis outage tests skipped (CI installs it via .ci/run)');

/** One window of 1 send per minute on POST /order: a second placement queues behind the first. */
const TINY = {
  marginMs: 0,
  budgets: {
    replace: true,
    buckets: {
      general: [{ limit: 100, windowMs: 1000 }],
      post: [{ limit: 1, windowMs: 60_000 }],
      del: [{ limit: 100, windowMs: 1000 }],
    },
    general: { clob: 'general' },
    routes: { 'clob POST /order': ['post'], 'clob DELETE /order': ['del'] },
  },
};

/** Health transitions, and a way to wait for the next one. */
class HealthLog {
  readonly seen: BackendHealth[] = [];
  private waiters: Array<(h: BackendHealth) => void> = [];
  readonly listener = (h: BackendHealth): void => {
    this.seen.push(h);
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(h);
  };
  next(): Promise<BackendHealth> {
    return new Promise((r) => {
      this.waiters.push(r);
    });
  }
}

describe.skipIf(!HAVE_REDIS)('RedisRateLimiter when Redis goes away', () => {
  let server: RedisHandle;
  const consoleErrors = vi.spyOn(console, 'error');
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    // ioredis prints "[ioredis] Unhandled error event" through console.error: never.
    expect(consoleErrors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('ioredis'))).toEqual([]);
  });

  it('fails closed while Redis is down, says why once, and admits again once it is back', async () => {
    const clock = new SystemClock();
    const health = new HealthLog();
    const url = server.url;
    const config = {
      ...TINY,
      backend: {
        kind: 'redis' as const,
        url,
        keyPrefix: `outage${process.pid}`,
        connectTimeoutMs: 2000,
        commandTimeoutMs: 1000,
      },
    };
    // The limiter's own client, as createRateLimiter builds it, watched here for reconnect attempts.
    const redis = await connectRedis({ url, connectTimeoutMs: 2000, commandTimeoutMs: 1000 });
    const limiter = new RedisRateLimiter({ clock, redis, config, ownsClient: true, onHealth: health.listener });
    try {
      expect(limiter.health()).toEqual({ ok: true });
      (await limiter.acquire('POST /order', { priority: 'new' })).release();
      // The route's one send per minute is spent: the next placement queues.
      const queued = limiter.acquire('POST /order', { priority: 'new' });
      queued.catch(() => undefined);
      expect(await limiter.wouldWaitMs('POST /order')).toBeGreaterThan(50_000);

      const lost = health.next();
      await server.kill();
      const down = await lost;
      expect(down).toMatchObject({
        ok: false,
        reason: expect.stringMatching(new RegExp(`^Redis at 127\\.0\\.0\\.1:${server.port}`)),
      });
      expect(limiter.health()).toMatchObject({ ok: false });

      // Fail closed: the queued request fails at once, and nothing new is admitted, cancels included.
      await expect(queued).rejects.toBeInstanceOf(RateLimitStoreError);
      for (const p of ['cancel', 'replace', 'new', 'read'] as const) {
        await expect(limiter.acquire('DELETE /order', { priority: p })).rejects.toMatchObject({
          code: 'RATE_LIMIT_STORE',
        });
      }
      await expect(limiter.wouldWaitMs('DELETE /order')).rejects.toMatchObject({ code: 'RATE_LIMIT_STORE' });
      expect(limiter.queueDepth().total).toBe(0);

      // Several reconnect attempts fail meanwhile: still one loss reported.
      for (let i = 0; i < 3; i++)
        await new Promise<void>((r) => {
          redis.once('reconnecting', () => r());
        });
      await expect(limiter.acquire('DELETE /order', { priority: 'cancel' })).rejects.toMatchObject({
        code: 'RATE_LIMIT_STORE',
      });
      expect(health.seen).toHaveLength(1);

      const back = health.next();
      await server.restart();
      expect(await back).toEqual({ ok: true });
      expect(limiter.health()).toEqual({ ok: true });
      // The restarted server is empty: the placement budget is there again.
      (await limiter.acquire('POST /order', { priority: 'new' })).release();
      (await limiter.acquire('DELETE /order', { priority: 'cancel' })).release();
      expect(health.seen.map((h) => h.ok)).toEqual([false, true]);
    } finally {
      await limiter.close();
    }
    // Closed for good: no reconnect attempt keeps the process alive.
    if (redis.status !== 'end')
      await new Promise<void>((r) => {
        redis.once('end', () => r());
      });
  });

  it('fails closed after commandTimeoutMs when Redis hangs, and recovers on the next answered script', async () => {
    const health = new HealthLog();
    const limiter = await createRateLimiter({
      clock: new SystemClock(),
      onHealth: health.listener,
      config: {
        ...TINY,
        backend: { kind: 'redis', url: server.url, keyPrefix: `hang${process.pid}`, commandTimeoutMs: 300 },
      },
    });
    try {
      (await limiter.acquire('DELETE /order', { priority: 'cancel' })).release();
      server.freeze();
      const lost = health.next();
      const t0 = performance.now();
      await expect(limiter.acquire('DELETE /order', { priority: 'cancel' })).rejects.toMatchObject({
        code: 'RATE_LIMIT_STORE',
        message: expect.stringMatching(/timed out/),
      });
      expect(performance.now() - t0).toBeLessThan(5_000); // bounded by the command timeout, not by Redis
      expect(await lost).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^Redis at 127\.0\.0\.1:\d+: rate-limit store failed: Command timed out/),
      });
      server.thaw();
      // The connection never dropped: the next admission is the probe that finds it back.
      const back = health.next();
      (await limiter.acquire('DELETE /order', { priority: 'cancel' })).release();
      expect(await back).toEqual({ ok: true });
      expect(health.seen.map((h) => h.ok)).toEqual([false, true]);
    } finally {
      server.thaw();
      await limiter.close();
    }
  });

  it('reports nothing on an orderly close', async () => {
    const health = new HealthLog();
    const limiter: RateLimiter = await createRateLimiter({
      clock: new SystemClock(),
      onHealth: health.listener,
      config: { ...TINY, backend: { kind: 'redis', url: server.url, keyPrefix: `close${process.pid}` } },
    });
    (await limiter.acquire('DELETE /order', { priority: 'cancel' })).release();
    await limiter.close();
    expect(health.seen).toEqual([]);
    expect(limiter.health?.()).toEqual({ ok: true });
  });
});

// The Redis-backed limiter against a real redis-server started by this file (127.0.0.1, random
// port, no persistence), on the virtual clock: several limiters sharing one key prefix act as one
// budget, decisions equal the in-memory limiter's, a 429 pauses every process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { SystemClock, VirtualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { createRateLimiter } from '../../src/ratelimit/index.js';
import { RateLimitStoreError, RateLimitWaitError } from '../../src/ratelimit/errors.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/config.js';
import type { Priority } from '../../src/ratelimit/types.js';
import { checkWindow } from './support/checker.js';
import { redisAvailable, startRedis, type RedisHandle } from './support/redis-server.js';
import { drive, settle } from './support/redis-drive.js';

const HAVE_REDIS = redisAvailable();
if (!HAVE_REDIS) console.warn('redis-server not installed: Redis limiter tests skipped (CI installs it via .ci/run)');

const SMALL: RateLimitConfigInput = {
  marginMs: 0,
  budgets: {
    replace: true,
    buckets: {
      general: [{ limit: 40, windowMs: 1000 }],
      post: [
        { limit: 24, windowMs: 1000 },
        { limit: 100, windowMs: 10_000 },
      ],
      del: [
        { limit: 24, windowMs: 1000 },
        { limit: 100, windowMs: 10_000 },
      ],
      book: [{ limit: 10, windowMs: 1000 }],
    },
    general: { clob: 'general' },
    routes: {
      'clob POST /order': ['post'],
      'clob POST /orders': ['post'],
      'clob DELETE /order': ['del'],
      'clob GET /book': ['book'],
    },
  },
};

describe.skipIf(!HAVE_REDIS)('RedisRateLimiter', () => {
  let server: RedisHandle;
  let prefixSeq = 0;
  const prefix = (): string => `t${process.pid}-${prefixSeq++}`;

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function limiters(
    n: number,
    clock: VirtualClock | SystemClock,
    config: RateLimitConfigInput,
    extra: { timeSource?: 'clock' | 'server' } = {},
  ): Promise<RedisRateLimiter[]> {
    const keyPrefix = prefix();
    const out: RedisRateLimiter[] = [];
    for (let i = 0; i < n; i++)
      out.push(new RedisRateLimiter({ clock, redis: await server.client(), config, keyPrefix, ...extra }));
    return out;
  }

  it('admits the same requests at the same times as the in-memory limiter', async () => {
    const clock = new VirtualClock();
    const [red] = (await limiters(1, clock, SMALL)) as [RedisRateLimiter];
    const mclock = new VirtualClock();
    const mem = new MemoryRateLimiter({ clock: mclock, config: SMALL });
    const routes = ['POST /order', 'POST /orders', 'DELETE /order', 'GET /book', 'GET /sampling-markets'] as const;
    // Sequential requests (each awaited): the decisions depend only on the windows.
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 400; i++) {
      const gap = rnd(4) === 0 ? rnd(400) : 0;
      const route = routes[rnd(routes.length)] as string;
      const cost = 1 + rnd(2);
      clock.advance(gap);
      mclock.advance(gap);
      const r = red.wouldWaitMs(route, { cost });
      const m = mem.peekWaitMs(route, { cost });
      expect(await r).toBe(m);
      const mp = mem.tryAcquire(route, { priority: 'new', cost });
      if (mp !== null) {
        const rp = await red.acquire(route, { priority: 'new', cost });
        expect(rp.sentAt - clock.now()).toBe(0);
      }
    }
    const um = mem.peekUtilisation('POST /order');
    const ur = await red.utilisation('POST /order');
    expect(ur.windows).toEqual(um.windows);
  });

  it('two processes sharing a prefix never exceed any window together (random arrivals, priorities, costs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            who: fc.integer({ min: 0, max: 1 }),
            gap: fc.integer({ min: 0, max: 60 }),
            n: fc.integer({ min: 1, max: 12 }),
            route: fc.constantFrom('POST /order', 'POST /orders', 'DELETE /order', 'GET /book'),
            priority: fc.constantFrom<Priority>('cancel', 'replace', 'new', 'read'),
            cost: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 20, maxLength: 50 },
        ),
        async (arrivals) => {
          const clock = new VirtualClock();
          const lims = await limiters(2, clock, SMALL);
          // Closed whatever happens, so a failing run leaves no limiter polling a closed connection.
          try {
            const post: number[] = [];
            const del: number[] = [];
            const book: number[] = [];
            const general: number[] = [];
            let outstanding = 0;
            for (const a of arrivals) {
              await drive(clock, lims, clock.now() + a.gap);
              for (let i = 0; i < a.n; i++) {
                outstanding++;
                void (lims[a.who] as RedisRateLimiter)
                  .acquire(a.route, { priority: a.priority, cost: a.cost })
                  .then((p) => {
                    for (let c = 0; c < a.cost; c++) {
                      general.push(p.sentAt);
                      if (a.route === 'DELETE /order') del.push(p.sentAt);
                      else if (a.route === 'GET /book') book.push(p.sentAt);
                      else post.push(p.sentAt);
                    }
                  })
                  .finally(() => {
                    outstanding--;
                  });
              }
            }
            await drive(clock, lims, clock.now() + 60_000);
            expect(outstanding).toBe(0);
            for (const [times, limit, w] of [
              [post, 24, 1000],
              [post, 100, 10_000],
              [del, 24, 1000],
              [del, 100, 10_000],
              [book, 10, 1000],
              [general, 40, 1000],
            ] as const)
              expect(checkWindow(times, limit, w).violations).toBe(0);
          } finally {
            await Promise.all(lims.map((l) => l.close()));
          }
        },
      ),
      { numRuns: 6 },
    );
    // Real Redis round trips for every admission: bounded by its own timeout, not the default.
  }, 180_000);

  it('holds table 8 across two processes at saturation for 11 virtual minutes', async () => {
    const clock = new VirtualClock();
    // The windows alone: the per-signer buckets have their own tests (signer-redis.test.ts).
    const lims = await limiters(2, clock, { marginMs: 100, signerTier: 'off' });
    const sent: number[] = [];
    let stop = false;
    const worker = async (lim: RedisRateLimiter): Promise<void> => {
      while (!stop) {
        const p = await lim.acquire('POST /order', { priority: 'new' });
        sent.push(p.sentAt);
      }
    };
    const workers = lims.flatMap((l) => [worker(l), worker(l), worker(l), worker(l)]);
    await drive(clock, lims, clock.now() + 11 * 60_000);
    stop = true;
    await Promise.all(lims.map((l) => l.close()));
    await Promise.allSettled(workers);
    expect(checkWindow(sent, 2400, 10_000).violations).toBe(0);
    expect(checkWindow(sent, 24_000, 600_000).violations).toBe(0);
    // Saturated: the burst window was filled, and the 10-minute window too.
    expect(checkWindow(sent, 2400, 10_000).max).toBe(2400);
    expect(checkWindow(sent, 24_000, 600_000).max).toBe(24_000);
  }, 120_000);

  it('a 429 seen by one process pauses the route in every process', async () => {
    const clock = new VirtualClock();
    const [a, b] = (await limiters(2, clock, SMALL)) as [RedisRateLimiter, RedisRateLimiter];
    a.onThrottled('POST /order', 1500);
    await a.settled();
    expect(await b.wouldWaitMs('POST /orders')).toBe(1500);
    expect(await b.wouldWaitMs('DELETE /order')).toBe(0);
    let sentAt = -1;
    void b.acquire('POST /order', { priority: 'new' }).then((p) => {
      sentAt = p.sentAt;
    });
    await drive(clock, [a, b], clock.now() + 1000);
    expect(sentAt).toBe(-1);
    await drive(clock, [a, b], clock.now() + 1000);
    expect(sentAt).toBe(clock.now() - 500);
    expect((await b.utilisation('POST /order')).pausedForMs).toBe(0);
  });

  it('orders its own waiters by priority and refuses past maxWaitMs', async () => {
    const clock = new VirtualClock();
    const [lim] = (await limiters(1, clock, SMALL)) as [RedisRateLimiter];
    for (let i = 0; i < 40; i++) await lim.acquire('GET /sampling-markets', { priority: 'read' });
    const order: string[] = [];
    void lim.acquire('GET /book', { priority: 'read' }).then(() => order.push('read'));
    void lim.acquire('POST /order', { priority: 'new' }).then(() => order.push('new'));
    void lim.acquire('DELETE /order', { priority: 'cancel' }).then(() => order.push('cancel'));
    await settle([lim]);
    expect(lim.queueDepth()).toEqual({ total: 3, cancel: 1, replace: 0, new: 1, read: 1 });
    const err = await lim.acquire('POST /order', { priority: 'new', maxWaitMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitWaitError);
    await drive(clock, [lim], clock.now() + 1000);
    expect(order).toEqual(['cancel', 'new', 'read']);
  });

  it('uses Redis TIME as the one time base when asked', async () => {
    const clock = new SystemClock();
    const [a, b] = await limiters(
      2,
      clock,
      { marginMs: 0, budgets: { buckets: { 'clob GET /': [{ limit: 3, windowMs: 60_000 }] } } },
      { timeSource: 'server' },
    );
    const pa = await (a as RedisRateLimiter).acquire('GET /', { priority: 'read' });
    await (b as RedisRateLimiter).acquire('GET /', { priority: 'read' });
    await (b as RedisRateLimiter).acquire('GET /', { priority: 'read' });
    const wait = await (a as RedisRateLimiter).wouldWaitMs('GET /');
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    const time = await (await server.client()).time();
    expect(Math.abs(pa.sentAt - (Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000)))).toBeLessThan(60_000);
    await Promise.all([a, b].map((l) => (l as RedisRateLimiter).close()));
  });

  it('is what createRateLimiter builds for a redis backend, on a connection it closes', async () => {
    const clock = new VirtualClock();
    const keyPrefix = prefix();
    const config = { ...SMALL, backend: { kind: 'redis' as const, url: server.url, keyPrefix } };
    const a = await createRateLimiter({ clock, config });
    const b = await createRateLimiter({ clock, config });
    expect(a).toBeInstanceOf(RedisRateLimiter);
    for (let i = 0; i < 10; i++) await (i % 2 === 0 ? a : b).acquire('GET /book', { priority: 'read' });
    expect(await a.wouldWaitMs('GET /book')).toBe(1000);
    expect((await b.utilisation('GET /book')).windows[0]).toEqual({
      bucket: 'book',
      limit: 10,
      windowMs: 1000,
      used: 10,
      utilisation: 1,
    });
    await a.close();
    await b.close();
    expect((await createRateLimiter({ clock })).constructor.name).toBe('MemoryRateLimiter');
  });

  it('rejects with a retryable store error when Redis is unreachable', async () => {
    const clock = new VirtualClock();
    const redis: Redis = await server.client();
    const lim = new RedisRateLimiter({ clock, redis, config: SMALL, keyPrefix: prefix() });
    redis.disconnect();
    const err = await lim.acquire('GET /book', { priority: 'read' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitStoreError);
    expect((err as RateLimitStoreError).retryable).toBe(true);
  });
});

// A 429 pause the Redis limiter cannot write is not swallowed: it is counted (pauseFailures()),
// reported to onPauseFailed with its route, and /metrics shows the count
// (oddsmaker_ratelimit_pause_failures_total); the next admission still goes ahead. The write is
// made to fail on a real redis-server: the pause keys are turned into lists, so the pause
// script's GET answers WRONGTYPE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { OpsMetrics } from '../../src/runtime/ops/metrics.js';
import { redisAvailable, startRedis, type RedisHandle } from './support/redis-server.js';

const HAVE_REDIS = redisAvailable();
if (!HAVE_REDIS)
  console.warn('redis-server not installed: Redis pause-failure tests skipped (CI installs it via .ci/run)');

describe.skipIf(!HAVE_REDIS)('RedisRateLimiter: a 429 pause that cannot be written', () => {
  let server: RedisHandle;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is counted, reported with its route, shown by /metrics, and does not block admission', async () => {
    const keyPrefix = `pausefail${process.pid}`;
    const admin = await server.client();
    const reported: Array<{ route: string; err: unknown }> = [];
    const limiter = new RedisRateLimiter({
      clock: new SystemClock(),
      redis: await server.client(),
      keyPrefix,
      ownsClient: true,
      onPauseFailed: (err, route) => {
        reported.push({ route, err });
      },
    });
    const metrics = new OpsMetrics();
    const metered = metrics.meterLimiter(limiter);
    try {
      // A pause that is written: nothing counted.
      metered.onThrottled('POST /order', 1);
      await limiter.settled();
      expect(limiter.pauseFailures()).toBe(0);
      const pauseKeys = await admin.keys(`${keyPrefix}:*pause*`);
      expect(pauseKeys.length).toBeGreaterThan(0);

      // The same keys as lists: the pause script fails with WRONGTYPE.
      for (const k of pauseKeys) {
        await admin.del(k);
        await admin.lpush(k, 'x');
      }
      metered.onThrottled('POST /order', 60_000);
      await limiter.settled();
      expect(limiter.pauseFailures()).toBe(1);
      expect(reported).toHaveLength(1);
      expect(reported[0]?.route).toBe('POST /order');
      expect(String(reported[0]?.err)).toMatch(/WRONGTYPE/);
      expect(await metrics.scrape()).toMatch(/^oddsmaker_ratelimit_pause_failures_total 1$/m);

      // The failed write does not fail the next admission of another route.
      (await metered.acquire('GET /book', { priority: 'read' })).release();
      expect(await metrics.scrape()).toMatch(/^oddsmaker_ratelimit_pause_failures_total 1$/m);
    } finally {
      await limiter.close();
      await admin.quit();
    }
  });
});

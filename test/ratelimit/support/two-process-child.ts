// One daemon-like process of the two-process Redis test: it drives POST /order and POST /orders
// at saturation through a RedisRateLimiter (real time, SystemClock) against the test's HTTP
// server for a fixed time, then prints its counts as one JSON line.
// argv: redisUrl keyPrefix serverUrl durationMs workers configJson name
import { Redis } from 'ioredis';
import { SystemClock } from '../../../src/core/clock.js';
import { RedisRateLimiter } from '../../../src/ratelimit/redis-limiter.js';
import { parseRetryAfterMs } from '../../../src/ratelimit/retry-after.js';

const [redisUrl, keyPrefix, serverUrl, durationArg, workersArg, configJson, name] = process.argv.slice(2) as [string, string, string, string, string, string, string];
const clock = new SystemClock();
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
const limiter = new RedisRateLimiter({ clock, redis, config: JSON.parse(configJson) as unknown, keyPrefix });
const stop = new AbortController();
clock.setTimeout(() => stop.abort(new Error('time up')), Number.parseInt(durationArg, 10));
const counts = { name, ok: 0, throttled: 0, failed: 0 };

async function worker(i: number): Promise<void> {
  const route = i % 2 === 0 ? 'POST /order' : 'POST /orders';
  while (!stop.signal.aborted) {
    let permit;
    try {
      permit = await limiter.acquire(route, { priority: 'new', signal: stop.signal });
    } catch {
      return; // time up
    }
    try {
      const res = await fetch(`${serverUrl}${route.slice(5)}`, { method: 'POST', headers: { 'x-client': name }, body: '{}' });
      await res.arrayBuffer();
      if (res.status === 200) counts.ok++;
      else if (res.status === 429) {
        counts.throttled++;
        limiter.onThrottled(route, parseRetryAfterMs(res.headers.get('retry-after'), clock.now()));
      } else counts.failed++;
    } catch {
      counts.failed++;
    } finally {
      permit.release();
    }
  }
}

await Promise.all(Array.from({ length: Number.parseInt(workersArg, 10) }, (_, i) => worker(i)));
await limiter.close();
redis.disconnect();
process.stdout.write(`${JSON.stringify(counts)}\n`);

// The daemon when the Redis of its shared rate limiter dies under it and comes back: sandbox mode
// built in process as `oddsmaker run` builds it (buildRuntime: the simulator on loopback, HTTP
// gateway, real order manager, the Redis-backed limiter, the ops server), real time, a real
// redis-server started by this file on a free 127.0.0.1 port, SIGKILLed, then restarted on the same
// port. While it is down: one warn line and no other warning (no line per refused request or
// failed poll), /healthz 503 naming it, oddsmaker_ratelimit_backend_up 0, quoting off, no cycle, and
// no request reaches the exchange (fail closed); once it is back: one info line, quoting resumes,
// /healthz 200. Every wait is on a log line or an HTTP request event under the
// test's timeout; nothing sleeps.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/config/load.js';
import { SystemClock } from '../../../src/core/clock.js';
import { buildRuntime, type Runtime } from '../../../src/runtime/modes.js';
import { startRuntimeOps } from '../../../src/runtime/ops/start.js';
import type { OpsServer } from '../../../src/runtime/ops/server.js';
import { redisAvailable, startRedis, type RedisHandle } from '../../ratelimit/support/redis-server.js';
import { sample } from './ops-harness.js';
import { stopLine } from '../../support/stop-line.js';

const HAVE_REDIS = redisAvailable();
if (!HAVE_REDIS)
  console.warn("redis-server not installed: the daemon's Redis-loss test is skipped (CI installs it via .ci/run)");

type Line = Record<string, unknown> & { msg: string; level: number };

/** Log lines as they come, and waits for the next one that matches. */
class Lines {
  readonly all: Line[] = [];
  private waiters: Array<{ from: number; pred: (l: Line) => boolean; resolve: (i: number) => void }> = [];
  readonly destination = {
    write: (text: string): void => {
      const l = JSON.parse(text) as Line;
      this.all.push(l);
      const i = this.all.length - 1;
      this.waiters = this.waiters.filter((w) => {
        if (w.pred(l)) {
          w.resolve(i);
          return false;
        }
        return true;
      });
    },
  };
  /** Index of the first line at or after `from` that matches. */
  next(pred: (l: Line) => boolean, from = this.all.length): Promise<number> {
    const i = this.all.findIndex((l, k) => k >= from && pred(l));
    if (i >= 0) return Promise.resolve(i);
    return new Promise((resolve) => {
      this.waiters.push({ from, pred, resolve });
    });
  }
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const r = await request(url);
  return { status: r.statusCode, text: await r.body.text() };
}

const LOST = 'rate limiter backend lost: nothing is sent (fail closed), quoting stopped';
const RECOVERED = 'rate limiter backend recovered: requests are admitted again, quoting resumes';

describe.skipIf(!HAVE_REDIS)("daemon: losing the rate limiter's Redis", () => {
  let redis: RedisHandle;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('stops quoting and sends nothing while Redis is down, says so once, and resumes when it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-redis-loss-'));
    const clock = new SystemClock();
    const config = validateConfig({
      mode: 'sandbox',
      sandbox: { seed: 11, markets: 4, flow: 'low' },
      markets: { selector: { max: 2 } },
      poll: { intervalMs: 200, maxBookAgeMs: 5_000, orderLookupIntervalMs: 400 },
      ledger: { path: join(dir, 'ledger.sqlite') },
      orders: { shutdownTimeoutMs: 10_000 },
      log: { level: 'debug' },
      health: { enabled: true, host: '127.0.0.1', port: 0 },
      rateLimit: { backend: { kind: 'redis', url: redis.url, keyPrefix: `loss${process.pid}` } },
    });
    const lines = new Lines();
    const rt: Runtime = await buildRuntime({
      config,
      clock,
      env: {},
      prettyLogs: false,
      logDestination: lines.destination,
    });
    let ops: OpsServer | null = null;
    try {
      const sim = rt.simulator;
      if (sim === null) throw new Error('sandbox mode starts the simulator');
      const requests: string[] = [];
      sim.app.server.on('request', (req: { method?: string; url?: string }) => {
        requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
      });
      await rt.daemon.start();
      ops = await startRuntimeOps(rt, config, {}, clock);
      const url = ops.url;
      const isCycle = (l: Line): boolean => l.msg === 'cycle';

      // Quoting, healthy.
      await lines.next((l) => isCycle(l) && Number(l['openOrders']) > 0, 0);
      await lines.next(isCycle); // a cycle whose books are fresh after the first placements
      expect((await get(`${url}/healthz`)).status).toBe(200);
      expect(sample((await get(`${url}/metrics`)).text, 'oddsmaker_ratelimit_backend_up')).toBe(1);

      // Redis dies.
      const lostAt = lines.next((l) => l.msg === LOST);
      await redis.kill();
      const lost = await lostAt;
      expect(lines.all[lost]).toMatchObject({
        level: 40,
        component: 'ratelimit',
        reason: expect.stringContaining(`Redis at 127.0.0.1:${redis.port}`),
      });
      const health = await get(`${url}/healthz`);
      expect(health.status).toBe(503);
      expect((JSON.parse(health.text) as { reasons: string[] }).reasons).toContainEqual(
        expect.stringMatching(new RegExp(`^rate limiter backend down: Redis at 127\\.0\\.0\\.1:${redis.port}`)),
      );
      expect(sample((await get(`${url}/metrics`)).text, 'oddsmaker_ratelimit_backend_up')).toBe(0);
      expect(rt.daemon.status()).toMatchObject({ quoting: false, rateLimiter: { ok: false } });

      // Fail closed: after the poll that was running at the loss, the next polls are refused (a
      // debug line each) and not one request reaches the exchange until Redis is back.
      const pollFailed = (l: Line): boolean =>
        typeof l.msg === 'string' && l.msg.startsWith('poll ') && l.msg.endsWith(' failed');
      let at = await lines.next(pollFailed, lost + 1);
      const sentBefore = requests.length;
      for (let i = 0; i < 3; i++) at = await lines.next(pollFailed, at + 1);
      const sentWhileDown = requests.slice(sentBefore);

      // Redis comes back (a fresh, empty server on the same port).
      const recoveredAt = lines.next((l) => l.msg === RECOVERED);
      await redis.restart();
      const recovered = await recoveredAt;
      expect(sentWhileDown).toEqual([]);
      const during = new Map<string, number>();
      for (const l of lines.all.slice(lost, recovered + 1))
        during.set(`${l.level} ${l.msg}`, (during.get(`${l.level} ${l.msg}`) ?? 0) + 1);
      console.log(`log lines while Redis was down (level msg: count): ${JSON.stringify(Object.fromEntries(during))}`);
      // The loss is said once; the refused polls only at debug level; no cycle runs. The exchange
      // heartbeat cannot be sent either (the limiter admits nothing): when the outage outlasts a
      // beat, its keeper says so on its own line, once (src/runtime/heartbeat.ts), which is right.
      expect(
        lines.all
          .slice(lost, recovered + 1)
          .filter((l) => l.level >= 40 && l['component'] !== 'heartbeat')
          .map((l) => l.msg),
      ).toEqual([LOST]);
      expect(
        lines.all.slice(lost, recovered + 1).filter((l) => l.level >= 40 && l['component'] === 'heartbeat').length,
      ).toBeLessThanOrEqual(1);
      expect(lines.all.slice(lost, recovered + 1).filter(isCycle)).toEqual([]);
      expect(lines.all[recovered]).toMatchObject({ level: 30, component: 'ratelimit' });
      await lines.next((l) => isCycle(l) && Number(l['openOrders']) > 0, recovered + 1);
      await lines.next(isCycle);
      expect(rt.daemon.status()).toMatchObject({ quoting: true, rateLimiter: { ok: true } });
      expect((await get(`${url}/healthz`)).status).toBe(200);
      expect(sample((await get(`${url}/metrics`)).text, 'oddsmaker_ratelimit_backend_up')).toBe(1);

      // One line for the loss and one for the recovery, however many requests were refused.
      expect(lines.all.filter((l) => l.msg === LOST)).toHaveLength(1);
      expect(lines.all.filter((l) => l.msg === RECOVERED)).toHaveLength(1);
    } finally {
      await rt.daemon.stop();
      await ops?.close();
      await rt.close();
    }
    expect(stopLine(lines.all)).toMatchObject({ remaining: 0 });
  }, 60_000);
});

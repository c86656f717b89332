// /healthz against a daemon on the virtual clock: 503 with the reason until startup
// reconciliation is done and market data is fresh, 200 then; 503 again on stale data, an open
// circuit breaker (market data or order entry), a tripped kill switch, a halted strategy; 200 when
// the cause goes away. Plus the pure rule set (healthOf) on its own.
import { afterEach, describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../../src/core/money.js';
import type { StartupReport } from '../../../src/execution/order-manager-types.js';
import { defineStrategy } from '../../../src/strategy/sdk.js';
import { healthOf } from '../../../src/runtime/ops/health.js';
import { opsHarness, type OpsHarness } from './ops-harness.js';

let h: OpsHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function health(
  x: OpsHarness,
): Promise<{ status: number; body: { status: string; reasons: string[]; state: string } }> {
  const r = await x.get('/healthz');
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.headers['cache-control']).toBe('no-store');
  return { status: r.status, body: r.json() as { status: string; reasons: string[]; state: string } };
}

describe('/healthz', () => {
  it('is 503 before startup reconciliation is done, 200 once it is and the first books are in', async () => {
    h = await opsHarness();
    const x = h;
    expect(await health(x)).toEqual({
      status: 503,
      body: expect.objectContaining({
        status: 'unhealthy',
        state: 'new',
        reasons: ['daemon new: startup reconciliation not done'],
      }),
    });

    // Startup reconciliation held open: the daemon is `starting` meanwhile.
    let release: () => void = () => undefined;
    const original = x.executor.startupReconcile.bind(x.executor);
    x.executor.startupReconcile = async (o): Promise<StartupReport> => {
      await new Promise<void>((res) => {
        release = res;
      });
      return original(o);
    };
    const starting = x.daemon.start();
    await x.clock.advanceAsync(0);
    const during = await health(x);
    expect(during.status).toBe(503);
    expect(during.body.reasons).toEqual(['daemon starting: startup reconciliation not done']);
    release();
    await starting;
    await x.clock.advanceAsync(0); // the first poll and cycle
    expect(await health(x)).toEqual({
      status: 200,
      body: { status: 'ok', reasons: [], state: 'running', paused: false },
    });
  });

  it('is 503 naming the stale market when its data goes stale, and 200 again once fresh', async () => {
    h = await opsHarness();
    await h.start();
    expect((await health(h)).status).toBe(200);
    h.gw.removeMarket('m2'); // the venue stops sending m2's books
    await h.clock.advanceAsync(3_000);
    expect((await health(h)).status).toBe(200); // 3 s old: not stale yet (maxBookAgeMs 3000)
    await h.clock.advanceAsync(1_000);
    const stale = await health(h);
    expect(stale.status).toBe(503);
    expect(stale.body.reasons).toEqual(['stale market data: 1 of 2 markets (m2)']);
    h.gw.addMarket({ conditionId: 'm2' });
    await h.clock.advanceAsync(1_000);
    expect(await health(h)).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('is 503 while the market-data circuit breaker is open (every poll failing)', async () => {
    h = await opsHarness();
    await h.start();
    h.gw.failNext('books', 3);
    await h.clock.advanceAsync(2_000);
    expect((await health(h)).status).toBe(200); // two failures: under the threshold of 3
    await h.clock.advanceAsync(1_000);
    const open = await health(h);
    expect(open.status).toBe(503);
    expect(open.body.reasons).toContain('circuit breaker open: market data (3 consecutive failed polls)');
    await h.clock.advanceAsync(1_000); // the venue answers again
    expect((await health(h)).status).toBe(200);
  });

  it('is 503 while the order-entry circuit breaker is open', async () => {
    h = await opsHarness();
    await h.start();
    h.executor.circuitState = 'open';
    expect(await health(h)).toMatchObject({ status: 503, body: { reasons: ['circuit breaker open: order entry'] } });
    h.executor.circuitState = 'closed';
    expect((await health(h)).status).toBe(200);
  });

  it('is 503 with the reason while the kill switch is tripped, 200 once cleared', async () => {
    h = await opsHarness();
    await h.start();
    await h.daemon.tripKillSwitch('daily loss of 12 over the limit');
    expect(await health(h)).toMatchObject({
      status: 503,
      body: { reasons: ['kill switch tripped: daily loss of 12 over the limit'] },
    });
    h.daemon.clearKillSwitch();
    expect((await health(h)).status).toBe(200);
  });

  it('is 503 while a strategy error halts quoting; paused is healthy', async () => {
    let calls = 0;
    const flaky = defineStrategy({
      name: 'flaky',
      summary: 'throws on its second call',
      parseParams: () => ({}),
      quote: (ctx) => {
        calls++;
        if (calls === 2) throw new Error('division by zero');
        const t = ctx.markets[0]?.tokens[0];
        return t === undefined
          ? []
          : [{ tokenId: t.tokenId, side: 'BUY' as const, price: 400_000 as Price, size: 10_000_000 as Shares }];
      },
    });
    h = await opsHarness({ strategy: flaky });
    await h.start();
    await h.clock.advanceAsync(1_000);
    expect(await health(h)).toMatchObject({
      status: 503,
      body: { reasons: ['strategy halted: Error: division by zero'] },
    });
    h.daemon.resume();
    h.daemon.pause();
    expect(await health(h)).toMatchObject({ status: 200, body: { status: 'ok', paused: true } });
  });

  it('is 503 while the daemon stops and after', async () => {
    h = await opsHarness();
    await h.start();
    await h.daemon.stop();
    expect(await health(h)).toMatchObject({ status: 503, body: { reasons: ['daemon stopped'] } });
  });
});

describe('healthOf', () => {
  it('gives every failed condition its reason, in a fixed order, and names at most five stale markets', async () => {
    h = await opsHarness({ markets: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] });
    await h.start();
    const s = h.daemon.status();
    expect(healthOf(s)).toEqual({ healthy: true, reasons: [] });
    const bad = {
      ...s,
      halted: 'Error: x',
      killSwitch: { ...s.killSwitch, tripped: true, reason: 'r' },
      circuitBreaker: {
        state: 'open' as const,
        orderEntry: 'open' as const,
        marketData: 'open' as const,
        consecutivePollFailures: 7,
      },
      markets: s.markets.map((m) => ({ ...m, stale: true })),
    };
    expect(healthOf(bad).reasons).toEqual([
      'kill switch tripped: r',
      'circuit breaker open: order entry',
      'circuit breaker open: market data (7 consecutive failed polls)',
      'stale market data: 7 of 7 markets (a, b, c, d, e, …)',
      'strategy halted: Error: x',
    ]);
    expect(healthOf({ ...s, markets: [] }).reasons).toEqual(['stale market data: no market in the universe']);
  });

  it("is unhealthy while the rate limiter's backend is down, naming why", async () => {
    h = await opsHarness();
    await h.start();
    const s = h.daemon.status();
    expect(s.rateLimiter).toEqual({ ok: true }); // the in-memory limiter
    const down = {
      ...s,
      rateLimiter: {
        ok: false as const,
        reason: 'Redis at 127.0.0.1:6379 unreachable: connect ECONNREFUSED 127.0.0.1:6379',
        sinceMs: 0,
      },
    };
    expect(healthOf(down)).toEqual({
      healthy: false,
      reasons: ['rate limiter backend down: Redis at 127.0.0.1:6379 unreachable: connect ECONNREFUSED 127.0.0.1:6379'],
    });
  });
});

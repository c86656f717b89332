// GET /metrics against the daemon on the virtual clock: Prometheus text format; counters fed by
// the hooks (cycles and their latency histogram, placements, cancels by path, rejections by
// bounded reason, dropped placements, quotes dropped by risk, fills, 429s; the expected reward
// score per market, replaced each cycle); gauges read at scrape
// time (state, kill switch, circuit breakers, markets, open orders, mids, positions and PnL per
// market, limiter queue depth and utilisation per route); prom-client's process metrics.
import { afterEach, describe, expect, it } from 'vitest';
import { mulMicros, toFloat, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { CycleReport } from '../../../src/runtime/cycle.js';
import type { FillEvent } from '../../../src/execution/fill-tracker.js';
import type { ApplyReport } from '../../../src/execution/order-manager-types.js';
import { OpsMetrics } from '../../../src/runtime/ops/metrics.js';
import { opsHarness, sample, type OpsHarness } from './ops-harness.js';

let h: OpsHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function scrape(x: OpsHarness): Promise<string> {
  const r = await x.get('/metrics');
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return r.text;
}

const EMPTY_APPLY: ApplyReport = {
  superseded: false,
  cancelsSent: 0,
  cancelled: 0,
  cancelsFailed: 0,
  placementsSent: 0,
  accepted: 0,
  rejected: [],
  unknown: 0,
  dropped: [],
  fills: [],
};

describe('/metrics', () => {
  it("counts cycles (with their latency histogram), placements and the cycle's cancels", async () => {
    h = await opsHarness();
    await h.start();
    await h.clock.advanceAsync(1_000);
    let t = await scrape(h);
    expect(sample(t, 'oddsmaker_cycles_total')).toBe(2);
    expect(sample(t, 'oddsmaker_cycle_duration_seconds_count')).toBe(2);
    // The virtual clock does not move inside a cycle: both fall in the smallest bucket.
    expect(sample(t, 'oddsmaker_cycle_duration_seconds_bucket', { le: '0.001' })).toBe(2);
    expect(sample(t, 'oddsmaker_cycle_duration_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(sample(t, 'oddsmaker_orders_placed_total')).toBe(12);
    expect(t).toMatch(/^# TYPE oddsmaker_cycle_duration_seconds histogram$/m);
    expect(t).toMatch(/^# TYPE oddsmaker_orders_placed_total counter$/m);

    h.daemon.pause();
    await h.clock.advanceAsync(1_000);
    t = await scrape(h);
    expect(sample(t, 'oddsmaker_orders_cancelled_total', { via: 'cycle' })).toBe(12);
    expect(sample(t, 'oddsmaker_paused')).toBe(1);
    expect(sample(t, 'oddsmaker_quoting')).toBe(0);
    expect(sample(t, 'oddsmaker_open_orders')).toBe(0);
  });

  it("reads the daemon's state at scrape time: mode, health, markets, quotes, mids, breakers, kill switch", async () => {
    h = await opsHarness();
    await h.start();
    let t = await scrape(h);
    expect(sample(t, 'oddsmaker_info', { mode: 'sandbox', strategy: 'traced-bands', state: 'running' })).toBe(1);
    expect(sample(t, 'oddsmaker_healthy')).toBe(1);
    expect(sample(t, 'oddsmaker_quoting')).toBe(1);
    expect(sample(t, 'oddsmaker_markets')).toBe(2);
    expect(sample(t, 'oddsmaker_markets_stale')).toBe(0);
    expect(sample(t, 'oddsmaker_open_orders')).toBe(12);
    expect(sample(t, 'oddsmaker_market_quotes', { market: 'm1' })).toBe(6);
    expect(sample(t, 'oddsmaker_market_open_orders', { market: 'm2' })).toBe(6);
    expect(sample(t, 'oddsmaker_mid_price', { market: 'm1', token: 'm1-yes' })).toBe(0.5);
    expect(sample(t, 'oddsmaker_kill_switch_tripped')).toBe(0);
    expect(sample(t, 'oddsmaker_circuit_breaker_open', { breaker: 'order_entry' })).toBe(0);
    expect(sample(t, 'oddsmaker_circuit_breaker_open', { breaker: 'market_data' })).toBe(0);
    expect(sample(t, 'oddsmaker_free_collateral')).toBe(1000);

    await h.daemon.tripKillSwitch('test');
    h.executor.circuitState = 'open';
    t = await scrape(h);
    expect(sample(t, 'oddsmaker_kill_switch_tripped')).toBe(1);
    expect(sample(t, 'oddsmaker_circuit_breaker_open', { breaker: 'order_entry' })).toBe(1);
    expect(sample(t, 'oddsmaker_healthy')).toBe(0);
    expect(sample(t, 'oddsmaker_orders_cancelled_total', { via: 'cancel_all' })).toBe(12);
  });

  it('the expected reward score per market, from the last cycle report (0 for a market without rewards)', async () => {
    const reports: CycleReport[] = [];
    // One band 1 ¢ from the mid, 60 shares a side: inside the fake venue's reward terms (min_size
    // 50, max_spread 3.5 ¢), which m1 pays and m2 does not.
    h = await opsHarness({
      onCycle: (r) => reports.push(r),
      config: { strategy: { params: { levels: [{ margin: 0.01, size: 60 }] } } },
    });
    h.gw.addMarket({ conditionId: 'm1', rewardsDaily: 100 });
    await h.start();
    let t = await scrape(h);
    const last = reports[reports.length - 1];
    const m1 = last?.rewardScores.get('m1') ?? 0;
    expect(m1).toBeGreaterThan(0);
    expect(t).toMatch(/^# TYPE oddsmaker_reward_score gauge$/m);
    expect(sample(t, 'oddsmaker_reward_score', { market: 'm1' })).toBeCloseTo(m1, 9);
    expect(sample(t, 'oddsmaker_reward_score', { market: 'm2' })).toBe(0);

    // Paused: nothing is quoted, so nothing scores.
    h.daemon.pause();
    await h.clock.advanceAsync(1_000);
    t = await scrape(h);
    expect(reports[reports.length - 1]?.rewardScore).toBe(0);
    expect(sample(t, 'oddsmaker_reward_score', { market: 'm1' })).toBe(0);
  });

  it('a market gone from the cycle report loses its reward score series', () => {
    const m = new OpsMetrics({ processMetrics: false });
    const base = { strategyError: null, durationMs: 1, dropped: {} };
    m.onCycle({
      ...base,
      rewardScores: new Map([
        ['a', 2.5],
        ['b', 0],
      ]),
      rewardScore: 2.5,
    } as unknown as CycleReport);
    m.onCycle({ ...base, rewardScores: new Map([['b', 1.25]]), rewardScore: 1.25 } as unknown as CycleReport);
    return m.registry.metrics().then((t) => {
      expect(sample(t, 'oddsmaker_reward_score', { market: 'a' })).toBeUndefined();
      expect(sample(t, 'oddsmaker_reward_score', { market: 'b' })).toBe(1.25);
    });
  });

  it('counts quotes dropped by risk, by reason (a stale market)', async () => {
    h = await opsHarness();
    await h.start();
    h.gw.removeMarket('m2');
    await h.clock.advanceAsync(4_000); // m2 stale from the 4th second on: one cycle drops its 6 quotes
    const t = await scrape(h);
    expect(sample(t, 'oddsmaker_quotes_dropped_total', { reason: 'stale-data' })).toBe(6);
    expect(sample(t, 'oddsmaker_markets_stale')).toBe(1);
    expect(sample(t, 'oddsmaker_healthy')).toBe(0);
  });

  it('rejections by bounded reason, dropped placements by reason, unknown outcomes and failed cancels', async () => {
    h = await opsHarness();
    h.metrics.onApply({
      ...EMPTY_APPLY,
      rejected: [
        {
          key: 'k1',
          orderId: '0x1',
          errorMsg: 'order 0x1 is invalid. Price (0.123) breaks minimum tick size rule: 0.01',
        },
        { key: 'k2', orderId: '0x2', errorMsg: 'not enough balance / allowance' },
        { key: 'k3', orderId: '0x3', errorMsg: 'not enough balance / allowance' },
        { key: 'k4', orderId: '0x4', errorMsg: 'request failed before reaching the book: EXCHANGE_UNAVAILABLE' },
        { key: 'k5', orderId: '0x5', errorMsg: 'something new from the exchange 0xdeadbeef' },
      ],
      dropped: [
        { key: 'k6', reason: 'pressure' },
        { key: 'k7', reason: 'pressure' },
        { key: 'k8', reason: 'cooldown' },
      ],
      unknown: 2,
      cancelsFailed: 1,
    });
    const t = await scrape(h);
    expect(sample(t, 'oddsmaker_orders_rejected_total', { reason: 'tick-size' })).toBe(1);
    expect(sample(t, 'oddsmaker_orders_rejected_total', { reason: 'balance' })).toBe(2);
    expect(sample(t, 'oddsmaker_orders_rejected_total', { reason: 'request-failed' })).toBe(1);
    expect(sample(t, 'oddsmaker_orders_rejected_total', { reason: 'other' })).toBe(1);
    expect(t).not.toContain('deadbeef'); // free text never becomes a label
    expect(sample(t, 'oddsmaker_placements_dropped_total', { reason: 'pressure' })).toBe(2);
    expect(sample(t, 'oddsmaker_placements_dropped_total', { reason: 'cooldown' })).toBe(1);
    expect(sample(t, 'oddsmaker_orders_unknown_total')).toBe(2);
    expect(sample(t, 'oddsmaker_cancels_failed_total')).toBe(1);
  });

  it("fills from the order manager's onFill, by market, side and liquidity", async () => {
    h = await opsHarness();
    const fill = (side: 'BUY' | 'SELL', size: number, liquidity: 'maker' | 'taker'): FillEvent => ({
      orderId: '0xabc',
      tokenId: 'm1-yes',
      conditionId: 'm1',
      side,
      price: 480_000 as Price,
      size: size as Shares,
      cumulative: size as Shares,
      feeMicros: 0 as Micros,
      feeKnown: true,
      liquidity,
      source: 'lookup',
      timeMs: 0,
    });
    h.metrics.onFill(fill('BUY', 2_500_000, 'maker'));
    h.metrics.onFill(fill('BUY', 1_000_000, 'maker'));
    h.metrics.onFill(fill('SELL', 4_000_000, 'taker'));
    const t = await scrape(h);
    expect(sample(t, 'oddsmaker_fills_total', { market: 'm1', side: 'BUY', liquidity: 'maker' })).toBe(2);
    expect(sample(t, 'oddsmaker_fills_total', { market: 'm1', side: 'SELL', liquidity: 'taker' })).toBe(1);
    expect(sample(t, 'oddsmaker_filled_shares_total', { market: 'm1', side: 'BUY' })).toBe(3.5);
  });

  it('positions and PnL per market, marked at the mids', async () => {
    h = await opsHarness();
    await h.start();
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.side === 'BUY');
    if (bid === undefined) throw new Error('no bid on m1-yes');
    const size = 10_000_000;
    h.executor.fill(bid.id, size, 20_000); // 10 shares, 0.02 of fees
    await h.clock.advanceAsync(1_000);
    const t = await scrape(h);
    expect(sample(t, 'oddsmaker_position_shares', { market: 'm1', token: 'm1-yes' })).toBe(10);
    expect(sample(t, 'oddsmaker_position_shares', { market: 'm2', token: 'm2-yes' })).toBeUndefined();
    // No trade of it seen yet: all pending; a confirmed trade leg of 4 of its shares makes those final.
    expect(sample(t, 'oddsmaker_position_pending_shares', { market: 'm1', token: 'm1-yes' })).toBe(10);
    h.ledger.recordTradeLeg({
      tradeId: 'trade-1',
      orderId: bid.id,
      tokenId: 'm1-yes',
      side: 'BUY',
      price: bid.price,
      size: 4_000_000 as Shares,
      feeMicros: 0 as Micros,
      liquidity: 'maker',
      status: 'CONFIRMED',
      matchTimeMs: h.clock.now(),
      lastUpdateMs: h.clock.now(),
    });
    expect(sample(await scrape(h), 'oddsmaker_position_pending_shares', { market: 'm1', token: 'm1-yes' })).toBe(6);
    const unrealized = mulMicros(500_000, size, 'floor') - h.ledger.position('m1-yes')!.cost;
    expect(unrealized).toBeGreaterThan(0); // bought under the mid
    expect(sample(t, 'oddsmaker_pnl_unrealized', { market: 'm1' })).toBeCloseTo(toFloat(unrealized), 9);
    expect(sample(t, 'oddsmaker_pnl_realized', { market: 'm1' })).toBeCloseTo(
      toFloat(h.ledger.position('m1-yes')!.realized),
      9,
    );
    expect(sample(t, 'oddsmaker_fees_paid', { market: 'm1' })).toBeCloseTo(0.02, 9);
    expect(sample(t, 'oddsmaker_pnl_realized', { market: 'm2' })).toBe(0);
    expect(sample(t, 'oddsmaker_pnl', { kind: 'unrealized' })).toBeCloseTo(toFloat(unrealized), 9);
    expect(sample(t, 'oddsmaker_pnl', { kind: 'fees' })).toBeCloseTo(0.02, 9);
  });

  it('limiter: utilisation per route and window, 429s, queue depth by priority and by route', async () => {
    // GET /book's own budget cut to 1 per 10 s, so a second read waits in the queue.
    h = await opsHarness({
      rateLimit: { budgets: { buckets: { 'clob GET /book': [{ limit: 1, windowMs: 10_000 }] } } },
    });
    for (let i = 0; i < 3; i++) (await h.limiter.acquire('POST /order', { priority: 'new', api: 'clob' })).release();
    h.limiter.onThrottled('POST /order', 2_000, 'clob');
    (await h.limiter.acquire('GET /book', { priority: 'read', api: 'clob' })).release();
    const waiting = h.limiter.acquire('GET /book', { priority: 'read', api: 'clob' });
    waiting.catch(() => undefined); // (a failed assertion closes the limiter under it)
    let t = await scrape(h);
    const post = { route: 'POST /order', api: 'clob' };
    expect(
      sample(t, 'oddsmaker_ratelimit_utilisation', { ...post, bucket: 'clob POST /order', window: '10s' }),
    ).toBeCloseTo(3 / 2400, 12);
    expect(
      sample(t, 'oddsmaker_ratelimit_utilisation', { ...post, bucket: 'clob POST /order', window: '600s' }),
    ).toBeCloseTo(3 / 24_000, 12);
    expect(
      sample(t, 'oddsmaker_ratelimit_utilisation', { ...post, bucket: 'clob general', window: '10s' }),
    ).toBeCloseTo(4 / 5000, 12); // 3 + the admitted GET /book
    expect(sample(t, 'oddsmaker_throttled_responses_total', post)).toBe(1);
    expect(sample(t, 'oddsmaker_ratelimit_paused_seconds', post)).toBe(2);
    expect(sample(t, 'oddsmaker_ratelimit_queue_depth', { priority: 'read' })).toBe(1);
    expect(sample(t, 'oddsmaker_ratelimit_queue_depth', { priority: 'new' })).toBe(0);
    expect(sample(t, 'oddsmaker_ratelimit_route_queued', { route: 'GET /book', api: 'clob' })).toBe(1);
    expect(
      sample(t, 'oddsmaker_ratelimit_utilisation', {
        route: 'GET /book',
        api: 'clob',
        bucket: 'clob GET /book',
        window: '10s',
      }),
    ).toBe(1);

    await h.clock.advanceAsync(11_000);
    (await waiting).release();
    t = await scrape(h);
    expect(sample(t, 'oddsmaker_ratelimit_queue_depth', { priority: 'read' })).toBe(0);
    expect(sample(t, 'oddsmaker_ratelimit_paused_seconds', post)).toBe(0);
  });

  it('process metrics: CPU, memory, event-loop lag', async () => {
    h = await opsHarness();
    const t = await scrape(h);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(sample(t, name), name).toBeGreaterThanOrEqual(0);
    }
  });

  it('after the daemon stopped (ledger closed) a scrape still answers, without PnL series', async () => {
    h = await opsHarness();
    await h.start();
    await h.daemon.stop();
    const t = await scrape(h);
    expect(sample(t, 'oddsmaker_info', { mode: 'sandbox', strategy: 'traced-bands', state: 'stopped' })).toBe(1);
    expect(sample(t, 'oddsmaker_pnl_realized', { market: 'm1' })).toBeUndefined();
    expect(sample(t, 'oddsmaker_metrics_collect_errors_total', { source: 'ledger' })).toBeUndefined();
  });
});

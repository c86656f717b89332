// The daemon on a virtual clock against the fake venue, the in-memory executor and a real
// in-memory ledger: start/stop ordering, the per-cycle log line, staleness and universe changes
// pulling quotes, tick changes followed, fills told to the strategy once, pause/resume, a broken
// strategy halting, the circuit breaker, and the kill switch tripping and staying tripped.
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { OrderManager } from '../../src/execution/order-manager.js';
import { defineStrategy, type StrategyFill } from '../../src/strategy/sdk.js';
import type { OrderExecutor } from '../../src/runtime/executor.js';
import { harness } from './harness.js';

const SH = 1_000_000;

// The real order manager must satisfy the interface the daemon is written against.
const asExecutor = (m: OrderManager): OrderExecutor => m;
void asExecutor;

async function started(h: ReturnType<typeof harness>): Promise<void> {
  await h.daemon.start();
  await h.clock.advanceAsync(0);
}

const lastPlan = (h: ReturnType<typeof harness>) => h.executor.plans[h.executor.plans.length - 1];

describe('daemon start and stop', () => {
  it('reconciles at startup before the strategy starts or quotes anything', async () => {
    const h = harness();
    await started(h);
    expect(h.gw.calls.settings).toEqual(['m1', 'm2']);
    expect(h.trace.slice(0, 6)).toEqual([
      'executor.startupReconcile',
      'strategy.start',
      'strategy.quote',
      'executor.apply',
      'executor.pollFills',
      'executor.resolveUnknown',
    ]);
    expect(h.executor.startupOrphanPolicy).toBe('cancel');
    expect(h.executor.liveOrders()).toHaveLength(12); // 2 markets × 2 tokens × 3 bids
    await h.daemon.stop();
  });

  it('stop: quoting and polling stop, everything is cancelled, the ledger is snapshotted and closed; twice is a no-op', async () => {
    const h = harness();
    await started(h);
    await h.clock.advanceAsync(2_000);
    const applies = h.executor.events.filter((e) => e === 'apply').length;
    const r1 = await h.daemon.stop();
    expect(h.trace.slice(-3)).toEqual(['strategy.stop', 'executor.cancelAll', 'executor.close']);
    expect(r1.cancelAll?.cancelled).toBe(12);
    expect(r1.timedOut).toBe(false);
    expect(r1.snapshot?.total).toBe(0);
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.ledger.isOpen).toBe(false);
    expect(h.daemon.status().state).toBe('stopped');
    const traceLen = h.trace.length;
    const r2 = await h.daemon.stop();
    expect(r2).toBe(r1);
    expect(h.trace).toHaveLength(traceLen);
    await h.clock.advanceAsync(60_000);
    expect(h.executor.events.filter((e) => e === 'apply')).toHaveLength(applies); // nothing runs after stop
    expect(h.clock.pending()).toBe(0);
    expect(h.lines.map((l) => l.msg)).toContain('daemon stopped');
  });

  it('stop is bounded by orders.shutdownTimeoutMs when cancelAll hangs, and still closes the ledger', async () => {
    const h = harness();
    await started(h);
    h.executor.hangCancelAll = true;
    let done = false;
    const p = h.daemon.stop().then((r) => {
      done = true;
      return r;
    });
    await h.clock.advanceAsync(4_999);
    expect(done).toBe(false);
    await h.clock.advanceAsync(1);
    const r = await p;
    expect(r.timedOut).toBe(true);
    expect(h.ledger.isOpen).toBe(false);
  });

  it('a daemon that never started can be stopped (the ledger is closed)', async () => {
    const h = harness();
    const r = await h.daemon.stop();
    expect(r.cancelAll).toBeNull();
    expect(h.ledger.isOpen).toBe(false);
    expect(h.executor.events).toEqual([]);
  });

  it('start fails (and says so) when the universe cannot be resolved', async () => {
    const h = harness({ markets: [], config: { markets: { conditions: ['missing'] } } });
    await expect(h.daemon.start()).rejects.toThrow(/missing/);
    expect(h.daemon.status().state).toBe('failed');
    expect(h.executor.events).toEqual([]);
    await h.daemon.stop();
    expect(h.ledger.isOpen).toBe(false);
  });
});

describe('the per-cycle log line', () => {
  it('has the counts of books, quotes, placements, cancels, fills and the PnL', async () => {
    const h = harness();
    await started(h);
    const [first] = h.cycleLines();
    expect(first).toMatchObject({
      level: 30,
      cycle: 1,
      books: 4,
      markets: 2,
      stale: 0,
      desired: 12,
      quotes: 12,
      dropped: {},
      placed: 12,
      rejected: 0,
      cancelled: 0,
      kept: 0,
      fills: 0,
      openOrders: 12,
      pnl: '0',
      freeCollateral: '1000',
      killSwitch: false,
    });
    await h.clock.advanceAsync(1_000);
    expect(h.cycleLines()[1]).toMatchObject({ cycle: 2, quotes: 12, placed: 0, kept: 12, openOrders: 12 });
    // free collateral now excludes what the 12 resting bids reserve: 2 × 2 × (4.9 + 7.2 + 11.5)
    expect(h.cycleLines()[1]?.freeCollateral).toBe('905.6');
    expect(h.ledger.recentCycles(10)).toHaveLength(2);
    await h.daemon.stop();
  });
});

describe('quotes are pulled', () => {
  it('when a market goes stale: its quotes are cancelled, the other market is untouched', async () => {
    const h = harness();
    await started(h);
    h.gw.removeMarket('m2'); // the venue stops sending m2's books
    await h.clock.advanceAsync(3_000);
    expect(lastPlan(h)?.cancels).toEqual([]); // 3 s old: not stale yet
    await h.clock.advanceAsync(1_000);
    const plan = lastPlan(h);
    expect(plan?.cancels.map((c) => c.tokenId).sort()).toEqual([
      'm2-no',
      'm2-no',
      'm2-no',
      'm2-yes',
      'm2-yes',
      'm2-yes',
    ]);
    expect(plan?.cancels.every((c) => c.reason === 'not-desired')).toBe(true);
    expect(h.executor.liveOrders().every((o) => o.tokenId.startsWith('m1'))).toBe(true);
    expect(h.cycleLines().at(-1)).toMatchObject({ stale: 1, quotes: 6, dropped: { 'stale-data': 6 }, cancelled: 6 });
    const st = h.daemon.status();
    expect(st.markets.map((m) => [m.conditionId, m.stale, m.quotes, m.openOrders])).toEqual([
      ['m1', false, 6, 6],
      ['m2', true, 0, 0],
    ]);
    await h.daemon.stop();
  });

  it('when every books request fails: markets go stale and all quotes are pulled', async () => {
    const h = harness();
    await started(h);
    h.gw.failNext('books', 100);
    await h.clock.advanceAsync(4_000);
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.cycleLines().at(-1)).toMatchObject({ books: 0, stale: 2, openOrders: 0 });
    await h.daemon.stop();
  });

  it('when a market leaves the universe on refresh; a new one is quoted', async () => {
    const h = harness({ refreshMs: 60_000, config: { markets: { selector: { max: 10 } } } });
    await started(h);
    expect(h.daemon.status().markets.map((m) => m.conditionId)).toEqual(['m1', 'm2']);
    h.gw.removeMarket('m2');
    h.gw.addMarket({ conditionId: 'm3' });
    await h.clock.advanceAsync(60_000);
    expect(h.daemon.status().markets.map((m) => m.conditionId)).toEqual(['m1', 'm3']);
    await h.clock.advanceAsync(1_000);
    const tokens = new Set(h.executor.liveOrders().map((o) => o.tokenId.split('-')[0]));
    expect([...tokens].sort()).toEqual(['m1', 'm3']);
    await h.daemon.stop();
  });

  it('while paused, and quoting comes back on resume', async () => {
    const h = harness();
    await started(h);
    h.daemon.pause();
    await h.clock.advanceAsync(1_000);
    expect(lastPlan(h)?.cancels).toHaveLength(12);
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.daemon.status()).toMatchObject({ paused: true, quoting: false });
    h.daemon.resume();
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toHaveLength(12);
    await h.daemon.stop();
  });

  it('when the strategy throws: quoting halts until resumed', async () => {
    let calls = 0;
    const flaky = defineStrategy({
      name: 'flaky',
      summary: 'one bid, then a crash on the second call',
      parseParams: () => ({}),
      quote: (ctx) => {
        calls++;
        if (calls === 2) throw new Error('division by zero');
        const t = ctx.markets[0]?.tokens[0];
        return t === undefined
          ? []
          : [{ tokenId: t.tokenId, side: 'BUY' as const, price: 400_000 as Price, size: (10 * SH) as Shares }];
      },
    });
    const h = harness({ strategy: flaky });
    await started(h);
    expect(h.executor.liveOrders()).toHaveLength(1);
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.daemon.status().halted).toBe('Error: division by zero');
    // The operator is alerted: an error line carrying the strategy's error.
    expect(
      h.lines.some(
        (l) => l.level === 50 && String((l.err as { message?: unknown } | undefined)?.message) === 'division by zero',
      ),
    ).toBe(true);
    await h.clock.advanceAsync(1_000);
    expect(calls).toBe(2); // not asked while halted
    h.daemon.resume();
    await h.clock.advanceAsync(1_000);
    expect(calls).toBe(3);
    expect(h.executor.liveOrders()).toHaveLength(1);
    await h.daemon.stop();
  });
});

describe('market data changes', () => {
  it('follows a tick change from the books: quotes on the new tick pass risk and the order manager gets the new tick', async () => {
    const h = harness();
    await started(h);
    h.gw.setTick('m1', 0.001);
    h.gw.setMarketMid('m1', 501_000);
    await h.clock.advanceAsync(1_000);
    const prices = h.executor
      .ordersOf('m1-yes')
      .map((o) => o.price)
      .sort();
    expect(prices).toEqual([461_000, 481_000, 491_000]);
    expect(h.executor.markets.at(-1)?.get('m1-yes')?.tickSize).toBe(1_000);
    expect(h.executor.markets.at(-1)?.get('m2-yes')?.tickSize).toBe(10_000);
    expect(h.cycleLines().at(-1)?.dropped).toEqual({});
    await h.daemon.stop();
  });
});

describe('fills', () => {
  it('tells the strategy each new ledger fill once, with the order tag, and counts it in the log line', async () => {
    const h = harness();
    await started(h);
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.price === 490_000);
    expect(bid?.tag).toBe('band-0');
    h.executor.fill(bid?.id as string, 4 * SH);
    await h.clock.advanceAsync(1_000);
    const want: StrategyFill = {
      orderId: bid?.id as string,
      tokenId: 'm1-yes',
      side: 'BUY',
      price: 490_000 as Price,
      size: (4 * SH) as Shares,
      atMs: h.clock.now() - 1_000,
      tag: 'band-0',
    };
    expect(h.fills).toEqual([want]);
    expect(h.cycleLines().at(-1)?.fills).toBe(1);
    await h.clock.advanceAsync(1_000);
    expect(h.fills).toHaveLength(1);
    expect(h.cycleLines().at(-1)?.fills).toBe(0);
    // No trades route here: the fill is pending (unconfirmed) in full.
    expect(h.daemon.status().positions).toEqual([
      {
        tokenId: 'm1-yes',
        conditionId: 'm1',
        size: 4 * SH,
        pendingSize: 4 * SH,
        avgPrice: 490_000,
        realized: 0,
        fees: 0,
      },
    ]);
    await h.daemon.stop();
  });

  it('fills recorded before start are not replayed to the strategy', async () => {
    const h = harness();
    h.ledger.recordFill({
      tokenId: 'm1-yes',
      conditionId: 'm1',
      side: 'BUY',
      price: 500_000 as Price,
      size: (1 * SH) as Shares,
      feeMicros: 0 as Micros,
      liquidity: 'maker',
      timeMs: h.clock.now() - 1,
      source: 'sim',
      dedupKey: 'old',
    });
    await started(h);
    await h.clock.advanceAsync(2_000);
    expect(h.fills).toEqual([]);
    await h.daemon.stop();
  });

  it('polls the order manager for fills every orderLookupIntervalMs, not every cycle', async () => {
    const h = harness();
    await started(h);
    await h.clock.advanceAsync(5_000);
    // cycles at 0..5 s; lookups at 0, 2 and 4 s
    expect(h.executor.events.filter((e) => e === 'apply')).toHaveLength(6);
    expect(h.executor.events.filter((e) => e === 'pollFills')).toHaveLength(3);
    await h.daemon.stop();
  });
});

describe('circuit breaker', () => {
  it('opens after orders.circuitBreakerFailures failed polls, stops quoting, and closes on the next good poll', async () => {
    const h = harness();
    await started(h);
    h.gw.failNext('books', 3);
    await h.clock.advanceAsync(3_000);
    expect(h.daemon.status().circuitBreaker).toMatchObject({
      state: 'open',
      marketData: 'open',
      orderEntry: 'closed',
      consecutivePollFailures: 3,
    });
    expect(h.daemon.status().quoting).toBe(false);
    await h.clock.advanceAsync(1_000);
    expect(h.daemon.status().circuitBreaker.state).toBe('closed');
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toHaveLength(12);
    await h.daemon.stop();
  });

  it('an open order-entry breaker also stops quoting', async () => {
    const h = harness();
    await started(h);
    h.executor.circuitState = 'open';
    await h.clock.advanceAsync(1_000);
    expect(h.daemon.status()).toMatchObject({ quoting: false, circuitBreaker: { state: 'open', orderEntry: 'open' } });
    expect(lastPlan(h)?.placements).toEqual([]);
    await h.daemon.stop();
  });

  it('a failing order manager is counted as a failed cycle without stopping the loop', async () => {
    const h = harness();
    await started(h);
    h.executor.failApply = 1;
    await h.clock.advanceAsync(2_000);
    expect(h.daemon.status().poller).toMatchObject({ failures: 1, consecutiveFailures: 0 });
    await h.daemon.stop();
  });
});

describe('kill switch', () => {
  /** Holds 100 shares of m1-yes bought at 0.5, so that a drop of the mid is a loss. */
  function withPosition(h: ReturnType<typeof harness>): void {
    h.ledger.recordFill({
      tokenId: 'm1-yes',
      conditionId: 'm1',
      side: 'BUY',
      price: 500_000 as Price,
      size: (100 * SH) as Shares,
      feeMicros: 0 as Micros,
      liquidity: 'maker',
      timeMs: h.clock.now(),
      source: 'sim',
      dedupKey: 'position',
    });
  }

  it('trips on the daily loss, pulls every quote, stays tripped when the loss recovers and the day turns, until cleared', async () => {
    const h = harness({ startMs: Date.UTC(2026, 0, 5, 23, 59, 50) });
    withPosition(h);
    await started(h);
    expect(h.executor.liveOrders().length).toBeGreaterThan(0);
    h.gw.setMarketMid('m1', 380_000); // 100 × (0.38 − 0.5) = −12 ≤ −10
    await h.clock.advanceAsync(1_000);
    const st = h.daemon.status();
    expect(st.killSwitch.tripped).toBe(true);
    expect(st.killSwitch.reason).toContain('daily loss limit');
    expect(h.executor.events).toContain('cancelAll');
    expect(h.executor.liveOrders()).toEqual([]);
    // The operator is alerted: an error line carrying the trip's reason.
    expect(h.lines.some((l) => l.level === 50 && l.reason === st.killSwitch.reason)).toBe(true);

    h.gw.setMarketMid('m1', 500_000); // the loss is gone
    await h.clock.advanceAsync(1_000);
    await h.clock.advanceAsync(10_000); // past midnight: a new UTC day, its PnL starts from 0
    expect(new Date(h.clock.now()).getUTCDate()).toBe(6);
    expect(h.daemon.status().killSwitch.tripped).toBe(true);
    expect(h.executor.liveOrders()).toEqual([]);
    expect(h.cycleLines().at(-1)).toMatchObject({ killSwitch: true, quotes: 0 });

    h.daemon.clearKillSwitch();
    expect(h.executor.events.at(-1)).toBe('resume');
    await h.clock.advanceAsync(1_000);
    expect(h.daemon.status().killSwitch.tripped).toBe(false);
    expect(h.executor.liveOrders().length).toBeGreaterThan(0);
    await h.daemon.stop();
  });

  it("the day's PnL starts from the midnight snapshot: yesterday's loss does not count today", async () => {
    const h = harness({ startMs: Date.UTC(2026, 0, 5, 23, 59, 50) });
    withPosition(h);
    await started(h);
    h.gw.setMarketMid('m1', 450_000); // −5 today: below the limit of 10
    await h.clock.advanceAsync(5_000);
    expect(h.daemon.status().killSwitch.tripped).toBe(false);
    await h.clock.advanceAsync(5_000); // midnight: a snapshot at exactly 00:00 is the new day's baseline
    h.gw.setMarketMid('m1', 400_000); // −10 in total, −5 of it today
    await h.clock.advanceAsync(2_000);
    expect(h.daemon.status().pnl.daily).toBe(-5 * SH);
    expect(h.daemon.status().killSwitch.tripped).toBe(false);
    await h.daemon.stop();
  });

  it('an operator trip holds until cleared, whatever the PnL', async () => {
    const h = harness();
    await started(h);
    await h.daemon.tripKillSwitch('operator: maintenance');
    expect(h.executor.liveOrders()).toEqual([]);
    await h.clock.advanceAsync(3_000);
    expect(h.daemon.status().killSwitch).toMatchObject({ tripped: true, reason: 'operator: maintenance' });
    expect(h.executor.liveOrders()).toEqual([]);
    h.daemon.clearKillSwitch();
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toHaveLength(12);
    await h.daemon.stop();
  });
});

describe('status', () => {
  it('snapshots mode, markets with quotes, orders, PnL, kill switch, breaker and the last cycle', async () => {
    const h = harness();
    await started(h);
    const st = h.daemon.status();
    expect(st).toMatchObject({
      mode: 'sandbox',
      state: 'running',
      strategy: 'traced-bands',
      paused: false,
      halted: null,
      quoting: true,
      openOrders: 12,
      positions: [],
      pnl: { daily: 0, realized: 0, freeCollateral: 1_000 * SH },
      killSwitch: { tripped: false },
      circuitBreaker: { state: 'closed' },
      cycles: 1,
    });
    expect(st.markets).toEqual([
      { conditionId: 'm1', question: '', tokens: ['m1-yes', 'm1-no'], stale: false, quotes: 6, openOrders: 6 },
      { conditionId: 'm2', question: '', tokens: ['m2-yes', 'm2-no'], stale: false, quotes: 6, openOrders: 6 },
    ]);
    expect(st.lastCycle?.placed).toBe(12);
    await h.daemon.stop();
  });
});

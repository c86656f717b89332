// GET /status against the daemon on the virtual clock: JSON that the shared schema accepts, with
// the mode, markets and their quotes and mids, our open orders (each mapped to its market),
// positions and PnL as exact decimal strings, kill-switch and circuit-breaker state; after the
// daemon stopped it still answers (PnL unknown: null, not zero). The PnL report on its own too.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { formatMicros, mulMicros, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { Ledger } from '../../../src/ledger/index.js';
import { pnlReport } from '../../../src/runtime/ops/pnl.js';
import { statusViewSchema, type StatusView } from '../../../src/runtime/ops/status-view.js';
import { T0 } from '../../marketdata/helpers.js';
import { opsHarness, type OpsHarness } from './ops-harness.js';

let h: OpsHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function status(x: OpsHarness): Promise<StatusView> {
  const r = await x.get('/status');
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.headers['cache-control']).toBe('no-store');
  return statusViewSchema.parse(r.json());
}

describe('/status', () => {
  it('mode, state, markets with their quotes and mids, open orders, PnL, kill switch and circuit breaker', async () => {
    h = await opsHarness();
    await h.start();
    const v = await status(h);
    expect(v).toMatchObject({
      time: new Date(T0).toISOString(),
      mode: 'sandbox',
      state: 'running',
      strategy: 'traced-bands',
      paused: false,
      halted: null,
      quoting: true,
      health: { healthy: true, reasons: [] },
      killSwitch: { tripped: false, reason: null, trippedAt: null },
      circuitBreaker: { state: 'closed', orderEntry: 'closed', marketData: 'closed', consecutivePollFailures: 0 },
      openOrders: 12,
      positions: [],
      pnl: { daily: '0', realized: '0', unrealized: '0', fees: '0', total: '0', freeCollateral: '1000', unmarked: [] },
      cycles: 1,
      lastCycle: { quotes: 12, placed: 12, cancelled: 0, rejected: 0, fills: 0 },
      positionsCheck: null,
    });
    expect(v.markets).toEqual([
      {
        conditionId: 'm1',
        question: h.daemon.status().markets[0]?.question,
        stale: false,
        quotes: 6,
        openOrders: 6,
        tokens: [
          { tokenId: 'm1-yes', mid: '0.5', position: '0' },
          { tokenId: 'm1-no', mid: '0.5', position: '0' },
        ],
        pnl: { realized: '0', unrealized: '0', fees: '0' },
      },
      expect.objectContaining({ conditionId: 'm2', quotes: 6, openOrders: 6 }),
    ]);
    expect(v.orders).toHaveLength(12);
    const live = h.executor.liveOrders();
    for (const o of v.orders) {
      const src = live.find((l) => l.id === o.id);
      expect(src).toBeDefined();
      expect(o).toEqual({
        id: src!.id,
        tokenId: src!.tokenId,
        conditionId: src!.tokenId.split('-')[0],
        side: src!.side,
        price: formatMicros(src!.price),
        size: formatMicros(src!.originalSize),
        matched: '0',
        state: 'live',
        ageMs: 0,
      });
    }
    await h.clock.advanceAsync(1_000);
    expect((await status(h)).orders.every((o) => o.ageMs === 1_000)).toBe(true); // kept, one second older
  });

  it('positions with their cost, mark and exact unrealized PnL after a fill', async () => {
    h = await opsHarness();
    await h.start();
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.side === 'BUY')!;
    h.executor.fill(bid.id, 10_000_000, 20_000);
    await h.clock.advanceAsync(1_000);
    const v = await status(h);
    const pos = h.ledger.position('m1-yes')!;
    const unrealized = mulMicros(500_000, 10_000_000, 'floor') - pos.cost;
    expect(v.positions).toEqual([
      {
        tokenId: 'm1-yes',
        conditionId: 'm1',
        size: '10',
        pending: '10',
        avgPrice: formatMicros(pos.avgPrice!),
        mark: '0.5',
        realized: formatMicros(pos.realized),
        unrealized: formatMicros(unrealized),
        fees: '0.02',
      },
    ]);
    expect(v.markets[0]?.tokens[0]).toEqual({ tokenId: 'm1-yes', mid: '0.5', position: '10' });
    expect(v.markets[0]?.pnl).toEqual({
      realized: formatMicros(pos.realized),
      unrealized: formatMicros(unrealized),
      fees: '0.02',
    });
    expect(v.pnl).toMatchObject({
      unrealized: formatMicros(unrealized),
      fees: '0.02',
      total: formatMicros(pos.realized + unrealized),
    });
    expect(v.lastCycle?.fills).toBe(1);
  });

  it('shows the kill switch tripped, a market-data breaker open, a pause', async () => {
    h = await opsHarness();
    await h.start();
    h.daemon.pause();
    await h.daemon.tripKillSwitch('daily loss');
    h.gw.failNext('books', 3);
    await h.clock.advanceAsync(3_000);
    const v = await status(h);
    expect(v).toMatchObject({
      paused: true,
      quoting: false,
      killSwitch: { tripped: true, reason: 'daily loss', trippedAt: new Date(T0).toISOString() },
      circuitBreaker: { state: 'open', orderEntry: 'closed', marketData: 'open', consecutivePollFailures: 3 },
      health: { healthy: false },
      openOrders: 0,
      orders: [],
    });
  });

  it('after the daemon stopped: still answers, with PnL unknown (null) rather than zero', async () => {
    h = await opsHarness();
    await h.start();
    await h.daemon.stop();
    const v = await status(h);
    expect(v).toMatchObject({
      state: 'stopped',
      openOrders: 0,
      positions: [],
      pnl: { realized: null, unrealized: null, total: null },
    });
    expect(v.markets.every((m) => m.pnl === null)).toBe(true);
  });
});

describe('pnlReport', () => {
  it('per token and market from the ledger, an unmarked token left out (null), null once closed', () => {
    const clock = new VirtualClock(T0);
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    const buy = (token: string, market: string, price: number, size: number, fee: number, key: string): void => {
      ledger.recordFill({
        tokenId: token,
        conditionId: market,
        side: 'BUY',
        price: price as Price,
        size: size as Shares,
        feeMicros: fee as Micros,
        liquidity: 'maker',
        timeMs: T0,
        source: 'sim',
        dedupKey: key,
      });
    };
    buy('a-yes', 'a', 400_000, 10_000_000, 10_000, 'f1');
    buy('a-no', 'a', 300_000, 5_000_000, 0, 'f2');
    buy('b-yes', 'b', 600_000, 1_000_000, 0, 'f3');
    const mids = new Map<string, Price>([
      ['a-yes', 450_000 as Price],
      ['a-no', 550_000 as Price],
    ]);
    const r = pnlReport(ledger, mids)!;
    const yes = ledger.position('a-yes')!;
    const no = ledger.position('a-no')!;
    const uYes = mulMicros(450_000, 10_000_000, 'floor') - yes.cost;
    const uNo = mulMicros(550_000, 5_000_000, 'floor') - no.cost;
    expect(r.tokens.find((t) => t.tokenId === 'a-yes')).toMatchObject({
      mark: 450_000,
      unrealized: uYes,
      fees: 10_000,
    });
    expect(r.tokens.find((t) => t.tokenId === 'b-yes')).toMatchObject({ mark: null, unrealized: null });
    expect(r.markets).toEqual([
      { conditionId: 'a', realized: yes.realized + no.realized, unrealized: uYes + uNo, fees: 10_000 },
      { conditionId: 'b', realized: ledger.position('b-yes')!.realized, unrealized: 0, fees: 0 },
    ]);
    expect(r.unrealized).toBe(uYes + uNo);
    expect(r.unmarked).toEqual(['b-yes']);
    ledger.close();
    expect(pnlReport(ledger, mids)).toBeNull();
  });
});

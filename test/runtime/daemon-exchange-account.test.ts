// The daemon with a gateway that has the exchange's heartbeat and balance routes, on a virtual
// clock (fake venue, in-memory executor, real in-memory ledger):
// - heartbeat: first beat after startup reconciliation, one every interval, still beating while
//   the stop's cancelAll runs and never after it; a lapse (no beat accepted for the expiry) stops
//   quoting, turns /healthz unhealthy, and has every order looked up through the executor's public
//   methods; the next accepted beat resumes quoting; `exchange.heartbeat: false` turns it off;
// - balance: read at start before the strategy's first input and on its interval; free collateral
//   is min(ledger-derived, exchange balance) − what our bids reserve while the reading is recent,
//   and risk drops the bids beyond it; an old reading is not used; a zero allowance is in /healthz.
import { describe, expect, it } from 'vitest';
import type { BalanceAllowance, HeartbeatAck } from '../../src/core/account.js';
import { ConfigError, validateConfig } from '../../src/config/load.js';
import { mulMicros, type Micros } from '../../src/core/money.js';
import { healthOf } from '../../src/runtime/ops/health.js';
import { buildStatusView, statusViewSchema } from '../../src/runtime/ops/status-view.js';
import { harness } from './harness.js';

const SH = 1_000_000;

/** The exchange side of the two routes, scriptable. */
class ExchangeAccount {
  readonly beats: Array<{ id: string | null; atMs: number }> = [];
  beatMode: 'ok' | 'fail' = 'ok';
  balance = 1_000 * SH;
  allowances = new Map<string, bigint>([['0xexchange', 2n ** 256n - 1n]]);
  balanceFails = false;
  balanceReads = 0;
  private seq = 0;
  constructor(private readonly now: () => number) {}

  heartbeat = (id: string | null): Promise<HeartbeatAck> => {
    this.beats.push({ id, atMs: this.now() });
    if (this.beatMode === 'fail') return Promise.reject(new Error('heartbeat route down'));
    return Promise.resolve({ heartbeatId: `hb-${++this.seq}`, resynchronized: false });
  };

  collateralBalance = (): Promise<BalanceAllowance> => {
    this.balanceReads++;
    if (this.balanceFails) return Promise.reject(new Error('balance route down'));
    return Promise.resolve({ balance: this.balance as Micros, allowances: new Map(this.allowances) });
  };
}

function setup(config: Record<string, unknown> = {}) {
  const clockRef = { now: (): number => 0 };
  const account = new ExchangeAccount(() => clockRef.now());
  const h = harness({
    config: {
      exchange: { heartbeatExpiryMs: 6_000, heartbeatIntervalMs: 2_000 },
      ledger: { balanceCheckIntervalMs: 10_000 },
      ...config,
    },
    prepare: (gw) => {
      Object.assign(gw, { heartbeat: account.heartbeat, collateralBalance: account.collateralBalance });
    },
  });
  clockRef.now = () => h.clock.now();
  return { ...h, account };
}

async function started(h: ReturnType<typeof setup>): Promise<void> {
  await h.daemon.start();
  await h.clock.advanceAsync(0);
}

describe('daemon: the exchange heartbeat', () => {
  it("beats from the end of startup reconciliation, every interval, through the stop's cancelAll and never after", async () => {
    const h = setup();
    await h.daemon.start();
    // No beat before startup reconciliation is done: the first goes with the start's end.
    expect(h.trace[0]).toBe('executor.startupReconcile');
    await h.clock.advanceAsync(0);
    const t0 = h.clock.now();
    expect(h.account.beats[0]).toEqual({ id: null, atMs: t0 });
    await h.clock.advanceAsync(6_000);
    expect(h.account.beats.map((b) => b.atMs - t0)).toEqual([0, 2_000, 4_000, 6_000]);
    expect(h.account.beats.map((b) => b.id)).toEqual([null, 'hb-1', 'hb-2', 'hb-3']);
    expect(h.daemon.status().heartbeat).toMatchObject({ running: true, beats: 4, lapsed: false });

    // cancelAll takes 5 s of clock: the heartbeat goes on meanwhile.
    const cancelAll = h.executor.cancelAll.bind(h.executor);
    let cancelStart = 0;
    let cancelEnd = 0;
    h.executor.cancelAll = async () => {
      cancelStart = h.clock.now();
      await h.clock.sleep(5_000);
      cancelEnd = h.clock.now();
      return cancelAll();
    };
    const stopping = h.daemon.stop();
    await h.clock.runUntil(() => cancelEnd !== 0, 10_000);
    await stopping;
    const during = h.account.beats.filter((b) => b.atMs > cancelStart && b.atMs <= cancelEnd);
    expect(during.length).toBeGreaterThanOrEqual(2);
    const n = h.account.beats.length;
    await h.clock.advanceAsync(30_000);
    expect(h.account.beats).toHaveLength(n);
    expect(h.daemon.status().heartbeat).toMatchObject({ running: false });
  });

  it('a lapse stops quoting, makes /healthz unhealthy and looks every order up; an accepted beat resumes quoting', async () => {
    const h = setup();
    await started(h);
    expect(h.executor.liveOrders().length).toBeGreaterThan(0);
    h.account.beatMode = 'fail';
    await h.clock.advanceAsync(5_999);
    expect(h.daemon.status()).toMatchObject({ quoting: true, heartbeat: { lapsed: false } });
    const before = h.executor.events.length;
    await h.clock.advanceAsync(1);
    const st = h.daemon.status();
    expect(st).toMatchObject({ quoting: false, heartbeat: { lapsed: true, lapses: 1 } });
    const health = healthOf(st);
    expect(health.healthy).toBe(false);
    expect(health.reasons.join('\n')).toMatch(
      /heartbeat lapsed: none accepted for over 6000 ms, the exchange has cancelled our orders/,
    );
    // The re-read, through the executor's public methods (right at the lapse, before any cycle).
    expect(h.executor.events.slice(before, before + 2)).toEqual(['resolveUnknown', 'pollFills']);
    expect(h.lines.filter((l) => l.component === 'heartbeat' && l.level === 50)).toHaveLength(1);
    // Quoting is off: the next cycle pulls every resting quote.
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders()).toEqual([]);
    const view = buildStatusView({
      nowMs: h.clock.now(),
      status: h.daemon.status(),
      orders: [],
      mids: new Map(),
      pnl: null,
    });
    expect(statusViewSchema.parse(view).heartbeat).toMatchObject({ lapsed: true, expiryMs: 6_000 });

    h.account.beatMode = 'ok';
    await h.clock.advanceAsync(2_000);
    expect(h.daemon.status()).toMatchObject({ quoting: true, heartbeat: { lapsed: false } });
    await h.clock.advanceAsync(1_000);
    expect(h.executor.liveOrders().length).toBeGreaterThan(0);
    await h.daemon.stop();
  });

  it('is off with exchange.heartbeat false, and an interval not below the expiry is a config error', async () => {
    const h = setup({ exchange: { heartbeat: false } });
    await started(h);
    await h.clock.advanceAsync(10_000);
    expect(h.account.beats).toEqual([]);
    expect(h.daemon.status().heartbeat).toBeNull();
    await h.daemon.stop();
    expect(() => validateConfig({ exchange: { heartbeatExpiryMs: 6_000, heartbeatIntervalMs: 6_000 } })).toThrow(
      ConfigError,
    );
    expect(() => validateConfig({ exchange: { heartbeatExpiryMs: 6_000, heartbeatIntervalMs: 6_000 } })).toThrow(
      /exchange\.heartbeatIntervalMs/,
    );
    expect(validateConfig({}).exchange).toMatchObject({ heartbeat: true, heartbeatExpiryMs: 10_000 });
  });
});

describe('daemon: the exchange collateral balance', () => {
  it('caps free collateral at the exchange balance less our bids while recent; risk drops the bids beyond it', async () => {
    const h = setup();
    h.account.balance = 5 * SH; // far less than the ledger's 1000 of capital
    await started(h);
    expect(h.account.balanceReads).toBe(1); // at start, before the first cycle
    const st = h.daemon.status();
    expect(st.collateral).toMatchObject({ balance: 5 * SH, recent: true, zeroAllowances: [] });
    const reserved = h.executor
      .liveOrders()
      .filter((o) => o.side === 'BUY')
      .reduce((n, o) => n + mulMicros(o.price, o.originalSize - o.sizeMatched, 'ceil'), 0);
    expect(reserved).toBeLessThanOrEqual(5 * SH);
    const last = st.lastCycle;
    expect(last?.dropped['insufficient-collateral'] ?? 0).toBeGreaterThan(0);
    await h.clock.advanceAsync(1_000);
    expect(h.daemon.status().lastCycle?.freeCollateral).toBe(Math.max(0, 5 * SH - reserved));

    // Read on its interval; a failing route leaves the last reading, used until it is 3 intervals old.
    await h.clock.advanceAsync(9_000);
    expect(h.account.balanceReads).toBe(2);
    h.account.balanceFails = true;
    await h.clock.advanceAsync(20_000);
    expect(h.daemon.status().collateral).toMatchObject({ recent: true, error: 'Error: balance route down' });
    await h.clock.advanceAsync(10_001);
    expect(h.daemon.status().collateral).toMatchObject({ recent: false });
    await h.clock.advanceAsync(1_000);
    // The ledger's figure alone again: the bids dropped before now rest.
    expect(h.daemon.status().lastCycle?.dropped['insufficient-collateral'] ?? 0).toBe(0);
    expect(h.lines.filter((l) => l.component === 'collateral' && l.level === 40)).toHaveLength(1);
    await h.daemon.stop();
  });

  it('reports a zero allowance for the exchange contract in /healthz and the status', async () => {
    const h = setup();
    h.account.allowances = new Map([
      ['0xexchange', 0n],
      ['0xnegrisk', 10n ** 30n],
    ]);
    await started(h);
    const st = h.daemon.status();
    expect(st.collateral?.zeroAllowances).toEqual(['0xexchange']);
    expect(healthOf(st).reasons).toContain(
      'zero collateral allowance for the exchange contract(s) 0xexchange: orders would be refused',
    );
    const view = statusViewSchema.parse(
      buildStatusView({ nowMs: h.clock.now(), status: st, orders: [], mids: new Map(), pnl: null }),
    );
    expect(view.collateral).toMatchObject({
      zeroAllowances: ['0xexchange'],
      allowances: { '0xnegrisk': (10n ** 30n).toString() },
    });
    await h.daemon.stop();
  });

  it('is off with ledger.balanceCheckIntervalMs 0', async () => {
    const h = setup({ ledger: { balanceCheckIntervalMs: 0 } });
    await started(h);
    expect(h.account.balanceReads).toBe(0);
    expect(h.daemon.status().collateral).toBeNull();
    await h.daemon.stop();
  });
});

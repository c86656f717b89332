// createDaemon, the one composition root of the run modes, the backtest and the comparison: what it
// derives from the config (the order manager's settings, the maker and signature type of our
// orders), its hooks (fills, cycles, the executor's wrapper) and the trade feed, built exactly when
// the gateway has the trades route. Against the fake venue on a virtual clock, real signing.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { getDialect } from '../../src/exchange/dialect.js';
import type { TradeRecord } from '../../src/core/account.js';
import { OrderSigner, type UnsignedOrder } from '../../src/exchange/signing/index.js';
import type { FillEvent } from '../../src/execution/fill-tracker.js';
import { Ledger } from '../../src/ledger/index.js';
import { ClockRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import type { CycleReport } from '../../src/runtime/cycle.js';
import { createDaemon, type DaemonDeps } from '../../src/runtime/create-daemon.js';
import type { OrderExecutor } from '../../src/runtime/executor.js';
import { createLogger } from '../../src/runtime/logger.js';
import { T0 } from '../marketdata/helpers.js';
import { FakeVenue } from '../support/fake-venue.js';
import { tracedBands } from './harness.js';

const SH = 1_000_000;
const KEY = `0x${'4c'.repeat(32)}`;
const M1 = `0x${'a1'.repeat(32)}`;
const FUNDER = `0x${'f0'.repeat(20)}`;
const OWNER = '123e4567-e89b-12d3-a456-426614174000';

/** The fake venue with the account-trades route (none traded): what makes a trade feed apply. */
class TradesVenue extends FakeVenue {
  tradeReads = 0;
  // eslint-disable-next-line require-yield -- counts the reads of a feed that has no trades
  async *accountTrades(): AsyncIterable<TradeRecord> {
    this.tradeReads++;
  }
}

function setup(
  venue: (clock: VirtualClock) => FakeVenue,
  config: Record<string, unknown> = {},
  extra: Partial<DaemonDeps> = {},
) {
  const clock = new VirtualClock(T0);
  const dialect = getDialect('spec');
  const gw = venue(clock);
  gw.addMarket({ conditionId: M1, tokens: ['1001', '1002'] });
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const logger = createLogger({ clock, pretty: false, base: null, destination: { write: () => undefined } });
  const signer = new OrderSigner(KEY, dialect);
  let salt = 0;
  const built = createDaemon({
    config: validateConfig({
      markets: { conditions: [M1] },
      poll: { intervalMs: 1_000, maxBookAgeMs: 3_000, orderLookupIntervalMs: 2_000 },
      orders: { shutdownTimeoutMs: 5_000 },
      ...config,
    }),
    clock,
    logger,
    gateway: gw,
    ledger,
    owner: OWNER,
    strategy: tracedBands([]),
    signer: {
      address: signer.address,
      signBatch: async (os: readonly UnsignedOrder[]) => os.map((o) => signer.sign(o)),
    },
    random: () => ((salt++ % 1000) + 0.5) / 1000,
    refreshScheduler: new ClockRefreshScheduler(clock, 600_000),
    ...extra,
  });
  return { clock, gw, ledger, signer, ...built };
}

describe('createDaemon', () => {
  it("places orders made by the config's funder under the given owner, with the config's order-manager settings", async () => {
    const s = setup((c) => new FakeVenue(c, getDialect('spec')), {
      exchange: { funder: FUNDER, signatureType: 2 },
      orders: { shutdownTimeoutMs: 5_000, maxFinalReadBacklog: 77 },
    });
    await s.daemon.start();
    await s.clock.advanceAsync(0);
    const live = s.gw.live();
    expect(live.length).toBeGreaterThan(0);
    for (const o of live) expect([o.maker.toLowerCase(), o.owner]).toEqual([FUNDER, OWNER]);
    expect(s.manager.fillReads().maxFinalReadBacklog).toBe(77);
    await s.daemon.stop();
  });

  it('without a funder the signer makes the orders', async () => {
    const s = setup((c) => new FakeVenue(c, getDialect('spec')));
    await s.daemon.start();
    await s.clock.advanceAsync(0);
    expect(s.gw.live().length).toBeGreaterThan(0);
    for (const o of s.gw.live()) expect(o.maker.toLowerCase()).toBe(s.signer.address.toLowerCase());
    await s.daemon.stop();
  });

  it('hands the daemon the wrapped executor, and tells every fill and cycle to the hooks', async () => {
    const fills: FillEvent[] = [];
    const cycles: CycleReport[] = [];
    let applies = 0;
    const s = setup(
      (c) => new FakeVenue(c, getDialect('spec')),
      {},
      {
        hooks: {
          onFill: (f) => {
            fills.push(f);
          },
          onCycle: (r) => {
            cycles.push(r);
          },
          // Counts apply() and delegates everything to the manager itself.
          wrapExecutor: (m): OrderExecutor =>
            new Proxy(m, {
              get(target, prop) {
                if (prop === 'apply')
                  return (...a: Parameters<OrderExecutor['apply']>) => {
                    applies++;
                    return target.apply(...a);
                  };
                const v: unknown = Reflect.get(target, prop, target);
                return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
              },
            }),
        },
      },
    );
    expect(s.executor).not.toBe(s.manager);
    await s.daemon.start();
    await s.clock.advanceAsync(0);
    expect(applies).toBeGreaterThan(0);
    expect(cycles.length).toBeGreaterThan(0);
    const bid = s.gw.live().find((o) => o.side === 'BUY');
    expect(bid).toBeDefined();
    s.gw.fill(bid?.id as string, 2 * SH);
    await s.clock.advanceAsync(2_000); // the next lookup round finds it
    expect(fills.map((f) => [f.orderId, f.size])).toEqual([[bid?.id, 2 * SH]]);
    await s.daemon.stop();
  });

  it('builds a trade feed exactly when the gateway has the trades route, and the daemon reads it', async () => {
    const without = setup((c) => new FakeVenue(c, getDialect('spec')));
    expect(without.tradeFeed).toBeNull();
    const s = setup((c) => new TradesVenue(c, getDialect('spec')));
    expect(s.tradeFeed).not.toBeNull();
    await s.daemon.start();
    await s.clock.advanceAsync(2_000);
    expect((s.gw as TradesVenue).tradeReads).toBeGreaterThan(0);
    await s.daemon.stop();
  });
});

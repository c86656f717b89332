// The daemon with the real order manager (src/execution/order-manager.ts), real signing and a
// real in-memory ledger, against the fake venue: startup reconciliation, quotes signed and placed,
// a fill found by lookup reaching the ledger and the strategy, the kill switch and shutdown
// cancelling at the venue.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Shares } from '../../src/core/money.js';
import { getDialect } from '../../src/exchange/dialect.js';
import { OrderSigner, type UnsignedOrder } from '../../src/exchange/signing/index.js';
import { OrderManager } from '../../src/execution/order-manager.js';
import { Ledger } from '../../src/ledger/index.js';
import { ClockRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import { Daemon } from '../../src/runtime/daemon.js';
import { createLogger } from '../../src/runtime/logger.js';
import type { StrategyFill } from '../../src/strategy/sdk.js';
import { T0 } from '../marketdata/helpers.js';
import { FakeVenue } from '../support/fake-venue.js';
import { tracedBands, type LogLine } from './harness.js';
import { stopLine } from '../support/stop-line.js';

const SH = 1_000_000;
const KEY = `0x${'4c'.repeat(32)}`;
const M1 = `0x${'a1'.repeat(32)}`;
const M2 = `0x${'b2'.repeat(32)}`;

function setup() {
  const clock = new VirtualClock(T0);
  const dialect = getDialect('spec');
  const venue = new FakeVenue(clock, dialect);
  venue.addMarket({ conditionId: M1, tokens: ['1001', '1002'] });
  venue.addMarket({ conditionId: M2, tokens: ['2001', '2002'] });
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const lines: LogLine[] = [];
  const logger = createLogger({
    clock,
    pretty: false,
    base: null,
    destination: {
      write: (l) => {
        lines.push(JSON.parse(l) as LogLine);
      },
    },
  });
  const signer = new OrderSigner(KEY, dialect);
  let salt = 0;
  const manager = new OrderManager({
    clock,
    gateway: venue,
    ledger,
    dialect,
    owner: '123e4567-e89b-12d3-a456-426614174000',
    signer: {
      address: signer.address,
      signBatch: async (os: readonly UnsignedOrder[]) => os.map((o) => signer.sign(o)),
    },
    random: () => ((salt++ % 1000) + 0.5) / 1000,
    logger: logger.child({ component: 'orders' }),
    config: { unknownLookupDelayMs: 0 },
  });
  const config = validateConfig({
    markets: { conditions: [M1, M2] },
    poll: { intervalMs: 1_000, maxBookAgeMs: 3_000, orderLookupIntervalMs: 2_000 },
    risk: { dailyLossLimit: '10' },
    orders: { shutdownTimeoutMs: 5_000 },
  });
  const trace: string[] = [];
  const fills: StrategyFill[] = [];
  const daemon = new Daemon({
    config,
    clock,
    logger,
    gateway: venue,
    executor: manager,
    ledger,
    strategy: tracedBands(trace, fills),
    refreshScheduler: new ClockRefreshScheduler(clock, 600_000),
  });
  return { clock, venue, ledger, manager, daemon, lines, fills };
}

describe('daemon + order manager', () => {
  it('places signed quotes, books a fill found by lookup, and cancels everything at the venue on stop', async () => {
    const s = setup();
    await s.daemon.start();
    await s.clock.advanceAsync(0);
    expect(s.venue.liveOrders()).toHaveLength(12);
    expect(s.ledger.openOrders()).toHaveLength(12);
    expect(s.ledger.recentCycles()).toContainEqual(expect.objectContaining({ quotes: 12, placed: 12 }));

    const bid = s.venue.liveOrders().find((o) => o.tokenId === '1001' && o.price === 490_000);
    expect(bid).toBeDefined();
    s.venue.fill(bid?.id as string, 4 * SH);
    await s.clock.advanceAsync(2_000); // the next lookup round finds it
    expect(s.ledger.position('1001')?.size).toBe(4 * SH);
    expect(s.fills.map((f) => [f.orderId, f.size, f.tag])).toEqual([[bid?.id, (4 * SH) as Shares, 'band-0']]);
    await s.clock.advanceAsync(1_000);
    expect(s.ledger.recentCycles().some((c) => c.fills === 1)).toBe(true);

    const r = await s.daemon.stop();
    expect(r.timedOut).toBe(false);
    expect(s.venue.liveOrders()).toEqual([]);
    expect(r.cancelAll?.remaining).toEqual([]);
    expect(s.ledger.isOpen).toBe(false);
  });

  it('a tripped kill switch cancels every order at the venue and places nothing until cleared', async () => {
    const s = setup();
    await s.daemon.start();
    await s.clock.advanceAsync(0);
    expect(s.venue.liveOrders()).toHaveLength(12);
    await s.daemon.tripKillSwitch('operator');
    await s.clock.advanceAsync(3_000);
    expect(s.venue.liveOrders()).toEqual([]);
    s.daemon.clearKillSwitch();
    await s.clock.advanceAsync(1_000);
    expect(s.venue.liveOrders()).toHaveLength(12);
    await s.daemon.stop();
  });

  it('stop tells the truth: fills matched before the cancels are recorded, and orders it could not cancel are named with a failing report', async () => {
    const s = setup();
    await s.daemon.start();
    await s.clock.advanceAsync(0);
    const [a, b] = s.venue.liveOrders();
    // Fills the daemon has not read yet when the stop begins: the final reads must find them.
    s.venue.fill(a?.id as string, 2 * SH);
    s.venue.fill(b?.id as string, 1 * SH);
    s.venue.refuseCancels = 'cancel not allowed now';
    const stopping = s.daemon.stop();
    await s.clock.advanceAsync(5_000);
    const r = await stopping;
    expect(r.timedOut).toBe(false);
    expect(r.remainingLive).toHaveLength(12);
    expect(new Set(r.remainingLive)).toEqual(new Set(s.venue.liveOrders().map((o) => o.id)));
    expect(r.cancelAll).toMatchObject({ fillsRecorded: 2, fillSharesRecorded: 3 * SH });
    // The stop line, an error naming every order possibly still live.
    expect(stopLine(s.lines)).toMatchObject({
      level: 50,
      remaining: 12,
      fillsRecorded: 2,
      fillShares: '3',
      timedOut: false,
    });
    expect(new Set(stopLine(s.lines)?.remainingIds as string[])).toEqual(new Set(r.remainingLive));
  });
});

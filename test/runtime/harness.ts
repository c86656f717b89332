// A daemon on a virtual clock for the runtime tests: the fake venue (market data), the in-memory
// executor, a real in-memory ledger, a logger capturing JSON lines, and a scheduled universe
// refresh on the clock. `trace` records the order of lifecycle events across all of them. The venue
// also answers GET /positions for the account `ACCOUNT`, checked on the clock every
// `positionsCheckMs` (the daemon's positions check).
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Ledger } from '../../src/ledger/index.js';
import { ClockRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import type { MarketsPageLister } from '../../src/marketdata/resolution-watch.js';
import { Daemon, type DaemonOptions, type DaemonRecorder } from '../../src/runtime/daemon.js';
import { createLogger } from '../../src/runtime/logger.js';
import { defineStrategy, type StrategyModule } from '../../src/strategy/sdk.js';
import { bands, ladder, type BandsParams } from '../../strategies/bands/index.js';
import { T0 } from '../marketdata/helpers.js';
import { FakeAccountGateway } from './fake-account.js';
import { FakeExecutor } from './fake-executor.js';

export interface HarnessOptions {
  readonly config?: Record<string, unknown>;
  readonly markets?: readonly string[];
  readonly strategy?: StrategyModule;
  readonly refreshMs?: number;
  readonly startMs?: number;
  /** Period of the positions check (default 300 000 ms: node-cron's default of every 5 minutes). */
  readonly positionsCheckMs?: number;
  /** The account handed to the daemon (default ACCOUNT); null: none, so no positions check. */
  readonly address?: string | null;
  /** The daemon's market-data feed (default poll). */
  readonly feed?: 'poll' | 'push';
  /** GET /markets pages for the daemon's resolution watch (none: no watch). */
  readonly marketsListing?: MarketsPageLister;
  readonly resolutionWatch?: DaemonOptions['resolutionWatch'];
  readonly recorder?: DaemonRecorder;
  /** Called with the fake venue before the daemon is built (e.g. to give it more routes). */
  readonly prepare?: (gw: FakeAccountGateway) => void;
}

/** The harness's account address. */
export const ACCOUNT = '0x00000000000000000000000000000000000000aa';

export type LogLine = Record<string, unknown> & { msg: string; level: number };

/** Bands, wrapped to record its lifecycle calls in the trace. */
export function tracedBands(trace: string[], fills: unknown[] = []): StrategyModule {
  return defineStrategy<BandsParams>({
    name: 'traced-bands',
    summary: 'bands, with its calls recorded',
    parseParams: (raw, path) => bands.parseParams(raw, path) as BandsParams,
    onStart: () => {
      trace.push('strategy.start');
      return undefined;
    },
    quote: (ctx) => {
      trace.push('strategy.quote');
      return ctx.markets.flatMap((m) => m.tokens.flatMap((t) => ladder(ctx.params, m, t)));
    },
    onFill: (_ctx, fill) => {
      fills.push(fill);
      return undefined;
    },
    onStop: () => {
      trace.push('strategy.stop');
    },
  });
}

export function harness(opts: HarnessOptions = {}) {
  const clock = new VirtualClock(opts.startMs ?? T0);
  const gw = new FakeAccountGateway(clock);
  for (const id of opts.markets ?? ['m1', 'm2']) gw.addMarket({ conditionId: id });
  opts.prepare?.(gw);
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const trace: string[] = [];
  const fills: unknown[] = [];
  const executor = new FakeExecutor(clock, ledger, trace);
  const lines: LogLine[] = [];
  const logger = createLogger({
    clock,
    pretty: false,
    base: null,
    level: 'debug',
    destination: {
      write: (l) => {
        lines.push(JSON.parse(l) as LogLine);
      },
    },
  });
  const config = validateConfig({
    markets: { conditions: opts.markets ?? ['m1', 'm2'] },
    poll: { intervalMs: 1_000, maxBookAgeMs: 3_000, orderLookupIntervalMs: 2_000 },
    risk: { dailyLossLimit: '10' },
    orders: { circuitBreakerFailures: 3, shutdownTimeoutMs: 5_000 },
    ...opts.config,
  });
  const daemon = new Daemon({
    config,
    clock,
    logger,
    gateway: gw,
    executor,
    ledger,
    strategy: opts.strategy ?? tracedBands(trace, fills),
    refreshScheduler: new ClockRefreshScheduler(clock, opts.refreshMs ?? 600_000),
    positionsCheckScheduler: new ClockRefreshScheduler(clock, opts.positionsCheckMs ?? 300_000),
    ...(opts.address === null ? {} : { address: opts.address ?? ACCOUNT }),
    ...(opts.feed === undefined ? {} : { feed: opts.feed }),
    ...(opts.marketsListing === undefined ? {} : { marketsListing: opts.marketsListing }),
    ...(opts.resolutionWatch === undefined ? {} : { resolutionWatch: opts.resolutionWatch }),
    ...(opts.recorder === undefined ? {} : { recorder: opts.recorder }),
  });
  const cycleLines = (): LogLine[] => lines.filter((l) => l.msg === 'cycle');
  return { clock, gw, ledger, executor, daemon, lines, cycleLines, trace, fills, config };
}

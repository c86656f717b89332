// Builds a started replay: the backtest's composition root. What the run modes get from
// createDaemon (src/runtime/create-daemon.ts), a backtest gets here from the same config-derived
// pieces: the cycle's parts (cycle-parts.ts: book cache, strategy, risk limits, reconciler,
// capital), the order manager's settings (managerConfigFromConfig), the maker and signature type
// (exchange.funder, exchange.signatureType), the dialect's fee schedule, the rate limiter of the
// config (in memory, on the virtual clock). What differs from live is only the executor (the
// synchronous BacktestExecutor against the venue) and the ledger (in memory).
// The universe: the config's markets, else every complete market of the recording at the start
// (the end of the opening instant, so a recorder's opening snapshot of many markets counts whole;
// markets completed later are replayed as data only), resolved once through the same
// resolveUniverse the daemon uses, with the recording as the exchange.
import type { VirtualClock } from '../../core/clock.js';
import type { Config } from '../../config/schema.js';
import { dialectOfConfig } from '../../config/dialect.js';
import { orderParties } from '../../execution/apply-decisions.js';
import { resolveManagerConfig } from '../../execution/order-manager-types.js';
import { resolveUniverse } from '../../marketdata/universe.js';
import { MemoryRateLimiter } from '../../ratelimit/memory-limiter.js';
import type { CycleContext, CycleReport } from '../../runtime/cycle.js';
import { cyclePartsFromConfig } from '../../runtime/cycle-parts.js';
import { managerConfigFromConfig, rateLimitFromConfig } from '../../runtime/limits.js';
import type { Logger } from '../../runtime/logger.js';
import type { StrategyModule } from '../../strategy/define.js';
import type { LatencySampler } from '../latency.js';
import type { RecordedMarketData } from '../market-data.js';
import { CycleDriver } from './driver.js';
import { BacktestExecutor } from './executor.js';
import type { ReplayLedger } from './ledger.js';
import type { Running } from './replay.js';
import type { ReplayVenuePort } from './venue-port.js';
import type { SignedOrder, UnsignedOrder } from '../../exchange/signing/index.js';

export interface SessionDeps {
  readonly config: Readonly<Config>;
  readonly clock: VirtualClock;
  readonly logger: Logger;
  readonly md: RecordedMarketData;
  readonly venue: ReplayVenuePort;
  readonly ledger: ReplayLedger & Pick<CycleContext['ledger'], 'recordCycle'>;
  readonly latency: LatencySampler;
  readonly signer: { readonly address: string; signNow(os: readonly UnsignedOrder[]): SignedOrder[] };
  readonly random: () => number;
  readonly strategy: StrategyModule | undefined;
  readonly onPlaced: (orderId: string) => void;
  readonly onCycle: (r: CycleReport) => void;
}

/** Resolves the universe, builds the executor, the cycle and its driver, starts the strategy and the poll ticks. */
export async function startSession(d: SessionDeps): Promise<Running> {
  const { config, clock } = d;
  const markets = await resolveUniverse(d.md, config.markets, undefined, dialectOfConfig(config).fees);
  const parts = cyclePartsFromConfig(config, clock, d.logger, d.strategy);
  parts.cache.setUniverse(markets);
  const limiter = new MemoryRateLimiter({
    clock,
    config: { ...rateLimitFromConfig(config), backend: { kind: 'memory' } },
  });
  const managerConfig = resolveManagerConfig(managerConfigFromConfig(config));
  const executor = new BacktestExecutor({
    clock,
    venue: d.venue,
    ledger: d.ledger,
    limiter,
    latency: d.latency,
    sign: (os) => d.signer.signNow(os),
    parties: orderParties({
      signerAddress: d.signer.address,
      maker: config.exchange.funder,
      signatureType: config.exchange.signatureType,
      postOnly: managerConfig.postOnly,
      random: d.random,
    }),
    config: managerConfig,
    owner: 'backtest',
    strategy: d.strategy?.name ?? config.strategy.name,
    onPlaced: d.onPlaced,
  });
  const ctx: CycleContext<BacktestExecutor> = { clock, ...parts, executor, ledger: d.ledger };
  const driver = new CycleDriver({
    clock,
    ctx,
    orderLookupIntervalMs: config.poll.orderLookupIntervalMs,
    onCycle: d.onCycle,
  });
  driver.start();
  const tokens = parts.cache.tokenIds();
  const rt: Running = {
    clock,
    venue: d.venue,
    ledger: d.ledger,
    driver,
    tokens,
    stopTicks: () => undefined,
  };
  return rt;
}

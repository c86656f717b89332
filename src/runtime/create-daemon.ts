// createDaemon: the one composition root of a daemon. The run modes (modes.ts: live, sandbox,
// paper) and the strategy comparison (src/cli/compare/run.ts) build their order manager, trade
// feed and daemon here, so a daemon is wired the same way whatever it trades against. (The
// backtest runs the same cycle and order-manager decisions synchronously, with no Daemon: its
// session, src/backtest/replay/session.ts, derives them from the config the same way.) What differs between them is handed in as an
// explicit dependency (the gateway, clock, ledger, signer, limiter, logger, strategy, schedulers,
// hooks); everything that follows from the config is derived here, once:
// - the order manager's settings (managerConfigFromConfig), the dialect (dialectOfConfig), the
//   maker of our orders (exchange.funder, else the signer) and their signature type;
// - the fee schedule fills are booked by (the dialect's `fees`, the one the venues charge by);
// - the trade feed, exactly when the gateway has the account-trades route (the HTTP gateway);
// - the daemon's exchange dead-man switch and collateral balance check, which the Daemon builds
//   from the gateway's heartbeat and balance routes and the config (absent routes: none);
// - the positions check, only when an `address` is given (a backtest or a comparison has no
//   exchange account to compare with, and must not run a wall-clock cron).
// Invariants: nothing is started here (no timer, no request) — nothing runs until daemon.start();
// every fill, whichever path finds it (order lookups or the trade feed), is told to the one
// `onFill` hook; the order manager and the trade feed write the same ledger the daemon reads.
import type { Clock } from '../core/clock.js';
import { dialectOfConfig } from '../config/dialect.js';
import type { Config } from '../config/schema.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { FillEvent } from '../execution/fill-tracker.js';
import { OrderManager, type BatchSigner } from '../execution/order-manager.js';
import { TradeFeed } from '../execution/trade-feed.js';
import type { Ledger } from '../ledger/index.js';
import type { RefreshScheduler } from '../marketdata/refresh-scheduler.js';
import type { MarketsPageLister } from '../marketdata/resolution-watch.js';
import type { RateLimiter } from '../ratelimit/index.js';
import type { StrategyModule } from '../strategy/define.js';
import type { CycleReport } from './cycle.js';
import { Daemon, type DaemonLedger, type DaemonRecorder } from './daemon.js';
import type { OrderExecutor } from './executor.js';
import { managerConfigFromConfig } from './limits.js';
import type { Logger } from './logger.js';

/** What a run hands the composition root: only what differs between modes. */
export interface DaemonDeps {
  readonly config: Readonly<Config>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The exchange as this run sees it (HTTP, paper venue, recorded backtest venue, in-process venue). */
  readonly gateway: ExchangeGateway;
  /** The ledger the order manager and trade feed write. */
  readonly ledger: Ledger;
  /** What the daemon reads of it (default: the ledger itself; a backtest hands a view it keeps open). */
  readonly daemonLedger?: DaemonLedger;
  readonly signer: BatchSigner;
  /** API key orders are placed under (the submission's `owner`). */
  readonly owner: string;
  /**
   * The limiter the gateway sends through: the order manager asks it when a slot frees, the daemon
   * reads its backend's health. Absent where nothing is limited (the in-process comparison venue).
   */
  readonly limiter?: Pick<RateLimiter, 'wouldWaitMs'> & Partial<Pick<RateLimiter, 'utilisation' | 'health'>>;
  /** Seeded salts and jitter (backtest, comparison); absent: crypto salts. */
  readonly random?: () => number;
  /** The strategy that runs (default: the registry's `config.strategy.name`). */
  readonly strategy?: StrategyModule;
  /** The account whose positions the scheduled check compares with the ledger; absent: no check. */
  readonly address?: string;
  /** Universe refresh schedule (default: node-cron on markets.refreshCron). */
  readonly refreshScheduler?: RefreshScheduler;
  /** GET /markets pages: markets leaving the universe are watched until they resolve. */
  readonly marketsListing?: MarketsPageLister;
  readonly recorder?: DaemonRecorder;
  readonly hooks?: DaemonHooks;
}

/** Observers of a run (the ops metrics, the backtest's equity series). */
export interface DaemonHooks {
  /** Every new fill, from the order manager's lookups and the trade feed alike. */
  readonly onFill?: (fill: FillEvent) => void;
  /** Every cycle's report. */
  readonly onCycle?: (report: CycleReport) => void;
  /** Wraps the order manager before the daemon gets it (the ops metrics' meter). */
  readonly wrapExecutor?: (manager: OrderManager) => OrderExecutor;
}

export interface BuiltDaemon {
  readonly daemon: Daemon;
  /** The order manager itself (unwrapped). */
  readonly manager: OrderManager;
  /** What the daemon was given: the manager, or its wrapper. */
  readonly executor: OrderExecutor;
  readonly tradeFeed: TradeFeed | null;
}

export function createDaemon(deps: DaemonDeps): BuiltDaemon {
  const { config, clock, logger, gateway, ledger, hooks } = deps;
  const dialect = dialectOfConfig(config);
  const onFill = hooks?.onFill;
  const funder = config.exchange.funder;
  const manager = new OrderManager({
    clock,
    gateway,
    ledger,
    signer: deps.signer,
    dialect,
    owner: deps.owner,
    // Proxy, safe and deposit wallets: the funder makes the order (else the signer); who signs per
    // kind: src/exchange/signing/account-kind.ts.
    ...(funder !== undefined ? { maker: funder } : {}),
    signatureType: config.exchange.signatureType,
    ...(deps.limiter !== undefined ? { limiter: deps.limiter } : {}),
    ...(deps.random !== undefined ? { random: deps.random } : {}),
    config: managerConfigFromConfig(config),
    logger: logger.child({ component: 'orders' }),
    strategy: deps.strategy?.name ?? config.strategy.name,
    ...(onFill !== undefined ? { onFill } : {}),
    // The exchange moved to an order version we do not sign: stop quoting, do not retry.
    onOrderVersionMismatch: (detail) =>
      daemonRef?.stopQuotingForOrderVersion(
        `the exchange answered order_version_mismatch (${detail}): upgrade oddsmaker`,
      ),
  });
  let daemonRef: Daemon | undefined;
  const executor = hooks?.wrapExecutor?.(manager) ?? manager;
  // Our trades with their settlement status where the gateway has the route (over HTTP): the main
  // fill source, read on the order-lookup schedule before the lookups (trade-feed.ts).
  const tradeFeed =
    gateway.accountTrades === undefined
      ? null
      : new TradeFeed({
          gateway: { accountTrades: gateway.accountTrades.bind(gateway) },
          ledger,
          clock,
          fees: (tokenId) => manager.marketInfo(tokenId),
          marketName: (tokenId) => manager.marketInfo(tokenId)?.label,
          logger: logger.child({ component: 'trades' }),
          ...(onFill !== undefined ? { onFill } : {}),
        });
  const daemon = new Daemon({
    config,
    clock,
    logger,
    gateway,
    executor,
    ledger: deps.daemonLedger ?? ledger,
    // Fills are booked by the fee fields the dialect's exchange charges by (core/fees.ts).
    feeSchedule: dialect.fees,
    ...(deps.limiter !== undefined ? { limiter: deps.limiter } : {}),
    ...(deps.strategy !== undefined ? { strategy: deps.strategy } : {}),
    ...(deps.address !== undefined ? { address: deps.address } : {}),
    ...(deps.refreshScheduler !== undefined ? { refreshScheduler: deps.refreshScheduler } : {}),
    ...(deps.marketsListing !== undefined ? { marketsListing: deps.marketsListing } : {}),
    ...(deps.recorder !== undefined ? { recorder: deps.recorder } : {}),
    ...(tradeFeed !== null ? { tradeFeed } : {}),
    ...(hooks?.onCycle !== undefined ? { onCycle: hooks.onCycle } : {}),
  });
  daemonRef = daemon;
  return { daemon, manager, executor, tradeFeed };
}

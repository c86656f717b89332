// The Daemon: composes the market universe, the book cache, the poll loop, the strategy runner,
// risk, reconcile, the order manager and the ledger into the quoting loop. It is mode-agnostic:
// it takes an already-built market-data port, order manager (OrderExecutor) and ledger, so live,
// sandbox and paper modes (wired in modes.ts) differ only in what they hand it.
// Invariants kept (docs/ARCHITECTURE.md §11):
// - start: universe resolved → startup reconciliation (crash recovery) → strategy started → first
//   poll; nothing is quoted before the ledger's open orders have been reconciled;
// - cycles never overlap (the poller), and one info line is logged per cycle with its counts
//   (books, quotes, placed, cancelled, fills, PnL, …); secrets never reach a line (logger.ts);
// - the ledger's positions are compared with the exchange's (GET /positions of `address`) on the
//   `ledger.positionsCheckCron` schedule (positions-check.ts): every difference still there after
//   two order-lookup intervals logged, never corrected, the last result in status(); off when the
//   daemon has no account address or its gateway no account port;
// - stop, in a fixed order and bounded by `orders.shutdownTimeoutMs` as a whole: positions check
//   stopped (its request aborted), trade feed closed (its read aborted) → stop quoting and
//   polling (in-flight requests aborted, the running cycle awaited) → universe refreshes stopped → resolution watch stopped (awaited) →
//   strategy stopped → cancelAll through the order manager (rate-limited, cancels first) and its
//   in-flight requests drained → PnL snapshot → ledger closed. A second stop() returns the first
//   one's result and does nothing more;
// - the kill switch trips on the daily loss limit (risk computes it every cycle) or on an
//   operator's call; once tripped every quote is pulled (risk drops them all, the order manager
//   cancels everything) and it stays tripped, across days, until clearKillSwitch();
// - PnL is snapshotted every PNL_SNAPSHOT_EVERY_MS and on the stroke of each UTC midnight, so the
//   daily PnL (the kill switch's input) starts each day from an exact baseline (ledger/pnl-report);
// - quoting is off (every resting quote pulled by reconcile) while paused, while a strategy that
//   threw is halted (until resume()), and while a circuit breaker is open: the order manager's
//   (order-entry failures) or the market data's (orders.circuitBreakerFailures consecutive failed
//   polls), and while the rate limiter's backend is down (a shared Redis unreachable: the limiter
//   admits nothing then, so the daemon does not plan quotes it cannot send; `limiter` option).
//   Polling goes on meanwhile, so staleness and status stay current.
// - with a market-data recorder (config `record.enabled`, wired in modes.ts), every poll's
//   snapshot (with our open orders, which it takes out of the books) and every universe (at start
//   and on change) is handed to it before the cycle runs;
//   the recorder reports its own failures and never throws into the loop.
// - the exchange's dead-man switch (a gateway with the heartbeat route and `exchange.heartbeat`,
//   heartbeat.ts): beats from the end of startup reconciliation until the end of the stop's
//   cancelAll; when none is accepted for longer than the expiry (the exchange has cancelled our
//   orders) quoting stops, /healthz says so, and the order manager's orders are all looked up
//   (rereadOrders) so that its view is no longer stale; the first accepted beat resumes quoting;
// - the exchange's collateral (a gateway with GET /balance-allowance and
//   `ledger.balanceCheckIntervalMs` > 0, balance-check.ts): read at start, before the strategy
//   starts, then on its interval, stopped first at stop; while a reading is recent, free
//   collateral (the strategy's and risk's) is capped by it (cycle.ts); a zero allowance for the
//   exchange's contracts is reported in the status and /healthz;
// - the exchange's order version (a gateway with GET /version, exchange/order-version.ts): read at start;
//   a version we do not sign, or an `order_version_mismatch` answer reported by the order manager
//   (stopQuotingForOrderVersion), stops quoting for the rest of the run: one error log line,
//   quotes pulled, /healthz 503 with the reason; resume() does not clear it (a restart on an
//   upgraded oddsmaker does);
// - resolutions (with a `marketsListing`, GET /markets; wired in modes.ts): a market that leaves
//   the universe, and at start every market the ledger holds a position in outside the universe
//   and not yet resolved, is watched (src/marketdata/resolution-watch.ts); once the listing shows
//   it closed with one winner the ledger settles it (resolveMarket) and the recorder, when
//   recording, writes RESOLVED; one info line per resolution. A market back in the universe is no
//   longer watched. The watch stops right after the universe refreshes, before the ledger closes.
import type { Clock, TimerId } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import { utcDate } from '../core/iso-time.js';
import { formatMicros, type Micros, type Price } from '../core/money.js';
import { heartbeatIntervalOf, type Config } from '../config/schema.js';
import type { FeeSchedule } from '../core/fees.js';
import type { LiveOrder } from '../core/order.js';
import type { AccountLifecyclePort, AccountPort, MarketDataPort } from '../exchange/gateway.js';
import {
  clearKillSwitch as clearedState,
  KILL_SWITCH_ARMED,
  tripKillSwitch as trippedState,
  type KillSwitchState,
  type RiskLimits,
} from '../execution/risk.js';
import { BACKEND_OK, type BackendHealth } from '../ratelimit/backend-health.js';
import type { LedgerOrder, LedgerPosition, PnlSnapshot } from '../ledger/types.js';
import { BookCache } from '../marketdata/book-cache.js';
import { Poller, type PollerStats, type PollStage } from '../marketdata/poller.js';
import { CronRefreshScheduler, type RefreshScheduler } from '../marketdata/refresh-scheduler.js';
import type { MarketSnapshot, UniverseMarket } from '../marketdata/types.js';
import { Universe, type UniverseDiff } from '../marketdata/universe.js';
import type { MarketResolution as RecordedResolution } from '../marketdata/recorder.js';
import {
  ResolutionWatch,
  type MarketResolved,
  type MarketsPageLister,
  type ResolutionWatchOptions,
} from '../marketdata/resolution-watch.js';
import type { Settlement } from '../ledger/types.js';
import type { StrategyInput } from '../strategy/context.js';
import type { StrategyModule, StrategyRunner } from '../strategy/define.js';
import {
  buildStrategyInput,
  collateral,
  lastFillSeq,
  marketsByToken,
  runCycle,
  type CycleContext,
  type CycleReport,
  type LedgerView,
} from './cycle.js';
import type { CancelAllReport, CircuitState, FillReadStatus, OrderExecutor } from './executor.js';
import { unsupportedVersionReason } from '../exchange/order-version.js';
import { cyclePartsFromConfig } from './cycle-parts.js';
import type { Logger } from './logger.js';
import { PositionsCheck, type PositionsCheckResult, type PositionsCheckStatus } from './positions-check.js';
import { BalanceCheck, type BalanceCheckStatus } from './balance-check.js';
import { Heartbeat, rereadOrders, type HeartbeatStatus } from './heartbeat.js';

/** What the daemon needs of the ledger (the Ledger class satisfies it). */
export interface DaemonLedger extends LedgerView {
  pnlSnapshot(mids: ReadonlyMap<string, Price>): PnlSnapshot;
  close(): void;
  /** Orders in an open state (the stop reports them when cancelAll could not). */
  openOrders(): readonly Pick<LedgerOrder, 'id' | 'state'>[];
  /** The ledger file, named in the stop line when orders are left open. */
  readonly path?: string;
  /** Settles a resolved market (needed with `marketsListing`; the Ledger class has it). */
  resolveMarket?(conditionId: string, winnerTokenId: string, timeMs?: number): Settlement[];
  /** The market's recorded resolution, or null (markets already settled are not watched). */
  resolution?(conditionId: string): unknown;
}

export interface DaemonOptions {
  readonly config: Readonly<Config>;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * Market data (an ExchangeGateway is one). Its account port, when it has one, answers the
   * scheduled positions check.
   */
  readonly gateway: MarketDataPort &
    Partial<AccountPort> &
    Partial<Pick<AccountLifecyclePort, 'heartbeat' | 'collateralBalance' | 'orderVersion'>>;
  /**
   * Which market fields fills are charged by (the dialect's `fees`, wired in modes.ts): each
   * universe market's settings then carry its fee model. Absent: the base fees.
   */
  readonly feeSchedule?: FeeSchedule;
  /**
   * The account whose positions the exchange holds (the funder, else the signer; in paper mode
   * any address: the paper venue answers for its own account). Without it there is no check.
   */
  readonly address?: string;
  /** The order manager. */
  readonly executor: OrderExecutor;
  readonly ledger: DaemonLedger;
  /** Default: the registry's strategy named in config.strategy.name. */
  readonly strategy?: StrategyModule;
  /** Default: node-cron on config.markets.refreshCron (tests pass a ClockRefreshScheduler). */
  readonly refreshScheduler?: RefreshScheduler;
  /** Default: node-cron on config.ledger.positionsCheckCron (tests pass a ClockRefreshScheduler). */
  readonly positionsCheckScheduler?: RefreshScheduler;
  /** Told every cycle's report, after it is logged (the ops metrics); an exception is logged, never thrown. */
  readonly onCycle?: (report: CycleReport) => void;
  /** The market-data recorder (src/marketdata/recorder.ts), when recording is on. */
  readonly recorder?: DaemonRecorder;
  /** One page of GET /markets: with it, markets leaving the universe are watched until they resolve. */
  readonly marketsListing?: MarketsPageLister;
  /**
   * Our trades from the exchange's trades route (src/execution/trade-feed.ts; wired in modes.ts
   * when the gateway has one): read with the order lookups, before them; closed at stop.
   */
  readonly tradeFeed?: DaemonTradeFeed;
  /** The rate limiter, for its backend's health: quoting stops while it is not ok (absent: always ok). */
  readonly limiter?: { health?(): BackendHealth };
  /** The resolution watch's timing and budget (defaults in resolution-watch.ts). */
  readonly resolutionWatch?: Pick<
    ResolutionWatchOptions,
    'intervalMs' | 'firstCheckDelayMs' | 'maxWatchMs' | 'budget' | 'maxPagesPerTurn'
  >;
}

/** What the daemon needs of the trade feed (TradeFeed satisfies it). */
export interface DaemonTradeFeed {
  poll(signal?: AbortSignal): Promise<{ readonly complete: boolean }>;
  close(): void;
}

/** What the daemon tells a recorder: the universe's markets and every polled snapshot. */
export interface DaemonRecorder {
  markets(markets: readonly UniverseMarket[]): void;
  /** `own`: our open orders when the books were fetched (the recorder takes the live ones out). */
  snapshot(snapshot: MarketSnapshot, own: readonly LiveOrder[]): void;
  /** A watched market resolved (RESOLVED records); optional: recorders that predate it. */
  resolutions?(markets: readonly RecordedResolution[], atMs?: number): void;
}

export type DaemonState = 'new' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export interface MarketStatus {
  readonly conditionId: string;
  readonly question: string;
  readonly tokens: readonly string[];
  readonly stale: boolean;
  /** Quotes accepted by risk in the last cycle. */
  readonly quotes: number;
  readonly openOrders: number;
}

export interface DaemonStatus {
  readonly mode: Config['mode'];
  readonly state: DaemonState;
  readonly strategy: string;
  readonly paused: boolean;
  /** Why the strategy is halted (it threw), or null. */
  readonly halted: string | null;
  readonly quoting: boolean;
  readonly markets: readonly MarketStatus[];
  readonly openOrders: number;
  /** Held positions; `pendingSize` is the part whose trades are not final yet (size − it is confirmed). */
  readonly positions: ReadonlyArray<
    Pick<LedgerPosition, 'tokenId' | 'conditionId' | 'size' | 'pendingSize' | 'avgPrice' | 'realized' | 'fees'>
  >;
  readonly pnl: { readonly daily: Micros; readonly realized: Micros; readonly freeCollateral: Micros | null };
  readonly killSwitch: KillSwitchState;
  readonly circuitBreaker: {
    readonly state: CircuitState;
    readonly orderEntry: CircuitState;
    readonly marketData: CircuitState;
    readonly consecutivePollFailures: number;
  };
  readonly poller: PollerStats;
  readonly cycles: number;
  readonly lastCycle: CycleReport | null;
  /** The scheduled positions check and its last result; null when there is none. */
  readonly positionsCheck: PositionsCheckStatus | null;
  /** Markets watched for their resolution (left the universe, or held outside it); null: no watch. */
  readonly awaitingResolution: readonly string[] | null;
  /** The rate limiter's backend (a shared Redis): ok, or why nothing can be sent (quoting is off then). */
  readonly rateLimiter?: BackendHealth;
  /** Fill discovery's backlog and what holds placements back; null when the executor does not say. */
  readonly fillReads: FillReadStatus | null;
  /** The exchange's heartbeat (dead-man switch); null when there is none. */
  readonly heartbeat?: HeartbeatStatus | null;
  /** The exchange's collateral balance and allowances; null when not read. */
  readonly collateral?: BalanceCheckStatus | null;
  /** Why quoting stopped on the exchange's order version (exchange/order-version.ts); null: it did not. */
  readonly orderVersionStop?: string | null;
}

export interface StopReport {
  readonly cancelAll: CancelAllReport | null;
  /** The shutdown deadline passed before every step finished. */
  readonly timedOut: boolean;
  readonly snapshot: PnlSnapshot | null;
  /**
   * Ids of our orders that may still rest on the exchange after the stop: those cancelAll could
   * not cancel (looked up where it could), or, when it did not finish, every order the ledger
   * holds open and not yet answered as cancelled. The ledger keeps them open; the next start
   * works through them, and `oddsmaker status` lists them.
   */
  readonly remainingLive: readonly string[];
  /** Cancelled orders whose final read is still owed (ledger state `closing`). */
  readonly finalReadsOwed: readonly string[];
  /** How long the stop took, ms (monotonic). */
  readonly elapsedMs: number;
}

/** Margin of the shutdown deadline kept for the steps after cancelAll (close, snapshot, ledger). */
const STOP_TAIL_MS = 500;

const TIMED_OUT = Symbol('timed out');
const DAY_MS = 86_400_000;
/** How often PnL is snapshotted besides midnight. */
export const PNL_SNAPSHOT_EVERY_MS = 300_000;

export class Daemon {
  private readonly config: Readonly<Config>;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly executor: OrderExecutor;
  private readonly ledger: DaemonLedger;
  private readonly cache: BookCache;
  private readonly universe: Universe;
  private readonly poller: Poller;
  private readonly runner: StrategyRunner;
  private readonly limits: RiskLimits;
  private readonly ctx: CycleContext;
  private readonly positionsCheck: PositionsCheck | null;
  private readonly watch: ResolutionWatch | null;
  private readonly limiter: { health?(): BackendHealth } | undefined;
  private readonly heartbeat: Heartbeat | null;
  private readonly balanceCheck: BalanceCheck | null;
  private readonly tradeFeed: DaemonTradeFeed | undefined;
  private state: DaemonState = 'new';
  private paused = false;
  private halted: string | null = null;
  private versionStop: string | null = null;
  private readonly readOrderVersion: ((signal?: AbortSignal) => Promise<number>) | null;
  private killSwitch: KillSwitchState = KILL_SWITCH_ARMED;
  private fillSeq = 0;
  private lastFillPollAtMs = Number.NEGATIVE_INFINITY;
  private cycles = 0;
  private lastCycle: CycleReport | null = null;
  private quotesByMarket: ReadonlyMap<string, number> = new Map();
  private stopping: Promise<StopReport> | null = null;
  private runnerStarted = false;
  private ledgerClosed = false;
  private snapshotTimer: TimerId | null = null;
  private readonly onCycle: ((report: CycleReport) => void) | undefined;
  private readonly recorder: DaemonRecorder | undefined;

  constructor(opts: DaemonOptions) {
    this.config = opts.config;
    this.clock = opts.clock;
    this.log = opts.logger;
    this.executor = opts.executor;
    this.ledger = opts.ledger;
    this.onCycle = opts.onCycle;
    this.recorder = opts.recorder;
    this.limiter = opts.limiter;
    const parts = cyclePartsFromConfig(opts.config, opts.clock, this.log, opts.strategy);
    this.limits = parts.limits;
    this.cache = parts.cache;
    this.runner = parts.runner;
    this.universe = new Universe({
      port: opts.gateway,
      spec: opts.config.markets,
      scheduler: opts.refreshScheduler ?? new CronRefreshScheduler(opts.config.markets.refreshCron),
      ...(opts.feeSchedule !== undefined ? { feeSchedule: opts.feeSchedule } : {}),
      onChange: (d) => {
        this.onUniverseChange(d);
      },
      onError: (err) => {
        this.log.warn({ err }, 'universe refresh failed; keeping the previous universe');
      },
    });
    this.poller = new Poller({
      clock: opts.clock,
      gateway: opts.gateway,
      intervalMs: opts.config.poll.intervalMs,
      tokens: () => this.cache.tokenIds(),
      onSnapshot: (s) => this.onSnapshot(s),
      onError: (err, stage, stats) => {
        this.onPollError(err, stage, stats);
      },
      onSkip: (stats) => {
        this.log.debug({ skipped: stats.skipped }, 'cycle skipped: the previous one is still running');
      },
    });
    this.positionsCheck = this.buildPositionsCheck(opts);
    this.heartbeat = this.buildHeartbeat(opts);
    this.balanceCheck = this.buildBalanceCheck(opts);
    this.readOrderVersion = opts.gateway.orderVersion?.bind(opts.gateway) ?? null;
    this.watch = this.buildResolutionWatch(opts);
    this.ctx = {
      clock: opts.clock,
      cache: this.cache,
      runner: this.runner,
      executor: opts.executor,
      ledger: opts.ledger,
      limits: this.limits,
      capital: parts.capital,
      reconciler: parts.reconciler,
      ...(this.balanceCheck !== null ? { exchangeBalance: () => this.balanceCheck?.balance() ?? null } : {}),
      ...(opts.tradeFeed !== undefined ? { tradeFeed: opts.tradeFeed } : {}),
    };
    this.tradeFeed = opts.tradeFeed;
  }

  // ----------------------------------------------------------------------------- lifecycle

  /**
   * Resolves the universe, reconciles the ledger's open orders with the exchange, starts the
   * strategy, then polling and the universe refreshes. On failure the daemon is `failed`; call
   * stop() to release what was opened.
   */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new InvariantError(`daemon: start while ${this.state}`);
    this.state = 'starting';
    try {
      await this.universe.refresh();
      this.cache.setUniverse(this.universe.markets());
      this.recorder?.markets(this.universe.markets());
      await this.checkOrderVersion();
      this.log.info(
        { markets: this.cache.markets().length, tokens: this.cache.tokenIds().length },
        'universe resolved',
      );
      const rep = await this.executor.startupReconcile({
        orphanPolicy: this.config.orders.orphanPolicy,
        markets: marketsByToken(this.cache),
      });
      this.log.info(
        {
          lookedUp: rep.lookedUp,
          live: rep.live,
          adopted: rep.adopted,
          cancelled: rep.cancelled,
          closed: rep.closed,
          notFound: rep.notFound,
          foreign: rep.foreign,
          listed: rep.listed,
          unresolved: rep.unresolved.length,
          fills: rep.fills.length,
        },
        'startup reconciliation done',
      );
      // The dead-man switch from here on; the exchange's collateral before the strategy's first input.
      this.heartbeat?.start();
      await this.balanceCheck?.start();
      // Fills recorded before now (startup included) belong to earlier runs: the strategy starts after them.
      this.fillSeq = lastFillSeq(this.ledger);
      this.runner.start(this.input());
      this.runnerStarted = true;
      if (this.stopping !== null) return; // stop() was called meanwhile
      this.state = 'running';
      this.poller.start();
      this.universe.start();
      this.positionsCheck?.start();
      this.watchHeldOutsideUniverse();
      this.scheduleSnapshot();
      this.log.info(
        { mode: this.config.mode, strategy: this.runner.name, intervalMs: this.config.poll.intervalMs },
        'daemon started',
      );
    } catch (err) {
      this.state = 'failed';
      this.log.error({ err }, 'daemon failed to start');
      throw err;
    }
  }

  stop(): Promise<StopReport> {
    if (this.stopping === null) this.stopping = this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<StopReport> {
    const wasStarted = this.state !== 'new';
    this.state = 'stopping';
    this.log.info({}, 'daemon stopping');
    const timeoutMs = this.config.orders.shutdownTimeoutMs;
    const t0 = this.clock.monotonic();
    let timer: TimerId | null = null;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = this.clock.setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    });
    const within = async <T>(p: Promise<T>): Promise<T | typeof TIMED_OUT> => Promise.race([p, deadline]);
    let timedOut = false;
    let cancelAll: CancelAllReport | null = null;
    let snapshot: PnlSnapshot | null = null;
    let remainingLive: string[] = [];
    let finalReadsOwed: string[] = [];
    try {
      if (this.snapshotTimer !== null) {
        this.clock.clearTimeout(this.snapshotTimer);
        this.snapshotTimer = null;
      }
      this.positionsCheck?.stop();
      await this.balanceCheck?.stop();
      this.tradeFeed?.close();
      if ((await within(this.poller.stop())) === TIMED_OUT) timedOut = true;
      this.universe.stop();
      // Before the ledger closes: a resolution found meanwhile settles it (its request is aborted).
      if (this.watch !== null && (await within(this.watch.stop())) === TIMED_OUT) timedOut = true;
      if (this.runnerStarted) {
        try {
          this.runner.stop(this.input());
        } catch (err) {
          this.log.error({ err }, 'strategy onStop failed');
        }
      }
      if (wasStarted && !timedOut) {
        // cancelAll ends within its own deadline (it aborts its requests then), kept inside ours so
        // its report is never lost to our deadline.
        const left = Math.max(
          1,
          timeoutMs - (this.clock.monotonic() - t0) - Math.min(STOP_TAIL_MS, Math.floor(timeoutMs / 10)),
        );
        const r = await within(
          this.executor.cancelAll({ timeoutMs: left }).catch((err: unknown) => {
            this.log.error({ err }, 'cancelAll failed');
            return null;
          }),
        );
        if (r === TIMED_OUT) timedOut = true;
        else cancelAll = r;
        // The heartbeat kept our orders' dead-man switch armed while they were being cancelled.
        if ((await within(this.heartbeat?.stop() ?? Promise.resolve())) === TIMED_OUT) timedOut = true;
        if (!timedOut && (await within(this.executor.close())) === TIMED_OUT) timedOut = true;
      }
      if (timedOut)
        this.log.error({ timeoutMs }, 'shutdown deadline passed; closing the ledger with requests possibly in flight');
      try {
        snapshot = this.ledger.pnlSnapshot(this.cache.mids());
      } catch (err) {
        this.log.error({ err }, 'final PnL snapshot failed');
      }
      ({ remainingLive, finalReadsOwed } = this.leftOpen(cancelAll));
    } finally {
      if (timer !== null) this.clock.clearTimeout(timer);
      void this.heartbeat?.stop(); // a stop that timed out or failed before cancelAll: no beat after it
      this.ledger.close();
      this.ledgerClosed = true;
      this.state = 'stopped';
    }
    const elapsedMs = Math.round(this.clock.monotonic() - t0);
    const line = {
      cancelled: cancelAll?.cancelled ?? 0,
      remaining: remainingLive.length,
      finalReadsOwed: finalReadsOwed.length,
      fillsRecorded: cancelAll?.fillsRecorded ?? 0,
      fillShares: formatMicros((cancelAll?.fillSharesRecorded ?? 0) as Micros),
      timedOut,
      elapsedMs,
      pnl: snapshot === null ? null : formatMicros(snapshot.total),
    };
    if (remainingLive.length > 0) {
      this.log.error(
        { ...line, remainingIds: remainingLive },
        `daemon stopped with ${remainingLive.length} orders possibly still live: they stay open in the ledger (${this.ledger.path ?? 'the ledger'}), are listed by \`oddsmaker status\` after a restart, and are cancelled by the next start`,
      );
    } else {
      this.log.info(line, 'daemon stopped');
    }
    return { cancelAll, timedOut, snapshot, remainingLive, finalReadsOwed, elapsedMs };
  }

  /**
   * What may still be live after the stop, and the final reads still owed. The ledger is the
   * record when cancelAll did not report (deadline, failure): every order it holds open and not
   * answered as cancelled may rest.
   */
  private leftOpen(r: CancelAllReport | null): { remainingLive: string[]; finalReadsOwed: string[] } {
    if (r !== null && !r.timedOut)
      return { remainingLive: r.remaining.map((o) => o.id), finalReadsOwed: [...r.finalReadsOwed] };
    const open = this.ledger.openOrders();
    return {
      remainingLive: open.filter((o) => o.state !== 'closing' && o.state !== 'signed').map((o) => o.id),
      finalReadsOwed: open.filter((o) => o.state === 'closing').map((o) => o.id),
    };
  }

  // ----------------------------------------------------------------------------- operator controls

  /** Stops quoting and pulls every resting quote; polling goes on. */
  pause(): void {
    if (!this.paused) this.log.warn({}, 'quoting paused');
    this.paused = true;
  }

  /** Quotes again after pause(), or after a strategy error halted quoting. */
  resume(): void {
    if (this.paused || this.halted !== null) this.log.info({ halted: this.halted }, 'quoting resumed');
    this.paused = false;
    this.halted = null;
  }

  /**
   * Stops quoting for the rest of the run because of the exchange's order version (an
   * `order_version_mismatch` answer, or GET /version naming a version we do not sign). Once.
   */
  stopQuotingForOrderVersion(reason: string): void {
    if (this.versionStop !== null) return;
    this.versionStop = reason;
    this.log.error({ reason }, 'order version mismatch: quoting stopped, quotes pulled (not retried)');
  }

  /** GET /version at start, where the gateway has it; a failed read is logged and not fatal. */
  private async checkOrderVersion(): Promise<void> {
    if (this.readOrderVersion === null) return;
    let version: number;
    try {
      version = await this.readOrderVersion();
    } catch (err) {
      this.log.warn(
        { err },
        'exchange order version read failed (GET /version): an order_version_mismatch answer would still stop quoting',
      );
      return;
    }
    const why = unsupportedVersionReason(version);
    if (why !== null) this.stopQuotingForOrderVersion(why);
  }

  /** An operator's trip: every quote is pulled until clearKillSwitch(). */
  async tripKillSwitch(reason: string): Promise<void> {
    if (this.killSwitch.tripped) return;
    this.killSwitch = trippedState(this.killSwitch, reason, this.clock.now());
    await this.onKillSwitchTripped();
  }

  /** An operator's clear: quoting may resume; a further full daily loss limit trips it again. */
  clearKillSwitch(): void {
    if (!this.killSwitch.tripped || this.ledgerClosed) return;
    const daily = this.ledger.dailyPnl(this.cache.mids());
    this.killSwitch = clearedState({ day: utcDate(daily.dayStartMs), dailyPnl: daily.total });
    if (this.state === 'running') this.executor.resume();
    this.log.warn({ dailyPnl: formatMicros(daily.total) }, 'kill switch cleared by the operator');
  }

  /**
   * Compares the ledger's positions with the exchange's now (joins a check in flight); null when
   * there is no check, or the daemon is not running.
   */
  async checkPositions(): Promise<PositionsCheckResult | null> {
    if (this.positionsCheck === null || this.state !== 'running') return null;
    return this.positionsCheck.run();
  }

  // ----------------------------------------------------------------------------- status

  /** The book cache's current mids (the marks of unrealized PnL). */
  mids(): ReadonlyMap<string, Price> {
    return this.cache.mids();
  }

  /** The book cache, read-only: markets with their outcomes and each token's latest book (the ops console). */
  marketData(): Pick<BookCache, 'markets' | 'token'> {
    return this.cache;
  }

  status(): DaemonStatus {
    const now = this.clock.now();
    const open = this.executor.liveOrders();
    const openByToken = new Map<string, number>();
    for (const o of open) openByToken.set(o.tokenId, (openByToken.get(o.tokenId) ?? 0) + 1);
    // After stop the ledger is closed: the status keeps what the last cycle knew.
    const positions = this.ledgerClosed ? [] : this.ledger.positions();
    let realized = 0;
    for (const p of positions) realized += p.realized;
    const marketData = this.marketDataCircuit();
    const orderEntry = this.executor.circuitState;
    return {
      mode: this.config.mode,
      state: this.state,
      strategy: this.runner.name,
      paused: this.paused,
      halted: this.halted,
      quoting: this.quoting(),
      markets: this.cache.markets().map((m) => ({
        conditionId: m.conditionId,
        question: m.settings.question,
        tokens: m.tokens.map((t) => t.tokenId),
        stale: this.cache.isMarketStale(m.conditionId, now),
        quotes: this.quotesByMarket.get(m.conditionId) ?? 0,
        openOrders: m.tokens.reduce((n, t) => n + (openByToken.get(t.tokenId) ?? 0), 0),
      })),
      openOrders: open.length,
      positions: positions
        .filter((p) => p.size !== 0)
        .map((p) => ({
          tokenId: p.tokenId,
          conditionId: p.conditionId,
          size: p.size,
          pendingSize: p.pendingSize,
          avgPrice: p.avgPrice,
          realized: p.realized,
          fees: p.fees,
        })),
      pnl: {
        daily:
          this.lastCycle?.dailyPnl ??
          (this.ledgerClosed ? (0 as Micros) : this.ledger.dailyPnl(this.cache.mids()).total),
        realized: realized as Micros,
        freeCollateral: this.lastCycle?.freeCollateral ?? null,
      },
      killSwitch: this.killSwitch,
      circuitBreaker: {
        state: marketData === 'open' || orderEntry === 'open' ? 'open' : 'closed',
        orderEntry,
        marketData,
        consecutivePollFailures: this.poller.stats().consecutiveFailures,
      },
      poller: this.poller.stats(),
      cycles: this.cycles,
      lastCycle: this.lastCycle,
      positionsCheck: this.positionsCheck?.status() ?? null,
      awaitingResolution: this.watch?.watching() ?? null,
      rateLimiter: this.limiterHealth(),
      fillReads: this.executor.fillReads?.() ?? null,
      heartbeat: this.heartbeat?.status() ?? null,
      collateral: this.balanceCheck?.status() ?? null,
      orderVersionStop: this.versionStop,
    };
  }

  // ----------------------------------------------------------------------------- the loop

  private buildPositionsCheck(opts: DaemonOptions): PositionsCheck | null {
    const gw = opts.gateway;
    if (opts.address === undefined || opts.address === '' || gw.getPositions === undefined) return null;
    const getPositions = gw.getPositions.bind(gw);
    return new PositionsCheck({
      port: { getPositions, getMarketSettings: (id, signal) => gw.getMarketSettings(id, signal) },
      address: opts.address,
      // Only while running: the ledger is closed once stopped.
      ledger: { positions: (o) => this.ledger.positions(o) },
      markets: () => this.cache.markets(),
      scheduler:
        opts.positionsCheckScheduler ??
        new CronRefreshScheduler(opts.config.ledger.positionsCheckCron, 'UTC', {
          name: 'positions-check',
          path: 'ledger.positionsCheckCron',
        }),
      clock: opts.clock,
      log: this.log.child({ component: 'positions-check' }),
      // A fill the exchange has already is in the ledger after the order manager's next lookup.
      confirmDelayMs: 2 * opts.config.poll.orderLookupIntervalMs,
    });
  }

  /** The dead-man switch, when the gateway has the route and the config keeps it on. */
  private buildHeartbeat(opts: DaemonOptions): Heartbeat | null {
    const gw = opts.gateway;
    const ex = opts.config.exchange;
    if (!ex.heartbeat || gw.heartbeat === undefined) return null;
    const beat = gw.heartbeat.bind(gw);
    return new Heartbeat({
      port: { heartbeat: beat },
      clock: opts.clock,
      log: this.log.child({ component: 'heartbeat' }),
      intervalMs: heartbeatIntervalOf(ex),
      expiryMs: ex.heartbeatExpiryMs,
      // The exchange cancelled our orders: look them all up (only while running; stop cancels anyway).
      onLapse: () => (this.state === 'running' ? rereadOrders(this.executor) : undefined),
    });
  }

  /** The exchange's collateral balance, when the gateway has the route and the check is on. */
  private buildBalanceCheck(opts: DaemonOptions): BalanceCheck | null {
    const gw = opts.gateway;
    const intervalMs = opts.config.ledger.balanceCheckIntervalMs;
    if (intervalMs === 0 || gw.collateralBalance === undefined) return null;
    const read = gw.collateralBalance.bind(gw);
    return new BalanceCheck({
      port: { collateralBalance: read },
      clock: opts.clock,
      log: this.log.child({ component: 'collateral' }),
      intervalMs,
    });
  }

  private buildResolutionWatch(opts: DaemonOptions): ResolutionWatch | null {
    if (opts.marketsListing === undefined) return null;
    if (opts.ledger.resolveMarket === undefined)
      throw new InvariantError('daemon: a marketsListing needs a ledger that can resolveMarket');
    const log = this.log.child({ component: 'resolution-watch' });
    return new ResolutionWatch({
      ...opts.resolutionWatch,
      clock: opts.clock,
      listPage: opts.marketsListing,
      onResolved: (r) => {
        this.onResolved(r);
      },
      onError: (err) => {
        log.warn({ err }, 'resolution check failed; retried at the next turn');
      },
      onGiveUp: (g) => {
        log.warn(
          { market: g.conditionId, reason: g.reason, watchedMs: g.watchedMs },
          'gave up watching a market for its resolution',
        );
      },
    });
  }

  /** Markets the ledger holds a position in, outside the universe and not resolved: watched from the start. */
  private watchHeldOutsideUniverse(): void {
    if (this.watch === null) return;
    const inUniverse = new Set(this.cache.markets().map((m) => m.conditionId));
    const held = new Set(
      this.ledger
        .positions({ openOnly: true })
        .filter((p) => p.size !== 0)
        .map((p) => p.conditionId),
    );
    for (const c of held) {
      if (c === '' || inUniverse.has(c) || (this.ledger.resolution?.(c) ?? null) !== null) continue;
      this.watch.watch(c);
    }
    if (this.watch.watching().length > 0)
      this.log.info(
        { markets: this.watch.watching() },
        'watching held markets outside the universe for their resolution',
      );
  }

  /** The ledger settles the market; the recorder writes RESOLVED. Never throws (the watch's hook). */
  private onResolved(r: MarketResolved): void {
    if (this.ledgerClosed) return;
    const now = this.clock.now();
    try {
      const settled = this.ledger.resolveMarket?.(r.conditionId, r.winnerTokenId, now) ?? [];
      let realized = 0;
      for (const s of settled) realized += s.realizedDelta;
      this.log.info(
        {
          market: r.conditionId,
          winner: r.winnerTokenId,
          settlements: settled.length,
          realized: formatMicros(realized as Micros),
        },
        'market resolved',
      );
    } catch (err) {
      this.log.error({ err, market: r.conditionId, winner: r.winnerTokenId }, 'settling a resolved market failed');
    }
    this.recorder?.resolutions?.([{ conditionId: r.conditionId, closed: true, tokens: r.tokens }], now);
  }

  private marketDataCircuit(): CircuitState {
    return this.poller.stats().consecutiveFailures >= this.config.orders.circuitBreakerFailures ? 'open' : 'closed';
  }

  private quoting(): boolean {
    return (
      this.state === 'running' &&
      !this.paused &&
      this.halted === null &&
      this.versionStop === null &&
      this.marketDataCircuit() === 'closed' &&
      this.executor.circuitState === 'closed' &&
      this.limiterHealth().ok &&
      // A lapsed heartbeat: the exchange cancelled our orders, and new ones would rest unguarded.
      this.heartbeat?.status().lapsed !== true
    );
  }

  private limiterHealth(): BackendHealth {
    return this.limiter?.health?.() ?? BACKEND_OK;
  }

  private input(): StrategyInput {
    const positions = this.ledger.positions();
    const held = new Map(positions.filter((p) => p.size > 0).map((p) => [p.tokenId, p.size] as const));
    const open = this.executor.liveOrders();
    return buildStrategyInput(
      this.cache,
      this.clock.now(),
      held,
      open,
      collateral(this.ctx.capital, positions, open, this.ctx.exchangeBalance?.() ?? null).free,
    );
  }

  private async onSnapshot(snapshot: MarketSnapshot): Promise<void> {
    if (this.state !== 'running') return;
    this.recorder?.snapshot(snapshot, this.executor.liveOrders());
    // Without the limiter's backend nothing can be sent (fail closed): a cycle would only have its
    // cancels and lookups refused one by one. The loss is logged once by the runtime; the next
    // snapshot after the backend is back runs a full cycle.
    if (!this.limiterHealth().ok) return;
    const now = this.clock.now();
    const pollFills = now - this.lastFillPollAtMs >= this.config.poll.orderLookupIntervalMs;
    if (pollFills) this.lastFillPollAtMs = now;
    const ks0 = this.killSwitch;
    const report = await runCycle(
      this.ctx,
      {
        quoting: this.quoting(),
        killSwitch: ks0,
        pollFills,
        fillSeq: this.fillSeq,
      },
      snapshot,
    );
    this.cycles++;
    this.lastCycle = report;
    this.fillSeq = report.fillSeq;
    this.quotesByMarket = report.quotesByMarket;
    // An operator may have tripped or cleared the switch while the cycle ran: their word stands.
    // Otherwise the cycle's state is the new one (risk trips it on the daily loss).
    const tripped = this.killSwitch === ks0 && !ks0.tripped && report.killSwitch.tripped;
    if (this.killSwitch === ks0) this.killSwitch = report.killSwitch;
    this.logCycle(report);
    try {
      this.onCycle?.(report);
    } catch (err) {
      this.log.warn({ err }, 'onCycle hook failed');
    }
    for (const t of report.tickChanges) {
      this.log.info(
        { market: t.conditionId, token: t.tokenId, from: formatMicros(t.from), to: formatMicros(t.to) },
        'tick size changed',
      );
    }
    if (report.strategyError !== null && this.halted === null) {
      this.halted = errorText(report.strategyError);
      this.log.error({ err: report.strategyError }, 'strategy failed: quoting halted until resumed, quotes pulled');
    }
    if (tripped) await this.onKillSwitchTripped();
  }

  private async onKillSwitchTripped(): Promise<void> {
    this.log.error({ reason: this.killSwitch.reason }, 'kill switch tripped: pulling every quote');
    if (this.state !== 'running') return;
    const r = await this.executor.cancelAll({ timeoutMs: this.config.orders.shutdownTimeoutMs });
    this.log.warn(
      { cancelled: r.cancelled, remaining: r.remaining.length, timedOut: r.timedOut },
      'kill switch: cancelAll done',
    );
  }

  private logCycle(r: CycleReport): void {
    this.log.info(
      {
        cycle: this.cycles,
        books: r.books,
        markets: r.markets,
        stale: r.staleMarkets.length,
        desired: r.desired,
        quotes: r.quotes,
        dropped: r.dropped,
        placed: r.placed,
        rejected: r.rejected,
        cancelled: r.cancelled,
        kept: r.kept,
        fills: r.fills,
        openOrders: r.openOrders,
        pnl: formatMicros(r.dailyPnl),
        freeCollateral: formatMicros(r.freeCollateral),
        killSwitch: r.killSwitch.tripped,
        ms: r.durationMs,
      },
      'cycle',
    );
  }

  /** The next snapshot: in PNL_SNAPSHOT_EVERY_MS, or at the next UTC midnight if sooner. */
  private scheduleSnapshot(): void {
    const now = this.clock.now();
    const midnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    const at = Math.min(now + PNL_SNAPSHOT_EVERY_MS, midnight);
    this.snapshotTimer = this.clock.setTimeout(() => {
      this.snapshotTimer = null;
      if (this.state !== 'running') return;
      try {
        const snap = this.ledger.pnlSnapshot(this.cache.mids());
        this.log.debug({ pnl: formatMicros(snap.total), unmarked: snap.unmarked.length }, 'PnL snapshot');
      } catch (err) {
        this.log.error({ err }, 'PnL snapshot failed');
      }
      this.scheduleSnapshot();
    }, at - now);
  }

  private onPollError(err: unknown, stage: PollStage, stats: PollerStats): void {
    // While the limiter's backend is down every poll is refused by it: that loss was logged once.
    const level = this.limiterHealth().ok ? 'warn' : 'debug';
    this.log[level]({ err, stage, consecutiveFailures: stats.consecutiveFailures }, `poll ${stage} failed`);
    if (stats.consecutiveFailures === this.config.orders.circuitBreakerFailures) {
      this.log[level === 'warn' ? 'error' : 'debug'](
        { failures: stats.consecutiveFailures },
        'market-data circuit breaker open: quoting stopped',
      );
    }
  }

  private onUniverseChange(d: UniverseDiff): void {
    // A market back in the universe is quoted again, not watched; one that left may be resolving.
    for (const m of d.added) this.watch?.unwatch(m.conditionId);
    if (this.state === 'running') for (const m of d.removed) this.watch?.watch(m.conditionId);
    this.cache.setUniverse(d.markets);
    this.recorder?.markets(d.markets);
    this.log.info(
      {
        added: d.added.map((m) => m.conditionId),
        removed: d.removed.map((m) => m.conditionId),
        changed: d.changed.map((m) => m.conditionId),
        markets: d.markets.length,
      },
      'universe changed',
    );
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

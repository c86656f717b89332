// The daemon's Prometheus metrics (prom-client, a registry of its own: nothing global, so two
// daemons in one process or one test file never share a series). Two kinds of input:
// - events, pushed through small hooks as they happen: each cycle's report (latency histogram,
//   quotes dropped by risk, the expected reward score per market, replaced as a whole each cycle
//   so a market that left the universe does not keep its last score), the order manager's apply
//   and cancelAll reports (through MeteredExecutor: placed, cancelled, rejected by bounded reason,
//   dropped by reason), every new fill (the order manager's onFill), every route acquired and
//   every 429 (through MeteredLimiter);
// - state, read by the collector at scrape time (scrape()): the daemon's status (mode, quoting,
//   kill switch, circuit breakers, markets, open orders), the ledger's positions and PnL per market
//   marked at the mids, the limiter's backend health (a shared Redis up or not), and its queue
//   depth and window utilisation per route used;
//   plus prom-client's default process metrics (CPU, memory, handles, GC, event-loop lag).
//   The ops console reads the same limiter state through limiterView().
// Invariants kept: label values are bounded (market ids of the universe and of traded markets,
// route templates, fixed reason sets; a rejection's free text is mapped by rejections.ts);
// amounts are exported in collateral units and shares as floats derived from the exact integer
// millionths (display only, never read back); a scrape never changes the daemon's state, and a
// failing source (a closed ledger, an unreachable Redis) leaves its series out rather than
// failing the whole scrape.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { toFloat, type Price } from '../../core/money.js';
import type { FillEvent } from '../../execution/fill-tracker.js';
import type { ApiGroup } from '../../ratelimit/budgets.js';
import type { RateLimiter, RouteUtilisation } from '../../ratelimit/types.js';
import type { CycleReport } from '../cycle.js';
import type { DaemonStatus } from '../daemon.js';
import type { ApplyReport, CancelAllReport, OrderExecutor } from '../executor.js';
import { healthOf } from './health.js';
import { MeteredExecutor, MeteredLimiter, type ExecutorHooks, type LimiterHooks } from './hooks.js';
import type { PnlReport } from './pnl.js';
import { rejectionReason } from './rejections.js';

/** The limiter as the ops console shows it. */
export interface LimiterView {
  /** The backend can admit (always for memory; a shared Redis reachable). */
  readonly up: boolean;
  readonly reason: string | null;
  /** Routes used so far, in first-use order (empty while the backend is down). */
  readonly routes: readonly RouteUtilisation[];
}

/** What the collector reads at scrape time. */
export interface ScrapeSource {
  status(): DaemonStatus;
  /** null once the ledger is closed. */
  pnl(): PnlReport | null;
  mids(): ReadonlyMap<string, Price>;
}

export interface OpsMetricsOptions {
  /** prom-client's default process metrics (default true; tests of several registries may skip). */
  readonly processMetrics?: boolean;
}

const CYCLE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class OpsMetrics implements ExecutorHooks, LimiterHooks {
  readonly registry = new Registry();
  private limiter: RateLimiter | null = null;
  private source: ScrapeSource | null = null;
  /** Routes the limiter was asked for, by `api route` (the groups as given, maybe undefined). */
  private readonly routes = new Map<string, { route: string; api: ApiGroup | undefined }>();

  private readonly cycles: Counter;
  private readonly cycleSeconds: Histogram;
  private readonly quotesDropped: Counter<'reason'>;
  private readonly strategyErrors: Counter;
  private readonly placed: Counter;
  private readonly cancelled: Counter<'via'>;
  private readonly cancelsFailed: Counter;
  private readonly rejected: Counter<'reason'>;
  private readonly placementsDropped: Counter<'reason'>;
  private readonly pauseFailures: Counter;
  private readonly limiterFailures: Counter;
  private limiterFailuresSeen = 0;
  /** The limiter's pauseFailures() at the last scrape (the counter grows by the difference). */
  private pauseFailuresSeen = 0;
  private readonly unknown: Counter;
  private readonly fills: Counter<'market' | 'side' | 'liquidity'>;
  private readonly filledShares: Counter<'market' | 'side'>;
  private readonly throttled: Counter<'route' | 'api'>;
  private readonly collectErrors: Counter<'source'>;

  private readonly info: Gauge<'mode' | 'strategy' | 'state'>;
  private readonly healthy: Gauge;
  private readonly quoting: Gauge;
  private readonly paused: Gauge;
  private readonly halted: Gauge;
  private readonly killSwitch: Gauge;
  private readonly breakerOpen: Gauge<'breaker'>;
  private readonly pollFailures: Gauge;
  private readonly marketsG: Gauge;
  private readonly staleMarkets: Gauge;
  private readonly openOrders: Gauge;
  private readonly finalReadsOwed: Gauge;
  private readonly finalReadLag: Gauge;
  private readonly liveReadAge: Gauge;
  private readonly cancelHeadroom: Gauge;
  private readonly placementHold: Gauge<'reason'>;
  private readonly marketQuotes: Gauge<'market'>;
  private readonly marketOrders: Gauge<'market'>;
  private readonly rewardScore: Gauge<'market'>;
  private readonly mid: Gauge<'market' | 'token'>;
  private readonly position: Gauge<'market' | 'token'>;
  private readonly positionPending: Gauge<'market' | 'token'>;
  private readonly realized: Gauge<'market'>;
  private readonly unrealized: Gauge<'market'>;
  private readonly fees: Gauge<'market'>;
  private readonly pnlTotal: Gauge<'kind'>;
  private readonly freeCollateral: Gauge;
  private readonly queueDepth: Gauge<'priority'>;
  private readonly routeQueued: Gauge<'route' | 'api'>;
  private readonly utilisation: Gauge<'route' | 'api' | 'bucket' | 'window'>;
  private readonly routePaused: Gauge<'route' | 'api'>;
  private readonly backendUp: Gauge;

  constructor(opts: OpsMetricsOptions = {}) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> =>
      new Counter<L>({ name, help, labelNames, registers });
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> =>
      new Gauge<L>({ name, help, labelNames, registers });

    this.cycles = counter('oddsmaker_cycles_total', 'Quoting cycles run.');
    this.cycleSeconds = new Histogram({
      name: 'oddsmaker_cycle_duration_seconds',
      help: 'Time of a quoting cycle, books received to plan applied (poll excluded).',
      buckets: CYCLE_BUCKETS,
      registers,
    });
    this.quotesDropped = counter('oddsmaker_quotes_dropped_total', 'Desired quotes dropped by risk, by reason.', [
      'reason',
    ]);
    this.strategyErrors = counter('oddsmaker_strategy_errors_total', 'Cycles in which the strategy threw.');
    this.placed = counter('oddsmaker_orders_placed_total', 'Orders the exchange accepted.');
    this.cancelled = counter(
      'oddsmaker_orders_cancelled_total',
      'Orders cancelled, by a cycle (quote pulled or moved) or a cancel-all (shutdown, kill switch, operator).',
      ['via'],
    );
    this.cancelsFailed = counter('oddsmaker_cancels_failed_total', 'Cancels that failed or were refused.');
    this.rejected = counter('oddsmaker_orders_rejected_total', 'Placements the exchange rejected, by reason.', [
      'reason',
    ]);
    this.placementsDropped = counter(
      'oddsmaker_placements_dropped_total',
      'Placements not sent, by reason (limiter pressure, circuit open, cool-down, ...).',
      ['reason'],
    );
    this.unknown = counter(
      'oddsmaker_orders_unknown_total',
      'Orders whose placement or cancel answer was lost (resolved later by lookup).',
    );
    this.fills = counter('oddsmaker_fills_total', 'Fills of our orders.', ['market', 'side', 'liquidity']);
    this.filledShares = counter('oddsmaker_filled_shares_total', 'Shares filled.', ['market', 'side']);
    this.throttled = counter(
      'oddsmaker_throttled_responses_total',
      'Responses 429 (throttled) from the exchange, by route.',
      ['route', 'api'],
    );
    this.collectErrors = counter(
      'oddsmaker_metrics_collect_errors_total',
      'Scrape-time sources that failed (their series are left out).',
      ['source'],
    );

    this.info = gauge('oddsmaker_info', 'Always 1: the mode, strategy and daemon state as labels.', [
      'mode',
      'strategy',
      'state',
    ]);
    this.healthy = gauge('oddsmaker_healthy', '1 when /healthz answers 200.');
    this.quoting = gauge('oddsmaker_quoting', '1 while quotes are being made.');
    this.paused = gauge('oddsmaker_paused', '1 while an operator paused quoting.');
    this.halted = gauge('oddsmaker_strategy_halted', '1 while a strategy error halts quoting.');
    this.killSwitch = gauge('oddsmaker_kill_switch_tripped', '1 while the kill switch is tripped.');
    this.breakerOpen = gauge('oddsmaker_circuit_breaker_open', '1 while a circuit breaker is open.', ['breaker']);
    this.pollFailures = gauge('oddsmaker_consecutive_poll_failures', 'Failed polls since the last good one.');
    this.marketsG = gauge('oddsmaker_markets', 'Markets in the universe.');
    this.staleMarkets = gauge('oddsmaker_markets_stale', 'Markets whose data is stale.');
    this.openOrders = gauge('oddsmaker_open_orders', 'Our open orders (in flight, live, cancelling, unknown).');
    this.finalReadsOwed = gauge(
      'oddsmaker_fill_final_reads_owed',
      'Cancelled orders whose final lookup (what matched before the cancel) is still owed.',
    );
    this.finalReadLag = gauge(
      'oddsmaker_fill_final_read_lag_seconds',
      'Age of the oldest final read owed: how far the ledger may lag the exchange.',
    );
    this.liveReadAge = gauge(
      'oddsmaker_fill_live_read_age_seconds',
      'Longest time since a live order of ours was last looked up.',
    );
    this.cancelHeadroom = gauge(
      'oddsmaker_cancel_headroom',
      'Cancels the cancel budgets allow beyond every open order and the reserve (at the last placement).',
    );
    this.placementHold = gauge(
      'oddsmaker_placement_hold',
      'Placements held back (1) by reason: fill-backlog, cancel-reserve.',
      ['reason'],
    );
    this.marketQuotes = gauge('oddsmaker_market_quotes', 'Quotes risk accepted in the last cycle, per market.', [
      'market',
    ]);
    this.marketOrders = gauge('oddsmaker_market_open_orders', 'Our open orders per market.', ['market']);
    this.rewardScore = gauge(
      'oddsmaker_reward_score',
      'Expected liquidity-reward score (protocol §6 Q_min, shares) of the quotes risk accepted in the last cycle, per market; 0 without rewards.',
      ['market'],
    );
    this.mid = gauge('oddsmaker_mid_price', 'Mid price per token of the universe.', ['market', 'token']);
    this.position = gauge('oddsmaker_position_shares', 'Shares held per token.', ['market', 'token']);
    this.positionPending = gauge(
      'oddsmaker_position_pending_shares',
      'Shares held per token whose trades are not final yet (settlement MATCHED, MINED or RETRYING, or not yet seen on the trades route); held minus pending is confirmed.',
      ['market', 'token'],
    );
    this.realized = gauge('oddsmaker_pnl_realized', 'Realized PnL per market, net of fees, collateral units.', [
      'market',
    ]);
    this.unrealized = gauge(
      'oddsmaker_pnl_unrealized',
      'Unrealized PnL per market at the mids, collateral units (unmarked tokens left out).',
      ['market'],
    );
    this.fees = gauge('oddsmaker_fees_paid', 'Fees paid per market, collateral units (already in realized).', [
      'market',
    ]);
    this.pnlTotal = gauge(
      'oddsmaker_pnl',
      'PnL totals, collateral units: realized, unrealized, fees, total, daily (the kill switch input).',
      ['kind'],
    );
    this.freeCollateral = gauge('oddsmaker_free_collateral', 'Free collateral after the last cycle, collateral units.');
    this.limiterFailures = counter(
      'oddsmaker_limiter_failures_total',
      'Placement checks the rate limiter could not answer (its store down): each failed its cycle, nothing was placed.',
    );
    this.pauseFailures = counter(
      'oddsmaker_ratelimit_pause_failures_total',
      'Pauses after a 429 the limiter could not write to its shared store (Redis): the other processes on the key did not pause.',
    );
    this.queueDepth = gauge('oddsmaker_ratelimit_queue_depth', 'Requests waiting at the rate limiter, by priority.', [
      'priority',
    ]);
    this.routeQueued = gauge('oddsmaker_ratelimit_route_queued', 'Requests waiting at the rate limiter, by route.', [
      'route',
      'api',
    ]);
    this.utilisation = gauge(
      'oddsmaker_ratelimit_utilisation',
      "Share of a window's budget used (0..1), per route and window.",
      ['route', 'api', 'bucket', 'window'],
    );
    this.routePaused = gauge('oddsmaker_ratelimit_paused_seconds', 'Remaining pause of a route after a 429.', [
      'route',
      'api',
    ]);
    this.backendUp = gauge(
      'oddsmaker_ratelimit_backend_up',
      "1 while the rate limiter's backend can admit (always for memory; a shared Redis reachable); 0: nothing is sent, quoting is off.",
    );

    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** The limiter, metered (hand this one to the gateway); its queue and windows are scraped. */
  meterLimiter(limiter: RateLimiter): RateLimiter {
    this.limiter = limiter;
    return new MeteredLimiter(limiter, this);
  }

  /** The order manager, metered (hand this one to the daemon). */
  meterExecutor(executor: OrderExecutor): OrderExecutor {
    return new MeteredExecutor(executor, this);
  }

  /** What the collector reads at scrape time (the running daemon). */
  attach(source: ScrapeSource): void {
    this.source = source;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The limiter's backend and each route used so far with its queue and windows (the ops
   * console); null without a limiter. Read-only, like a scrape.
   */
  async limiterView(): Promise<LimiterView | null> {
    const l = this.limiter;
    if (l === null) return null;
    const h = l.health?.() ?? { ok: true as const };
    if (!h.ok) return { up: false, reason: h.reason, routes: [] };
    const routes: RouteUtilisation[] = [];
    for (const { route, api } of this.routes.values()) routes.push(await l.utilisation(route, api));
    return { up: true, reason: null, routes };
  }

  // ----------------------------------------------------------------------------- event hooks

  onCycle(r: CycleReport): void {
    this.cycles.inc();
    this.cycleSeconds.observe(r.durationMs / 1000);
    for (const [reason, n] of Object.entries(r.dropped))
      if (n !== undefined && n > 0) this.quotesDropped.inc({ reason }, n);
    if (r.strategyError !== null) this.strategyErrors.inc();
    this.rewardScore.reset();
    for (const [market, score] of r.rewardScores) this.rewardScore.set({ market }, score);
  }

  onApply(r: ApplyReport): void {
    if (r.accepted > 0) this.placed.inc(r.accepted);
    if (r.cancelled > 0) this.cancelled.inc({ via: 'cycle' }, r.cancelled);
    if (r.cancelsFailed > 0) this.cancelsFailed.inc(r.cancelsFailed);
    if (r.unknown > 0) this.unknown.inc(r.unknown);
    for (const x of r.rejected) this.rejected.inc({ reason: rejectionReason(x.errorMsg) });
    for (const d of r.dropped) this.placementsDropped.inc({ reason: d.reason });
  }

  onCancelAll(r: CancelAllReport): void {
    if (r.cancelled > 0) this.cancelled.inc({ via: 'cancel_all' }, r.cancelled);
  }

  onFill(f: FillEvent): void {
    this.fills.inc({ market: f.conditionId, side: f.side, liquidity: f.liquidity });
    this.filledShares.inc({ market: f.conditionId, side: f.side }, toFloat(f.size));
  }

  onAcquire(route: string, api: ApiGroup | undefined): void {
    const key = `${api ?? ''} ${route}`;
    if (!this.routes.has(key)) this.routes.set(key, { route, api });
  }

  onThrottled(route: string, api: ApiGroup | undefined): void {
    this.throttled.inc({ route, api: api ?? '' });
  }

  // ----------------------------------------------------------------------------- scrape

  /** Reads the sources, then renders every metric in Prometheus' text format. */
  async scrape(): Promise<string> {
    this.collectDaemon();
    await this.collectLimiter();
    return this.registry.metrics();
  }

  private collectDaemon(): void {
    const src = this.source;
    if (src === null) return;
    let s: DaemonStatus;
    try {
      s = src.status();
    } catch {
      this.collectErrors.inc({ source: 'status' });
      return;
    }
    this.info.reset();
    this.info.set({ mode: s.mode, strategy: s.strategy, state: s.state }, 1);
    this.healthy.set(healthOf(s).healthy ? 1 : 0);
    this.quoting.set(s.quoting ? 1 : 0);
    this.paused.set(s.paused ? 1 : 0);
    this.halted.set(s.halted === null ? 0 : 1);
    this.killSwitch.set(s.killSwitch.tripped ? 1 : 0);
    this.breakerOpen.set({ breaker: 'order_entry' }, s.circuitBreaker.orderEntry === 'open' ? 1 : 0);
    this.breakerOpen.set({ breaker: 'market_data' }, s.circuitBreaker.marketData === 'open' ? 1 : 0);
    this.pollFailures.set(s.circuitBreaker.consecutivePollFailures);
    this.marketsG.set(s.markets.length);
    this.staleMarkets.set(s.markets.filter((m) => m.stale).length);
    this.openOrders.set(s.openOrders);
    if (s.fillReads !== null) {
      this.finalReadsOwed.set(s.fillReads.pendingSettlements);
      this.finalReadLag.set(s.fillReads.oldestFinalReadOwedMs / 1000);
      this.liveReadAge.set(s.fillReads.oldestLiveReadMs / 1000);
      if (s.fillReads.cancelHeadroom !== null) this.cancelHeadroom.set(s.fillReads.cancelHeadroom);
      if (s.fillReads.limiterFailures > this.limiterFailuresSeen)
        this.limiterFailures.inc(s.fillReads.limiterFailures - this.limiterFailuresSeen);
      this.limiterFailuresSeen = s.fillReads.limiterFailures;
      for (const reason of ['fill-backlog', 'cancel-reserve'] as const)
        this.placementHold.set({ reason }, s.fillReads.placementHold === reason ? 1 : 0);
    }
    this.pnlTotal.set({ kind: 'daily' }, toFloat(s.pnl.daily));
    if (s.pnl.freeCollateral !== null) this.freeCollateral.set(toFloat(s.pnl.freeCollateral));

    // Per-market series are rebuilt on every scrape, so a market that left is not frozen in place.
    for (const g of [
      this.marketQuotes,
      this.marketOrders,
      this.mid,
      this.position,
      this.positionPending,
      this.realized,
      this.unrealized,
      this.fees,
    ])
      g.reset();
    const mids = src.mids();
    const inUniverse = new Set<string>();
    for (const m of s.markets) {
      inUniverse.add(m.conditionId);
      this.marketQuotes.set({ market: m.conditionId }, m.quotes);
      this.marketOrders.set({ market: m.conditionId }, m.openOrders);
      for (const t of m.tokens) {
        const mid = mids.get(t);
        if (mid !== undefined) this.mid.set({ market: m.conditionId, token: t }, toFloat(mid));
      }
    }
    let pnl: PnlReport | null;
    try {
      pnl = src.pnl();
    } catch {
      this.collectErrors.inc({ source: 'ledger' });
      return;
    }
    if (pnl === null) return;
    // Markets of the universe, and any other market where something is still held.
    const shown = new Set(inUniverse);
    for (const t of pnl.tokens) {
      // Pending shares of every held token (0 included), and of a flat one whose trades are not final.
      if (t.size !== 0 || t.pendingSize !== 0)
        this.positionPending.set({ market: t.conditionId, token: t.tokenId }, toFloat(t.pendingSize));
      if (t.size === 0) continue;
      shown.add(t.conditionId);
      this.position.set({ market: t.conditionId, token: t.tokenId }, toFloat(t.size));
    }
    // A market of the universe never traded shows zeros rather than no series.
    for (const id of inUniverse) for (const g of [this.realized, this.unrealized, this.fees]) g.set({ market: id }, 0);
    for (const m of pnl.markets) {
      if (!shown.has(m.conditionId)) continue;
      this.realized.set({ market: m.conditionId }, toFloat(m.realized));
      this.unrealized.set({ market: m.conditionId }, toFloat(m.unrealized));
      this.fees.set({ market: m.conditionId }, toFloat(m.fees));
    }
    this.pnlTotal.set({ kind: 'realized' }, toFloat(pnl.realized));
    this.pnlTotal.set({ kind: 'unrealized' }, toFloat(pnl.unrealized));
    this.pnlTotal.set({ kind: 'fees' }, toFloat(pnl.fees));
    this.pnlTotal.set({ kind: 'total' }, toFloat(pnl.total));
  }

  private async collectLimiter(): Promise<void> {
    const l = this.limiter;
    if (l === null) return;
    this.queueDepth.reset();
    this.routeQueued.reset();
    this.utilisation.reset();
    this.routePaused.reset();
    const failedPauses = l.pauseFailures?.() ?? 0;
    if (failedPauses > this.pauseFailuresSeen) this.pauseFailures.inc(failedPauses - this.pauseFailuresSeen);
    this.pauseFailuresSeen = failedPauses;
    const up = l.health?.().ok ?? true;
    this.backendUp.set(up ? 1 : 0);
    if (!up) return; // the windows live in the unreachable store: leave them out, no error to count
    try {
      const d = l.queueDepth();
      for (const p of ['cancel', 'replace', 'new', 'read'] as const) this.queueDepth.set({ priority: p }, d[p]);
      for (const { route, api } of this.routes.values()) {
        const u = await l.utilisation(route, api);
        const labels = { route, api: u.api };
        this.routeQueued.set(labels, u.queued);
        this.routePaused.set(labels, u.pausedForMs / 1000);
        for (const w of u.windows) {
          this.utilisation.set({ ...labels, bucket: w.bucket, window: `${w.windowMs / 1000}s` }, w.utilisation);
        }
      }
    } catch {
      this.collectErrors.inc({ source: 'limiter' });
    }
  }
}

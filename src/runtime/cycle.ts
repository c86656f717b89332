// One quoting cycle (docs/ARCHITECTURE.md §3's data flow): books and mids → book cache → strategy input
// (markets, tokens with books, mids, recent mids, positions from the ledger, our open orders,
// free collateral) → strategy.quote → risk (stale data, limits, kill switch) → reconcile against
// our open orders (token by token, reusing unchanged tokens' plans: incremental-reconcile.ts) →
// the order manager; then, when due, the trade feed reads our trades (the exchange's trades
// route, the main fill source where there is one) and the order manager looks orders up for
// fills (the fallback), and every fill the ledger recorded since the last cycle (whatever found it: placement,
// lookup, the manager's own timers) is told to the strategy. Invariants kept:
// - `planCycle` is synchronous and does no I/O beyond reading the ledger: it is the internal part
//   the benchmark times (books received → plan handed to the order manager);
// - when quoting is off (paused, circuit open, strategy halted) the strategy is not asked and the
//   desired set is empty, so reconcile cancels every resting quote; a tripped kill switch does the
//   same through risk; a stale market's quotes are dropped by risk (`stale-data`), so reconcile
//   cancels them; a market that left the universe has no desired quotes, so its orders go too;
// - a strategy that throws is reported (`strategyError`) and its cycle quotes nothing: quotes
//   are pulled at once, never left resting on a broken strategy's last word;
// - free collateral = capital + realized PnL (the ledger's, net of fees) − cost of the shares
//   held − collateral reserved by our open bids (price × remaining size, rounded up, in-flight,
//   unknown and cancelling ones included: the exchange may still hold them). That is our own
//   account of it; when the exchange's balance is known and recent (GET /balance-allowance,
//   balance-check.ts; `ctx.exchangeBalance`), the figure before the reservation is the lesser of
//   the two, so free = min(ledger-derived, exchange balance) − reserved. Risk gets the same figure
//   before the reservation, because the quotes it checks are the whole resting set: BUY quotes
//   beyond it are dropped, never sent;
// - fills reach the strategy exactly once each, in ledger order: the ledger deduplicates them and
//   the cycle remembers the last sequence number it handed on;
// - every count in the report comes from the plan, risk result and order-manager report used;
// - the expected reward score (docs/protocol.md §6's Q_min, rewards-score.ts) is computed for every
//   strategy from the quotes risk accepted, as they would rest, against each market's book less
//   our resting orders: every market of the universe has an entry, 0 when it pays no rewards or
//   has no mid. It is a unitless signal in shares (a float), never money; the ledger stores the
//   cycle's total rounded to share millionths (an integer, like every other ledger column).
import { bestAsk, bestBid, midSamples, type Book, type MidSample, type MidSeries } from '../core/book.js';
import type { Clock } from '../core/clock.js';
import { utcDate } from '../core/iso-time.js';
import { marketLabel } from '../core/market-label.js';
import { mulMicros, SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import { remainingSize, type LiveOrder } from '../core/order.js';
import { sameItems } from '../core/same-items.js';
import type { DesiredQuote } from '../core/quote.js';
import {
  checkRisk,
  type KillSwitchState,
  type RiskLimits,
  type RiskReason,
  type RiskResult,
  type TokenRiskInfo,
} from '../execution/risk.js';
import type { ReconcilePlan } from '../execution/types.js';
import type { CycleInput, DailyPnl, LedgerFill, LedgerPosition } from '../ledger/types.js';
import type { ApplyResult, BookCache, CachedMarket, TickChange, TokenEntry } from '../marketdata/book-cache.js';
import type { MarketSnapshot, UniverseToken } from '../marketdata/types.js';
import {
  MID_SERIES,
  type MarketView,
  type StrategyFill,
  type StrategyInput,
  type TokenView,
} from '../strategy/context.js';
import type { StrategyRunner } from '../strategy/define.js';
import { expectedRewardScores } from '../strategy/rewards-score.js';
import type { ApplyReport, MarketInfo, MarketsByToken, OrderExecutor } from './executor.js';
import type { IncrementalReconciler } from './incremental-reconcile.js';

/** What the cycle reads and writes in the ledger (the Ledger class satisfies it). */
export interface LedgerView {
  positions(opts?: { openOnly?: boolean }): LedgerPosition[];
  dailyPnl(mids: ReadonlyMap<string, Price>): DailyPnl;
  recordCycle(c: CycleInput): void;
  /** Fills in record order after sequence number afterSeq. */
  fills(afterSeq?: number, limit?: number): LedgerFill[];
}

/** What a cycle's decisions read of the executor of its plans (every executor has it). */
export type ExecutorView = Pick<OrderExecutor, 'liveOrders' | 'placementHold' | 'rejections'>;

export interface CycleContext<E extends ExecutorView = OrderExecutor> {
  readonly clock: Clock;
  readonly cache: BookCache;
  readonly runner: StrategyRunner;
  readonly executor: E;
  readonly ledger: LedgerView;
  readonly limits: RiskLimits;
  readonly capital: Micros;
  /** Reconcile, token by token, with the configured size tolerance. */
  readonly reconciler: IncrementalReconciler;
  /** Our trades from the exchange's trades route (src/execution/trade-feed.ts), when it has one. */
  readonly tradeFeed?: { poll(signal?: AbortSignal): Promise<{ readonly complete: boolean }> };
  /** The exchange's collateral balance when a recent reading exists, else null (absent: never). */
  readonly exchangeBalance?: () => Micros | null;
}

export interface CycleControl {
  /** false: paused, circuit open or strategy halted; every quote is pulled. */
  readonly quoting: boolean;
  readonly killSwitch: KillSwitchState;
  /** Poll fills and resolve unknown orders after applying the plan. */
  readonly pollFills: boolean;
  /** Ledger sequence number of the last fill already told to the strategy. */
  readonly fillSeq: number;
}

export interface Collateral {
  /** capital + realized − cost of held shares: what the whole resting set of bids may use. */
  readonly available: Micros;
  /** Reserved by our open bids. */
  readonly reserved: Micros;
  /** available − reserved, at least 0: what the strategy sees. */
  readonly free: Micros;
}

export interface PlannedCycle {
  readonly nowMs: number;
  readonly input: StrategyInput;
  /** Quotes the strategy asked for (0 when quoting is off or it threw). */
  readonly desired: number;
  readonly risk: RiskResult;
  readonly plan: ReconcilePlan;
  readonly staleMarkets: readonly string[];
  readonly dailyPnl: DailyPnl;
  readonly collateral: Collateral;
  readonly strategyError: unknown;
  /** Quotes accepted by risk, per market. */
  readonly quotesByMarket: ReadonlyMap<string, number>;
  /** Expected reward score (Q_min, shares) of the accepted quotes, per market of the universe. */
  readonly rewardScores: ReadonlyMap<string, number>;
  /** Σ of rewardScores. */
  readonly rewardScore: number;
}

export interface CycleReport {
  readonly startedAtMs: number;
  readonly books: number;
  readonly ignoredBooks: number;
  readonly markets: number;
  readonly staleMarkets: readonly string[];
  readonly tickChanges: readonly TickChange[];
  readonly desired: number;
  /** Quotes accepted by risk (what should rest). */
  readonly quotes: number;
  readonly dropped: Readonly<Partial<Record<RiskReason, number>>>;
  /** The plan: placements and cancels wanted, orders kept, keys waiting on an in-flight order. */
  readonly planPlacements: number;
  readonly planCancels: number;
  readonly kept: number;
  readonly blocked: number;
  /** What the order manager did with it. */
  readonly placed: number;
  readonly rejected: number;
  readonly cancelled: number;
  readonly placementsDropped: number;
  readonly unknown: number;
  /** New fills recorded in the ledger since the last cycle. */
  readonly fills: number;
  readonly fillSeq: number;
  readonly openOrders: number;
  readonly dailyPnl: Micros;
  readonly freeCollateral: Micros;
  readonly killSwitch: KillSwitchState;
  readonly strategyError: unknown;
  readonly quotesByMarket: ReadonlyMap<string, number>;
  /** Expected reward score (Q_min, shares) of the accepted quotes, per market; 0 without rewards. */
  readonly rewardScores: ReadonlyMap<string, number>;
  /** Σ of rewardScores, shares. */
  readonly rewardScore: number;
  /** Clock time of the whole cycle, ms (poll excluded). */
  readonly durationMs: number;
}

/**
 * Whether an order of ours may have filled since it was last read, from the latest book (which
 * shows our own orders): a BUY at p with no bid at or above p (our level is gone: taken, or the
 * book moved through it) or at the best bid (first in line), a SELL likewise on the asks. An
 * order behind the touch cannot have traded without the touch moving through it. No book: maybe.
 */
export function mayHaveFilled(cache: BookCache): (o: Pick<LiveOrder, 'tokenId' | 'side' | 'price'>) => boolean {
  return (o) => {
    const book = cache.token(o.tokenId)?.book ?? null;
    if (book === null) return true;
    const best = o.side === 'BUY' ? bestBid(book) : bestAsk(book);
    if (best === null) return true;
    return o.side === 'BUY' ? best.price <= o.price : best.price >= o.price;
  };
}

/**
 * Collateral from the ledger's positions and our open orders, capped by the exchange's balance
 * when one is given (see the header).
 */
export function collateral(
  capital: Micros,
  positions: readonly LedgerPosition[],
  open: readonly LiveOrder[],
  exchangeBalance: Micros | null = null,
): Collateral {
  let available = capital as number;
  for (const p of positions) available += p.realized - p.cost;
  // The exchange's balance holds what our resting bids reserve (they are off chain until matched).
  if (exchangeBalance !== null && exchangeBalance < available) available = exchangeBalance;
  let reserved = 0;
  for (const o of open) if (o.side === 'BUY') reserved += mulMicros(o.price, remainingSize(o), 'ceil');
  return {
    available: available as Micros,
    reserved: reserved as Micros,
    free: Math.max(0, available - reserved) as Micros,
  };
}

/** The window of a token the cache does not hold. */
const NO_MIDS: MidSeries = Object.freeze({ atMs: new Float64Array(0), mid: new Float64Array(0), start: 0, end: 0 });

/**
 * One token as the strategy input shows it. Its recent mids are the cache's window (a MidSeries
 * that never changes): `[MID_SERIES]` hands it out as it is, and `recentMids` makes the samples
 * of it on its first read, so the strategy may keep either. The guards read the columns; a
 * strategy that reads no mids costs no copy (the copies were a fifth of what a many-market cycle
 * allocated). `toJSON` lists every field, so a view serialises as the plain object it stands for.
 */
class CycleTokenView implements TokenView {
  readonly tokenId: string;
  readonly outcome: string;
  readonly complementTokenId: string | null;
  readonly book: Book | null;
  readonly bookAtMs: number | null;
  readonly mid: Price | null;
  readonly #window: MidSeries;
  #mids: readonly MidSample[] | null = null;

  constructor(
    t: UniverseToken,
    e: TokenEntry | undefined,
    window: MidSeries | null,
    readonly position: Shares,
    readonly openOrders: readonly LiveOrder[],
  ) {
    this.tokenId = t.tokenId;
    this.outcome = t.outcome;
    this.complementTokenId = t.complementTokenId;
    this.book = e?.book ?? null;
    this.bookAtMs = e?.bookAtMs ?? null;
    this.mid = e?.mid ?? null;
    this.#window = window ?? NO_MIDS;
  }

  get [MID_SERIES](): MidSeries {
    return this.#window;
  }

  get recentMids(): readonly MidSample[] {
    return (this.#mids ??= midSamples(this.#window));
  }

  toJSON(): TokenView {
    return {
      tokenId: this.tokenId,
      outcome: this.outcome,
      complementTokenId: this.complementTokenId,
      book: this.book,
      bookAtMs: this.bookAtMs,
      mid: this.mid,
      recentMids: this.recentMids,
      position: this.position,
      openOrders: this.openOrders,
    };
  }
}

/** The strategy's view of the cache, positions and orders. */
export function buildStrategyInput(
  cache: BookCache,
  nowMs: number,
  positions: ReadonlyMap<string, Shares>,
  open: readonly LiveOrder[],
  free: Micros,
  placementHold: StrategyInput['placementHold'] = null,
  rejections: StrategyInput['rejections'] = [],
): StrategyInput {
  const byToken = new Map<string, LiveOrder[]>();
  for (const o of open) {
    const l = byToken.get(o.tokenId);
    if (l === undefined) byToken.set(o.tokenId, [o]);
    else l.push(o);
  }
  const none: readonly LiveOrder[] = [];
  const markets: MarketView[] = [];
  for (const m of cache.markets()) {
    const tokens: TokenView[] = [];
    for (const t of m.tokens) {
      const e = cache.token(t.tokenId);
      tokens.push(
        new CycleTokenView(
          t,
          e,
          cache.midWindow(t.tokenId),
          positions.get(t.tokenId) ?? (0 as Shares),
          byToken.get(t.tokenId) ?? none,
        ),
      );
    }
    markets.push({ conditionId: m.conditionId, settings: m.settings, tokens });
  }
  return { nowMs, markets, openOrders: open, freeCollateral: free, placementHold, rejections };
}

/** Risk's view of every token of the universe; a market's data time is its older token's. */
export function riskTokens(cache: BookCache): Map<string, TokenRiskInfo> {
  const out = new Map<string, TokenRiskInfo>();
  for (const m of cache.markets()) {
    const dataAtMs = cache.marketDataAtMs(m.conditionId);
    for (const t of m.tokens) {
      out.set(t.tokenId, {
        tokenId: t.tokenId,
        marketId: m.conditionId,
        complementTokenId: t.complementTokenId,
        tickSize: m.settings.tickSize,
        minOrderSize: m.settings.minOrderSize,
        acceptingOrders: m.settings.acceptingOrders,
        mark: cache.token(t.tokenId)?.mid ?? null,
        dataAtMs,
      });
    }
  }
  return out;
}

const marketsMemo = new WeakMap<readonly CachedMarket[], MarketsByToken>();

/**
 * Tick, neg-risk and fees of every token, as the order manager needs them to sign and book
 * orders. Rebuilt only when the cache's market list changes (a refresh or a tick change).
 */
export function marketsByToken(cache: BookCache): MarketsByToken {
  const list = cache.markets();
  const hit = marketsMemo.get(list);
  if (hit !== undefined) return hit;
  const out = new Map<string, MarketInfo>();
  // The label names the token's market in log lines (prices and sizes there are human units).
  for (const m of list)
    for (const t of m.tokens) out.set(t.tokenId, { ...m.settings, label: marketLabel(m.settings, t.outcome) });
  marketsMemo.set(list, out);
  return out;
}

/**
 * Q_min of `accepted` per market of `markets` (0 for a market without rewards or without a mid),
 * and their sum. Our resting orders are taken off the books first (expectedRewardScores).
 */
export function cycleRewardScores(
  markets: readonly MarketView[],
  accepted: readonly DesiredQuote[],
): { byMarket: Map<string, number>; total: number } {
  const scored = expectedRewardScores(markets, accepted);
  const byMarket = new Map<string, number>();
  let total = 0;
  for (const m of markets) {
    const q = scored.get(m.conditionId)?.qMin ?? 0;
    byMarket.set(m.conditionId, q);
    total += q;
  }
  return { byMarket, total };
}

/** Share of the live-order lookup budget spent when the trades route brought the fills (see runCycle). */
export const LIVE_READ_SHARE_WITH_TRADES = 0.25;

/** A score in shares as the ledger stores it: share millionths, rounded to the nearest. */
export function scoreMillionths(score: number): number {
  return Math.max(0, Math.round(score * SCALE));
}

/** A ledger's positions by token: what the strategy may sell, and what risk counts. */
interface PositionMaps {
  readonly items: readonly LedgerPosition[];
  /** Shares held (size > 0): the strategy is offered what it can sell. */
  readonly held: ReadonlyMap<string, Shares>;
  /**
   * Every non-zero position, signed: risk counts a position below zero (a SELL fill recorded
   * before the BUY that funded it) in exposure.
   */
  readonly signed: ReadonlyMap<string, Shares>;
}

const positionMemo = new WeakMap<object, PositionMaps>();

/**
 * The maps of `items`, the ledger's positions now; the last cycle's maps again when the ledger
 * handed the same position objects (the in-memory ledger does until a fill or a settlement), as
 * no consumer keeps or writes them.
 */
export function positionMaps(ledger: object, items: readonly LedgerPosition[]): PositionMaps {
  const last = positionMemo.get(ledger);
  if (last !== undefined && sameItems(last.items, items)) return last;
  const held = new Map<string, Shares>();
  const signed = new Map<string, Shares>();
  for (const p of items) {
    if (p.size > 0) held.set(p.tokenId, p.size);
    if (p.size !== 0) signed.set(p.tokenId, p.size);
  }
  const maps = { items, held, signed };
  positionMemo.set(ledger, maps);
  return maps;
}

/** Everything between the books and the plan (no I/O but ledger reads). */
export function planCycle(ctx: CycleContext<ExecutorView>, control: CycleControl, nowMs: number): PlannedCycle {
  const { cache, ledger, executor } = ctx;
  const ledgerPositions = ledger.positions();
  const { held, signed } = positionMaps(ledger, ledgerPositions);
  const open = executor.liveOrders();
  const coll = collateral(ctx.capital, ledgerPositions, open, ctx.exchangeBalance?.() ?? null);
  const input = buildStrategyInput(
    cache,
    nowMs,
    held,
    open,
    coll.free,
    executor.placementHold?.() ?? null,
    executor.rejections?.() ?? [],
  );
  const tokens = riskTokens(cache);
  const daily = ledger.dailyPnl(cache.mids());

  let quotes: readonly DesiredQuote[] = [];
  let strategyError: unknown = null;
  if (control.quoting) {
    try {
      quotes = ctx.runner.quote(input);
    } catch (err) {
      strategyError = err;
      quotes = [];
    }
  }
  const risk = checkRisk(
    quotes,
    {
      nowMs,
      tokens,
      positions: signed,
      collateral: coll.available,
      dailyPnl: daily.total,
      day: utcDate(daily.dayStartMs),
      killSwitch: control.killSwitch,
    },
    ctx.limits,
  );
  const plan = ctx.reconciler.plan(risk.accepted, open, (tokenId) => tokens.get(tokenId)?.minOrderSize ?? 0);
  const quotesByMarket = new Map<string, number>();
  for (const q of risk.accepted) {
    const m = tokens.get(q.tokenId)?.marketId;
    if (m !== undefined) quotesByMarket.set(m, (quotesByMarket.get(m) ?? 0) + 1);
  }
  const rewards = cycleRewardScores(input.markets, risk.accepted);
  return {
    nowMs,
    input,
    desired: quotes.length,
    risk,
    plan,
    staleMarkets: cache.staleMarkets(nowMs),
    dailyPnl: daily,
    collateral: coll,
    strategyError,
    quotesByMarket,
    rewardScores: rewards.byMarket,
    rewardScore: rewards.total,
  };
}

/** Counts of dropped quotes by reason. */
function dropCounts(risk: RiskResult): Partial<Record<RiskReason, number>> {
  const out: Partial<Record<RiskReason, number>> = {};
  for (const d of risk.dropped) out[d.reason] = (out[d.reason] ?? 0) + 1;
  return out;
}

/** Every fill the ledger recorded after `afterSeq`, in order. */
export function newFills(ledger: Pick<LedgerView, 'fills'>, afterSeq: number): LedgerFill[] {
  const out: LedgerFill[] = [];
  let seq = afterSeq;
  for (;;) {
    const page = ledger.fills(seq, 1_000);
    if (page.length === 0) return out;
    out.push(...page);
    seq = (page[page.length - 1] as LedgerFill).seq;
  }
}

/** Sequence number of the ledger's last fill (0 when none), paging through without keeping them. */
export function lastFillSeq(ledger: Pick<LedgerView, 'fills'>): number {
  let seq = 0;
  for (;;) {
    const page = ledger.fills(seq, 10_000);
    const last = page[page.length - 1];
    if (last === undefined) return seq;
    seq = last.seq;
  }
}

/** A ledger fill as the strategy hears of it, with the tag of its order when still known. */
export function strategyFill(f: LedgerFill, tags: ReadonlyMap<string, string>): StrategyFill {
  const tag = f.orderId === null ? undefined : tags.get(f.orderId);
  return {
    orderId: f.orderId ?? '',
    tokenId: f.tokenId,
    side: f.side,
    price: f.price,
    size: f.size,
    atMs: f.timeMs,
    ...(tag !== undefined ? { tag } : {}),
  };
}

/** A cycle between its plan and the order manager's report: what finishCycle needs. */
export interface StartedCycle {
  readonly startedAtMs: number;
  readonly t0: number;
  readonly applied: ApplyResult;
  readonly planned: PlannedCycle;
}

/** The cycle up to its plan: cache update, strategy, risk, reconcile (synchronous). */
export function beginCycle(
  ctx: CycleContext<ExecutorView>,
  control: CycleControl,
  snapshot: MarketSnapshot,
): StartedCycle {
  const { clock, cache } = ctx;
  const startedAtMs = clock.now();
  const t0 = clock.monotonic();
  const applied = cache.apply(snapshot);
  const planned = planCycle(ctx, control, clock.now());
  return { startedAtMs, t0, applied, planned };
}

/**
 * A full cycle on a snapshot: cache update, plan, order manager, fills. Errors of the order
 * manager propagate (the poller counts them); a strategy error does not (it is in the report).
 */
export async function runCycle(
  ctx: CycleContext,
  control: CycleControl,
  snapshot: MarketSnapshot,
): Promise<CycleReport> {
  const { cache, executor } = ctx;
  const started = beginCycle(ctx, control, snapshot);
  const done: ApplyReport = await executor.apply(started.planned.plan, marketsByToken(cache));
  if (control.pollFills) {
    // Trades first (exact prices, fees and settlement status); lookups then book only what no
    // trade has (the ledger claims shares across the two, never counting them twice).
    const trades = await ctx.tradeFeed?.poll();
    // With the trades read in full, live lookups are the fallback: a quarter of their budget.
    const tradesRead = trades?.complete === true;
    await executor.pollFills({
      mayHaveFilled: mayHaveFilled(cache),
      ...(tradesRead ? { liveReadShare: LIVE_READ_SHARE_WITH_TRADES } : {}),
    });
    await executor.resolveUnknown();
  }
  return finishCycle(ctx, control, snapshot, started, done);
}

/**
 * The cycle after the order manager's report (and, when due, the fill reads): new fills told to
 * the strategy, the report, the ledger's cycle row (synchronous).
 */
export function finishCycle(
  ctx: CycleContext<ExecutorView>,
  control: CycleControl,
  snapshot: Pick<MarketSnapshot, 'complete'>,
  started: StartedCycle,
  done: ApplyReport,
): CycleReport {
  const { clock, cache, executor, ledger } = ctx;
  const { startedAtMs, t0, applied, planned } = started;
  const fills = newFills(ledger, control.fillSeq);
  const fillSeq = fills.length === 0 ? control.fillSeq : (fills[fills.length - 1] as LedgerFill).seq;
  if (fills.length > 0 && planned.strategyError === null && ctx.runner.hearsFills !== false) {
    // The strategy hears of each fill with positions that already include it (a strategy with
    // no onFill hears nothing, so the input it would be told with is not built).
    const positions = ledger.positions();
    const held = new Map<string, Shares>();
    for (const p of positions) if (p.size > 0) held.set(p.tokenId, p.size);
    const open = executor.liveOrders();
    // Tags by order id: the orders the plan saw, then those live now (placed by it).
    const tags = new Map<string, string>();
    for (const o of planned.input.openOrders) if (o.tag !== undefined) tags.set(o.id, o.tag);
    for (const o of open) if (o.tag !== undefined) tags.set(o.id, o.tag);
    const input = buildStrategyInput(
      cache,
      clock.now(),
      held,
      open,
      collateral(ctx.capital, positions, open, ctx.exchangeBalance?.() ?? null).free,
    );
    for (const f of fills) ctx.runner.fill(input, strategyFill(f, tags));
  }

  // The ledger stores whole milliseconds; the system clock's monotonic time has sub-ms precision.
  const durationMs = Math.round(clock.monotonic() - t0);
  const report: CycleReport = {
    startedAtMs,
    books: applied.books,
    ignoredBooks: applied.ignored,
    markets: cache.markets().length,
    staleMarkets: planned.staleMarkets,
    tickChanges: applied.tickChanges,
    desired: planned.desired,
    quotes: planned.risk.accepted.length,
    dropped: dropCounts(planned.risk),
    planPlacements: planned.plan.placements.length,
    planCancels: planned.plan.cancels.length,
    kept: planned.plan.kept.length,
    blocked: planned.plan.blocked.length,
    placed: done.accepted,
    rejected: done.rejected.length,
    cancelled: done.cancelled,
    placementsDropped: done.dropped.length,
    unknown: done.unknown,
    fills: fills.length,
    fillSeq,
    openOrders: executor.liveOrders().length,
    dailyPnl: planned.dailyPnl.total,
    freeCollateral: planned.collateral.free,
    killSwitch: planned.risk.killSwitch,
    strategyError: planned.strategyError,
    quotesByMarket: planned.quotesByMarket,
    rewardScores: planned.rewardScores,
    rewardScore: planned.rewardScore,
    durationMs,
  };
  ledger.recordCycle({
    startedAtMs,
    durationMs,
    books: report.books,
    quotes: report.quotes,
    placed: report.placed,
    cancelled: report.cancelled,
    fills: report.fills,
    rewardScore: scoreMillionths(report.rewardScore),
    errors:
      (planned.strategyError === null ? 0 : 1) + report.rejected + done.cancelsFailed + (snapshot.complete ? 0 : 1),
  });
  return report;
}

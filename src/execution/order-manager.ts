// The order manager: the effects side of quoting (docs/ARCHITECTURE.md §3). It applies reconcile's plans
// to the exchange through the ExchangeGateway (whose requests pass the rate limiter), records every
// step in the ledger, tracks our open orders for the next reconcile, and turns placement results
// and order lookups into fills.
//
// Invariants kept:
// - cancels go first: every cancel of a plan is answered before its placements are sent, and a
//   placement at a key whose cancel did not go through is dropped for this cycle;
// - every signed order is written to the ledger (one transaction for the batch) before any of it
//   is sent, and marked `sent` right before its request; placements go in POST /orders chunks of
//   at most 15, replacements before new quotes, each with its limiter priority;
// - never a duplicate: a key with an order in flight, unknown or being cancelled gets nothing new;
//   an order whose answer was lost (timeout, 5xx, reset: `ambiguous`) goes `unknown` and is
//   resolved by looking up its id (the EIP-712 digest, known before sending) - LIVE is adopted,
//   MATCHED/CANCELED closed with their fills, not found frees the key (and is looked up once more
//   later, in case the request was still queued at the exchange). Nothing is ever resent;
// - a failure is treated as "never reached the exchange" only when it certainly did not
//   (failures.ts); those orders are marked rejected (the key cools down when the failure is not
//   transient). An exchange rejection (errorMsg) is recorded and its key is not placed again
//   before the cool-down ends;
// - under limiter pressure, stale work is dropped or coalesced, not queued: placements the
//   limiter cannot send within the horizon are dropped (the next cycle recomputes them), and a
//   plan handed in while another runs replaces any older waiting plan (which reports
//   `superseded`); a waiting plan that runs later re-checks every key against what changed since
//   it was computed (`stale`);
// - the circuit breaker (circuit-breaker.ts) stops placements after N consecutive exchange
//   failures and pulls quotes (cancels every live order) until the exchange answers again;
//   placements back off after transient failures and honour Retry-After;
// - fills are recorded once (the ledger deduplicates), and each new increment is emitted once;
// - durable obligations: a cancel is written (`cancelling`) before it is sent, and its answer
//   leaves the order `closing`: a cancel's answer does not say what matched before it, so the
//   order is owed one last lookup, and only that read makes it final. Both states are open in the
//   ledger, so a crash between the cancel and the read is worked through at the next start;
// - fills keep up with quoting: final reads come first, then live orders that may have filled
//   (the caller says which: at or through the touch), then the least recently read; the number of
//   reads follows `fillReadsPerSecond` (a share of the read budget), and while more than
//   `maxFinalReadBacklog` final reads are owed, placements stop (`fill-backlog`): quoting slows
//   rather than trades blind (cancels still go);
// - a cancel reserve: placements never take the live order count (in flight included) beyond what
//   the cancel route's budgets (every window at once) can still cancel, less `cancelReserve`;
//   past it placements stop (`cancel-reserve`), so shutdown and the kill switch can always cancel
//   everything;
// - startup: every order the ledger holds open is looked up before the first quote. The
//   interface has no "list my open orders" route, so a LIVE order on the exchange that the ledger
//   never recorded cannot be found; writing every order before sending is what makes that case
//   impossible for orders this daemon placed. Orphans here are ledger orders in signed, sent or
//   unknown state (a crash or lost answer): resolved by lookup, and those found live are
//   cancelled (policy `cancel`) or adopted as live orders for reconcile to manage (`adopt`); an
//   order we were cancelling (cancelling, closing) that is found live is cancelled whatever the
//   policy;
// - shutdown / kill switch (cancelAll): quoting stops, the running plan finishes, every live order
//   is cancelled (unknown ones looked up first), rounds repeat until nothing is open or the cancel
//   phase's share of the deadline passes; then the final reads of every cancelled order and a
//   lookup of whatever is still open (so the report says what is really left live), and in-flight
//   requests are awaited, all within the deadline;
// - a tracked order changes state only through moveTo, which checks the move against the one
//   order state machine (src/core/order-lifecycle.ts: the live-order states are a projection of the
//   ledger's);
// - time comes only from the injected Clock.
import { isOrderVersionMismatch } from '../exchange/order-version.js';
import { setMaxListeners } from 'node:events';
import type { Clock, TimerId } from '../core/clock.js';
import { DeadlineError, InvariantError } from '../core/errors.js';
import type { CancelResult, OrderRecord } from '../core/market.js';
import { formatMicros, type Shares } from '../core/money.js';
import type { LiveOrder, PlacementResult } from '../core/order.js';
import type { PlacementRejection } from '../core/quote.js';
import type { Dialect } from '../exchange/dialect.js';
import type { ExchangeGateway, WritePriority } from '../exchange/gateway.js';
import {
  buildOrder,
  SigningError,
  toWireSubmission,
  type SignatureType,
  type SignedOrder,
  type UnsignedOrder,
} from '../exchange/signing/index.js';
import type { WireOrderSubmission } from '../exchange/wire.js';
import type { Ledger, SignedOrderInput } from '../ledger/index.js';
import type { RateLimiter } from '../ratelimit/types.js';
import {
  BATCH_CANCEL_ROUTE,
  CANCEL_ROUTE,
  cancelCapacity,
  cancelChunks,
  cancelTargets,
  choosePlacements,
  chunkByPriority,
  EMPTY_REPORT,
  isIdlePlan,
  isNeverSendable,
  keepUnderPressure,
  lookupOrder,
  mirrorOutcome,
  moveTo,
  orderParties,
  orderToBuild,
  PLACE_ROUTE,
  placementVerdict,
  POST_ONLY_CROSS,
  postOnlyOf,
  signedOrderRecord,
  SUPERSEDED_REPORT,
  Tally,
  withinCancelReserve,
  type Chosen,
  type OrderParties,
} from './apply-decisions.js';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import { classifyFailure, type FailureInfo } from './failures.js';
import { fillLogFields } from './fill-log.js';
import { FillTracker, type FillEvent, type FillOutcome } from './fill-tracker.js';
import { mapLimit } from './map-limit.js';
import { OrderBookState, type TrackedOrder } from './order-book-state.js';
import {
  resolveManagerConfig,
  SILENT_LOGGER,
  type ApplyReport,
  type CancelAllReport,
  type DropReason,
  type ManagerLogger,
  type MarketInfo,
  type MarketsByToken,
  type OrderManagerConfig,
  type OrphanPolicy,
  type PollFillsOptions,
  type PollReport,
  type ResolveReport,
  type StartupReport,
} from './order-manager-types.js';
import { RejectionCooldown } from './rejection-cooldown.js';
import { quoteKey, type ReconcilePlan } from './types.js';

/** What signs orders: the SigningPool (worker threads) or anything with its batch call. */
export interface BatchSigner {
  readonly address: string;
  signBatch(orders: readonly UnsignedOrder[]): Promise<SignedOrder[]>;
}

export interface OrderManagerOptions {
  readonly clock: Clock;
  readonly gateway: ExchangeGateway;
  readonly ledger: Ledger;
  readonly signer: BatchSigner;
  readonly dialect: Dialect;
  /** API key the orders are placed under (the submission's `owner`). Not a secret, never logged. */
  readonly owner: string;
  /** Funder address; defaults to the signer's (EOA orders). */
  readonly maker?: string;
  readonly signatureType?: SignatureType;
  /** The limiter the gateway sends through: asked when the next POST /orders slot frees. */
  readonly limiter?: Pick<RateLimiter, 'wouldWaitMs'> & Partial<Pick<RateLimiter, 'utilisation' | 'signerCapacity'>>;
  readonly config?: Partial<OrderManagerConfig>;
  /** Every new fill, once (strategy onFill, logs). */
  readonly onFill?: (fill: FillEvent) => void;
  readonly onCircuitChange?: (state: CircuitState, failures: number) => void;
  /** A placement answered `order_version_mismatch` (exchange/order-version.ts): the daemon stops quoting. */
  readonly onOrderVersionMismatch?: (detail: string) => void;
  readonly logger?: ManagerLogger;
  /** Uniform [0, 1): salts and back-off jitter (defaults: crypto salts, Math.random jitter). */
  readonly random?: () => number;
  /** Strategy name written with each order. */
  readonly strategy?: string;
}

export interface ManagerHealth {
  readonly circuit: CircuitState;
  readonly consecutiveFailures: number;
  readonly placementsBlockedUntil: number;
  readonly halted: boolean;
  readonly orders: Readonly<Record<LiveOrder['state'], number>>;
  readonly coolingDown: number;
  readonly inFlightRequests: number;
  /** Cancelled orders still due their last lookup (ledger state `closing`). */
  readonly pendingSettlements: number;
  /** Age of the oldest final read owed, ms (0 when none). */
  readonly oldestFinalReadOwedMs: number;
  /** Longest time since a live order was last read, ms (0 when none is live). */
  readonly oldestLiveReadMs: number;
  /** Why placements are held back now (fill backlog, cancel reserve), or null. */
  readonly placementHold: PlacementHold | null;
  /** Cancels the cancel route's budgets allow now beyond the open orders, at the last check. */
  readonly cancelHeadroom: number | null;
  /** Placement checks the rate limiter could not answer (each failed its apply). */
  readonly limiterFailures: number;
}

/** Why placements are held back while quoting goes on. */
export type PlacementHold = 'fill-backlog' | 'cancel-reserve';

/** Fill discovery's backlog (metrics, /healthz, /status). */
export type FillReadStatus = Pick<
  ManagerHealth,
  | 'pendingSettlements'
  | 'oldestFinalReadOwedMs'
  | 'oldestLiveReadMs'
  | 'placementHold'
  | 'cancelHeadroom'
  | 'limiterFailures'
> & {
  /** Final reads owed beyond which placements stop. */
  readonly maxFinalReadBacklog: number;
};

interface FinalReadOwed {
  /** The exchange had acknowledged the order: its fills are maker fills. */
  readonly acknowledged: boolean;
  readonly sinceMs: number;
}

interface Job {
  readonly plan: ReconcilePlan;
  readonly markets: MarketsByToken;
  /** The order set's sequence number when the plan was handed in. */
  readonly seq: number;
  readonly resolve: (r: ApplyReport) => void;
  readonly reject: (e: unknown) => void;
}

interface Outgoing {
  readonly id: string;
  readonly key: string;
  readonly submission: WireOrderSubmission;
  readonly priority: Exclude<WritePriority, 'cancel'>;
  readonly record: SignedOrderInput;
  readonly tag: string | undefined;
}

export class OrderManager {
  readonly config: OrderManagerConfig;
  private readonly clock: Clock;
  private readonly gateway: ExchangeGateway;
  private readonly ledger: Ledger;
  private readonly signer: BatchSigner;
  private readonly opts: OrderManagerOptions;
  private readonly log: ManagerLogger;
  private readonly book = new OrderBookState();
  private readonly breaker: CircuitBreaker;
  private readonly cooldown: RejectionCooldown;
  private readonly fills: FillTracker;
  private readonly markets = new Map<string, MarketInfo>();
  /** Ids found "not found" that are looked up once more, at the time given. */
  private readonly recheck = new Map<string, number>();
  /**
   * Orders we cancelled (ledger state `closing`), each due one last lookup: a cancel answer does
   * not say how much matched, and a fill between the last poll and the cancel would otherwise never
   * be recorded. Insertion order is the order they became due.
   */
  private readonly settle = new Map<string, FinalReadOwed>();
  /** When pollFills last ran (its read budget accrues from then). */
  private lastPollAtMs: number | null = null;
  /** Cancel headroom at the last placement check (null before any, or with no limiter). */
  private lastCancelHeadroom: number | null = null;
  private lastHold: PlacementHold | null = null;
  /** Limiter calls that failed (not a wait too long: the limiter could not answer), and whether the latest did. */
  private limiterFailures = 0;
  private limiterFailing = false;
  /** Placements the exchange refused in the latest plan applied (the strategy sees them). */
  private lastRejected: PlacementRejection[] = [];
  /** Fills emitted so far, and their shares (cancelAll reports what its own run recorded). */
  private emitted = { count: 0, shares: 0 };
  private readonly inflight = new Set<Promise<unknown>>();
  private pending: Job | null = null;
  private pumping: Promise<void> | null = null;
  private resolveChain: Promise<unknown> = Promise.resolve();
  private polling: Promise<PollReport> | null = null;
  private resolveTimer: TimerId | null = null;
  private resolveAt = Number.POSITIVE_INFINITY;
  private halted = false;
  private closed = false;

  private lastMarkets: MarketsByToken | null = null;

  constructor(opts: OrderManagerOptions) {
    this.opts = opts;
    this.config = resolveManagerConfig(opts.config);
    this.clock = opts.clock;
    this.gateway = opts.gateway;
    this.ledger = opts.ledger;
    this.signer = opts.signer;
    this.log = opts.logger ?? SILENT_LOGGER;
    this.breaker = new CircuitBreaker({
      clock: opts.clock,
      threshold: this.config.circuitBreakerFailures,
      backoff: this.config.backoff,
      ...(opts.random !== undefined ? { random: opts.random } : {}),
      onChange: (state, failures) => {
        this.log[state === 'open' ? 'warn' : 'info']({ circuit: state, failures }, `circuit breaker ${state}`);
        opts.onCircuitChange?.(state, failures);
      },
    });
    this.cooldown = new RejectionCooldown(opts.clock, this.config.rejectionCooldownMs);
    this.fills = new FillTracker(opts.ledger, opts.clock, (tokenId) => this.markets.get(tokenId));
  }

  // ------------------------------------------------------------------------------- queries

  /** Our open orders as reconcile needs them (in-flight, live, cancelling and unknown). */
  liveOrders(): LiveOrder[] {
    return this.book.liveOrders();
  }

  get circuitState(): CircuitState {
    return this.breaker.state;
  }

  health(): ManagerHealth {
    const orders = { inflight: 0, live: 0, cancelling: 0, unknown: 0 };
    const now = this.clock.now();
    let oldestLiveReadMs = 0;
    for (const o of this.book.all()) {
      orders[o.state]++;
      if (o.state === 'live')
        oldestLiveReadMs = Math.max(oldestLiveReadMs, now - Math.max(o.polledAtMs, o.createdAtMs));
    }
    const first = this.settle.values().next();
    return {
      circuit: this.breaker.state,
      consecutiveFailures: this.breaker.consecutiveFailures,
      placementsBlockedUntil: this.breaker.placementsBlockedUntil,
      halted: this.halted,
      orders,
      coolingDown: this.cooldown.list().length,
      inFlightRequests: this.inflight.size,
      pendingSettlements: this.settle.size,
      oldestFinalReadOwedMs: first.done === true ? 0 : Math.max(0, now - first.value.sinceMs),
      oldestLiveReadMs,
      placementHold: this.lastHold,
      cancelHeadroom: this.lastCancelHeadroom,
      limiterFailures: this.limiterFailures,
    };
  }

  fillReads(): FillReadStatus {
    const h = this.health();
    return {
      pendingSettlements: h.pendingSettlements,
      oldestFinalReadOwedMs: h.oldestFinalReadOwedMs,
      oldestLiveReadMs: h.oldestLiveReadMs,
      placementHold: h.placementHold,
      cancelHeadroom: h.cancelHeadroom,
      limiterFailures: h.limiterFailures,
      maxFinalReadBacklog: this.config.maxFinalReadBacklog,
    };
  }

  /** Why placements are held back now, or null (cheap: read every cycle for the strategy input). */
  placementHold(): PlacementHold | null {
    return this.lastHold;
  }

  /**
   * Placements the exchange refused in the latest plan applied, with their reason: a post-only
   * quote that would have crossed is one (its key is not placed again before the cool-down ends;
   * it is never retried as a taking order).
   */
  rejections(): readonly PlacementRejection[] {
    return this.lastRejected;
  }

  /** The latest settings of a token's market (ticks, fees), or undefined before any. */
  marketInfo(tokenId: string): MarketInfo | undefined {
    return this.markets.get(tokenId);
  }

  /** Settings of the markets quoted (latest wins); fees and ticks come from here. */
  updateMarkets(markets: MarketsByToken): void {
    // The cycle hands the same map until the universe or a tick changes (marketsByToken memo).
    if (markets === this.lastMarkets) return;
    this.lastMarkets = markets;
    for (const [token, m] of markets) this.markets.set(token, m);
  }

  // ------------------------------------------------------------------------------- apply

  /**
   * Applies a plan computed by reconcile from liveOrders() just before the call. Plans never
   * overlap: one handed in while another runs waits, and a newer one replaces it (the older one
   * resolves as `superseded`).
   */
  apply(plan: ReconcilePlan, markets: MarketsByToken): Promise<ApplyReport> {
    if (isIdlePlan(plan) && this.pumping === null && this.pending === null && this.breaker.state !== 'open') {
      // Nothing to send, nothing running to supersede, no breaker pulling quotes: executing it
      // would only record the markets. Most cycles are like this (every one, between changes).
      this.updateMarkets(markets);
      if (this.lastRejected.length > 0) this.lastRejected = [];
      return Promise.resolve(EMPTY_REPORT);
    }
    return new Promise<ApplyReport>((resolve, reject) => {
      const job: Job = { plan, markets, seq: this.book.lastSeq, resolve, reject };
      if (this.pending !== null) this.pending.resolve(SUPERSEDED_REPORT);
      this.pending = job;
      if (this.pumping === null) this.pumping = this.pump();
    });
  }

  private async pump(): Promise<void> {
    try {
      while (this.pending !== null) {
        const job = this.pending;
        this.pending = null;
        try {
          job.resolve(await this.execute(job));
        } catch (e) {
          job.reject(e);
        }
      }
    } finally {
      this.pumping = null;
    }
  }

  private async execute(job: Job): Promise<ApplyReport> {
    const tally = new Tally();
    this.lastRejected = [];
    this.updateMarkets(job.markets);
    const toCancel = cancelTargets(
      job.plan,
      this.book,
      this.breaker.state === 'open' && this.config.pullQuotesWhenOpen,
    );
    try {
      const failedKeys = await this.cancelOrders(toCancel, tally);
      const chosen = await this.withinCancelReserve(
        await this.underPressure(this.choosePlacements(job, failedKeys, tally), tally),
        tally,
      );
      if (chosen.length > 0) await this.place(job, chosen, tally);
    } finally {
      // Fills the cancels found are heard even when a later step (the limiter) failed the apply.
      this.emit(tally.fills);
    }
    return tally.report();
  }

  /**
   * Sends the cancels (priority cancel): one DELETE /orders per cancelBatchSize() orders (config,
   * capped by the signer's cancel bucket) when the venue has batch cancels, one DELETE /order each
   * otherwise. Returns the keys whose cancel did not complete.
   */
  private async cancelOrders(
    orders: readonly TrackedOrder[],
    tally: Tally,
    signal?: AbortSignal,
  ): Promise<Set<string>> {
    if (orders.length === 0) return new Set();
    for (const o of orders) moveTo(o, 'cancelling');
    // Written before any cancel is sent (one commit): a crash now leaves each order owed its cancel.
    this.ledger.markCancelling(
      orders.map((o) => o.id),
      'cancel requested',
    );
    const batch = this.batchCancel();
    let done: boolean[];
    if (batch === null) {
      done = await mapLimit(orders, this.config.concurrency, (o) => this.cancelOne(o, tally, signal));
    } else {
      const chunks = cancelChunks(orders, this.cancelBatchSize());
      done = (
        await mapLimit(chunks, this.config.concurrency, (ch) => this.cancelChunk(batch, ch, tally, signal))
      ).flat();
    }
    const failed = new Set<string>();
    orders.forEach((o, i) => {
      if (done[i] !== true) failed.add(o.key);
    });
    return failed;
  }

  /** Orders per DELETE /orders: the configured size, at most the signer's cancel bucket (each id
   *  costs a token there, and a batch above the bucket is refused whole, by the limiter and by the
   *  exchange). */
  private cancelBatchSize(): number {
    const cap = this.opts.limiter?.signerCapacity?.('cancel') ?? null;
    return cap !== null && cap >= 1 && cap < this.config.cancelBatchSize ? cap : this.config.cancelBatchSize;
  }

  /** The venue's batch cancel, or null when it has none (then cancels go one by one). */
  private batchCancel(): ((ids: readonly string[], signal?: AbortSignal) => Promise<CancelResult>) | null {
    const g = this.gateway;
    return g.cancelOrders === undefined
      ? null
      : (ids, signal) => (g.cancelOrders as NonNullable<typeof g.cancelOrders>)(ids, signal);
  }

  /** True when the order is gone (cancelled, or closed meanwhile by a lookup). */
  private async cancelOne(o: TrackedOrder, tally: Tally, signal?: AbortSignal): Promise<boolean> {
    tally.cancelsSent++;
    try {
      const res = await this.track(this.gateway.cancelOrder(o.id, signal));
      this.breaker.answered();
      return this.cancelAnswered(o, res, tally);
    } catch (e) {
      return this.cancelFailed(o, this.failed(e, 'cancel', o.id), tally);
    }
  }

  /** One batch cancel request; per order, true when it is gone. */
  private async cancelChunk(
    batch: (ids: readonly string[], signal?: AbortSignal) => Promise<CancelResult>,
    chunk: readonly TrackedOrder[],
    tally: Tally,
    signal?: AbortSignal,
  ): Promise<boolean[]> {
    tally.cancelsSent += chunk.length;
    try {
      const res = await this.track(
        batch(
          chunk.map((o) => o.id),
          signal,
        ),
      );
      this.breaker.answered();
      return chunk.map((o) => this.cancelAnswered(o, res, tally));
    } catch (e) {
      const f = this.failed(e, 'cancel', `${chunk.length} orders`);
      return chunk.map((o) => this.cancelFailed(o, f, tally));
    }
  }

  /** Applies the exchange's answer to our cancel of `o`; true when the order is gone. */
  private cancelAnswered(o: TrackedOrder, res: CancelResult, tally: Tally): boolean {
    if (this.book.get(o.id) !== o) return true;
    if (res.canceled.includes(o.id)) {
      this.ledger.markCancelAnswered(o.id, 'canceled by us');
      this.book.remove(o.id);
      this.oweFinalRead(o.id, o.acknowledged);
      tally.cancelled++;
      return true;
    }
    // "already matched" / "not found or already canceled": the exchange's record says which,
    // and holds the fills to record, so look it up now (no grace: this answer is definite).
    const reason = res.notCanceled.get(o.id) ?? 'absent from the cancel answer';
    tally.cancelsFailed++;
    this.toUnknown(o, `cancel refused: ${reason}`, 0);
    return false;
  }

  /** A cancel request of `o` failed: ambiguous goes unknown (looked up), certain goes back live. */
  private cancelFailed(o: TrackedOrder, f: FailureInfo, tally: Tally): boolean {
    tally.cancelsFailed++;
    if (this.book.get(o.id) !== o) return true;
    if (f.ambiguous) {
      tally.unknown++;
      this.toUnknown(o, `cancel failed ambiguously: ${f.code}`, this.config.unknownLookupDelayMs);
    } else if (o.state === 'cancelling') {
      moveTo(o, 'live');
      this.ledger.markCancelNotSent(o.id, f.code);
    }
    return false;
  }

  private choosePlacements(job: Job, failedKeys: ReadonlySet<string>, tally: Tally): Chosen[] {
    const block: DropReason | null = this.halted ? 'halted' : (this.breaker.blockReason() ?? this.fillBacklogHold());
    return choosePlacements(
      job.plan,
      job.markets,
      failedKeys,
      {
        block,
        keyBlock: (key) => this.book.keyBlock(key, job.seq),
        cooling: (key) => this.cooldown.active(key) !== undefined,
      },
      tally,
    );
  }

  /**
   * Keeps the placements whose POST /orders chunk the limiter can send within the horizon; the
   * rest is dropped (the next cycle recomputes it from fresher books).
   */
  private async underPressure(chosen: Chosen[], tally: Tally): Promise<Chosen[]> {
    const limiter = this.opts.limiter;
    if (limiter === undefined) return chosen;
    const decide = keepUnderPressure(chosen, this.config.pressureHorizonMs, tally);
    for (let step = decide.next(0); ;) {
      if (step.done === true) return step.value;
      let wait: number;
      try {
        wait = await limiter.wouldWaitMs(PLACE_ROUTE, step.value);
        this.limiterAnswered();
      } catch (e) {
        // More requests than a window can ever hold: never sendable, dropped like any pressure.
        if (isNeverSendable(e)) wait = Number.POSITIVE_INFINITY;
        else throw this.limiterFailed(e);
      }
      step = decide.next(wait);
    }
  }

  /**
   * A limiter that cannot answer (its shared store down, a bug) fails the apply: the cycle ends
   * with the error (the poller counts it, health shows it) instead of every placement being
   * dropped as if the limiter were full. Counted every time, logged once per streak.
   */
  private limiterFailed(e: unknown): unknown {
    this.limiterFailures++;
    if (!this.limiterFailing) {
      this.limiterFailing = true;
      this.log.error({ err: String(e) }, 'rate limiter failed: placements not sent this cycle');
    }
    return e;
  }

  private limiterAnswered(): void {
    if (!this.limiterFailing) return;
    this.limiterFailing = false;
    this.log.info({ failures: this.limiterFailures }, 'rate limiter answers again: placements resume');
  }

  /** 'fill-backlog' while more final reads are owed than the backlog allows (see the header). */
  private fillBacklogHold(): DropReason | null {
    const hold = this.settle.size > this.config.maxFinalReadBacklog;
    if (hold !== (this.lastHold === 'fill-backlog')) {
      this.log[hold ? 'warn' : 'info'](
        { finalReadsOwed: this.settle.size, max: this.config.maxFinalReadBacklog },
        hold ? 'fill reads behind: placements held until they catch up' : 'fill reads caught up: placements resume',
      );
      this.lastHold = hold ? 'fill-backlog' : null;
    }
    return hold ? 'fill-backlog' : null;
  }

  /**
   * Keeps the placements that leave every open order cancellable within the cancel route's
   * budgets, less the reserve (see the header); the rest is dropped as `cancel-reserve`.
   */
  private async withinCancelReserve(chosen: Chosen[], tally: Tally): Promise<Chosen[]> {
    const limiter = this.opts.limiter;
    if (limiter?.utilisation === undefined || chosen.length === 0) return chosen;
    let capacity: number;
    try {
      // With batch cancels one request cancels up to cancelBatchSize() orders.
      const batched = this.batchCancel() !== null;
      const u = await limiter.utilisation(batched ? BATCH_CANCEL_ROUTE : CANCEL_ROUTE);
      this.limiterAnswered();
      capacity = cancelCapacity(u.windows, batched ? this.cancelBatchSize() : null);
    } catch (e) {
      throw this.limiterFailed(e);
    }
    const cut = withinCancelReserve(chosen, capacity, this.config.cancelReserve, this.book.size, tally);
    if (cut.headroom === null) return chosen; // the cancel route has no budget: nothing to reserve
    this.lastCancelHeadroom = cut.after;
    if (cut.kept.length === chosen.length) {
      if (this.lastHold === 'cancel-reserve') {
        this.lastHold = null;
        this.log.info({ headroom: cut.headroom }, 'cancel reserve clear: placements resume');
      }
      return chosen;
    }
    if (this.lastHold !== 'cancel-reserve') {
      this.lastHold = 'cancel-reserve';
      this.log.warn(
        { capacity, open: this.book.size, reserve: this.config.cancelReserve },
        'cancel reserve reached: placements held so every open order stays cancellable',
      );
    }
    return cut.kept;
  }

  /** Who the orders are for and how they are built (fixed options). */
  private parties(): OrderParties {
    return orderParties({
      signerAddress: this.signer.address,
      maker: this.opts.maker,
      signatureType: this.opts.signatureType,
      postOnly: this.config.postOnly,
      random: this.opts.random,
    });
  }

  private async place(job: Job, chosen: readonly Chosen[], tally: Tally): Promise<void> {
    const now = this.clock.now();
    const parties = this.parties();
    const unsigned = chosen.map((c) => buildOrder(...orderToBuild(c, parties, now)));
    let signed: SignedOrder[];
    try {
      signed = await this.signer.signBatch(unsigned);
    } catch (e) {
      if (!(e instanceof SigningError) || !e.retryable) throw e;
      this.log.warn({ err: e.message, orders: chosen.length }, 'signing failed; placements dropped this cycle');
      for (const c of chosen) tally.drop(c.key, 'signing-failed');
      return;
    }
    if (signed.length !== chosen.length)
      throw new InvariantError(`signer returned ${signed.length} orders for ${chosen.length}`);

    // Signing yielded: re-check what may have changed meanwhile (cancelAll, a re-found order).
    const outgoing: Outgoing[] = [];
    signed.forEach((s, i) => {
      const c = chosen[i] as Chosen;
      const block: DropReason | null = this.halted ? 'halted' : this.book.keyBlock(c.key, job.seq);
      if (block !== null) {
        tally.drop(c.key, block);
        return;
      }
      const submission = toWireSubmission(s, {
        orderType: 'GTC',
        owner: this.opts.owner,
        dialect: this.opts.dialect,
        ...(postOnlyOf(c, parties) ? { postOnly: true } : {}),
      });
      const { owner: _owner, ...resendable } = submission;
      const tag = c.intent.quote.tag;
      const record = signedOrderRecord(s, c, now, JSON.stringify(resendable), this.opts.strategy);
      outgoing.push({ id: s.id, key: c.key, submission, priority: c.priority, record, tag });
    });
    if (outgoing.length === 0) return;

    // Written before anything is sent, in one transaction.
    this.ledger.recordSignedOrders(outgoing.map((o) => o.record));
    for (const { record: r, tag } of outgoing) {
      this.book.add({
        id: r.id,
        tokenId: r.tokenId,
        conditionId: r.conditionId,
        side: r.side,
        price: r.price,
        originalSize: r.size,
        state: 'inflight',
        createdAtMs: now,
        tag,
        acknowledged: false,
      });
    }
    const chunks = chunkByPriority(outgoing, (o) => o.priority);
    await mapLimit(chunks, this.config.concurrency, (ch) => this.sendChunk(ch, tally));
  }

  private async sendChunk(chunk: readonly Outgoing[], tally: Tally): Promise<void> {
    this.ledger.transaction(() => {
      for (const o of chunk) this.ledger.markSent(o.id);
    });
    tally.placementsSent += chunk.length;
    const priority = (chunk[0] as Outgoing).priority;
    let results: PlacementResult[];
    try {
      results = await this.track(
        this.gateway.postOrders(
          chunk.map((o) => o.submission),
          priority,
        ),
      );
    } catch (e) {
      const f = this.failed(e, 'place', `${chunk.length} orders`);
      if (isOrderVersionMismatch(e)) this.opts.onOrderVersionMismatch?.(f.message);
      this.ledger.transaction(() => {
        for (const o of chunk) {
          const t = this.book.get(o.id);
          if (t === undefined) continue;
          if (f.ambiguous) {
            tally.unknown++;
            this.toUnknown(t, `placement failed ambiguously: ${f.code}`, this.config.unknownLookupDelayMs);
          } else {
            this.rejectOrder(t, `request failed before reaching the book: ${f.code}`, !f.retryable, tally);
          }
        }
      });
      return;
    }
    this.breaker.answered();
    if (results.length !== chunk.length) {
      // The exchange acted on the batch but its answer cannot be matched to the orders.
      this.log.error({ results: results.length, orders: chunk.length }, 'placement answer does not match the batch');
      this.ledger.transaction(() => {
        for (const o of chunk) {
          const t = this.book.get(o.id);
          if (t !== undefined) {
            tally.unknown++;
            this.toUnknown(t, 'placement answer does not match the batch', 0);
          }
        }
      });
      return;
    }
    this.ledger.transaction(() => {
      chunk.forEach((o, i) => this.onPlacement(o, results[i] as PlacementResult, tally));
    });
  }

  private onPlacement(o: Outgoing, r: PlacementResult, tally: Tally): void {
    const t = this.book.get(o.id);
    if (t === undefined) return;
    switch (placementVerdict(o.id, r)) {
      case 'accepted':
        tally.accepted++;
        t.acknowledged = true;
        this.mirror(t, this.fills.applyPlacement(o.id, r), tally.fills);
        return;
      case 'other-id':
        // Our digest and the exchange's id disagree: only a lookup of our id can tell what rests.
        this.log.error({ orderId: o.id, answered: r.orderId }, 'placement accepted under another id');
        tally.unknown++;
        this.toUnknown(t, `accepted under id ${String(r.orderId)}`, 0);
        return;
      case 'rejected':
        this.rejectOrder(t, r.errorMsg, true, tally);
        return;
      case 'unusable':
        tally.unknown++;
        this.toUnknown(t, `placement answered without a usable status (success=${String(r.success)})`, 0);
    }
  }

  /** The exchange (or a certain pre-send failure) refused the order: it never rested. */
  private rejectOrder(t: TrackedOrder, errorMsg: string, coolDown: boolean, tally: Tally): void {
    const state = this.ledger.markRejected(t.id, errorMsg);
    if (state === 'unknown') {
      // "Duplicated.": an order with this id is already on the exchange (the ledger says so).
      tally.unknown++;
      moveTo(t, 'unknown');
      t.lookupAtMs = this.clock.now();
      this.scheduleResolve(0);
      return;
    }
    this.book.remove(t.id);
    if (coolDown) this.cooldown.record(t.key, errorMsg);
    tally.rejected.push({ key: t.key, orderId: t.id, errorMsg });
    this.lastRejected.push({
      tokenId: t.tokenId,
      side: t.side,
      price: t.price,
      errorMsg,
      postOnlyCross: POST_ONLY_CROSS.test(errorMsg),
    });
    this.log.info(
      {
        market: this.markets.get(t.tokenId)?.label ?? null,
        orderId: t.id,
        tokenId: t.tokenId,
        side: t.side,
        price: formatMicros(t.price),
        size: formatMicros(t.originalSize),
        errorMsg,
      },
      'placement rejected',
    );
  }

  // ------------------------------------------------------------------------------- lookups

  /**
   * Looks up every unknown order (by default only those whose grace has passed; `all` takes every
   * one) and every due "not found" recheck. Runs never overlap: a call waits for the one running.
   */
  resolveUnknown(opts: { all?: boolean; signal?: AbortSignal } = {}): Promise<ResolveReport> {
    const run = (): Promise<ResolveReport> => this.doResolve(opts);
    const p = this.resolveChain.then(run, run);
    // The chain only orders the runs: p itself (returned) carries the failure to the caller.
    this.resolveChain = p.catch(() => undefined);
    return p;
  }

  private async doResolve(opts: { all?: boolean; signal?: AbortSignal }): Promise<ResolveReport> {
    const now = this.clock.now();
    const all = opts.all === true;
    const targets = this.book.inState('unknown').filter((o) => all || o.lookupAtMs <= now);
    // Rechecks due now; ids found "not found" by this very run wait for their own recheck time.
    const due = [...this.recheck].filter(([, at]) => all || at <= now).map(([id]) => id);
    const counts = { lookedUp: 0, live: 0, closed: 0, notFound: 0, failed: 0 };
    const fills: FillEvent[] = [];
    await mapLimit(targets, this.config.concurrency, async (o) => {
      counts.lookedUp++;
      const rec = await this.lookup(o.id, opts.signal);
      if (rec === undefined) {
        counts.failed++;
        o.lookupAtMs = this.clock.now() + Math.max(1, this.breaker.retryDelayMs());
        return;
      }
      if (this.book.get(o.id) !== o || o.state !== 'unknown') return;
      const out = this.fills.applyLookup(o.id, rec, o.acknowledged);
      if (rec === null) {
        counts.notFound++;
        this.book.remove(o.id);
        if (!o.acknowledged) this.recheck.set(o.id, this.clock.now() + this.config.notFoundRecheckMs);
        this.log.info({ orderId: o.id, key: o.key }, 'unknown order not found: it never reached the book');
      } else {
        if (out.state === 'live') counts.live++;
        else counts.closed++;
        this.mirror(o, out, fills);
      }
    });
    await mapLimit(due, this.config.concurrency, async (id) => {
      counts.lookedUp++;
      const rec = await this.lookup(id, opts.signal);
      if (rec === undefined) {
        counts.failed++;
        this.recheck.set(id, this.clock.now() + Math.max(1, this.breaker.retryDelayMs()));
        return;
      }
      this.recheck.delete(id);
      if (rec === null || this.book.get(id) !== undefined) return;
      // It arrived after all: the exchange's record wins (the ledger moves it out of not_found).
      this.log.warn({ orderId: id, status: rec.status }, 'order found after a not-found lookup');
      if (this.adoptRecord(id, rec, false, fills)) counts.live++;
      else counts.closed++;
    });
    this.emit(fills);
    this.rescheduleResolve();
    return { ...counts, fills };
  }

  /**
   * Looks up orders for fills, within the read budget (`fillReadsPerSecond` × the time since the
   * last call, or `limit`): first the final reads owed by orders we cancelled (oldest first), then
   * live orders that may have filled (`mayHaveFilled`: the caller's view of the books, e.g. at or
   * through the touch), then the least recently read, for sizeMatched growth and for orders closed
   * behind our back (matched, canceled by market resolution). A call while one runs returns the
   * running one.
   */
  pollFills(opts: PollFillsOptions = {}): Promise<PollReport> {
    if (this.polling !== null) return this.polling;
    const p = this.doPoll(opts).finally(() => {
      this.polling = null;
    });
    this.polling = p;
    return p;
  }

  /** Lookups this pollFills call may spend. */
  private readBudget(limit: number | undefined): number {
    const now = this.clock.now();
    const since = this.lastPollAtMs === null ? 1_000 : Math.min(2_000, Math.max(0, now - this.lastPollAtMs));
    this.lastPollAtMs = now;
    if (limit !== undefined) return limit;
    return Math.max(this.config.pollBatch, Math.floor((this.config.fillReadsPerSecond * since) / 1_000));
  }

  private async doPoll(opts: PollFillsOptions): Promise<PollReport> {
    const limit = this.readBudget(opts.limit);
    const counts = { lookedUp: 0, closed: 0, failed: 0 };
    const fills: FillEvent[] = [];
    const settling = [...this.settle].slice(0, limit);
    await mapLimit(settling, this.config.readConcurrency, async ([id, owed]) => {
      counts.lookedUp++;
      const rec = await this.lookup(id, opts.signal);
      if (rec === undefined) {
        counts.failed++;
        return;
      }
      if (this.book.get(id) !== undefined) {
        this.settle.delete(id);
        return;
      }
      if (rec === null) {
        // Gone from the exchange's records: nothing more can be read. The ledger makes it final.
        this.fills.applyLookup(id, null, owed.acknowledged);
        this.settle.delete(id);
        return;
      }
      this.settle.delete(id);
      // A record still LIVE after our cancel was answered: the exchange's word wins, track it again.
      if (this.adoptRecord(id, rec, owed.acknowledged, fills))
        this.log.warn({ orderId: id }, 'cancelled order found live: tracked again');
    });
    const share = Math.min(1, Math.max(0, opts.liveReadShare ?? 1));
    const budget = Math.floor(Math.max(0, limit - settling.length) * share);
    const targets = budget === 0 ? [] : lookupOrder(this.book.inState('live'), opts.mayHaveFilled).slice(0, budget);
    await mapLimit(targets, this.config.readConcurrency, async (o) => {
      counts.lookedUp++;
      o.polledAtMs = this.clock.now();
      const rec = await this.lookup(o.id, opts.signal);
      if (rec === undefined) {
        counts.failed++;
        return;
      }
      if (this.book.get(o.id) !== o) return;
      const out = this.fills.applyLookup(o.id, rec, o.acknowledged);
      if (out.state !== 'live') counts.closed++;
      this.mirror(o, out, fills);
    });
    this.emit(fills);
    return { ...counts, fills };
  }

  /** The order is owed its final read (ledger `closing`); oldest owed first. */
  private oweFinalRead(id: string, acknowledged: boolean): void {
    if (!this.settle.has(id)) this.settle.set(id, { acknowledged, sinceMs: this.clock.now() });
  }

  /**
   * Applies the record of an order we no longer track (a cancelled order's last lookup, a
   * not-found recheck): fills go to the ledger; a LIVE one is tracked again. True when live.
   */
  private adoptRecord(id: string, rec: OrderRecord, acknowledged: boolean, fills: FillEvent[]): boolean {
    const out = this.fills.applyLookup(id, rec, acknowledged);
    fills.push(...out.events);
    if (out.state !== 'live') return false;
    const lo = this.ledger.order(id);
    if (lo === null) return false;
    const tag = lo.meta?.['tag'];
    this.book.add({
      id,
      tokenId: lo.tokenId,
      conditionId: lo.conditionId,
      side: lo.side,
      price: lo.price,
      originalSize: lo.size,
      sizeMatched: out.sizeMatched,
      state: 'live',
      createdAtMs: lo.createdAtMs,
      acknowledged: true,
      ...(typeof tag === 'string' ? { tag } : {}),
    });
    return true;
  }

  /** GET /data/order/{id}: the record, null (unknown id) or undefined (the lookup failed). */
  private async lookup(id: string, signal?: AbortSignal) {
    try {
      const rec = await this.track(this.gateway.getOrder(id, signal));
      this.breaker.answered();
      return rec;
    } catch (e) {
      this.failed(e, 'lookup', id);
      return undefined;
    }
  }

  /**
   * A read that shows whether the exchange answers (closes an open breaker on success): the
   * lookup of our oldest open order, or of an id nobody holds (a "not found" is an answer too).
   */
  async probe(signal?: AbortSignal): Promise<boolean> {
    const oldest = this.book.all().sort((a, b) => a.seq - b.seq)[0];
    const id = oldest?.id ?? `0x${'0'.repeat(64)}`;
    const rec = await this.lookup(id, signal);
    return rec !== undefined;
  }

  // ------------------------------------------------------------------------------- startup, shutdown

  /**
   * Crash recovery before the first quote: every order the ledger holds open is looked up; live
   * ones are tracked, terminal ones closed with their fills, unknown ids freed. Orphans (orders
   * the ledger had as signed, sent or unknown) found live are cancelled or adopted per policy.
   */
  async startupReconcile(opts: {
    orphanPolicy: OrphanPolicy;
    markets?: MarketsByToken;
    signal?: AbortSignal;
  }): Promise<StartupReport> {
    if (opts.markets !== undefined) this.updateMarkets(opts.markets);
    const open = this.ledger.openOrders();
    const counts = {
      lookedUp: 0,
      live: 0,
      adopted: 0,
      cancelled: 0,
      closed: 0,
      notFound: 0,
      foreign: 0,
      listed: null as boolean | null,
    };
    const unresolved: string[] = [];
    const orphans: TrackedOrder[] = [];
    const fills: FillEvent[] = [];
    await mapLimit(open, this.config.readConcurrency, async (lo) => {
      if (this.book.get(lo.id) !== undefined || this.settle.has(lo.id)) return;
      // Acknowledged by the exchange before the crash (live, or being cancelled after resting).
      const wasLive = lo.state === 'live' || lo.state === 'cancelling' || lo.state === 'closing';
      const owedCancel = lo.state === 'cancelling' || lo.state === 'closing';
      const tag = lo.meta?.['tag'];
      const t = this.book.add({
        id: lo.id,
        tokenId: lo.tokenId,
        conditionId: lo.conditionId,
        side: lo.side,
        price: lo.price,
        originalSize: lo.size,
        sizeMatched: lo.sizeMatched,
        state: 'unknown',
        createdAtMs: lo.createdAtMs,
        acknowledged: wasLive,
        ...(typeof tag === 'string' ? { tag } : {}),
      });
      counts.lookedUp++;
      const rec = await this.lookup(lo.id, opts.signal);
      if (rec === undefined) {
        unresolved.push(lo.id);
        if (lo.state === 'closing') {
          // Still owed its final read: read it with the next fill poll (it is not live).
          this.book.remove(lo.id);
          this.oweFinalRead(lo.id, true);
          return;
        }
        if (lo.state !== 'unknown') this.ledger.markUnknown(lo.id, 'startup lookup failed');
        t.lookupAtMs = this.clock.now() + Math.max(1, this.breaker.retryDelayMs());
        return;
      }
      const out = this.fills.applyLookup(lo.id, rec, wasLive);
      if (rec === null) {
        counts.notFound++;
        this.book.remove(lo.id);
        if (!wasLive) this.recheck.set(lo.id, this.clock.now() + this.config.notFoundRecheckMs);
        return;
      }
      this.mirror(t, out, fills);
      if (out.state !== 'live') {
        counts.closed++;
        return;
      }
      // We had decided to cancel it before the crash: that decision stands whatever the policy.
      if (owedCancel) orphans.push(t);
      else if (wasLive) counts.live++;
      else if (opts.orphanPolicy === 'cancel') orphans.push(t);
      else {
        counts.adopted++;
        this.log.info({ orderId: lo.id, key: t.key }, 'orphan order adopted');
      }
    });
    const listed = await this.listForeignOrders(opts.orphanPolicy, fills, opts.signal);
    counts.foreign = listed.foreign.length;
    counts.listed = listed.listed;
    if (opts.orphanPolicy === 'cancel') orphans.push(...listed.foreign);
    else counts.adopted += listed.foreign.length;
    if (orphans.length > 0) {
      const tally = new Tally();
      const failed = await this.cancelOrders(orphans, tally, opts.signal);
      counts.cancelled += tally.cancelled;
      for (const o of orphans) if (failed.has(o.key) && this.book.get(o.id) !== undefined) unresolved.push(o.id);
    }
    this.emit(fills);
    this.rescheduleResolve();
    return { ...counts, unresolved, fills };
  }

  /**
   * The account's live orders as the exchange lists them (GET /data/orders, when the venue has
   * it): every one this process does not track - a lost ledger, a second process, an order the
   * ledger closed that is live after all - is written to the ledger from the exchange's record
   * (so it can be cancelled, adopted and recovered after a crash like any other) and tracked.
   * Returns those orders; `listed` is false when the listing failed (logged; only the ledger's own
   * orders were reconciled), null when the venue has no listing.
   */
  private async listForeignOrders(
    policy: OrphanPolicy,
    fills: FillEvent[],
    signal?: AbortSignal,
  ): Promise<{ foreign: TrackedOrder[]; listed: boolean | null }> {
    const list = this.gateway.openOrders;
    if (list === undefined) return { foreign: [], listed: null };
    const foreign: TrackedOrder[] = [];
    try {
      for await (const rec of list.call(this.gateway, signal)) {
        if (this.book.get(rec.id) !== undefined || this.settle.has(rec.id)) continue;
        const known = this.ledger.order(rec.id);
        if (known === null) {
          this.ledger.recordSignedOrder({
            id: rec.id,
            tokenId: rec.assetId,
            conditionId: rec.market,
            side: rec.side,
            price: rec.price,
            size: rec.originalSize,
            orderType: rec.type,
            salt: '',
            createdAtMs: rec.createdAtMs ?? this.clock.now(),
            meta: { key: quoteKey(rec.assetId, rec.side, rec.price), foreign: true, policy },
          });
        }
        const out = this.fills.applyLookup(rec.id, rec, true);
        fills.push(...out.events);
        if (out.state !== 'live') continue;
        const lo = this.ledger.order(rec.id);
        if (lo === null) continue;
        foreign.push(
          this.book.add({
            id: rec.id,
            tokenId: lo.tokenId,
            conditionId: lo.conditionId,
            side: lo.side,
            price: lo.price,
            originalSize: lo.size,
            sizeMatched: out.sizeMatched,
            state: 'live',
            createdAtMs: lo.createdAtMs,
            acknowledged: true,
          }),
        );
        this.log.warn(
          { orderId: rec.id, key: quoteKey(lo.tokenId, lo.side, lo.price), inLedger: known !== null, policy },
          `live order on the exchange that this process did not track: ${policy === 'cancel' ? 'cancelling it' : 'adopted'}`,
        );
      }
      return { foreign, listed: true };
    } catch (e) {
      this.log.warn(
        { err: String(e), found: foreign.length },
        "listing the account's open orders failed: only the ledger's own orders were reconciled",
      );
      return { foreign, listed: false };
    }
  }

  /**
   * Shutdown and kill switch: stops placing (until resume()), lets the running plan finish, then
   * cancels every live order - unknown ones are looked up first so that those found live are
   * cancelled too - in rounds until nothing is open or the cancel phase (all but `finalReadShare`
   * of the time) ends; then makes the final read of every cancelled order and looks up whatever is
   * still open, so the report says what is really left live and every fill matched before a cancel
   * is recorded; then waits for in-flight requests. Requests still out at the deadline are aborted.
   */
  async cancelAll(opts: { timeoutMs?: number } = {}): Promise<CancelAllReport> {
    this.halted = true;
    if (this.pending !== null) {
      this.pending.resolve(SUPERSEDED_REPORT);
      this.pending = null;
    }
    const timeoutMs = opts.timeoutMs ?? this.config.shutdownTimeoutMs;
    const cancelPhaseMs = Math.max(1, Math.floor(timeoutMs * (1 - this.config.finalReadShare)));
    const all = this.deadline(timeoutMs, 'cancelAll');
    const cancelPhase = this.deadline(cancelPhaseMs, 'cancelAll cancel phase', all.signal);
    const fillsBefore = this.emitted;
    let cancelled = 0;
    try {
      if (this.pumping !== null) await cancelPhase.within(this.pumping);
      for (let round = 0; round < this.config.cancelAllRounds && !cancelPhase.signal.aborted; round++) {
        await cancelPhase.within(this.resolveUnknown({ all: true, signal: cancelPhase.signal }));
        const live = this.book.inState('live');
        if (live.length > 0) {
          const tally = new Tally();
          await cancelPhase.within(this.cancelOrders(live, tally, cancelPhase.signal));
          cancelled += tally.cancelled;
          this.emit(tally.fills);
        }
        if (this.book.size === 0 || cancelPhase.signal.aborted) break;
        const pause = this.breaker.retryDelayMs();
        if (pause > 0) await cancelPhase.within(this.clock.sleep(pause, cancelPhase.signal));
      }
      cancelPhase.end();
      // Truth phase: a poll of the loop may still run; then every final read owed and a lookup of
      // every order still open (live ones whose cancel failed, unknown ones), until none is left
      // to read or the deadline passes.
      if (this.polling !== null) await all.within(this.polling);
      await all.within(this.resolveUnknown({ all: true, signal: all.signal }));
      for (
        let pass = 0;
        pass < 3 && !all.signal.aborted && (this.settle.size > 0 || this.book.inState('live').length > 0);
        pass++
      ) {
        await all.within(this.pollFills({ limit: this.settle.size + this.book.size, signal: all.signal }));
      }
      await all.within(this.drain());
    } finally {
      cancelPhase.end();
      all.end();
    }
    const remaining = this.book.liveOrders();
    const finalReadsOwed = [...this.settle.keys()];
    const recorded = this.emittedSince(fillsBefore);
    if (remaining.length > 0) this.log.warn({ remaining: remaining.length }, 'cancelAll left orders open');
    if (finalReadsOwed.length > 0)
      this.log.warn(
        { finalReadsOwed: finalReadsOwed.length },
        'cancelAll left final reads owed (the ledger keeps them as closing)',
      );
    return {
      cancelled,
      remaining,
      finalReadsOwed,
      fillsRecorded: recorded.count,
      fillSharesRecorded: recorded.shares,
      timedOut: all.signal.aborted,
    };
  }

  /**
   * A deadline on the injected clock: `within(p)` waits for p or the deadline, whichever comes
   * first (a failure of p is logged, not thrown); the signal aborts requests when it passes (or
   * when `parent` aborts).
   */
  private deadline(
    ms: number,
    what: string,
    parent?: AbortSignal,
  ): { signal: AbortSignal; within: (p: Promise<unknown>) => Promise<void>; end: () => void } {
    const ac = new AbortController();
    // One signal guards every concurrent request of the batch; each adds an abort listener.
    setMaxListeners(0, ac.signal);
    let expire: () => void = () => undefined;
    const passed = new Promise<void>((resolve) => {
      expire = resolve;
    });
    const fire = (): void => {
      if (!ac.signal.aborted) ac.abort(new DeadlineError(`${what}: deadline of ${ms} ms passed`));
      expire();
    };
    const timer = this.clock.setTimeout(fire, ms);
    const onParent = (): void => fire();
    parent?.addEventListener('abort', onParent, { once: true });
    let ended = false;
    return {
      signal: ac.signal,
      within: async (p) => {
        await Promise.race([
          p.catch((e: unknown) => {
            if (!ac.signal.aborted) this.log.error({ err: String(e) }, `${what} step failed`);
          }),
          passed,
        ]);
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.clock.clearTimeout(timer);
        parent?.removeEventListener('abort', onParent);
        expire();
      },
    };
  }

  /** Quoting may place again after cancelAll (an operator cleared the kill switch). */
  resume(): void {
    if (this.closed) throw new InvariantError('order manager is closed');
    this.halted = false;
  }

  /** Resolves when no request of ours is in flight. */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Stops timers and placements and waits for in-flight requests (the gateway is the caller's to close). */
  async close(): Promise<void> {
    this.closed = true;
    this.halted = true;
    if (this.pending !== null) {
      this.pending.resolve(SUPERSEDED_REPORT);
      this.pending = null;
    }
    if (this.resolveTimer !== null) {
      this.clock.clearTimeout(this.resolveTimer);
      this.resolveTimer = null;
    }
    if (this.pumping !== null) await this.pumping;
    await this.drain();
  }

  // ------------------------------------------------------------------------------- helpers

  /** Mirrors a ledger outcome into the tracked order: live stays tracked, terminal is removed. */
  private mirror(t: TrackedOrder, out: FillOutcome, fills: FillEvent[]): void {
    fills.push(...out.events);
    if (mirrorOutcome(this.book, t, out)) this.oweFinalRead(t.id, true);
  }

  private toUnknown(t: TrackedOrder, reason: string, delayMs: number): void {
    this.ledger.markUnknown(t.id, reason);
    moveTo(t, 'unknown');
    t.lookupAtMs = this.clock.now() + delayMs;
    this.scheduleResolve(delayMs);
  }

  private failed(e: unknown, what: 'cancel' | 'place' | 'lookup', subject: string): FailureInfo {
    const f = classifyFailure(e);
    this.breaker.failed(f);
    this.log.warn({ what, subject, code: f.code, ambiguous: f.ambiguous, err: f.message }, `${what} failed`);
    return f;
  }

  private scheduleResolve(delayMs: number): void {
    if (this.closed) return;
    const at = this.clock.now() + Math.max(0, delayMs);
    if (this.resolveTimer !== null && this.resolveAt <= at) return;
    if (this.resolveTimer !== null) this.clock.clearTimeout(this.resolveTimer);
    this.resolveAt = at;
    this.resolveTimer = this.clock.setTimeout(
      () => {
        this.resolveTimer = null;
        this.resolveAt = Number.POSITIVE_INFINITY;
        this.resolveUnknown().catch((e: unknown) => this.log.error({ err: String(e) }, 'scheduled lookup failed'));
      },
      Math.max(0, delayMs),
    );
  }

  /** Schedules the next lookup for whatever is still unknown or due a recheck. */
  private rescheduleResolve(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const o of this.book.inState('unknown')) next = Math.min(next, o.lookupAtMs);
    for (const at of this.recheck.values()) next = Math.min(next, at);
    if (Number.isFinite(next)) this.scheduleResolve(Math.max(0, next - this.clock.now()));
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    const done = (): void => {
      this.inflight.delete(p);
    };
    p.then(done, done);
    return p;
  }

  private emittedSince(before: { count: number; shares: number }): { count: number; shares: Shares } {
    return { count: this.emitted.count - before.count, shares: (this.emitted.shares - before.shares) as Shares };
  }

  private emit(fills: readonly FillEvent[]): void {
    const cb = this.opts.onFill;
    for (const f of fills) {
      this.emitted = { count: this.emitted.count + 1, shares: this.emitted.shares + f.size };
      this.log.info(fillLogFields(f, this.markets.get(f.tokenId)?.label), 'fill');
      if (cb !== undefined) {
        try {
          cb(f);
        } catch (e) {
          this.log.error({ err: String(e) }, 'onFill handler threw');
        }
      }
    }
  }
}

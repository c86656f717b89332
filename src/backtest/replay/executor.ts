// The backtest's executor of plans: the order manager's decisions (src/execution/apply-decisions.ts,
// the very functions the live OrderManager runs) with their effects done synchronously against the
// backtest venue, in virtual time. Order-entry latency and the rate limiter's waits are events on
// the virtual clock's queue (clock.setTimeout), never awaited promises: a plan whose requests take
// time completes later, through its `done` callback, while recorded events keep flowing.
// What matches the live OrderManager (over the backtest's old LatentGateway):
// - cancels first, each through the limiter (priority cancel), then its latency, then the venue;
//   at most `concurrency` requests of a phase at once, the next one starting when one is answered,
//   latency draws in request order; placements only once every cancel of the plan is answered;
// - placements: the same gates, pressure and cancel reserve, built by buildOrder, signed (digest
//   only), written to the ledger before they are sent, in POST /orders chunks of ≤ 15 by priority,
//   each chunk through the limiter and its latency, answered by the venue as the paper gateway
//   answers (`placement`), and applied by the same verdicts and FillTracker;
// - fill reads (pollNow): final reads owed first, then live orders that may have filled, then the
//   least recently read, within the same read budget; lookups cost no latency and no limiter (as
//   in the old engine: the recording is the market data, lookups are free there, stated); a
//   read of a live order that would write nothing (the venue shows what the ledger holds) is
//   counted as read but not applied (unchangedSinceRead), and is not even checked again until
//   the venue or the ledger reports a change to that order (their IdChanges feeds: `quiet`);
// - cancelAll (kill switch, end of run): placements stop, every live order is cancelled the same
//   way, then every cancelled order gets its final read.
// What cannot happen here, by construction: the venue never fails a request and never loses an
// answer, so no order goes `unknown` through a failure and the circuit breaker never opens; an
// answer that still cannot be used (another id, no status, "Duplicated") is looked up at once.
import type { TimerId, VirtualClock } from '../../core/clock.js';
import { InvariantError } from '../../core/errors.js';
import type { CancelResult, OrderRecord } from '../../core/market.js';
import type { LiveOrder, PlacementResult } from '../../core/order.js';
import type { PlacementRejection } from '../../core/quote.js';
import {
  CANCEL_ROUTE,
  cancelCapacity,
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
  orderToBuild,
  PLACE_ROUTE,
  placementVerdict,
  POST_ONLY_CROSS,
  postOnlyOf,
  sharesOf,
  signedOrderRecord,
  Tally,
  withinCancelReserve,
  type Chosen,
  type OrderParties,
  type PlacePriority,
} from '../../execution/apply-decisions.js';
import { FillTracker, type FillEvent, type FillOutcome } from '../../execution/fill-tracker.js';
import { OrderBookState, type TrackedOrder } from '../../execution/order-book-state.js';
import type {
  ApplyReport,
  MarketInfo,
  MarketsByToken,
  OrderManagerConfig,
  PollFillsOptions,
} from '../../execution/order-manager-types.js';
import { RejectionCooldown } from '../../execution/rejection-cooldown.js';
import type { ReconcilePlan } from '../../execution/types.js';
import { buildOrder, type SignedOrder, type UnsignedOrder } from '../../exchange/signing/index.js';
import type { Priority } from '../../ratelimit/types.js';
import type { MemoryRateLimiter } from '../../ratelimit/memory-limiter.js';
import { priceSizeFromAmounts } from '../../sim/engine/index.js';
import { placement, type PaperOrder } from '../../sim/paper/index.js';
import type { OrderProgress } from '../../sim/paper/our-orders.js';
import type { SubmitResult } from '../../sim/engine/index.js';
import type { LatencySampler } from '../latency.js';
import type { ReplayLedger } from './ledger.js';

/** What the executor needs of the backtest venue (PaperVenue and the delta venue both have it). */
export interface ReplayVenue {
  place(o: PaperOrder): SubmitResult;
  cancel(orderId: string): CancelResult;
  order(orderId: string): OrderRecord | null;
  /** The status and matched size order(orderId) would show, with no record built (null: unknown). */
  orderProgress(orderId: string): OrderProgress | null;
  /** The executor will not read `orderId` again (a finished record may go: memory, not behaviour). */
  forgetOrder(orderId: string): void;
  /** Orders whose status or matched size changed since the last call (expiries due applied); absent: not told. */
  takeOrderChanges?(): ReadonlySet<string> | 'all';
}

export interface BacktestExecutorOptions {
  readonly clock: VirtualClock;
  readonly venue: ReplayVenue;
  readonly ledger: ReplayLedger;
  readonly limiter: MemoryRateLimiter | null;
  readonly latency: LatencySampler;
  /** Ids and (no) signatures, synchronously: the backtest's digest-only signer. */
  readonly sign: (orders: readonly UnsignedOrder[]) => SignedOrder[];
  readonly parties: OrderParties;
  readonly config: OrderManagerConfig;
  /** The submissions' API key (recorded with each order). */
  readonly owner: string;
  readonly strategy: string;
  /** Every placement the venue answered with an order id (the report lists them). */
  readonly onPlaced?: (orderId: string) => void;
}

interface FinalReadOwed {
  readonly acknowledged: boolean;
}

/** One phase of requests with at most `concurrency` in flight; `after` runs when all are answered. */
interface Phase {
  readonly queue: Array<(answered: () => void) => void>;
  inFlight: number;
  readonly after: () => void;
}

export class BacktestExecutor {
  private readonly book = new OrderBookState();
  private readonly cooldown: RejectionCooldown;
  private readonly fills: FillTracker;
  private readonly markets = new Map<string, MarketInfo>();
  private readonly settle = new Map<string, FinalReadOwed>();
  private lastMarkets: MarketsByToken | null = null;
  private lastRejected: PlacementRejection[] = [];
  private lastPollAtMs: number | null = null;
  private halted = false;
  private running = false;
  private resolveTimer: TimerId | null = null;
  private resolveAt = Number.POSITIVE_INFINITY;
  /** The venue and the ledger both tell what they changed (forgetQuiet), so `quiet` may remember. */
  private readonly feedsChanges: boolean;

  constructor(private readonly o: BacktestExecutorOptions) {
    this.cooldown = new RejectionCooldown(o.clock, o.config.rejectionCooldownMs);
    this.fills = new FillTracker(o.ledger, o.clock, (tokenId) => this.markets.get(tokenId));
    this.feedsChanges = o.venue.takeOrderChanges !== undefined && o.ledger.takeOrderChanges !== undefined;
  }

  /** A plan is being sent (requests waiting on the clock): no new cycle starts meanwhile. */
  get busy(): boolean {
    return this.running;
  }

  liveOrders(): LiveOrder[] {
    return this.book.liveOrders();
  }

  placementHold(): 'fill-backlog' | null {
    return this.settle.size > this.o.config.maxFinalReadBacklog ? 'fill-backlog' : null;
  }

  rejections(): readonly PlacementRejection[] {
    return this.lastRejected;
  }

  updateMarkets(markets: MarketsByToken): void {
    if (markets === this.lastMarkets) return;
    this.lastMarkets = markets;
    for (const [token, m] of markets) this.markets.set(token, m);
  }

  /**
   * Applies a plan: synchronously when nothing waits on the clock (no latency, no limiter wait),
   * else later; `done` gets the report either way, exactly once.
   */
  apply(plan: ReconcilePlan, markets: MarketsByToken, done: (r: ApplyReport) => void): void {
    if (this.running) throw new InvariantError('backtest executor: a plan while another runs');
    if (isIdlePlan(plan)) {
      this.updateMarkets(markets);
      if (this.lastRejected.length > 0) this.lastRejected = [];
      done(EMPTY_REPORT);
      return;
    }
    this.running = true;
    const tally = new Tally();
    this.lastRejected = [];
    this.updateMarkets(markets);
    const seq = this.book.lastSeq;
    this.cancel(cancelTargets(plan, this.book, false), tally, (failedKeys) => {
      const block = this.halted ? 'halted' : this.placementHold();
      const chosen = choosePlacements(
        plan,
        markets,
        failedKeys,
        {
          block,
          keyBlock: (key) => this.book.keyBlock(key, seq),
          cooling: (key) => this.cooldown.active(key) !== undefined,
        },
        tally,
      );
      this.place(this.withinReserve(this.underPressure(chosen, tally), tally), seq, tally, () => {
        this.running = false;
        done(tally.report());
      });
    });
  }

  /** Halts placements and cancels every live order; then every cancelled order's final read. */
  cancelAll(done: () => void): void {
    this.halted = true;
    this.resolveNow(true);
    this.cancel(this.book.inState('live'), new Tally(), () => {
      // The truth phase: every unknown order, every final read owed, every order still open.
      this.resolveNow(true);
      for (let pass = 0; pass < 3 && (this.settle.size > 0 || this.book.inState('live').length > 0); pass++)
        this.pollNow({ limit: this.settle.size + this.book.size });
      done();
    });
  }

  /** Placements may go again after cancelAll. */
  resume(): void {
    this.halted = false;
  }

  /** Reads orders for fills now (see the header); returns the new fills. */
  pollNow(opts: Pick<PollFillsOptions, 'mayHaveFilled' | 'limit'> = {}): FillEvent[] {
    const limit = this.readBudget(opts.limit);
    const found: FillEvent[] = [];
    let read = 0;
    for (const [id, owed] of this.settle) {
      if (read >= limit) break;
      read++;
      this.settle.delete(id);
      if (this.book.get(id) !== undefined) continue;
      const rec = this.o.venue.order(id);
      const out = this.fills.applyLookup(id, rec, owed.acknowledged);
      found.push(...out.events);
      if (rec !== null && out.state === 'live') this.trackAgain(id, out.sizeMatched);
      this.readNoMore(id);
    }
    const budget = Math.max(0, limit - read);
    if (budget === 0) return found;
    const now = this.o.clock.now();
    this.forgetQuiet();
    const live = this.book.inState('live');
    if (budget >= live.length) {
      // Every live order is read: only those with news are looked up, in the lookup order (the
      // order of all restricted to them). A read changes nothing of another order, so which have
      // news does not depend on the order; and the order is taken before any is marked read.
      const news = lookupOrder(
        live.filter((t) => !this.quiet(t)),
        opts.mayHaveFilled,
      );
      for (const t of live) t.polledAtMs = now;
      for (const t of news) this.read(t, found);
      return found;
    }
    const ordered = lookupOrder(live, opts.mayHaveFilled);
    for (let i = 0; i < budget; i++) {
      const t = ordered[i] as TrackedOrder;
      t.polledAtMs = now;
      if (!this.quiet(t)) this.read(t, found);
    }
    return found;
  }

  /**
   * Whether a read of live order `t` would bring nothing: unchangedSinceRead, remembered in
   * `t.quietMatched` while neither the venue nor the ledger has touched the order (forgetQuiet)
   * and its matched size stands, so a resting order nothing touched costs no venue or ledger
   * lookup per poll. Without both change feeds, every read is checked.
   */
  private quiet(t: TrackedOrder): boolean {
    if (this.feedsChanges && t.quietMatched === t.sizeMatched) return true;
    if (!this.unchangedSinceRead(t)) return false;
    t.quietMatched = t.sizeMatched;
    return true;
  }

  /** Forgets what the venue and the ledger changed since the last poll (expiries due applied). */
  private forgetQuiet(): void {
    if (!this.feedsChanges) return;
    this.forgetQuietOf(this.o.venue.takeOrderChanges?.() ?? 'all');
    this.forgetQuietOf(this.o.ledger.takeOrderChanges?.() ?? 'all');
  }

  private forgetQuietOf(ids: ReadonlySet<string> | 'all'): void {
    if (ids === 'all') for (const t of this.book.all()) t.quietMatched = -1;
    else
      for (const id of ids) {
        const t = this.book.get(id);
        if (t !== undefined) t.quietMatched = -1;
      }
  }

  /** Looks live order `t` up and applies what the venue shows (its fills into `found`). */
  private read(t: TrackedOrder, found: FillEvent[]): void {
    const out = this.fills.applyLookup(t.id, this.o.venue.order(t.id), t.acknowledged);
    this.mirror(t, out, found);
  }

  /**
   * Whether a lookup of live order `t` now would find what the ledger and `t` already hold: the
   * venue shows the status and matched size the ledger recorded, the ledger holds it live, and
   * `t` is acknowledged with that matched size. Then applyLookup writes nothing and mirror changes
   * nothing (the ledger's restsAsLookedUp states the first), so the read is skipped, not changed:
   * most reads of a many-market run are of resting orders nothing has touched.
   */
  private unchangedSinceRead(t: TrackedOrder): boolean {
    const p = this.o.venue.orderProgress(t.id);
    return (
      p !== null &&
      t.acknowledged &&
      p.sizeMatched === t.sizeMatched &&
      this.o.ledger.restsAsLookedUp(t.id, p.status, p.sizeMatched)
    );
  }

  // ------------------------------------------------------------------------------- cancels

  private cancel(orders: readonly TrackedOrder[], tally: Tally, then: (failedKeys: Set<string>) => void): void {
    const failed = new Set<string>();
    if (orders.length === 0) {
      then(failed);
      return;
    }
    for (const t of orders) moveTo(t, 'cancelling');
    this.o.ledger.markCancelling(
      orders.map((t) => t.id),
      'cancel requested',
    );
    this.runPhase(
      orders.map((t) => (answered: () => void) => {
        tally.cancelsSent++;
        this.send(CANCEL_ROUTE, 'cancel', this.o.latency.cancel(), () => {
          if (!this.cancelAnswered(t, this.o.venue.cancel(t.id), tally)) failed.add(t.key);
          answered();
        });
      }),
      () => then(failed),
    );
  }

  /** The venue's answer to our cancel of `t`; true when the order is gone. */
  private cancelAnswered(t: TrackedOrder, res: CancelResult, tally: Tally): boolean {
    if (this.book.get(t.id) !== t) return true;
    if (res.canceled.includes(t.id)) {
      this.o.ledger.markCancelAnswered(t.id, 'canceled by us');
      this.book.remove(t.id);
      if (!this.settle.has(t.id)) this.settle.set(t.id, { acknowledged: t.acknowledged });
      tally.cancelled++;
      return true;
    }
    // "already matched" / "not found or already canceled": the venue's record says which, and
    // holds the fills to record, so it is looked up (no grace: this answer is definite).
    tally.cancelsFailed++;
    this.toUnknown(t, `cancel refused: ${res.notCanceled.get(t.id) ?? 'absent from the cancel answer'}`, 0);
    return false;
  }

  // ------------------------------------------------------------------------------- placements

  private underPressure(chosen: Chosen[], tally: Tally): Chosen[] {
    const limiter = this.o.limiter;
    if (limiter === null) return chosen;
    const decide = keepUnderPressure(chosen, this.o.config.pressureHorizonMs, tally);
    for (let step = decide.next(0); ;) {
      if (step.done === true) return step.value;
      let wait: number;
      try {
        wait = limiter.peekWaitMs(PLACE_ROUTE, step.value);
      } catch (e) {
        if (!isNeverSendable(e)) throw e;
        wait = Number.POSITIVE_INFINITY;
      }
      step = decide.next(wait);
    }
  }

  private withinReserve(chosen: Chosen[], tally: Tally): Chosen[] {
    const limiter = this.o.limiter;
    if (limiter === null || chosen.length === 0) return chosen;
    const capacity = cancelCapacity(limiter.peekUtilisation(CANCEL_ROUTE).windows, null);
    return withinCancelReserve(chosen, capacity, this.o.config.cancelReserve, this.book.size, tally).kept;
  }

  private place(chosen: readonly Chosen[], seq: number, tally: Tally, then: () => void): void {
    if (chosen.length === 0) {
      then();
      return;
    }
    const now = this.o.clock.now();
    const parties = this.o.parties;
    const signed = this.o.sign(chosen.map((c) => buildOrder(...orderToBuild(c, parties, now))));
    const outgoing: Array<{ c: Chosen; s: SignedOrder }> = [];
    signed.forEach((s, i) => {
      const c = chosen[i] as Chosen;
      const block = this.halted ? 'halted' : this.book.keyBlock(c.key, seq);
      if (block !== null) tally.drop(c.key, block);
      else outgoing.push({ c, s });
    });
    if (outgoing.length === 0) {
      then();
      return;
    }
    // Written before anything is sent, in one transaction (the submission itself is not kept:
    // a backtest's orders are never resent).
    this.o.ledger.recordSignedOrders(outgoing.map(({ c, s }) => signedOrderRecord(s, c, now, '{}', this.o.strategy)));
    for (const { c, s } of outgoing) {
      this.book.add({
        id: s.id,
        tokenId: s.tokenId,
        conditionId: s.conditionId,
        side: s.side,
        price: c.intent.quote.price,
        originalSize: sharesOf(s),
        state: 'inflight',
        createdAtMs: now,
        tag: c.intent.quote.tag,
        acknowledged: false,
      });
    }
    const chunks = chunkByPriority(outgoing, (x) => x.c.priority);
    this.runPhase(
      chunks.map((chunk) => (answered: () => void) => {
        this.o.ledger.transaction(() => {
          for (const x of chunk) this.o.ledger.markSent(x.s.id);
        });
        tally.placementsSent += chunk.length;
        const priority: PlacePriority = (chunk[0] as (typeof chunk)[number]).c.priority;
        this.send(PLACE_ROUTE, priority, this.o.latency.place(), () => {
          const results = chunk.map((x) => this.submit(x.s, postOnlyOf(x.c, parties)));
          this.o.ledger.transaction(() => {
            chunk.forEach((x, i) => this.onPlacement(x.s.id, results[i] as PlacementResult, tally));
          });
          answered();
        });
      }),
      then,
    );
  }

  /** The venue's answer to one order, as the paper gateway answers it. */
  private submit(s: SignedOrder, postOnly: boolean): PlacementResult {
    const ps = priceSizeFromAmounts(s.side, s.makerAmount, s.takerAmount);
    if (ps === null) throw new InvariantError(`order ${s.id}: amounts give no price`);
    const order: { -readonly [K in keyof PaperOrder]: PaperOrder[K] } = {
      id: s.id,
      tokenId: s.tokenId,
      side: s.side,
      price: ps.price,
      size: ps.size,
      orderType: 'GTC',
      maker: s.maker,
      owner: this.o.owner,
    };
    // postOnly only when set, as the gateway's parsed order carries it (assigned, not spread in).
    if (postOnly) order.postOnly = true;
    const r = this.o.venue.place(order);
    const p = placement(r);
    if (p.orderId !== null) this.o.onPlaced?.(p.orderId);
    return p;
  }

  private onPlacement(id: string, r: PlacementResult, tally: Tally): void {
    const t = this.book.get(id);
    if (t === undefined) return;
    switch (placementVerdict(id, r)) {
      case 'accepted':
        tally.accepted++;
        t.acknowledged = true;
        this.mirror(t, this.fills.applyPlacement(id, r), tally.fills);
        return;
      case 'rejected':
        this.reject(t, r.errorMsg, tally);
        return;
      case 'other-id':
        tally.unknown++;
        this.toUnknown(t, `accepted under id ${String(r.orderId)}`, 0);
        return;
      case 'unusable':
        tally.unknown++;
        this.toUnknown(t, `placement answered without a usable status (success=${String(r.success)})`, 0);
    }
  }

  private reject(t: TrackedOrder, errorMsg: string, tally: Tally): void {
    const state = this.o.ledger.markRejected(t.id, errorMsg);
    if (state === 'unknown') {
      // "Duplicated.": an order with this id is already on the venue (the ledger says so).
      tally.unknown++;
      moveTo(t, 'unknown');
      t.lookupAtMs = this.o.clock.now();
      this.scheduleResolve(0);
      return;
    }
    this.book.remove(t.id);
    this.cooldown.record(t.key, errorMsg);
    tally.rejected.push({ key: t.key, orderId: t.id, errorMsg });
    this.lastRejected.push({
      tokenId: t.tokenId,
      side: t.side,
      price: t.price,
      errorMsg,
      postOnlyCross: POST_ONLY_CROSS.test(errorMsg),
    });
  }

  // ------------------------------------------------------------------------------- effects

  /**
   * A request on `route`: through the limiter (its wait, when any, and then the latency are
   * events on the clock), then `arrive` at the venue. Synchronous when both are zero.
   */
  private send(route: string, priority: Priority, latencyMs: number, arrive: () => void): void {
    const limiter = this.o.limiter;
    const go = (): void => {
      if (latencyMs > 0) this.o.clock.setTimeout(arrive, latencyMs);
      else arrive();
    };
    if (limiter === null) {
      go();
      return;
    }
    const attempt = (): void => {
      const permit = limiter.tryAcquire(route, { priority });
      if (permit !== null) {
        permit.release();
        go();
        return;
      }
      this.o.clock.setTimeout(attempt, Math.max(1, limiter.peekWaitMs(route, { priority })));
    };
    attempt();
  }

  /** Runs request starters with at most `concurrency` in flight; `after` once all are answered. */
  private runPhase(starters: Array<(answered: () => void) => void>, after: () => void): void {
    const phase: Phase = { queue: starters.slice(), inFlight: 0, after };
    let finished = false;
    const pump = (): void => {
      while (phase.inFlight < this.o.config.concurrency && phase.queue.length > 0) {
        const start = phase.queue.shift() as (answered: () => void) => void;
        phase.inFlight++;
        start(() => {
          phase.inFlight--;
          pump();
        });
      }
      if (!finished && phase.inFlight === 0 && phase.queue.length === 0) {
        finished = true;
        phase.after();
      }
    };
    pump();
  }

  /** Mirrors a ledger outcome into the tracked order, as the OrderManager does. */
  private mirror(t: TrackedOrder, out: FillOutcome, found: FillEvent[]): void {
    found.push(...out.events);
    if (mirrorOutcome(this.book, t, out) && !this.settle.has(t.id)) this.settle.set(t.id, { acknowledged: true });
    this.readNoMore(t.id);
  }

  /**
   * The venue may forget `id` once neither the tracked orders nor the final reads owed hold it:
   * nothing here reads it again (a resting record stays).
   */
  private readNoMore(id: string): void {
    if (this.book.get(id) === undefined && !this.settle.has(id)) this.o.venue.forgetOrder(id);
  }

  /** An answer that cannot be used: the order is looked up once `delayMs` has passed. */
  private toUnknown(t: TrackedOrder, reason: string, delayMs: number): void {
    this.o.ledger.markUnknown(t.id, reason);
    moveTo(t, 'unknown');
    t.lookupAtMs = this.o.clock.now() + delayMs;
    this.scheduleResolve(delayMs);
  }

  /**
   * Looks up the unknown orders whose grace has passed (`all`: every one), as the OrderManager's
   * resolveUnknown does; the venue keeps every record, so none is ever "not found" for long.
   */
  resolveNow(all = false): FillEvent[] {
    const now = this.o.clock.now();
    const found: FillEvent[] = [];
    for (const t of this.book.inState('unknown')) {
      if (!all && t.lookupAtMs > now) continue;
      const rec = this.o.venue.order(t.id);
      const out = this.fills.applyLookup(t.id, rec, t.acknowledged);
      if (rec === null) this.book.remove(t.id);
      else this.mirror(t, out, found);
    }
    let next = Number.POSITIVE_INFINITY;
    for (const t of this.book.inState('unknown')) next = Math.min(next, t.lookupAtMs);
    if (Number.isFinite(next)) this.scheduleResolve(Math.max(0, next - now));
    return found;
  }

  private scheduleResolve(delayMs: number): void {
    const at = this.o.clock.now() + Math.max(0, delayMs);
    if (this.resolveTimer !== null && this.resolveAt <= at) return;
    if (this.resolveTimer !== null) this.o.clock.clearTimeout(this.resolveTimer);
    this.resolveAt = at;
    this.resolveTimer = this.o.clock.setTimeout(
      () => {
        this.resolveTimer = null;
        this.resolveAt = Number.POSITIVE_INFINITY;
        this.resolveNow();
      },
      Math.max(0, delayMs),
    );
  }

  /** A cancelled order's final read found it live after all: tracked again. */
  private trackAgain(id: string, sizeMatched: number): void {
    const lo = this.o.ledger.order(id);
    if (lo === null) return;
    const tag = lo.meta?.['tag'];
    this.book.add({
      id,
      tokenId: lo.tokenId,
      conditionId: lo.conditionId,
      side: lo.side,
      price: lo.price,
      originalSize: lo.size,
      sizeMatched: sizeMatched as never,
      state: 'live',
      createdAtMs: lo.createdAtMs,
      acknowledged: true,
      ...(typeof tag === 'string' ? { tag } : {}),
    });
  }

  private readBudget(limit: number | undefined): number {
    const now = this.o.clock.now();
    const since = this.lastPollAtMs === null ? 1_000 : Math.min(2_000, Math.max(0, now - this.lastPollAtMs));
    this.lastPollAtMs = now;
    if (limit !== undefined) return limit;
    return Math.max(this.o.config.pollBatch, Math.floor((this.o.config.fillReadsPerSecond * since) / 1_000));
  }
}

// The in-memory rate limiter (the default): exact sliding windows per bucket, a priority scheduler
// in front of them, one injected clock.
//
// Admission rule: a request is admitted only when every window of its route (own buckets, the
// combined cap, the general cap) has room at once, no bucket of it is paused by a 429, and the
// in-flight cap (if any) allows; it is then recorded in all of them at that instant, which is
// the send time (the caller sends at once). Nothing is refunded.
//
// Scheduling (one pass walks the queue; it runs on every arrival, release, abort, 429 and when
// the earliest blocked waiter's slot frees):
// - classes in order cancel → replace → new → read; within a class, heads in arrival order;
// - a waiter that cannot go reserves room in every window of its route so that lower-priority
//   waiters can only use room beyond it: a blocked write (cancel, replace, new) reserves the cost
//   of every queued request of its route and class, a blocked read its head's cost only. So no
//   write is ever delayed by a request of lower priority (a cancel never waits behind a
//   placement, reads never starve writes), while a request whose windows have room beyond the
//   reservations still goes (a read on /book while placements wait for POST /order's window);
// - within a route a FIFO: nothing overtakes an earlier request of the same route and class.
// Windows are checked in monotonic milliseconds (clock.monotonic()).
//
// Per-signer buckets (signer-budget.ts): a trading route also draws its `tokens` from the signer's
// order or cancel bucket, checked and recorded together with its windows (all or nothing, so a
// batch goes whole or waits whole); a blocked write holds tokens for its whole queue there as in
// its windows. A cost above the bucket's capacity is refused at acquire. `observeSigner` adopts
// what the exchange reports (a lower balance, a reset after a refusal, the tier).
import type { Clock, TimerId } from '../core/clock.js';
import { BACKEND_OK, type BackendHealth } from './backend-health.js';
import type { ApiGroup, WindowSpec } from './budgets.js';
import { isRateLimitConfig, resolveRateLimitConfig, type RateLimitConfig } from './config.js';
import { RateLimitClosedError, RateLimitRouteError, RateLimitWaitError } from './errors.js';
import { RouteResolver, checkCost, type RouteSpec } from './plan.js';
import {
  PRIORITY_RANK,
  type AcquireOptions,
  type Permit,
  type QueueDepth,
  type RateLimiter,
  type RouteUtilisation,
  type WaitQuery,
  type WindowUsage,
} from './types.js';
import { CLASSES, WaitQueues, type Waiter } from './wait-queue.js';
import { SignerBudget, signerRouteOf, type SignerBucketState, type SignerRoute } from './signer-budget.js';
import type { SignerBucketKind, SignerStatus, SignerTier } from './signer-tiers.js';

const READ_RANK = PRIORITY_RANK.read;
import { SlidingWindowLog } from './window.js';

interface Win {
  readonly log: SlidingWindowLog;
  /** Index into the scheduler's reservation scratch array. */
  readonly idx: number;
  readonly bucket: Bucket;
}

interface Bucket {
  readonly name: string;
  readonly wins: readonly Win[];
  /** Monotonic ms until which a 429 paused this bucket. */
  pausedUntil: number;
}

interface Plan {
  readonly api: ApiGroup;
  readonly id: string;
  readonly wins: readonly Win[];
  readonly buckets: readonly Bucket[];
  readonly pauseBuckets: readonly Bucket[];
  /** Largest cost that can ever fit (the smallest window limit). */
  readonly maxCost: number;
  /** The per-signer bucket the route draws from; null when none (or not metered). */
  readonly signer: SignerRoute | null;
}

class MemPermit implements Permit {
  private owner: MemoryRateLimiter | null;
  constructor(
    readonly route: string,
    readonly api: ApiGroup,
    readonly sentAt: number,
    readonly waitedMs: number,
    owner: MemoryRateLimiter | null,
  ) {
    this.owner = owner;
  }
  release(): void {
    const o = this.owner;
    if (o !== null) {
      this.owner = null;
      o.released();
    }
  }
}

export interface MemoryRateLimiterOptions {
  readonly clock: Clock;
  /** Raw config (validated here) or an already resolved one. */
  readonly config?: unknown;
}

export class MemoryRateLimiter implements RateLimiter {
  readonly config: RateLimitConfig;
  /** The per-signer buckets; null when `signerTier` is 'off'. */
  readonly signer: SignerBudget | null;
  private readonly clock: Clock;
  /** Tokens held for blocked waiters in the order (0) and cancel (1) buckets, one pass. */
  private readonly signerHeld = new Float64Array(2);
  private readonly resolver: RouteResolver<Plan>;
  private readonly buckets = new Map<string, Bucket>();
  private readonly wins: Win[] = [];
  private reserved = new Float64Array(16);
  private readonly queues = new WaitQueues<Plan>();
  private readonly maxInFlight: number;
  private readonly countInFlight: boolean;
  private inFlight = 0;
  private pumping = false;
  private pumpAgain = false;
  private passId = 0;
  private timer: TimerId | null = null;
  private timerAt = Number.NaN;
  private closed = false;
  /** Latest pause end of any bucket: before it, admission checks pauses; after, it skips them. */
  private pauseHorizon = Number.NEGATIVE_INFINITY;

  constructor(opts: MemoryRateLimiterOptions) {
    this.clock = opts.clock;
    this.config = isRateLimitConfig(opts.config) ? opts.config : resolveRateLimitConfig(opts.config ?? {});
    this.maxInFlight = this.config.maxInFlight;
    this.countInFlight = Number.isFinite(this.maxInFlight);
    const tier = this.config.signerTier;
    this.signer =
      tier === null
        ? null
        : new SignerBudget({
            tier,
            marginMs: this.config.marginMs,
            safetyFactor: this.config.safetyFactor,
            now: this.clock.monotonic(),
          });
    this.resolver = new RouteResolver<Plan>(this.config.budgets, (spec) => this.buildPlan(spec));
  }

  // ---------------------------------------------------------------- admission

  acquire(route: string, opts: AcquireOptions): Promise<Permit> {
    let plan: Plan;
    let cost: number;
    let tokens: number;
    try {
      plan = this.resolver.resolve(route, opts.api);
      cost = checkCost(opts.cost, plan.maxCost, route);
      tokens = this.tokensOf(plan, opts.tokens, route);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.closed) return Promise.reject(new RateLimitClosedError());
    const signal = opts.signal;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const now = this.clock.monotonic();
    if (this.queues.total === 0 && this.inFlight < this.maxInFlight && this.fits(plan, now, cost, tokens)) {
      return Promise.resolve(this.admit(route, plan, now, cost, tokens, 0));
    }
    const rank = PRIORITY_RANK[opts.priority];
    if (opts.maxWaitMs !== undefined) {
      const wait = this.predictWait(plan, rank, cost, tokens, now);
      if (wait > opts.maxWaitMs) return Promise.reject(new RateLimitWaitError(route, wait, opts.maxWaitMs));
    }
    return new Promise<Permit>((resolve, reject) => {
      const w = this.queues.push(plan, route, cost, rank, now, resolve, reject, tokens);
      if (signal !== undefined) {
        const onAbort = (): void => {
          if (this.queues.remove(w)) {
            reject(signal.reason);
            this.pump();
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        w.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.pump();
    });
  }

  /**
   * Admits now or returns null, never queues. Honours the queue: it goes only where a request of
   * its priority arriving now would go (after every queued request it must not overtake).
   */
  tryAcquire(route: string, opts: AcquireOptions): Permit | null {
    const plan = this.resolver.resolve(route, opts.api);
    const cost = checkCost(opts.cost, plan.maxCost, route);
    const tokens = this.tokensOf(plan, opts.tokens, route);
    if (this.closed) throw new RateLimitClosedError();
    const now = this.clock.monotonic();
    if (this.queues.total === 0) {
      return this.inFlight < this.maxInFlight && this.fits(plan, now, cost, tokens)
        ? this.admit(route, plan, now, cost, tokens, 0)
        : null;
    }
    let got: Permit | null = null;
    const probe = this.queues.push(
      plan,
      route,
      cost,
      PRIORITY_RANK[opts.priority],
      now,
      (p) => {
        got = p;
      },
      () => undefined,
      tokens,
    );
    this.pump();
    if (got !== null) return got;
    this.queues.remove(probe);
    this.pump();
    return null;
  }

  onThrottled(route: string, retryAfterMs?: number | null, api?: ApiGroup): void {
    const plan = this.resolver.resolve(route, api);
    const ms =
      retryAfterMs !== undefined && retryAfterMs !== null && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
        ? retryAfterMs
        : this.config.defaultPauseMs;
    const until = this.clock.monotonic() + ms;
    for (const b of plan.pauseBuckets) if (until > b.pausedUntil) b.pausedUntil = until;
    if (until > this.pauseHorizon) this.pauseHorizon = until;
    this.pump();
  }

  observeSigner(route: string, status: SignerStatus): void {
    if (this.signer === null) return;
    const changed = this.signer.observe(signerRouteOf(route), status, this.clock.monotonic(), this.clock.now());
    if (changed) this.pump();
  }

  signerTier(): SignerTier | null {
    return this.signer?.tier ?? null;
  }

  signerCapacity(kind: SignerBucketKind): number | null {
    return this.signer?.capacity(kind) ?? null;
  }

  /** The per-signer buckets as the model holds them now (metrics); empty when not metered. */
  signerState(): SignerBucketState[] {
    return this.signer?.state(this.clock.monotonic()) ?? [];
  }

  // ---------------------------------------------------------------- metrics and prediction

  /** Synchronous wouldWaitMs (see the RateLimiter interface). */
  peekWaitMs(route: string, q: WaitQuery = {}): number {
    const plan = this.resolver.resolve(route, q.api);
    const cost = checkCost(q.cost, plan.maxCost, route);
    // A prediction may cover several requests of ours (the order manager asks for k + 1 chunks):
    // more tokens than one bucket holds are spent as it refills, so they are not refused here.
    const tokens =
      plan.signer === null || this.signer === null ? 0 : checkCost(q.tokens, Number.MAX_SAFE_INTEGER, route);
    return this.predictWait(plan, PRIORITY_RANK[q.priority ?? 'new'], cost, tokens, this.clock.monotonic());
  }

  wouldWaitMs(route: string, q?: WaitQuery): Promise<number> {
    try {
      return Promise.resolve(this.peekWaitMs(route, q));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  nextFreeAt(route: string, q?: WaitQuery): Promise<number> {
    try {
      return Promise.resolve(this.clock.now() + this.peekWaitMs(route, q));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  queueDepth(): QueueDepth {
    const d = this.queues.depth;
    return { total: this.queues.total, cancel: d[0] ?? 0, replace: d[1] ?? 0, new: d[2] ?? 0, read: d[3] ?? 0 };
  }

  /** Synchronous utilisation (see the RateLimiter interface). */
  peekUtilisation(route: string, api?: ApiGroup): RouteUtilisation {
    const plan = this.resolver.resolve(route, api);
    const now = this.clock.monotonic();
    let paused = 0;
    for (const b of plan.buckets) paused = Math.max(paused, b.pausedUntil - now);
    return {
      route,
      api: plan.api,
      windows: plan.wins.map((w) => usage(w, now)),
      pausedForMs: paused,
      queued: this.queues.queuedOn(plan),
    };
  }

  utilisation(route: string, api?: ApiGroup): Promise<RouteUtilisation> {
    try {
      return Promise.resolve(this.peekUtilisation(route, api));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Every bucket in use, for metrics export. */
  bucketUsage(): WindowUsage[] {
    const now = this.clock.monotonic();
    return this.wins.map((w) => usage(w, now));
  }

  /** Admitted requests not yet released (0 unless maxInFlight is set). */
  inFlightCount(): number {
    return this.inFlight;
  }

  close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    const err = new RateLimitClosedError();
    for (const w of this.queues.drain()) w.fail(err);
    return Promise.resolve();
  }

  /** Always ok: the windows live in this process. */
  health(): BackendHealth {
    return BACKEND_OK;
  }

  /** Called by a permit's release(). */
  released(): void {
    this.inFlight--;
    if (this.queues.total > 0) this.pump();
  }

  // ---------------------------------------------------------------- internals

  /** The per-signer tokens a request of `plan` is charged (0 when it draws from no bucket). */
  private tokensOf(plan: Plan, tokens: number | undefined, route: string): number {
    if (plan.signer === null || this.signer === null) return 0;
    this.signer.need(plan.signer, tokens, route); // validates: throws when it can never fit
    return tokens ?? 1;
  }

  /** Tokens admission needs in the bucket: the charge, or at most a full bucket (a post-charged
   *  cancel-all, or a batch validated before a tier change shrank the bucket). */
  private needOf(plan: Plan, tokens: number): number {
    if (plan.signer === null || this.signer === null) return 0;
    const cap = this.signer.capacity(plan.signer.kind);
    return tokens < cap ? tokens : cap;
  }

  private fits(plan: Plan, now: number, cost: number, tokens: number): boolean {
    if (now < this.pauseHorizon) for (const b of plan.buckets) if (b.pausedUntil > now) return false;
    const wins = plan.wins;
    for (let i = 0; i < wins.length; i++) if (!(wins[i] as Win).log.hasRoom(now, cost)) return false;
    const s = plan.signer;
    if (s !== null && this.signer !== null && !this.signer.fits(s, now, this.needOf(plan, tokens))) return false;
    return true;
  }

  private admit(route: string, plan: Plan, now: number, cost: number, tokens: number, waited: number): Permit {
    const wins = plan.wins;
    for (let i = 0; i < wins.length; i++) (wins[i] as Win).log.record(now, cost);
    if (plan.signer !== null && this.signer !== null) this.signer.take(plan.signer, now, tokens);
    if (this.countInFlight) {
      this.inFlight++;
      return new MemPermit(route, plan.api, now, waited, this);
    }
    return new MemPermit(route, plan.api, now, waited, null);
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pass();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  /** One scheduling pass over the queue (see the header for the rules). */
  private pass(): void {
    const now = this.clock.monotonic();
    const reserved = this.reserved;
    reserved.fill(0);
    const held = this.signerHeld;
    held.fill(0);
    const mark = ++this.passId;
    let wake = Number.POSITIVE_INFINITY;
    const q = this.queues;
    classes: for (let rank = 0; rank < CLASSES; rank++) {
      for (;;) {
        const f = q.pickHead(rank, mark);
        if (f === undefined) break;
        if (this.inFlight >= this.maxInFlight) break classes; // a release pumps again
        const w = f.peek() as Waiter<Plan>;
        const plan = w.plan;
        const blocked = this.blockedFor(plan, now, w.cost, w.tokens, reserved);
        if (blocked === 0) {
          q.take(f);
          w.settle(this.admit(w.route, plan, now, w.cost, w.tokens, now - w.enqueuedAt));
          continue;
        }
        f.mark = mark;
        if (blocked < wake) wake = blocked;
        // Writes hold room for their whole queue, so nothing of lower priority can delay any of
        // them; a read holds room only for its head, so a long read queue on one route (blocked
        // by its own window) does not stall reads on other routes.
        const hold = rank === READ_RANK ? w.cost : f.queuedCost;
        for (const win of plan.wins) reserved[win.idx] = (reserved[win.idx] as number) + hold;
        if (plan.signer !== null) {
          const i = plan.signer.idx;
          held[i] = (held[i] as number) + (rank === READ_RANK ? this.needOf(plan, w.tokens) : f.queuedTokens);
        }
      }
      q.prune(rank);
    }
    this.schedule(now, q.total === 0 ? Number.POSITIVE_INFINITY : wake);
  }

  /** 0 when the request can go now; otherwise how long until it might (Infinity: unknown). */
  private blockedFor(plan: Plan, now: number, cost: number, tokens: number, reserved: Float64Array): number {
    let wait = 0;
    const s = plan.signer;
    if (s !== null && this.signer !== null) {
      // Room beyond what earlier waiters hold. When that exceeds a full bucket (Infinity), the
      // earliest of them has a finite wait that wakes the scheduler; this one is looked at again then.
      wait = this.signer.waitMs(s, now, this.needOf(plan, tokens), this.signerHeld[s.idx] as number);
    }
    for (const b of plan.buckets) if (b.pausedUntil - now > wait) wait = b.pausedUntil - now;
    for (const win of plan.wins) {
      const r = reserved[win.idx] as number;
      if (!win.log.hasRoom(now, cost, r)) {
        const w = win.log.waitMs(now, cost, r);
        if (w > wait) wait = w;
      }
    }
    return wait;
  }

  /**
   * Wait for a request of class `rank` arriving now: everything queued in its class or above,
   * on windows it shares, goes first. A lower bound (later higher-priority arrivals, the
   * in-flight cap and other routes' reservations are not foreseen).
   */
  private predictWait(plan: Plan, rank: number, cost: number, tokens: number, now: number): number {
    const ahead = new Float64Array(this.wins.length);
    let aheadTokens = 0;
    const s = plan.signer;
    for (let r = 0; r <= rank; r++) {
      for (const f of this.queues.active[r] ?? []) {
        if (f.count === 0) continue;
        for (const win of f.plan.wins) ahead[win.idx] = (ahead[win.idx] as number) + f.queuedCost;
        if (s !== null && f.plan.signer?.idx === s.idx) aheadTokens += f.queuedTokens;
      }
    }
    let wait = 0;
    if (s !== null && this.signer !== null) {
      // Queued tokens beyond a full bucket are spent as they refill: rate-bound, not capacity-bound.
      wait = this.signer.predictMs(s, now, aheadTokens + (s.postCharged ? this.needOf(plan, tokens) : tokens));
    }
    for (const b of plan.buckets) if (b.pausedUntil - now > wait) wait = b.pausedUntil - now;
    for (const win of plan.wins) {
      const w = win.log.waitForSlotMs(now, (ahead[win.idx] as number) + cost);
      if (w > wait) wait = w;
    }
    return wait;
  }

  private schedule(now: number, waitMs: number): void {
    if (!Number.isFinite(waitMs)) {
      this.clearTimer();
      return;
    }
    const at = now + waitMs;
    if (this.timer !== null && this.timerAt === at) return;
    this.clearTimer();
    this.timerAt = at;
    // Ceil: with a fractional monotonic clock, firing a hair early would only cost one more pass.
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.NaN;
      this.pump();
    }, Math.ceil(waitMs));
  }

  private clearTimer(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
      this.timerAt = Number.NaN;
    }
  }

  private buildPlan(spec: RouteSpec): Plan {
    const buckets = spec.buckets.map((n) => this.bucket(n));
    const wins = buckets.flatMap((b) => b.wins);
    return {
      api: spec.api,
      id: spec.id,
      wins,
      buckets,
      pauseBuckets: spec.pauseBuckets.map((n) => this.bucket(n)),
      maxCost: wins.reduce((m, w) => Math.min(m, w.log.limit), Number.POSITIVE_INFINITY),
      signer: spec.api === 'clob' && this.signer !== null ? signerRouteOf(spec.id.slice('clob '.length)) : null,
    };
  }

  /** Buckets are created on first use, so a 10-minute ring exists only for routes in use. */
  private bucket(name: string): Bucket {
    const hit = this.buckets.get(name);
    if (hit !== undefined) return hit;
    const specs: readonly WindowSpec[] | undefined = this.config.budgets.buckets[name];
    if (specs === undefined) throw new RateLimitRouteError(`unknown bucket "${name}"`);
    const wins: Win[] = [];
    const b: Bucket = { name, wins, pausedUntil: Number.NEGATIVE_INFINITY };
    for (const s of specs) {
      const win: Win = {
        log: new SlidingWindowLog(s.limit, s.windowMs, this.config.marginMs),
        idx: this.wins.length,
        bucket: b,
      };
      wins.push(win);
      this.wins.push(win);
    }
    if (this.reserved.length < this.wins.length) {
      const grown = new Float64Array(this.wins.length * 2);
      grown.set(this.reserved);
      this.reserved = grown;
    }
    this.buckets.set(name, b);
    return b;
  }
}

function usage(w: Win, now: number): WindowUsage {
  const used = w.log.count(now);
  return { bucket: w.bucket.name, limit: w.log.limit, windowMs: w.log.windowMs, used, utilisation: used / w.log.limit };
}

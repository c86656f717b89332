// The Redis-backed limiter: same API and admission rule as MemoryRateLimiter, but the windows
// live in Redis (redis-store.ts), so several processes sharing one API key share one budget and
// never exceed it together.
//
// Within a process the scheduler is the memory limiter's (cancel → replace → new → read; a
// blocked write holds room for its whole queue, a blocked read for its head), and the room held
// is passed to the script as `reserved`, so a later lower-priority request cannot take it.
// Across processes there is no priority: each script call is atomic and first come first served.
// Admission is one script call per request; a pass walks the queue one call at a time (never two
// passes at once), and a blocked pass sleeps until the earliest wait the script reported, then
// asks again (other processes can only make waits longer, and asking again sees that).
//
// Fail closed (backend-health.ts): without a working store nothing is admitted. A lost connection
// (the client's 'close'/'error') fails every queued request at once with RATE_LIMIT_STORE and
// refuses new ones until the client is 'ready' again (it reconnects by itself); a failed or
// timed-out script fails its request and marks the store down until the next script succeeds.
// `health()` says which, and `onHealth` hears each loss and each recovery once.
//
// Per-signer buckets (signer-budget.ts): a trading route's bucket is a hash checked and charged by
// the same admission script as its windows (redis-store.ts), so every process sharing the prefix
// (one API key, one signer) spends one bucket; the tier, capacities and the margin's reserve come
// from this process's config and its SignerBudget (which also adopts a reported tier); the
// scheduler holds tokens for blocked waiters as the memory limiter does; observeSigner lowers the
// shared balance and, after a refusal, pauses the bucket for every process.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock, TimerId } from '../core/clock.js';
import { HealthTracker, type BackendHealth, type HealthListener } from './backend-health.js';
import type { ApiGroup } from './budgets.js';
import { isRateLimitConfig, resolveRateLimitConfig, type RateLimitConfig } from './config.js';
import { RateLimitClosedError, RateLimitRouteError, RateLimitStoreError, RateLimitWaitError } from './errors.js';
import { RouteResolver, checkCost, type RouteSpec } from './plan.js';
import { RedisWindowStore, type RedisPlanKeys, type RedisWindowKey, type SignerAdmitArgs } from './redis-store.js';
import {
  PRIORITY_RANK,
  type AcquireOptions,
  type Permit,
  type QueueDepth,
  type RateLimiter,
  type RouteUtilisation,
  type WaitQuery,
} from './types.js';
import { CLASSES, WaitQueues, type Waiter } from './wait-queue.js';
import { SignerBudget, signerRouteOf, type SignerRoute } from './signer-budget.js';
import type { SignerBucketKind, SignerStatus, SignerTier } from './signer-tiers.js';

const READ_RANK = PRIORITY_RANK.read;

interface RWin extends RedisWindowKey {
  /** Index into the pass's reservation scratch array. */
  readonly idx: number;
  readonly bucket: string;
}

interface RPlan extends RedisPlanKeys {
  readonly api: ApiGroup;
  readonly id: string;
  readonly windows: readonly RWin[];
  /** Pause keys a 429 on this route sets. */
  readonly ownPauseKeys: readonly string[];
  readonly maxCost: number;
  /** The per-signer bucket the route draws from (its hash is `signerKey`). */
  readonly signer: SignerRoute | null;
}

class RedisPermit implements Permit {
  private owner: RedisRateLimiter | null;
  constructor(
    readonly route: string,
    readonly api: ApiGroup,
    readonly sentAt: number,
    readonly waitedMs: number,
    owner: RedisRateLimiter | null,
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

export interface RedisRateLimiterOptions {
  readonly clock: Clock;
  /** A connected ioredis client; shared with nothing that uses blocking commands. */
  readonly redis: Redis;
  /** Raw config (validated here) or a resolved one; its redis backend section, if any, gives the
   *  key prefix and time source unless overridden below. */
  readonly config?: unknown;
  readonly keyPrefix?: string;
  readonly timeSource?: 'clock' | 'server';
  /** Quit the client on close(). */
  readonly ownsClient?: boolean;
  /** Told each transition of the backend's health (lost, recovered), once each. */
  readonly onHealth?: HealthListener;
  /** Told each 429 pause that could not be written to Redis (the runtime logs it). */
  readonly onPauseFailed?: PauseFailureListener;
}

/** A 429's shared pause was not written: other processes sharing the key did not hear of it. */
export type PauseFailureListener = (err: unknown, route: string) => void;

export class RedisRateLimiter implements RateLimiter {
  readonly config: RateLimitConfig;
  private readonly clock: Clock;
  private readonly redis: Redis;
  private readonly store: RedisWindowStore;
  private readonly resolver: RouteResolver<RPlan>;
  private readonly prefix: string;
  private readonly serverTime: boolean;
  private readonly ownsClient: boolean;
  private readonly queues = new WaitQueues<RPlan>();
  /** Tier and capacities of the per-signer buckets (the balances live in Redis); null: 'off'. */
  readonly signer: SignerBudget | null;
  private readonly instance = randomUUID();
  private winCount = 0;
  private sendSeq = 0;
  private inFlight = 0;
  private readonly maxInFlight: number;
  private running = false;
  private again = false;
  private passId = 0;
  private timer: TimerId | null = null;
  private closed = false;
  /** The last pause write, awaited before the next admission so a 429 takes effect at once. */
  private pausing: Promise<void> = Promise.resolve();
  private readonly idleWaiters: (() => void)[] = [];
  /** 429 pauses that could not be written (pauseFailures()). */
  private failedPauses = 0;
  private readonly onPauseFailed: PauseFailureListener | undefined;
  private readonly tracker: HealthTracker;
  /** host:port of the client, for reasons (never the URL: it may carry a password). */
  private readonly address: string;
  private readonly unwatch: () => void;

  constructor(opts: RedisRateLimiterOptions) {
    this.clock = opts.clock;
    this.redis = opts.redis;
    this.config = isRateLimitConfig(opts.config) ? opts.config : resolveRateLimitConfig(opts.config ?? {});
    const backend = this.config.backend.kind === 'redis' ? this.config.backend : null;
    this.prefix = opts.keyPrefix ?? backend?.keyPrefix ?? 'oddsmaker:rl';
    this.serverTime = (opts.timeSource ?? backend?.timeSource ?? 'clock') === 'server';
    this.ownsClient = opts.ownsClient ?? false;
    this.maxInFlight = this.config.maxInFlight;
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
    this.store = new RedisWindowStore(opts.redis);
    this.resolver = new RouteResolver<RPlan>(this.config.budgets, (spec) => this.buildPlan(spec));
    this.tracker = new HealthTracker(opts.clock);
    this.onPauseFailed = opts.onPauseFailed;
    if (opts.onHealth !== undefined) this.tracker.onChange(opts.onHealth);
    this.address = `${opts.redis.options.host ?? '?'}:${opts.redis.options.port ?? '?'}`;
    this.unwatch = this.watchClient(opts.redis);
  }

  /** ok, or why nothing can be admitted now (Redis unreachable, or its last script failed). */
  health(): BackendHealth {
    return this.tracker.health;
  }

  async acquire(route: string, opts: AcquireOptions): Promise<Permit> {
    const plan = this.resolver.resolve(route, opts.api);
    const cost = checkCost(opts.cost, plan.maxCost, route);
    let tokens = 0;
    if (plan.signer !== null && this.signer !== null) {
      this.signer.need(plan.signer, opts.tokens, route); // validates: throws when it can never fit
      tokens = opts.tokens ?? 1;
    }
    if (this.closed) throw new RateLimitClosedError();
    this.refuseWhileDisconnected();
    const signal = opts.signal;
    if (signal?.aborted === true) throw signal.reason;
    const rank = PRIORITY_RANK[opts.priority];
    if (opts.maxWaitMs !== undefined) {
      const wait = await this.predictWait(plan, rank, cost, tokens);
      if (wait > opts.maxWaitMs) throw new RateLimitWaitError(route, wait, opts.maxWaitMs);
    }
    return new Promise<Permit>((resolve, reject) => {
      const w = this.queues.push(plan, route, cost, rank, this.clock.now(), resolve, reject, tokens);
      if (signal !== undefined) {
        const onAbort = (): void => {
          if (this.queues.remove(w)) {
            reject(signal.reason);
            this.kick();
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        w.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.kick();
    });
  }

  onThrottled(route: string, retryAfterMs?: number | null, api?: ApiGroup): void {
    const plan = this.resolver.resolve(route, api);
    const ms =
      retryAfterMs !== undefined && retryAfterMs !== null && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
        ? retryAfterMs
        : this.config.defaultPauseMs;
    const prev = this.pausing;
    // A failed write must not fail the next admission (it awaits `pausing`), but it is counted and
    // reported: without it the other processes keep sending into the 429.
    this.pausing = prev
      .then(() => this.store.pause(plan.ownPauseKeys, ms, this.nowArg()))
      .catch((err: unknown) => {
        this.failedPauses++;
        try {
          this.onPauseFailed?.(err, route);
        } catch {
          /* a reporting hook must not break admission */
        }
      });
    this.kick();
  }

  async wouldWaitMs(route: string, q: WaitQuery = {}): Promise<number> {
    const plan = this.resolver.resolve(route, q.api);
    // A prediction may cover several requests of ours: tokens beyond a bucket are not refused.
    const tokens =
      plan.signer === null || this.signer === null ? 0 : checkCost(q.tokens, Number.MAX_SAFE_INTEGER, route);
    return this.predictWait(plan, PRIORITY_RANK[q.priority ?? 'new'], checkCost(q.cost, plan.maxCost, route), tokens);
  }

  observeSigner(route: string, status: SignerStatus): void {
    const budget = this.signer;
    if (budget === null) return;
    if (status.tier !== null && status.tier !== budget.tier) budget.setTier(status.tier, this.clock.monotonic());
    const r = signerRouteOf(route);
    if (r === null) {
      this.kick();
      return;
    }
    const a = budget.allowance(r.kind);
    const key = this.signerKey(r.kind);
    const now = this.nowArg();
    const prev = this.pausing;
    // Serialised with the 429 pauses (admission awaits `pausing`); a failure is counted like theirs.
    this.pausing = prev
      .then(async () => {
        if (status.remaining !== null)
          await this.store.capSigner(key, status.remaining - a.reserve, a.rate, a.capacity, now);
        if (status.refused && status.resetAtMs !== null) {
          await this.store.pause([this.signerPauseKey(r.kind)], status.resetAtMs - this.clock.now(), now);
        }
      })
      .catch((err: unknown) => {
        this.failedPauses++;
        try {
          this.onPauseFailed?.(err, route);
        } catch {
          /* a reporting hook must not break admission */
        }
      });
    this.kick();
  }

  signerTier(): SignerTier | null {
    return this.signer?.tier ?? null;
  }

  signerCapacity(kind: SignerBucketKind): number | null {
    return this.signer?.capacity(kind) ?? null;
  }

  async nextFreeAt(route: string, q?: WaitQuery): Promise<number> {
    return this.clock.now() + (await this.wouldWaitMs(route, q));
  }

  queueDepth(): QueueDepth {
    const d = this.queues.depth;
    return { total: this.queues.total, cancel: d[0] ?? 0, replace: d[1] ?? 0, new: d[2] ?? 0, read: d[3] ?? 0 };
  }

  async utilisation(route: string, api?: ApiGroup): Promise<RouteUtilisation> {
    const plan = this.resolver.resolve(route, api);
    this.refuseWhileDisconnected();
    const r = await this.observe(this.store.counts(plan, this.nowArg()));
    return {
      route,
      api: plan.api,
      windows: plan.windows.map((w, i) => {
        const used = r.counts[i] ?? 0;
        return { bucket: w.bucket, limit: w.limit, windowMs: w.windowMs, used, utilisation: used / w.limit };
      }),
      pausedForMs: r.pausedForMs,
      queued: this.queues.queuedOn(plan),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    const err = new RateLimitClosedError();
    for (const w of this.queues.drain()) w.fail(err);
    this.unwatch();
    if (this.ownsClient) {
      // quit() only on a live connection; otherwise stop the reconnect attempts at once.
      if (this.redis.status === 'ready')
        await this.redis.quit().catch(() => {
          this.redis.disconnect();
        });
      else this.redis.disconnect();
    }
  }

  /** 429 pauses that could not be written to Redis since start (a counter: /metrics shows it). */
  pauseFailures(): number {
    return this.failedPauses;
  }

  /** True while a scheduling pass (talking to Redis) runs. */
  get busy(): boolean {
    return this.running;
  }

  /** Resolves when no pass runs and the last 429 pause is written (tests, orderly shutdown). */
  async settled(): Promise<void> {
    await this.pausing;
    while (this.running)
      await new Promise<void>((r) => {
        this.idleWaiters.push(r);
      });
  }

  /** Called by a permit's release(). */
  released(): void {
    this.inFlight--;
    if (this.queues.total > 0) this.kick();
  }

  // ---------------------------------------------------------------- internals

  private nowArg(): number | null {
    return this.serverTime ? null : Math.ceil(this.clock.now());
  }

  /** Starts a pass, or asks the running one to go round again. */
  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.closed);
    } finally {
      this.running = false;
      const ws = this.idleWaiters.splice(0);
      for (const r of ws) r();
    }
  }

  private async pass(): Promise<void> {
    await this.pausing;
    const reserved = new Array<number>(this.winCount).fill(0);
    const held = [0, 0];
    const mark = ++this.passId;
    let wake = Number.POSITIVE_INFINITY;
    const q = this.queues;
    classes: for (let rank = 0; rank < CLASSES; rank++) {
      for (;;) {
        if (this.closed) return;
        const f = q.pickHead(rank, mark);
        if (f === undefined) break;
        if (this.inFlight >= this.maxInFlight) break classes;
        const w = f.peek() as Waiter<RPlan>;
        const plan = w.plan;
        const res = await this.store
          .admit(
            plan,
            w.cost,
            plan.windows.map((x) => reserved[x.idx] ?? 0),
            this.nowArg(),
            `${this.instance}:${this.sendSeq++}`,
            false,
            this.signerArgs(plan, w.tokens, held[plan.signer?.idx ?? 0] ?? 0, true),
          )
          .catch((err: unknown) =>
            err instanceof RateLimitStoreError ? err : new RateLimitStoreError(String(err), err),
          );
        if (res instanceof RateLimitStoreError) {
          if (!this.closed) this.tracker.storeFailed(`Redis at ${this.address}: ${res.message}`);
          if (q.remove(w)) w.fail(res);
          continue;
        }
        this.tracker.storeOk();
        if (res.admitted) {
          // Aborted while the script ran: the send is recorded for nobody (never refunded).
          if (!q.remove(w)) continue;
          if (Number.isFinite(this.maxInFlight)) this.inFlight++;
          w.settle(
            new RedisPermit(
              w.route,
              plan.api,
              res.at,
              this.clock.now() - w.enqueuedAt,
              Number.isFinite(this.maxInFlight) ? this : null,
            ),
          );
          continue;
        }
        f.mark = mark;
        if (res.waitMs < wake) wake = res.waitMs;
        const hold = rank === READ_RANK ? w.cost : f.queuedCost;
        for (const x of plan.windows) reserved[x.idx] = (reserved[x.idx] ?? 0) + hold;
        if (plan.signer !== null)
          held[plan.signer.idx] = (held[plan.signer.idx] ?? 0) + (rank === READ_RANK ? w.tokens : f.queuedTokens);
      }
      q.prune(rank);
    }
    if (q.total > 0 && Number.isFinite(wake) && !this.again) this.schedule(Math.max(1, wake));
  }

  private schedule(waitMs: number): void {
    this.clearTimer();
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.kick();
    }, Math.ceil(waitMs));
  }

  private clearTimer(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private async predictWait(plan: RPlan, rank: number, cost: number, tokens: number): Promise<number> {
    const ahead = new Array<number>(this.winCount).fill(0);
    let aheadTokens = 0;
    for (let r = 0; r <= rank; r++) {
      for (const f of this.queues.active[r] ?? []) {
        if (f.count === 0) continue;
        for (const x of f.plan.windows) ahead[x.idx] = (ahead[x.idx] ?? 0) + f.queuedCost;
        if (plan.signer !== null && f.plan.signer?.idx === plan.signer.idx) aheadTokens += f.queuedTokens;
      }
    }
    this.refuseWhileDisconnected();
    const res = await this.observe(
      this.store.admit(
        plan,
        cost,
        plan.windows.map((x) => ahead[x.idx] ?? 0),
        this.nowArg(),
        'dry',
        true,
        this.signerArgs(plan, tokens, aheadTokens, false),
      ),
    );
    return res.admitted ? 0 : res.waitMs;
  }

  /** Records a store call's outcome in the health (a failure marks it down, a success up). */
  private async observe<T>(p: Promise<T>): Promise<T> {
    try {
      const r = await p;
      this.tracker.storeOk();
      return r;
    } catch (err) {
      if (err instanceof RateLimitStoreError && !this.closed)
        this.tracker.storeFailed(`Redis at ${this.address}: ${err.message}`);
      throw err;
    }
  }

  /** Fail closed: while the connection is down nothing is asked of Redis, everything is refused. */
  private refuseWhileDisconnected(): void {
    const h = this.tracker.health;
    if (this.tracker.connectionDown && !h.ok)
      throw new RateLimitStoreError(`rate-limit store unavailable: ${h.reason}`, null);
  }

  /**
   * Follows the client's connection: down from 'close' (every lost connection and every failed
   * reconnect attempt ends in one) until 'ready'. An 'error' only names the cause: some (a failed
   * SELECT) leave the connection up, so an error alone never marks it down. Returns the function
   * that stops following it.
   */
  private watchClient(redis: Redis): () => void {
    let lastError = '';
    const reason = (): string =>
      `Redis at ${this.address} ${lastError === '' ? 'connection lost' : `unreachable: ${lastError}`}`;
    const onError = (err: unknown): void => {
      lastError = err instanceof Error ? err.message : String(err);
      if (!this.closed && this.tracker.connectionDown) this.tracker.connectionLost(reason());
    };
    const onClose = (): void => {
      if (this.closed) return;
      this.tracker.connectionLost(reason());
      this.failQueued();
    };
    const onReady = (): void => {
      lastError = '';
      if (!this.closed) this.tracker.connectionUp();
    };
    redis.on('error', onError);
    redis.on('close', onClose);
    redis.on('ready', onReady);
    // A client handed over already closed is down from the start.
    if (redis.status === 'end' || redis.status === 'close') this.tracker.connectionLost(reason());
    return () => {
      redis.off('error', onError);
      redis.off('close', onClose);
      redis.off('ready', onReady);
    };
  }

  /** Every queued request fails at once: none can be admitted without the store. */
  private failQueued(): void {
    const h = this.tracker.health;
    if (h.ok || this.queues.total === 0) return;
    const err = new RateLimitStoreError(`rate-limit store unavailable: ${h.reason}`, null);
    this.clearTimer();
    for (const w of this.queues.drain()) w.fail(err);
  }

  /**
   * The script's per-signer arguments for a request of `tokens`, with `held` tokens kept for
   * earlier waiters. For an admission, need + held is kept within a full bucket (the earliest
   * blocked waiter goes first in a pass anyway), so every wait the script reports is finite; a
   * prediction may ask for more (several requests), which waits for the refill.
   */
  private signerArgs(plan: RPlan, tokens: number, held: number, admission: boolean): SignerAdmitArgs | null {
    const s = plan.signer;
    if (s === null || this.signer === null) return null;
    const a = this.signer.allowance(s.kind);
    const need = admission || s.postCharged ? Math.min(tokens, a.capacity) : tokens;
    return {
      need,
      charge: tokens,
      held: admission ? Math.min(held, a.capacity - need) : held,
      rate: a.rate,
      capacity: a.capacity,
    };
  }

  private signerKey(kind: 'order' | 'cancel'): string {
    return `${this.prefix}:{rl}:signer:${kind}`;
  }

  private signerPauseKey(kind: 'order' | 'cancel'): string {
    return `${this.prefix}:{rl}:pause:signer:${kind}`;
  }

  private readonly bucketWins = new Map<string, RWin[]>();

  private buildPlan(spec: RouteSpec): RPlan {
    const windows = spec.buckets.flatMap((b) => this.windowsOf(b));
    const signer = spec.api === 'clob' && this.signer !== null ? signerRouteOf(spec.id.slice('clob '.length)) : null;
    return {
      api: spec.api,
      id: spec.id,
      windows,
      signer,
      signerKey: signer === null ? undefined : this.signerKey(signer.kind),
      pauseKeys: [
        ...spec.buckets.map((b) => this.pauseKey(b)),
        ...(signer === null ? [] : [this.signerPauseKey(signer.kind)]),
      ],
      ownPauseKeys: spec.pauseBuckets.map((b) => this.pauseKey(b)),
      maxCost: windows.reduce((m, w) => Math.min(m, w.limit), Number.POSITIVE_INFINITY),
    };
  }

  private windowsOf(bucket: string): RWin[] {
    const hit = this.bucketWins.get(bucket);
    if (hit !== undefined) return hit;
    const specs = this.config.budgets.buckets[bucket];
    if (specs === undefined) throw new RateLimitRouteError(`unknown bucket "${bucket}"`);
    const wins = specs.map((s, i): RWin => ({
      key: `${this.prefix}:{rl}:w:${bucket}:${i}`,
      limit: s.limit,
      windowMs: s.windowMs,
      spanMs: s.windowMs + this.config.marginMs,
      idx: this.winCount++,
      bucket,
    }));
    this.bucketWins.set(bucket, wins);
    return wins;
  }

  private pauseKey(bucket: string): string {
    return `${this.prefix}:{rl}:pause:${bucket}`;
  }
}

// Metering without threading metrics through the core: thin decorators over the two ports the
// daemon already goes through. `MeteredExecutor` is an OrderExecutor that forwards every call to
// the order manager and hands the reports of apply() and cancelAll() to a hook; `MeteredLimiter`
// is a RateLimiter that forwards every call to the limiter and tells a hook which routes were
// acquired and which answered 429. Invariants kept:
// - behaviour is unchanged: every call, argument, result and error passes through untouched, in
//   the same order; the wrappers keep no state of their own besides the hooks;
// - a hook that throws is swallowed (metrics must never break order entry or rate limiting).
import type { LiveOrder } from '../../core/order.js';
import { BACKEND_OK, type BackendHealth } from '../../ratelimit/backend-health.js';
import type { ApiGroup } from '../../ratelimit/budgets.js';
import type { SignerBucketKind, SignerStatus, SignerTier } from '../../ratelimit/signer-tiers.js';
import type {
  AcquireOptions,
  Permit,
  QueueDepth,
  RateLimiter,
  RouteUtilisation,
  WaitQuery,
} from '../../ratelimit/types.js';
import type {
  ApplyReport,
  CancelAllReport,
  CircuitState,
  MarketsByToken,
  OrderExecutor,
  OrphanPolicy,
  PollReport,
  ResolveReport,
  StartupReport,
} from '../executor.js';
import type { ReconcilePlan } from '../../execution/types.js';

export interface ExecutorHooks {
  onApply(report: ApplyReport): void;
  onCancelAll(report: CancelAllReport): void;
}

export interface LimiterHooks {
  onAcquire(route: string, api: ApiGroup | undefined): void;
  onThrottled(route: string, api: ApiGroup | undefined): void;
}

function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    /* a metrics hook must not break the call it observes */
  }
}

export class MeteredExecutor implements OrderExecutor {
  constructor(
    private readonly inner: OrderExecutor,
    private readonly hooks: ExecutorHooks,
  ) {}

  get circuitState(): CircuitState {
    return this.inner.circuitState;
  }

  startupReconcile(opts: {
    orphanPolicy: OrphanPolicy;
    markets?: MarketsByToken;
    signal?: AbortSignal;
  }): Promise<StartupReport> {
    return this.inner.startupReconcile(opts);
  }

  async apply(plan: ReconcilePlan, markets: MarketsByToken): Promise<ApplyReport> {
    const r = await this.inner.apply(plan, markets);
    quietly(() => {
      this.hooks.onApply(r);
    });
    return r;
  }

  pollFills(opts?: { signal?: AbortSignal }): Promise<PollReport> {
    return this.inner.pollFills(opts);
  }

  resolveUnknown(opts?: { all?: boolean; signal?: AbortSignal }): Promise<ResolveReport> {
    return this.inner.resolveUnknown(opts);
  }

  liveOrders(): readonly LiveOrder[] {
    return this.inner.liveOrders();
  }

  async cancelAll(opts?: { timeoutMs?: number }): Promise<CancelAllReport> {
    const r = await this.inner.cancelAll(opts);
    quietly(() => {
      this.hooks.onCancelAll(r);
    });
    return r;
  }

  resume(): void {
    this.inner.resume();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export class MeteredLimiter implements RateLimiter {
  constructor(
    readonly inner: RateLimiter,
    private readonly hooks: LimiterHooks,
  ) {}

  acquire(route: string, opts: AcquireOptions): Promise<Permit> {
    quietly(() => {
      this.hooks.onAcquire(route, opts.api);
    });
    return this.inner.acquire(route, opts);
  }

  onThrottled(route: string, retryAfterMs?: number | null, api?: ApiGroup): void {
    quietly(() => {
      this.hooks.onThrottled(route, api);
    });
    this.inner.onThrottled(route, retryAfterMs, api);
  }

  wouldWaitMs(route: string, q?: WaitQuery): Promise<number> {
    return this.inner.wouldWaitMs(route, q);
  }

  nextFreeAt(route: string, q?: WaitQuery): Promise<number> {
    return this.inner.nextFreeAt(route, q);
  }

  queueDepth(): QueueDepth {
    return this.inner.queueDepth();
  }

  utilisation(route: string, api?: ApiGroup): Promise<RouteUtilisation> {
    return this.inner.utilisation(route, api);
  }

  health(): BackendHealth {
    return this.inner.health?.() ?? BACKEND_OK;
  }

  pauseFailures(): number {
    return this.inner.pauseFailures?.() ?? 0;
  }

  // The per-signer buckets: forwarded (a limiter without them meters none: null capacity, no tier).
  observeSigner(route: string, status: SignerStatus): void {
    this.inner.observeSigner?.(route, status);
  }

  signerTier(): SignerTier | null {
    return this.inner.signerTier?.() ?? null;
  }

  signerCapacity(kind: SignerBucketKind): number | null {
    return this.inner.signerCapacity?.(kind) ?? null;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

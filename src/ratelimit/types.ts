// The public contract of the rate limiter, shared by the in-memory and the Redis-backed limiter.
//
// Contract for the HTTP transport:
// - `await limiter.acquire(route, { priority, api?, signal? })` right before the send, then send
//   at once: admission IS the recorded send time (nothing is recorded later, nothing refunded).
// - Call `permit.release()` when the response, error or timeout arrives (it frees an in-flight
//   slot when `maxInFlight` is configured; it never gives budget back).
// - On a 429 call `limiter.onThrottled(route, retryAfterMs, api)`; that route's own budget is
//   paused for the Retry-After (the group's general cap for a route the table does not name).
// - `wouldWaitMs`/`nextFreeAt` tell the order manager when the next slot frees so it can coalesce
//   or drop stale work; `maxWaitMs` on acquire refuses at once instead of queueing blindly.
import type { BackendHealth } from './backend-health.js';
import type { ApiGroup } from './budgets.js';
import type { SignerBucketKind, SignerStatus, SignerTier } from './signer-tiers.js';

/** Admission order: cancels, then replacements of stale quotes, then new quotes, then reads. */
export type Priority = 'cancel' | 'replace' | 'new' | 'read';
export const PRIORITIES: readonly Priority[] = ['cancel', 'replace', 'new', 'read'];
export const PRIORITY_RANK: Readonly<Record<Priority, number>> = { cancel: 0, replace: 1, new: 2, read: 3 };

export interface AcquireOptions {
  readonly priority: Priority;
  /** The route's API group; implied for every route but `GET /markets` (see budgets.ts). */
  readonly api?: ApiGroup;
  /** Requests this send counts as, default 1 (POST /orders is 1 per call). */
  readonly cost?: number;
  /** Tokens of the per-signer bucket (signer-tiers.ts), default 1: orders of a POST /orders batch,
   *  ids of a DELETE /orders, 1 + open orders we know of for cancel-all / cancel-market-orders. */
  readonly tokens?: number;
  /** Aborting removes the request from the queue and rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Refuse at once (RateLimitWaitError) when the predicted wait is longer than this. */
  readonly maxWaitMs?: number;
}

export interface WaitQuery {
  readonly priority?: Priority;
  readonly api?: ApiGroup;
  readonly cost?: number;
  readonly tokens?: number;
}

export interface Permit {
  readonly route: string;
  readonly api: ApiGroup;
  /** The recorded send time, in the limiter's time base (monotonic ms in memory, clock.now() or
   *  Redis server ms in Redis mode). */
  readonly sentAt: number;
  /** How long the request queued, ms. */
  readonly waitedMs: number;
  /** Frees the in-flight slot. Idempotent. Never refunds the window. */
  release(): void;
}

export interface QueueDepth {
  readonly total: number;
  readonly cancel: number;
  readonly replace: number;
  readonly new: number;
  readonly read: number;
}

export interface WindowUsage {
  readonly bucket: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Sends that still count (within windowMs + margin). */
  readonly used: number;
  /** used / limit. */
  readonly utilisation: number;
}

export interface RouteUtilisation {
  readonly route: string;
  readonly api: ApiGroup;
  readonly windows: readonly WindowUsage[];
  /** Remaining pause from a 429, ms (0 when none). */
  readonly pausedForMs: number;
  /** Requests of this process queued on this route. */
  readonly queued: number;
}

export interface RateLimiter {
  acquire(route: string, opts: AcquireOptions): Promise<Permit>;
  /** A 429 arrived for `route`: pause its own budget for retryAfterMs (default: config's). */
  onThrottled(route: string, retryAfterMs?: number | null, api?: ApiGroup): void;
  /** Predicted wait before a request of this route and priority would be admitted (a lower
   *  bound: it assumes no higher-priority request arrives meanwhile). */
  wouldWaitMs(route: string, q?: WaitQuery): Promise<number>;
  /** Wall time (clock.now() epoch ms) at which the next slot frees; see wouldWaitMs. */
  nextFreeAt(route: string, q?: WaitQuery): Promise<number>;
  queueDepth(): QueueDepth;
  utilisation(route: string, api?: ApiGroup): Promise<RouteUtilisation>;
  /** Rejects every waiter with RateLimitClosedError and stops timers. */
  close(): Promise<void>;
  /** Whether the backend can admit now, and why not (a shared store that is unreachable); while
   *  not ok every acquire fails closed. Absent: always ok (nothing outside the process). */
  health?(): BackendHealth;
  /** A trading response's Poly-RateLimit-* headers (signer-tiers.ts parseSignerHeaders) or the
   *  tier route's answer (`{ tier }` only): the per-signer model adopts a lower balance, a reset
   *  after a refusal, a new tier. Absent: the backend does not model the per-signer buckets. */
  observeSigner?(route: string, status: SignerStatus): void;
  /** The per-signer tier in force; null when not metered. */
  signerTier?(): SignerTier | null;
  /** The most tokens one request of `kind` may cost here (split batches to it); null when not metered. */
  signerCapacity?(kind: SignerBucketKind): number | null;
  /** 429 pauses that could not be shared (written to the backend) since start. Absent: the
   *  pause is in-process and cannot fail. */
  pauseFailures?(): number;
}

// The rate limiter's public API: exact sliding-window budgets per route (table 8 by default),
// priorities (cancel → replace → new → read), 429 pauses, metrics; in memory (default) or shared
// through Redis by several processes. See README.md in this folder and types.ts for the contract.
//
//   const limiter = await createRateLimiter({ clock, config });           // memory
//   const permit = await limiter.acquire('POST /order', { priority: 'new' });
//   try { res = await send(); } finally { permit.release(); }
//   if (res.status === 429) limiter.onThrottled('POST /order', retryAfterMs);
import type { Clock } from '../core/clock.js';
import type { HealthListener } from './backend-health.js';
import { resolveRateLimitConfig } from './config.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import { connectRedis } from './redis-connect.js';
import { RedisRateLimiter, type PauseFailureListener } from './redis-limiter.js';
import type { RateLimiter } from './types.js';

export type {
  AcquireOptions,
  Permit,
  Priority,
  QueueDepth,
  RateLimiter,
  RouteUtilisation,
  WaitQuery,
  WindowUsage,
} from './types.js';
export { PRIORITIES, PRIORITY_RANK } from './types.js';
export {
  API_GROUPS,
  ROUTE_API,
  TABLE8,
  budgetTableProblems,
  routeId,
  routeKey,
  scaleBudgets,
  type ApiGroup,
  type BudgetTable,
  type WindowSpec,
} from './budgets.js';
export {
  isRateLimitConfig,
  rateLimitConfigSchema,
  resolveRateLimitConfig,
  type RateLimitConfig,
  type RateLimitConfigInput,
  type RedisBackendConfig,
} from './config.js';
export { BACKEND_OK, HealthTracker, type BackendHealth, type HealthListener } from './backend-health.js';
export { connectRedis, isAbortedConnect, redisClientOptions, type RedisConnectOptions } from './redis-connect.js';
export {
  RateLimitBackendError,
  RateLimitClosedError,
  RateLimitConfigError,
  RateLimitRouteError,
  RateLimitStoreError,
  RateLimitWaitError,
} from './errors.js';
export { MemoryRateLimiter, type MemoryRateLimiterOptions } from './memory-limiter.js';
export { RedisRateLimiter, type PauseFailureListener, type RedisRateLimiterOptions } from './redis-limiter.js';
export { RedisWindowStore } from './redis-store.js';
export { EdgeThrottle, type EdgeDecision } from './edge.js';
export { SlidingWindowLog, WindowSet } from './window.js';
export { parseRetryAfterMs } from './retry-after.js';
export {
  DEFAULT_SIGNER_TIER,
  HDR_REMAINING,
  HDR_RESET,
  HDR_TIER,
  HDR_WARNING,
  SIGNER_ROUTE_BUCKET,
  SIGNER_TIER_ROUTE,
  SIGNER_TIER_TABLE,
  SIGNER_TIERS,
  isSignerTier,
  parseSignerHeaders,
  parseSignerTier,
  signerTokensFor,
  type SignerBucketKind,
  type SignerStatus,
  type SignerTier,
  type SignerTierSpec,
} from './signer-tiers.js';
export { SignerBudget, signerRouteOf, type SignerBucketState } from './signer-budget.js';
export { TokenBucket } from './signer-bucket.js';

export interface CreateRateLimiterOptions {
  readonly clock: Clock;
  readonly config?: unknown;
  /** Aborts a Redis connect in progress (SIGTERM during start-up): RateLimitBackendError, `aborted`. */
  readonly signal?: AbortSignal;
  /** Told each loss and recovery of a shared backend, once each (the runtime logs them). */
  readonly onHealth?: HealthListener;
  /** Told each 429 pause a shared backend could not take (the runtime logs it). */
  readonly onPauseFailed?: PauseFailureListener;
}

/**
 * Builds the limiter the config asks for: memory by default; with `backend: {kind: 'redis'}` a
 * Redis-backed one on its own connection (closed by limiter.close()), ready before this resolves,
 * or RateLimitBackendError within `backend.connectTimeoutMs` (redis-connect.ts).
 */
export async function createRateLimiter(opts: CreateRateLimiterOptions): Promise<RateLimiter> {
  const config = resolveRateLimitConfig(opts.config ?? {});
  if (config.backend.kind === 'memory') return new MemoryRateLimiter({ clock: opts.clock, config });
  const b = config.backend;
  const redis = await connectRedis({
    url: b.url,
    connectTimeoutMs: b.connectTimeoutMs,
    commandTimeoutMs: b.commandTimeoutMs,
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  });
  return new RedisRateLimiter({
    clock: opts.clock,
    redis,
    config,
    ownsClient: true,
    ...(opts.onHealth !== undefined ? { onHealth: opts.onHealth } : {}),
    ...(opts.onPauseFailed !== undefined ? { onPauseFailed: opts.onPauseFailed } : {}),
  });
}

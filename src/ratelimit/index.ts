// The rate limiter's public API: exact sliding-window budgets per route (table 8 by default),
// priorities (cancel → replace → new → read), 429 pauses, metrics; in memory (default) or shared
// through Redis by several processes. See README.md in this folder and types.ts for the contract.
//
//   const limiter = await createRateLimiter({ clock, config });           // memory
//   const permit = await limiter.acquire('POST /order', { priority: 'new' });
//   try { res = await send(); } finally { permit.release(); }
//   if (res.status === 429) limiter.onThrottled('POST /order', retryAfterMs);
import { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import { resolveRateLimitConfig } from './config.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import { RedisRateLimiter } from './redis-limiter.js';
import type { RateLimiter } from './types.js';

export type {
  AcquireOptions, Permit, Priority, QueueDepth, RateLimiter, RouteUtilisation, WaitQuery, WindowUsage,
} from './types.js';
export { PRIORITIES, PRIORITY_RANK } from './types.js';
export {
  API_GROUPS, ROUTE_API, TABLE8, budgetTableProblems, routeId, routeKey, scaleBudgets,
  type ApiGroup, type BudgetTable, type WindowSpec,
} from './budgets.js';
export {
  isRateLimitConfig, rateLimitConfigSchema, resolveRateLimitConfig,
  type RateLimitConfig, type RateLimitConfigInput, type RedisBackendConfig,
} from './config.js';
export {
  RateLimitClosedError, RateLimitConfigError, RateLimitRouteError, RateLimitStoreError, RateLimitWaitError,
} from './errors.js';
export { MemoryRateLimiter, type MemoryRateLimiterOptions } from './memory-limiter.js';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-limiter.js';
export { RedisWindowStore } from './redis-store.js';
export { EdgeThrottle, type EdgeDecision } from './edge.js';
export { SlidingWindowLog, WindowSet } from './window.js';
export { parseRetryAfterMs } from './retry-after.js';

/**
 * Builds the limiter the config asks for: memory by default; with `backend: {kind: 'redis'}` a
 * Redis-backed one on its own connection (closed by limiter.close()).
 */
export async function createRateLimiter(opts: { clock: Clock; config?: unknown }): Promise<RateLimiter> {
  const config = resolveRateLimitConfig(opts.config ?? {});
  if (config.backend.kind === 'memory') return new MemoryRateLimiter({ clock: opts.clock, config });
  const redis = new Redis(config.backend.url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return new RedisRateLimiter({ clock: opts.clock, redis, config, ownsClient: true });
}

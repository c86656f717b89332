// Retry delays for idempotent requests: "full jitter" exponential backoff (a uniform draw in
// [0, min(cap, base·2^(n−1))]), so clients that failed together do not retry together. A
// Retry-After from the server is a floor: the delay is what it asked plus a jitter in [0, base),
// never shorter, so throttled clients do not all come back in the same millisecond.
// Invariants: pure (the random source is injected), result a non-negative integer of ms.
// In the core because two layers share it: the HTTP transport (exchange) retries by it and the
// order manager's circuit breaker (execution) paces placements by it.

export interface BackoffPolicy {
  /** Attempts in total, the first included (1 = no retry). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error goes to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

/** Delay before retry number `retry` (1 = the first retry). `random` returns [0, 1). */
export function backoffDelay(
  policy: BackoffPolicy,
  retry: number,
  random: () => number,
  retryAfterMs: number | null,
): number {
  const r = Math.min(Math.max(random(), 0), 1);
  if (retryAfterMs !== null) return Math.max(0, Math.floor(retryAfterMs)) + Math.floor(r * policy.baseDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(r * ceiling);
}

// Errors of the rate limiter, each with a stable code (docs/ARCHITECTURE.md §8). A wait that is too long
// is retryable and carries when to come back; configuration and route errors are our own bugs
// or bad config and are not.
import { OddsmakerError } from '../core/errors.js';

/** The predicted wait exceeded the caller's maxWaitMs: coalesce or drop the work, retry later. */
export class RateLimitWaitError extends OddsmakerError {
  readonly route: string;
  readonly retryAfterMs: number;
  constructor(route: string, retryAfterMs: number, maxWaitMs: number) {
    super(
      'RATE_LIMIT_WAIT',
      `${route}: next slot in ${fmtMs(retryAfterMs)}, more than the ${maxWaitMs} ms allowed`,
      true,
    );
    this.route = route;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The route cannot be mapped to a budget (ambiguous or unknown group), or a cost never fits. */
export class RateLimitRouteError extends OddsmakerError {
  constructor(message: string) {
    super('RATE_LIMIT_ROUTE', message, false);
  }
}

/** The budget configuration is invalid; the message names the path and the value. */
export class RateLimitConfigError extends OddsmakerError {
  constructor(message: string) {
    super('RATE_LIMIT_CONFIG', message, false);
  }
}

/** The limiter was closed while the request waited (shutdown). */
export class RateLimitClosedError extends OddsmakerError {
  constructor() {
    super('RATE_LIMIT_CLOSED', 'rate limiter closed', false);
  }
}

/** The shared (Redis) store failed; nothing was admitted. */
export class RateLimitStoreError extends OddsmakerError {
  constructor(message: string, cause: unknown) {
    super('RATE_LIMIT_STORE', message, true, { cause });
  }
}

/**
 * The shared store (Redis) the config names could not be reached at start-up within its connect
 * timeout, or the start was aborted. The message names the setting and the address (password
 * redacted); the CLI exits 1 on it (an unreachable dependency, not a config error).
 */
export class RateLimitBackendError extends OddsmakerError {
  /** The start was aborted (a signal) rather than timed out. */
  aborted = false;
  constructor(message: string, cause?: unknown) {
    super('RATE_LIMIT_BACKEND_UNREACHABLE', message, true, cause === undefined ? undefined : { cause });
  }
}

function fmtMs(ms: number): string {
  return Number.isFinite(ms) ? `${Math.ceil(ms)} ms` : 'an unbounded time';
}

// The order manager's view of the exchange's health: a circuit breaker over consecutive failures
// and the back-off of placements after a failed write.
// Invariants kept:
// - `threshold` consecutive exchange failures open the breaker; any answer from the exchange
//   (a success, a rejection, a 404) resets the count and closes it. While open, nothing is placed
//   (cancels still go: they pull quotes, and each is also a probe);
// - after a failure, placements wait: a Retry-After (429) is honoured as given, other transient
//   failures (5xx, 425, timeouts) back off with the transport's policy (full-jitter exponential,
//   src/core/backoff.ts) on the count of consecutive failures; an answer does not cut a
//   Retry-After short (the exchange asked for that pause);
// - time comes only from the injected Clock; jitter from an injected random source.
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../core/backoff.js';
import type { Clock } from '../core/clock.js';
import type { FailureInfo } from './failures.js';
import { OptionError } from '../core/errors.js';

export type CircuitState = 'closed' | 'open';

export interface CircuitBreakerOptions {
  readonly clock: Clock;
  /** Consecutive failures that open the breaker (config orders.circuitBreakerFailures). */
  readonly threshold: number;
  readonly backoff?: Partial<BackoffPolicy>;
  readonly random?: () => number;
  readonly onChange?: (state: CircuitState, failures: number) => void;
}

export class CircuitBreaker {
  private readonly clock: Clock;
  private readonly threshold: number;
  private readonly policy: BackoffPolicy;
  private readonly random: () => number;
  private readonly onChange: ((state: CircuitState, failures: number) => void) | undefined;
  private failures = 0;
  private current: CircuitState = 'closed';
  private openedAt: number | null = null;
  private retryAfterUntil = 0;
  private backoffUntil = 0;

  constructor(opts: CircuitBreakerOptions) {
    if (!Number.isSafeInteger(opts.threshold) || opts.threshold < 1)
      throw new OptionError(
        'EXECUTION_OPTION',
        `circuit breaker threshold must be an integer >= 1, got ${String(opts.threshold)}`,
      );
    this.clock = opts.clock;
    this.threshold = opts.threshold;
    this.policy = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.random = opts.random ?? Math.random;
    this.onChange = opts.onChange;
  }

  get state(): CircuitState {
    return this.current;
  }
  get consecutiveFailures(): number {
    return this.failures;
  }
  /** When the breaker opened (epoch ms), null when closed. */
  get openedAtMs(): number | null {
    return this.openedAt;
  }
  /** Epoch ms before which placements wait (0: none). */
  get placementsBlockedUntil(): number {
    return Math.max(this.retryAfterUntil, this.backoffUntil);
  }

  /** May placements go now? */
  canPlace(): boolean {
    return this.current === 'closed' && this.clock.now() >= this.placementsBlockedUntil;
  }

  /** Why placements may not go now, or null. */
  blockReason(): 'circuit-open' | 'backoff' | null {
    if (this.current === 'open') return 'circuit-open';
    return this.clock.now() < this.placementsBlockedUntil ? 'backoff' : null;
  }

  /** The exchange answered (success, rejection or 404). */
  answered(): void {
    this.failures = 0;
    // The exchange is back: a back-off computed from failures no longer applies, a Retry-After does.
    this.backoffUntil = 0;
    if (this.current === 'open') {
      this.current = 'closed';
      this.openedAt = null;
      this.onChange?.('closed', 0);
    }
  }

  /** A request failed; only exchange failures count. */
  failed(f: FailureInfo): void {
    if (!f.exchangeFailure) return;
    this.failures++;
    const now = this.clock.now();
    if (f.retryAfterMs !== null) {
      this.retryAfterUntil = Math.max(this.retryAfterUntil, now + f.retryAfterMs);
    } else if (f.retryable) {
      this.backoffUntil = Math.max(
        this.backoffUntil,
        now + backoffDelay(this.policy, this.failures, this.random, null),
      );
    }
    if (this.current === 'closed' && this.failures >= this.threshold) {
      this.current = 'open';
      this.openedAt = now;
      this.onChange?.('open', this.failures);
    }
  }

  /** Delay before retrying after the current run of failures (for lookups and cancel rounds). */
  retryDelayMs(): number {
    const now = this.clock.now();
    const waitRetryAfter = Math.max(0, this.retryAfterUntil - now);
    if (this.failures === 0) return waitRetryAfter;
    return Math.max(waitRetryAfter, backoffDelay(this.policy, this.failures, this.random, null));
  }
}

// The order manager's settings, inputs and reports (types and defaults only, no I/O).
// Invariants kept: every setting has a default and is validated once (resolveManagerConfig
// throws a RangeError naming the setting and the value); reports are plain data.
import type { BackoffPolicy } from '../core/backoff.js';
import type { Price, Shares } from '../core/money.js';
import { MAX_ORDERS_PER_CANCEL, type LiveOrder } from '../core/order.js';
import type { FeeRates, FillEvent } from './fill-tracker.js';
import { OptionError } from '../core/errors.js';

/** What placing on a token needs to know of its market (ClobMarketSettings satisfies it). */
export interface MarketInfo extends FeeRates {
  readonly conditionId: string;
  /** Current tick (the book's tick_size when fresher than the settings). */
  readonly tickSize: Price;
  readonly negRisk: boolean;
  /** The token's market by its short name for log lines (core/market-label.ts); absent: unknown. */
  readonly label?: string;
}

/** Markets by token id. */
export type MarketsByToken = ReadonlyMap<string, MarketInfo>;

export interface OrderManagerConfig {
  /** Consecutive exchange failures that open the circuit breaker (orders.circuitBreakerFailures). */
  readonly circuitBreakerFailures: number;
  /** How long a rejected key is not placed again. */
  readonly rejectionCooldownMs: number;
  /** A placement that the limiter cannot send within this horizon is dropped (recomputed next cycle). */
  readonly pressureHorizonMs: number;
  /**
   * Wait after an ambiguous placement before its lookup: a request that timed out may still be in
   * the exchange's queue, and a lookup that comes too early would call a late order "not found".
   */
  readonly unknownLookupDelayMs: number;
  /** An order found "not found" is looked up once more this much later (and adopted if it appeared). */
  readonly notFoundRecheckMs: number;
  /** Least number of order lookups per pollFills call. */
  readonly pollBatch: number;
  /**
   * Order lookups per second that fill discovery may spend (final reads first): a pollFills call
   * reads this rate × the time since the previous call (at most 2 s of it), at least pollBatch.
   */
  readonly fillReadsPerSecond: number;
  /** Lookups in flight at once (fill reads and final reads: latency-bound, not budget-bound). */
  readonly readConcurrency: number;
  /** Final reads owed beyond which placements stop until reads catch up (`fill-backlog`). */
  readonly maxFinalReadBacklog: number;
  /** Cancels kept in reserve beyond those needed to cancel every open order (`cancel-reserve`). */
  readonly cancelReserve: number;
  /** Share of cancelAll's time kept for the final reads and the lookup of what is left. */
  readonly finalReadShare: number;
  /** Orders per batch cancel request (DELETE /orders), when the venue has batch cancels. */
  readonly cancelBatchSize: number;
  /** Requests of one kind (cancels, lookups, placement chunks) in flight at once. */
  readonly concurrency: number;
  /** Bounded time of cancelAll (orders.shutdownTimeoutMs). */
  readonly shutdownTimeoutMs: number;
  /** Rounds of cancelAll before it gives up on orders it cannot cancel. */
  readonly cancelAllRounds: number;
  /**
   * Submissions are post-only (GTC/GTD only) unless a quote says otherwise: a quote that would
   * cross is rejected, never taken (a market maker's quote must not trade by accident).
   */
  readonly postOnly: boolean;
  /** While the breaker is open, apply cancels every live order (pulls quotes). */
  readonly pullQuotesWhenOpen: boolean;
  /** Back-off of placements after transient failures (the transport's policy by default). */
  readonly backoff: Partial<BackoffPolicy>;
}

export const DEFAULT_MANAGER_CONFIG: OrderManagerConfig = Object.freeze({
  circuitBreakerFailures: 5,
  rejectionCooldownMs: 30_000,
  pressureHorizonMs: 2_000,
  unknownLookupDelayMs: 2_000,
  notFoundRecheckMs: 30_000,
  pollBatch: 20,
  fillReadsPerSecond: 250,
  readConcurrency: 32,
  maxFinalReadBacklog: 1_000,
  cancelReserve: 100,
  finalReadShare: 0.3,
  // The exchange takes up to 3000 ids a request (gateway.ts MAX_ORDERS_PER_CANCEL); smaller
  // requests answer sooner and lose less to one failure.
  cancelBatchSize: 500,
  concurrency: 8,
  shutdownTimeoutMs: 20_000,
  cancelAllRounds: 5,
  postOnly: true,
  pullQuotesWhenOpen: true,
  backoff: Object.freeze({}),
});

export function resolveManagerConfig(partial: Partial<OrderManagerConfig> = {}): OrderManagerConfig {
  const c: OrderManagerConfig = { ...DEFAULT_MANAGER_CONFIG, ...partial };
  const int = (name: keyof OrderManagerConfig, min: number): void => {
    const v = c[name];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
      throw new OptionError('EXECUTION_OPTION', `orderManager.${name} must be an integer >= ${min}, got ${String(v)}`);
  };
  int('circuitBreakerFailures', 1);
  int('rejectionCooldownMs', 0);
  int('pressureHorizonMs', 0);
  int('unknownLookupDelayMs', 0);
  int('notFoundRecheckMs', 0);
  int('pollBatch', 1);
  int('fillReadsPerSecond', 1);
  int('readConcurrency', 1);
  int('maxFinalReadBacklog', 0);
  int('cancelReserve', 0);
  int('cancelBatchSize', 1);
  if (c.cancelBatchSize > MAX_ORDERS_PER_CANCEL)
    throw new OptionError(
      'EXECUTION_OPTION',
      `orderManager.cancelBatchSize must be at most ${MAX_ORDERS_PER_CANCEL}, got ${c.cancelBatchSize}`,
    );
  if (!(c.finalReadShare > 0 && c.finalReadShare < 1))
    throw new OptionError(
      'EXECUTION_OPTION',
      `orderManager.finalReadShare must be in (0, 1), got ${String(c.finalReadShare)}`,
    );
  int('concurrency', 1);
  int('shutdownTimeoutMs', 1);
  int('cancelAllRounds', 1);
  return Object.freeze(c);
}

/** Why a placement of a plan was not sent. */
export type DropReason =
  | 'halted' // cancelAll ran (shutdown or kill switch) and quoting was not resumed
  | 'circuit-open' // the breaker is open
  | 'backoff' // waiting after a failure (Retry-After or back-off)
  | 'pressure' // the limiter cannot send it within the horizon
  | 'cooldown' // the key was rejected recently
  | 'blocked' // an order at the key is in flight, unknown or being cancelled
  | 'stale' // an order was added at the key after the plan was computed
  | 'cancel-failed' // a cancel at the key did not go through this cycle
  | 'no-market' // no market settings for the token
  | 'duplicate' // a second placement for one key in one plan
  | 'signing-failed' // the signing pool failed (retryable)
  | 'fill-backlog' // more final reads are owed than maxFinalReadBacklog: quoting slows until reads catch up
  | 'cancel-reserve'; // placing would leave open orders the cancel budgets could not cancel

export interface DroppedPlacement {
  readonly key: string;
  readonly reason: DropReason;
}

export interface RejectedPlacement {
  readonly key: string;
  readonly orderId: string;
  readonly errorMsg: string;
}

export interface ApplyReport {
  /** A newer plan arrived before this one ran: nothing of it was done. */
  readonly superseded: boolean;
  readonly cancelsSent: number;
  readonly cancelled: number;
  /** Cancels that failed or were refused (the orders stay live or go unknown). */
  readonly cancelsFailed: number;
  readonly placementsSent: number;
  readonly accepted: number;
  readonly rejected: readonly RejectedPlacement[];
  /** Orders whose placement or cancel answer was lost (resolved later by lookup). */
  readonly unknown: number;
  readonly dropped: readonly DroppedPlacement[];
  readonly fills: readonly FillEvent[];
}

export interface ResolveReport {
  readonly lookedUp: number;
  readonly live: number;
  readonly closed: number;
  readonly notFound: number;
  /** Lookups that failed: the orders stay unknown and are retried. */
  readonly failed: number;
  readonly fills: readonly FillEvent[];
}

export interface PollFillsOptions {
  readonly signal?: AbortSignal;
  /** Lookups this call may make (default: the read budget accrued since the last call). */
  readonly limit?: number;
  /** Orders that may have filled (at or through the touch of the latest book): read first. */
  readonly mayHaveFilled?: (o: Pick<LiveOrder, 'tokenId' | 'side' | 'price'>) => boolean;
  /**
   * Share (0–1] of the budget left after the final reads that live orders may take (default 1).
   * Where the exchange's trades route already brought the fills, live lookups are the fallback
   * and take less; final reads are never cut (they make cancelled orders final).
   */
  readonly liveReadShare?: number;
}

export interface PollReport {
  readonly lookedUp: number;
  readonly closed: number;
  readonly failed: number;
  readonly fills: readonly FillEvent[];
}

export type OrphanPolicy = 'cancel' | 'adopt';

export interface StartupReport {
  /** Ledger open orders looked up. */
  readonly lookedUp: number;
  /** Orders the ledger knew live and found live. */
  readonly live: number;
  /** Orphans (ledger signed/sent/unknown) found live and kept (policy adopt). */
  readonly adopted: number;
  /** Orphans found live and cancelled (policy cancel). */
  readonly cancelled: number;
  /** Orders found terminal (matched, canceled) and closed with their fills. */
  readonly closed: number;
  /** Orders the exchange does not know (never arrived). */
  readonly notFound: number;
  /**
   * Live orders the exchange listed (GET /data/orders) that this process did not track (a lost
   * ledger, a second process): written to the ledger, then cancelled or adopted per policy.
   */
  readonly foreign: number;
  /** Whether the exchange's open-order listing was read (null: the venue has none; false: it failed). */
  readonly listed: boolean | null;
  /** Orders that could not be resolved (lookup failed, or an orphan's cancel failed): they block their keys. */
  readonly unresolved: readonly string[];
  readonly fills: readonly FillEvent[];
}

export interface CancelAllReport {
  readonly cancelled: number;
  /**
   * Orders still open at the end (live, unknown or in flight), after a lookup of each where one
   * could be made: what is really left on the exchange, as far as it answered.
   */
  readonly remaining: readonly LiveOrder[];
  /** Ids of cancelled orders whose final read could not be made (ledger state `closing`). */
  readonly finalReadsOwed: readonly string[];
  /** Fills recorded while cancelAll ran (final reads included), and their shares. */
  readonly fillsRecorded: number;
  readonly fillSharesRecorded: Shares;
  /** The deadline passed before every step finished (requests still out were aborted). */
  readonly timedOut: boolean;
}

/** Pino-shaped logger (the runtime's, already redacting secrets). */
export interface ManagerLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const SILENT_LOGGER: ManagerLogger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});

// How the order manager reads a failed gateway call: did it possibly take effect (ambiguous), does
// it say the exchange is unwell (counts toward the circuit breaker), and when may we try again.
// Invariants kept:
// - `ambiguous` is false only when the request certainly never acted: an ExchangeError that says
//   so (refused connection, 4xx, 425, 429, 503), or an error raised before anything was sent (our
//   limiter, client-side validation, missing credentials, signing); anything we cannot classify
//   is ambiguous, so an unknown failure always leads to a lookup, never to a blind resend;
// - an answer from the exchange, even a refusal (400, 404), shows it is up: only failures to get
//   a usable answer (5xx, 425, 429, timeouts, network, undecodable 2xx, 401/403) count as
//   exchange failures; our own aborts and a closed transport do not.
import { OddsmakerError } from '../core/errors.js';
import { ExchangeError, type ExchangeErrorCode } from '../exchange/errors.js';

export interface FailureInfo {
  /** Stable code for reports and logs. */
  readonly code: string;
  /** The request may have taken effect: resolve by looking the order up. */
  readonly ambiguous: boolean;
  /** Counts toward the circuit breaker. */
  readonly exchangeFailure: boolean;
  /** The same request may succeed later (transient). */
  readonly retryable: boolean;
  /** Retry-After of a 429 (or 503), ms; null when none. */
  readonly retryAfterMs: number | null;
  /** A short message safe for logs (no request data is ever quoted by these errors). */
  readonly message: string;
}

/** Exchange codes that mean "the exchange answered properly, it just said no". */
const ANSWERED: ReadonlySet<ExchangeErrorCode> = new Set<ExchangeErrorCode>([
  'EXCHANGE_BAD_REQUEST',
  'EXCHANGE_NOT_FOUND',
]);
/** Our own doing, not the exchange's. */
const OURS: ReadonlySet<ExchangeErrorCode> = new Set<ExchangeErrorCode>(['EXCHANGE_ABORTED', 'EXCHANGE_CLOSED']);
/** Errors raised before a request leaves the process (their `code` prefixes). */
const BEFORE_SEND = /^(CLIENT_|RATE_LIMIT_|SIGNING_|PARSE_|INVARIANT$)/;

export function classifyFailure(e: unknown): FailureInfo {
  if (e instanceof ExchangeError) {
    return {
      code: e.code,
      ambiguous: e.ambiguous,
      exchangeFailure: !ANSWERED.has(e.code) && !OURS.has(e.code),
      retryable: e.retryable,
      retryAfterMs: e.retryAfterMs,
      message: e.message,
    };
  }
  if (e instanceof OddsmakerError && BEFORE_SEND.test(e.code)) {
    return {
      code: e.code,
      ambiguous: false,
      exchangeFailure: false,
      retryable: e.retryable,
      retryAfterMs: null,
      message: e.message,
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    code: e instanceof OddsmakerError ? e.code : 'UNKNOWN_FAILURE',
    ambiguous: true,
    exchangeFailure: true,
    retryable: true,
    retryAfterMs: null,
    message,
  };
}

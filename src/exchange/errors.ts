// Errors of talking to the exchange (docs/ARCHITECTURE.md §8). Owns the stable `code` of every failure the
// HTTP transport and the client can report, and the mapping from an HTTP status to that code.
// Invariants kept here:
// - callers branch on `code`, `retryable`, `retryAfterMs`, `ambiguous`, never on message text;
// - `ambiguous` is true only when the request may have reached the exchange and its outcome is
//   unknown (a timeout after sending, a reset connection, a gateway failure): for a write the order
//   manager resolves it by looking the order up; a refused connection is never ambiguous;
// - messages carry the route, the status and the exchange's own message (or a short snippet of a
//   non-JSON body), never request headers or bodies, so no secret can reach a log line;
// - ClientValidationError means nothing was sent.
import { OddsmakerError } from '../core/errors.js';

export type ExchangeErrorCode =
  | 'EXCHANGE_BAD_REQUEST' // 400
  | 'EXCHANGE_UNAUTHORIZED' // 401
  | 'EXCHANGE_FORBIDDEN' // 403
  | 'EXCHANGE_NOT_FOUND' // 404
  | 'EXCHANGE_RESTARTING' // 425: matching engine restarting
  | 'EXCHANGE_THROTTLED' // 429
  | 'EXCHANGE_INTERNAL' // 500 and unlisted 5xx
  | 'EXCHANGE_BAD_GATEWAY' // 502, 504: a proxy lost the upstream answer
  | 'EXCHANGE_UNAVAILABLE' // 503: paused / cancel-only
  | 'EXCHANGE_HTTP_ERROR' // any other non-2xx status
  | 'EXCHANGE_TIMEOUT' // connect, headers or body timeout
  | 'EXCHANGE_NETWORK' // refused, reset, DNS, closed socket
  | 'EXCHANGE_ABORTED' // the caller's AbortSignal fired
  | 'EXCHANGE_CLOSED' // the transport was closed
  | 'EXCHANGE_BAD_RESPONSE'; // a 2xx whose body is not the JSON the route answers

/** The catalog's error `type` (interface §7), or null for the `{error}` shape. */
export type ExchangeErrorType = 'bad request' | 'not found error';

export interface ExchangeErrorInit {
  code: ExchangeErrorCode;
  /** Stable route key (`POST /order`). */
  route: string;
  message: string;
  retryable: boolean;
  status?: number | null;
  retryAfterMs?: number | null;
  exchangeMessage?: string | null;
  errorType?: ExchangeErrorType | null;
  ambiguous?: boolean;
  cause?: unknown;
}

export class ExchangeError extends OddsmakerError {
  declare readonly code: ExchangeErrorCode;
  readonly route: string;
  /** HTTP status, or null when no response arrived. */
  readonly status: number | null;
  /** From Retry-After (seconds or HTTP date), in milliseconds; null when absent. */
  readonly retryAfterMs: number | null;
  /** The exchange's `error` text, or a short snippet of a non-JSON body. */
  readonly exchangeMessage: string | null;
  readonly errorType: ExchangeErrorType | null;
  /** The request may have reached the exchange and its outcome is unknown. */
  readonly ambiguous: boolean;

  constructor(init: ExchangeErrorInit) {
    super(init.code, init.message, init.retryable, init.cause === undefined ? undefined : { cause: init.cause });
    this.route = init.route;
    this.status = init.status ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.exchangeMessage = init.exchangeMessage ?? null;
    this.errorType = init.errorType ?? null;
    this.ambiguous = init.ambiguous ?? false;
  }

  /**
   * The `<reason>` of an `{error: "<reason>: <detail>"}` text such as `missing_field: user`,
   * `unknown_field: foo`, `unauthorized: ip_not_allowlisted`, `internal_error` (interface §7);
   * null when the text has no such prefix.
   */
  get reason(): string | null {
    const m = this.exchangeMessage === null ? null : /^([a-z][a-z0-9_]*)(?::|$)/.exec(this.exchangeMessage);
    return m === null ? null : (m[1] ?? null);
  }

  /** The `<detail>` after `<reason>: `, or null. */
  get detail(): string | null {
    const m = this.exchangeMessage === null ? null : /^[a-z][a-z0-9_]*:\s*(.*)$/s.exec(this.exchangeMessage);
    return m === null ? null : (m[1] ?? null);
  }
}

/** An HTTP response with a non-2xx status. */
export class ExchangeHttpError extends ExchangeError {
  declare readonly status: number;
}

/** No (complete) response: timeout, network failure, abort, closed transport. */
export class ExchangeTransportError extends ExchangeError {}

/** A 2xx response whose body could not be decoded or parsed. */
export class ExchangeResponseError extends ExchangeError {}

interface StatusRule {
  code: ExchangeErrorCode;
  retryable: boolean;
  ambiguous: boolean;
}

/**
 * Status → code (docs/protocol.md §4). Retryable means "the same request may succeed later"; the
 * transport still retries only idempotent requests. 500 and gateway errors are ambiguous: the
 * exchange (or the proxy in front of it) may have acted before failing; 425 and 503 refuse
 * before acting.
 */
export function statusRule(status: number): StatusRule {
  switch (status) {
    case 400:
      return { code: 'EXCHANGE_BAD_REQUEST', retryable: false, ambiguous: false };
    case 401:
      return { code: 'EXCHANGE_UNAUTHORIZED', retryable: false, ambiguous: false };
    case 403:
      return { code: 'EXCHANGE_FORBIDDEN', retryable: false, ambiguous: false };
    case 404:
      return { code: 'EXCHANGE_NOT_FOUND', retryable: false, ambiguous: false };
    case 425:
      return { code: 'EXCHANGE_RESTARTING', retryable: true, ambiguous: false };
    case 429:
      return { code: 'EXCHANGE_THROTTLED', retryable: true, ambiguous: false };
    case 500:
      return { code: 'EXCHANGE_INTERNAL', retryable: true, ambiguous: true };
    case 502:
    case 504:
      return { code: 'EXCHANGE_BAD_GATEWAY', retryable: true, ambiguous: true };
    case 503:
      return { code: 'EXCHANGE_UNAVAILABLE', retryable: true, ambiguous: false };
    default:
      if (status >= 500) return { code: 'EXCHANGE_INTERNAL', retryable: true, ambiguous: true };
      return { code: 'EXCHANGE_HTTP_ERROR', retryable: false, ambiguous: false };
  }
}

/**
 * A parameter failed a client-side check (interface §4.4, §4.5, §8 bounds; 1..15 orders); nothing
 * was sent. `param` names the parameter, `value` is the offending value as given.
 */
export class ClientValidationError extends OddsmakerError {
  readonly param: string;
  readonly value: unknown;
  constructor(param: string, value: unknown, problem: string) {
    super('CLIENT_INVALID_PARAM', `${param}: ${problem} (got ${describeValue(value)})`, false);
    this.param = param;
    this.value = value;
  }
}

/** A signed route was called on a client configured without credentials or address. */
export class MissingCredentialsError extends OddsmakerError {
  constructor(route: string, missing: string) {
    super('CLIENT_NO_CREDENTIALS', `${route} needs ${missing}; the client was configured without`, false);
  }
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 120 ? `${v.slice(0, 120)}…` : v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

// The one HTTP transport to the exchange, on undici: a keep-alive Pool per origin with an explicit
// connection count, per-request timeouts, AbortSignal passthrough, error decoding and retries.
// Invariants kept here:
// - the body sent is exactly the string given (L2 auth signs those bytes); headers may be a
//   function, called once per attempt, so a retried signed request carries a fresh timestamp;
// - only requests flagged `idempotent` are retried (GETs and the POST market-data batches); a
//   write is sent once, whatever happens, and its failure says whether it is `ambiguous`;
// - every attempt passes the rate limiter's `beforeSend(route, signal, body)` gate first (each
//   attempt is a real send and counts in the budget; the body lets the gate charge a batch's
//   per-signer tokens), every answer's status and headers go to `onResponse` (the exchange's
//   Poly-RateLimit-* headers), and every 429 is reported to `onThrottled`;
// - backoff waits go through the injected Clock (`clock.sleep`) with an injected random source,
//   so tests drive retries with a VirtualClock; a Retry-After is honoured (waited at least),
//   and one longer than `maxRetryAfterMs` is handed to the caller instead of waited out;
// - socket timeouts (connect, headers, body) are undici's own timers: they belong to the socket
//   and measure real I/O, and keeping them off the Clock means a VirtualClock driving retries in
//   a test never fires a request deadline while real bytes are in flight;
// - errors never carry request headers or bodies, so secrets cannot leak into messages.
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../../core/backoff.js';
import type { Clock } from '../../core/clock.js';
import {
  ExchangeError,
  ExchangeHttpError,
  ExchangeResponseError,
  ExchangeTransportError,
  statusRule,
} from '../errors.js';
import { decodeErrorBody, snippet } from './error-body.js';
import { parseRetryAfter } from './retry-after.js';
import { OptionError } from '../../core/errors.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface TransportOptions {
  clock: Clock;
  /** Uniform [0, 1) source for backoff jitter. Defaults to Math.random. */
  random?: () => number;
  /** Connections per origin (keep-alive). Default 8. */
  connections?: number;
  /** Idle time before a kept-alive socket is closed. Default 4000 ms. */
  keepAliveTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Time from sending the request to the complete response headers. Default 10000 ms. */
  headersTimeoutMs?: number;
  /** Longest silence between body chunks. Default 10000 ms. */
  bodyTimeoutMs?: number;
  backoff?: Partial<BackoffPolicy>;
  /** Rate-limiter gate, awaited before every attempt, with the exact body bytes about to be sent.
   *  Its errors reach the caller unchanged. */
  beforeSend?: (route: string, signal?: AbortSignal, body?: string) => Promise<void>;
  /** Called with every answer of an attempt (any status), before it is decoded; must not throw
   *  (an error from it is dropped: metering never turns an answered request into a failure). */
  onResponse?: (route: string, status: number, headers: IncomingHttpHeaders) => void;
  /** Called on every 429, with the Retry-After in ms (null when absent). */
  onThrottled?: (route: string, retryAfterMs: number | null) => void;
  userAgent?: string;
}

export interface TransportRequest {
  /** Scheme, host and port (`https://clob.example.com`); any path is ignored. */
  origin: string;
  method: HttpMethod;
  /** The request path as sent and signed, without the query. */
  path: string;
  /** Encoded query string without the leading `?`; empty or absent for none. */
  query?: string;
  /** Exact body bytes; sent with `Content-Type: application/json`. */
  body?: string;
  /** Extra headers, or a function returning them, called once per attempt; its errors reach the caller unchanged. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Stable route key for the limiter and errors (`POST /order`, `GET /book`). */
  route: string;
  /** True only for requests that may be sent twice without effect (reads, market-data batches). */
  idempotent: boolean;
  signal?: AbortSignal;
  /** Overrides headers and body timeouts for this request. */
  timeoutMs?: number;
  /** The success body holds secrets (API credentials): never quote it in an error. */
  secretResponse?: boolean;
  /** requestJson reads an empty success body as JSON `null` (a route that answers "nothing" so). */
  emptyBodyIsNull?: boolean;
}

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Attempts made, 1 when the first succeeded. */
  attempts: number;
}

/** Marks an error raised before sending (limiter gate, header signing): passed through unchanged. */
class GateFailure {
  constructor(readonly error: unknown) {}
}

export class HttpTransport {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly policy: BackoffPolicy;
  private readonly pools = new Map<string, Pool>();
  private readonly opts: TransportOptions;
  private closed = false;

  constructor(opts: TransportOptions) {
    this.opts = opts;
    this.clock = opts.clock;
    this.random = opts.random ?? Math.random;
    this.policy = { ...DEFAULT_BACKOFF, ...opts.backoff };
    if (!Number.isSafeInteger(this.policy.maxAttempts) || this.policy.maxAttempts < 1) {
      throw new OptionError(
        'EXCHANGE_OPTION',
        `backoff.maxAttempts must be an integer >= 1, got ${String(this.policy.maxAttempts)}`,
      );
    }
  }

  /** Sends the request (retrying idempotent ones) and returns the 2xx response, else throws. */
  async request(req: TransportRequest): Promise<TransportResponse> {
    const maxAttempts = req.idempotent ? this.policy.maxAttempts : 1;
    for (let attempt = 1; ; attempt++) {
      let error: ExchangeError;
      try {
        const res = await this.attempt(req);
        if (this.opts.onResponse !== undefined) {
          try {
            this.opts.onResponse(req.route, res.status, res.headers);
          } catch {
            /* see TransportOptions.onResponse */
          }
        }
        if (res.status >= 200 && res.status < 300) return { ...res, attempts: attempt };
        error = this.httpError(req, res.status, res.headers, res.text);
      } catch (e) {
        if (e instanceof GateFailure) {
          // A gate that gave up because the caller aborted: report it as the abort it is.
          if (req.signal?.aborted === true) throw this.aborted(req, e.error, false);
          throw e.error;
        }
        error = e instanceof ExchangeError ? e : this.failure(req, e);
      }
      if (error.code === 'EXCHANGE_THROTTLED') this.opts.onThrottled?.(req.route, error.retryAfterMs);
      if (attempt >= maxAttempts || !error.retryable) throw error;
      if (error.retryAfterMs !== null && error.retryAfterMs > this.policy.maxRetryAfterMs) throw error;
      const delay = backoffDelay(this.policy, attempt, this.random, error.retryAfterMs);
      try {
        await this.clock.sleep(delay, req.signal);
      } catch (e) {
        throw this.aborted(req, e, false);
      }
    }
  }

  /** Like request, then decodes the body as JSON (a non-JSON 2xx is EXCHANGE_BAD_RESPONSE). */
  async requestJson(req: TransportRequest): Promise<unknown> {
    const res = await this.request(req);
    if (req.emptyBodyIsNull === true && res.text.trim() === '') return null;
    try {
      return JSON.parse(res.text) as unknown;
    } catch (e) {
      const quoted =
        req.secretResponse === true ? '(body withheld: it may hold secrets)' : snippet(res.text) || '(empty body)';
      throw new ExchangeResponseError({
        code: 'EXCHANGE_BAD_RESPONSE',
        route: req.route,
        status: res.status,
        message: `${req.route}: ${res.status} response is not JSON: ${quoted}`,
        exchangeMessage: req.secretResponse === true ? null : snippet(res.text) || null,
        retryable: false,
        // The exchange answered 2xx: a write took effect, but we cannot read what it did.
        ambiguous: !req.idempotent,
        ...(req.secretResponse === true ? {} : { cause: e }),
      });
    }
  }

  /** Open connections per origin (for health reporting and tests). */
  stats(): Record<string, { connected: number; pending: number; running: number }> {
    const out: Record<string, { connected: number; pending: number; running: number }> = {};
    for (const [origin, pool] of this.pools) {
      const s = pool.stats;
      out[origin] = { connected: s.connected, pending: s.pending, running: s.running };
    }
    return out;
  }

  /** Closes every pool, letting in-flight requests finish. Later requests fail with EXCHANGE_CLOSED. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  private async attempt(req: TransportRequest): Promise<Omit<TransportResponse, 'attempts'>> {
    if (this.closed) {
      throw new ExchangeTransportError({
        code: 'EXCHANGE_CLOSED',
        route: req.route,
        message: `${req.route}: transport is closed`,
        retryable: false,
      });
    }
    if (req.signal?.aborted === true) throw this.aborted(req, req.signal.reason, false);
    if (this.opts.beforeSend !== undefined) {
      try {
        await this.opts.beforeSend(req.route, req.signal, req.body);
      } catch (e) {
        throw new GateFailure(e);
      }
    }
    const pool = this.pool(req.origin);
    let extra: Record<string, string>;
    try {
      extra = typeof req.headers === 'function' ? req.headers() : (req.headers ?? {});
    } catch (e) {
      // Building headers (signing) failed before anything was sent: the caller's error, unchanged.
      throw new GateFailure(e);
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'oddsmaker',
      ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...extra,
    };
    const timeout = req.timeoutMs;
    const res = await pool.request({
      method: req.method,
      path: req.query !== undefined && req.query !== '' ? `${req.path}?${req.query}` : req.path,
      headers,
      body: req.body ?? null,
      signal: req.signal ?? null,
      ...(timeout !== undefined ? { headersTimeout: timeout, bodyTimeout: timeout } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text };
  }

  private pool(origin: string): Pool {
    const key = new URL(origin).origin;
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new Pool(key, {
        connections: this.opts.connections ?? 8,
        pipelining: 1,
        keepAliveTimeout: this.opts.keepAliveTimeoutMs ?? 4_000,
        connectTimeout: this.opts.connectTimeoutMs ?? 10_000,
        headersTimeout: this.opts.headersTimeoutMs ?? 10_000,
        bodyTimeout: this.opts.bodyTimeoutMs ?? 10_000,
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  private httpError(
    req: TransportRequest,
    status: number,
    headers: IncomingHttpHeaders,
    text: string,
  ): ExchangeHttpError {
    const rule = statusRule(status);
    const body = decodeErrorBody(text);
    const retryAfterMs = parseRetryAfter(headers['retry-after'], this.clock.now());
    const what = body.message ?? '(empty body)';
    return new ExchangeHttpError({
      code: rule.code,
      route: req.route,
      status,
      message: `${req.route}: ${status}${body.errorType !== null ? ` ${body.errorType}` : ''}: ${what}`,
      retryable: rule.retryable,
      retryAfterMs,
      exchangeMessage: body.message,
      errorType: body.errorType,
      ambiguous: rule.ambiguous,
    });
  }

  /** Maps a thrown undici / socket error to an ExchangeTransportError. */
  private failure(req: TransportRequest, e: unknown): ExchangeError {
    if (req.signal?.aborted === true) return this.aborted(req, e, true);
    const code = errorCode(e);
    const detail = e instanceof Error ? e.message : String(e);
    const make = (
      c: 'EXCHANGE_TIMEOUT' | 'EXCHANGE_NETWORK' | 'EXCHANGE_CLOSED',
      retryable: boolean,
      ambiguous: boolean,
      what: string,
    ): ExchangeError =>
      new ExchangeTransportError({
        code: c,
        route: req.route,
        message: `${req.route}: ${what}`,
        retryable,
        ambiguous,
        cause: e,
      });
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return make('EXCHANGE_TIMEOUT', true, false, 'connect timeout');
      case 'UND_ERR_HEADERS_TIMEOUT':
        return make('EXCHANGE_TIMEOUT', true, true, 'timeout waiting for response headers');
      case 'UND_ERR_BODY_TIMEOUT':
        return make('EXCHANGE_TIMEOUT', true, true, 'timeout reading response body');
      case 'ECONNREFUSED':
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
      case 'EADDRNOTAVAIL':
        // The connection never opened: nothing reached the exchange.
        return make('EXCHANGE_NETWORK', true, false, `cannot connect (${code})`);
      case 'UND_ERR_CLOSED':
      case 'UND_ERR_DESTROYED':
        return make('EXCHANGE_CLOSED', false, false, 'transport is closed');
      default:
        // Reset, closed by the other side, malformed response: the request may have arrived.
        return make('EXCHANGE_NETWORK', true, true, `network error (${code ?? 'unknown'}): ${snippet(detail)}`);
    }
  }

  private aborted(req: TransportRequest, cause: unknown, mayHaveSent: boolean): ExchangeError {
    return new ExchangeTransportError({
      code: 'EXCHANGE_ABORTED',
      route: req.route,
      message: `${req.route}: aborted`,
      retryable: false,
      ambiguous: mayHaveSent,
      cause,
    });
  }
}

/** The first `code` found on an error, its cause, or the members of an AggregateError. */
function errorCode(e: unknown, depth = 0): string | null {
  if (typeof e !== 'object' || e === null || depth > 4) return null;
  const o = e as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string') return o.code;
  if (Array.isArray(o.errors)) {
    for (const inner of o.errors) {
      const c = errorCode(inner, depth + 1);
      if (c !== null) return c;
    }
  }
  return errorCode(o.cause, depth + 1);
}

// The request core every client group shares: resolves a route's base URL (CLOB, Data or
// Catalog), builds path and query, signs L2 routes, sends through the one HttpTransport and
// parses the JSON with engineer A's parsers. Invariants kept here:
// - a signed body is serialised once; that exact string is signed and sent (docs/protocol.md §1);
// - the L2 path signed is the path sent (base path prefix included, query excluded), and the
//   timestamp is whole seconds of the injected clock, taken per attempt (a retried signed read
//   carries a fresh timestamp);
// - path parameters are non-empty and percent-encoded; bounds are checked before anything is sent;
// - a parser failure becomes EXCHANGE_BAD_RESPONSE naming the route (ambiguous for a write,
//   which the exchange acted on); for responses that hold secrets the parser's message, which
//   may quote a value, is dropped.
import type { Clock } from '../../core/clock.js';
import { OddsmakerError } from '../../core/errors.js';
import type { ApiCredentials } from '../auth/credentials.js';
import { buildL2Headers } from '../auth/l2.js';
import type { Dialect } from '../dialect.js';
import { ClientValidationError, ExchangeError, ExchangeResponseError, MissingCredentialsError } from '../errors.js';
import type { HttpTransport } from '../http/transport.js';
import type { Api, RouteDef } from './routes.js';

export interface CallOptions {
  signal?: AbortSignal;
  /** Headers and body timeout of this call, in ms. */
  timeoutMs?: number;
}

export interface BaseUrl {
  origin: string;
  /** Path prefix without a trailing slash ('' for none). */
  prefix: string;
}

/** Splits a base URL into origin and path prefix; refuses other schemes, queries and fragments. */
export function parseBaseUrl(url: string, what: string): BaseUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ClientValidationError(what, url, 'is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ClientValidationError(what, url, 'must be http or https');
  if (u.search !== '' || u.hash !== '')
    throw new ClientValidationError(what, url, 'must not carry a query or fragment');
  if (u.username !== '' || u.password !== '')
    throw new ClientValidationError(what, '(redacted)', 'must not carry credentials');
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') };
}

/** A path segment from a caller's value: non-empty string, percent-encoded. */
export function segment(param: string, value: string): string {
  if (typeof value !== 'string' || value === '')
    throw new ClientValidationError(param, value, 'must be a non-empty string');
  return encodeURIComponent(value);
}

export interface Signing {
  dialect: Dialect;
  credentials: ApiCredentials | null;
  address: string | null;
}

export interface CallSpec<T> {
  route: RouteDef;
  /** Concrete path, relative to the API's base (`/data/order/0xab`). */
  path: string;
  query?: string;
  /** Exact body string. */
  body?: string;
  /** L1 headers, for `auth: 'l1'` routes. */
  headers?: Record<string, string> | (() => Record<string, string>);
  parse: (json: unknown) => T;
  /** The response carries secrets: parser messages are not quoted. */
  secret?: boolean;
  /** An empty success body is handed to the parser as `null`. */
  emptyBodyIsNull?: boolean;
  options?: CallOptions | undefined;
}

export class ClientCore {
  constructor(
    readonly transport: HttpTransport,
    readonly bases: Readonly<Record<Api, BaseUrl>>,
    readonly clock: Clock,
    readonly signing: Signing,
  ) {}

  async call<T>(spec: CallSpec<T>): Promise<T> {
    const json = await this.send(spec);
    return this.parse(spec, json);
  }

  /** Sends and returns the raw body text (routes whose answer may not be JSON: GET /). */
  async callText(spec: Omit<CallSpec<unknown>, 'parse'>): Promise<string> {
    const res = await this.transport.request(this.request(spec));
    return res.text;
  }

  private async send(spec: Omit<CallSpec<unknown>, 'parse'>): Promise<unknown> {
    return this.transport.requestJson(this.request(spec));
  }

  private request(spec: Omit<CallSpec<unknown>, 'parse'>): Parameters<HttpTransport['request']>[0] {
    const { route } = spec;
    const base = this.bases[route.api];
    const method = route.key.slice(0, route.key.indexOf(' ')) as 'GET' | 'POST' | 'DELETE';
    const path = base.prefix + spec.path;
    let headers = spec.headers;
    if (route.auth === 'l2') headers = this.l2Headers(route, method, path, spec.body);
    if (route.auth === 'l1' && headers === undefined) throw new MissingCredentialsError(route.key, 'L1 headers');
    return {
      origin: base.origin,
      method,
      path,
      route: route.key,
      idempotent: route.idempotent,
      ...(spec.query !== undefined && spec.query !== '' ? { query: spec.query } : {}),
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      ...(headers !== undefined ? { headers } : {}),
      ...(spec.options?.signal !== undefined ? { signal: spec.options.signal } : {}),
      ...(spec.options?.timeoutMs !== undefined ? { timeoutMs: spec.options.timeoutMs } : {}),
      ...(spec.secret === true ? { secretResponse: true } : {}),
      ...(spec.emptyBodyIsNull === true ? { emptyBodyIsNull: true } : {}),
    };
  }

  private l2Headers(
    route: RouteDef,
    method: string,
    path: string,
    body: string | undefined,
  ): () => Record<string, string> {
    const { credentials, address, dialect } = this.signing;
    if (credentials === null) throw new MissingCredentialsError(route.key, 'API credentials');
    if (address === null) throw new MissingCredentialsError(route.key, 'a wallet address');
    // Called once per attempt by the transport: each attempt is signed at its own time.
    return () =>
      buildL2Headers({
        dialect,
        credentials,
        address,
        method,
        path,
        body,
        timestampSec: Math.floor(this.clock.now() / 1000),
      });
  }

  private parse<T>(spec: CallSpec<T>, json: unknown): T {
    try {
      return spec.parse(json);
    } catch (e) {
      if (e instanceof ExchangeError || !(e instanceof OddsmakerError || e instanceof TypeError)) throw e;
      const detail = spec.secret === true ? 'response is not in the expected shape' : e.message;
      throw new ExchangeResponseError({
        code: 'EXCHANGE_BAD_RESPONSE',
        route: spec.route.key,
        status: 200,
        message: `${spec.route.key}: ${detail}`,
        retryable: false,
        ambiguous: !spec.route.idempotent,
        ...(spec.secret === true ? {} : { cause: e }),
      });
    }
  }
}

/** Splits `items` into consecutive chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

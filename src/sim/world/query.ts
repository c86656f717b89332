// Shared machinery of the world's queries: the raw query record as it arrives over HTTP, the result
// type the HTTP layer sends as is ({status, body}), the two error shapes of interface §7, and strict
// readers of query parameters. Invariants kept here:
// - a query function never throws for bad input: readers throw a QueryError internally and
//   `runQuery` turns it into a failed result; any other exception is a bug and propagates;
// - two error styles, chosen per route:
//     data style (portfolio, leaderboard, trades, market data): status 400, body {error} with
//       `missing_field: <name>`, `unknown_field: <name>`, `invalid_field: <name>` (a value of the
//       wrong type, out of its bounds, or not one of the allowed values; also a single-valued
//       parameter given twice);
//     catalog style (events, tags, comments, search): body {type: "bad request", error: <text
//       naming the parameter and the rule>} with status 400, or {type: "not found error", error}
//       with status 404 for an id or slug that does not exist;
// - an empty value (`?limit=`) of a typed parameter (integer, boolean, enum) is invalid; an empty
//   value of a free-text filter means "no filter".
import { OddsmakerError } from '../../core/errors.js';
import { parseDecimalMicros } from '../../core/money.js';
import type { WireCatalogErrorBody, WireErrorBody } from '../../exchange/wire.js';

/** Query string as parsed by the HTTP layer: a repeated key arrives as an array. */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export type ErrorStatus = 400 | 404;

export type QueryResult<T> =
  | { readonly ok: true; readonly status: 200; readonly body: T }
  | { readonly ok: false; readonly status: ErrorStatus; readonly body: WireErrorBody | WireCatalogErrorBody };

export type Failure = Extract<QueryResult<never>, { ok: false }>;

export function ok<T>(body: T): QueryResult<T> {
  return { ok: true, status: 200, body };
}

export function dataError(status: ErrorStatus, error: string): Failure {
  return { ok: false, status, body: { error } };
}

export function catalogBadRequest(error: string): Failure {
  return { ok: false, status: 400, body: { type: 'bad request', error } };
}

export function catalogNotFound(error: string): Failure {
  return { ok: false, status: 404, body: { type: 'not found error', error } };
}

/** Carries a failed result out of nested readers; caught by runQuery. */
export class QueryError extends OddsmakerError {
  readonly result: Failure;
  constructor(result: Failure) {
    super('QUERY_REJECTED', 'error' in result.body ? result.body.error : 'rejected', false);
    this.result = result;
  }
}

export function fail(result: Failure): never {
  throw new QueryError(result);
}

export function runQuery<T>(fn: () => T): QueryResult<T> {
  try {
    return ok(fn());
  } catch (e) {
    if (e instanceof QueryError) return e.result;
    throw e;
  }
}

/** How a route words its parameter errors. */
export interface ErrorStyle {
  missing(name: string): Failure;
  unknown(name: string): Failure;
  invalid(name: string, rule: string): Failure;
}

export const DATA_STYLE: ErrorStyle = {
  missing: (name) => dataError(400, `missing_field: ${name}`),
  unknown: (name) => dataError(400, `unknown_field: ${name}`),
  invalid: (name) => dataError(400, `invalid_field: ${name}`),
};

export const CATALOG_STYLE: ErrorStyle = {
  missing: (name) => catalogBadRequest(`missing required query parameter: ${name}`),
  unknown: (name) => catalogBadRequest(`unknown query parameter: ${name}`),
  invalid: (name, rule) => catalogBadRequest(`invalid ${name}: ${rule}`),
};

/** Reads typed parameters from one raw query, failing in the route's style. */
export class Params {
  constructor(
    private readonly q: RawQuery,
    private readonly style: ErrorStyle,
  ) {}

  /** Fails on the first parameter (in the record's order) that is not in `allowed`. */
  only(allowed: readonly string[]): this {
    for (const k of Object.keys(this.q)) {
      if (this.q[k] !== undefined && !allowed.includes(k)) fail(this.style.unknown(k));
    }
    return this;
  }

  has(name: string): boolean {
    return this.q[name] !== undefined;
  }

  /** A single-valued string, or undefined when absent. */
  string(name: string): string | undefined {
    const v = this.q[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') {
      if (v.length === 1 && typeof v[0] === 'string') return v[0];
      fail(this.style.invalid(name, 'given more than once'));
    }
    return v;
  }

  /** A free-text filter: absent or empty → undefined; longer than maxLen → invalid. */
  text(name: string, maxLen: number): string | undefined {
    const v = this.string(name);
    if (v === undefined || v === '') return undefined;
    if (v.length > maxLen) fail(this.style.invalid(name, `longer than ${maxLen} characters`));
    return v;
  }

  required(name: string): string {
    const v = this.string(name);
    if (v === undefined || v === '') fail(this.style.missing(name));
    return v;
  }

  /** Every value of a parameter that may repeat, comma lists split; empty items dropped. */
  list(name: string): string[] | undefined {
    const v = this.q[name];
    if (v === undefined) return undefined;
    const raw = typeof v === 'string' ? [v] : v;
    const out = raw
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return out.length === 0 ? undefined : out;
  }

  int(name: string, bounds: { min: number; max?: number }, def: number): number;
  int(name: string, bounds: { min: number; max?: number }): number | undefined;
  int(name: string, bounds: { min: number; max?: number }, def?: number): number | undefined {
    const v = this.string(name);
    const rule =
      bounds.max === undefined ? `an integer >= ${bounds.min}` : `an integer from ${bounds.min} to ${bounds.max}`;
    if (v === undefined) return def;
    if (!/^-?\d{1,15}$/.test(v)) fail(this.style.invalid(name, `must be ${rule}`));
    const n = Number(v);
    if (n < bounds.min || (bounds.max !== undefined && n > bounds.max))
      fail(this.style.invalid(name, `must be ${rule}`));
    return n;
  }

  bool(name: string, def: boolean): boolean;
  bool(name: string): boolean | undefined;
  bool(name: string, def?: boolean): boolean | undefined {
    const v = this.string(name);
    if (v === undefined) return def;
    if (v === 'true') return true;
    if (v === 'false') return false;
    return fail(this.style.invalid(name, 'must be true or false'));
  }

  oneOf<T extends string>(name: string, values: readonly T[], def: T): T;
  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined;
  oneOf<T extends string>(name: string, values: readonly T[], def?: T): T | undefined {
    const v = this.string(name);
    if (v === undefined) return def;
    if (!(values as readonly string[]).includes(v))
      fail(this.style.invalid(name, `must be one of ${values.join(', ')}`));
    return v as T;
  }

  /** A non-negative decimal (up to 6 decimals) in millionths. */
  decimalMicros(name: string, def: number): number {
    const v = this.string(name);
    if (v === undefined) return def;
    let n: number;
    try {
      n = parseDecimalMicros(v, name);
    } catch {
      return fail(this.style.invalid(name, 'must be a decimal number'));
    }
    if (n < 0) fail(this.style.invalid(name, 'must be >= 0'));
    return n;
  }
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const HASH_RE = /^0x[0-9a-fA-F]{64}$/;

export function isAddress(s: string): boolean {
  return ADDRESS_RE.test(s);
}

export function isConditionId(s: string): boolean {
  return HASH_RE.test(s);
}

/** offset/limit slice. */
export function page<T>(items: readonly T[], offset: number, limit: number): T[] {
  return items.slice(offset, offset + limit);
}

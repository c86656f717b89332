// Small validating readers shared by the parsers. Each takes a JSON value and the field path it
// sits at, and returns the value typed or throws ParseError naming that path. Invariants:
// - no reader coerces: a number is never accepted where a string is expected, nor the reverse,
//   except the explicit `…OrNumber` readers for fields real payloads send both ways;
// - messages name the type received, never a string's content (credentials pass through here);
// - `""`, `null` or a missing field become null only through the `opt…` readers: never zero.
import { ParseError } from '../../core/errors.js';
import {
  microsFromNumber,
  MoneyError,
  type Micros,
  type Price,
  type Rounding,
  type Shares,
  SCALE,
} from '../../core/money.js';
import { readMicros } from './decimal.js';

export type JsonObject = Record<string, unknown>;

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : `number ${String(v)}`;
  return typeof v;
}

export function at(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export function idx(path: string, i: number): string {
  return `${path}[${i}]`;
}

export function fail(path: string, message: string): never {
  throw new ParseError(path, message);
}

export function obj(v: unknown, path: string): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, `expected an object, got ${typeName(v)}`);
  return v as JsonObject;
}

export function arr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(path, `expected an array, got ${typeName(v)}`);
  return v;
}

/** Maps an array with its element paths. */
export function arrOf<T>(v: unknown, path: string, each: (x: unknown, path: string) => T): T[] {
  const a = arr(v, path);
  const out = new Array<T>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = each(a[i], idx(path, i));
  return out;
}

/** Own, non-inherited entries of a JSON object (a `__proto__` key stays data). */
export function entries(o: JsonObject): Array<[string, unknown]> {
  return Object.entries(o);
}

export function str(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, `expected a string, got ${typeName(v)}`);
  return v;
}

export function nonEmpty(v: unknown, path: string): string {
  const s = str(v, path);
  if (s === '') fail(path, 'expected a non-empty string');
  return s;
}

/** A string, or null for `""`, `null` or missing. */
export function optStr(v: unknown, path: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  return str(v, path);
}

export function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') fail(path, `expected a boolean, got ${typeName(v)}`);
  return v;
}

/** A boolean, or null when `null` or missing. */
export function optBool(v: unknown, path: string): boolean | null {
  if (v === undefined || v === null) return null;
  return bool(v, path);
}

export function finite(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, `expected a finite number, got ${typeName(v)}`);
  return v;
}

export function optFinite(v: unknown, path: string): number | null {
  if (v === undefined || v === null) return null;
  return finite(v, path);
}

export function int(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(path, `expected an integer, got ${typeName(v)}`);
  return v;
}

export function optInt(v: unknown, path: string): number | null {
  if (v === undefined || v === null) return null;
  return int(v, path);
}

export function nonNegInt(v: unknown, path: string): number {
  const n = int(v, path);
  if (n < 0) fail(path, `expected a non-negative integer, got ${n}`);
  return n;
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(v: unknown, path: string, values: readonly T[]): T {
  const s = str(v, path);
  if (!(values as readonly string[]).includes(s))
    fail(path, `unexpected value ${JSON.stringify(s)}; expected one of ${values.join(', ')}`);
  return s as T;
}

const UINT_RE = /^\d+$/;

/** An unsigned integer sent as a decimal string ("1781289337944"), within the safe range. */
export function uintString(v: unknown, path: string): number {
  const s = str(v, path);
  if (!UINT_RE.test(s)) fail(path, `expected an unsigned integer string, got ${JSON.stringify(s)}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) fail(path, `integer out of range: ${JSON.stringify(s)}`);
  return n;
}

/** An integer sent as a JSON number or as an unsigned integer string (real payloads do both). */
export function intOrString(v: unknown, path: string): number {
  return typeof v === 'string' ? uintString(v, path) : int(v, path);
}

// ISO 8601 date or date-time as the real payloads carry it ("2028-11-07", "2024-11-05T00:00:00Z",
// "2025-07-11T18:41:17.827458Z", "2024-03-07 20:44:01.258+00").
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** An ISO 8601 string, kept as text after checking its shape. */
export function iso(v: unknown, path: string): string {
  const s = str(v, path);
  if (!ISO_RE.test(s)) fail(path, `expected an ISO 8601 date, got ${JSON.stringify(s)}`);
  return s;
}

export function optIso(v: unknown, path: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  return iso(v, path);
}

/**
 * An ISO 8601 date or date-time as epoch milliseconds (for fields the domain computes with). A
 * value without a zone is UTC (exchange times are), never the host's local time.
 */
export function isoMs(v: unknown, path: string): number {
  const s = iso(v, path);
  let t = s.replace(' ', 'T');
  if (t.length === 10) t += 'T00:00:00Z';
  else if (/[+-]\d{2}$/.test(t)) t += ':00';
  else if (/[+-]\d{4}$/.test(t)) t = `${t.slice(0, -2)}:${t.slice(-2)}`;
  else if (!/(?:Z|[+-]\d{2}:\d{2})$/.test(t)) t += 'Z';
  const ms = Date.parse(t);
  if (!Number.isFinite(ms)) fail(path, `not a valid date: ${JSON.stringify(s)}`);
  return ms;
}

/** Whether a numeric field may also arrive as a decimal string. */
export type NumberForm = 'number' | 'number-or-string';

/**
 * A JSON number (portfolio and catalog amounts) as millionths, with a named rounding for values
 * carrying more than 6 decimals. With 'number-or-string' also a strict decimal string: some real
 * payloads (the recorded /trades and /prices-history) send their numbers as strings.
 */
export function microsOf(v: unknown, path: string, rounding: Rounding, form: NumberForm = 'number'): number {
  if (typeof v === 'string' && form === 'number-or-string') return readMicros(v, path);
  const n = finite(v, path);
  try {
    return microsFromNumber(n, rounding, 'value');
  } catch (err) {
    if (err instanceof MoneyError) fail(path, `out of range: ${String(n)}`);
    throw err;
  }
}

export function optMicrosOf(v: unknown, path: string, rounding: Rounding, form: NumberForm = 'number'): number | null {
  if (v === undefined || v === null || v === '') return null;
  return microsOf(v, path, rounding, form);
}

/** A price sent as a JSON number, in [0, 1]. */
export function priceOf(v: unknown, path: string, rounding: Rounding, form: NumberForm = 'number'): Price {
  const m = microsOf(v, path, rounding, form);
  if (m < 0 || m > SCALE) fail(path, `price out of range [0, 1]: ${String(v)}`);
  return m as Price;
}

/** A non-negative share amount sent as a JSON number. */
export function sharesOf(v: unknown, path: string, rounding: Rounding, form: NumberForm = 'number'): Shares {
  const m = microsOf(v, path, rounding, form);
  if (m < 0) fail(path, `negative size: ${String(v)}`);
  return m as Shares;
}

export function amountOf(v: unknown, path: string, rounding: Rounding, form: NumberForm = 'number'): Micros {
  return microsOf(v, path, rounding, form) as Micros;
}

/** A JSON object whose inner structure the interface does not show: checked to be an object, kept. */
export function opaque(v: unknown, path: string): Readonly<Record<string, unknown>> {
  return obj(v, path);
}

// Strategy params: zod schemas that read config money exactly (a JSON number or a decimal string
// into integer millionths; more than 6 decimals, or 2 on a share count, is an error, never a silent
// rounding), and zod errors turned into a ParseError naming the path and the value.
import { z } from 'zod';
import { ParseError } from '../core/errors.js';
import {
  fromFloat,
  microsFromNumber,
  MoneyError,
  parseDecimalMicros,
  type Micros,
  type Price,
  type Shares,
} from '../core/money.js';

/** A decimal in a config (a JSON number or a decimal string) → exact millionths, or an issue. */
function decimalParam(what: string, check: (v: number) => string | null) {
  return z.union([z.number(), z.string()]).transform((raw, ctx): number => {
    let v: number;
    try {
      v = typeof raw === 'string' ? parseDecimalMicros(raw, what) : exactMicrosFromNumber(raw, what);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof MoneyError ? e.message : String(e), input: raw });
      return z.NEVER;
    }
    const problem = check(v);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: `${what} ${problem}`, input: raw });
      return z.NEVER;
    }
    return v;
  });
}

function exactMicrosFromNumber(n: number, what: string): number {
  const v = microsFromNumber(n, 'floor', what);
  if (microsFromNumber(n, 'ceil', what) !== v) throw new MoneyError(`${what}: more than 6 decimals: ${String(n)}`);
  return v;
}

export interface RangeOptions {
  /** Inclusive bounds in the param's unit (0.01, not 10000). */
  readonly min?: number;
  readonly max?: number;
  /** Exclusive lower bound. */
  readonly above?: number;
}

function rangeCheck(o: RangeOptions): (v: number) => string | null {
  const lo = o.min === undefined ? null : fromFloat(o.min, 'ceil');
  const hi = o.max === undefined ? null : fromFloat(o.max, 'floor');
  const gt = o.above === undefined ? null : fromFloat(o.above, 'floor');
  return (v) => {
    if (lo !== null && v < lo) return `must be ≥ ${String(o.min)}`;
    if (hi !== null && v > hi) return `must be ≤ ${String(o.max)}`;
    if (gt !== null && v <= gt) return `must be > ${String(o.above)}`;
    return null;
  };
}

/** A price-unit param (0.01 = one cent) in [0, 1] unless narrowed. */
export function priceParam(o: RangeOptions = {}) {
  const r = rangeCheck({ min: 0, max: 1, ...o });
  return decimalParam('price', r).transform((v) => v as Price);
}

/** A share-count param (≥ 0 unless narrowed); more than 2 decimals is an error, not a truncation. */
export function sharesParam(o: RangeOptions = {}) {
  const r = rangeCheck({ min: 0, ...o });
  return decimalParam('shares', (v) => (v % 10_000 !== 0 ? 'must have at most 2 decimals' : r(v))).transform(
    (v) => v as Shares,
  );
}

/** A collateral-amount param (any sign unless narrowed). */
export function microsParam(o: RangeOptions = {}) {
  return decimalParam('amount', rangeCheck(o)).transform((v) => v as Micros);
}

/** A parse function from a zod schema, whose errors are ParseErrors naming path and value. */
export function fromSchema<T extends z.ZodType>(schema: T): (raw: unknown, path: string) => z.output<T> {
  return (raw, path) => {
    const r = schema.safeParse(raw, { reportInput: true });
    if (r.success) return r.data;
    const issues = r.error.issues.map((i) => ({
      path: joinPath(path, i.path),
      text: `${i.message}${'input' in i && i.input !== undefined ? ` (got ${show(i.input)})` : ''}`,
    }));
    const first = issues[0] ?? { path, text: 'invalid' };
    const rest = issues
      .slice(1)
      .map((i) => `; ${i.path}: ${i.text}`)
      .join('');
    throw new ParseError(first.path, `${first.text}${rest}`);
  };
}

function joinPath(base: string, path: readonly PropertyKey[]): string {
  let s = base;
  for (const k of path) s += typeof k === 'number' ? `[${k}]` : s === '' ? String(k) : `.${String(k)}`;
  return s;
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  const j = JSON.stringify(v);
  return j === undefined ? typeof v : j.length > 80 ? `${j.slice(0, 80)}…` : j;
}

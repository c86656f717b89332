// Exact money. Prices, share sizes and collateral are integer millionths held as safe-integer
// numbers (docs/ARCHITECTURE.md §7): both outcome tokens and collateral have 6 decimals, so these values are
// exactly an order's makerAmount/takerAmount. Invariants kept here:
// - nothing enters from a wire string except through the strict parsers below (no Number() on a
//   decimal string, no parseFloat): exponents, >6 decimals, empty strings, NaN and out-of-range
//   values throw a MoneyError naming the value;
// - products (notionals) go through mulMicros, exact via bigint, with a named rounding mode;
// - formatting never prints an exponent.
import { OddsmakerError } from './errors.js';

declare const brand: unique symbol;
type Branded<T, B extends string> = T & { readonly [brand]: B };

/** A price in millionths of a unit of collateral per share: 0.52 → 520000. */
export type Price = Branded<number, 'Price'>;
/** A number of outcome-token shares in millionths: 21.04 → 21040000. */
export type Shares = Branded<number, 'Shares'>;
/** An amount of collateral in millionths (may be negative for PnL). */
export type Micros = Branded<number, 'Micros'>;

export const SCALE = 1_000_000;
export const DECIMALS = 6;
export const ONE = SCALE as Price;

/**
 * Rounding modes, always named at the call site. `floor`/`ceil` go toward −∞/+∞,
 * `trunc` toward zero, `half-even` to the nearest with ties to even.
 * House rule: bids floor, asks ceil, sizes truncate.
 */
export type Rounding = 'floor' | 'ceil' | 'trunc' | 'half-even';

export class MoneyError extends OddsmakerError {
  constructor(message: string) {
    super('MONEY_INVALID', message, false);
  }
}

/** Throws unless v is a safe integer; use wherever a millionths value enters from outside. */
export function assertSafeInteger(v: number, what = 'value'): number {
  if (!Number.isSafeInteger(v)) throw new MoneyError(`${what} is not a safe integer: ${String(v)}`);
  return v;
}

const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Parses a plain decimal string ("0.52", "-3", "12.345678") into integer millionths.
 * Rejects exponents, more than 6 decimals, empty strings, signs other than a leading '-',
 * whitespace, and values whose millionths are not a safe integer.
 */
export function parseDecimalMicros(text: string, what = 'value'): number {
  if (typeof text !== 'string') throw new MoneyError(`${what}: expected a decimal string, got ${describe(text)}`);
  const m = DECIMAL_RE.exec(text);
  if (m === null) throw new MoneyError(`${what}: not a plain decimal: ${JSON.stringify(text)}`);
  const neg = m[1] === '-';
  const intPart = m[2] ?? '0';
  const frac = m[3] ?? '';
  if (frac.length > DECIMALS) throw new MoneyError(`${what}: more than ${DECIMALS} decimals: ${JSON.stringify(text)}`);
  if (intPart.length > 10) throw new MoneyError(`${what}: out of range: ${JSON.stringify(text)}`);
  const v = Number(intPart) * SCALE + Number(frac.padEnd(DECIMALS, '0'));
  if (!Number.isSafeInteger(v)) throw new MoneyError(`${what}: out of range: ${JSON.stringify(text)}`);
  return neg ? (v === 0 ? 0 : -v) : v;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return String(v);
  return v === null ? 'null' : typeof v;
}

/** A price in [0, 1]. */
export function parsePrice(text: string, what = 'price'): Price {
  const v = parseDecimalMicros(text, what);
  if (v < 0 || v > SCALE) throw new MoneyError(`${what}: out of range [0, 1]: ${JSON.stringify(text)}`);
  return v as Price;
}

/** A non-negative share size. */
export function parseShares(text: string, what = 'size'): Shares {
  const v = parseDecimalMicros(text, what);
  if (v < 0) throw new MoneyError(`${what}: negative: ${JSON.stringify(text)}`);
  return v as Shares;
}

/** A signed collateral amount. */
export function parseMicros(text: string, what = 'amount'): Micros {
  return parseDecimalMicros(text, what) as Micros;
}

/** Parses an integer amount already in millionths ("10520000"), as on signed orders. */
export function parseIntegerMicros(text: string, what = 'amount'): number {
  if (typeof text !== 'string' || !/^\d+$/.test(text))
    throw new MoneyError(`${what}: not an unsigned integer: ${describe(text)}`);
  const v = Number(text);
  if (!Number.isSafeInteger(v)) throw new MoneyError(`${what}: out of range: ${JSON.stringify(text)}`);
  return v;
}

/**
 * Converts a JSON number (portfolio resources carry numbers) to millionths with a named rounding.
 * Goes through the shortest decimal representation so 0.1 becomes exactly 100000.
 */
export function microsFromNumber(n: number, rounding: Rounding, what = 'value'): number {
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new MoneyError(`${what}: not a finite number: ${describe(n)}`);
  const scaled = n * SCALE;
  if (!Number.isFinite(scaled) || Math.abs(scaled) > Number.MAX_SAFE_INTEGER)
    throw new MoneyError(`${what}: out of range: ${String(n)}`);
  // Exact when the number has at most 6 decimals in its shortest form.
  const text = numberToPlainString(n);
  const m = DECIMAL_RE.exec(text);
  if (m !== null && (m[3] ?? '').length <= DECIMALS) return parseDecimalMicros(text, what);
  return roundNumber(scaled, rounding);
}

function roundNumber(x: number, rounding: Rounding): number {
  return roundNumberSigned(x, rounding) + 0; // no signed zero: trunc(-0.3) is -0
}

function roundNumberSigned(x: number, rounding: Rounding): number {
  switch (rounding) {
    case 'floor':
      return Math.floor(x);
    case 'ceil':
      return Math.ceil(x);
    case 'trunc':
      return Math.trunc(x);
    case 'half-even': {
      const f = Math.floor(x);
      const d = x - f;
      if (d > 0.5) return f + 1;
      if (d < 0.5) return f;
      return f % 2 === 0 ? f : f + 1;
    }
  }
}

/** Number → plain decimal text without exponent (for numbers arriving from JSON). */
function numberToPlainString(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** Formats millionths as a minimal decimal string: 520000 → "0.52", 21040000 → "21.04", 0 → "0". */
export function formatMicros(v: number): string {
  assertSafeInteger(v, 'formatted value');
  const neg = v < 0;
  const a = Math.abs(v);
  const int = Math.floor(a / SCALE);
  const frac = a - int * SCALE;
  let s = String(int);
  if (frac !== 0) s += '.' + String(frac).padStart(DECIMALS, '0').replace(/0+$/, '');
  return neg ? '-' + s : s;
}

/** Formats millionths with exactly `decimals` decimals (0..6), truncating nothing: throws if it would. */
export function formatFixed(v: number, decimals: number): string {
  const step = 10 ** (DECIMALS - decimals);
  if (v % step !== 0)
    throw new MoneyError(`cannot format ${formatMicros(v)} with ${decimals} decimals without rounding`);
  const s = formatMicros(v);
  if (decimals === 0) return s;
  const [i, f = ''] = s.split('.');
  return `${i}.${f.padEnd(decimals, '0')}`;
}

/** Millionths → float, for strategy signal math only. */
export function toFloat(v: number): number {
  return v / SCALE;
}

/** Float → millionths with a named rounding (strategy signals coming back to money). */
export function fromFloat(x: number, rounding: Rounding): number {
  if (!Number.isFinite(x)) throw new MoneyError(`not a finite number: ${String(x)}`);
  // Kill binary noise (0.1*3 = 0.30000000000000004) before rounding.
  const scaled = Number((x * SCALE).toPrecision(15));
  return assertSafeInteger(roundNumber(scaled, rounding), 'converted value');
}

/** Exact integer division of bigints with a named rounding. */
export function divRound(n: bigint, d: bigint, rounding: Rounding): bigint {
  if (d === 0n) throw new MoneyError('division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates toward zero
  const r = n % d;
  if (r === 0n) return q;
  switch (rounding) {
    case 'trunc':
      return q;
    case 'floor':
      return n < 0n ? q - 1n : q;
    case 'ceil':
      return n > 0n ? q + 1n : q;
    case 'half-even': {
      const twice = 2n * (r < 0n ? -r : r);
      const away = n < 0n ? q - 1n : q + 1n;
      if (twice > d) return away;
      if (twice < d) return q;
      return q % 2n === 0n ? q : away;
    }
  }
}

/** Largest |n| and d divRoundNumber takes (see there). */
const NUMBER_DIV_LIMIT = 2 ** 52;

/**
 * divRound on numbers, for integers |n| ≤ 2^52 and 0 < d ≤ 2^52: the same quotient with no
 * BigInt. Outside that range: undefined (the caller takes divRound).
 */
function divRoundNumber(n: number, d: number, rounding: Rounding): number | undefined {
  if (!(n >= -NUMBER_DIV_LIMIT && n <= NUMBER_DIV_LIMIT && d > 0 && d <= NUMBER_DIV_LIMIT)) return undefined;
  // Exact: a non-integer quotient lies at least 1/d from the next integer, and the float division
  // errs by at most |n / d| · 2^-53 ≤ 1/(2d) when |n| ≤ 2^52, so truncation lands on the true
  // integer part; q × d and the remainder are then exact too (below 2^53).
  const q = Math.trunc(n / d);
  const r = n - q * d;
  // `+ 0`: a -0 quotient (from -0.4 truncated) is 0; money never carries a signed zero.
  if (r === 0) return q + 0;
  switch (rounding) {
    case 'trunc':
      return q + 0;
    case 'floor':
      return (n < 0 ? q - 1 : q) + 0;
    case 'ceil':
      return (n > 0 ? q + 1 : q) + 0;
    case 'half-even': {
      const twice = 2 * (r < 0 ? -r : r);
      const away = n < 0 ? q - 1 : q + 1;
      if (twice > d) return away + 0;
      if (twice < d) return q + 0;
      return (q % 2 === 0 ? q : away) + 0;
    }
  }
}

/**
 * a × b / 10^6 for two millionths values (price × shares → collateral), exact, with a named
 * rounding. The one place products are computed: the product can exceed 2^53.
 */
export function mulMicros(a: number, b: number, rounding: Rounding): number {
  const p = a * b;
  if (Number.isSafeInteger(p)) {
    // Fast path: exact product; division by SCALE rounded exactly.
    // `+ 0` turns a -0 (from -1 × 0) into 0: money never carries a signed zero.
    const q = Math.trunc(p / SCALE) + 0;
    const r = p - q * SCALE;
    if (r === 0) return q;
    return Number(divRound(BigInt(p), BigInt(SCALE), rounding));
  }
  return assertSafeInteger(Number(divRound(BigInt(a) * BigInt(b), BigInt(SCALE), rounding)), 'product');
}

/** a × 10^6 / b (collateral / price → shares), exact, with a named rounding. */
export function divMicros(a: number, b: number, rounding: Rounding): number {
  return assertSafeInteger(Number(divRound(BigInt(a) * BigInt(SCALE), BigInt(b), rounding)), 'quotient');
}

/** Rounds a millionths value to a multiple of `step` (also millionths) with a named rounding. */
export function roundToStep(v: number, step: number, rounding: Rounding): number {
  if (step <= 0 || !Number.isSafeInteger(step)) throw new MoneyError(`invalid step: ${String(step)}`);
  // BigInt(v) throws on a fraction or a non-finite v; the number path must refuse them too.
  const q = Number.isSafeInteger(v) ? divRoundNumber(v, step, rounding) : undefined;
  return (q ?? Number(divRound(BigInt(v), BigInt(step), rounding))) * step;
}

export const price = (v: number): Price => assertSafeInteger(v, 'price') as Price;
export const shares = (v: number): Shares => assertSafeInteger(v, 'shares') as Shares;
export const micros = (v: number): Micros => assertSafeInteger(v, 'amount') as Micros;

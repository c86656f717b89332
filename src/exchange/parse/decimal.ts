// Fast exact reading of the wire's decimal strings into integer millionths, for the hot path
// (a 20-level book carries 80 of them). Invariant: there is still one strict parser. `scanMicros`
// only recognises the common shape `\d{1,10}(\.\d{1,6})?` and returns -1 for anything else; the
// read functions then defer to money.ts's strict parsers, which either accept (e.g. "-0") or throw.
// So the result is by construction what parsePrice/parseShares/parseMicros give, only faster; the
// equivalence is checked with fast-check in test/exchange/parse/decimal.test.ts.
import { ParseError } from '../../core/errors.js';
import {
  MoneyError,
  parseMicros,
  parsePrice,
  parseShares,
  SCALE,
  type Micros,
  type Price,
  type Shares,
} from '../../core/money.js';

// 10^(6 − d) for d fractional digits, d = 0…6.
const FRAC_SCALE = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1] as const;

/**
 * Millionths of a plain unsigned decimal with 1–10 integer digits and 0–6 decimals, or -1 when
 * the text has any other shape or its millionths are not a safe integer.
 */
export function scanMicros(s: string): number {
  const n = s.length;
  if (n === 0 || n > 17) return -1; // 10 digits + '.' + 6 digits
  let i = 0;
  let int = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    int = int * 10 + c;
  }
  if (i === 0 || i > 10) return -1;
  let frac = 0;
  let d = 0;
  if (i < n) {
    if (s.charCodeAt(i) !== 46 /* . */) return -1;
    i++;
    const start = i;
    for (; i < n; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return -1;
      frac = frac * 10 + c;
    }
    d = i - start;
    if (d === 0 || d > 6) return -1;
  }
  const v = int * SCALE + frac * (FRAC_SCALE[d] as number);
  return Number.isSafeInteger(v) ? v : -1;
}

function strictFailure(path: string, err: unknown, what: string): ParseError {
  if (err instanceof MoneyError) {
    // money.ts prefixes its messages with the `what` we passed; the path replaces it.
    const m = err.message.startsWith(`${what}: `) ? err.message.slice(what.length + 2) : err.message;
    return new ParseError(path, m);
  }
  return new ParseError(path, String(err));
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A price string in [0, 1]. */
export function readPrice(v: unknown, path: string): Price {
  if (typeof v !== 'string') throw new ParseError(path, `expected a decimal string, got ${typeName(v)}`);
  const x = scanMicros(v);
  if (x >= 0 && x <= SCALE) return x as Price;
  try {
    return parsePrice(v, 'price');
  } catch (err) {
    throw strictFailure(path, err, 'price');
  }
}

/** A non-negative share-size string. */
export function readShares(v: unknown, path: string): Shares {
  if (typeof v !== 'string') throw new ParseError(path, `expected a decimal string, got ${typeName(v)}`);
  const x = scanMicros(v);
  if (x >= 0) return x as Shares;
  try {
    return parseShares(v, 'size');
  } catch (err) {
    throw strictFailure(path, err, 'size');
  }
}

/** A signed collateral-amount string. */
export function readMicros(v: unknown, path: string): Micros {
  if (typeof v !== 'string') throw new ParseError(path, `expected a decimal string, got ${typeName(v)}`);
  const x = scanMicros(v);
  if (x >= 0) return x as Micros;
  try {
    return parseMicros(v, 'amount');
  } catch (err) {
    throw strictFailure(path, err, 'amount');
  }
}

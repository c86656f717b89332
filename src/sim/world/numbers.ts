// Millionths → JSON numbers for the resources whose amounts are numbers (portfolio, catalog,
// market records). Invariants kept here:
// - the only conversion is an integer divided by 10^6: IEEE division is correctly rounded, so the
//   result is the double nearest the exact decimal, and JSON.stringify prints that decimal back
//   (shortest round-trip form) for every value below 10^15 millionths, far above any real amount;
// - ratios (percentages) are computed exactly on integers with a named rounding before conversion.
import { divRound, SCALE } from '../../core/money.js';
import { InvariantError } from '../../core/errors.js';

/** 520000 → 0.52 (exact decimal as printed by JSON.stringify). */
export function microsToNumber(v: number): number {
  if (!Number.isSafeInteger(v)) throw new InvariantError(`not a safe integer: ${String(v)}`);
  return v / SCALE;
}

/** 100 × num / den in millionths of a percent, rounded half-even; 0 when den is 0. */
export function percentMicros(num: number, den: number): number {
  if (den === 0) return 0;
  return Number(divRound(BigInt(num) * 100n * BigInt(SCALE), BigInt(den), 'half-even'));
}

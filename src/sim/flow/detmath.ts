// Deterministic exp and log for the synthetic flow, built only from +, −, ×, ÷ and comparisons,
// which IEEE 754 rounds exactly, so every value (and therefore every latent path, arrival time and
// order size) is bit-identical across machines and Node versions. Math.exp/Math.log are not: the
// language leaves their last bit to the engine (the same reason src/sim/world/rng.ts avoids them).
// Accuracy is within a few ulps of the true value over the ranges the flow uses; these are
// signal-math floats, never money (money goes back through snapping to the tick).

const LN2_HI = 6.9314718036912381649e-1; // ln 2 with trailing zero bits: k × LN2_HI is exact
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.442695040888963387;
const SQRT2 = 1.4142135623730951;
const SQRT1_2 = 0.7071067811865476;
const TWO64 = 18446744073709551616;

/** 2^k exactly for |k| ≤ 1023, by squaring (every intermediate is a power of two: no rounding). */
function pow2(k: number): number {
  let e = k < 0 ? -k : k;
  let s = 1;
  let b = 2;
  while (e > 0) {
    if ((e & 1) === 1) s *= b;
    e >>= 1;
    if (e > 0) b *= b;
  }
  return k < 0 ? 1 / s : s;
}

/** e^x. */
export function dexp(x: number): number {
  if (x !== x) return NaN;
  if (x > 709.78) return Infinity;
  if (x < -708) return 0; // below the normal range; the flow never needs subnormal results
  // x = k ln2 + r with |r| ≤ ln2 / 2 (Cody–Waite: the high part of k ln2 is exact).
  const k = Math.round(x * INV_LN2);
  const r = x - k * LN2_HI - k * LN2_LO;
  // Taylor series of e^r to degree 14 (|r| ≤ 0.347: the first dropped term is < 1e-18).
  let p = 1 / 87178291200;
  p = p * r + 1 / 6227020800;
  p = p * r + 1 / 479001600;
  p = p * r + 1 / 39916800;
  p = p * r + 1 / 3628800;
  p = p * r + 1 / 362880;
  p = p * r + 1 / 40320;
  p = p * r + 1 / 5040;
  p = p * r + 1 / 720;
  p = p * r + 1 / 120;
  p = p * r + 1 / 24;
  p = p * r + 1 / 6;
  p = p * r + 0.5;
  p = p * r + 1;
  p = p * r + 1;
  if (k === 0) return p;
  // Split large scalings so that 2^k itself stays in range.
  if (k > 1000) return p * pow2(1000) * pow2(k - 1000);
  if (k < -1000) return p * pow2(-1000) * pow2(k + 1000);
  return p * pow2(k);
}

/** Natural logarithm; NaN for x < 0 or NaN, −∞ for 0. */
export function dlog(x: number): number {
  if (x !== x || x < 0) return NaN;
  if (x === 0) return -Infinity;
  if (x === Infinity) return Infinity;
  // x = m × 2^e with m in [√½, √2): scalings by powers of two are exact.
  let m = x;
  let e = 0;
  while (m >= TWO64) {
    m /= TWO64;
    e += 64;
  }
  while (m < 1 / TWO64) {
    m *= TWO64;
    e -= 64;
  }
  while (m >= SQRT2) {
    m /= 2;
    e += 1;
  }
  while (m < SQRT1_2) {
    m *= 2;
    e -= 1;
  }
  // ln m = 2 atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716, series in z = s² to z^12.
  const s = (m - 1) / (m + 1);
  const z = s * s;
  let q = 1 / 25;
  q = q * z + 1 / 23;
  q = q * z + 1 / 21;
  q = q * z + 1 / 19;
  q = q * z + 1 / 17;
  q = q * z + 1 / 15;
  q = q * z + 1 / 13;
  q = q * z + 1 / 11;
  q = q * z + 1 / 9;
  q = q * z + 1 / 7;
  q = q * z + 1 / 5;
  q = q * z + 1 / 3;
  const lnm = 2 * s + 2 * s * z * q;
  return e * LN2_HI + (lnm + e * LN2_LO);
}

/** ln(p / (1 − p)) for p in (0, 1). */
export function logit(p: number): number {
  return dlog(p / (1 - p));
}

/** 1 / (1 + e^−x), in (0, 1) for finite x of moderate size. */
export function sigmoid(x: number): number {
  return 1 / (1 + dexp(-x));
}

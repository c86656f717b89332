// The one fee function: what a fill costs its payer in collateral, given the market's fee model as
// data. The ledger's fill recording (src/execution/fill-tracker.ts) and the simulator's matching
// engine (src/sim/engine, every dialect, paper mode and backtests) both charge through `fillFee`,
// so our books and the venue agree to the millionth (src/sim/engine/fees.ts keeps only the engine's
// grid and the reservation built on `reserveFee`). Nothing here knows a dialect: a model says
// its curve and its rates, and it is built from a market's fields by the schedule a dialect names
// (Dialect.fees → feeModelOf: the public exchange's `fd`, or the interface's base fees) in the
// universe (marketdata/universe.ts), the simulator's venue and the paper venue.
//
// The two curves (p = the fill price in the payer's own token terms, C = shares filled):
// - 'variance-power', the public exchange today (CLOB v2): fee = C × r × (p(1 − p))^e, with r and
//   e the market's fee details `fd.r` and `fd.e` of GET /clob-markets/{condition_id}. Source: the
//   official clients, Polymarket/clob-client-v2 src/fees/index.ts @ c9652cca224c84c2ab3c93efa58ad5e3a3ddbb16
//   (adjustBuyAmountForFees: platformFeeRate = feeRate × (price × (1 − price)) ** feeExponent,
//   platformFee = amount / price × platformFeeRate, i.e. shares × rate × curve), fed by
//   src/client.ts getClobMarketInfo (feeInfos[token] = {rate: fd?.r ?? 0, exponent: fd?.e ?? 0});
//   the same in Polymarket/rs-clob-client-v2 src/clob/fees.rs @ 3c8dac5599cda9c016f08940e269179e04410a3a
//   and Polymarket/py-clob-client-v2 tests/test_fee_calculations.py @ 7e943793a7cabf1f6d4553a3ecb5edb68c58fafb
//   (worked examples: r 0.25, e 2, 100 shares at 0.5 → 1.5625; r 0.03, e 1, $100 at 0.3 → 2.10).
//   Only takers pay: the official clients compute the fee for taker (market) orders only, and the
//   exchange's own market records say so (Gamma `feeSchedule.takerOnly: true` beside `fd.to`,
//   test/fixtures/real/gamma_market_btc_updown_5m_2026-08-22_subset.json); nautilus_trader's adapter
//   charges makers zero citing docs.polymarket.com/trading/fees (crates/adapters/polymarket/src/
//   execution/parse.rs @ e01c61ffd53387fa7dd769327d04f5f8f03dfdc3, build_maker_fill_report).
// - 'min-price', the interface's markets (and the public exchange's v1 contracts): fee =
//   C × bps / 10⁴ × min(p, 1 − p), bps the market's maker_base_fee / taker_base_fee.
// Both curves are symmetric (a fill costs the same in YES or NO terms) and never decrease from
// p = 0 to p = 0.5, which is what reserveFee relies on.
//
// Exact integer money, one named rounding: the fee is computed in bigint from integer millionths
// (price, size) and integer rates (units of 10⁻¹², RATE_SCALE) and rounded once, `floor`, to the
// collateral millionth (the on-chain unit: USDC_DECIMALS = 6 in rs-clob-client-v2 src/clob/
// utilities.rs). The official clients do not round the fee (floats / Decimal); rounding down is
// ours: the sum of per-fill fees then never exceeds the fee reserved up front for a whole order
// (Σ⌊xᵢ⌋ ≤ ⌊Σxᵢ⌋), which the engine's reservations rely on.
// Invariants: a model is validated where it is built (checkFeeModel); fillFee and reserveFee are
// total on valid inputs and throw InvariantError on misuse (negative size, price outside [0, 1]).
import { InvariantError } from './errors.js';
import { divRound, SCALE, type Micros } from './money.js';

/** Rates are integers in units of 10⁻¹²: 1 bps = 10⁸; the rate 0.07 = 7 × 10¹⁰; 1 = RATE_SCALE. */
export const RATE_SCALE = 1_000_000_000_000;
/** One basis point in rate units. */
export const BPS = 100_000_000;
/** Largest exponent a model may carry (the public exchange uses 1 and 2). */
export const MAX_FEE_EXPONENT = 8;

export type FeeCurve =
  /** min(p, 1 − p). */
  | { readonly kind: 'min-price' }
  /** (p (1 − p))^exponent. */
  | { readonly kind: 'variance-power'; readonly exponent: number };

/** How a market charges fees: one curve, one rate per role (units of 10⁻¹², RATE_SCALE). */
export interface FeeModel {
  readonly curve: FeeCurve;
  readonly makerRate: number;
  readonly takerRate: number;
}

export type FeeRole = 'maker' | 'taker';

const HALF = SCALE / 2;
const B_SCALE = BigInt(SCALE);
const B_RATE = BigInt(RATE_SCALE);
const FAST_DIV = 10_000_000_000; // 10⁴ (bps) × 10⁶ (millionths of the product)

/** A model that charges nothing. */
export const NO_FEES: FeeModel = Object.freeze({
  curve: Object.freeze({ kind: 'min-price' as const }),
  makerRate: 0,
  takerRate: 0,
});

const MIN_PRICE: FeeCurve = Object.freeze({ kind: 'min-price' as const });
/** Base-fee models by maker·10001 + taker bps: a model is frozen, so one object serves every caller. */
const baseModels = new Map<number, FeeModel>();

function checkBps(b: number): void {
  if (!Number.isSafeInteger(b) || b < 0 || b > 10_000)
    throw new InvariantError(`fee bps must be an integer in [0, 10000], got ${String(b)}`);
}

/** The interface's base fees: bps × min(p, 1 − p) × size, per role. */
export function baseFeeModel(makerBps: number, takerBps: number): FeeModel {
  checkBps(makerBps);
  checkBps(takerBps);
  const key = makerBps * 10_001 + takerBps;
  let m = baseModels.get(key);
  if (m === undefined) {
    m = Object.freeze({ curve: MIN_PRICE, makerRate: makerBps * BPS, takerRate: takerBps * BPS });
    baseModels.set(key, m);
  }
  return m;
}

/** The fee details a market carries (`fd` of GET /clob-markets; ClobMarketSettings.feeDetails). */
export interface FeeDetails {
  readonly r: number | null;
  readonly e: number | null;
  readonly to?: boolean;
}

/**
 * The public exchange's model from a market's `fd`: takers pay r × (p(1 − p))^e per share, makers
 * nothing. An absent `fd`, `r` or `e` is 0, as the official client reads them (clob-client-v2
 * getClobMarketInfo: `fd?.r ?? 0`, `fd?.e ?? 0`). Null when the details cannot be charged exactly:
 * a rate outside [0, 1] or with more than 12 decimals, an exponent that is not a whole number in
 * [0, MAX_FEE_EXPONENT] (the caller reports the fee as unknown).
 */
export function feeModelFromDetails(fd: FeeDetails | null | undefined): FeeModel | null {
  const rate = exactRate(fd?.r ?? 0);
  const e = fd?.e ?? 0;
  if (rate === null || !Number.isSafeInteger(e) || e < 0 || e > MAX_FEE_EXPONENT) return null;
  return Object.freeze({
    curve: Object.freeze({ kind: 'variance-power' as const, exponent: e }),
    makerRate: 0,
    takerRate: rate,
  });
}

/** Which of a market's fee fields the venue charges by (a dialect's `fees`). */
export type FeeSchedule = 'base-bps' | 'fee-details';

/** The model a market's settings give under `schedule`; null when it cannot be known exactly. */
export function feeModelOf(
  schedule: FeeSchedule,
  s: {
    readonly makerBaseFeeBps: number | null;
    readonly takerBaseFeeBps: number | null;
    readonly feeDetails?: FeeDetails | null;
  },
): FeeModel | null {
  if (schedule === 'fee-details') return feeModelFromDetails(s.feeDetails ?? null);
  const m = s.makerBaseFeeBps ?? 0;
  const t = s.takerBaseFeeBps ?? 0;
  const ok = (b: number): boolean => Number.isSafeInteger(b) && b >= 0 && b <= 10_000;
  return ok(m) && ok(t) ? baseFeeModel(m, t) : null;
}

/** Throws InvariantError unless `m` is a model fillFee can charge. */
export function checkFeeModel(m: FeeModel): FeeModel {
  for (const r of [m.makerRate, m.takerRate]) {
    if (!Number.isSafeInteger(r) || r < 0 || r > RATE_SCALE)
      throw new InvariantError(`fee rate must be an integer in [0, ${RATE_SCALE}] (units of 1e-12), got ${String(r)}`);
  }
  if (m.curve.kind === 'variance-power') {
    const e = m.curve.exponent;
    if (!Number.isSafeInteger(e) || e < 0 || e > MAX_FEE_EXPONENT)
      throw new InvariantError(`fee exponent must be an integer in [0, ${MAX_FEE_EXPONENT}], got ${String(e)}`);
  } else if (m.curve.kind !== 'min-price') {
    throw new InvariantError(`unknown fee curve ${JSON.stringify(m.curve)}`);
  }
  return m;
}

/**
 * THE fee of a fill: `size` shares (millionths) at `price` (millionths, the payer's own token
 * terms) paid by the `role` side, in collateral millionths, rounded down (see the header).
 */
export function fillFee(model: FeeModel, role: FeeRole, price: number, size: number): Micros {
  return feeAt(model.curve, role === 'maker' ? model.makerRate : model.takerRate, price, size);
}

/**
 * The most any fill of a BUY resting at `limit` can cost in fees per `size` shares, whatever its
 * role and fill price p ≤ limit: the larger rate at min(limit, 0.5), where both curves peak over
 * [0, limit]. So reserveFee(L, r) − reserveFee(L, r − f) ≥ fillFee(…, p, f) for every fill of f at
 * p ≤ L (⌊a + b⌋ ≥ ⌊a⌋ + ⌊b⌋): a reservation made with it always covers the fees charged.
 */
export function reserveFee(model: FeeModel, limit: number, size: number): Micros {
  const rate = model.makerRate > model.takerRate ? model.makerRate : model.takerRate;
  return feeAt(model.curve, rate, limit < HALF ? limit : HALF, size);
}

/** Whether the model never charges anything. */
export function isFree(model: FeeModel): boolean {
  return model.makerRate === 0 && model.takerRate === 0;
}

function feeAt(curve: FeeCurve, rate: number, price: number, size: number): Micros {
  if (!Number.isSafeInteger(price) || price < 0 || price > SCALE)
    throw new InvariantError(`fee price outside [0, 1]: ${String(price)}`);
  if (!Number.isSafeInteger(size) || size < 0)
    throw new InvariantError(`fee size must be a non-negative integer, got ${String(size)}`);
  if (rate === 0 || size === 0) return 0 as Micros;
  if (curve.kind === 'min-price') {
    const m = price < HALF ? price : SCALE - price;
    // Fast path for whole bps (every interface market): ⌊bps × m × size / 10¹⁰⌋ in safe integers.
    if (rate % BPS === 0) {
      const t = m * size * (rate / BPS);
      if (Number.isSafeInteger(t)) return floorDiv(t, FAST_DIV) as Micros;
    }
    return Number(divRound(BigInt(rate) * BigInt(m) * BigInt(size), B_RATE * B_SCALE, 'floor')) as Micros;
  }
  // C × r × (p(1 − p))^e: p(1 − p) in units of 10⁻¹² (p and 1 − p in millionths).
  const e = BigInt(curve.exponent);
  const v = BigInt(price) * BigInt(SCALE - price);
  const num = BigInt(size) * BigInt(rate) * v ** e;
  const den = B_RATE * B_RATE ** e;
  return Number(divRound(num, den, 'floor')) as Micros;
}

/** ⌊x / d⌋ for a non-negative safe integer x and positive d (exact: no float rounding at the edge). */
function floorDiv(x: number, d: number): number {
  let q = Math.trunc(x / d);
  const r = x - q * d;
  if (r < 0) q -= 1;
  else if (r >= d) q += 1;
  return q;
}

/**
 * A wire rate (a JSON number such as 0.07) as an exact integer in units of 10⁻¹², from its
 * shortest decimal form; null when it is negative, above 1, or needs more than 12 decimals.
 */
export function exactRate(r: number): number | null {
  if (!Number.isFinite(r) || r < 0 || r > 1) return null;
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(r));
  if (m === null) return null;
  const digits = (m[1] ?? '') + (m[2] ?? '');
  const scale = (m[2] ?? '').length - Number(m[3] ?? 0); // value = digits × 10^-scale
  if (scale > 12) {
    // Only zeros may be cut.
    const cut = scale - 12;
    if (!/^0*$/.test(digits.slice(Math.max(0, digits.length - cut)))) return null;
    return Number(BigInt(digits) / 10n ** BigInt(cut));
  }
  return Number(BigInt(digits) * 10n ** BigInt(12 - scale));
}

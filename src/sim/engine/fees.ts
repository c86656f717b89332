// Money arithmetic of the engine: notionals and what a resting BUY must keep reserved. No fee
// formula lives here: a fee is src/core/fees.ts `fillFee` (the engine charges every fill by it),
// and a reservation's fee part is that module's `reserveFee`; this file is only the engine's grid.
//
// The grid: every engine price is a multiple of 0.0001 (100 millionths; every tick of
// docs/protocol.md §3 is a multiple of it) and every size a multiple of 0.01 share (10,000
// millionths; the engine refuses other sizes). So price × size is always an exact integer number
// of millionths; `notional` still goes through mulMicros, naming `floor`, which is then exact.
//
// Fees are charged in collateral by the one fee function, src/core/fees.ts `fillFee`, on the
// market's fee model (MarketConfig.fees; default: its maker/taker base bps × min(p, 1 − p) × size,
// the interface's). p is the fill price in the payer's own token terms (both curves are symmetric,
// so a fill costs the same in YES or NO terms). A buyer pays notional + fee; a seller receives
// notional − fee (never negative: every rate is ≤ 1 and both curves are ≤ p). Fees round DOWN to
// the millionth: the sum of per-fill fees then never exceeds the fee reserved up front for the
// whole order (Σ⌊xᵢ⌋ ≤ ⌊Σxᵢ⌋), so reservations always cover; the venue gives up < 1 millionth a fill.
//
// A BUY resting with limit L and remaining size r keeps reserved exactly
//   need(L, r) = notional(L, r) + reserveFee(model, L, r)
// (core/fees.ts: the larger rate at min(L, 0.5)): any fill of f at p ≤ L costs
// notional(p, f) + fee(p, f) ≤ need(L, r) − need(L, r − f), because both curves peak over [0, L]
// at min(L, 0.5) and ⌊a + b⌋ ≥ ⌊a⌋ + ⌊b⌋.
import { reserveFee, type FeeModel } from '../../core/fees.js';
import { mulMicros } from '../../core/money.js';

export const LOT = 10_000; // 0.01 share: the size grid
export const PRICE_GRID = 100; // 0.0001: the finest tick
export const MAX_BPS = 10_000;

/** price × size in collateral millionths (exact on the engine grid). */
export function notional(price: number, size: number): number {
  return mulMicros(price, size, 'floor');
}

/** Collateral a BUY with limit `limit` and remaining `size` keeps reserved on the market's fee model (header). */
export function buyNeed(limit: number, size: number, fees: FeeModel): number {
  return notional(limit, size) + reserveFee(fees, limit, size);
}

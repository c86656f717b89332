// Ticks of docs/protocol.md §3 and snapping to them. A tick is held as Price millionths; its decimals
// bound how a price is printed and how an order's notional is rounded.
import { MoneyError, roundToStep, SCALE, type Price, type Rounding } from './money.js';

/** Every tick in use, in millionths: 0.1, 0.01, 0.005, 0.0025, 0.001, 0.0001. */
export const TICKS: readonly Price[] = [100_000, 10_000, 5_000, 2_500, 1_000, 100].map((t) => t as Price);

const DECIMALS_BY_TICK = new Map<number, number>([
  [100_000, 1],
  [10_000, 2],
  [5_000, 3],
  [2_500, 4],
  [1_000, 3],
  [100, 4],
]);

export function isKnownTick(tick: number): tick is Price {
  return DECIMALS_BY_TICK.has(tick);
}

export function assertTick(tick: number): Price {
  if (!isKnownTick(tick)) throw new MoneyError(`unknown tick size: ${tick / SCALE}`);
  return tick;
}

/** Decimals of a tick: 0.01 → 2, 0.005 → 3, 0.0025 → 4. */
export function tickDecimals(tick: Price): number {
  const d = DECIMALS_BY_TICK.get(tick);
  if (d === undefined) throw new MoneyError(`unknown tick size: ${tick / SCALE}`);
  return d;
}

export function isOnTick(p: number, tick: Price): boolean {
  return p % tick === 0;
}

/** Snaps a price to the tick with a named rounding (bids floor, asks ceil). */
export function snapToTick(p: number, tick: Price, rounding: Rounding): Price {
  return roundToStep(p, tick, rounding) as Price;
}

/** True when p is on tick and in [tick, 1 − tick], the range an order price must lie in. */
export function isValidOrderPrice(p: number, tick: Price): boolean {
  return isOnTick(p, tick) && p >= tick && p <= SCALE - tick;
}

/** Clamps to [tick, 1 − tick] after snapping. */
export function clampToOrderRange(p: number, tick: Price, rounding: Rounding): Price {
  const s = snapToTick(p, tick, rounding);
  return Math.min(Math.max(s, tick), SCALE - tick) as Price;
}

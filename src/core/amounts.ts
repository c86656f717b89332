// Order amounts per docs/protocol.md §3, as exact integers. BUY: takerAmount = shares, makerAmount =
// shares × price; SELL: makerAmount = shares, takerAmount = shares × price. Sizes are truncated to
// 2 decimals, the price must already be on the tick, and the notional is rounded down to at most
// (tick decimals + 2) decimals. With a 2-decimal size and an on-tick price the notional is exact,
// so the amounts imply exactly the price.
import { InvariantError } from './errors.js';
import { mulMicros, roundToStep, SCALE, type Price, type Shares } from './money.js';
import type { Side } from './order.js';
import { isValidOrderPrice, tickDecimals } from './tick.js';

export interface OrderAmounts {
  /** Size actually ordered after truncation to 2 decimals (millionths). */
  readonly size: Shares;
  readonly makerAmount: number;
  readonly takerAmount: number;
}

const SIZE_STEP = 10_000; // 0.01 share in millionths

/** Truncates a size to the 2 decimals an order can carry. */
export function truncateSize(size: number): Shares {
  return roundToStep(size, SIZE_STEP, 'trunc') as Shares;
}

export function orderAmounts(side: Side, price: Price, size: Shares, tick: Price): OrderAmounts {
  if (!isValidOrderPrice(price, tick)) {
    throw new InvariantError(`price ${price / SCALE} is not on tick ${tick / SCALE} inside [tick, 1 - tick]`);
  }
  const s = truncateSize(size);
  const notionalStep = 10 ** (6 - Math.min(6, tickDecimals(tick) + 2));
  const notional = roundToStep(mulMicros(price, s, 'floor'), notionalStep, 'floor');
  return side === 'BUY'
    ? { size: s, makerAmount: notional, takerAmount: s }
    : { size: s, makerAmount: s, takerAmount: notional };
}

/** The price implied by a signed order's amounts, exact when it is representable in millionths. */
export function impliedPrice(side: Side, makerAmount: number, takerAmount: number): { price: number; exact: boolean } {
  const [collateral, sharesAmt] = side === 'BUY' ? [makerAmount, takerAmount] : [takerAmount, makerAmount];
  if (sharesAmt === 0) return { price: 0, exact: false };
  const num = BigInt(collateral) * BigInt(SCALE);
  const den = BigInt(sharesAmt);
  return { price: Number(num / den), exact: num % den === 0n };
}

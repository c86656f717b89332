// Orders given as signed amounts (makerAmount/takerAmount, docs/protocol.md §3) → the engine's price and
// size. BUY: size = takerAmount, price = makerAmount / takerAmount; SELL: size = makerAmount, price =
// takerAmount / makerAmount. The price must come out an exact number of millionths; otherwise the
// amounts name no price the engine could hold and the result is null (the caller answers
// `Invalid order payload`). Tick and size rules are then the engine's own checks.
import { impliedPrice } from '../../core/amounts.js';
import type { Price, Shares } from '../../core/money.js';
import type { Side } from '../../core/order.js';

export function priceSizeFromAmounts(
  side: Side,
  makerAmount: number,
  takerAmount: number,
): { price: Price; size: Shares } | null {
  if (!Number.isSafeInteger(makerAmount) || !Number.isSafeInteger(takerAmount) || makerAmount <= 0 || takerAmount <= 0)
    return null;
  const { price, exact } = impliedPrice(side, makerAmount, takerAmount);
  if (!exact) return null;
  return { price: price as Price, size: (side === 'BUY' ? takerAmount : makerAmount) as Shares };
}

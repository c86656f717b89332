// The strategy SDK: the only module a strategy imports (docs/ARCHITECTURE.md §2). It re-exports the contract
// (define.ts), the context (context.ts), the param schemas (params.ts) and the few money, tick and
// book helpers a strategy needs, and adds the helpers that bring float signal math back to money
// through one snap to the tick. Invariants of those helpers: bids round down and asks up to the
// tick, sizes truncate to 0.01 share, and a price outside [tick, 1 − tick] comes back as null,
// never clamped. The generic pieces strategies share live in their own files and are re-exported
// here: token pairs as one book (pair.ts), the guards (guards.ts), EWMA volatility (volatility.ts),
// the liquidity-reward score (rewards-score.ts), refresh tolerance and order age (sticky.ts) and
// parameter tables (param-docs.ts).
import { truncateSize } from '../core/amounts.js';
import { mid as bookMid } from '../core/book.js';
import { fromFloat, SCALE, type Price, type Shares } from '../core/money.js';
import { snapToTick } from '../core/tick.js';
import type { MarketView, StrategyInput, TokenView } from './context.js';

// ---------------------------------------------------------------------------------------------
// Re-exports: what a strategy may use.

export { z } from 'zod';
export type { Side, LiveOrder, LiveOrderState } from '../core/order.js';
export type { Book, Level, MidSample } from '../core/book.js';
export type { Rewards } from '../core/market.js';
export type { Price, Shares, Micros, Rounding } from '../core/money.js';
export type { DesiredQuote, PlacementRejection } from '../core/quote.js';
export { settingsFromMarket, type MarketSettings } from '../core/market-settings.js';
export { bestBid, bestAsk, mid, spread, isCrossed, depthWithin } from '../core/book.js';
export { SCALE, toFloat, fromFloat, mulMicros, divMicros, formatMicros, price, shares, micros } from '../core/money.js';
export { snapToTick, isOnTick, isValidOrderPrice, clampToOrderRange, tickDecimals } from '../core/tick.js';
export { truncateSize } from '../core/amounts.js';
export { InvariantError, ParseError } from '../core/errors.js';
export * from './context.js';
export * from './define.js';
export * from './params.js';
export * from './pair.js';
export * from './guards.js';
export * from './volatility.js';
export * from './rewards-score.js';
export * from './sticky.js';
export * from './param-docs.js';
export { remainingSize } from '../core/order.js';

/** A bid price from a float: rounded down to the tick; null below the tick (not quotable). */
export function bidFromFloat(x: number, tick: Price): Price | null {
  return bidPrice(fromFloat(x, 'floor'), tick);
}

/** An ask price from a float: rounded up to the tick; null above 1 − tick (not quotable). */
export function askFromFloat(x: number, tick: Price): Price | null {
  return askPrice(fromFloat(x, 'ceil'), tick);
}

/** A bid at millionths p: floored to the tick; null when below the tick. */
export function bidPrice(p: number, tick: Price): Price | null {
  const s = snapToTick(p, tick, 'floor');
  return s >= tick && s <= SCALE - tick ? s : null;
}

/** An ask at millionths p: ceiled to the tick; null when above 1 − tick. */
export function askPrice(p: number, tick: Price): Price | null {
  const s = snapToTick(p, tick, 'ceil');
  return s >= tick && s <= SCALE - tick ? s : null;
}

/** A share count from a float, truncated to the 0.01 an order can carry. */
export function sharesFromFloat(x: number): Shares {
  return truncateSize(fromFloat(x, 'trunc'));
}

/** The token's mid, or its book's (half-even) when the runtime gave none. */
export function midOf(token: TokenView): Price | null {
  if (token.mid !== null) return token.mid;
  return token.book === null ? null : bookMid(token.book, 'half-even');
}

/** The current tick of a token: its book's, else the market's. */
export function tickOf(market: MarketView, token: TokenView): Price {
  return token.book?.tickSize ?? market.settings.tickSize;
}

/** The current minimum order size of a token: its book's, else the market's. */
export function minSizeOf(market: MarketView, token: TokenView): Shares {
  return token.book?.minOrderSize ?? market.settings.minOrderSize;
}

/** The token with this id in the context, with its market. */
export function findToken(ctx: StrategyInput, tokenId: string): { market: MarketView; token: TokenView } | null {
  for (const market of ctx.markets)
    for (const token of market.tokens) if (token.tokenId === tokenId) return { market, token };
  return null;
}

/** The complement of a token when it is in the context. */
export function complementOf(ctx: StrategyInput, token: TokenView): TokenView | null {
  return token.complementTokenId === null ? null : (findToken(ctx, token.complementTokenId)?.token ?? null);
}

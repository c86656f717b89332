// Fill models: how a new external book of a market turns into fills of our resting orders. The
// venue hands each fed book to its model together with a desk (external.ts) that is the only way
// the model touches the engine, so a model is a small pure policy and a new one (the backtester's
// `queue` model, which lets our order fill only once the size queued ahead of it at its price has
// traded) slots in without changing the venue.
//
// The `cross` model (shipped here): the external book is the whole truth about other traders. On
// every update the external liquidity is replaced by the new book's levels; a level that reaches
// one of our resting orders' prices (an ask at or below our bid, a bid at or above our ask) trades
// with it at once, at OUR price, as maker (the engine's rule: the incoming order takes at the
// resting price). Our order has no queue position: at its price it is filled before any external
// order there, which is optimistic for an order that joined an existing level and exact for one
// that improved the book. Taking liquidity is the engine's ordinary matching against the
// external levels (taker, at their prices).
//
// Trades (recorded public trades, the backtester's TRADE events; `onTrade`, optional): a trade of
// size s at YES price p whose taker SOLD hits bids: under `cross` our resting bids priced ≥ p are
// filled at OUR prices, best first, up to s in total (one synthetic external ask at p of size s,
// withdrawn afterwards, so a trade's size is used once); a taker BUY lifts our asks priced ≤ p
// symmetrically. The external book is left exactly as it was (desk.sweep). Under `cross` a trade
// at or through our price fills us with no queue ahead (optimistic, as the book rule above).
import type { Level } from '../../core/book.js';
import type { Price, Shares } from '../../core/money.js';
import type { ExternalBook } from './external-book.js';

/** What a fill model may do to the engine (external account only; our orders are never touched). */
export interface ExternalDesk {
  /**
   * Replaces the external account's resting orders of a market by these YES-terms levels (best
   * first). Levels crossing our resting orders trade with them on arrival (maker fills for us).
   */
  replace(conditionId: string, bids: readonly Level[], asks: readonly Level[]): void;
  /**
   * Meets our resting orders with these synthetic external YES-terms orders (asks meet our bids,
   * best first; bids meet our asks), withdraws what of them did not trade, and leaves the external
   * liquidity that was resting exactly as it was (same prices, remaining sizes).
   */
  sweep(conditionId: string, bids: readonly Level[], asks: readonly Level[]): void;
}

/** A public trade of a market in YES terms (a NO trade at q is a YES trade at 1 − q, side flipped). */
export interface ExternalTrade {
  readonly conditionId: string;
  /** Exchange time of the trade (epoch ms). */
  readonly timestampMs: number;
  readonly price: Price;
  readonly size: Shares;
  /** The taker's side: SELL hit bids (ours at ≥ price), BUY lifted asks (ours at ≤ price). */
  readonly side: 'BUY' | 'SELL';
}

export type FillModelName = 'cross';

export interface FillModel {
  /** A built-in model's FillModelName, or another model's own name (the backtester's `queue`). */
  readonly name: string;
  /** Applies one fed book of a market; `previous` is the book fed before it (null the first time). */
  onBook(desk: ExternalDesk, book: ExternalBook, previous: ExternalBook | null): void;
  /** Applies one public trade of a market; `book` is the last book fed (null before the first). */
  onTrade?(desk: ExternalDesk, trade: ExternalTrade, book: ExternalBook | null): void;
}

/** `cross` on a trade: one synthetic order at the trade's price and size against our side. */
export function crossTrade(desk: ExternalDesk, t: ExternalTrade): void {
  const level = [{ price: t.price, size: t.size }];
  if (t.side === 'SELL') desk.sweep(t.conditionId, [], level);
  else desk.sweep(t.conditionId, level, []);
}

export const CROSS_FILL_MODEL: FillModel = Object.freeze({
  name: 'cross' as const,
  onBook(desk: ExternalDesk, book: ExternalBook): void {
    desk.replace(book.conditionId, book.bids, book.asks);
  },
  onTrade(desk: ExternalDesk, trade: ExternalTrade): void {
    crossTrade(desk, trade);
  },
});

export const FILL_MODELS: Readonly<Record<FillModelName, FillModel>> = Object.freeze({ cross: CROSS_FILL_MODEL });

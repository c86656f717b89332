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
import type { Level } from '../../core/book.js';
import type { ExternalBook } from './external-book.js';

/** What a fill model may do to the engine (external account only; our orders are never touched). */
export interface ExternalDesk {
  /**
   * Replaces the external account's resting orders of a market by these YES-terms levels (best
   * first). Levels crossing our resting orders trade with them on arrival (maker fills for us).
   */
  replace(conditionId: string, bids: readonly Level[], asks: readonly Level[]): void;
}

export type FillModelName = 'cross';

export interface FillModel {
  /** A built-in model's FillModelName, or another model's own name (the backtester's `queue`). */
  readonly name: string;
  /** Applies one fed book of a market; `previous` is the book fed before it (null the first time). */
  onBook(desk: ExternalDesk, book: ExternalBook, previous: ExternalBook | null): void;
}

export const CROSS_FILL_MODEL: FillModel = Object.freeze({
  name: 'cross' as const,
  onBook(desk: ExternalDesk, book: ExternalBook): void {
    desk.replace(book.conditionId, book.bids, book.asks);
  },
});

export const FILL_MODELS: Readonly<Record<FillModelName, FillModel>> = Object.freeze({ cross: CROSS_FILL_MODEL });

// What the replay needs of its venue, and the paper venue seen through it. The replay feeds the
// venue every recorded book (or delta), trade and resolution at its local time, and its executor
// places, cancels and reads our orders there (executor.ts). The delta venue
// (src/backtest/venue/) takes recorded deltas as they are; the paper venue (src/sim/paper) takes
// whole books only, so it gets the token's book after each delta.
import type { Book } from '../../core/book.js';
import type { PaperFill, PaperMarket, PaperVenue, PublicTrade } from '../../sim/paper/index.js';
import type { ReplayVenue } from './executor.js';

export interface ReplayVenuePort extends ReplayVenue {
  hasMarket(conditionId: string): boolean;
  addMarket(m: PaperMarket): void;
  /** A token's whole book. */
  applyBook(book: Book): unknown;
  /** A token's changed levels (its own terms; size 0 removes the level); absent: whole books only. */
  applyDelta?(
    tokenId: string,
    n: number,
    prices: ArrayLike<number>,
    sizes: ArrayLike<number>,
    isAsk: ArrayLike<number>,
    timestampMs: number,
  ): unknown;
  applyTrade(t: PublicTrade): unknown;
  /** Our resting orders of a market (their count is reported with its resolution). */
  openOrderCount(conditionId: string): number;
  /** The market resolved: our orders of it are cancelled, new ones refused. */
  resolveMarket(conditionId: string, winnerTokenId: string): void;
  onFill(listener: (f: PaperFill) => void): unknown;
  stats(): { readonly booksFed: number; readonly fills: number };
}

/** The paper venue as a replay venue (whole books; resolution through its matching engine). */
export function paperVenuePort(venue: PaperVenue): ReplayVenuePort {
  return {
    place: (o) => venue.place(o),
    cancel: (id) => venue.cancel(id),
    order: (id) => venue.order(id),
    hasMarket: (c) => venue.hasMarket(c),
    addMarket: (m) => venue.addMarket(m),
    applyBook: (b) => venue.applyBook(b),
    applyTrade: (t) => venue.applyTrade(t),
    openOrderCount: (c) => venue.openOrders().filter((o) => o.market === c).length,
    resolveMarket: (c, w) => venue.engine.resolve(c, w),
    onFill: (l) => venue.onFill(l),
    stats: () => venue.stats(),
  };
}

// What the replay needs of its venue: it feeds the venue every recorded book (or delta), trade
// and resolution at its local time, and its executor places, cancels and reads our orders there
// (executor.ts). The delta venue (src/backtest/venue/) has it; a venue that takes whole books only
// (no applyDelta) gets the token's book after each delta.
import type { Book } from '../../core/book.js';
import type { PaperFill, PaperMarket, PublicTrade } from '../../sim/paper/index.js';
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

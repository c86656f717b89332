// External liquidity as the fill models see it: one market's polled book in the engine's terms
// (outcome 0, "YES"), best first. The exchange publishes a book per token and the two are mirrors
// (a NO bid at q is a YES ask at 1 − q), so exactly one of them is fed per market: the YES book,
// or the NO book mirrored when that is all that was polled. Feeding both would post the same
// liquidity twice. Pure: no engine, no I/O.
import type { Book, Level } from '../../core/book.js';
import { SCALE, type Price } from '../../core/money.js';

export interface ExternalBook {
  readonly conditionId: string;
  /** Exchange time of the snapshot (epoch ms); null when the exchange sent none. */
  readonly timestampMs: number | null;
  /** YES-terms bids, descending price. */
  readonly bids: readonly Level[];
  /** YES-terms asks, ascending price. */
  readonly asks: readonly Level[];
}

/** Mirrors one side of a NO book into YES terms: price p → 1 − p; best-first order is kept. */
function mirror(levels: readonly Level[]): Level[] {
  const out = new Array<Level>(levels.length);
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i] as Level;
    out[i] = { price: (SCALE - l.price) as Price, size: l.size };
  }
  return out;
}

/**
 * The book of token `outcome` (0 YES, 1 NO) of market `conditionId`, in YES terms: a NO book's
 * asks become YES bids (best NO ask = lowest = best YES bid, highest) and its bids YES asks.
 */
export function externalBook(book: Book, outcome: 0 | 1, conditionId: string): ExternalBook {
  if (outcome === 0) return { conditionId, timestampMs: book.timestampMs, bids: book.bids, asks: book.asks };
  return { conditionId, timestampMs: book.timestampMs, bids: mirror(book.asks), asks: mirror(book.bids) };
}

// Market-data types shared by the universe, the book cache, the poller and the runtime. A universe
// market is what the daemon quotes: its trading settings (as current as the last book) and the
// outcome tokens it polls and quotes, each with its complement (the other outcome of the binary
// market) when there is one. Invariants: a token belongs to exactly one universe market; a
// complement id, when set, is the other token of the same condition (it may itself be unquoted,
// e.g. when only one token id was configured). Types only; no I/O.
import type { Book } from '../core/book.js';
import type { MarketSettings } from '../core/market-settings.js';
import type { Price } from '../core/money.js';

export interface UniverseToken {
  readonly tokenId: string;
  readonly outcome: string;
  /** The other outcome of the same condition; null when the market has no binary pair. */
  readonly complementTokenId: string | null;
}

export interface UniverseMarket {
  readonly conditionId: string;
  readonly settings: MarketSettings;
  /** Tokens polled and quoted, in the market's outcome order. */
  readonly tokens: readonly UniverseToken[];
}

/**
 * What one poll brought back: books by token, mids by token, and when they were received. When
 * the books request failed, `complete` is false and there are no books: the cycle still runs on
 * the data it has, so that markets going stale get their quotes pulled.
 */
export interface MarketSnapshot {
  /** Our clock (epoch ms) when the answers were in. */
  readonly receivedAtMs: number;
  readonly books: readonly Book[];
  readonly mids: ReadonlyMap<string, Price>;
  readonly complete: boolean;
}

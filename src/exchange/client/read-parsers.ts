// The parsers of the read routes, per shape of the dialect's read answers (Dialect.readWire): the
// interface's tables, or the public exchange's real shapes (parse/public-*.ts). Every client call
// of a read route whose shape differs between the two takes its parser from here, so the choice is
// made in one place, on a dialect field, never on a dialect's name. Routes whose answers have one
// shape in both dialects (POST /prices, /midpoints, /last-trades-prices, GET /price,
// /prices-history, /neg-risk, /time, /trades) keep their single parser; GET /tick-size picks its
// parser in service.ts.
import type { Book } from '../../core/book.js';
import type {
  ClobMarketSettings,
  ClosedPosition,
  LeaderboardEntry,
  Market,
  MarketsPage,
  Position,
  SimplifiedMarket,
} from '../../core/market.js';
import type { Price } from '../../core/money.js';
import type { Dialect } from '../dialect.js';
import { parseBook, parseBooks, parsePublicBook, parsePublicBooks } from '../parse/book.js';
import { parseLeaderboard } from '../parse/catalog.js';
import { parseClobMarketSettings, parseMarketsEnvelope, type MarketsKind } from '../parse/markets.js';
import {
  parseClosedPositions,
  parsePositions,
  parsePublicClosedPositions,
  parsePublicPositions,
} from '../parse/portfolio.js';
import { parseMidpointResponse } from '../parse/prices.js';
import { parsePublicClobMarket, parsePublicMarketsEnvelope } from '../parse/public-markets.js';
import { parsePublicLeaderboard, parsePublicMidpointResponse } from '../parse/public-reads.js';

export interface ReadParsers {
  book(json: unknown): Book;
  books(json: unknown): Book[];
  midpoint(json: unknown): Price | null;
  marketsPage(json: unknown, kind: MarketsKind): MarketsPage<Market | SimplifiedMarket>;
  /** `conditionId`: the market asked for (the public answer may omit `c`). */
  clobMarket(json: unknown, conditionId: string): ClobMarketSettings;
  positions(json: unknown): Position[];
  closedPositions(json: unknown): ClosedPosition[];
  leaderboard(json: unknown): LeaderboardEntry[];
}

const INTERFACE: ReadParsers = Object.freeze({
  book: (j: unknown) => parseBook(j),
  books: (j: unknown) => parseBooks(j),
  midpoint: (j: unknown) => parseMidpointResponse(j),
  marketsPage: (j: unknown, kind: MarketsKind) => parseMarketsEnvelope(j, kind),
  clobMarket: (j: unknown) => parseClobMarketSettings(j),
  positions: (j: unknown) => parsePositions(j),
  closedPositions: (j: unknown) => parseClosedPositions(j),
  leaderboard: (j: unknown) => parseLeaderboard(j),
});

const PUBLIC: ReadParsers = Object.freeze({
  book: (j: unknown) => parsePublicBook(j),
  books: (j: unknown) => parsePublicBooks(j),
  midpoint: (j: unknown) => parsePublicMidpointResponse(j),
  marketsPage: (j: unknown, kind: MarketsKind) => parsePublicMarketsEnvelope(j, kind),
  clobMarket: (j: unknown, conditionId: string) => parsePublicClobMarket(j, '', conditionId),
  positions: (j: unknown) => parsePublicPositions(j),
  closedPositions: (j: unknown) => parsePublicClosedPositions(j),
  leaderboard: (j: unknown) => parsePublicLeaderboard(j),
});

/** The read parsers of a dialect. */
export function readParsers(dialect: Pick<Dialect, 'readWire'>): ReadParsers {
  return dialect.readWire === 'public' ? PUBLIC : INTERFACE;
}

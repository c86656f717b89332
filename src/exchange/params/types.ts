// Typed parameter objects of the parameterised routes (the shapes the client's methods take).
// Invariants: names and value sets match the tables in tables.ts exactly (value sets are
// derived from them); optional means "absent → the table's default, if any".
import type {
  CLOSED_POSITIONS_SORT_BY,
  LEADERBOARD_CATEGORIES,
  LEADERBOARD_ORDER_BY,
  LEADERBOARD_PERIODS,
  POSITIONS_SORT_BY,
  PRICE_HISTORY_INTERVALS,
} from './tables.js';
import type * as W from '../wire.js';

export type SortDirection = 'ASC' | 'DESC';
export type PositionsSortBy = (typeof POSITIONS_SORT_BY)[number];
export type ClosedPositionsSortBy = (typeof CLOSED_POSITIONS_SORT_BY)[number];
export type LeaderboardCategory = (typeof LEADERBOARD_CATEGORIES)[number];
export type LeaderboardTimePeriod = (typeof LEADERBOARD_PERIODS)[number];
export type LeaderboardOrderBy = (typeof LEADERBOARD_ORDER_BY)[number];
export type PriceHistoryInterval = (typeof PRICE_HISTORY_INTERVALS)[number];

// Compile-time check: the value sets derived from the tables are exactly the wire types' sets.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type ValueSetsAgree = [
  Assert<Same<PositionsSortBy, W.PositionsSortBy>>,
  Assert<Same<ClosedPositionsSortBy, W.ClosedPositionsSortBy>>,
  Assert<Same<SortDirection, W.SortDirection>>,
  Assert<Same<LeaderboardCategory, W.LeaderboardCategory>>,
  Assert<Same<LeaderboardTimePeriod, W.LeaderboardTimePeriod>>,
  Assert<Same<LeaderboardOrderBy, W.LeaderboardOrderBy>>,
  Assert<Same<PriceHistoryInterval, W.PriceHistoryInterval>>,
];

export interface PositionsParams {
  user: string;
  market?: readonly string[];
  sizeThreshold?: number;
  redeemable?: boolean;
  mergeable?: boolean;
  limit?: number;
  offset?: number;
  sortBy?: PositionsSortBy;
  sortDirection?: SortDirection;
  title?: string;
}

export interface ClosedPositionsParams {
  user: string;
  market?: readonly string[];
  title?: string;
  limit?: number;
  offset?: number;
  sortBy?: ClosedPositionsSortBy;
  sortDirection?: SortDirection;
}

export interface EventsParams {
  limit?: number;
  offset?: number;
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  tag?: string;
  tag_id?: number;
  tag_slug?: string;
  series_slug?: string;
  slug?: string;
  order?: string;
  ascending?: boolean;
  creator?: string;
}

export interface CreatorParams {
  creator?: string;
}

export interface PageParams {
  limit?: number;
  offset?: number;
}

export interface LeaderboardParams {
  category?: LeaderboardCategory;
  timePeriod?: LeaderboardTimePeriod;
  orderBy?: LeaderboardOrderBy;
  limit?: number;
  offset?: number;
  user?: string;
  userName?: string;
}

export interface TradesParams {
  user?: string;
  market?: readonly string[];
  limit?: number;
  offset?: number;
  /** Only the taker's row of each match (side = the aggressor's); absent: the venue's default. */
  takerOnly?: boolean;
}

export interface PublicSearchParams {
  q: string;
  limit_per_type?: number;
}

export interface PricesHistoryParams {
  startTs?: number;
  endTs?: number;
  interval?: PriceHistoryInterval;
  fidelity?: number;
}

export interface BatchPricesHistoryOptions {
  start_ts?: number;
  end_ts?: number;
  interval?: PriceHistoryInterval;
  fidelity?: number;
}

// Wire types of the public exchange's read answers where they differ from the interface's (wire.ts):
// market listings and settings, positions, public trades, leaderboard (dialect readWire 'public').
// Each shape is the one the real payloads and official clients show; the fixtures and their origins
// are in test/fixtures/real/wire/markets/ and portfolio/ (SOURCES.md there), and
// test/sim/server/wire-shapes.test.ts holds the simulator to them. Optional keys (`?`) are the ones
// the public exchange omits (when false, or when it has no value). Types only: no runtime code.
import type { WireClosedPosition, WireMarket, WirePosition, WireRewards, WireMarketToken, WireTrade } from './wire.js';

/**
 * A market record of GET /markets and GET /sampling-markets: the interface's base record without
 * the four keys no real record carries (nautilus_trader test_data/clob_market_closed_binary_accepting_true.json,
 * 2026; rs-clob-client MarketResponse). `game_start_time` and `accepting_order_timestamp` are null
 * when unset, `rewards.rates` may be null.
 */
export type WirePublicMarket = Omit<
  WireMarket,
  'itode' | 'taker_order_delay_ms' | 'order_age_seconds' | 'screening_check_enabled' | 'game_start_time'
> & {
  game_start_time: string | null;
};

/** GET /sampling-simplified-markets record (rs-clob-client SimplifiedMarketResponse; API reference). */
export interface WirePublicSimplifiedMarket {
  condition_id: string;
  rewards: WireRewards;
  tokens: WireMarketToken[];
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
}

/** `r` of GET /clob-markets (clob-client-v2 src/types/clob.ts ClobRewards): every key optional. */
export interface WirePublicClobRewards {
  /** Minimum size, shares. */
  mi?: number;
  /** Maximum spread, cents (as a market record's rewards.max_spread). */
  ma?: number;
  /** Enabled. */
  e?: boolean;
  /** Skip the minimum order age. */
  smoa?: boolean;
  /** Minimum order age, seconds. */
  moas?: number;
}

/**
 * GET /clob-markets/{condition_id} (clob-client-v2 src/types/clob.ts MarketDetails, plus `oas` of
 * the API reference). `nr`, `itode` and `fd.to` are sent only when true.
 */
export interface WirePublicClobMarket {
  c: string;
  t: Array<{ t: string; o: string }>;
  mts: number;
  nr?: true;
  fd?: { r?: number; e?: number; to?: true };
  mbf?: number;
  tbf?: number;
  r: WirePublicClobRewards | null;
  ao?: boolean;
  mos?: number;
  sd?: number;
  gst?: string;
  aot?: string;
  rfqe?: boolean;
  itode?: true;
  ibce?: boolean;
  oas?: number;
}

/**
 * GET /positions record: the interface's less `timestamp`, plus `eventId`; `asset` and
 * `oppositeAsset` are token ids (a captured page; rs-clob-client Position).
 */
export type WirePublicPosition = Omit<WirePosition, 'timestamp'> & { eventId: string };

/** GET /closed-positions record (rs-clob-client ClosedPosition; API reference). */
export type WirePublicClosedPosition = Pick<
  WireClosedPosition,
  | 'proxyWallet'
  | 'asset'
  | 'conditionId'
  | 'avgPrice'
  | 'totalBought'
  | 'realizedPnl'
  | 'curPrice'
  | 'timestamp'
  | 'title'
  | 'slug'
  | 'icon'
  | 'eventSlug'
  | 'outcome'
  | 'outcomeIndex'
  | 'oppositeOutcome'
  | 'oppositeAsset'
  | 'endDate'
>;

/** GET /trades (Data API) record: the interface's plus display and trader profile fields (API reference). */
export type WirePublicTrade = WireTrade & {
  icon: string;
  eventSlug: string;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  profileImageOptimized: string;
};

/** GET /v1/leaderboard entry: `verifiedBadge` a boolean; xUsername and profileImage may be left out. */
export interface WirePublicLeaderboardEntry {
  rank: string;
  proxyWallet: string;
  userName: string;
  vol: number;
  pnl: number;
  profileImage?: string;
  xUsername?: string;
  verifiedBadge: boolean;
}

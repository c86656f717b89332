// Domain types the exchange parsers produce, other than the book (book.ts): market settings,
// order records, cancel results, prices, positions, trades and the catalog.
// Invariants kept by every value of these types (the parsers in src/exchange/parse/ enforce them):
// - money is integer millionths (Price, Shares, Micros), never a float; prices in [0, 1], sizes ≥ 0;
// - a value the wire leaves empty (`""`, `null`, missing) is `null`, never zero;
// - statuses are normalised (an order status never carries the `ORDER_STATUS_` prefix);
// - catalog records stay close to the wire (they feed displays and searches, not quoting), with
//   their JSON-in-a-string fields decoded and their types checked.
// Pure types plus tiny total functions; no I/O.
import type { Micros, Price, Shares } from './money.js';
import type { OrderType, Side } from './order.js';

export type OrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'CANCELED_MARKET_RESOLVED' | 'INVALID';

export const ORDER_STATUSES: readonly OrderStatus[] = [
  'LIVE',
  'MATCHED',
  'CANCELED',
  'CANCELED_MARKET_RESOLVED',
  'INVALID',
];

/** An order status that can no longer change. */
export function isTerminalOrderStatus(s: OrderStatus): boolean {
  return s !== 'LIVE';
}

// ---------------------------------------------------------------------------------------------
// Markets

export interface RewardRate {
  readonly assetAddress: string;
  /** Collateral paid out per day. */
  readonly dailyRate: Micros;
}

/** Liquidity-reward parameters of a market (docs/protocol.md §6). */
export interface Rewards {
  readonly rates: readonly RewardRate[];
  /** Σ of the rates' daily amounts. */
  readonly dailyRate: Micros;
  /** Orders smaller than this score nothing. */
  readonly minSize: Shares;
  /** As sent: cents around the midpoint (1.5 = 1.5 ¢). */
  readonly maxSpreadCents: number;
  /** The same distance as a price, rounded down (a narrower window never overstates a score). */
  readonly maxSpread: Price;
}

export interface MarketToken {
  /** null for the placeholder tokens (`""`) of markets that never got any. */
  readonly tokenId: string | null;
  readonly outcome: string;
  /** Last indicative price; null when the record has none. */
  readonly price: Price | null;
  readonly winner: boolean;
}

/** A market record of GET /markets (and the base of the sampling variants). */
export interface Market {
  readonly conditionId: string;
  readonly questionId: string | null;
  readonly question: string;
  readonly description: string;
  readonly marketSlug: string | null;
  readonly tokens: readonly MarketToken[];
  readonly tickSize: Price;
  readonly minOrderSize: Shares;
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string | null;
  readonly negRiskRequestId: string | null;
  readonly enableOrderBook: boolean;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly acceptingOrders: boolean;
  /** ISO 8601 or null. */
  readonly acceptingOrderTimestamp: string | null;
  readonly endDateIso: string | null;
  readonly gameStartTime: string | null;
  readonly secondsDelay: number;
  readonly fpmm: string | null;
  readonly notificationsEnabled: boolean | null;
  readonly is5050Outcome: boolean | null;
  readonly icon: string | null;
  readonly image: string | null;
  readonly rewards: Rewards;
  readonly tags: readonly string[];
  readonly itode: boolean | null;
  readonly takerOrderDelayMs: number | null;
  readonly orderAgeSeconds: number | null;
  readonly screeningCheckEnabled: boolean | null;
}

export interface SamplingEvent {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly ticker: string;
  readonly description: string;
}

/**
 * A record of GET /sampling-markets. The interface adds these fields to the base record; the public
 * exchange sends the plain base record (rs-clob-client src/clob/types/response.rs@d84e8e1 reads its
 * pages as MarketResponse), so each is null there.
 */
export interface SamplingMarket extends Market {
  readonly status: string | null;
  readonly marketId: number | null;
  readonly slug: string | null;
  readonly assetsIds: readonly string[] | null;
  readonly outcomes: readonly string[] | null;
  readonly event: SamplingEvent | null;
  readonly rawMetadata: Readonly<Record<string, unknown>> | null;
}

/**
 * A record of GET /sampling-simplified-markets. The public exchange sends only condition_id,
 * rewards, tokens, active, closed, archived, accepting_orders (rs-clob-client
 * SimplifiedMarketResponse; docs.polymarket.com get-sampling-simplified-markets): the other fields
 * are null there.
 */
export interface SimplifiedMarket {
  readonly conditionId: string;
  readonly status: string | null;
  readonly negRisk: boolean | null;
  readonly marketId: number | null;
  readonly question: string | null;
  readonly slug: string | null;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly acceptingOrders: boolean;
  readonly tokens: readonly MarketToken[];
  readonly rewards: Rewards;
  readonly assetsIds: readonly string[] | null;
  readonly outcomes: readonly string[] | null;
}

export interface MarketsPage<T> {
  readonly data: readonly T[];
  /** Cursor of the next page; null on the last page (`LTE=`). */
  readonly nextCursor: string | null;
  readonly limit: number;
  readonly count: number;
}

/**
 * Liquidity-reward parameters as the public exchange's GET /clob-markets sends them (`r`:
 * {mi, ma, e, smoa, moas}, each optional; clob-client-v2 src/types/clob.ts@f3e1a05 ClobRewards).
 * It carries no daily rate, so it is kept apart from Rewards.
 */
export interface ClobRewardConfig {
  /** `mi`: orders smaller than this score nothing. */
  readonly minSize: Shares | null;
  /** `ma`: as sent (the same unit as a market record's `rewards.max_spread`, cents). */
  readonly maxSpreadCents: number | null;
  /** `e`: rewards enabled. */
  readonly enabled: boolean | null;
  /** `moas`: minimum order age, seconds. */
  readonly minOrderAgeSeconds: number | null;
}

/**
 * GET /clob-markets/{condition_id}. Keys whose meaning the interface does not show keep their wire
 * names. The public exchange requires none of its keys (docs.polymarket.com get-clob-market-info;
 * `nr`, `itode`, `fd.to` are omitted when false): what it leaves out is null, or false for those.
 */
export interface ClobMarketSettings {
  /** `c`, or the condition id that was asked for when the answer omits it. */
  readonly conditionId: string;
  readonly gameStartTime: string | null;
  /** `r` in the interface's rewards shape; null on the public exchange (its `r` has no rates). */
  readonly rewards: Rewards | null;
  /** `r` in the public exchange's shape; null in the interface's dialect or when `r` is null. */
  readonly rewardConfig: ClobRewardConfig | null;
  readonly negRisk: boolean;
  /** `t`; empty when the answer has none (consumers refuse a market without tokens). */
  readonly tokens: ReadonlyArray<{ readonly tokenId: string; readonly outcome: string }>;
  readonly tickSize: Price | null;
  readonly minOrderSize: Shares | null;
  /** `fd`: fee details as sent ({r: rate, e: exponent, to: taker only}); null when absent. */
  readonly feeDetails: { readonly r: number | null; readonly e: number | null; readonly to: boolean } | null;
  readonly makerBaseFeeBps: number | null;
  readonly takerBaseFeeBps: number | null;
  /** `ao`: accepting orders (public exchange only). */
  readonly acceptingOrders: boolean | null;
  readonly rfqe: boolean | null;
  readonly itode: boolean;
  readonly ibce: boolean | null;
  readonly oas: number | null;
}

// ---------------------------------------------------------------------------------------------
// Prices

export interface BestPrices {
  /** Best bid (`BUY`), null when no bids. */
  readonly bid: Price | null;
  /** Best ask (`SELL`), null when no asks. */
  readonly ask: Price | null;
}

export interface LastTradePrice {
  readonly tokenId: string;
  /** null when the token has not traded (`""`). */
  readonly price: Price | null;
  readonly side: Side | null;
}

export interface PricePoint {
  /** Unix seconds. */
  readonly t: number;
  readonly p: Price;
}

// ---------------------------------------------------------------------------------------------
// Orders

export interface CancelResult {
  readonly canceled: readonly string[];
  /** Order id → reason. A Map so that no id can collide with an object property. */
  readonly notCanceled: ReadonlyMap<string, string>;
}

export interface OrderRecord {
  readonly id: string;
  readonly status: OrderStatus;
  readonly market: string;
  readonly assetId: string;
  readonly side: Side;
  readonly price: Price;
  readonly originalSize: Shares;
  readonly sizeMatched: Shares;
  readonly outcome: string;
  readonly makerAddress: string;
  readonly owner: string;
  readonly type: OrderType;
  readonly createdAt: string;
  readonly createdAtMs: number;
  readonly associateTrades: readonly string[];
  /** When a GTD order expires, epoch ms; absent when the exchange says none (or does not say). */
  readonly expiresAtMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Portfolio and trades (the wire sends numbers; money is converted to millionths)

export interface Position {
  readonly proxyWallet: string;
  readonly asset: string;
  readonly conditionId: string;
  readonly size: Shares;
  readonly avgPrice: Price;
  readonly initialValue: Micros;
  readonly currentValue: Micros;
  readonly cashPnl: Micros;
  /** Percent, as sent. */
  readonly percentPnl: number;
  readonly totalBought: Micros;
  readonly realizedPnl: Micros;
  readonly percentRealizedPnl: number;
  readonly curPrice: Price;
  readonly redeemable: boolean;
  readonly mergeable: boolean;
  readonly negativeRisk: boolean;
  readonly title: string;
  readonly slug: string;
  readonly icon: string;
  /** The public exchange's `eventId`; null in the interface's dialect, which has none. */
  readonly eventId: string | null;
  readonly eventSlug: string;
  readonly outcome: string;
  readonly oppositeOutcome: string;
  readonly oppositeAsset: string;
  readonly outcomeIndex: number;
  /** Unix seconds; null on the public exchange, whose current positions carry no timestamp. */
  readonly timestamp: number | null;
  readonly endDate: string | null;
}

/**
 * GET /closed-positions. The interface sends the current position's fields less negativeRisk; the
 * public exchange sends only avgPrice, totalBought, realizedPnl, curPrice, timestamp and the display
 * fields (rs-clob-client src/data/types/response.rs@d84e8e1 ClosedPosition; docs.polymarket.com
 * get-closed-positions-for-a-user): the current figures are null there.
 */
export interface ClosedPosition {
  readonly proxyWallet: string;
  readonly asset: string;
  readonly conditionId: string;
  readonly avgPrice: Price;
  readonly totalBought: Micros;
  readonly realizedPnl: Micros;
  readonly curPrice: Price;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly title: string;
  readonly slug: string;
  readonly icon: string;
  readonly eventSlug: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly oppositeOutcome: string;
  readonly oppositeAsset: string;
  readonly endDate: string | null;
  readonly size: Shares | null;
  readonly initialValue: Micros | null;
  readonly currentValue: Micros | null;
  readonly cashPnl: Micros | null;
  readonly percentPnl: number | null;
  readonly percentRealizedPnl: number | null;
  readonly redeemable: boolean | null;
  readonly mergeable: boolean | null;
}

export interface Trade {
  readonly proxyWallet: string;
  readonly side: Side;
  readonly asset: string;
  readonly conditionId: string;
  readonly size: Shares;
  readonly price: Price;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly title: string;
  readonly slug: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly transactionHash: string;
}

// ---------------------------------------------------------------------------------------------
// Catalog and community

export interface Tag {
  readonly id: string;
  readonly label: string;
  readonly slug: string;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly requiresTranslation: boolean | null;
}

export interface EventMarket {
  readonly id: string;
  readonly question: string;
  readonly conditionId: string;
  readonly slug: string;
  readonly resolutionSource: string;
  readonly image: string;
  readonly icon: string;
  readonly description: string;
  /** Decoded from the JSON text the wire carries in a string. */
  readonly outcomes: readonly string[];
  readonly clobTokenIds: readonly string[];
  readonly questionId: string;
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
}

export interface Series {
  readonly id: string;
  readonly ticker: string;
  readonly slug: string;
  readonly title: string;
  readonly seriesType: string;
  readonly recurrence: string;
  readonly image: string;
  readonly icon: string;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

/** Event, list form. `markets` is filled when the record carries them (real list pages do). */
export interface CatalogEvent {
  readonly id: string;
  readonly ticker: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly resolutionSource: string;
  readonly image: string;
  readonly icon: string;
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly tags: readonly Tag[];
  readonly markets: readonly EventMarket[] | null;
}

/** Event, single-event form. */
export interface CatalogEventFull extends CatalogEvent {
  readonly creationDate: string | null;
  readonly markets: readonly EventMarket[];
  readonly series: readonly Series[];
  readonly eventMetadata: Readonly<Record<string, unknown>> | null;
}

export interface CommentProfile {
  readonly name: string;
  readonly pseudonym: string;
  readonly bio: string;
  readonly proxyWallet: string;
  readonly baseAddress: string;
  readonly profileImage: string;
  readonly displayUsernamePublic: boolean;
  readonly isMod: boolean;
  readonly isCreator: boolean;
  readonly profileImageOptimized: Readonly<Record<string, unknown>>;
  readonly positions: ReadonlyArray<{ readonly tokenId: string; readonly positionSize: Shares }>;
}

export interface Comment {
  readonly id: string;
  readonly body: string;
  readonly parentEntityType: string;
  readonly parentEntityId: number;
  readonly parentCommentId: string | null;
  readonly userAddress: string;
  readonly replyAddress: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly profile: CommentProfile;
  readonly reactions: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly reportCount: number;
  readonly reactionCount: number;
  readonly replyCount: number;
  readonly replies: readonly Comment[];
}

export interface LeaderboardEntry {
  /** Rank as a number (the wire sends a string). */
  readonly rank: number;
  readonly proxyWallet: string;
  /** null when the public exchange leaves it out (rs-clob-client TraderLeaderboardEntry: Option). */
  readonly userName: string | null;
  readonly vol: Micros;
  readonly pnl: Micros;
  readonly profileImage: string | null;
  readonly xUsername: string | null;
  /**
   * A string or null in docs/exchange-interface.md §2.17; a boolean on the public exchange (its API
   * reference get-trader-leaderboard-rankings and rs-clob-client's `verified_badge: Option<bool>`).
   */
  readonly verifiedBadge: string | boolean | null;
}

export interface SearchProfile {
  readonly name: string;
  readonly pseudonym: string;
  readonly proxyWallet: string;
  readonly profileImage: string;
}

export interface PublicSearch {
  readonly events: readonly CatalogEvent[];
  readonly tags: readonly Tag[];
  readonly profiles: readonly SearchProfile[];
}

/** L2 API credentials. Secret material: never logged, never in an error message. */
export interface ApiKeyCreds {
  readonly apiKey: string;
  readonly secret: string;
  readonly passphrase: string;
}

// Account lifecycle (open orders, account trades and their settlement, balance, heartbeat): its
// own file, re-exported here so every domain type of the exchange is imported from market.ts.
export * from './account.js';

// Wire types: the JSON shapes of docs/exchange-interface.md §2.1–2.17 and of the routes docs/protocol.md §8
// adds, verbatim (field names, snake_case/camelCase and JSON types exactly as the interface's
// tables). Invariants kept here:
// - these are shapes on the wire, never domain types: amounts and prices are the strings (trading
//   and book resources) or numbers (portfolio and catalog) the interface names; nothing here is
//   trusted until a parser in src/exchange/parse/ has turned it into a domain type;
// - `| null` appears only where the interface says "or null"; real payloads that deviate (a
//   `null` accepting_order_timestamp, `""` amounts) are tolerated by the parsers, not typed here;
// - string unions name the values docs/protocol.md fixes where the interface says "not shown";
//   a server emits exactly these, a client's parser accepts them (and the prefixed order statuses).
// Types only: this file has no runtime code.
import type { WirePublicOrderSubmission } from './wire-public-orders.js';

// ---------------------------------------------------------------------------------------------
// Value sets (docs/protocol.md §4, interface §4.4/§4.5)

export type WireOrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export type WireSide = 'BUY' | 'SELL';
/** Placement `status` (docs/protocol.md §4). */
export type WirePlacementStatus = 'live' | 'matched' | 'delayed' | 'unmatched';
/** Order-record statuses without prefix (docs/protocol.md §4). */
export type WireOrderStatusName = 'LIVE' | 'MATCHED' | 'CANCELED' | 'CANCELED_MARKET_RESOLVED' | 'INVALID';
/** Order-record `status`: a client must also accept the `ORDER_STATUS_` prefixed names. */
export type WireOrderStatus = WireOrderStatusName | `ORDER_STATUS_${WireOrderStatusName}`;
/** `signatureType`: 0 EOA, 1 proxy, 2 safe, 3 deposit wallet (ERC-1271; src/exchange/signing/account-kind.ts). */
export type WireSignatureType = 0 | 1 | 2 | 3;

export type PositionsSortBy =
  'CURRENT' | 'INITIAL' | 'TOKENS' | 'CASHPNL' | 'PERCENTPNL' | 'TITLE' | 'RESOLVING' | 'PRICE' | 'AVGPRICE';
export type ClosedPositionsSortBy = 'REALIZEDPNL' | 'TITLE' | 'PRICE' | 'AVGPRICE' | 'TIMESTAMP';
export type SortDirection = 'ASC' | 'DESC';
export type LeaderboardCategory =
  'OVERALL' | 'POLITICS' | 'SPORTS' | 'CRYPTO' | 'FINANCE' | 'CULTURE' | 'MENTIONS' | 'WEATHER' | 'ECONOMICS' | 'TECH';
export type LeaderboardTimePeriod = 'DAY' | 'WEEK' | 'MONTH' | 'ALL';
export type LeaderboardOrderBy = 'PNL' | 'VOL';
/** `interval` of price history (docs/protocol.md §5/§8); `1m` is a month. */
export type PriceHistoryInterval = 'max' | 'all' | '1m' | '1w' | '1d' | '6h' | '1h';
/** `type` of a catalog error body (interface §7). */
export type WireCatalogErrorType = 'bad request' | 'not found error';

// ---------------------------------------------------------------------------------------------
// Trading (§2.1–2.5)

/** §2.2 Signed order. `salt` is a decimal string in the spec dialect, a number in polymarket's. */
export interface WireSignedOrder {
  tokenId: string;
  conditionId: string;
  maker: string;
  signer: string;
  makerAmount: string;
  takerAmount: string;
  side: WireSide;
  metadata: string;
  salt: string | number;
  signatureType: number;
  signature: string;
  /** Milliseconds, as a string (docs/protocol.md §3). */
  timestamp: string;
  builder: string;
  /** GTD only: Unix seconds, unsigned (docs/protocol.md §4). */
  expiration?: string;
}

/** §2.1 Order submission (one item of POST /order or POST /orders). */
export interface WireInterfaceOrderSubmission {
  order: WireSignedOrder;
  orderType: WireOrderType;
  owner: string;
  /** GTC/GTD only (docs/protocol.md §4). */
  postOnly?: boolean;
}

/** A submission in either order wire (Dialect.orderWire): the interface's or the public one. */
export type WireOrderSubmission = WireInterfaceOrderSubmission | WirePublicOrderSubmission;

/** §2.3 Order placement result. */
export interface WirePlacementResult {
  success: boolean;
  errorMsg: string;
  orderID: string;
  takingAmount: string;
  makingAmount: string;
  /** "" on a rejected placement (docs/protocol.md §4 names no status for it). */
  status: WirePlacementStatus | '';
}

/** §2.4 Cancel request (docs/protocol.md §4: a server also accepts the spelling `orderID`). */
export interface WireCancelRequest {
  orderId: string;
}

/** §2.4 Cancel result. */
export interface WireCancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

/** §2.5 Order record. */
export interface WireOrderRecord {
  associateTrades: string[];
  id: string;
  status: WireOrderStatus;
  market: string;
  /** Decimal shares ("10.5"). */
  originalSize: string;
  outcome: string;
  makerAddress: string;
  owner: string;
  price: string;
  side: WireSide;
  /** Decimal shares. */
  sizeMatched: string;
  assetId: string;
  type: WireOrderType;
  /** ISO 8601. */
  createdAt: string;
}

/** §2.5 Response of GET /data/order/{id}. */
export interface WireOrderLookup {
  order: WireOrderRecord;
}

// ---------------------------------------------------------------------------------------------
// Market data (§2.6, §2.7, docs/protocol.md §8)

export interface WireBookLevel {
  price: string;
  size: string;
}

/** §2.6 Order book; keys in the table's order (the hash of docs/protocol.md §5 depends on it). */
export interface WireBook {
  market: string;
  asset_id: string;
  /** Milliseconds, as a string. */
  timestamp: string;
  hash: string;
  bids: WireBookLevel[];
  asks: WireBookLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

/** Body item of POST /books, /prices, /midpoints, /last-trades-prices. */
export interface WireTokenRequest {
  token_id: string;
}

/** §2.7 Best prices, keyed by token id. BUY = best bid, SELL = best ask; an empty side is absent. */
export type WireBestPrices = Record<string, { BUY?: string; SELL?: string }>;

/** §2.7 Midpoints, keyed by token id. */
export type WireMidpoints = Record<string, string>;

/** §2.7 Last trade price item. */
export interface WireLastTradePrice {
  token_id: string;
  price: string;
  side: WireSide;
}

/** Body of POST /batch-prices-history (optional fields per docs/protocol.md §5). */
export interface WireBatchPricesHistoryRequest {
  markets: string[];
  start_ts?: number;
  end_ts?: number;
  interval?: PriceHistoryInterval;
  fidelity?: number;
}

/** One point of price history: `t` Unix seconds, `p` the midpoint price. */
export interface WirePricePoint {
  t: number;
  p: number;
}

/** §2.7 Response of POST /batch-prices-history. */
export interface WirePriceHistoryBatch {
  history: Record<string, WirePricePoint[]>;
}

/** GET /prices-history (docs/protocol.md §8). */
export interface WirePriceHistory {
  history: WirePricePoint[];
}

/** GET /price (docs/protocol.md §8). */
export interface WirePriceResponse {
  price: string;
}

/** GET /midpoint (docs/protocol.md §8). */
export interface WireMidpointResponse {
  mid: string;
}

// ---------------------------------------------------------------------------------------------
// Markets (§2.8–2.10)

export interface WireRewardRate {
  asset_address: string;
  rewards_daily_rate: number;
}

/** `rewards` of a market: `max_spread` in cents, `min_size` in shares (docs/protocol.md §6). */
export interface WireRewards {
  rates: WireRewardRate[];
  min_size: number;
  max_spread: number;
}

export interface WireMarketToken {
  token_id: string;
  outcome: string;
  price: number;
  winner: boolean;
}

/** §2.8 Market record, base variant (GET /markets). */
export interface WireMarket {
  enable_order_book: boolean;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  accepting_order_timestamp: string;
  minimum_order_size: number;
  minimum_tick_size: number;
  condition_id: string;
  question_id: string;
  question: string;
  description: string;
  market_slug: string;
  end_date_iso: string;
  game_start_time: string;
  seconds_delay: number;
  fpmm: string;
  maker_base_fee: number;
  taker_base_fee: number;
  notifications_enabled: boolean;
  neg_risk: boolean;
  is_50_50_outcome: boolean;
  neg_risk_market_id: string;
  neg_risk_request_id: string;
  icon: string;
  image: string;
  rewards: WireRewards;
  tokens: WireMarketToken[];
  tags: string[];
  itode: boolean;
  taker_order_delay_ms: number;
  order_age_seconds: number;
  screening_check_enabled: boolean;
}

export interface WireSamplingEvent {
  id: string;
  slug: string;
  title: string;
  ticker: string;
  description: string;
}

/** §2.8 Sampling market record (GET /sampling-markets): the base record plus these fields. */
export interface WireSamplingMarket extends WireMarket {
  status: string;
  market_id: number;
  slug: string;
  assets_ids: string[];
  outcomes: string[];
  event: WireSamplingEvent;
  /** Inner structure not shown by the interface. */
  raw_metadata: Record<string, unknown>;
}

/** §2.9 Simplified market record (GET /sampling-simplified-markets). */
export interface WireSimplifiedMarket {
  condition_id: string;
  status: string;
  neg_risk: boolean;
  market_id: number;
  question: string;
  slug: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  tokens: WireMarketToken[];
  rewards: WireRewards;
  assets_ids: string[];
  outcomes: string[];
}

/** Envelope of every market listing. `next_cursor` is base64 of the offset; `LTE=` on the last page. */
export interface WireMarketsEnvelope<T> {
  data: T[];
  next_cursor: string;
  limit: number;
  count: number;
}

/** §2.10 Market trading settings (GET /clob-markets/{condition_id}); keys abbreviated as on the wire. */
export interface WireClobMarketSettings {
  gst: string;
  r: WireRewards;
  c: string;
  nr: boolean;
  t: Array<{ t: string; o: string }>;
  mts: number;
  mos: number;
  fd: { r: number; e: number; to: boolean };
  mbf: number;
  tbf: number;
  rfqe: boolean;
  itode: boolean;
  ibce: boolean;
  oas: number;
}

// ---------------------------------------------------------------------------------------------
// Portfolio (§2.11, §2.12) and trades (docs/protocol.md §8)

/** §2.11 Current position (numbers as numbers). */
export interface WirePosition {
  proxyWallet: string;
  /** Form `<condition_id>:<outcome_index>`. */
  asset: string;
  conditionId: string;
  size: number;
  avgPrice: number;
  initialValue: number;
  currentValue: number;
  cashPnl: number;
  percentPnl: number;
  totalBought: number;
  realizedPnl: number;
  percentRealizedPnl: number;
  curPrice: number;
  redeemable: boolean;
  mergeable: boolean;
  negativeRisk: boolean;
  title: string;
  slug: string;
  icon: string;
  eventSlug: string;
  outcome: string;
  oppositeOutcome: string;
  oppositeAsset: string;
  outcomeIndex: number;
  /** Unix seconds. */
  timestamp: number;
  endDate: string;
}

/** §2.12 Closed position: as 2.11 without `negativeRisk`. */
export type WireClosedPosition = Omit<WirePosition, 'negativeRisk'>;

/** GET /trades item (docs/protocol.md §8): numbers as numbers, `timestamp` Unix seconds. */
export interface WireTrade {
  proxyWallet: string;
  side: WireSide;
  asset: string;
  conditionId: string;
  size: number;
  price: number;
  timestamp: number;
  title: string;
  slug: string;
  outcome: string;
  outcomeIndex: number;
  transactionHash: string;
}

// ---------------------------------------------------------------------------------------------
// Catalog and community (§2.13–2.17, docs/protocol.md §8)

/** §2.14 */
export interface WireCommentProfile {
  name: string;
  pseudonym: string;
  bio: string;
  proxyWallet: string;
  baseAddress: string;
  profileImage: string;
  displayUsernamePublic: boolean;
  isMod: boolean;
  isCreator: boolean;
  /** Inner structure not shown by the interface. */
  profileImageOptimized: Record<string, unknown>;
  positions: Array<{ tokenId: string; positionSize: string }>;
}

/** §2.13 */
export interface WireComment {
  id: string;
  body: string;
  parentEntityType: string;
  parentEntityID: number;
  parentCommentID: string;
  userAddress: string;
  replyAddress: string;
  createdAt: string;
  updatedAt: string;
  profile: WireCommentProfile;
  /** Element structure not shown by the interface. */
  reactions: Array<Record<string, unknown>>;
  reportCount: number;
  reactionCount: number;
  replyCount: number;
  replies: WireComment[];
}

/** §2.15 */
export interface WireTag {
  id: string;
  label: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  requiresTranslation: boolean;
}

/** §2.16 Event market (single-event form only). `outcomes`, `clobTokenIds` are JSON text in a string. */
export interface WireEventMarket {
  id: string;
  question: string;
  conditionId: string;
  slug: string;
  resolutionSource: string;
  image: string;
  icon: string;
  description: string;
  outcomes: string;
  clobTokenIds: string;
  questionID: string;
  startDate: string;
  endDate: string;
  createdAt: string;
  updatedAt: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
}

/** §2.16 Series (single-event form only). */
export interface WireSeries {
  id: string;
  ticker: string;
  slug: string;
  title: string;
  seriesType: string;
  recurrence: string;
  image: string;
  icon: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

/** §2.16 Event, list form (GET /events). */
export interface WireEvent {
  id: string;
  ticker: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  image: string;
  icon: string;
  startDate: string;
  endDate: string;
  createdAt: string;
  updatedAt: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  tags: WireTag[];
}

/** §2.16 Event, single-event form (GET /events/slug/{slug}). */
export interface WireEventFull extends WireEvent {
  creationDate: string;
  markets: WireEventMarket[];
  series: WireSeries[];
  /** Inner structure not shown by the interface. */
  eventMetadata: Record<string, unknown>;
}

/** §2.17 */
export interface WireLeaderboardEntry {
  rank: string;
  proxyWallet: string;
  userName: string;
  vol: number;
  pnl: number;
  profileImage: string;
  xUsername: string | null;
  verifiedBadge: string | null;
}

export interface WirePublicSearchProfile {
  name: string;
  pseudonym: string;
  proxyWallet: string;
  profileImage: string;
}

/** GET /public-search (docs/protocol.md §8). */
export interface WirePublicSearch {
  events: WireEvent[];
  tags: WireTag[];
  profiles: WirePublicSearchProfile[];
}

// ---------------------------------------------------------------------------------------------
// Auth, errors, service routes (docs/protocol.md §2, §4, §8)

/** Response of L1 key creation/derivation. Secret material: never logged. */
export interface WireApiKeyCreds {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/** Error body of trading, market data, order lookup, portfolio, leaderboard. */
export interface WireErrorBody {
  error: string;
}

/** Error body of catalog, comment and tag operations. */
export interface WireCatalogErrorBody {
  type: WireCatalogErrorType;
  error: string;
}

/** GET / → "OK". */
export type WireHealthResponse = string;
/** GET /time: Unix seconds as a JSON number. */
export type WireTimeResponse = number;
/** GET /version. */
export interface WireVersionResponse {
  version: number;
}
/** GET /tick-size?token_id= */
export interface WireTickSizeResponse {
  minimum_tick_size: number;
}
/** GET /neg-risk?token_id= */
export interface WireNegRiskResponse {
  neg_risk: boolean;
}

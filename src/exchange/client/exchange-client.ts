// ExchangeClient: one method for every route of interface §4 and docs/protocol.md §2/§8 and for the
// public exchange's account-lifecycle routes (open orders, account trades, batch cancels,
// heartbeat, balance/allowance), composed from the per-group files (trading, orders, orders-admin,
// account, market-data, markets, service, portfolio, catalog, leaderboard, auth) over one
// ClientCore and one HttpTransport. Invariants kept here:
// - three base URLs, because the public exchange splits CLOB, Data and Gamma APIs; Data and
//   Catalog default to the CLOB URL (the simulator serves all three on one origin);
// - the client owns its transport unless one is injected: close() closes only what it owns;
// - credentials and address are optional: without them signed routes throw
//   MissingCredentialsError before sending, and every public route works;
// - every method takes an optional CallOptions last (AbortSignal, timeout);
// - nothing here reads the time except through the injected Clock (L2 timestamps).
import type { IncomingHttpHeaders } from 'node:http';
import type { BackoffPolicy } from '../../core/backoff.js';
import { ParseError } from '../../core/errors.js';
import type { Book } from '../../core/book.js';
import type { Clock } from '../../core/clock.js';
import type {
  ApiKeyCreds,
  BalanceAllowance,
  HeartbeatAck,
  OpenOrderPage,
  TradePage,
  TradeRecord,
  BestPrices,
  CancelResult,
  CatalogEvent,
  CatalogEventFull,
  ClobMarketSettings,
  ClosedPosition,
  Comment,
  LastTradePrice,
  LeaderboardEntry,
  Market,
  MarketsPage,
  OrderRecord,
  Position,
  PricePoint,
  PublicSearch,
  SamplingMarket,
  SimplifiedMarket,
  Tag,
  Trade,
} from '../../core/market.js';
import type { Price } from '../../core/money.js';
import type { PlacementResult } from '../../core/order.js';
import type { ApiCredentials } from '../auth/credentials.js';
import type { Dialect } from '../dialect.js';
import { HttpTransport, type TransportOptions } from '../http/transport.js';
import type {
  BatchPricesHistoryOptions,
  ClosedPositionsParams,
  CreatorParams,
  EventsParams,
  LeaderboardParams,
  PageParams,
  PositionsParams,
  PricesHistoryParams,
  PublicSearchParams,
  TradesParams,
} from '../params/types.js';
import type { AccountTradesParams, BalanceAllowanceParams, OpenOrdersParams } from '../params/account.js';
import type { WireOrderSubmission } from '../wire.js';
import * as account from './account.js';
import * as auth from './auth.js';
import * as catalog from './catalog.js';
import { ClientCore, parseBaseUrl, type CallOptions } from './core.js';
import * as leaderboard from './leaderboard.js';
import * as md from './market-data.js';
import * as markets from './markets.js';
import * as admin from './orders-admin.js';
import * as orders from './orders.js';
import * as portfolio from './portfolio.js';
import { ROUTES } from './routes.js';
import * as service from './service.js';
import * as trading from './trading.js';

export interface ExchangeClientOptions {
  /** CLOB API base URL (trading, order data, market data, L1 key routes). */
  clobUrl: string;
  /** Data API base URL (positions, closed positions, trades, leaderboard). Defaults to clobUrl. */
  dataUrl?: string;
  /** Catalog (Gamma) API base URL (events, tags, comments, search). Defaults to clobUrl. */
  catalogUrl?: string;
  dialect: Dialect;
  credentials?: ApiCredentials;
  /** Wallet address sent in L2 headers. */
  address?: string;
  clock: Clock;
  /** A shared transport (e.g. one per process); when absent the client builds and owns one. */
  transport?: HttpTransport;
  // Options of an owned transport:
  connections?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  backoff?: Partial<BackoffPolicy>;
  random?: () => number;
  beforeSend?: (route: string, signal?: AbortSignal, body?: string) => Promise<void>;
  onResponse?: (route: string, status: number, headers: IncomingHttpHeaders) => void;
  onThrottled?: (route: string, retryAfterMs: number | null) => void;
  userAgent?: string;
}

/** `{"tier": "<name>"}` → the name (any string; a bad shape is EXCHANGE_BAD_RESPONSE via the core). */
function parseTierAnswer(json: unknown): string {
  const tier = typeof json === 'object' && json !== null ? (json as { tier?: unknown }).tier : undefined;
  if (typeof tier !== 'string') throw new ParseError('tier', 'expected a string');
  return tier;
}

/** Copies the keys whose value is defined (exactOptionalPropertyTypes forbids `key: undefined`). */
function definedOnly<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

export class ExchangeClient {
  readonly transport: HttpTransport;
  private readonly core: ClientCore;
  private readonly ownsTransport: boolean;

  constructor(opts: ExchangeClientOptions) {
    const clob = parseBaseUrl(opts.clobUrl, 'clobUrl');
    const bases = {
      clob,
      data: opts.dataUrl === undefined ? clob : parseBaseUrl(opts.dataUrl, 'dataUrl'),
      catalog: opts.catalogUrl === undefined ? clob : parseBaseUrl(opts.catalogUrl, 'catalogUrl'),
    };
    this.ownsTransport = opts.transport === undefined;
    const transportOptions: TransportOptions = {
      clock: opts.clock,
      ...definedOnly({
        connections: opts.connections,
        connectTimeoutMs: opts.connectTimeoutMs,
        headersTimeoutMs: opts.headersTimeoutMs,
        bodyTimeoutMs: opts.bodyTimeoutMs,
        keepAliveTimeoutMs: opts.keepAliveTimeoutMs,
        backoff: opts.backoff,
        random: opts.random,
        beforeSend: opts.beforeSend,
        onResponse: opts.onResponse,
        onThrottled: opts.onThrottled,
        userAgent: opts.userAgent,
      }),
    };
    this.transport = opts.transport ?? new HttpTransport(transportOptions);
    this.core = new ClientCore(this.transport, bases, opts.clock, {
      dialect: opts.dialect,
      credentials: opts.credentials ?? null,
      address: opts.address ?? null,
    });
  }

  /** Closes the transport if this client created it. */
  async close(): Promise<void> {
    if (this.ownsTransport) await this.transport.close();
  }

  // ---- trading (interface §4.1), signed, never retried
  postOrder(submission: WireOrderSubmission, o?: CallOptions): Promise<PlacementResult> {
    return trading.postOrder(this.core, submission, o);
  }
  /** 1 to 15 submissions; one result per submission, in order. */
  postOrders(submissions: readonly WireOrderSubmission[], o?: CallOptions): Promise<PlacementResult[]> {
    return trading.postOrders(this.core, submissions, o);
  }
  cancelOrder(orderId: string, o?: CallOptions): Promise<CancelResult> {
    return trading.cancelOrder(this.core, orderId, o);
  }

  // ---- order data (§4.2), signed read
  /** null: the exchange answered that it does not know the id (public order wire). */
  getOrder(orderId: string, o?: CallOptions): Promise<OrderRecord | null> {
    return orders.getOrder(this.core, orderId, o);
  }

  // ---- account lifecycle (the public exchange's routes, both dialects), signed
  /** One page of the account's live orders (`cursor` default `MA==`). */
  getOpenOrders(params?: OpenOrdersParams, cursor?: string, o?: CallOptions): Promise<OpenOrderPage> {
    return account.getOpenOrders(this.core, params, cursor, o);
  }
  /** Every live order of the account, following `next_cursor` to the end. */
  iterateOpenOrders(params?: OpenOrdersParams, o?: CallOptions): AsyncGenerator<OrderRecord, void, undefined> {
    return account.iterateOpenOrders(this.core, params, o);
  }
  /** One page of the account's trades (as taker or maker) with their settlement status. */
  getAccountTrades(params?: AccountTradesParams, cursor?: string, o?: CallOptions): Promise<TradePage> {
    return account.getAccountTrades(this.core, params, cursor, o);
  }
  iterateAccountTrades(params?: AccountTradesParams, o?: CallOptions): AsyncGenerator<TradeRecord, void, undefined> {
    return account.iterateAccountTrades(this.core, params, o);
  }
  getBalanceAllowance(params: BalanceAllowanceParams, o?: CallOptions): Promise<BalanceAllowance> {
    return account.getBalanceAllowance(this.core, params, o);
  }
  /** null starts a heartbeat; then pass the id of the previous ack (see HeartbeatAck.resynchronized). */
  postHeartbeat(heartbeatId: string | null, o?: CallOptions): Promise<HeartbeatAck> {
    return account.postHeartbeat(this.core, heartbeatId, o);
  }
  /** Never retried. Duplicate ids are sent once; an empty list sends nothing. */
  cancelOrders(orderIds: readonly string[], o?: CallOptions): Promise<CancelResult> {
    return admin.cancelOrders(this.core, orderIds, o);
  }
  cancelAll(o?: CallOptions): Promise<CancelResult> {
    return admin.cancelAll(this.core, o);
  }
  cancelMarketOrders(filter: admin.CancelMarketOrdersFilter, o?: CallOptions): Promise<CancelResult> {
    return admin.cancelMarketOrders(this.core, filter, o);
  }
  /** The signer's per-signer trading tier as the exchange spells it (`{"tier": "<name>"}`, polymarket
   *  dialect; docs/rate-limits.md). The caller decides what an unknown name means. */
  getRateLimitTier(o?: CallOptions): Promise<string> {
    return this.core.call({
      route: ROUTES.rateLimitTier,
      path: '/v1/user/rate-limit-tier',
      parse: parseTierAnswer,
      options: o,
    });
  }

  // ---- market data (§4.3, docs/protocol.md §5/§8)
  getBook(tokenId: string, o?: CallOptions): Promise<Book> {
    return md.getBook(this.core, tokenId, o);
  }
  getBooks(tokenIds: readonly string[], o?: CallOptions): Promise<Book[]> {
    return md.getBooks(this.core, tokenIds, o);
  }
  getPrices(tokenIds: readonly string[], o?: CallOptions): Promise<Map<string, BestPrices>> {
    return md.getPrices(this.core, tokenIds, o);
  }
  getMidpoints(tokenIds: readonly string[], o?: CallOptions): Promise<Map<string, Price>> {
    return md.getMidpoints(this.core, tokenIds, o);
  }
  getLastTradesPrices(tokenIds: readonly string[], o?: CallOptions): Promise<LastTradePrice[]> {
    return md.getLastTradesPrices(this.core, tokenIds, o);
  }
  getBatchPricesHistory(
    marketIds: readonly string[],
    params?: BatchPricesHistoryOptions,
    o?: CallOptions,
  ): Promise<Map<string, PricePoint[]>> {
    return md.getBatchPricesHistory(this.core, marketIds, params, o);
  }
  getPrice(tokenId: string, side: 'BUY' | 'SELL', o?: CallOptions): Promise<Price | null> {
    return md.getPrice(this.core, tokenId, side, o);
  }
  getMidpoint(tokenId: string, o?: CallOptions): Promise<Price | null> {
    return md.getMidpoint(this.core, tokenId, o);
  }
  getPricesHistory(tokenId: string, params?: PricesHistoryParams, o?: CallOptions): Promise<PricePoint[]> {
    return md.getPricesHistory(this.core, tokenId, params, o);
  }

  // ---- market listings (§4.3) with cursor paging
  getMarkets(cursor?: string, o?: CallOptions): Promise<MarketsPage<Market>> {
    return markets.getMarketsPage(this.core, 'markets', cursor, o);
  }
  getSamplingMarkets(cursor?: string, o?: CallOptions): Promise<MarketsPage<SamplingMarket>> {
    return markets.getMarketsPage(this.core, 'sampling', cursor, o);
  }
  getSamplingSimplifiedMarkets(cursor?: string, o?: CallOptions): Promise<MarketsPage<SimplifiedMarket>> {
    return markets.getMarketsPage(this.core, 'simplified', cursor, o);
  }
  /** Every market of every page, following next_cursor from `MA==` (or `start`) until `LTE=`. */
  iterateMarkets(start?: string, o?: CallOptions): AsyncGenerator<Market, void, undefined> {
    return markets.iterateMarkets(this.core, 'markets', start, o);
  }
  iterateSamplingMarkets(start?: string, o?: CallOptions): AsyncGenerator<SamplingMarket, void, undefined> {
    return markets.iterateMarkets(this.core, 'sampling', start, o);
  }
  iterateSamplingSimplifiedMarkets(start?: string, o?: CallOptions): AsyncGenerator<SimplifiedMarket, void, undefined> {
    return markets.iterateMarkets(this.core, 'simplified', start, o);
  }
  /** Every page (with its cursor and counts), for callers that checkpoint progress. */
  iterateMarketPages(start?: string, o?: CallOptions): AsyncGenerator<MarketsPage<Market>, void, undefined> {
    return markets.iterateMarketPages(this.core, 'markets', start, o);
  }
  iterateSamplingMarketPages(
    start?: string,
    o?: CallOptions,
  ): AsyncGenerator<MarketsPage<SamplingMarket>, void, undefined> {
    return markets.iterateMarketPages(this.core, 'sampling', start, o);
  }
  iterateSamplingSimplifiedMarketPages(
    start?: string,
    o?: CallOptions,
  ): AsyncGenerator<MarketsPage<SimplifiedMarket>, void, undefined> {
    return markets.iterateMarketPages(this.core, 'simplified', start, o);
  }
  getClobMarket(conditionId: string, o?: CallOptions): Promise<ClobMarketSettings> {
    return markets.getClobMarket(this.core, conditionId, o);
  }

  // ---- service routes (docs/protocol.md §8)
  healthCheck(o?: CallOptions): Promise<'OK'> {
    return service.healthCheck(this.core, o);
  }
  /** Server time, Unix seconds. */
  getServerTime(o?: CallOptions): Promise<number> {
    return service.getServerTime(this.core, o);
  }
  getVersion(o?: CallOptions): Promise<number> {
    return service.getVersion(this.core, o);
  }
  getTickSize(tokenId: string, o?: CallOptions): Promise<Price> {
    return service.getTickSize(this.core, tokenId, o);
  }
  getNegRisk(tokenId: string, o?: CallOptions): Promise<boolean> {
    return service.getNegRisk(this.core, tokenId, o);
  }

  // ---- L1 key routes (docs/protocol.md §2): headers built by the caller (buildL1Headers)
  createApiKey(l1Headers: auth.L1Headers, o?: CallOptions): Promise<ApiKeyCreds> {
    return auth.createApiKey(this.core, l1Headers, o);
  }
  deriveApiKey(l1Headers: auth.L1Headers, o?: CallOptions): Promise<ApiKeyCreds> {
    return auth.deriveApiKey(this.core, l1Headers, o);
  }

  // ---- portfolio (§4.4) and trades (docs/protocol.md §8), Data API
  getPositions(params: PositionsParams, o?: CallOptions): Promise<Position[]> {
    return portfolio.getPositions(this.core, params, o);
  }
  getClosedPositions(params: ClosedPositionsParams, o?: CallOptions): Promise<ClosedPosition[]> {
    return portfolio.getClosedPositions(this.core, params, o);
  }
  getTrades(params?: TradesParams, o?: CallOptions): Promise<Trade[]> {
    return portfolio.getTrades(this.core, params, o);
  }

  // ---- catalog and community (§4.5, docs/protocol.md §8), Catalog API
  getEvents(params?: EventsParams, o?: CallOptions): Promise<CatalogEvent[]> {
    return catalog.getEvents(this.core, params, o);
  }
  getEventBySlug(slug: string, params?: CreatorParams, o?: CallOptions): Promise<CatalogEventFull> {
    return catalog.getEventBySlug(this.core, slug, params, o);
  }
  getMarketTags(marketId: string, params?: CreatorParams, o?: CallOptions): Promise<Tag[]> {
    return catalog.getMarketTags(this.core, marketId, params, o);
  }
  getCommentReplies(commentId: string, params?: PageParams, o?: CallOptions): Promise<Comment[]> {
    return catalog.getCommentReplies(this.core, commentId, params, o);
  }
  getUserComments(userAddress: string, params?: PageParams, o?: CallOptions): Promise<Comment[]> {
    return catalog.getUserComments(this.core, userAddress, params, o);
  }
  getTags(params?: PageParams, o?: CallOptions): Promise<Tag[]> {
    return catalog.getTags(this.core, params, o);
  }
  publicSearch(params: PublicSearchParams, o?: CallOptions): Promise<PublicSearch> {
    return catalog.publicSearch(this.core, params, o);
  }

  // ---- leaderboard (§4.5), Data API
  getLeaderboard(params?: LeaderboardParams, o?: CallOptions): Promise<LeaderboardEntry[]> {
    return leaderboard.getLeaderboard(this.core, params, o);
  }
}

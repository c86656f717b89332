// Every route the client calls, as data: the stable route key the rate limiter budgets by and
// errors name (`METHOD /path`, path parameters as `{name}`), the API that serves it (the public
// exchange splits CLOB, Data and Gamma), whether a retry is harmless, and the auth it needs.
// Invariants: one entry per route of interface §4 and docs/protocol.md §2/§8, plus the account-lifecycle
// routes of the public exchange that the interface does not list (open orders, account trades,
// batch cancels, heartbeat, balance/allowance; both dialects serve them, see wire-account.ts); a
// key never changes once published (the limiter keys budgets by it); `POST /orders` is its own
// key (the limiter maps it into the POST /order budget); only reads and market-data batches are
// idempotent.

export type Api = 'clob' | 'data' | 'catalog';
export type Auth = 'none' | 'l1' | 'l2';

export interface RouteDef {
  readonly key: string;
  readonly api: Api;
  readonly idempotent: boolean;
  readonly auth: Auth;
}

const r = (key: string, api: Api, idempotent: boolean, auth: Auth = 'none'): RouteDef =>
  Object.freeze({ key, api, idempotent, auth });

export const ROUTES = Object.freeze({
  // interface §4.1 trading (signed writes: never retried)
  postOrder: r('POST /order', 'clob', false, 'l2'),
  postOrders: r('POST /orders', 'clob', false, 'l2'),
  cancelOrder: r('DELETE /order', 'clob', false, 'l2'),
  // §4.2 order data (signed read)
  getOrder: r('GET /data/order/{id}', 'clob', true, 'l2'),
  // Account lifecycle: not in the interface; the public exchange's routes, as its official clients
  // call them (Polymarket/clob-client-v2 src/endpoints.ts @ f3e1a05f868a1fd0c34ef85dfc45c6ce78f5bb69:
  // GET_OPEN_ORDERS, GET_TRADES, CANCEL_ORDERS, CANCEL_ALL, CANCEL_MARKET_ORDERS, HEARTBEAT,
  // GET_BALANCE_ALLOWANCE), all L2-signed; cancels and the heartbeat are writes, never retried.
  openOrders: r('GET /data/orders', 'clob', true, 'l2'),
  accountTrades: r('GET /data/trades', 'clob', true, 'l2'),
  cancelOrders: r('DELETE /orders', 'clob', false, 'l2'),
  cancelAll: r('DELETE /cancel-all', 'clob', false, 'l2'),
  cancelMarketOrders: r('DELETE /cancel-market-orders', 'clob', false, 'l2'),
  heartbeat: r('POST /v1/heartbeats', 'clob', false, 'l2'),
  balanceAllowance: r('GET /balance-allowance', 'clob', true, 'l2'),
  // The signer's per-signer trading tier (polymarket dialect; docs/rate-limits.md): a signed read.
  rateLimitTier: r('GET /v1/user/rate-limit-tier', 'clob', true, 'l2'),
  // §4.3 market data
  book: r('GET /book', 'clob', true),
  books: r('POST /books', 'clob', true),
  prices: r('POST /prices', 'clob', true),
  midpoints: r('POST /midpoints', 'clob', true),
  lastTradesPrices: r('POST /last-trades-prices', 'clob', true),
  batchPricesHistory: r('POST /batch-prices-history', 'clob', true),
  markets: r('GET /markets', 'clob', true),
  samplingMarkets: r('GET /sampling-markets', 'clob', true),
  samplingSimplifiedMarkets: r('GET /sampling-simplified-markets', 'clob', true),
  clobMarket: r('GET /clob-markets/{condition_id}', 'clob', true),
  // docs/protocol.md §8 (CLOB)
  health: r('GET /', 'clob', true),
  price: r('GET /price', 'clob', true),
  midpoint: r('GET /midpoint', 'clob', true),
  pricesHistory: r('GET /prices-history', 'clob', true),
  time: r('GET /time', 'clob', true),
  version: r('GET /version', 'clob', true),
  tickSize: r('GET /tick-size', 'clob', true),
  negRisk: r('GET /neg-risk', 'clob', true),
  // docs/protocol.md §2 L1 key routes (create is not idempotent: each call may mint a key)
  createApiKey: r('POST /auth/api-key', 'clob', false, 'l1'),
  deriveApiKey: r('GET /auth/derive-api-key', 'clob', true, 'l1'),
  // §4.4 portfolio, §4.5 leaderboard and §8 trades (the public exchange's Data API)
  positions: r('GET /positions', 'data', true),
  closedPositions: r('GET /closed-positions', 'data', true),
  trades: r('GET /trades', 'data', true),
  leaderboard: r('GET /v1/leaderboard', 'data', true),
  // §4.5 catalog and community, §8 tags and search (the public exchange's Gamma API)
  events: r('GET /events', 'catalog', true),
  eventBySlug: r('GET /events/slug/{slug}', 'catalog', true),
  marketTags: r('GET /markets/{id}/tags', 'catalog', true),
  comments: r('GET /comments/{id}', 'catalog', true),
  userComments: r('GET /comments/user_address/{user_address}', 'catalog', true),
  tags: r('GET /tags', 'catalog', true),
  publicSearch: r('GET /public-search', 'catalog', true),
} satisfies Record<string, RouteDef>);

export type RouteName = keyof typeof ROUTES;

/** Every route key the client can report to the limiter. */
export const ROUTE_KEYS: readonly string[] = Object.freeze(Object.values(ROUTES).map((d) => d.key));

/** Batch bounds of docs/protocol.md §4/§5. */
export const MAX_TOKENS_PER_BATCH = 500;
export const MAX_MARKETS_PER_HISTORY_BATCH = 20;
/** Cursor of the first page, and the one the last page answers (docs/protocol.md §5). */
export const FIRST_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

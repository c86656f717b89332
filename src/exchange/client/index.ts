// Public surface of the exchange client: the client class, its options, the route table the rate
// limiter keys budgets by, and the call options. Other modules import from here.
export { ExchangeClient, type ExchangeClientOptions } from './exchange-client.js';
export {
  ROUTES,
  ROUTE_KEYS,
  MAX_TOKENS_PER_BATCH,
  MAX_MARKETS_PER_HISTORY_BATCH,
  FIRST_CURSOR,
  END_CURSOR,
  type Api,
  type RouteDef,
  type RouteName,
} from './routes.js';
export type { CallOptions } from './core.js';
export type { L1Headers } from './auth.js';
export { isRequestLevelError } from './trading.js';
export type { CancelMarketOrdersFilter } from './orders-admin.js';
export type { AccountTradesParams, BalanceAllowanceParams, OpenOrdersParams } from '../params/account.js';

// The exchange parsers: wire JSON (as after JSON.parse) → domain types, each
// `(json: unknown, path?: string) => Domain`, throwing ParseError with the field path.
export { parseBook, parseBooks } from './book.js';
export {
  parseBestPrices,
  parseLastTradePrices,
  parseMidpointResponse,
  parseMidpoints,
  parsePriceHistory,
  parsePriceHistoryBatch,
  parsePriceResponse,
} from './prices.js';
export {
  END_CURSOR,
  parseClobMarketSettings,
  parseMarket,
  parseMarketsEnvelope,
  parseRewards,
  parseSamplingMarket,
  parseSimplifiedMarket,
  type MarketsKind,
} from './markets.js';
export {
  parseCancelResult,
  parseOrderLookup,
  parseOrderStatus,
  parsePlacementResult,
  parsePlacementResults,
} from './orders.js';
export {
  parsePublicCancelResult,
  parsePublicOrderLookup,
  parsePublicOrderRecord,
  parsePublicOrderStatus,
  parsePublicPlacementResult,
  parsePublicPlacementResults,
} from './orders-public.js';
export { parsePublicBestPrices } from './prices-public.js';
export { parseClosedPositions, parsePositions, parseTrades } from './portfolio.js';
export {
  parseComments,
  parseEventFull,
  parseEvents,
  parseLeaderboard,
  parsePublicSearch,
  parseTags,
} from './catalog.js';
export { parseApiKeyCreds } from './auth.js';
export { readMicros, readPrice, readShares, scanMicros } from './decimal.js';
export { parseOpenOrderPage } from './open-orders.js';
export { parseAccountTrade, parseAccountTradePage, parseMakerOrder, parseTradeStatus } from './account-trades.js';
export { parseBalanceAllowance, parseHeartbeatId } from './balance.js';

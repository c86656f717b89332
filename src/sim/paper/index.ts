// Public surface of paper mode's simulated venue: the PaperGateway (the ExchangeGateway of paper
// mode), the PaperVenue behind it (reused by backtests with recorded books), the fill models and
// the external-liquidity limits. The fill rules are stated in venue.ts and fill-model.ts.
export { PaperGateway, placement, type PaperGatewayOptions, type PaperGatewayStats } from './gateway.js';
export {
  PaperVenue,
  checkVenueOptions,
  PAPER_ACCOUNT,
  EXTERNAL_ACCOUNT,
  type BookFeed,
  type FillListener,
  type PaperOrder,
  type PaperVenueOptions,
  type PaperVenueStats,
  type PublicTrade,
  type TradeFeed,
} from './venue.js';
export {
  CROSS_FILL_MODEL,
  FILL_MODELS,
  crossTrade,
  type ExternalDesk,
  type ExternalTrade,
  type FillModel,
  type FillModelName,
} from './fill-model.js';
export {
  DEFAULT_EXTERNAL_LIMITS,
  resolveExternalLimits,
  sanitizeSide,
  type ExternalLimits,
  type ExternalStats,
} from './external.js';
export { externalBook, type ExternalBook } from './external-book.js';
export { paperMarketFromSettings, type MarketDisplay, type PaperMarket } from './market.js';
export type { PaperFill } from './positions.js';
export { PaperError, type PaperErrorCode } from './errors.js';

// Public surface of the synthetic world for the simulator's HTTP layer: generation, the World and
// its mutations, renderers, and the query functions (each returns {ok, status, body} ready to send:
// `reply.code(r.status).send(r.body)`). Invariant: this file only re-exports.
//
// Route → function (q = the parsed query record, repeated keys as arrays; body = parsed JSON):
//   GET  /markets                          listMarkets(world, q)
//   GET  /sampling-markets                 listSamplingMarkets(world, q)
//   GET  /sampling-simplified-markets      listSamplingSimplifiedMarkets(world, q)
//   GET  /markets/{condition_id}           getMarket(world, id)
//   GET  /clob-markets/{condition_id}      getClobMarketSettings(world, id)
//   GET  /tick-size, /neg-risk             getTickSize(world, q), getNegRisk(world, q)
//   GET  /events                           listEvents(world, q)
//   GET  /events/slug/{slug}               getEventBySlug(world, slug, q)
//   GET  /markets/{id}/tags                getMarketTags(world, id, q)
//   GET  /tags                             listTags(world, q)
//   GET  /public-search                    publicSearch(world, q)
//   GET  /comments/{id}                    getCommentReplies(world, id, q)
//   GET  /comments/user_address/{addr}     getCommentsByUser(world, addr, q)
//   GET  /v1/leaderboard                   getLeaderboard(world, q)
//   GET  /positions                        getPositions(positionBook, q)
//   GET  /closed-positions                 getClosedPositions(positionBook, q)
//   GET  /trades                           tradeLog.query(q)
//   GET  /prices-history                   priceHistory.query(q, clock.now())
//   POST /batch-prices-history             priceHistory.batch(body, clock.now())
//   POST /last-trades-prices               lastTrades.lastTradesPrices(body)
// Start: replayPast(world, positionBook, tradeLog) feeds the world's past trades (the history its
// leaderboard is derived from) before any live fill.
// Feeding: each engine trade → one Fill per wallet → positionBook.applyFill + tradeLog.append,
// lastTrades.record; a clock interval → priceHistory.sampleMids(world, mid, now) and
// world.setTokenPrice(token, mid); tick changes, closing and resolution → world.setTick / close /
// resolve (positions and listings read the state live).
export { Rng, type Seed } from './rng.js';
export { generateWorld, type WorldOptions } from './generate.js';
export { World, WorldError, type TokenRef, type EventFlags } from './world.js';
export type * from './model.js';
export { CATEGORIES, LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS } from './model.js';
export * from './render-market.js';
export * from './render-catalog.js';
export { type RawQuery, type QueryResult, type Failure } from './query.js';
export { FIRST_CURSOR, END_CURSOR, encodeCursor, decodeCursor } from './cursor.js';
export * from './query-markets.js';
export * from './query-events.js';
export * from './query-comments.js';
export * from './query-leaderboard.js';
export {
  PositionBook,
  PortfolioError,
  toWirePosition,
  toWireClosedPosition,
  type Fill,
  type PriceFn,
  type PositionView,
} from './portfolio.js';
export * from './query-positions.js';
export { TradeLog } from './trades.js';
export { generatePastTrades, LOT } from './past-trades.js';
export {
  deriveStandings,
  LEADERBOARD_WINDOW_MS,
  pastFill,
  replayPast,
  type Holding,
  type Standings,
} from './standings.js';
export { PriceHistory, LastTrades, HistoryError, type LastTrade } from './history.js';

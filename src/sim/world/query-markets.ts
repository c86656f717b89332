// Queries of the CLOB market listings and per-market settings: GET /markets, /sampling-markets,
// /sampling-simplified-markets (cursor paged), /clob-markets/{condition_id}, plus the public
// exchange's GET /markets/{condition_id}, /tick-size and /neg-risk. Invariants kept here:
// - listings are in market-id order and read the live market state on every call;
// - page size: 100 records, the public exchange's (the recorded page in
//   test/fixtures/real/wire/markets/markets_get_page_nautilus_2024.json has limit 100 and next_cursor "MTAw");
//   configurable per call; the envelope's `limit` is the page size, `count` the records returned;
// - the sampling listings hold the markets eligible for liquidity rewards now: rewards set, not
//   closed, accepting orders;
// - errors use the market-data shape {error}: 400 for a bad cursor or unknown parameter,
//   404 `market not found` for an unknown condition id or token id.
import type {
  WireClobMarketSettings,
  WireMarket,
  WireMarketsEnvelope,
  WireNegRiskResponse,
  WireSamplingMarket,
  WireSimplifiedMarket,
  WireTickSizeResponse,
} from '../../exchange/wire.js';
import { cursorPage, decodeCursor } from './cursor.js';
import type { MarketRec } from './model.js';
import { microsToNumber } from './numbers.js';
import { DATA_STYLE, dataError, fail, Params, runQuery, type QueryResult, type RawQuery } from './query.js';
import {
  toWireClobMarketSettings,
  toWireMarket,
  toWireSamplingMarket,
  toWireSimplifiedMarket,
} from './render-market.js';
import type { World } from './world.js';
import { OptionError } from '../../core/errors.js';

export const MARKETS_PAGE_SIZE = 100;

export interface ListingOptions {
  pageSize?: number;
}

function listing<T>(
  markets: readonly MarketRec[],
  q: RawQuery,
  render: (m: MarketRec) => T,
  opts: ListingOptions,
): QueryResult<WireMarketsEnvelope<T>> {
  const pageSize = opts.pageSize ?? MARKETS_PAGE_SIZE;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new OptionError('SIM_OPTION', `bad page size: ${String(pageSize)}`);
  return runQuery(() => {
    const p = new Params(q, DATA_STYLE).only(['next_cursor']);
    const cursor = p.string('next_cursor');
    let offset = 0;
    if (cursor !== undefined && cursor !== '') {
      const o = decodeCursor(cursor);
      if (o === null) fail(dataError(400, 'invalid next_cursor'));
      offset = o;
    }
    const pg = cursorPage(markets, offset, pageSize);
    const data = pg.items.map(render);
    return { data, next_cursor: pg.nextCursor, limit: pageSize, count: data.length };
  });
}

function isSampling(m: MarketRec): boolean {
  return m.rewards !== null && !m.state.closed && m.state.acceptingOrders;
}

export function listMarkets(
  world: World,
  q: RawQuery,
  opts: ListingOptions = {},
): QueryResult<WireMarketsEnvelope<WireMarket>> {
  return listing(world.markets, q, toWireMarket, opts);
}

export function listSamplingMarkets(
  world: World,
  q: RawQuery,
  opts: ListingOptions = {},
): QueryResult<WireMarketsEnvelope<WireSamplingMarket>> {
  return listing(world.markets.filter(isSampling), q, (m) => toWireSamplingMarket(world, m), opts);
}

export function listSamplingSimplifiedMarkets(
  world: World,
  q: RawQuery,
  opts: ListingOptions = {},
): QueryResult<WireMarketsEnvelope<WireSimplifiedMarket>> {
  return listing(world.markets.filter(isSampling), q, toWireSimplifiedMarket, opts);
}

function byCondition(world: World, conditionId: string): MarketRec {
  const m = world.marketByCondition(conditionId);
  if (m === undefined) fail(dataError(404, 'market not found'));
  return m;
}

export function getClobMarketSettings(world: World, conditionId: string): QueryResult<WireClobMarketSettings> {
  return runQuery(() => toWireClobMarketSettings(byCondition(world, conditionId)));
}

/** GET /markets/{condition_id}: one §2.8 record (the public exchange's single-market route). */
export function getMarket(world: World, conditionId: string): QueryResult<WireMarket> {
  return runQuery(() => toWireMarket(byCondition(world, conditionId)));
}

function byToken(world: World, q: RawQuery): MarketRec {
  const p = new Params(q, DATA_STYLE).only(['token_id']);
  const id = p.required('token_id');
  const ref = world.token(id);
  if (ref === undefined) fail(dataError(404, 'market not found'));
  return ref.market;
}

/** GET /tick-size?token_id= */
export function getTickSize(world: World, q: RawQuery): QueryResult<WireTickSizeResponse> {
  return runQuery(() => ({ minimum_tick_size: microsToNumber(byToken(world, q).state.tick) }));
}

/** GET /neg-risk?token_id= */
export function getNegRisk(world: World, q: RawQuery): QueryResult<WireNegRiskResponse> {
  return runQuery(() => ({ neg_risk: byToken(world, q).negRisk }));
}

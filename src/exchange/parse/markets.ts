// Market listings and trading settings wire → domain (interface §2.8–2.10). Invariants: tick and
// minimum size become exact Price/Shares (a tick must be one docs/protocol.md §3 lists), rewards become
// millionths with the spread window rounded down, fees stay integer basis points; what real
// records leave `null` or `""` (accepting_order_timestamp, game_start_time, rewards.rates, tags,
// placeholder tokens) becomes null or empty, never zero. Fields the 2022–2024 records predate
// (itode, taker_order_delay_ms, order_age_seconds, screening_check_enabled) are null when absent.
// Envelope: `count` and `limit` are kept as sent (informational; data.length is authoritative).
// These are the interface's shapes; the public exchange's (dialect readWire 'public') are read by
// public-markets.ts, which shares the record fields here with numbers also taken as decimal strings.
import { divRound, type Micros, type Price } from '../../core/money.js';
import type {
  ClobMarketSettings,
  Market,
  MarketsPage,
  MarketToken,
  RewardRate,
  Rewards,
  SamplingEvent,
  SamplingMarket,
  SimplifiedMarket,
} from '../../core/market.js';
import { isKnownTick } from '../../core/tick.js';
import {
  amountOf,
  arrOf,
  at,
  bool,
  fail,
  finite,
  int,
  intOrString,
  nonEmpty,
  nonNegInt,
  obj,
  opaque,
  optBool,
  optInt,
  optIso,
  optStr,
  priceOf,
  sharesOf,
  str,
  type NumberForm,
} from './read.js';

export type MarketsKind = 'markets' | 'sampling' | 'simplified';

/** The cursor value of the last page (base64 of −1). */
export const END_CURSOR = 'LTE=';

function parseRewardRate(v: unknown, path: string, form: NumberForm): RewardRate {
  const o = obj(v, path);
  return {
    assetAddress: str(o['asset_address'], at(path, 'asset_address')),
    dailyRate: amountOf(o['rewards_daily_rate'], at(path, 'rewards_daily_rate'), 'floor', form),
  };
}

export function parseRewards(v: unknown, path: string, form: NumberForm = 'number'): Rewards {
  const o = obj(v, path);
  const ratesV = o['rates'];
  const rate = (x: unknown, p: string): RewardRate => parseRewardRate(x, p, form);
  const rates = ratesV === null || ratesV === undefined ? [] : arrOf(ratesV, at(path, 'rates'), rate);
  let daily = 0;
  for (const r of rates) daily += r.dailyRate;
  // cents → price: millionths of a cent / 100, floored (exact for ≤ 4 decimals of a cent).
  const centMicros = amountOf(o['max_spread'], at(path, 'max_spread'), 'floor', form);
  if (centMicros < 0) fail(at(path, 'max_spread'), `negative spread ${String(o['max_spread'])}`);
  return {
    rates,
    dailyRate: daily as Micros,
    minSize: sharesOf(o['min_size'], at(path, 'min_size'), 'trunc', form),
    maxSpreadCents: typeof o['max_spread'] === 'number' ? o['max_spread'] : centMicros / 1_000_000,
    maxSpread: Number(divRound(BigInt(centMicros), 100n, 'floor')) as Price,
  };
}

export function parseToken(v: unknown, path: string, form: NumberForm = 'number'): MarketToken {
  const o = obj(v, path);
  return {
    tokenId: optStr(o['token_id'], at(path, 'token_id')),
    outcome: str(o['outcome'], at(path, 'outcome')),
    price:
      o['price'] === null || o['price'] === undefined
        ? null
        : priceOf(o['price'], at(path, 'price'), 'half-even', form),
    winner: bool(o['winner'], at(path, 'winner')),
  };
}

export function tick(v: unknown, path: string, form: NumberForm = 'number'): Price {
  const t = priceOf(v, path, 'half-even', form);
  if (!isKnownTick(t)) fail(path, `unknown tick size ${String(v)}`);
  return t;
}

function strings(v: unknown, path: string): string[] {
  return arrOf(v, path, str);
}

/** §2.8 base market record. */
export function parseMarket(json: unknown, path = ''): Market {
  return marketFields(obj(json, path), path, 'number');
}

/**
 * The fields of a market record. `form` 'number-or-string': numbers may also come as strict
 * decimal strings and `tokens` may be null (the public exchange's official Rust client reads them
 * as Decimal and DefaultOnNull: rs-clob-client src/clob/types/response.rs@d84e8e1 MarketResponse).
 */
export function marketFields(o: Record<string, unknown>, path: string, form: NumberForm): Market {
  const p = (k: string): string => at(path, k);
  const tags = o['tags'];
  const fee = (k: string): number => nonNegInt(form === 'number' ? o[k] : intOrString(o[k], p(k)), p(k));
  const tokens = o['tokens'];
  return {
    conditionId: nonEmpty(o['condition_id'], p('condition_id')),
    questionId: optStr(o['question_id'], p('question_id')),
    question: str(o['question'], p('question')),
    description: str(o['description'], p('description')),
    marketSlug: optStr(o['market_slug'], p('market_slug')),
    tokens: form !== 'number' && tokens === null ? [] : arrOf(tokens, p('tokens'), (v, tp) => parseToken(v, tp, form)),
    tickSize: tick(o['minimum_tick_size'], p('minimum_tick_size'), form),
    minOrderSize: sharesOf(o['minimum_order_size'], p('minimum_order_size'), 'ceil', form),
    makerBaseFeeBps: fee('maker_base_fee'),
    takerBaseFeeBps: fee('taker_base_fee'),
    negRisk: bool(o['neg_risk'], p('neg_risk')),
    negRiskMarketId: optStr(o['neg_risk_market_id'], p('neg_risk_market_id')),
    negRiskRequestId: optStr(o['neg_risk_request_id'], p('neg_risk_request_id')),
    enableOrderBook: bool(o['enable_order_book'], p('enable_order_book')),
    active: bool(o['active'], p('active')),
    closed: bool(o['closed'], p('closed')),
    archived: bool(o['archived'], p('archived')),
    acceptingOrders: bool(o['accepting_orders'], p('accepting_orders')),
    acceptingOrderTimestamp: optIso(o['accepting_order_timestamp'], p('accepting_order_timestamp')),
    endDateIso: optIso(o['end_date_iso'], p('end_date_iso')),
    gameStartTime: optIso(o['game_start_time'], p('game_start_time')),
    secondsDelay: nonNegInt(o['seconds_delay'], p('seconds_delay')),
    fpmm: optStr(o['fpmm'], p('fpmm')),
    notificationsEnabled: optBool(o['notifications_enabled'], p('notifications_enabled')),
    is5050Outcome: optBool(o['is_50_50_outcome'], p('is_50_50_outcome')),
    icon: optStr(o['icon'], p('icon')),
    image: optStr(o['image'], p('image')),
    rewards: parseRewards(o['rewards'], p('rewards'), form),
    tags: tags === null || tags === undefined ? [] : strings(tags, p('tags')),
    itode: optBool(o['itode'], p('itode')),
    takerOrderDelayMs: optInt(o['taker_order_delay_ms'], p('taker_order_delay_ms')),
    orderAgeSeconds: optInt(o['order_age_seconds'], p('order_age_seconds')),
    screeningCheckEnabled: optBool(o['screening_check_enabled'], p('screening_check_enabled')),
  };
}

/** The `event` object of a sampling record (both dialects). */
export function parseSamplingEvent(v: unknown, path: string): SamplingEvent {
  const o = obj(v, path);
  return {
    id: str(o['id'], at(path, 'id')),
    slug: str(o['slug'], at(path, 'slug')),
    title: str(o['title'], at(path, 'title')),
    ticker: str(o['ticker'], at(path, 'ticker')),
    description: str(o['description'], at(path, 'description')),
  };
}

/** §2.8 sampling market record. */
export function parseSamplingMarket(json: unknown, path = ''): SamplingMarket {
  const base = parseMarket(json, path);
  const o = obj(json, path);
  return {
    ...base,
    status: str(o['status'], at(path, 'status')),
    marketId: int(o['market_id'], at(path, 'market_id')),
    slug: str(o['slug'], at(path, 'slug')),
    assetsIds: strings(o['assets_ids'], at(path, 'assets_ids')),
    outcomes: strings(o['outcomes'], at(path, 'outcomes')),
    event: parseSamplingEvent(o['event'], at(path, 'event')),
    rawMetadata: opaque(o['raw_metadata'], at(path, 'raw_metadata')),
  };
}

/** §2.9 simplified market record. */
export function parseSimplifiedMarket(json: unknown, path = ''): SimplifiedMarket {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  return {
    conditionId: nonEmpty(o['condition_id'], p('condition_id')),
    status: str(o['status'], p('status')),
    negRisk: bool(o['neg_risk'], p('neg_risk')),
    marketId: int(o['market_id'], p('market_id')),
    question: str(o['question'], p('question')),
    slug: str(o['slug'], p('slug')),
    active: bool(o['active'], p('active')),
    closed: bool(o['closed'], p('closed')),
    archived: bool(o['archived'], p('archived')),
    acceptingOrders: bool(o['accepting_orders'], p('accepting_orders')),
    tokens: arrOf(o['tokens'], p('tokens'), parseToken),
    rewards: parseRewards(o['rewards'], p('rewards')),
    assetsIds: strings(o['assets_ids'], p('assets_ids')),
    outcomes: strings(o['outcomes'], p('outcomes')),
  };
}

export function parseMarketsEnvelope(json: unknown, kind: 'markets', path?: string): MarketsPage<Market>;
export function parseMarketsEnvelope(json: unknown, kind: 'sampling', path?: string): MarketsPage<SamplingMarket>;
export function parseMarketsEnvelope(json: unknown, kind: 'simplified', path?: string): MarketsPage<SimplifiedMarket>;
export function parseMarketsEnvelope(
  json: unknown,
  kind: MarketsKind,
  path?: string,
): MarketsPage<Market | SimplifiedMarket>;
/** A page of GET /markets, /sampling-markets or /sampling-simplified-markets. */
export function parseMarketsEnvelope(
  json: unknown,
  kind: MarketsKind,
  path = '',
): MarketsPage<Market | SimplifiedMarket> {
  const o = obj(json, path);
  const each: (v: unknown, path: string) => Market | SimplifiedMarket =
    kind === 'markets' ? parseMarket : kind === 'sampling' ? parseSamplingMarket : parseSimplifiedMarket;
  const cursor = str(o['next_cursor'], at(path, 'next_cursor'));
  return {
    data: arrOf(o['data'], at(path, 'data'), each),
    nextCursor: cursor === '' || cursor === END_CURSOR ? null : cursor,
    limit: nonNegInt(o['limit'], at(path, 'limit')),
    count: nonNegInt(o['count'], at(path, 'count')),
  };
}

/** §2.10 GET /clob-markets/{condition_id}. */
export function parseClobMarketSettings(json: unknown, path = ''): ClobMarketSettings {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  const fd = obj(o['fd'], p('fd'));
  return {
    conditionId: nonEmpty(o['c'], p('c')),
    gameStartTime: optStr(o['gst'], p('gst')),
    rewards: parseRewards(o['r'], p('r')),
    negRisk: bool(o['nr'], p('nr')),
    tokens: arrOf(o['t'], p('t'), (v, tp) => {
      const t = obj(v, tp);
      return { tokenId: nonEmpty(t['t'], at(tp, 't')), outcome: str(t['o'], at(tp, 'o')) };
    }),
    tickSize: tick(o['mts'], p('mts')),
    minOrderSize: sharesOf(o['mos'], p('mos'), 'ceil'),
    feeDetails: {
      r: finite(fd['r'], at(p('fd'), 'r')),
      e: finite(fd['e'], at(p('fd'), 'e')),
      to: bool(fd['to'], at(p('fd'), 'to')),
    },
    rewardConfig: null,
    acceptingOrders: null,
    makerBaseFeeBps: nonNegInt(o['mbf'], p('mbf')),
    takerBaseFeeBps: nonNegInt(o['tbf'], p('tbf')),
    rfqe: bool(o['rfqe'], p('rfqe')),
    itode: bool(o['itode'], p('itode')),
    ibce: bool(o['ibce'], p('ibce')),
    oas: finite(o['oas'], p('oas')),
  };
}

// Market listings and per-market settings as the public exchange sends them (dialect readWire
// 'public'), wire → the same domain types as markets.ts. What differs from the interface's tables,
// and where each difference is seen (fixtures in test/fixtures/real/wire/markets/, SOURCES.md there):
// - GET /markets and GET /sampling-markets carry the same base Market record, without the sampling
//   fields of interface §2.8 (status, market_id, slug, assets_ids, outcomes, event, raw_metadata):
//   rs-clob-client src/clob/types/response.rs@d84e8e15c135af8b4d87a634a601d59cd56dade8 reads both
//   pages as Page<MarketResponse>; those fields are null here when absent (parsed when present);
// - GET /sampling-simplified-markets records hold condition_id, rewards, tokens, active, closed,
//   archived, accepting_orders only (same file, SimplifiedMarketResponse; docs.polymarket.com
//   api-reference/markets/get-sampling-simplified-markets);
// - numbers may arrive as strict decimal strings and `tokens`/`rates` as null (the official Rust
//   client's Decimal and DefaultOnNull readers, and its tests' payloads);
// - GET /clob-markets/{condition_id} requires no key (docs.polymarket.com
//   api-reference/markets/get-clob-market-info); `nr`, `itode` and `fd.to` are omitted when false,
//   `c` may be absent (Polymarket/py-sdk tests/unit/test_order_market_data.py@a1d1b1a1c89dcf10269657eb4562e3c7c6bd3d03
//   answers `{fd, mts, nr, t}`), and `r` is `{mi, ma, e, smoa, moas}` or null
//   (Polymarket/clob-client-v2 src/types/clob.ts@f3e1a05f868a1fd0c34ef85dfc45c6ce78f5bb69,
//   MarketDetails/ClobRewards). Keys the daemon has no use for (sd, cbos, aot, smoa) are ignored.
// Invariants: as markets.ts (exact Price/Shares, known ticks, no invented zero), ParseError names
// the field path.
import type {
  ClobMarketSettings,
  ClobRewardConfig,
  Market,
  MarketsPage,
  SamplingEvent,
  SamplingMarket,
  SimplifiedMarket,
} from '../../core/market.js';
import {
  END_CURSOR,
  marketFields,
  parseRewards,
  parseSamplingEvent,
  parseToken,
  tick,
  type MarketsKind,
} from './markets.js';
import {
  arrOf,
  at,
  bool,
  fail,
  intOrString,
  nonEmpty,
  nonNegInt,
  obj,
  opaque,
  optBool,
  optFinite,
  optIso,
  optStr,
  sharesOf,
  str,
  type JsonObject,
} from './read.js';

const FORM = 'number-or-string' as const;

function optStrings(v: unknown, path: string): string[] | null {
  return v === undefined || v === null ? null : arrOf(v, path, str);
}

function optIntOf(v: unknown, path: string): number | null {
  return v === undefined || v === null ? null : nonNegInt(intOrString(v, path), path);
}

function optEvent(v: unknown, path: string): SamplingEvent | null {
  return v === undefined || v === null ? null : parseSamplingEvent(v, path);
}

/** A base market record of GET /markets (or /sampling-markets) as the public exchange sends it. */
export function parsePublicMarket(json: unknown, path = ''): Market {
  return marketFields(obj(json, path), path, FORM);
}

/** A GET /sampling-markets record: the base record, sampling fields null when absent. */
export function parsePublicSamplingMarket(json: unknown, path = ''): SamplingMarket {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  const raw = o['raw_metadata'];
  return {
    ...marketFields(o, path, FORM),
    status: optStr(o['status'], p('status')),
    marketId: optIntOf(o['market_id'], p('market_id')),
    slug: optStr(o['slug'], p('slug')),
    assetsIds: optStrings(o['assets_ids'], p('assets_ids')),
    outcomes: optStrings(o['outcomes'], p('outcomes')),
    event: optEvent(o['event'], p('event')),
    rawMetadata: raw === undefined || raw === null ? null : opaque(raw, p('raw_metadata')),
  };
}

/** A GET /sampling-simplified-markets record as the public exchange sends it. */
export function parsePublicSimplifiedMarket(json: unknown, path = ''): SimplifiedMarket {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  const tokens = o['tokens'];
  return {
    conditionId: nonEmpty(o['condition_id'], p('condition_id')),
    status: optStr(o['status'], p('status')),
    negRisk: optBool(o['neg_risk'], p('neg_risk')),
    marketId: optIntOf(o['market_id'], p('market_id')),
    question: optStr(o['question'], p('question')),
    slug: optStr(o['slug'], p('slug')),
    active: bool(o['active'], p('active')),
    closed: bool(o['closed'], p('closed')),
    archived: bool(o['archived'], p('archived')),
    acceptingOrders: bool(o['accepting_orders'], p('accepting_orders')),
    tokens: tokens === null ? [] : arrOf(tokens, p('tokens'), (v, tp) => parseToken(v, tp, FORM)),
    rewards: parseRewards(o['rewards'], p('rewards'), FORM),
    assetsIds: optStrings(o['assets_ids'], p('assets_ids')),
    outcomes: optStrings(o['outcomes'], p('outcomes')),
  };
}

export function parsePublicMarketsEnvelope(json: unknown, kind: 'markets', path?: string): MarketsPage<Market>;
export function parsePublicMarketsEnvelope(json: unknown, kind: 'sampling', path?: string): MarketsPage<SamplingMarket>;
export function parsePublicMarketsEnvelope(
  json: unknown,
  kind: 'simplified',
  path?: string,
): MarketsPage<SimplifiedMarket>;
export function parsePublicMarketsEnvelope(
  json: unknown,
  kind: MarketsKind,
  path?: string,
): MarketsPage<Market | SimplifiedMarket>;
/** A page of GET /markets, /sampling-markets or /sampling-simplified-markets (same envelope as the interface's). */
export function parsePublicMarketsEnvelope(
  json: unknown,
  kind: MarketsKind,
  path = '',
): MarketsPage<Market | SimplifiedMarket> {
  const o = obj(json, path);
  const each: (v: unknown, path: string) => Market | SimplifiedMarket =
    kind === 'markets'
      ? parsePublicMarket
      : kind === 'sampling'
        ? parsePublicSamplingMarket
        : parsePublicSimplifiedMarket;
  const cursor = str(o['next_cursor'], at(path, 'next_cursor'));
  return {
    data: arrOf(o['data'], at(path, 'data'), each),
    nextCursor: cursor === '' || cursor === END_CURSOR ? null : cursor,
    limit: nonNegInt(o['limit'], at(path, 'limit')),
    count: nonNegInt(o['count'], at(path, 'count')),
  };
}

function optShares(v: unknown, path: string): ReturnType<typeof sharesOf> | null {
  return v === undefined || v === null ? null : sharesOf(v, path, 'ceil', FORM);
}

function rewardConfig(v: unknown, path: string): ClobRewardConfig | null {
  if (v === undefined || v === null) return null;
  const o: JsonObject = obj(v, path);
  return {
    minSize: optShares(o['mi'], at(path, 'mi')),
    maxSpreadCents: optFinite(o['ma'], at(path, 'ma')),
    enabled: optBool(o['e'], at(path, 'e')),
    minOrderAgeSeconds: optIntOf(o['moas'], at(path, 'moas')),
  };
}

/**
 * GET /clob-markets/{condition_id} as the public exchange sends it. `requested`: the condition id
 * that was asked for, used when the answer has no `c` (a mismatch with `c` is a ParseError).
 */
export function parsePublicClobMarket(json: unknown, path = '', requested?: string): ClobMarketSettings {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  const c = optStr(o['c'], p('c'));
  if (c !== null && requested !== undefined && c.toLowerCase() !== requested.toLowerCase()) {
    fail(p('c'), `answer is for another market than ${requested}`);
  }
  const conditionId = c ?? requested ?? fail(p('c'), 'missing, and no condition id was asked for');
  const t = o['t'];
  const fdV = o['fd'];
  let feeDetails: ClobMarketSettings['feeDetails'] = null;
  if (fdV !== undefined && fdV !== null) {
    const fd = obj(fdV, p('fd'));
    feeDetails = {
      r: optFinite(fd['r'], at(p('fd'), 'r')),
      e: optFinite(fd['e'], at(p('fd'), 'e')),
      to: optBool(fd['to'], at(p('fd'), 'to')) ?? false,
    };
  }
  const mts = o['mts'];
  return {
    conditionId,
    gameStartTime: optIso(o['gst'], p('gst')),
    rewards: null,
    rewardConfig: rewardConfig(o['r'], p('r')),
    negRisk: optBool(o['nr'], p('nr')) ?? false,
    tokens:
      t === undefined || t === null
        ? []
        : arrOf(t, p('t'), (v, tp) => {
            const x = obj(v, tp);
            return { tokenId: nonEmpty(x['t'], at(tp, 't')), outcome: str(x['o'], at(tp, 'o')) };
          }),
    tickSize: mts === undefined || mts === null ? null : tick(mts, p('mts'), FORM),
    minOrderSize: optShares(o['mos'], p('mos')),
    feeDetails,
    makerBaseFeeBps: optIntOf(o['mbf'], p('mbf')),
    takerBaseFeeBps: optIntOf(o['tbf'], p('tbf')),
    acceptingOrders: optBool(o['ao'], p('ao')),
    rfqe: optBool(o['rfqe'], p('rfqe')),
    itode: optBool(o['itode'], p('itode')) ?? false,
    ibce: optBool(o['ibce'], p('ibce')),
    oas: optIntOf(o['oas'], p('oas')),
  };
}

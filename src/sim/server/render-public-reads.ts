// The simulator's read answers in the public exchange's shapes (dialect readWire 'public'): each
// function takes what the world's queries render in the interface's shape (plus the world, for the
// fields only the public shape has) and returns the public shape of exchange/wire-public-reads.ts.
// Invariants kept here:
// - the same values as the interface's answer, only renamed, regrouped, left out or added: a value
//   the world does not model is never invented (an absent trader profile is "", as the public Data
//   API sends for wallets without one; see the captured /trades page of the fixtures);
// - keys the public exchange omits when false (`nr`, `itode`, `fd.to`) or unset (`gst`) are omitted;
// - the shapes are held to the real fixtures by test/sim/server/wire-shapes.test.ts.
import type {
  WireClosedPosition,
  WireLeaderboardEntry,
  WireMarket,
  WirePosition,
  WireSimplifiedMarket,
  WireTrade,
} from '../../exchange/wire.js';
import type {
  WirePublicClobMarket,
  WirePublicClosedPosition,
  WirePublicLeaderboardEntry,
  WirePublicMarket,
  WirePublicPosition,
  WirePublicSimplifiedMarket,
  WirePublicTrade,
} from '../../exchange/wire-public-reads.js';
import { iso } from '../world/ids.js';
import type { MarketRec } from '../world/model.js';
import { microsToNumber } from '../world/numbers.js';
import type { QueryResult } from '../world/query.js';
import type { World } from '../world/world.js';

/**
 * A market record (of /markets, or a sampling record) as the public exchange sends it: the base
 * record's keys only (none of the sampling fields, nor the four no real record carries); "no game"
 * is null, as real records send it.
 */
export function publicMarket(w: WireMarket): WirePublicMarket {
  return {
    enable_order_book: w.enable_order_book,
    active: w.active,
    closed: w.closed,
    archived: w.archived,
    accepting_orders: w.accepting_orders,
    accepting_order_timestamp: w.accepting_order_timestamp,
    minimum_order_size: w.minimum_order_size,
    minimum_tick_size: w.minimum_tick_size,
    condition_id: w.condition_id,
    question_id: w.question_id,
    question: w.question,
    description: w.description,
    market_slug: w.market_slug,
    end_date_iso: w.end_date_iso,
    game_start_time: w.game_start_time === '' ? null : w.game_start_time,
    seconds_delay: w.seconds_delay,
    fpmm: w.fpmm,
    maker_base_fee: w.maker_base_fee,
    taker_base_fee: w.taker_base_fee,
    notifications_enabled: w.notifications_enabled,
    neg_risk: w.neg_risk,
    neg_risk_market_id: w.neg_risk_market_id,
    neg_risk_request_id: w.neg_risk_request_id,
    icon: w.icon,
    image: w.image,
    rewards: w.rewards,
    is_50_50_outcome: w.is_50_50_outcome,
    tokens: w.tokens,
    tags: w.tags,
  };
}

export function publicSimplifiedMarket(w: WireSimplifiedMarket): WirePublicSimplifiedMarket {
  return {
    condition_id: w.condition_id,
    rewards: w.rewards,
    tokens: w.tokens,
    active: w.active,
    closed: w.closed,
    archived: w.archived,
    accepting_orders: w.accepting_orders,
  };
}

/** GET /clob-markets/{condition_id} of a market, in the public shape. */
export function publicClobMarket(m: MarketRec): WirePublicClobMarket {
  const s = m.state;
  const out: WirePublicClobMarket = {
    c: m.conditionId,
    t: [
      { t: m.tokenIds[0], o: m.outcomes[0] },
      { t: m.tokenIds[1], o: m.outcomes[1] },
    ],
    mts: microsToNumber(s.tick),
    fd: m.fee.takerOnly
      ? { r: microsToNumber(m.fee.rate), e: m.fee.exponent, to: true }
      : { r: microsToNumber(m.fee.rate), e: m.fee.exponent },
    mbf: m.fee.makerBaseFeeBps,
    tbf: m.fee.takerBaseFeeBps,
    r:
      m.rewards === null
        ? null
        : { mi: microsToNumber(m.rewards.minSize), ma: microsToNumber(m.rewards.maxSpreadCents), e: true },
    ao: s.acceptingOrders,
    mos: microsToNumber(s.minOrderSize),
    sd: m.secondsDelay,
    aot: iso(m.acceptingOrderTimestampMs),
    rfqe: m.rfqEnabled,
    ibce: m.screeningCheckEnabled,
    oas: m.orderAgeSeconds,
  };
  if (m.negRisk) out.nr = true;
  if (m.gameStartTimeMs !== null) out.gst = iso(m.gameStartTimeMs);
  if (m.takerOrderDelayEnabled) out.itode = true;
  return out;
}

/** `<condition_id>:<index>` (the interface's asset) → the token id the public exchange puts there. */
function tokenOf(world: World, asset: string): string {
  const m = /^(0x[0-9a-f]{64}):([01])$/i.exec(asset);
  if (m === null) return asset;
  const market = world.marketByCondition(m[1] as string);
  return market === undefined ? asset : market.tokenIds[Number(m[2]) as 0 | 1];
}

export function publicPosition(world: World, p: WirePosition): WirePublicPosition {
  const market = world.marketByCondition(p.conditionId);
  return {
    proxyWallet: p.proxyWallet,
    asset: tokenOf(world, p.asset),
    conditionId: p.conditionId,
    size: p.size,
    avgPrice: p.avgPrice,
    initialValue: p.initialValue,
    currentValue: p.currentValue,
    cashPnl: p.cashPnl,
    percentPnl: p.percentPnl,
    totalBought: p.totalBought,
    realizedPnl: p.realizedPnl,
    percentRealizedPnl: p.percentRealizedPnl,
    curPrice: p.curPrice,
    redeemable: p.redeemable,
    mergeable: p.mergeable,
    title: p.title,
    slug: p.slug,
    icon: p.icon,
    eventId: market === undefined ? '' : world.eventOf(market).id,
    eventSlug: p.eventSlug,
    outcome: p.outcome,
    outcomeIndex: p.outcomeIndex,
    oppositeOutcome: p.oppositeOutcome,
    oppositeAsset: tokenOf(world, p.oppositeAsset),
    endDate: p.endDate,
    negativeRisk: p.negativeRisk,
  };
}

export function publicClosedPosition(world: World, p: WireClosedPosition): WirePublicClosedPosition {
  return {
    proxyWallet: p.proxyWallet,
    asset: tokenOf(world, p.asset),
    conditionId: p.conditionId,
    avgPrice: p.avgPrice,
    totalBought: p.totalBought,
    realizedPnl: p.realizedPnl,
    curPrice: p.curPrice,
    timestamp: p.timestamp,
    title: p.title,
    slug: p.slug,
    icon: p.icon,
    eventSlug: p.eventSlug,
    outcome: p.outcome,
    outcomeIndex: p.outcomeIndex,
    oppositeOutcome: p.oppositeOutcome,
    oppositeAsset: tokenOf(world, p.oppositeAsset),
    endDate: p.endDate,
  };
}

export function publicTrade(world: World, t: WireTrade): WirePublicTrade {
  const market = world.marketByCondition(t.conditionId);
  const u = world.userByWallet(t.proxyWallet);
  return {
    proxyWallet: t.proxyWallet,
    side: t.side,
    asset: t.asset,
    conditionId: t.conditionId,
    size: t.size,
    price: t.price,
    timestamp: t.timestamp,
    title: t.title,
    slug: t.slug,
    icon: market?.icon ?? '',
    eventSlug: market === undefined ? '' : world.eventOf(market).slug,
    outcome: t.outcome,
    outcomeIndex: t.outcomeIndex,
    name: u?.name ?? '',
    pseudonym: u?.pseudonym ?? '',
    bio: u?.bio ?? '',
    profileImage: u?.profileImage ?? '',
    // The world keeps no optimized-image URL for a trader.
    profileImageOptimized: '',
    transactionHash: t.transactionHash,
  };
}

/** A leaderboard row: the badge as a boolean (has one), xUsername left out when the user has none. */
export function publicLeaderboardEntry(e: WireLeaderboardEntry): WirePublicLeaderboardEntry {
  return {
    rank: e.rank,
    proxyWallet: e.proxyWallet,
    userName: e.userName,
    vol: e.vol,
    pnl: e.pnl,
    profileImage: e.profileImage,
    ...(e.xUsername !== null ? { xUsername: e.xUsername } : {}),
    verifiedBadge: e.verifiedBadge !== null,
  };
}

/** A world query's result with its body mapped when it succeeded (errors pass unchanged). */
export function mapBody<T, U>(r: QueryResult<T>, f: (body: T) => U): QueryResult<U> {
  return r.ok ? { ok: true, status: 200, body: f(r.body) } : r;
}

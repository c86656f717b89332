// Renderers of market records to the wire: §2.8 (base and sampling), §2.9 (simplified) and §2.10
// (trading settings, abbreviated keys). Invariants kept here:
// - output is built from the static record plus the live MarketState at call time, so tick
//   changes, closing and resolution show on the next call; nothing is cached;
// - every field of the tables is present with its JSON type, keys in table order; no null (a
//   market without rewards has `rates: []`, `min_size: 0`, `max_spread: 0`; a market that is not a
//   game has `game_start_time: ""`, as `fpmm` and `neg_risk_*` are "" when they do not apply).
//
// Meaning given to the abbreviated keys of §2.10 (the interface leaves it "not shown"; these follow
// the public exchange's client and mirror a §2.8 field each):
//   gst  game start time (= game_start_time, "" when not a game)   r     rewards (as §2.8 `rewards`)
//   c    condition id                                               nr    neg risk
//   t    tokens [{t: token id, o: outcome}]                         mts   minimum tick size
//   mos  minimum order size                                         fd    fee details {r: rate, e: exponent, to: taker only}
//   mbf  maker base fee, bps                                        tbf   taker base fee, bps
//   rfqe RFQ (request for quote) enabled                            itode taker order delay enabled (= itode)
//   ibce screening check enabled (= screening_check_enabled)        oas   order age seconds (= order_age_seconds)
//
// These are the interface's shapes; the public exchange's (the polymarket dialect) are derived from
// them in ../server/render-public-reads.ts (its /clob-markets `r` is {mi, ma, e}, not this rewards).
//
// Market `status` (sampling and simplified records) takes one of: "archived", "resolved", "closed",
// "paused" (open but not accepting orders), "active"; the first that applies, in that order.
import type {
  WireClobMarketSettings,
  WireMarket,
  WireMarketToken,
  WireRewards,
  WireSamplingMarket,
  WireSimplifiedMarket,
} from '../../exchange/wire.js';
import { iso } from './ids.js';
import type { MarketRec, RewardsRec } from './model.js';
import { microsToNumber } from './numbers.js';
import type { World } from './world.js';

export type MarketStatus = 'archived' | 'resolved' | 'closed' | 'paused' | 'active';

export function marketStatus(m: MarketRec): MarketStatus {
  const s = m.state;
  if (s.archived) return 'archived';
  if (s.winner !== null) return 'resolved';
  if (s.closed) return 'closed';
  if (!s.acceptingOrders) return 'paused';
  return 'active';
}

export function toWireRewards(r: RewardsRec | null): WireRewards {
  if (r === null) return { rates: [], min_size: 0, max_spread: 0 };
  return {
    rates: [{ asset_address: r.assetAddress, rewards_daily_rate: microsToNumber(r.dailyRate) }],
    min_size: microsToNumber(r.minSize),
    max_spread: microsToNumber(r.maxSpreadCents),
  };
}

export function toWireTokens(m: MarketRec): WireMarketToken[] {
  return [0, 1].map((i) => ({
    token_id: m.tokenIds[i as 0 | 1],
    outcome: m.outcomes[i as 0 | 1],
    price: microsToNumber(m.state.prices[i as 0 | 1]),
    winner: m.state.winner === i,
  }));
}

function gameStart(m: MarketRec): string {
  return m.gameStartTimeMs === null ? '' : iso(m.gameStartTimeMs);
}

export function toWireMarket(m: MarketRec): WireMarket {
  const s = m.state;
  return {
    enable_order_book: s.enableOrderBook,
    active: s.active,
    closed: s.closed,
    archived: s.archived,
    accepting_orders: s.acceptingOrders,
    accepting_order_timestamp: iso(m.acceptingOrderTimestampMs),
    minimum_order_size: microsToNumber(s.minOrderSize),
    minimum_tick_size: microsToNumber(s.tick),
    condition_id: m.conditionId,
    question_id: m.questionId,
    question: m.question,
    description: m.description,
    market_slug: m.slug,
    end_date_iso: iso(m.endDateMs),
    game_start_time: gameStart(m),
    seconds_delay: m.secondsDelay,
    fpmm: m.fpmm,
    maker_base_fee: m.fee.makerBaseFeeBps,
    taker_base_fee: m.fee.takerBaseFeeBps,
    notifications_enabled: m.notificationsEnabled,
    neg_risk: m.negRisk,
    is_50_50_outcome: m.is5050Outcome,
    neg_risk_market_id: m.negRiskMarketId,
    neg_risk_request_id: m.negRiskRequestId,
    icon: m.icon,
    image: m.image,
    rewards: toWireRewards(m.rewards),
    tokens: toWireTokens(m),
    tags: [...m.tagLabels],
    itode: m.takerOrderDelayEnabled,
    taker_order_delay_ms: m.takerOrderDelayMs,
    order_age_seconds: m.orderAgeSeconds,
    screening_check_enabled: m.screeningCheckEnabled,
  };
}

export function toWireSamplingMarket(world: World, m: MarketRec): WireSamplingMarket {
  const e = world.eventOf(m);
  const series = world.seriesOf(e)[0];
  // Object.assign onto the base record: a spread into a new literal measured 3x slower.
  return Object.assign(toWireMarket(m), {
    status: marketStatus(m),
    market_id: m.id,
    slug: m.slug,
    assets_ids: [...m.tokenIds],
    outcomes: [...m.outcomes],
    event: { id: e.id, slug: e.slug, title: e.title, ticker: e.ticker, description: e.description },
    raw_metadata: {
      category: m.category,
      groupItemTitle: m.groupItemTitle,
      eventId: e.id,
      seriesSlug: series === undefined ? '' : series.slug,
      negRiskMarketId: m.negRiskMarketId,
    },
  });
}

export function toWireSimplifiedMarket(m: MarketRec): WireSimplifiedMarket {
  const s = m.state;
  return {
    condition_id: m.conditionId,
    status: marketStatus(m),
    neg_risk: m.negRisk,
    market_id: m.id,
    question: m.question,
    slug: m.slug,
    active: s.active,
    closed: s.closed,
    archived: s.archived,
    accepting_orders: s.acceptingOrders,
    tokens: toWireTokens(m),
    rewards: toWireRewards(m.rewards),
    assets_ids: [...m.tokenIds],
    outcomes: [...m.outcomes],
  };
}

export function toWireClobMarketSettings(m: MarketRec): WireClobMarketSettings {
  return {
    gst: gameStart(m),
    r: toWireRewards(m.rewards),
    c: m.conditionId,
    nr: m.negRisk,
    t: [
      { t: m.tokenIds[0], o: m.outcomes[0] },
      { t: m.tokenIds[1], o: m.outcomes[1] },
    ],
    mts: microsToNumber(m.state.tick),
    mos: microsToNumber(m.state.minOrderSize),
    fd: { r: microsToNumber(m.fee.rate), e: m.fee.exponent, to: m.fee.takerOnly },
    mbf: m.fee.makerBaseFeeBps,
    tbf: m.fee.takerBaseFeeBps,
    rfqe: m.rfqEnabled,
    itode: m.takerOrderDelayEnabled,
    ibce: m.screeningCheckEnabled,
    oas: m.orderAgeSeconds,
  };
}

// rewards: quotes that earn the exchange's liquidity rewards (docs/protocol.md §6) for the least
// adverse selection. See README.md for the math. Per binary market paying rewards (one book,
// pair.ts, in the first token's terms), with v = max_spread, m = the size-cutoff midpoint of the
// book without our orders, κ the arrival decay:
//   score per share at distance s:  ((v − s)/v)²       fill risk per share:  ∝ e^(−κ s)
//   score per unit of risk is highest at s* = v − 2/κ  (clamped to [minDistance, v))
//   bid = m − s* and ask = m + s*, each snapped to the tick on whichever side keeps it inside v,
//   then moved back to the best external price when that is further out and still scores
//   (`behindTouch`: takers reach the best price first, and at a price the older orders first)
// Invariants of every quote it returns:
// - it quotes only markets that pay rewards; every order it places scores: at least min_size (and
//   the market's minimum), strictly within v of the scoring mid (so a sale of fewer shares held
//   than min_size is not quoted: the side is bought whole from the other token);
// - on the tick, inside [tick, 1 − tick], passive (a bid at most the best external ask − tick, an
//   ask at least the best external bid + tick); bid < mid < ask;
// - inventory: a full fill keeps the net position within min(maxPosition, maxLots × size); nothing
//   is sold that is not held; each side is expressed with the cheaper token;
// - with the mid outside [0.10, 0.90] it quotes both sides, or only the side that unwinds a
//   position, or nothing (one side alone scores 0 there); inside, one side alone may go (it scores
//   a third) unless `twoSidedOnly`, and a side that unwinds always may;
// - the guards of guards.ts apply (its fast-mid threshold is 0.02 here); widening moves the quotes
//   out toward v (still scoring), never beyond it.
// It logs its expected score per market at debug level ("rewards score": Q_one, Q_two, Q_min, the
// estimated share and the expected reward per day); `rewardsPlan` returns the same numbers.
// Stateless.
import {
  Expresser,
  ONE_SIDED_HIGH,
  ONE_SIDED_LOW,
  assessPair,
  bestAsk,
  bestBid,
  bookScore,
  defineStrategy,
  externalBook,
  fromSchema,
  guardParamDocs,
  guardParamsWith,
  netPosition,
  pairMid,
  pairMinSize,
  pairsOf,
  pairTick,
  priceParam,
  rewardScore,
  rewardShare,
  sharesParam,
  sizeCutoffMid,
  snapToTick,
  truncateSize,
  z,
  SCALE,
  type DesiredQuote,
  type Pair,
  type ParamDoc,
  type Price,
  type RewardScore,
} from '../../src/strategy/sdk.js';

export const rewardsParams = z
  .object({
    /** Shares per side; raised to the rewards' min_size (and the market's minimum) when below. 0: exactly min_size. */
    size: sharesParam().prefault(0),
    /** Order-arrival decay κ, 1/price: the quotes sit at v − 2/κ from the mid. */
    kappa: z.number().positive().max(100_000).prefault(100),
    /** Never closer to the scoring mid than this, price. */
    minDistance: priceParam({ above: 0, max: 0.5 }).prefault(0.005),
    /** Largest |net position| of a market, shares. */
    maxPosition: sharesParam().prefault(300),
    /** Largest |net position| in lots (a lot is the size quoted): 1 never adds to a position. */
    maxLots: z.number().int().min(1).max(100).prefault(1),
    /** Never improve on the best external price when joining it still scores. */
    behindTouch: z.boolean().prefault(true),
    /** Quote both sides or nothing (a side that unwinds excepted), even where one side would score a third. */
    twoSidedOnly: z.boolean().prefault(false),
    guards: guardParamsWith({ maxMidMove: 0.02 }).prefault({}),
  })
  .strict();

export type RewardsParams = z.output<typeof rewardsParams>;

export const rewardsParamDocs: readonly ParamDoc[] = [
  {
    path: 'size',
    unit: 'shares',
    money: true,
    description: "size per side, raised to the rewards' min_size (and the market minimum); 0: exactly min_size",
  },
  {
    path: 'kappa',
    unit: '1/price',
    description:
      'order-arrival decay κ: quotes sit at max_spread − 2/κ from the scoring mid, where score per unit of fill risk peaks',
  },
  { path: 'minDistance', unit: 'price', money: true, description: 'never closer to the scoring mid than this' },
  {
    path: 'behindTouch',
    unit: 'boolean',
    description: 'join the best external price rather than improve on it, when joining still scores',
  },
  {
    path: 'maxPosition',
    unit: 'shares',
    money: true,
    description: 'largest |net position| of a market a full fill may reach',
  },
  {
    path: 'maxLots',
    unit: 'lots',
    description: 'largest |net position| in lots of the size quoted (1: a fill is never added to, only unwound)',
  },
  {
    path: 'twoSidedOnly',
    unit: 'boolean',
    description:
      'both sides or nothing (but a side that unwinds a position), also where one side alone would score a third (mid in [0.10, 0.90])',
  },
  ...guardParamDocs,
];

export interface RewardsPlan {
  /** The scoring mid (size-cutoff, our orders excluded), primary terms, millionths. */
  readonly mid: Price;
  /** Distance the quotes aim at, millionths. */
  readonly distance: number;
  readonly bid: Price | null;
  readonly ask: Price | null;
  readonly quotes: readonly DesiredQuote[];
  /** Our quotes' score (if they rest as planned). */
  readonly score: RewardScore;
  /** Everyone else's, estimated from the book (each level as one order). */
  readonly others: RewardScore;
  /** Estimated share of the daily rate, and the reward per day it means (collateral units). */
  readonly share: number;
  readonly expectedDaily: number;
}

export const rewards = defineStrategy<RewardsParams>({
  name: 'rewards',
  summary: 'Two-sided quotes sized and placed to earn liquidity rewards where score per unit of fill risk is highest.',
  paramDocs: rewardsParamDocs,
  parseParams: fromSchema(rewardsParams),
  onStart(ctx) {
    const paying = ctx.markets.filter((m) => m.settings.rewards !== null).length;
    ctx.log.info('rewards started', { markets: ctx.markets.length, paying });
    return undefined;
  },
  quote(ctx) {
    const out: DesiredQuote[] = [];
    for (const market of ctx.markets) {
      for (const pair of pairsOf(market)) {
        const plan = rewardsPlan(ctx.params, pair, ctx.nowMs);
        if (plan === null) continue;
        out.push(...plan.quotes);
        ctx.log.debug('rewards score', {
          market: market.conditionId,
          qOne: plan.score.qOne,
          qTwo: plan.score.qTwo,
          qMin: plan.score.qMin,
          share: plan.share,
          expectedDaily: plan.expectedDaily,
        });
      }
    }
    return out;
  },
});

/** The plan for one pair; null when the market pays no rewards, the guards pull, or nothing scores. */
export function rewardsPlan(p: RewardsParams, pair: Pair, nowMs: number): RewardsPlan | null {
  const r = pair.market.settings.rewards;
  if (r === null || r.maxSpread <= 0) return null;
  const verdict = assessPair(nowMs, pair, p.guards);
  if (verdict.kind === 'pull') return null;
  const ext = externalBook(pair);
  const m = (ext === null ? null : sizeCutoffMid(ext, r.minSize)) ?? pairMid(pair);
  if (m === null) return null;
  const tick = pairTick(pair);
  const v = r.maxSpread;
  const minDist = p.minDistance;
  if (minDist >= v) return null;

  // s* = v − 2/κ, widened toward v, kept in [minDist, v).
  const star = v - Math.round((2 / p.kappa) * SCALE);
  const widened = verdict.widen === 1 ? star : Math.round(v - (v - Math.max(star, minDist)) / verdict.widen);
  const distance = Math.min(v - 1, Math.max(minDist, widened));

  const extBid = ext === null ? null : bestBid(ext);
  const extAsk = ext === null ? null : bestAsk(ext);
  const within = (price: number): boolean =>
    Math.abs(price - m) < v && Math.abs(price - m) >= minDist && price >= tick && price <= SCALE - tick;
  let bid = pickPrice(m - distance, tick, 'bid', within, extAsk === null ? null : extAsk.price - tick);
  let ask = pickPrice(m + distance, tick, 'ask', within, extBid === null ? null : extBid.price + tick);
  // Behind the touch: join the best external price rather than improve on it, while that scores
  // (takers hit the best price first, and at one price the older orders first).
  if (p.behindTouch) {
    if (bid !== null && extBid !== null && extBid.price < bid && within(extBid.price)) bid = extBid.price;
    if (ask !== null && extAsk !== null && extAsk.price > ask && within(extAsk.price)) ask = extAsk.price;
  }

  const min = pairMinSize(pair);
  const size = truncateSize(Math.max(p.size, r.minSize, min));
  const n = netPosition(pair);
  const limit = Math.min(p.maxPosition, p.maxLots * size);
  const bidSize = bid !== null && n + size <= limit ? size : 0;
  const askSize = ask !== null && size - n <= limit ? size : 0;

  // Every piece must itself score: a sale of fewer shares than min_size is left out, and the side
  // bought whole from the other token instead (the shares left are a complete set's half, netted).
  const ex = new Expresser(pair, Math.max(min, r.minSize));
  const bidDone = bidSize > 0 && bid !== null ? ex.bid(bid, bidSize, 'rewards-bid') : 0;
  const askDone = askSize > 0 && ask !== null ? ex.ask(ask, askSize, 'rewards-ask') : 0;
  if (bidDone === 0 && askDone === 0) return null;
  if (bidDone === 0 || askDone === 0) {
    // One side: where it scores (a third, mid in [0.10, 0.90]), or to unwind a position.
    const oneSidedScores = !p.twoSidedOnly && m >= ONE_SIDED_LOW && m <= ONE_SIDED_HIGH;
    const unwinds = bidDone > 0 ? n < 0 : n > 0;
    if (!oneSidedScores && !unwinds) return null;
  }
  const quotes = ex.quotes();
  const compId = pair.complement?.tokenId ?? null;
  const score = rewardScore(quotes, pair.primary.tokenId, compId, m, r);
  const others = ext === null ? { qOne: 0, qTwo: 0, qMin: 0 } : bookScore(ext, m, r);
  const share = rewardShare(score.qMin, others.qMin);
  return {
    mid: m,
    distance,
    bid: bidDone > 0 ? bid : null,
    ask: askDone > 0 ? ask : null,
    quotes,
    score,
    others,
    share,
    expectedDaily: share * (r.dailyRate / SCALE),
  };
}

/**
 * The tick price nearest the target on the side away from the mid that still scores; else the
 * one toward the mid; then made passive (`limit`: the most a bid may be, the least an ask may be).
 * null when no price both scores and rests.
 */
function pickPrice(
  target: number,
  tick: Price,
  side: 'bid' | 'ask',
  ok: (p: number) => boolean,
  limit: number | null,
): Price | null {
  const away = snapToTick(target, tick, side === 'bid' ? 'floor' : 'ceil');
  const toward = snapToTick(target, tick, side === 'bid' ? 'ceil' : 'floor');
  let p: number | null = ok(away) ? away : ok(toward) ? toward : null;
  if (p === null) return null;
  if (limit !== null) p = side === 'bid' ? Math.min(p, limit) : Math.max(p, limit);
  return ok(p) ? (p as Price) : null;
}

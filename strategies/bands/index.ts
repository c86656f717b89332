// bands: a multi-level ladder around each market's mid (the bands idea of Polymarket's
// poly-market-maker, declared rather than patched: quote() returns the whole ladder and reconcile
// keeps whatever already rests at the right price and size). See README.md for the math.
// Invariants of every quote it returns:
// - bids are the mid minus a level's margin floored to the tick, asks the mid plus the margin
//   ceiled to the tick, and only prices inside [tick, 1 − tick] and inside [priceFloor,
//   priceCeiling] are quoted (a level that would fall outside is left out, never clamped onto
//   another level); so every bid < mid < every ask, in each token's own terms;
// - `complement: "net"` (the default): a binary market is one book. The ladder is computed once, in
//   the first token's terms, from the net position q(first) − q(second); a bid is expressed as a
//   sale of the second token held (at 1 − p) before any purchase of the first, and an ask as a sale
//   of the first held before any purchase of the second, so it never builds both expressions of
//   one exposure (pair.ts). `"separate"`: each token has its own ladder (the first version);
// - one quote per (token, side, price): levels that snap to one price are merged;
// - sizes are whole 0.01 shares and at least the market's minimum order size;
// - inventory: a full fill of every bid (every ask) leaves the net position within ±maxPosition,
//   and nothing is sold that is not held. Budgets go to the inner levels first;
// - guards (guards.ts): nothing on a closed market, a stale, crossed or missing book, near the end
//   date or a game's start; margins widen (or quotes pull) on a thin book or a fast mid;
// - a resting order within `refreshTolerance` of its level's price is kept where it is (if still
//   on tick, in range and on its side of the mid), and one older than `maxOrderAgeMs` is renewed.
// Stateless: no onStart state, no onFill.
import {
  Expresser,
  assessPair,
  defineStrategy,
  fromSchema,
  guardParamDocs,
  guardParams,
  isCrossed,
  midOf,
  minSizeOf,
  netPosition,
  pairMid,
  pairMinSize,
  pairsOf,
  pairTick,
  passiveAt,
  primaryPrice,
  priceParam,
  sharesParam,
  snapToTick,
  stickToResting,
  tickOf,
  truncateSize,
  z,
  SCALE,
  type DesiredQuote,
  type LiveOrder,
  type MarketView,
  type Pair,
  type ParamDoc,
  type Price,
  type Shares,
  type Side,
  type TokenView,
} from '../../src/strategy/sdk.js';

const level = z
  .object({
    /** Distance from the mid, in price units (0.01 = one cent). */
    margin: priceParam({ above: 0, max: 0.99 }),
    /** Shares at this level on each side. */
    size: sharesParam({ above: 0 }),
  })
  .strict();

export const bandsParams = z
  .object({
    levels: z
      .array(level)
      .min(1)
      .max(20)
      .superRefine((levels, ctx) => {
        for (let i = 1; i < levels.length; i++) {
          const prev = levels[i - 1];
          const cur = levels[i];
          if (prev !== undefined && cur !== undefined && cur.margin <= prev.margin) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'margin'],
              message: 'margins must increase from one level to the next',
              input: cur.margin / SCALE,
            });
          }
        }
      })
      .prefault([
        { margin: 0.01, size: 10 },
        { margin: 0.02, size: 15 },
        { margin: 0.04, size: 25 },
      ]),
    /** Largest net position of a market (separate: of each token), shares. */
    maxPosition: sharesParam().prefault(100),
    /** Separate mode: offer the shares held on the ask side of each token's ladder. */
    sellInventory: z.boolean().prefault(true),
    complement: z.enum(['net', 'separate']).prefault('net'),
    refreshTolerance: priceParam({ max: 0.5 }).prefault(0.005),
    maxOrderAgeMs: z.number().int().nonnegative().prefault(0),
    priceFloor: priceParam().prefault(0),
    priceCeiling: priceParam().prefault(1),
    guards: guardParams.prefault({}),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.priceFloor >= p.priceCeiling) {
      ctx.addIssue({
        code: 'custom',
        path: ['priceCeiling'],
        message: 'priceCeiling must be above priceFloor',
        input: p.priceCeiling / SCALE,
      });
    }
  });

export type BandsParams = z.output<typeof bandsParams>;

export const bandsParamDocs: readonly ParamDoc[] = [
  { path: 'levels', unit: 'list, 1–20', money: true, description: 'the ladder, margins strictly increasing' },
  { path: 'levels[].margin', unit: 'price', description: 'distance from the mid, > 0 and ≤ 0.99' },
  { path: 'levels[].size', unit: 'shares', description: 'size of that level on each side, > 0' },
  {
    path: 'maxPosition',
    unit: 'shares',
    money: true,
    description: 'largest net position of a market (separate: of each token) the bids or asks may reach',
  },
  { path: 'sellInventory', unit: 'boolean', description: 'separate mode only: offer the shares held on the ask side' },
  {
    path: 'complement',
    unit: 'net | separate',
    description:
      'net: one ladder per market, each side expressed with the cheaper token; separate: one ladder per token',
  },
  {
    path: 'refreshTolerance',
    unit: 'price',
    money: true,
    description: "a resting order this close to its level's price is left where it is (0: exact price only)",
  },
  { path: 'maxOrderAgeMs', unit: 'ms', description: 'a resting order this old is replaced (0: never)' },
  {
    path: 'priceFloor',
    unit: 'price',
    money: true,
    description: "no quote below this price (first token's terms in net mode)",
  },
  { path: 'priceCeiling', unit: 'price', money: true, description: 'no quote above this price' },
  ...guardParamDocs,
];

export const bands = defineStrategy<BandsParams>({
  name: 'bands',
  summary:
    'A ladder of bids and asks at fixed margins around the mid, with sizes per level and an inventory limit; a binary market is one book.',
  paramDocs: bandsParamDocs,
  parseParams: fromSchema(bandsParams),
  onStart(ctx) {
    ctx.log.info('bands started', {
      levels: ctx.params.levels.length,
      markets: ctx.markets.length,
      complement: ctx.params.complement,
    });
    return undefined;
  },
  quote(ctx) {
    const out: DesiredQuote[] = [];
    for (const market of ctx.markets) for (const q of marketQuotes(ctx.params, market, ctx.nowMs)) out.push(q);
    return out;
  },
});

/** Every quote of one market: the ladders, then the refresh tolerance and the order age. */
export function marketQuotes(p: BandsParams, market: MarketView, nowMs: number): DesiredQuote[] {
  const out: DesiredQuote[] = [];
  const pairs: Pair[] = [];
  if (p.complement === 'net') {
    for (const pair of pairsOf(market)) {
      pairs.push(pair);
      for (const q of netLadder(p, pair, nowMs)) out.push(q);
    }
  } else {
    for (const token of market.tokens) {
      const lone: Pair = { market, primary: token, complement: null };
      pairs.push(lone);
      for (const q of separateLadder(p, lone, nowMs)) out.push(q);
    }
  }
  if (out.length === 0) return out;
  const open: LiveOrder[] = [];
  for (const t of market.tokens) for (const o of t.openOrders) open.push(o);
  return stickToResting(out, open, {
    tolerance: p.refreshTolerance,
    maxAgeMs: p.maxOrderAgeMs,
    nowMs,
    accept: (q, price) => {
      // A market has a pair or two: a scan beats building a map on every call.
      const pair = pairs.find((x) => x.primary.tokenId === q.tokenId || x.complement?.tokenId === q.tokenId);
      if (pair === undefined || !passiveAt(pair, q, price)) return false;
      const inPrimary = primaryPrice(pair, { tokenId: q.tokenId, price: price as Price });
      return inPrimary >= p.priceFloor && inPrimary <= p.priceCeiling;
    },
  });
}

/** A level's margin times the guards' widening, rounded away from the mid. */
function widened(margin: number, widen: number): number {
  return widen === 1 ? margin : Math.ceil(margin * widen);
}

/** One ladder for a binary market, in the first token's terms, expressed with the cheaper token. */
export function netLadder(p: BandsParams, pair: Pair, nowMs: number): DesiredQuote[] {
  const v = assessPair(nowMs, pair, p.guards);
  if (v.kind === 'pull') return [];
  const m = pairMid(pair);
  if (m === null) return [];
  const tick = pairTick(pair);
  const min = pairMinSize(pair);
  const n = netPosition(pair);
  let bidBudget = Math.max(0, p.maxPosition - n);
  let askBudget = Math.max(0, p.maxPosition + n);
  const ex = new Expresser(pair, min);
  const lo = Math.max(tick, p.priceFloor);
  const hi = Math.min(SCALE - tick, p.priceCeiling);
  for (let li = 0; li < p.levels.length; li++) {
    const lv = p.levels[li] as (typeof p.levels)[number];
    const margin = widened(lv.margin, v.widen);
    const tag = bandTag(li);
    const bid = snapToTick(m - margin, tick, 'floor');
    if (bid >= lo && bid <= hi) bidBudget -= ex.bid(bid, fit(lv.size, bidBudget, min), tag);
    const ask = snapToTick(m + margin, tick, 'ceil');
    if (ask >= lo && ask <= hi) askBudget -= ex.ask(ask, fit(lv.size, askBudget, min), tag);
  }
  return ex.quotes();
}

/** The tag of ladder level li ("band-0" for the innermost), one string per level. */
const BAND_TAGS: string[] = [];
function bandTag(li: number): string {
  return (BAND_TAGS[li] ??= `band-${li}`);
}

/** One token's ladder with the guards, the widening and the price band applied. */
export function separateLadder(p: BandsParams, lone: Pair, nowMs: number): DesiredQuote[] {
  const v = assessPair(nowMs, lone, p.guards);
  if (v.kind === 'pull') return [];
  const q =
    v.widen === 1 ? p : { ...p, levels: p.levels.map((l) => ({ ...l, margin: widened(l.margin, v.widen) as Price })) };
  return ladder(q, lone.market, lone.primary).filter((x) => x.price >= p.priceFloor && x.price <= p.priceCeiling);
}

/**
 * The ladder of one token on its own (no guards, no price band): level by level from the inside
 * out, bid then ask. Kept as the first version's building block (`complement: "separate"`).
 */
export function ladder(
  p: Pick<BandsParams, 'levels' | 'maxPosition' | 'sellInventory'>,
  market: MarketView,
  token: TokenView,
): DesiredQuote[] {
  if (!market.settings.acceptingOrders) return [];
  const m = midOf(token);
  if (m === null) return [];
  // A crossed or locked book has no meaningful mid: quoting off it would cross at once.
  if (token.book !== null && isCrossed(token.book)) return [];
  const tick = tickOf(market, token);
  const min = minSizeOf(market, token);

  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  let bidBudget = Math.max(0, p.maxPosition - token.position);
  let askBudget = p.sellInventory ? token.position : 0;
  const order: Array<[Side, number, number]> = []; // side, price, level of first use

  p.levels.forEach((lv, li) => {
    const bid = snapToTick(m - lv.margin, tick, 'floor');
    if (bid >= tick) {
      const size = fit(lv.size, bidBudget, min);
      if (size > 0) {
        bidBudget -= size;
        if (!bids.has(bid)) order.push(['BUY', bid, li]);
        bids.set(bid, (bids.get(bid) ?? 0) + size);
      }
    }
    const ask = snapToTick(m + lv.margin, tick, 'ceil');
    if (ask <= SCALE - tick) {
      const size = fit(lv.size, askBudget, min);
      if (size > 0) {
        askBudget -= size;
        if (!asks.has(ask)) order.push(['SELL', ask, li]);
        asks.set(ask, (asks.get(ask) ?? 0) + size);
      }
    }
  });

  return order.map(([side, price, li]): DesiredQuote => ({
    tokenId: token.tokenId,
    side,
    price: price as Price,
    size: ((side === 'BUY' ? bids : asks).get(price) ?? 0) as Shares,
    tag: bandTag(li),
  }));
}

/** A level's size within what the budget allows, in 0.01 shares; 0 when below the minimum. */
function fit(size: number, budget: number, min: number): number {
  const s = truncateSize(Math.min(size, budget));
  return s > 0 && s >= min ? s : 0;
}

// bands: a multi-level ladder around each token's mid (the bands idea of Polymarket's
// poly-market-maker, declared rather than patched: quote() returns the whole ladder and reconcile
// keeps whatever already rests at the right price and size). See README.md for the math.
// Invariants of every quote it returns:
// - bids are the mid minus a level's margin floored to the tick, asks the mid plus the margin
//   ceiled to the tick, and only prices inside [tick, 1 − tick] are quoted (a level that would
//   fall outside is left out, never clamped onto another level); so every bid < mid < every ask;
// - one quote per (token, side, price): levels that snap to one price are merged;
// - sizes are whole 0.01 shares and at least the market's minimum order size;
// - inventory: Σ bid sizes ≤ maxPosition − position (a full fill of every bid stays within the
//   limit, and at the limit no bid is quoted), and Σ ask sizes ≤ shares held (nothing is sold
//   that is not owned). Budgets go to the inner levels first.
// Stateless: no onStart state, no onFill.
import {
  defineStrategy, fromSchema, isCrossed, midOf, minSizeOf, priceParam, sharesParam, snapToTick, tickOf, truncateSize, z,
  SCALE,
  type DesiredQuote, type MarketView, type Price, type Shares, type Side, type TokenView,
} from '../../src/strategy/sdk.js';

const level = z.object({
  /** Distance from the mid, in price units (0.01 = one cent). */
  margin: priceParam({ above: 0, max: 0.99 }),
  /** Shares at this level on each side. */
  size: sharesParam({ above: 0 }),
}).strict();

export const bandsParams = z.object({
  levels: z.array(level).min(1).max(20).superRefine((levels, ctx) => {
    for (let i = 1; i < levels.length; i++) {
      const prev = levels[i - 1];
      const cur = levels[i];
      if (prev !== undefined && cur !== undefined && cur.margin <= prev.margin) {
        ctx.addIssue({ code: 'custom', path: [i, 'margin'], message: 'margins must increase from one level to the next', input: cur.margin / SCALE });
      }
    }
  }).prefault([{ margin: 0.01, size: 10 }, { margin: 0.02, size: 15 }, { margin: 0.04, size: 25 }]),
  /** Largest position in each token, shares: bids stop growing it beyond this. */
  maxPosition: sharesParam().prefault(100),
  /** Offer the shares held on the ask side of the ladder. */
  sellInventory: z.boolean().prefault(true),
}).strict();

export type BandsParams = z.output<typeof bandsParams>;

export const bands = defineStrategy<BandsParams>({
  name: 'bands',
  summary: 'A ladder of bids and asks at fixed margins around the mid, with sizes per level and an inventory limit.',
  parseParams: fromSchema(bandsParams),
  onStart(ctx) {
    ctx.log.info('bands started', { levels: ctx.params.levels.length, markets: ctx.markets.length });
    return undefined;
  },
  quote(ctx) {
    const out: DesiredQuote[] = [];
    for (const market of ctx.markets) {
      for (const token of market.tokens) out.push(...ladder(ctx.params, market, token));
    }
    return out;
  },
});

/** The ladder of one token: level by level from the inside out, bid then ask. */
export function ladder(p: BandsParams, market: MarketView, token: TokenView): DesiredQuote[] {
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
    tag: `band-${li}`,
  }));
}

/** A level's size within what the budget allows, in 0.01 shares; 0 when below the minimum. */
function fit(size: number, budget: number, min: number): number {
  const s = truncateSize(Math.min(size, budget));
  return s > 0 && s >= min ? s : 0;
}

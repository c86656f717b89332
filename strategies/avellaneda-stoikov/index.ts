// avellaneda-stoikov: the inventory- and volatility-aware quotes of Avellaneda & Stoikov (2008),
// adapted to prices bounded in (0, 1). See README.md for the math. Per binary market (one book,
// pair.ts), in the first token's terms, with x = the net position in lots of `size` shares, σ the
// EWMA volatility of the mid (volatility.ts), τ the time left to the horizon:
//   V      = min(σ² τ, m (1 − m))                  variance to the horizon, at most a Bernoulli's
//   r      = m − x γ V                              reservation price
//   δ      = (γ V + (2/γ) ln(1 + γ/κ)) / 2 × widen  half-spread, in [minHalfSpreadTicks × tick, maxHalfSpread]
//   bid    = floor_tick(r − δ),  ask = ceil_tick(r + δ)
// Invariants of every quote it returns:
// - on the current tick, inside [tick, 1 − tick] (a side that falls outside is left out, never
//   clamped), bid < ask, and passive: a bid at most the best external ask − tick, an ask at least
//   the best external bid + tick (our own orders excluded), so a quote never takes;
// - sizes are whole 0.01 shares, at least the minimum order size; a full fill of the bid (the ask)
//   keeps the net position within ±maxPosition; nothing is sold that is not held, and a side is
//   expressed with the cheaper token (a sale of the token held before a purchase of the other);
// - the guards of guards.ts apply (stale, crossed, closed, end date, game start, thin, fast).
// Stateless: σ comes from the context's recent mids on every call.
import {
  Expresser,
  assessPair,
  bestAsk,
  bestBid,
  defineStrategy,
  ewmaVolatility,
  externalBook,
  fromFloat,
  fromSchema,
  guardParamDocs,
  guardParams,
  netPosition,
  pairMid,
  pairMinSize,
  pairRecentMids,
  pairsOf,
  pairTick,
  priceParam,
  sharesParam,
  snapToTick,
  truncateSize,
  z,
  SCALE,
  type DesiredQuote,
  type Pair,
  type ParamDoc,
  type Price,
} from '../../src/strategy/sdk.js';

export const asParams = z
  .object({
    /** Risk aversion γ, 1/price per lot (a lot is `size` shares) held. */
    gamma: z.number().positive().max(100).prefault(0.1),
    /** Order-arrival intensity decay κ: fills at distance δ arrive at a rate ∝ e^(−κδ), 1/price. */
    kappa: z.number().positive().max(100_000).prefault(100),
    /** Shares quoted on each side (raised to the market's minimum order size); one lot of inventory. */
    size: sharesParam({ above: 0 }).prefault(10),
    /** Largest |net position| of a market, shares. */
    maxPosition: sharesParam().prefault(100),
    /** Half-life of the EWMA volatility, ms. */
    volHalfLifeMs: z.number().int().positive().prefault(60_000),
    /** Floor of σ, price per √second. */
    sigmaFloor: z.number().nonnegative().max(1).prefault(0.0002),
    /** Mid increments spanning more than this are ignored by the estimator, ms. */
    volMaxGapMs: z.number().int().positive().prefault(30_000),
    /** τ: the time to the end date, at most this (and this when the end date is unknown), ms. */
    maxHorizonMs: z.number().int().positive().prefault(21_600_000),
    /** Smallest half-spread, in ticks of the current book. */
    minHalfSpreadTicks: z.number().int().min(1).max(100).prefault(1),
    /** Largest half-spread, price. */
    maxHalfSpread: priceParam({ above: 0, max: 0.5 }).prefault(0.1),
    guards: guardParams.prefault({}),
  })
  .strict();

export type AsParams = z.output<typeof asParams>;

export const asParamDocs: readonly ParamDoc[] = [
  {
    path: 'gamma',
    unit: '1/price per lot',
    description:
      'risk aversion γ: how far one lot (size shares) of inventory moves the reservation price, per unit of variance',
  },
  {
    path: 'kappa',
    unit: '1/price',
    description:
      'order-arrival decay κ: fill intensity ∝ e^(−κ·distance); sets the base spread (2/γ)·ln(1 + γ/κ) ≈ 2/κ',
  },
  {
    path: 'size',
    unit: 'shares',
    money: true,
    description: 'size quoted on each side, raised to the market minimum; the lot inventory is counted in',
  },
  {
    path: 'maxPosition',
    unit: 'shares',
    money: true,
    description: 'largest |net position| of a market a full fill may reach',
  },
  { path: 'volHalfLifeMs', unit: 'ms', description: 'half-life of the EWMA volatility of the mid' },
  { path: 'sigmaFloor', unit: 'price/√s', description: 'smallest σ used (a quiet book is not riskless)' },
  { path: 'volMaxGapMs', unit: 'ms', description: 'mid increments over a longer gap are ignored' },
  {
    path: 'maxHorizonMs',
    unit: 'ms',
    description: 'horizon τ = time to the end date, capped at this (this when unknown)',
  },
  { path: 'minHalfSpreadTicks', unit: 'ticks', description: 'smallest half-spread, in ticks of the current book' },
  { path: 'maxHalfSpread', unit: 'price', money: true, description: 'largest half-spread' },
  ...guardParamDocs,
];

/** The model's numbers for one market, before prices are snapped: for tests and logs. */
export interface AsModel {
  readonly mid: number;
  /** Net position in lots (the size quoted). */
  readonly inventory: number;
  readonly sigma: number;
  readonly tauSec: number;
  readonly variance: number;
  readonly reservation: number;
  readonly halfSpread: number;
  readonly bid: Price | null;
  readonly ask: Price | null;
  readonly quotes: readonly DesiredQuote[];
}

export const avellanedaStoikov = defineStrategy<AsParams>({
  name: 'avellaneda-stoikov',
  summary:
    'Avellaneda–Stoikov reservation price and spread from inventory, EWMA volatility and arrival intensity, bounded to (0, 1).',
  paramDocs: asParamDocs,
  parseParams: fromSchema(asParams),
  onStart(ctx) {
    ctx.log.info('avellaneda-stoikov started', {
      gamma: ctx.params.gamma,
      kappa: ctx.params.kappa,
      markets: ctx.markets.length,
    });
    return undefined;
  },
  quote(ctx) {
    const out: DesiredQuote[] = [];
    for (const market of ctx.markets) {
      for (const pair of pairsOf(market)) {
        const model = asModel(ctx.params, pair, ctx.nowMs);
        if (model !== null) out.push(...model.quotes);
      }
    }
    return out;
  },
});

/** The model and its quotes for one pair; null when the guards pull or there is no mid. */
export function asModel(p: AsParams, pair: Pair, nowMs: number): AsModel | null {
  const verdict = assessPair(nowMs, pair, p.guards);
  if (verdict.kind === 'pull') return null;
  const m = pairMid(pair);
  if (m === null) return null;
  const tick = pairTick(pair);
  const min = pairMinSize(pair);
  const n = netPosition(pair);

  // A size below the market's minimum could not be placed: the lot is raised to it.
  const lot = Math.max(p.size, min);
  const mid = m / SCALE;
  const x = n / lot;
  const sigma = ewmaVolatility(pairRecentMids(pair), nowMs, {
    halfLifeMs: p.volHalfLifeMs,
    floor: p.sigmaFloor,
    maxGapMs: p.volMaxGapMs,
  }).sigma;
  const end = pair.market.settings.endDateMs;
  const tauMs = end === null ? p.maxHorizonMs : Math.min(p.maxHorizonMs, Math.max(0, end - nowMs));
  const tauSec = tauMs / 1_000;
  const variance = Math.min(sigma * sigma * tauSec, mid * (1 - mid));
  const reservation = mid - x * p.gamma * variance;
  const base = (p.gamma * variance + (2 / p.gamma) * Math.log(1 + p.gamma / p.kappa)) / 2;
  const lo = (p.minHalfSpreadTicks * tick) / SCALE;
  const hi = p.maxHalfSpread / SCALE;
  const halfSpread = Math.min(hi, Math.max(lo, base) * verdict.widen);

  // Passive: never at or through the other side of the book (ours excluded).
  const ext = externalBook(pair);
  const extBid = ext === null ? null : bestBid(ext);
  const extAsk = ext === null ? null : bestAsk(ext);
  let bid: number = snapToTick(fromFloat(reservation - halfSpread, 'floor'), tick, 'floor');
  if (extAsk !== null) bid = Math.min(bid, extAsk.price - tick);
  let ask: number = snapToTick(fromFloat(reservation + halfSpread, 'ceil'), tick, 'ceil');
  if (extBid !== null) ask = Math.max(ask, extBid.price + tick);
  const bidOk = bid >= tick && bid <= SCALE - tick;
  const askOk = ask >= tick && ask <= SCALE - tick;

  const ex = new Expresser(pair, min);
  if (bidOk) ex.bid(bid as Price, fit(lot, p.maxPosition - n, min), 'as-bid');
  if (askOk) ex.ask(ask as Price, fit(lot, p.maxPosition + n, min), 'as-ask');
  return {
    mid,
    inventory: x,
    sigma,
    tauSec,
    variance,
    reservation,
    halfSpread,
    bid: bidOk ? (bid as Price) : null,
    ask: askOk ? (ask as Price) : null,
    quotes: ex.quotes(),
  };
}

/** The size within the budget, in 0.01 shares; 0 when below the minimum. */
function fit(size: number, budget: number, min: number): number {
  const s = truncateSize(Math.max(0, Math.min(size, budget)));
  return s > 0 && s >= min ? s : 0;
}

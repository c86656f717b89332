// generatePastTrades: the world's synthetic past as trades, the one source its traders' positions,
// closed positions, leaderboard rows and /trades history are derived from (standings.ts).
// Each trader opens positions in a few markets (favourite categories likelier), buys in one to
// four lots, and then holds, sells part, or sells out; what it still holds when a market resolves
// is a claim. Invariants kept here:
// - every draw comes from the Rng passed in, one forked stream per market (its price path) and per
//   trader (its trades), so the same seed gives the same trades in the same order;
// - a trade lies in its market's trading window: after orders were accepted, before the market's
//   end when it is finished, and strictly before the world's start; times are whole seconds;
// - prices are on the market's tick, in [tick, 1 − tick], following a path from a starting price
//   to the displayed price (or towards the winner when resolved); outcome 1 trades at 1 − p;
// - sizes are whole multiples of LOT (10 shares), so every notional (price × size, tick ≥ 0.001)
//   is whole cents; a partial sell releases whole cents of cost basis (its share count is chosen
//   so that average-cost accounting divides exactly), so every PnL figure is whole cents too;
// - a wallet never sells more than it holds, and never trades after selling out (one position
//   life per token); buys come before sells;
// - no fee: a trade is a maker's, or a taker's on a market whose schedule charges nothing, so the
//   trades alone explain the positions (the public trade records carry no fee);
// - the list is in time order (ties: trader order, then the trader's own order).
import { SCALE, type Price, type Shares } from '../../core/money.js';
import { HOUR_MS } from './ids.js';
import { CATEGORIES, type Category, type MarketRec, type OutcomeIndex, type PastTrade, type UserRec } from './model.js';
import type { Rng } from './rng.js';

/** Size step of the past trades: 10 shares. */
export const LOT = (10 * SCALE) as Shares;
const CENT = 10_000;
const SEC = 1_000;

interface Tradable {
  readonly market: MarketRec;
  /** First and last whole second (ms) a trade may have. */
  readonly from: number;
  readonly to: number;
  /** Outcome 0's price path: start, end, wobble (probabilities). */
  readonly p0: number;
  readonly p1: number;
  readonly wobble: number;
  readonly feeFree: boolean;
}

function tradable(rng: Rng, m: MarketRec, nowMs: number): Tradable | null {
  const from = Math.ceil(Math.max(m.acceptingOrderTimestampMs, m.createdAtMs) / SEC) * SEC;
  const end = m.state.closed ? Math.min(m.endDateMs, nowMs) : nowMs;
  const to = Math.ceil(end / SEC) * SEC - SEC;
  if (to - from < HOUR_MS) return null;
  const latent = m.latentProbability / SCALE;
  const p0 = Math.min(0.97, Math.max(0.03, latent + rng.normal(0, 0.12)));
  const winner = m.state.winner;
  const p1 =
    winner === null ? m.state.prices[0] / SCALE : winner === 0 ? 0.8 + 0.19 * rng.float() : 0.01 + 0.19 * rng.float();
  const f = m.fee;
  return {
    market: m,
    from,
    to,
    p0,
    p1,
    wobble: 0.02 + 0.06 * rng.float(),
    feeFree: f.rate === 0 && f.makerBaseFeeBps === 0 && f.takerBaseFeeBps === 0,
  };
}

/** The token's price at time t: on the path, wobbling most mid-way, on the tick. */
function priceAt(rng: Rng, x: Tradable, t: number, outcome: OutcomeIndex): Price {
  const f = (t - x.from) / (x.to - x.from);
  const p = x.p0 + (x.p1 - x.p0) * f + rng.normal(0, x.wobble) * 2 * Math.sqrt(f * (1 - f));
  const tick = x.market.state.tick;
  const onTick = Math.min(SCALE - tick, Math.max(tick, Math.round((p * SCALE) / tick) * tick));
  return (outcome === 0 ? onTick : SCALE - onTick) as Price;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Lots of a partial sell of a position of `lots` lots and `basis` micros of cost whose released
 * basis is whole cents; null when no partial sell divides exactly.
 */
function partialLots(rng: Rng, lots: number, basis: number): number | null {
  const g = gcd(lots, basis / CENT);
  if (g <= 1) return null;
  return (lots / g) * rng.int(1, g - 1);
}

interface Draft {
  readonly trade: PastTrade;
  readonly order: number;
}

function positionLife(
  rng: Rng,
  userIndex: number,
  x: Tradable,
  outcome: OutcomeIndex,
  lotScale: number,
  out: PastTrade[],
): void {
  const span = x.to - x.from;
  // Later openings are likelier, so the day, week and month boards have traders.
  const start = x.from + Math.floor((span * Math.sqrt(rng.float())) / SEC) * SEC;
  const buys = rng.weighted<number>([
    [1, 5],
    [2, 3],
    [3, 2],
    [4, 1],
  ]);
  const resolved = x.market.state.winner !== null;
  const exit = rng.weighted<'hold' | 'partial' | 'out'>(
    resolved
      ? [
          ['hold', 50],
          ['partial', 15],
          ['out', 35],
        ]
      : [
          ['hold', 45],
          ['partial', 15],
          ['out', 40],
        ],
  );
  const sells = exit === 'hold' ? 0 : exit === 'partial' ? 1 : rng.int(1, 2);
  const times = Array.from(
    { length: buys + sells },
    () => start + Math.floor(((x.to - start) * rng.float()) / SEC) * SEC,
  ).sort((a, b) => a - b);
  const role = (): 'maker' | 'taker' => (x.feeFree && rng.chance(0.5) ? 'taker' : 'maker');
  const m = x.market;
  let lots = 0;
  let basis = 0;
  for (let i = 0; i < buys; i++) {
    const t = times[i] ?? start;
    const price = priceAt(rng, x, t, outcome);
    const n = lotScale * rng.int(1, 20);
    lots += n;
    basis += (price / 1_000) * n * CENT; // price × n lots, exact: price is a multiple of 0.001
    out.push({
      userIndex,
      marketIndex: m.index,
      outcomeIndex: outcome,
      side: 'BUY',
      price,
      size: (n * LOT) as Shares,
      timeMs: t,
      role: role(),
    });
  }
  for (let i = 0; i < sells; i++) {
    const t = times[buys + i] ?? x.to;
    const last = exit === 'out' && i === sells - 1;
    const n = last ? lots : partialLots(rng, lots, basis);
    if (n === null) {
      if (exit === 'partial') return;
      continue; // no exact split: the next (last) sell sells out
    }
    basis -= (((basis / CENT) * n) / lots) * CENT; // exact: partialLots chose n so that lots divides it
    lots -= n;
    out.push({
      userIndex,
      marketIndex: m.index,
      outcomeIndex: outcome,
      side: 'SELL',
      price: priceAt(rng, x, t, outcome),
      size: (n * LOT) as Shares,
      timeMs: t,
      role: role(),
    });
  }
}

/** The world's past trades in time order (see the header). */
export function generatePastTrades(
  rng: Rng,
  markets: readonly MarketRec[],
  users: readonly UserRec[],
  nowMs: number,
): PastTrade[] {
  const byCategory = new Map<Category, Tradable[]>();
  for (const m of markets) {
    const x = tradable(rng.fork(`market/${m.index}`), m, nowMs);
    if (x === null) continue;
    const list = byCategory.get(m.category);
    if (list === undefined) byCategory.set(m.category, [x]);
    else list.push(x);
  }
  if (byCategory.size === 0) return [];
  const drafts: Draft[] = [];
  for (const u of users) {
    const r = rng.fork(`user/${u.index}`);
    const favourites = new Set<Category>(r.sample(CATEGORIES, r.int(1, 3)));
    const weights = [...byCategory.entries()].map(
      ([c, list]) => [list, list.length * (favourites.has(c) ? 10 : 1)] as const,
    );
    const a = r.float();
    const positions = 1 + Math.floor(14 * a * a * a) + r.int(0, 3);
    const lotScale = 1 + Math.floor(200 * r.float() ** 5);
    const held = new Set<string>();
    const mine: PastTrade[] = [];
    for (let k = 0; k < positions * 2 && held.size < positions; k++) {
      const x = r.pick(r.weighted(weights));
      const outcome: OutcomeIndex = r.chance(0.5) ? 0 : 1;
      const token = x.market.tokenIds[outcome];
      if (held.has(token)) continue;
      held.add(token);
      positionLife(r, u.index, x, outcome, lotScale, mine);
    }
    // A trader's own trades in time order, buys of a position before its sells at the same second.
    mine.sort((p, q) => p.timeMs - q.timeMs);
    for (const trade of mine) drafts.push({ trade, order: drafts.length });
  }
  drafts.sort((p, q) => p.trade.timeMs - q.trade.timeMs || p.order - q.order);
  return drafts.map((d) => d.trade);
}

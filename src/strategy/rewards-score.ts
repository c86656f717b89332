// The liquidity-reward score of docs/protocol.md §6, for strategies that aim at it and for reports that
// measure it. With v = max_spread and s an order's distance from the size-cutoff midpoint:
//
//   S(order) = ((v − s) / v)² · size        when s < v and size ≥ min_size, else 0
//   Q_one    = Σ S(bids on the token) + Σ S(asks on its complement)
//   Q_two    = Σ S(asks on the token) + Σ S(bids on its complement)
//   Q_min    = max(min(Q_one, Q_two), max(Q_one, Q_two) / 3)   when the mid is in [0.10, 0.90]
//            = min(Q_one, Q_two)                                otherwise
//
// A maker's share of the market's daily rate is its Q_min over the sum of every maker's, sampled
// each minute. Invariants: scores are floats in shares (signal math, never money); distances are
// measured in each token's own terms (the complement's mid is 1 − the token's); the size-cutoff
// midpoint is the mid of the best bid and best ask among levels holding at least min_size (the
// exchange's rule of thumb that dust does not move the scoring mid), null when a side has none.
// `expectedRewardScores` scores any strategy's quotes per market as they would rest (what a
// runtime records as the cycle's expected reward score). Pure.
import type { Book, Level } from '../core/book.js';
import type { Rewards } from '../core/market.js';
import { SCALE, type Price } from '../core/money.js';
import type { Side } from '../core/order.js';
import type { MarketView } from './context.js';
import { externalBook, pairMid, pairsOf } from './pair.js';

export type RewardTerms = Pick<Rewards, 'minSize' | 'maxSpread'>;

/** Lower and upper mid bounds of the one-sided allowance (inclusive). */
export const ONE_SIDED_LOW = 100_000;
export const ONE_SIDED_HIGH = 900_000;

/** The mid of the best levels of at least minSize on each side (half-even to the millionth), or null. */
export function sizeCutoffMid(book: Book, minSize: number): Price | null {
  const first = (ls: readonly Level[]): Level | undefined => ls.find((l) => l.size >= minSize);
  const b = first(book.bids);
  const a = first(book.asks);
  if (b === undefined || a === undefined) return null;
  const sum = b.price + a.price;
  // Half-even on a half-millionth: an odd sum has a .5 remainder.
  const half = Math.floor(sum / 2);
  return (sum % 2 === 0 || half % 2 === 0 ? half : half + 1) as Price;
}

/** S of one order `distance` millionths from the mid, size in share millionths; result in shares. */
export function orderScore(distance: number, size: number, r: RewardTerms): number {
  const v = r.maxSpread;
  const s = Math.abs(distance);
  if (v <= 0 || s >= v || size < r.minSize || size <= 0) return 0;
  const x = (v - s) / v;
  return x * x * (size / SCALE);
}

/** Q_min from the two sides' scores and the mid (primary terms, millionths). */
export function qMin(qOne: number, qTwo: number, mid: number): number {
  const lo = Math.min(qOne, qTwo);
  const hi = Math.max(qOne, qTwo);
  return mid >= ONE_SIDED_LOW && mid <= ONE_SIDED_HIGH ? Math.max(lo, hi / 3) : lo;
}

export interface ScoredOrder {
  readonly tokenId: string;
  readonly side: Side;
  readonly price: number;
  /** Remaining size, share millionths. */
  readonly size: number;
}

export interface RewardScore {
  readonly qOne: number;
  readonly qTwo: number;
  readonly qMin: number;
}

/**
 * Q_one, Q_two and Q_min of a set of orders on a token pair, `mid` being the token's size-cutoff
 * midpoint. Orders on other tokens are ignored.
 */
export function rewardScore(
  orders: readonly ScoredOrder[],
  tokenId: string,
  complementTokenId: string | null,
  mid: number,
  r: RewardTerms,
): RewardScore {
  let qOne = 0;
  let qTwo = 0;
  for (const o of orders) {
    let own: boolean;
    if (o.tokenId === tokenId) own = true;
    else if (complementTokenId !== null && o.tokenId === complementTokenId) own = false;
    else continue;
    const m = own ? mid : SCALE - mid;
    const s = orderScore(o.price - m, o.size, r);
    // A bid on the token or an ask on its complement is Q_one; the reverse is Q_two.
    if ((o.side === 'BUY') === own) qOne += s;
    else qTwo += s;
  }
  return { qOne, qTwo, qMin: qMin(qOne, qTwo, mid) };
}

/**
 * The score of a whole book in one token's terms, each level counted as one order: an estimate of
 * what every other maker together earns (a level can hold several orders, some below min_size).
 */
export function bookScore(book: Book, mid: number, r: RewardTerms): RewardScore {
  let qOne = 0;
  let qTwo = 0;
  for (const l of book.bids) qOne += orderScore(l.price - mid, l.size, r);
  for (const l of book.asks) qTwo += orderScore(l.price - mid, l.size, r);
  return { qOne, qTwo, qMin: qMin(qOne, qTwo, mid) };
}

/** Our expected share of the daily rate: ours / (ours + others), 0 when both are 0. */
export function rewardShare(ours: number, others: number): number {
  return ours > 0 ? ours / (ours + Math.max(0, others)) : 0;
}

/**
 * The score each market paying rewards would get if `orders` rested as given: per token pair,
 * against its size-cutoff mid computed without our resting orders (else its plain mid). Markets
 * without rewards, or without a mid, are absent.
 */
export function expectedRewardScores(
  markets: readonly MarketView[],
  orders: readonly ScoredOrder[],
): Map<string, RewardScore> {
  const out = new Map<string, RewardScore>();
  for (const market of markets) {
    const r = market.settings.rewards;
    if (r === null) continue;
    let qOne = 0;
    let qTwo = 0;
    let q = 0;
    let scored = false;
    for (const pair of pairsOf(market)) {
      const ext = externalBook(pair);
      const mid = (ext === null ? null : sizeCutoffMid(ext, r.minSize)) ?? pairMid(pair);
      if (mid === null) continue;
      const s = rewardScore(orders, pair.primary.tokenId, pair.complement?.tokenId ?? null, mid, r);
      qOne += s.qOne;
      qTwo += s.qTwo;
      q += s.qMin;
      scored = true;
    }
    if (scored) out.set(market.conditionId, { qOne, qTwo, qMin: q });
  }
  return out;
}

// The external account: other traders' liquidity, as resting orders of one reserved engine account
// that the fill model re-posts from each polled book (fill-model.ts). Invariants kept:
// - the account is never ours: our orders meet it through the engine's ordinary matching, and the
//   engine's self-trade rule never fires between the two (their owners differ), so every fill of
//   ours is a trade with a price the external book showed (taker) or our own price (maker);
// - after `replace` the external book is exactly the last book fed (capped), never an
//   accumulation; a real book that is locked or crossed keeps its asks and drops the bids at or
//   above the best ask (the external account would otherwise trade with itself, which the engine
//   forbids);
// - `replace` is incremental, with the result of cancelling everything and posting the new book:
//   a level whose external order still rests untouched at the size fed is kept; every other old
//   order is cancelled first (so no kept bid can meet a new ask), then new levels are posted, asks
//   then bids, best first. An order a trade touched (it met one of ours) is never kept: the level
//   is re-posted at the size fed, as a full replacement would. A kept level cannot cross one of
//   our resting orders (it would have traded when either arrived), so the fills are those of a
//   full replacement; a recorded update that moves 3 of 40 levels costs 3 cancels and 3 posts;
// - sizes: each level is truncated to the engine's 0.01-share lot and capped (`maxLevelSize`), each
//   side to `maxLevels` levels and `maxSideSize` shares in all, best first. Real books hold levels
//   of millions of shares at extreme prices; no paper order needs more, and the caps keep every
//   balance far inside the safe-integer range;
// - funding is effectively unlimited: before posting, the account is topped up with exactly the
//   collateral (bids: notional plus worst-case fee) and YES tokens (asks: minted as complete sets)
//   its orders will reserve. Top-ups are engine deposits, so the engine's value conservation
//   (deposits = balances + fees + locked collateral) still holds and its audit still applies;
// - a level off the market's current tick (after a tick change, real books keep old levels) is
//   still posted: the engine's tick is set to the finest tick for the posting and restored right
//   after, synchronously, so no order of ours is ever checked against the temporary tick;
// - `sweep` (trades): the resting external orders of the market are taken aside (cancelled, their
//   remaining sizes noted), the synthetic orders are posted one side at a time, so they can meet
//   only our orders, and withdrawn, then the noted orders are posted again, oldest first: the
//   external book after a sweep is the one before it (time priority among external orders is
//   kept; against ours it is moot, as external and our orders on one side never trade);
// - an external order the engine rejects is a bug of this file (the levels were sanitised and the
//   account funded): InvariantError.
import type { Level } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import { isValidOrderPrice } from '../../core/tick.js';
import type { FeeModel } from '../../core/fees.js';
import { buyNeed, LOT, type MatchingEngine } from '../engine/index.js';
import { PRICE_GRID } from '../engine/fees.js';
import { PaperError } from './errors.js';
import type { ExternalDesk } from './fill-model.js';

/** The finest tick in use (0.0001): every engine price is a multiple of it. */
const FINEST_TICK = PRICE_GRID as Price;

export interface ExternalLimits {
  /** Largest size of one external level, share millionths (bigger levels are cut to it). */
  readonly maxLevelSize: Shares;
  /** Largest total size of one side, share millionths (levels past it are cut). */
  readonly maxSideSize: Shares;
  /** Levels per side at most, best first. */
  readonly maxLevels: number;
}

export const DEFAULT_EXTERNAL_LIMITS: ExternalLimits = Object.freeze({
  maxLevelSize: (1_000_000 * SCALE) as Shares,
  maxSideSize: (10_000_000 * SCALE) as Shares,
  maxLevels: 1_000,
});

/** Fills in defaults and checks the limits (PaperError naming the bad one). */
export function resolveExternalLimits(partial: Partial<ExternalLimits> = {}): ExternalLimits {
  const l = { ...DEFAULT_EXTERNAL_LIMITS, ...partial };
  const check = (name: keyof ExternalLimits, v: number, max: number): void => {
    if (!Number.isSafeInteger(v) || v < 1 || v > max)
      throw new PaperError('PAPER_CONFIG', `external.${name} must be an integer in [1, ${max}], got ${String(v)}`);
  };
  // 10⁸ shares a side at price ≤ 1 keeps every notional under 10¹⁴ millionths.
  check('maxLevelSize', l.maxLevelSize, 100_000_000 * SCALE);
  check('maxSideSize', l.maxSideSize, 100_000_000 * SCALE);
  check('maxLevels', l.maxLevels, 10_001);
  if (l.maxLevelSize < LOT || l.maxSideSize < LOT)
    throw new PaperError('PAPER_CONFIG', 'external sizes must be at least one lot (0.01 share)');
  return Object.freeze(l);
}

/**
 * One side of a book as the engine can hold it, best first: prices on the engine grid strictly
 * inside (0, 1), sizes truncated to the lot and capped; empty levels dropped.
 */
export function sanitizeSide(levels: readonly Level[], limits: ExternalLimits): Level[] {
  const out: Level[] = [];
  let total = 0;
  for (const l of levels) {
    if (out.length >= limits.maxLevels || total >= limits.maxSideSize) break;
    if (!(l.price > 0 && l.price < SCALE) || l.price % PRICE_GRID !== 0) continue;
    let size = Math.min(l.size, limits.maxLevelSize, limits.maxSideSize - total);
    size -= size % LOT;
    if (size <= 0) continue;
    out.push({ price: l.price, size: size as Shares });
    total += size;
  }
  return out;
}

export interface ExternalStats {
  /** External orders posted since start. */
  readonly posted: number;
  /** Collateral deposited into the external account since start (top-ups). */
  readonly deposited: Micros;
  /** YES tokens minted for the external account since start. */
  readonly minted: Shares;
}

/** One external order as posted: its level's size as fed, and whether a trade has touched it. */
interface Posted {
  readonly id: string;
  readonly size: number;
  touched: boolean;
  /** The replacement that last kept it (cancelStale's mark; no temporary set per call). */
  keptAt: number;
}

/** The external orders resting in one market, by price, per side. */
interface MarketLevels {
  readonly bids: Map<number, Posted>;
  readonly asks: Map<number, Posted>;
}

export class ExternalLiquidity implements ExternalDesk {
  private seq = 0;
  private posted = 0;
  private deposited = 0;
  private minted = 0;
  private readonly levels = new Map<string, MarketLevels>();
  private readonly byId = new Map<string, Posted>();
  private replacements = 0;

  constructor(
    private readonly engine: MatchingEngine,
    /** The reserved engine account of the external liquidity. */
    readonly account: string,
    private readonly limits: ExternalLimits,
    /** Prefix of external order ids (never an EIP-712 digest, so never one of ours). */
    private readonly idPrefix = 'ext-',
  ) {
    engine.onTrade((t) => {
      if (t.makerOwner === account) this.touch(t.makerOrderId);
      if (t.takerOwner === account) this.touch(t.takerOrderId);
    });
  }

  private touch(orderId: string): void {
    const p = this.byId.get(orderId);
    if (p !== undefined) p.touched = true;
  }

  stats(): ExternalStats {
    return { posted: this.posted, deposited: this.deposited as Micros, minted: this.minted as Shares };
  }

  /** The engine's market, which must exist (the venue adds it before feeding it). */
  private marketOf(conditionId: string): NonNullable<ReturnType<MatchingEngine['market']>> {
    const m = this.engine.market(conditionId);
    if (m === undefined) throw new InvariantError(`external liquidity for unknown market ${conditionId}`);
    return m;
  }

  /** The external orders held in a market (made on first use). */
  private heldOf(conditionId: string): MarketLevels {
    let held = this.levels.get(conditionId);
    if (held === undefined) {
      held = { bids: new Map(), asks: new Map() };
      this.levels.set(conditionId, held);
    }
    return held;
  }

  replace(conditionId: string, bids: readonly Level[], asks: readonly Level[]): void {
    const m = this.marketOf(conditionId);
    const a = sanitizeSide(asks, this.limits);
    let b = sanitizeSide(bids, this.limits);
    const bestAsk = a[0];
    if (bestAsk !== undefined && b.length > 0 && (b[0] as Level).price >= bestAsk.price)
      b = b.filter((l) => l.price < bestAsk.price);
    const held = this.heldOf(conditionId);
    // Cancel every old order not kept, on both sides, before anything is posted.
    const postAsks = this.cancelStale(held.asks, a);
    const postBids = this.cancelStale(held.bids, b);
    if (postAsks.length === 0 && postBids.length === 0) return;

    const yes = m.tokens[0];
    this.fund(conditionId, yes, postBids, postAsks, m.fees);

    this.onAnyTick(conditionId, m.tick, [postAsks, postBids], () => {
      // Asks first: they can only meet our bids (no external bid at or above them rests).
      for (const l of postAsks) this.post(yes, 'SELL', l, held.asks);
      for (const l of postBids) this.post(yes, 'BUY', l, held.bids);
    });
  }

  /**
   * Runs `post` with the engine's tick set to the finest when some level is off the market's tick
   * (after a tick change real books keep old levels), restored right after, synchronously.
   */
  private onAnyTick(conditionId: string, tick: Price, sides: ReadonlyArray<readonly Level[]>, post: () => void): void {
    let off = false;
    for (const levels of sides)
      for (const l of levels)
        if (!isValidOrderPrice(l.price, tick)) {
          off = true;
          break;
        }
    if (off) this.engine.setTick(conditionId, FINEST_TICK);
    try {
      post();
    } finally {
      if (off) this.engine.setTick(conditionId, tick);
    }
  }

  /** Cancels one held external order and forgets it (a finished one's cancel finds nothing: fine). */
  private withdraw(side: Map<number, Posted>, price: number, p: Posted): void {
    this.engine.cancel(p.id, this.account);
    this.byId.delete(p.id);
    if (side.get(price) === p) side.delete(price);
  }

  /**
   * Cancels the orders of one side that the new levels do not keep (gone, resized, or touched by a
   * trade) and returns the levels to post, best first.
   */
  private cancelStale(side: Map<number, Posted>, next: readonly Level[]): Level[] {
    // Runs on every fed book, so no temporary collections: mark what is kept, cancel the rest.
    const mark = ++this.replacements;
    const out: Level[] = [];
    for (const l of next) {
      const p = side.get(l.price);
      if (p !== undefined && !p.touched && p.size === l.size) p.keptAt = mark;
      else out.push(l);
    }
    for (const [price, p] of side) if (p.keptAt !== mark) this.withdraw(side, price, p);
    return out;
  }

  sweep(conditionId: string, bids: readonly Level[], asks: readonly Level[]): void {
    const m = this.marketOf(conditionId);
    const a = sanitizeSide(asks, this.limits);
    const b = sanitizeSide(bids, this.limits);
    if (a.length === 0 && b.length === 0) return;
    const held = this.heldOf(conditionId);
    // Only external orders a synthetic one could reach are taken aside: bids at or above the
    // lowest synthetic ask, asks at or below the highest synthetic bid.
    let lowAsk = Number.POSITIVE_INFINITY;
    for (const l of a) lowAsk = Math.min(lowAsk, l.price);
    let highBid = Number.NEGATIVE_INFINITY;
    for (const l of b) highBid = Math.max(highBid, l.price);
    const asideBids = this.takeAside(held.bids, (p) => p >= lowAsk).sort((x, y) => y.price - x.price);
    const asideAsks = this.takeAside(held.asks, (p) => p <= highBid).sort((x, y) => x.price - y.price);
    const yes = m.tokens[0];
    const fees = m.fees;
    this.onAnyTick(conditionId, m.tick, [a, b, asideAsks, asideBids], () => {
      // One side at a time, so a synthetic order can meet only ours; what is left is withdrawn.
      for (const [side, levels] of [
        ['SELL', a],
        ['BUY', b],
      ] as const) {
        if (levels.length === 0) continue;
        this.fund(conditionId, yes, side === 'BUY' ? levels : [], side === 'SELL' ? levels : [], fees);
        const transient = new Map<number, Posted>();
        for (const l of levels) this.post(yes, side, l, transient);
        for (const [price, p] of transient) this.withdraw(transient, price, p);
      }
      this.fund(conditionId, yes, asideBids, asideAsks, fees);
      for (const l of asideAsks) this.post(yes, 'SELL', l, held.asks);
      for (const l of asideBids) this.post(yes, 'BUY', l, held.bids);
    });
  }

  /**
   * Cancels the held orders of one side whose price `reach` selects and returns their remaining
   * levels. A level re-posted at its remaining size differs from the size fed, so the next book
   * replaces it at the fed size, as after any trade that touched it.
   */
  private takeAside(side: Map<number, Posted>, reach: (price: number) => boolean): Level[] {
    const out: Level[] = [];
    for (const [price, p] of side) {
      if (!reach(price)) continue;
      const o = this.engine.getOrder(p.id);
      this.withdraw(side, price, p);
      if (o === undefined || o.status !== 'LIVE') continue;
      let size = o.originalSize - o.sizeMatched;
      size -= size % LOT;
      if (size > 0) out.push({ price: price as Price, size: size as Shares });
    }
    return out;
  }

  /** Tops the account up to exactly what the new orders reserve (collateral and YES tokens). */
  private fund(conditionId: string, yes: string, bids: readonly Level[], asks: readonly Level[], fees: FeeModel): void {
    let needCollateral = 0;
    for (const l of bids) needCollateral += buyNeed(l.price, l.size, fees);
    let needYes = 0;
    for (const l of asks) needYes += l.size;
    const bal = this.engine.balances(this.account);
    const haveYes = bal.tokens.get(yes)?.available ?? 0;
    if (haveYes < needYes) {
      // A mint deposits its size and splits it at once: free collateral is unchanged.
      this.engine.mint(this.account, conditionId, (needYes - haveYes) as Shares);
      this.minted += needYes - haveYes;
    }
    const haveCollateral = bal.collateral.available;
    if (haveCollateral < needCollateral) {
      this.engine.deposit(this.account, (needCollateral - haveCollateral) as Micros);
      this.deposited += needCollateral - haveCollateral;
    }
  }

  /**
   * Puts the external order resting at a YES-terms level behind an order of ours that just joined
   * that level: the `cross` model's rule that ours comes first at its price (fill-model.ts), which
   * a kept external order (an incremental replacement keeps unchanged levels) would otherwise
   * break when another order of ours later takes that level. Re-posts what rests, at once.
   */
  requeueBehind(conditionId: string, yesSide: 'BUY' | 'SELL', price: number): void {
    const held = this.levels.get(conditionId);
    const side = yesSide === 'BUY' ? held?.bids : held?.asks;
    if (side === undefined || !side.has(price)) return;
    const m = this.marketOf(conditionId);
    // Its remaining size, re-posted: a level that traded differs from the size fed, so the next
    // book replaces it at the fed size (takeAside's rule); an untouched one stays kept.
    const back = this.takeAside(side, (p) => p === price);
    this.onAnyTick(conditionId, m.tick, [back], () => {
      for (const l of back) this.post(m.tokens[0], yesSide, l, side);
    });
  }

  private post(yes: string, side: 'BUY' | 'SELL', l: Level, into: Map<number, Posted>): void {
    const id = `${this.idPrefix}${++this.seq}`;
    // Registered before submitting: a trade on arrival (it met one of ours) marks it touched.
    const rec: Posted = { id, size: l.size, touched: false, keptAt: 0 };
    this.byId.set(id, rec);
    into.set(l.price, rec);
    const r = this.engine.submit({
      id,
      owner: this.account,
      tokenId: yes,
      side,
      price: l.price,
      size: l.size,
      orderType: 'GTC',
    });
    if (!r.ok) throw new InvariantError(`external ${side} ${l.size / SCALE} @ ${l.price / SCALE} rejected: ${r.code}`);
    this.posted++;
  }
}

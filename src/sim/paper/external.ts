// The external account: other traders' liquidity, as resting orders of one reserved engine account
// that the fill model re-posts from each polled book (fill-model.ts). Invariants kept:
// - the account is never ours: our orders meet it through the engine's ordinary matching, and the
//   engine's self-trade rule never fires between the two (their owners differ), so every fill of
//   ours is a trade with a price the external book showed (taker) or our own price (maker);
// - `replace` first cancels every external order of the market, so the external book is exactly
//   the last book fed (capped), never an accumulation; a real book that is locked or crossed keeps
//   its asks and drops the bids at or above the best ask (the external account would otherwise
//   trade with itself, which the engine forbids);
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
// - an external order the engine rejects is a bug of this file (the levels were sanitised and the
//   account funded): InvariantError.
import type { Level } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import { isValidOrderPrice } from '../../core/tick.js';
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
    if (!Number.isSafeInteger(v) || v < 1 || v > max) throw new PaperError('PAPER_CONFIG', `external.${name} must be an integer in [1, ${max}], got ${String(v)}`);
  };
  // 10⁸ shares a side at price ≤ 1 keeps every notional under 10¹⁴ millionths.
  check('maxLevelSize', l.maxLevelSize, 100_000_000 * SCALE);
  check('maxSideSize', l.maxSideSize, 100_000_000 * SCALE);
  check('maxLevels', l.maxLevels, 10_001);
  if (l.maxLevelSize < LOT || l.maxSideSize < LOT) throw new PaperError('PAPER_CONFIG', 'external sizes must be at least one lot (0.01 share)');
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

export class ExternalLiquidity implements ExternalDesk {
  private seq = 0;
  private posted = 0;
  private deposited = 0;
  private minted = 0;

  constructor(
    private readonly engine: MatchingEngine,
    /** The reserved engine account of the external liquidity. */
    readonly account: string,
    private readonly limits: ExternalLimits,
    /** Prefix of external order ids (never an EIP-712 digest, so never one of ours). */
    private readonly idPrefix = 'ext-',
  ) {}

  stats(): ExternalStats {
    return { posted: this.posted, deposited: this.deposited as Micros, minted: this.minted as Shares };
  }

  replace(conditionId: string, bids: readonly Level[], asks: readonly Level[]): void {
    const engine = this.engine;
    const m = engine.market(conditionId);
    if (m === undefined) throw new InvariantError(`external liquidity for unknown market ${conditionId}`);
    engine.cancelAll(this.account, conditionId);
    const a = sanitizeSide(asks, this.limits);
    let b = sanitizeSide(bids, this.limits);
    const bestAsk = a[0];
    if (bestAsk !== undefined && b.length > 0 && (b[0] as Level).price >= bestAsk.price) b = b.filter((l) => l.price < bestAsk.price);
    if (a.length === 0 && b.length === 0) return;

    const yes = m.tokens[0];
    this.fund(conditionId, yes, b, a, Math.max(m.makerFeeBps, m.takerFeeBps));

    const tick = m.tick;
    let offTick = false;
    for (const l of a) if (!isValidOrderPrice(l.price, tick)) { offTick = true; break; }
    if (!offTick) for (const l of b) if (!isValidOrderPrice(l.price, tick)) { offTick = true; break; }
    if (offTick) engine.setTick(conditionId, FINEST_TICK);
    try {
      // Asks first: they can only meet our bids (the external bids were just cancelled).
      for (const l of a) this.post(yes, 'SELL', l);
      for (const l of b) this.post(yes, 'BUY', l);
    } finally {
      if (offTick) engine.setTick(conditionId, tick);
    }
  }

  /** Tops the account up to exactly what the new orders reserve (collateral and YES tokens). */
  private fund(conditionId: string, yes: string, bids: readonly Level[], asks: readonly Level[], bpsMax: number): void {
    let needCollateral = 0;
    for (const l of bids) needCollateral += buyNeed(l.price, l.size, bpsMax);
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

  private post(yes: string, side: 'BUY' | 'SELL', l: Level): void {
    const id = `${this.idPrefix}${++this.seq}`;
    const r = this.engine.submit({ id, owner: this.account, tokenId: yes, side, price: l.price, size: l.size, orderType: 'GTC' });
    if (!r.ok) throw new InvariantError(`external ${side} ${l.size / SCALE} @ ${l.price / SCALE} rejected: ${r.code}`);
    this.posted++;
  }
}

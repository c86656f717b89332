// One market: its settings, its lifecycle flags and its single book in YES terms (see engine.ts:
// BUY YES @p and SELL NO @(1 − p) are bids at p; SELL YES @p and BUY NO @(1 − p) are asks at p).
// The book is indexed by YES price / grid, where grid is the gcd of every tick the market has had
// (it starts as the tick; a tick change to a finer or unrelated tick narrows it and re-indexes the
// levels, so orders resting from before keep their exact price). Invariant after every engine
// operation: the book is not crossed (best bid index < best ask index).
import type { Level } from '../../core/book.js';
import { baseFeeModel, checkFeeModel, type FeeModel } from '../../core/fees.js';
import { SCALE, type Price, type Shares } from '../../core/money.js';
import { RestingSide } from './book-side.js';
import type { MarketConfig, MarketState } from './types.js';

function gcd(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

export interface LastTradeState {
  yesPrice: number;
  /** True when the taker's order was a YES-terms bid (BUY YES or SELL NO). */
  takerBid: boolean;
  timeMs: number;
}

export class MarketBook {
  readonly conditionId: string;
  readonly tokens: readonly [string, string];
  tick: number;
  readonly minSize: number;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  /** How fills are charged (core/fees.ts): the config's model, else the base bps. */
  readonly fees: FeeModel;
  readonly negRisk: boolean;
  acceptingOrders: boolean;
  closed = false;
  /** 0 or 1 once resolved, else −1. */
  winner: -1 | 0 | 1 = -1;
  /** Collateral in complete sets (unresolved) or owed to holders of the winner (resolved). */
  locked = 0;
  grid: number;
  readonly bids: RestingSide;
  readonly asks: RestingSide;
  lastTrade: LastTradeState | null = null;

  constructor(cfg: MarketConfig) {
    this.conditionId = cfg.conditionId;
    this.tokens = [cfg.tokens[0], cfg.tokens[1]];
    this.tick = cfg.tick;
    this.minSize = cfg.minSize;
    this.makerFeeBps = cfg.makerFeeBps;
    this.takerFeeBps = cfg.takerFeeBps;
    this.fees = cfg.fees === undefined ? baseFeeModel(cfg.makerFeeBps, cfg.takerFeeBps) : checkFeeModel(cfg.fees);
    this.negRisk = cfg.negRisk;
    this.acceptingOrders = cfg.acceptingOrders;
    this.grid = cfg.tick;
    const slots = SCALE / this.grid + 1;
    this.bids = new RestingSide(true, slots);
    this.asks = new RestingSide(false, slots);
  }

  get resolved(): boolean {
    return this.winner !== -1;
  }

  /** Sets the tick; narrows the grid (re-indexing the book) when the new tick is not a multiple of it. */
  setTick(tick: number): void {
    this.tick = tick;
    const g = gcd(this.grid, tick);
    if (g === this.grid) return;
    const factor = this.grid / g;
    const slots = SCALE / g + 1;
    this.bids.regrid(factor, slots);
    this.asks.regrid(factor, slots);
    this.grid = g;
  }

  isCrossed(): boolean {
    return this.bids.best >= 0 && this.asks.best < this.asks.slots && this.bids.best >= this.asks.best;
  }

  /** Aggregated levels of one side, best first, in YES terms (or mirrored into NO terms). */
  levels(side: RestingSide, mirror: boolean, depth: number): Level[] {
    const out: Level[] = [];
    const g = this.grid;
    const step = side.isBid ? -1 : 1;
    const end = side.isBid ? -1 : side.slots;
    for (let i = side.best; i !== end && out.length < depth; i += step) {
      const lv = side.levels[i];
      if (lv === null || lv === undefined || lv.count === 0) continue;
      const p = i * g;
      out.push({ price: (mirror ? SCALE - p : p) as Price, size: lv.qty as Shares });
    }
    return out;
  }

  state(): MarketState {
    return {
      conditionId: this.conditionId,
      tokens: this.tokens,
      tick: this.tick as Price,
      minSize: this.minSize as Shares,
      makerFeeBps: this.makerFeeBps,
      takerFeeBps: this.takerFeeBps,
      fees: this.fees,
      negRisk: this.negRisk,
      acceptingOrders: this.acceptingOrders,
      closed: this.closed,
      winner: this.winner === -1 ? null : this.tokens[this.winner],
      lockedCollateral: this.locked as MarketState['lockedCollateral'],
    };
  }
}

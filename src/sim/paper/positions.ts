// Our positions in the paper venue, built from our fills with the one average-cost math the ledger
// books by (src/core/pnl.ts), so the venue's GET /positions and the daemon's ledger compute the same PnL
// from the same fills. Invariants kept:
// - one position per token, changed only by a fill of ours (applyFill: BUY adds shares at their
//   exact collateral cost, SELL removes cost × sold / held; fees are realized when paid, never
//   capitalised); the notional is the engine's exact collateral of the fill, not a re-rounding;
// - a position's size always equals the engine account's balance of the token (free + reserved),
//   since both move only with our trades (checked by the tests);
// - the figures of core Position: avgPrice = cost / size (half-even), initialValue = cost,
//   currentValue = size × curPrice (floor), cashPnl = currentValue − initialValue, percentPnl =
//   100 × cashPnl / initialValue, totalBought = shares bought, realizedPnl net of fees,
//   percentRealizedPnl = 100 × realized / collateral spent on buys (fees included); percentages
//   are exact ratios rounded half-even to a millionth of a percent. `asset` is the token id (the
//   public exchange's form, which the ledger's position check reads directly).
import type { Position } from '../../core/market.js';
import { divRound, mulMicros, SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { Side } from '../../core/order.js';
import { applyFill, averagePrice, FLAT, type PositionState } from '../../core/pnl.js';
import type { MarketDisplay, PaperMarket } from './market.js';

/** One fill of ours, as the engine's trade shows our leg of it. */
export interface PaperFill {
  readonly tradeId: string;
  readonly orderId: string;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly side: Side;
  /** Our price (own token terms). */
  readonly price: Price;
  readonly size: Shares;
  /** Collateral we paid (BUY) or received (SELL), fees excluded: exact. */
  readonly notional: Micros;
  readonly feeMicros: Micros;
  readonly liquidity: 'maker' | 'taker';
  readonly timeMs: number;
}

interface Entry {
  state: PositionState;
  /** Collateral spent on buys, fees included (the denominator of percentRealizedPnl). */
  boughtCost: number;
  lastFillMs: number;
}

export class PaperPositions {
  private readonly byToken = new Map<string, Entry>();

  apply(f: PaperFill): void {
    let e = this.byToken.get(f.tokenId);
    if (e === undefined) {
      e = { state: FLAT, boughtCost: 0, lastFillMs: 0 };
      this.byToken.set(f.tokenId, e);
    }
    e.state = applyFill(e.state, {
      side: f.side,
      price: f.price,
      size: f.size,
      feeMicros: f.feeMicros,
      notional: f.notional,
    }).position;
    if (f.side === 'BUY') e.boughtCost += f.notional + f.feeMicros;
    if (f.timeMs > e.lastFillMs) e.lastFillMs = f.timeMs;
  }

  /** The position state of a token (FLAT when never traded). */
  state(tokenId: string): PositionState {
    return this.byToken.get(tokenId)?.state ?? FLAT;
  }

  /** Tokens ever traded, in first-fill order. */
  tokens(): IterableIterator<string> {
    return this.byToken.keys();
  }

  /**
   * The core Position of a token with shares held, or null when flat. `mark` is the current price
   * of the token (null: none known, the average price is used, so cashPnl reads 0).
   */
  position(
    wallet: string,
    tokenId: string,
    market: PaperMarket,
    info: MarketDisplay | undefined,
    mark: Price | null,
  ): Position | null {
    const e = this.byToken.get(tokenId);
    if (e === undefined || e.state.size === 0) return null;
    const s = e.state;
    const i: 0 | 1 = market.tokens[0] === tokenId ? 0 : 1;
    const o: 0 | 1 = i === 0 ? 1 : 0;
    const avg = averagePrice(s) ?? (0 as Price);
    const cur = mark ?? avg;
    const currentValue = mulMicros(cur, s.size, 'floor') as Micros;
    const cashPnl = (currentValue - s.cost) as Micros;
    const other = this.state(market.tokens[o]);
    return {
      proxyWallet: wallet,
      asset: tokenId,
      conditionId: market.conditionId,
      size: s.size,
      avgPrice: avg,
      initialValue: s.cost,
      currentValue,
      cashPnl,
      percentPnl: percent(cashPnl, s.cost),
      totalBought: s.bought as number as Micros,
      realizedPnl: s.realized,
      percentRealizedPnl: percent(s.realized, e.boughtCost),
      curPrice: cur,
      redeemable: false,
      mergeable: other.size > 0,
      negativeRisk: market.negRisk,
      title: info?.title ?? '',
      slug: info?.slug ?? '',
      icon: info?.icon ?? '',
      eventId: null,
      eventSlug: info?.eventSlug ?? '',
      outcome: market.outcomes[i],
      oppositeOutcome: market.outcomes[o],
      oppositeAsset: market.tokens[o],
      outcomeIndex: i,
      timestamp: Math.floor(e.lastFillMs / 1000),
      endDate: info?.endDate ?? null,
    };
  }
}

/** 100 × num / den as a number of percent, exact to a millionth of a percent (0 when den is 0). */
function percent(num: number, den: number): number {
  if (den === 0) return 0;
  return Number(divRound(BigInt(num) * 100n * BigInt(SCALE), BigInt(den), 'half-even')) / SCALE;
}

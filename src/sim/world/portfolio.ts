// PositionBook: per-wallet, per-token positions built from fills and market resolution, answering
// the figures of §2.11 (current positions) and §2.12 (closed positions). Average-cost accounting:
// - BUY s @ p with fee f: size += s; cost basis += p·s + f; totalBought += s (shares);
//   boughtCost += p·s + f (collateral spent on buys over the position's life);
// - SELL s @ p with fee f (s <= size, else PORTFOLIO_OVERSELL): the sold shares release
//   costBasis·s/size of the basis (all of it when the position empties); realizedPnl +=
//   p·s − f − released. Selling never changes the average price of what is left;
// - REDEEM (resolved market): each held share pays 1 (winner) or 0; realizedPnl += payout − basis.
// - REVERT (a fill whose settlement failed, undone by the venue): the fill's effect comes out,
//   keeping realizedPnl − costBasis (= proceeds − costs) exact: a BUY's shares and cost leave
//   (size, costBasis, totalBought, boughtCost); if the position is then empty, or its basis
//   negative (the sold shares had carried part of the reverted cost), what is left of the basis
//   moves into realizedPnl. A SELL's shares come back with the basis it released (applyFill
//   returns it) and its realized PnL is taken back.
// Figures of a current position (size > 0):
//   avgPrice = costBasis / size (rounded half-even to a millionth); initialValue = costBasis (the
//   exact size × average cost, so no rounding of avgPrice leaks into PnL); curPrice = 1 or 0 when
//   the market is resolved, else the caller's price function (the midpoint), else the market's
//   displayed price; currentValue = size × curPrice; cashPnl = currentValue − initialValue;
//   percentPnl = 100·cashPnl/initialValue; percentRealizedPnl = 100·realizedPnl/boughtCost
//   (0 when the denominator is 0); redeemable = market resolved; mergeable = market not resolved
//   and the wallet also holds the other outcome; timestamp = last fill (Unix seconds).
// A position is CLOSED when (a) its size went back to 0 after buying (sold out or redeemed), or
//   (b) its market is resolved while it still holds shares (an unredeemed claim, settled virtually
//   at 1 or 0: it shows both here, realizedPnl including the settlement, and among current
//   positions with redeemable = true until redeemed). A closed position reports size 0 and zero
//   current figures (initialValue, currentValue, cashPnl, percentPnl), avgPrice = boughtCost /
//   totalBought (the life's average buy cost), timestamp = when it closed (the emptying fill or
//   redemption, or the resolution for a claim), redeemable = an unredeemed claim, mergeable false.
// A position that empties and is bought again is one record again current (cumulative figures).
// A fill in a resolved market is refused, except a fill of the world's past (applyFill's `past`)
// dated before the resolution: the venue replays that history into the book at start.
// `asset` is `<condition_id>:<outcome_index>` as §2.11 says (the public exchange puts the token id
// there); `oppositeAsset` uses the same form for the other outcome.
// All money is integer millionths; products through mulMicros, quotients through divRound.
// Why not src/core/pnl.ts (our one PnL): this book models what the exchange's data API reports for
// every wallet (§2.11, §2.12), in its conventions, not our accounting: fees are capitalised into
// the basis, an oversell is refused, claims and redemptions are its own records. The daemon's
// ledger and the paper venue's positions use the core.
import { OddsmakerError } from '../../core/errors.js';
import { divMicros, divRound, mulMicros, SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { WireClosedPosition, WirePosition, WireSide } from '../../exchange/wire.js';
import { iso } from './ids.js';
import type { MarketRec, OutcomeIndex } from './model.js';
import { microsToNumber, percentMicros } from './numbers.js';
import { isAddress } from './query.js';
import type { World } from './world.js';

export class PortfolioError extends OddsmakerError {
  constructor(code: string, message: string) {
    super(code, message, false);
  }
}

/** One side of a trade as seen by one wallet (the venue adapts engine trades into these). */
export interface Fill {
  user: string;
  tokenId: string;
  conditionId: string;
  side: WireSide;
  price: Price;
  size: Shares;
  /** Collateral paid in fees by this wallet on this fill (>= 0). */
  feeMicros: Micros;
  timeMs: number;
  /** Used by the trade log; the book ignores it. */
  transactionHash?: string;
  /** This wallet's role in the match (the trade log's takerOnly filter); absent: unknown. */
  role?: 'maker' | 'taker';
}

/** Current price of a token (the midpoint), or null when there is none. */
export type PriceFn = (tokenId: string) => Price | null;

interface PositionState {
  readonly seq: number;
  readonly user: string;
  readonly tokenId: string;
  readonly market: MarketRec;
  readonly outcomeIndex: OutcomeIndex;
  size: Shares;
  costBasis: Micros;
  totalBought: Shares;
  boughtCost: Micros;
  realized: Micros;
  lastFillMs: number;
  closedAtMs: number | null;
}

/** The figures of one position in millionths, before rendering (queries sort on these). */
export interface PositionView {
  readonly seq: number;
  readonly user: string;
  readonly market: MarketRec;
  readonly eventSlug: string;
  readonly outcomeIndex: OutcomeIndex;
  readonly size: Shares;
  readonly avgPrice: Price;
  readonly initialValue: Micros;
  readonly currentValue: Micros;
  readonly cashPnl: Micros;
  /** Millionths of a percent. */
  readonly percentPnl: number;
  readonly totalBought: Shares;
  readonly realizedPnl: Micros;
  readonly percentRealizedPnl: number;
  readonly curPrice: Price;
  readonly redeemable: boolean;
  readonly mergeable: boolean;
  readonly timestampSec: number;
}

function checkInt(v: number, what: string, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(v) || v < min || v > max)
    throw new PortfolioError('PORTFOLIO_BAD_FILL', `${what} out of range: ${String(v)}`);
}

export class PositionBook {
  /** Per wallet, per token (nested maps: no key string built per lookup). */
  private readonly positions = new Map<string, Map<string, PositionState>>();
  private readonly byUser = new Map<string, PositionState[]>();
  private seq = 0;

  constructor(
    private readonly world: World,
    private readonly priceOf: PriceFn = () => null,
  ) {}

  private get(user: string, tokenId: string): PositionState | undefined {
    return this.positions.get(user)?.get(tokenId);
  }

  private open(user: string, market: MarketRec, outcomeIndex: OutcomeIndex): PositionState {
    const tokenId = market.tokenIds[outcomeIndex];
    const found = this.get(user, tokenId);
    if (found !== undefined) return found;
    const p: PositionState = {
      seq: this.seq++,
      user,
      tokenId,
      market,
      outcomeIndex,
      size: 0 as Shares,
      costBasis: 0 as Micros,
      totalBought: 0 as Shares,
      boughtCost: 0 as Micros,
      realized: 0 as Micros,
      lastFillMs: 0,
      closedAtMs: null,
    };
    const mine = this.positions.get(user);
    if (mine === undefined) this.positions.set(user, new Map([[tokenId, p]]));
    else mine.set(tokenId, p);
    const list = this.byUser.get(user);
    if (list === undefined) this.byUser.set(user, [p]);
    else list.push(p);
    return p;
  }

  /**
   * Applies one fill; throws PortfolioError (and changes nothing) when the fill is impossible.
   * Returns the cost basis a SELL released (0 for a BUY), which revertFill needs. `past`: a fill of
   * the world's generated history (standings.ts), which may lie in a market resolved after it.
   */
  applyFill(f: Fill, opts: { past?: boolean } = {}): number {
    if (!isAddress(f.user)) throw new PortfolioError('PORTFOLIO_BAD_FILL', `bad wallet address: ${f.user}`);
    const ref = this.world.token(f.tokenId);
    if (ref === undefined) throw new PortfolioError('PORTFOLIO_UNKNOWN_TOKEN', `unknown token ${f.tokenId}`);
    if (ref.market.conditionId !== f.conditionId.toLowerCase()) {
      throw new PortfolioError('PORTFOLIO_BAD_FILL', `token ${f.tokenId} is not in market ${f.conditionId}`);
    }
    const s = ref.market.state;
    if (s.winner !== null && !(opts.past === true && f.timeMs < (s.resolvedAtMs ?? 0))) {
      throw new PortfolioError('PORTFOLIO_MARKET_RESOLVED', `market ${f.conditionId} is resolved`);
    }
    checkInt(f.price, 'price', 0, SCALE);
    checkInt(f.size, 'size', 1);
    checkInt(f.feeMicros, 'fee', 0);
    checkInt(f.timeMs, 'time', 0);
    if (f.side !== 'BUY' && f.side !== 'SELL')
      throw new PortfolioError('PORTFOLIO_BAD_FILL', `bad side: ${String(f.side)}`);
    const user = f.user.toLowerCase();
    const notional = mulMicros(f.price, f.size, 'half-even');
    if (f.side === 'SELL') {
      const held = this.get(user, f.tokenId)?.size ?? 0;
      if (f.size > held) {
        throw new PortfolioError(
          'PORTFOLIO_OVERSELL',
          `sell of ${f.size / SCALE} exceeds the ${held / SCALE} shares held of token ${f.tokenId}`,
        );
      }
    }
    const p = this.open(user, ref.market, ref.outcomeIndex);
    p.lastFillMs = Math.max(p.lastFillMs, f.timeMs);
    if (f.side === 'BUY') {
      p.size = (p.size + f.size) as Shares;
      p.costBasis = (p.costBasis + notional + f.feeMicros) as Micros;
      p.totalBought = (p.totalBought + f.size) as Shares;
      p.boughtCost = (p.boughtCost + notional + f.feeMicros) as Micros;
      p.closedAtMs = null;
      return 0;
    }
    const released =
      f.size === p.size
        ? p.costBasis
        : Number(divRound(BigInt(p.costBasis) * BigInt(f.size), BigInt(p.size), 'half-even'));
    p.realized = (p.realized + notional - f.feeMicros - released) as Micros;
    p.costBasis = (p.costBasis - released) as Micros;
    p.size = (p.size - f.size) as Shares;
    if (p.size === 0) p.closedAtMs = f.timeMs;
    return released;
  }

  /**
   * Takes back a fill applyFill accepted (see REVERT in the header); `released` is what applyFill
   * returned for it. Throws PortfolioError (changing nothing) when the wallet no longer holds the
   * shares a BUY gave it, or the market is resolved.
   */
  revertFill(f: Fill, released: number, timeMs: number): void {
    const user = f.user.toLowerCase();
    const ref = this.world.token(f.tokenId);
    if (ref === undefined) throw new PortfolioError('PORTFOLIO_UNKNOWN_TOKEN', `unknown token ${f.tokenId}`);
    if (ref.market.state.winner !== null)
      throw new PortfolioError('PORTFOLIO_MARKET_RESOLVED', `market ${f.conditionId} is resolved`);
    const p = this.get(user, f.tokenId);
    if (p === undefined) throw new PortfolioError('PORTFOLIO_BAD_FILL', `no position of ${user} in token ${f.tokenId}`);
    const notional = mulMicros(f.price, f.size, 'half-even');
    if (f.side === 'BUY') {
      if (f.size > p.size)
        throw new PortfolioError(
          'PORTFOLIO_OVERSELL',
          `revert of a buy of ${f.size / SCALE} exceeds the ${p.size / SCALE} shares held`,
        );
      const cost = notional + f.feeMicros;
      p.size = (p.size - f.size) as Shares;
      p.costBasis = (p.costBasis - cost) as Micros;
      p.totalBought = (p.totalBought - f.size) as Shares;
      p.boughtCost = (p.boughtCost - cost) as Micros;
      if (p.size === 0 || p.costBasis < 0) {
        p.realized = (p.realized - p.costBasis) as Micros;
        p.costBasis = 0 as Micros;
      }
      if (p.size === 0 && p.closedAtMs === null && p.totalBought > 0) p.closedAtMs = timeMs;
      return;
    }
    p.realized = (p.realized - (notional - f.feeMicros - released)) as Micros;
    p.costBasis = (p.costBasis + released) as Micros;
    p.size = (p.size + f.size) as Shares;
    p.closedAtMs = null;
  }

  /** Redeems the wallet's shares of a resolved market; returns the collateral paid out. */
  redeem(user: string, conditionId: string, timeMs: number): Micros {
    const m = this.world.marketByCondition(conditionId);
    if (m === undefined) throw new PortfolioError('PORTFOLIO_UNKNOWN_MARKET', `unknown market ${conditionId}`);
    if (m.state.winner === null)
      throw new PortfolioError('PORTFOLIO_NOT_RESOLVED', `market ${conditionId} is not resolved`);
    let paid = 0;
    for (const i of [0, 1] as const) {
      const p = this.get(user.toLowerCase(), m.tokenIds[i]);
      if (p === undefined || p.size === 0) continue;
      const payout = m.state.winner === i ? p.size : 0;
      p.realized = (p.realized + payout - p.costBasis) as Micros;
      p.costBasis = 0 as Micros;
      p.size = 0 as Shares;
      p.closedAtMs = timeMs;
      paid += payout;
    }
    return paid as Micros;
  }

  /** Shares the wallet holds of a token (0 when none). */
  sizeOf(user: string, tokenId: string): Shares {
    return this.get(user.toLowerCase(), tokenId)?.size ?? (0 as Shares);
  }

  private curPrice(p: PositionState): Price {
    const s = p.market.state;
    if (s.winner !== null) return (s.winner === p.outcomeIndex ? SCALE : 0) as Price;
    return this.priceOf(p.tokenId) ?? s.prices[p.outcomeIndex];
  }

  private eventSlug(m: MarketRec): string {
    return this.world.eventOf(m).slug;
  }

  /** Current positions (size > 0) of a wallet, in the order they were opened. */
  current(user: string): PositionView[] {
    const out: PositionView[] = [];
    for (const p of this.byUser.get(user.toLowerCase()) ?? []) {
      if (p.size === 0) continue;
      const resolved = p.market.state.winner !== null;
      const cur = this.curPrice(p);
      const currentValue = mulMicros(p.size, cur, 'half-even') as Micros;
      const cashPnl = (currentValue - p.costBasis) as Micros;
      const other = this.get(p.user, p.market.tokenIds[p.outcomeIndex === 0 ? 1 : 0]);
      out.push({
        seq: p.seq,
        user: p.user,
        market: p.market,
        eventSlug: this.eventSlug(p.market),
        outcomeIndex: p.outcomeIndex,
        size: p.size,
        avgPrice: divMicros(p.costBasis, p.size, 'half-even') as Price,
        initialValue: p.costBasis,
        currentValue,
        cashPnl,
        percentPnl: percentMicros(cashPnl, p.costBasis),
        totalBought: p.totalBought,
        realizedPnl: p.realized,
        percentRealizedPnl: percentMicros(p.realized, p.boughtCost),
        curPrice: cur,
        redeemable: resolved,
        mergeable: !resolved && other !== undefined && other.size > 0,
        timestampSec: Math.floor(p.lastFillMs / 1000),
      });
    }
    return out;
  }

  /** Closed positions of a wallet (definition in the header), in the order they were opened. */
  closed(user: string): PositionView[] {
    const out: PositionView[] = [];
    for (const p of this.byUser.get(user.toLowerCase()) ?? []) {
      const s = p.market.state;
      const claim = s.winner !== null && p.size > 0;
      if (!claim && !(p.size === 0 && p.totalBought > 0)) continue;
      const settlement = claim ? (s.winner === p.outcomeIndex ? p.size : 0) - p.costBasis : 0;
      const realized = (p.realized + settlement) as Micros;
      const closedAt = claim ? (s.resolvedAtMs ?? p.lastFillMs) : (p.closedAtMs ?? p.lastFillMs);
      out.push({
        seq: p.seq,
        user: p.user,
        market: p.market,
        eventSlug: this.eventSlug(p.market),
        outcomeIndex: p.outcomeIndex,
        size: 0 as Shares,
        avgPrice: (p.totalBought === 0 ? 0 : divMicros(p.boughtCost, p.totalBought, 'half-even')) as Price,
        initialValue: 0 as Micros,
        currentValue: 0 as Micros,
        cashPnl: 0 as Micros,
        percentPnl: 0,
        totalBought: p.totalBought,
        realizedPnl: realized,
        percentRealizedPnl: percentMicros(realized, p.boughtCost),
        curPrice: this.curPrice(p),
        redeemable: claim,
        mergeable: false,
        timestampSec: Math.floor(closedAt / 1000),
      });
    }
    return out;
  }
}

function base(v: PositionView): WireClosedPosition {
  const m = v.market;
  const i = v.outcomeIndex;
  const o: OutcomeIndex = i === 0 ? 1 : 0;
  return {
    proxyWallet: v.user,
    asset: `${m.conditionId}:${i}`,
    conditionId: m.conditionId,
    size: microsToNumber(v.size),
    avgPrice: microsToNumber(v.avgPrice),
    initialValue: microsToNumber(v.initialValue),
    currentValue: microsToNumber(v.currentValue),
    cashPnl: microsToNumber(v.cashPnl),
    percentPnl: microsToNumber(v.percentPnl),
    totalBought: microsToNumber(v.totalBought),
    realizedPnl: microsToNumber(v.realizedPnl),
    percentRealizedPnl: microsToNumber(v.percentRealizedPnl),
    curPrice: microsToNumber(v.curPrice),
    redeemable: v.redeemable,
    mergeable: v.mergeable,
    title: m.question,
    slug: m.slug,
    icon: m.icon,
    eventSlug: v.eventSlug,
    outcome: m.outcomes[i],
    oppositeOutcome: m.outcomes[o],
    oppositeAsset: `${m.conditionId}:${o}`,
    outcomeIndex: i,
    timestamp: v.timestampSec,
    endDate: iso(m.endDateMs),
  };
}

export function toWirePosition(v: PositionView): WirePosition {
  const b = base(v);
  // Table order of §2.11: negativeRisk follows mergeable. Listed field by field: an object
  // rest/spread here cost 30x more than the literal.
  return {
    proxyWallet: b.proxyWallet,
    asset: b.asset,
    conditionId: b.conditionId,
    size: b.size,
    avgPrice: b.avgPrice,
    initialValue: b.initialValue,
    currentValue: b.currentValue,
    cashPnl: b.cashPnl,
    percentPnl: b.percentPnl,
    totalBought: b.totalBought,
    realizedPnl: b.realizedPnl,
    percentRealizedPnl: b.percentRealizedPnl,
    curPrice: b.curPrice,
    redeemable: b.redeemable,
    mergeable: b.mergeable,
    negativeRisk: v.market.negRisk,
    title: b.title,
    slug: b.slug,
    icon: b.icon,
    eventSlug: b.eventSlug,
    outcome: b.outcome,
    oppositeOutcome: b.oppositeOutcome,
    oppositeAsset: b.oppositeAsset,
    outcomeIndex: b.outcomeIndex,
    timestamp: b.timestamp,
    endDate: b.endDate,
  };
}

export function toWireClosedPosition(v: PositionView): WireClosedPosition {
  return base(v);
}

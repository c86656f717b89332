// THE position and PnL math: average-cost positions, realized and unrealized PnL, fees and
// settlement, pure and in exact integer millionths (no SQLite, no clock). One implementation for
// every reader of money: the ledger books fills, reversals and resolutions through it
// (src/ledger/fill-store.ts), the backtest report replays its fills and resolutions through it
// (src/backtest/report/metrics.ts), the paper venue's positions are built with it
// (src/sim/paper/positions.ts), and every mark to market (the ledger's, the report's, the strategy
// comparison's, hence the status view's) goes through `markToMarket` (pnl-mark.ts). Invariants kept:
// - fills commute: a position is signed. The exchange never lets a token be sold short, but fills
//   are discovered in any order (a SELL's lookup can come before the BUY's that funded it), so a
//   SELL beyond the position takes it below zero, and is held so (risk sees it) until the BUY
//   arrives and closes it. The final size, and realized + unrealized, do not depend on the order;
// - `cost` is the signed cost basis (negative for a negative position: the proceeds received);
//   a fill against the position removes cost × closed / held, and closing the whole position
//   removes all of it, so no rounding residue is left on a flat position; the part of a fill
//   beyond the position opens the other side at that fill's price;
// - `realized` is net of fees: every fee (negative for a rebate) is subtracted when it is paid,
//   never capitalised into the cost basis;
// - rounding is named and conservative: a BUY's notional rounds up (we paid at least that), a
//   SELL's proceeds and a mark-to-market value round down, the cost removed by a partial sell
//   rounds up. Realized + unrealized is exact whatever the split.
// - resolution pays `payout` per share (1 to the winner, 0 to the loser) and closes the position.
// - a reversal (a trade whose settlement FAILED) is the opposite fill of what was booked for the
//   shares, with the very same collateral and the fee refunded: size and realized − cost come
//   back exactly to what they would be without the fill (realized + unrealized is exact at any
//   mark); how that total splits between realized and the cost basis follows average cost (a
//   reversed BUY priced off the average realizes the difference). Turnover (bought, sold) drops
//   by the reversed shares, fees by the refund.
import { InvariantError } from './errors.js';
import { divRound, mulMicros, ONE, SCALE, type Micros, type Price, type Shares } from './money.js';
import type { Side } from './order.js';

export interface PositionState {
  /** Shares held; below 0 only while a SELL is recorded ahead of the BUY that funded it. */
  readonly size: Shares;
  /** Cost basis of the shares held (collateral), of the sign of `size`. */
  readonly cost: Micros;
  /** Realized PnL, net of fees. */
  readonly realized: Micros;
  /** Fees paid (negative for net rebates). */
  readonly fees: Micros;
  /** Total shares ever bought and sold (turnover). */
  readonly bought: Shares;
  readonly sold: Shares;
}

export const FLAT: PositionState = Object.freeze({
  size: 0 as Shares,
  cost: 0 as Micros,
  realized: 0 as Micros,
  fees: 0 as Micros,
  bought: 0 as Shares,
  sold: 0 as Shares,
});

export interface PnlFill {
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  readonly feeMicros: Micros;
  /**
   * Collateral exchanged, when known exactly (a placement result's making/taking amount).
   * Defaults to price × size rounded against us (see fillNotional).
   */
  readonly notional?: Micros;
}

export interface FillEffect {
  readonly position: PositionState;
  /** Change of realized PnL caused by this fill (fee included). */
  readonly realizedDelta: Micros;
  /** Collateral paid (BUY) or received (SELL). */
  readonly notional: Micros;
}

export interface SettleEffect {
  readonly position: PositionState;
  readonly realizedDelta: Micros;
  /** Collateral received for the shares at resolution. */
  readonly proceeds: Micros;
  /** Shares settled. */
  readonly size: Shares;
}

function checkInt(v: number, what: string): void {
  if (!Number.isSafeInteger(v)) throw new InvariantError(`${what} is not a safe integer: ${String(v)}`);
}

function checkPrice(p: number, what: string): void {
  checkInt(p, what);
  if (p < 0 || p > SCALE) throw new InvariantError(`${what} outside [0, 1]: ${p / SCALE}`);
}

/** Collateral of a fill: a BUY's cost rounds up, a SELL's proceeds round down. */
export function fillNotional(side: Side, price: Price, size: Shares): Micros {
  return mulMicros(price, size, side === 'BUY' ? 'ceil' : 'floor') as Micros;
}

/** Applies one fill to a position with average-cost accounting. */
export function applyFill(pos: PositionState, fill: PnlFill): FillEffect {
  checkPrice(fill.price, 'fill price');
  checkInt(fill.size, 'fill size');
  if (fill.size <= 0) throw new InvariantError(`fill size must be positive: ${fill.size}`);
  checkInt(fill.feeMicros, 'fill fee');
  const notional = fill.notional ?? fillNotional(fill.side, fill.price, fill.size);
  checkInt(notional, 'fill notional');
  if (notional < 0) throw new InvariantError(`fill notional is negative: ${notional}`);
  const fees = (pos.fees + fill.feeMicros) as Micros;
  const sign = fill.side === 'BUY' ? 1 : -1;
  // Shares of this fill that close the opposite-signed part of the position, and the rest.
  const closing = Math.sign(pos.size) === -sign ? Math.min(fill.size, Math.abs(pos.size)) : 0;
  const closingNotional =
    closing === 0
      ? 0
      : closing === fill.size
        ? notional
        : Number(divRound(BigInt(notional) * BigInt(closing), BigInt(fill.size), sign > 0 ? 'ceil' : 'floor'));
  const costRemoved = closing === 0 ? 0 : removedCost(pos, closing);
  // Closing a long by a SELL realizes proceeds − cost; closing a short by a BUY, −cost − paid.
  const realizedDelta = (-sign * closingNotional - costRemoved - fill.feeMicros) as Micros;
  return {
    position: {
      size: (pos.size + sign * fill.size) as Shares,
      cost: (pos.cost - costRemoved + sign * (notional - closingNotional)) as Micros,
      realized: (pos.realized + realizedDelta) as Micros,
      fees,
      bought: (fill.side === 'BUY' ? pos.bought + fill.size : pos.bought) as Shares,
      sold: (fill.side === 'SELL' ? pos.sold + fill.size : pos.sold) as Shares,
    },
    realizedDelta,
    notional,
  };
}

/** What was booked for shares being reversed: the fills' side, exact collateral and fee. */
export interface PnlReversal {
  readonly side: Side;
  /** A price in [0, 1] for the record (the collateral is `notional`). */
  readonly price: Price;
  readonly size: Shares;
  readonly notional: Micros;
  readonly feeMicros: Micros;
}

/** Undoes booked shares (a FAILED trade): the opposite fill at the same collateral, fee refunded. */
export function reverseFill(pos: PositionState, r: PnlReversal): FillEffect {
  const opposite = r.side === 'BUY' ? 'SELL' : 'BUY';
  const e = applyFill(pos, {
    side: opposite,
    price: r.price,
    size: r.size,
    feeMicros: -r.feeMicros as Micros,
    notional: r.notional,
  });
  return {
    ...e,
    position: {
      ...e.position,
      // Not a trade of its own: the reversed side's turnover shrinks, the other's stays.
      bought: (r.side === 'BUY' ? pos.bought - r.size : pos.bought) as Shares,
      sold: (r.side === 'SELL' ? pos.sold - r.size : pos.sold) as Shares,
    },
  };
}

/**
 * Signed cost basis leaving the position when `q` (> 0) of its |size| shares close (all of it when
 * q is the whole). Rounded so that what stays in the basis is never understated in our favour:
 * up for a long (more cost removed), down for a short.
 */
function removedCost(pos: PositionState, q: number): number {
  if (q === Math.abs(pos.size)) return pos.cost;
  return Number(divRound(BigInt(pos.cost) * BigInt(q), BigInt(Math.abs(pos.size)), 'ceil'));
}

/** Closes a position at resolution: each share pays `payout` (ONE for the winner, 0 for a loser). */
export function settlePosition(pos: PositionState, payout: Price): SettleEffect {
  checkPrice(payout, 'payout');
  const proceeds = mulMicros(payout, pos.size, 'floor') as Micros;
  const realizedDelta = (proceeds - pos.cost) as Micros;
  return {
    position: { ...pos, size: 0 as Shares, cost: 0 as Micros, realized: (pos.realized + realizedDelta) as Micros },
    realizedDelta,
    proceeds,
    size: pos.size,
  };
}

/** Average cost per share of the position, or null when flat. */
export function averagePrice(pos: PositionState): Price | null {
  if (pos.size === 0) return null;
  return Number(divRound(BigInt(pos.cost) * BigInt(SCALE), BigInt(pos.size), 'half-even')) as Price;
}

/** Value of the shares held at `mark` (rounded down) minus their cost basis. */
export function unrealizedPnl(pos: PositionState, mark: Price): Micros {
  checkPrice(mark, 'mark');
  return (mulMicros(mark, pos.size, 'floor') - pos.cost) as Micros;
}

/** Replays fills from flat, in order (what the ledger's incremental positions must equal). */
export function replayFills(fills: Iterable<PnlFill>, start: PositionState = FLAT): PositionState {
  let pos = start;
  for (const f of fills) pos = applyFill(pos, f).position;
  return pos;
}

/** Payout of a token at resolution when `winnerTokenId` won: 1 to the winner, 0 to every other. */
export function winnerPayout(tokenId: string, winnerTokenId: string): Price {
  return (tokenId === winnerTokenId ? ONE : 0) as Price;
}

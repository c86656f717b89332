// Order entry for the flow's traders on the engine's unified book. A trader thinks in YES terms
// (a bid or an ask at a YES price); this file picks the token, as a real trader with an inventory
// would: an ask sells YES it holds, else buys NO at 1 − p; a bid sells NO it holds, else buys YES.
// So both tokens trade, and every settlement kind (transfer, mint, merge) happens. Invariants kept:
// - every price sent is on the market's current tick and in [tick, 1 − tick] (callers snap; the
//   complement of an on-tick price is on tick because the tick divides 1);
// - every size is a whole number of lots (0.01 share) and at least the market's minimum;
// - a BUY never fails for want of collateral: the account is topped up first (a deposit, counted),
//   so the flow's accounts behave as traders with outside money.
import { SCALE, roundToStep, type Micros, type Price, type Shares } from '../../core/money.js';
import type { OrderType } from '../../core/order.js';
import { buyNeed, LOT } from '../engine/fees.js';
import type { MarketState, SubmitResult } from '../engine/types.js';
import type { FlowContext, FlowRole } from './context.js';

/** Free balances of one flow account in one market, kept locally between engine reads. */
export interface Inventory {
  collateral: number;
  yes: number;
  no: number;
}

export interface MarketTokens {
  readonly yesToken: string;
  readonly noToken: string;
}

export function readInventory(ctx: FlowContext, owner: string, m: MarketTokens): Inventory {
  const b = ctx.engine.balances(owner);
  return {
    collateral: b.collateral.available,
    yes: b.tokens.get(m.yesToken)?.available ?? 0,
    no: b.tokens.get(m.noToken)?.available ?? 0,
  };
}

/** A float size in share millionths → whole lots, at least the market minimum (rounded up to a lot). */
export function toLots(sizeMicros: number, minSize: number): Shares {
  const lots = Math.floor(sizeMicros / LOT) * LOT;
  const min = Math.ceil(minSize / LOT) * LOT;
  return (lots > min ? lots : min > 0 ? min : LOT) as Shares;
}

/** Snaps a YES price (millionths, possibly fractional) to the tick with a named rounding and clamps it into [tick, 1 − tick]. */
export function orderPrice(yesPrice: number, tick: number, rounding: 'floor' | 'ceil'): Price {
  const v = roundToStep(rounding === 'floor' ? Math.floor(yesPrice) : Math.ceil(yesPrice), tick, rounding);
  return (v < tick ? tick : v > SCALE - tick ? SCALE - tick : v) as Price;
}

export interface PlaceArgs {
  readonly owner: string;
  readonly role: FlowRole;
  readonly isBid: boolean;
  readonly yesPrice: number;
  readonly size: number;
  readonly type: OrderType;
  readonly postOnly?: boolean;
}

/** Submits one order in YES terms for a flow account; updates `inv` for what it committed. */
export function placeYes(
  ctx: FlowContext,
  m: MarketTokens,
  s: MarketState,
  inv: Inventory,
  a: PlaceArgs,
): SubmitResult {
  const { size, isBid } = a;
  let tokenId: string;
  let side: 'BUY' | 'SELL';
  let price: number;
  if (isBid && inv.no >= size) {
    tokenId = m.noToken;
    side = 'SELL';
    price = SCALE - a.yesPrice;
    inv.no -= size;
  } else if (!isBid && inv.yes >= size) {
    tokenId = m.yesToken;
    side = 'SELL';
    price = a.yesPrice;
    inv.yes -= size;
  } else {
    tokenId = isBid ? m.yesToken : m.noToken;
    side = 'BUY';
    price = isBid ? a.yesPrice : SCALE - a.yesPrice;
    const need = buyNeed(price, size, s.fees);
    if (inv.collateral < need) {
      const amount = Math.max(ctx.params.funding.topUp, need - inv.collateral);
      ctx.engine.deposit(a.owner, amount as Micros);
      ctx.counters.toppedUp += amount;
      inv.collateral += amount;
    }
    inv.collateral -= need;
  }
  const c = ctx.counters;
  const rc = c.byRole[a.role];
  c.submitted++;
  rc.submitted++;
  const r = ctx.engine.submit({
    id: ctx.nextOrderId(),
    owner: a.owner,
    tokenId,
    side,
    price: price as Price,
    size: size as Shares,
    orderType: a.type,
    ...(a.postOnly === true ? { postOnly: true } : {}),
  });
  if (r.ok) {
    c.accepted++;
    rc.accepted++;
    c.takerFills += r.trades.length;
  } else {
    c.rejected++;
    rc.rejected++;
    c.rejectedByCode[r.code] = (c.rejectedByCode[r.code] ?? 0) + 1;
  }
  return r;
}

/** Cancels a resting flow order; the engine's update removes it from the registry. */
export function cancelOrder(ctx: FlowContext, orderId: string, owner: string): boolean {
  const r = ctx.engine.cancel(orderId, owner);
  if (r.canceled) ctx.counters.canceled++;
  return r.canceled;
}

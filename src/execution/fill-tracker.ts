// Fills of our orders: turns placement results (amounts matched on arrival) and order lookups
// (cumulative sizeMatched) into ledger writes and fill events, with fees from the market's fee
// model. Invariants kept:
// - the ledger is the deduplicator: a fill is keyed by (order id, cumulative matched size), so a
//   repeated or out-of-order observation records nothing and emits no event; an event is emitted
//   exactly when the ledger recorded a new increment, with that increment's size and fee;
// - fees are charged by the one fee function, src/core/fees.ts `fillFee` (the simulator's engine
//   charges through it too, so our books agree with its charges to the millionth), on the
//   market's model: `fees` of its settings when the universe set one by the dialect's fee
//   schedule (the public exchange's `fd`: takers pay C × r × (p(1 − p))^e, makers nothing;
//   marketdata/universe.ts), else its base fees
//   (maker_base_fee / taker_base_fee bps × min(p, 1 − p) × size, the interface's). p is the fill
//   price, size the increment; exact integers, one rounding, `floor`;
// - the part matched on arrival (placement status `matched`) is a taker fill at the price implied
//   by its exact amounts; later increments of an acknowledged order are maker fills at its limit
//   price. An increment first seen by a lookup of an order whose placement answer was lost may
//   have matched on arrival: it is booked as taker (the higher fee; we cannot tell);
// - a market whose fees are unknown (no settings, or `fees: null`: details we cannot charge
//   exactly) is charged 0 and reported (`feeKnown: false`).
import { impliedPrice } from '../core/amounts.js';
import type { Clock } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import type { OrderRecord } from '../core/market.js';
import { baseFeeModel, fillFee, type FeeModel, type FeeRole } from '../core/fees.js';
import type { Micros, Price, Shares } from '../core/money.js';
import type { OrderState } from '../core/order-lifecycle.js';
import type { PlacementResult, Side } from '../core/order.js';
import type { Ledger, Liquidity } from '../ledger/index.js';

/** Maker and taker base fees of a market, basis points, and the fee model when its wire gives one. */
export interface FeeRates {
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
  /**
   * The market's fee model (src/core/fees.ts), set from the fields the dialect's exchange charges
   * by (the public exchange's `fd`); null: the fees cannot be known exactly; absent: the base fees.
   */
  readonly fees?: FeeModel | null;
}

/** The model a market's rates charge by; null when unknown (charged 0, reported). */
export function feeModelOfRates(rates: FeeRates | undefined): FeeModel | null {
  if (rates === undefined) return null;
  if (rates.fees !== undefined) return rates.fees;
  return baseFeeModel(rates.makerBaseFeeBps, rates.takerBaseFeeBps);
}

export interface FillEvent {
  readonly orderId: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  /** The newly matched shares (the increment), millionths. */
  readonly size: Shares;
  /** Cumulative matched size of the order after this fill. */
  readonly cumulative: Shares;
  readonly feeMicros: Micros;
  readonly feeKnown: boolean;
  readonly liquidity: Liquidity;
  /** What found it: a placement answer, an order lookup, or the trades route (trade-feed.ts). */
  readonly source: 'placement' | 'lookup' | 'trade';
  readonly timeMs: number;
}

export interface FillOutcome {
  /** The ledger state of the order afterwards. */
  readonly state: OrderState;
  /** Cumulative matched size as the ledger now knows it. */
  readonly sizeMatched: Shares;
  readonly events: readonly FillEvent[];
}

/**
 * floor(bps × min(p, 1 − p) × size / 10⁴): the base-fee model's charge, through the one fee
 * function (kept for its callers; src/core/fees.ts `fillFee` is the formula).
 */
export function feeMicros(bps: number, price: number, size: number): Micros {
  return fillFee(baseFeeModel(bps, bps), 'taker', price, size);
}

/** The fee of `size` at `price` by `role` on a market's rates (0 when its model is unknown). */
function chargeOf(model: FeeModel | null, role: FeeRole, price: number, size: number): Micros {
  return model === null ? (0 as Micros) : fillFee(model, role, price, size);
}

export class FillTracker {
  constructor(
    private readonly ledger: Pick<Ledger, 'order' | 'markAccepted' | 'markLookup'>,
    private readonly clock: Clock,
    private readonly fees: (tokenId: string) => FeeRates | undefined,
  ) {}

  /** Applies an accepted placement result (live, delayed, matched, unmatched) to the ledger. */
  applyPlacement(orderId: string, r: PlacementResult): FillOutcome {
    const before = this.mustOrder(orderId);
    const now = this.clock.now();
    let fee = 0 as Micros;
    let feeKnown = true;
    let px = before.price;
    if (r.status === 'matched' && r.makingAmount !== null && r.takingAmount !== null) {
      const shares = before.side === 'BUY' ? r.takingAmount : r.makingAmount;
      px = impliedPrice(before.side, r.makingAmount, r.takingAmount).price as Price;
      const increment = Math.max(0, Math.min(shares, before.size) - before.sizeMatched);
      const model = feeModelOfRates(this.fees(before.tokenId));
      feeKnown = model !== null;
      fee = chargeOf(model, 'taker', px, increment);
    }
    const state = this.ledger.markAccepted(orderId, {
      status: r.status ?? '',
      makingAmount: r.makingAmount,
      takingAmount: r.takingAmount,
      feeMicros: fee,
      timeMs: now,
    });
    const after = this.mustOrder(orderId);
    const events: FillEvent[] = [];
    const increment = after.sizeMatched - before.sizeMatched;
    if (increment > 0) {
      events.push({
        orderId,
        tokenId: after.tokenId,
        conditionId: after.conditionId,
        side: after.side,
        price: px,
        size: increment as Shares,
        cumulative: after.sizeMatched,
        feeMicros: fee,
        feeKnown,
        liquidity: 'taker',
        source: 'placement',
        timeMs: now,
      });
    }
    return { state, sizeMatched: after.sizeMatched, events };
  }

  /**
   * Applies a lookup (null: the exchange does not know the id). `acknowledged`: the exchange had
   * accepted the order before, so new matches are maker fills.
   */
  applyLookup(orderId: string, rec: OrderRecord | null, acknowledged: boolean): FillOutcome {
    const before = this.mustOrder(orderId);
    const now = this.clock.now();
    if (rec === null) {
      const out = this.ledger.markLookup(orderId, {
        status: 'NOT_FOUND',
        sizeMatched: before.sizeMatched,
        timeMs: now,
      });
      return { state: out.state, sizeMatched: before.sizeMatched, events: [] };
    }
    if (rec.id !== orderId) throw new InvariantError(`lookup of ${orderId} answered order ${rec.id}`);
    const liquidity: Liquidity = acknowledged ? 'maker' : 'taker';
    const increment = Math.max(0, rec.sizeMatched - before.sizeMatched);
    // Most lookups find nothing new (an order is looked up every poll): no fee to work out then.
    const role: FeeRole = acknowledged ? 'maker' : 'taker';
    const model = increment > 0 ? feeModelOfRates(this.fees(before.tokenId)) : null;
    const fee = chargeOf(model, role, before.price, increment);
    const out = this.ledger.markLookup(orderId, {
      status: rec.status,
      sizeMatched: rec.sizeMatched,
      feeMicros: fee,
      liquidity,
      timeMs: now,
    });
    // The ledger only adds matches: with none new, its matched size is the one read before. A new
    // match is at most `increment` (nothing writes between the read and markLookup), so the model
    // was worked out.
    if (out.newlyMatched <= 0) return { state: out.state, sizeMatched: before.sizeMatched, events: [] };
    const after = this.mustOrder(orderId);
    return {
      state: out.state,
      sizeMatched: after.sizeMatched,
      events: [
        {
          orderId,
          tokenId: after.tokenId,
          conditionId: after.conditionId,
          side: after.side,
          price: after.price,
          size: out.newlyMatched,
          cumulative: after.sizeMatched,
          // The increment recorded is the one the fee was computed on (nothing else writes between).
          feeMicros: out.newlyMatched === increment ? fee : chargeOf(model, role, before.price, out.newlyMatched),
          feeKnown: model !== null,
          liquidity,
          source: 'lookup',
          timeMs: now,
        },
      ],
    };
  }

  private mustOrder(id: string) {
    const o = this.ledger.order(id);
    if (o === null) throw new InvariantError(`order ${id} is not in the ledger`);
    return o;
  }
}

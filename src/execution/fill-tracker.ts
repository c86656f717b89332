// Fills of our orders: turns placement results (amounts matched on arrival) and order lookups
// (cumulative sizeMatched) into ledger writes and fill events, with fees from the market's base
// fees. Invariants kept:
// - the ledger is the deduplicator: a fill is keyed by (order id, cumulative matched size), so a
//   repeated or out-of-order observation records nothing and emits no event; an event is emitted
//   exactly when the ledger recorded a new increment, with that increment's size and fee;
// - fee formula (the shape the public exchange and our simulator use, protocol fees in basis
//   points of the market's maker_base_fee / taker_base_fee):
//       fee = floor(bps × min(p, 1 − p) × size / 10⁴)   in collateral millionths,
//   computed exactly in bigint with one rounding, `floor` (the venue's own rounding, so our books
//   agree with its charges to the millionth). p is the fill price, size the increment;
// - the part matched on arrival (placement status `matched`) is a taker fill at the price implied
//   by its exact amounts; later increments of an acknowledged order are maker fills at its limit
//   price. An increment first seen by a lookup of an order whose placement answer was lost may
//   have matched on arrival: it is booked as taker (the higher fee; we cannot tell);
// - a market whose fees are unknown is charged 0 and reported (`feeKnown: false`).
import { impliedPrice } from '../core/amounts.js';
import type { Clock } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import type { OrderRecord, PlacementResult } from '../core/market.js';
import { divRound, SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import type { Ledger, Liquidity, OrderState } from '../ledger/index.js';
import type { Side } from './types.js';

/** Maker and taker base fees of a market, basis points. */
export interface FeeRates {
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
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
  readonly source: 'placement' | 'lookup';
  readonly timeMs: number;
}

export interface FillOutcome {
  /** The ledger state of the order afterwards. */
  readonly state: OrderState;
  /** Cumulative matched size as the ledger now knows it. */
  readonly sizeMatched: Shares;
  readonly events: readonly FillEvent[];
}

const TEN_TO_10 = 10_000_000_000n; // 10⁴ (bps) × 10⁶ (millionths of the product)
const HALF = SCALE / 2;

/** floor(bps × min(p, 1 − p) × size / 10⁴), exact (see the header). */
export function feeMicros(bps: number, price: number, size: number): Micros {
  if (!Number.isSafeInteger(bps) || bps < 0) throw new InvariantError(`fee bps must be a non-negative integer, got ${String(bps)}`);
  if (!Number.isSafeInteger(price) || price < 0 || price > SCALE) throw new InvariantError(`fee price outside [0, 1]: ${String(price)}`);
  if (!Number.isSafeInteger(size) || size < 0) throw new InvariantError(`fee size must be a non-negative integer, got ${String(size)}`);
  if (bps === 0 || size === 0) return 0 as Micros;
  const m = price < HALF ? price : SCALE - price;
  return Number(divRound(BigInt(bps) * BigInt(m) * BigInt(size), TEN_TO_10, 'floor')) as Micros;
}

export class FillTracker {
  constructor(
    private readonly ledger: Ledger,
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
      const rates = this.fees(before.tokenId);
      feeKnown = rates !== undefined;
      fee = feeMicros(rates?.takerBaseFeeBps ?? 0, px, increment);
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
        orderId, tokenId: after.tokenId, conditionId: after.conditionId, side: after.side, price: px,
        size: increment as Shares, cumulative: after.sizeMatched, feeMicros: fee, feeKnown,
        liquidity: 'taker', source: 'placement', timeMs: now,
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
      const out = this.ledger.markLookup(orderId, { status: 'NOT_FOUND', sizeMatched: before.sizeMatched, timeMs: now });
      return { state: out.state, sizeMatched: before.sizeMatched, events: [] };
    }
    if (rec.id !== orderId) throw new InvariantError(`lookup of ${orderId} answered order ${rec.id}`);
    const liquidity: Liquidity = acknowledged ? 'maker' : 'taker';
    const increment = Math.max(0, rec.sizeMatched - before.sizeMatched);
    const rates = this.fees(before.tokenId);
    const bps = rates === undefined ? 0 : (acknowledged ? rates.makerBaseFeeBps : rates.takerBaseFeeBps);
    const fee = feeMicros(bps, before.price, increment);
    const out = this.ledger.markLookup(orderId, {
      status: rec.status, sizeMatched: rec.sizeMatched, feeMicros: fee, liquidity, timeMs: now,
    });
    const after = this.mustOrder(orderId);
    const events: FillEvent[] = [];
    if (out.newlyMatched > 0) {
      events.push({
        orderId, tokenId: after.tokenId, conditionId: after.conditionId, side: after.side, price: after.price,
        size: out.newlyMatched, cumulative: after.sizeMatched,
        // The increment recorded is the one the fee was computed on (nothing else writes between).
        feeMicros: out.newlyMatched === increment ? fee : feeMicros(bps, before.price, out.newlyMatched),
        feeKnown: rates !== undefined, liquidity, source: 'lookup', timeMs: now,
      });
    }
    return { state: out.state, sizeMatched: after.sizeMatched, events };
  }

  private mustOrder(id: string) {
    const o = this.ledger.order(id);
    if (o === null) throw new InvariantError(`order ${id} is not in the ledger`);
    return o;
  }
}

// The in-memory ledger's records (memory-ledger.ts): an order and a position as held, mutable, one
// object each, with the read-only values the ledger hands out built from them (the SQLite ledger's
// row mappers' counterparts), and the order checks of order-store.ts. Invariants kept: a record's
// values are stored as an INTEGER column stores them (-0 as 0), an order's metadata as its JSON
// column gives it back; a position's view is rebuilt only after the position changed.
import { InvariantError } from '../../core/errors.js';
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { OrderState } from '../../core/order-lifecycle.js';
import type { PlacementStatus, Side } from '../../core/order.js';
import { averagePrice, type PositionState } from '../../core/pnl.js';
import { parsePlacementStatus, stateFromLookupStatus } from '../order-state.js';
import type { LedgerOrder, LedgerPosition, MarketResolution, OrderMeta, SignedOrderInput } from '../types.js';

/** An order as held: the columns of the SQLite row, mutable (one object per order). */
export class OrderRec {
  state: OrderState = 'signed';
  sizeMatched = 0;
  makingAmount: number | null = null;
  takingAmount: number | null = null;
  exchangeStatus: string | null = null;
  errorMsg: string | null = null;
  constructor(
    readonly id: string,
    readonly tokenId: string,
    readonly conditionId: string,
    readonly side: Side,
    readonly price: number,
    readonly size: number,
    readonly orderType: string,
    readonly salt: string,
    readonly createdAtMs: number,
    public stateAtMs: number,
    readonly strategy: string | null,
    readonly replaces: string | null,
    readonly meta: OrderMeta | null,
    readonly signedJson: string | null,
  ) {}
}

/**
 * A token's position as held: a PositionState itself (pnl.ts reads it in place), mutable, with
 * `view`, its LedgerPosition, rebuilt after a change. Amounts are stored with -0 made 0, as an
 * INTEGER column stores them (the PnL math can produce -0: 0 × −1).
 */
export class PositionRec implements PositionState {
  size = 0 as Shares;
  cost = 0 as Micros;
  realized = 0 as Micros;
  fees = 0 as Micros;
  bought = 0 as Shares;
  sold = 0 as Shares;
  pending = 0;
  view: LedgerPosition | null = null;
  constructor(
    readonly tokenId: string,
    readonly conditionId: string,
    public updatedAtMs: number,
  ) {}

  set(p: PositionState, now: number): void {
    this.size = (p.size + 0) as Shares;
    this.cost = (p.cost + 0) as Micros;
    this.realized = (p.realized + 0) as Micros;
    this.fees = (p.fees + 0) as Micros;
    this.bought = (p.bought + 0) as Shares;
    this.sold = (p.sold + 0) as Shares;
    this.updatedAtMs = now;
    this.view = null;
  }
}

export interface ResolutionRec {
  readonly view: MarketResolution;
  /** The payouts as the SQLite ledger stores them (compared on a second resolution). */
  readonly payoutsJson: string;
}

export function viewOf(p: PositionRec): LedgerPosition {
  const v: LedgerPosition = {
    tokenId: p.tokenId,
    conditionId: p.conditionId,
    size: p.size,
    cost: p.cost,
    avgPrice: averagePrice(p),
    realized: p.realized,
    fees: p.fees,
    bought: p.bought,
    sold: p.sold,
    pendingSize: p.pending as Shares,
    updatedAtMs: p.updatedAtMs,
  };
  p.view = v;
  return v;
}

export function toOrder(r: OrderRec): LedgerOrder {
  return {
    id: r.id,
    tokenId: r.tokenId,
    conditionId: r.conditionId,
    side: r.side,
    price: r.price as Price,
    size: r.size as Shares,
    orderType: r.orderType,
    salt: r.salt,
    createdAtMs: r.createdAtMs,
    state: r.state,
    stateAtMs: r.stateAtMs,
    sizeMatched: r.sizeMatched as Shares,
    makingAmount: r.makingAmount,
    takingAmount: r.takingAmount,
    exchangeStatus: r.exchangeStatus,
    errorMsg: r.errorMsg,
    strategy: r.strategy,
    replaces: r.replaces,
    meta: r.meta,
    signedJson: r.signedJson,
  };
}

export function payoutOf(res: MarketResolution, tokenId: string): Price {
  for (const [t, p] of res.payouts) if (t === tokenId) return p;
  return 0 as Price;
}

// Status strings repeat (a handful of values): parsed once each, as order-state.ts parses them.
const PLACEMENT = new Map<string, PlacementStatus | null>();
const LOOKUP = new Map<string, OrderState | null>();
const STATUS_CACHE_MAX = 256;

export function placementStatus(s: string): PlacementStatus | null {
  let v = PLACEMENT.get(s);
  if (v === undefined) {
    v = parsePlacementStatus(s);
    if (PLACEMENT.size < STATUS_CACHE_MAX) PLACEMENT.set(s, v);
  }
  return v;
}

export function lookupState(s: string): OrderState | null {
  let v = LOOKUP.get(s);
  if (v === undefined) {
    v = stateFromLookupStatus(s);
    if (LOOKUP.size < STATUS_CACHE_MAX) LOOKUP.set(s, v);
  }
  return v;
}

/** order-store.ts validateOrder. */
export function validateOrder(o: SignedOrderInput): void {
  if (o.id === '') throw new InvariantError('order id is empty');
  if (o.tokenId === '' || o.conditionId === '') throw new InvariantError(`order ${o.id}: empty token or condition id`);
  if (o.side !== 'BUY' && o.side !== 'SELL') throw new InvariantError(`order ${o.id}: bad side ${String(o.side)}`);
  if (!Number.isSafeInteger(o.price) || o.price < 0 || o.price > SCALE)
    throw new InvariantError(`order ${o.id}: bad price ${String(o.price)}`);
  if (!Number.isSafeInteger(o.size) || o.size <= 0)
    throw new InvariantError(`order ${o.id}: bad size ${String(o.size)}`);
  if (!Number.isSafeInteger(o.createdAtMs))
    throw new InvariantError(`order ${o.id}: bad createdAtMs ${String(o.createdAtMs)}`);
}

/** order-store.ts sameOrder: the signed contents (not the optional metadata). */
export function sameOrder(r: OrderRec, o: SignedOrderInput): boolean {
  return (
    r.tokenId === o.tokenId &&
    r.conditionId === o.conditionId &&
    r.side === o.side &&
    r.price === o.price &&
    r.size === o.size &&
    r.orderType === o.orderType &&
    r.salt === o.salt &&
    r.createdAtMs === o.createdAtMs
  );
}

/** The first of os[0..end) with this id. */
export function firstWithId(os: readonly SignedOrderInput[], id: string, end: number): SignedOrderInput | undefined {
  for (let q = 0; q < end; q++) if ((os[q] as SignedOrderInput).id === id) return os[q];
  return undefined;
}

export function sameInput(a: SignedOrderInput, o: SignedOrderInput): boolean {
  return (
    a.tokenId === o.tokenId &&
    a.conditionId === o.conditionId &&
    a.side === o.side &&
    a.price === o.price &&
    a.size === o.size &&
    a.orderType === o.orderType &&
    a.salt === o.salt &&
    a.createdAtMs === o.createdAtMs
  );
}

/**
 * The metadata as the Ledger reads it back from its JSON column (what JSON drops or changes:
 * undefined values, non-finite numbers as null, -0 as 0), without building the JSON for the
 * usual flat record of scalars; anything else goes through JSON itself.
 */
export function normalizeMeta(meta: OrderMeta): OrderMeta {
  const out: Record<string, string | number | boolean | null> = {};
  for (const k of Object.keys(meta)) {
    const v: unknown = meta[k];
    if (k === '__proto__') return JSON.parse(JSON.stringify(meta)) as OrderMeta;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') out[k] = v;
    else if (typeof v === 'number') out[k] = Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    else if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    else return JSON.parse(JSON.stringify(meta)) as OrderMeta;
  }
  return out;
}

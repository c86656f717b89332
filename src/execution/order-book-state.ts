// The order manager's in-memory set of our open orders (the LiveOrders reconcile diffs against),
// indexed by id and by quote key. Invariants kept:
// - an id is tracked at most once; terminal orders (matched, canceled, rejected, not found) are
//   removed, so every tracked order is inflight, live, cancelling or unknown;
// - sizeMatched only grows and never exceeds originalSize (the ledger's count is the source; this
//   mirrors it);
// - every insertion gets a sequence number that only grows, so a caller can tell whether a key
//   gained an order after some point (a coalesced plan computed before that is stale there);
// - pure bookkeeping: no I/O, no clock.
import { InvariantError } from '../core/errors.js';
import type { Price, Shares } from '../core/money.js';
import type { LiveOrder, LiveOrderState, Side } from '../core/order.js';
import { quoteKey } from './types.js';

export interface TrackedOrder {
  readonly id: string;
  readonly key: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  readonly originalSize: Shares;
  sizeMatched: Shares;
  state: LiveOrderState;
  readonly createdAtMs: number;
  readonly tag: string | undefined;
  /** Insertion sequence number. */
  readonly seq: number;
  /** The exchange has acknowledged it (placement accepted or a lookup saw it): later fills are maker fills. */
  acknowledged: boolean;
  /** When it was last looked up (epoch ms), 0 for never: polling goes oldest first. */
  polledAtMs: number;
  /** When an unknown order may be looked up (epoch ms). */
  lookupAtMs: number;
  /** The last LiveOrder snapshot of it (liveOrders), reused while its state and matched size stand. */
  snapshot: LiveOrder | null;
  /**
   * The backtest executor's read skip: the matched size at which a read check last found that a
   * lookup would bring nothing, while nothing has touched the order since; −1 otherwise.
   */
  quietMatched: number;
}

export interface NewTrackedOrder {
  readonly id: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  readonly originalSize: Shares;
  readonly sizeMatched?: Shares;
  readonly state: LiveOrderState;
  readonly createdAtMs: number;
  readonly tag?: string | undefined;
  readonly acknowledged: boolean;
}

export class OrderBookState {
  private readonly byId = new Map<string, TrackedOrder>();
  private readonly byKey = new Map<string, Set<string>>();
  private nextSeq = 1;

  /** Sequence number of the last insertion (0 before any). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }
  get size(): number {
    return this.byId.size;
  }

  add(o: NewTrackedOrder): TrackedOrder {
    if (this.byId.has(o.id)) throw new InvariantError(`order ${o.id} is already tracked`);
    const t: TrackedOrder = {
      id: o.id,
      key: quoteKey(o.tokenId, o.side, o.price),
      tokenId: o.tokenId,
      conditionId: o.conditionId,
      side: o.side,
      price: o.price,
      originalSize: o.originalSize,
      sizeMatched: o.sizeMatched ?? (0 as Shares),
      state: o.state,
      createdAtMs: o.createdAtMs,
      tag: o.tag,
      seq: this.nextSeq++,
      acknowledged: o.acknowledged,
      polledAtMs: 0,
      lookupAtMs: 0,
      snapshot: null,
      quietMatched: -1,
    };
    this.byId.set(t.id, t);
    let ids = this.byKey.get(t.key);
    if (ids === undefined) {
      ids = new Set();
      this.byKey.set(t.key, ids);
    }
    ids.add(t.id);
    return t;
  }

  get(id: string): TrackedOrder | undefined {
    return this.byId.get(id);
  }

  remove(id: string): TrackedOrder | undefined {
    const t = this.byId.get(id);
    if (t === undefined) return undefined;
    this.byId.delete(id);
    const ids = this.byKey.get(t.key);
    ids?.delete(id);
    if (ids !== undefined && ids.size === 0) this.byKey.delete(t.key);
    return t;
  }

  setMatched(id: string, sizeMatched: number): void {
    const t = this.byId.get(id);
    if (t === undefined) return;
    if (!Number.isSafeInteger(sizeMatched) || sizeMatched < 0 || sizeMatched > t.originalSize) {
      throw new InvariantError(`order ${id}: matched size ${String(sizeMatched)} outside [0, ${t.originalSize}]`);
    }
    if (sizeMatched > t.sizeMatched) t.sizeMatched = sizeMatched as Shares;
  }

  atKey(key: string): TrackedOrder[] {
    const ids = this.byKey.get(key);
    const out: TrackedOrder[] = [];
    if (ids !== undefined) for (const id of ids) out.push(this.byId.get(id) as TrackedOrder);
    return out;
  }

  /**
   * Why nothing may be placed at `key` now, or null: an order there is in flight, unknown or being
   * cancelled (its fate is open), or one was added after `sinceSeq`.
   */
  keyBlock(key: string, sinceSeq: number): 'blocked' | 'stale' | null {
    for (const t of this.atKey(key)) {
      if (t.state === 'inflight' || t.state === 'unknown' || t.state === 'cancelling') return 'blocked';
      if (t.seq > sinceSeq) return 'stale';
    }
    return null;
  }

  inState(...states: LiveOrderState[]): TrackedOrder[] {
    const out: TrackedOrder[] = [];
    for (const t of this.byId.values()) if (states.includes(t.state)) out.push(t);
    return out;
  }

  all(): TrackedOrder[] {
    return [...this.byId.values()];
  }

  /**
   * Snapshot for reconcile: every tracked order, as immutable LiveOrders. An order whose state and
   * matched size are what its last snapshot says gives that snapshot again (a cycle reads every
   * order, and most have not changed since the last).
   */
  liveOrders(): LiveOrder[] {
    const out: LiveOrder[] = [];
    for (const t of this.byId.values()) {
      let s = t.snapshot;
      if (s === null || s.state !== t.state || s.sizeMatched !== t.sizeMatched) {
        s = liveOrderOf(t);
        t.snapshot = s;
      }
      out.push(s);
    }
    return out;
  }
}

/** A tracked order as an immutable LiveOrder (the tag only when it has one). */
function liveOrderOf(t: TrackedOrder): LiveOrder {
  const s: { -readonly [K in keyof LiveOrder]: LiveOrder[K] } = {
    id: t.id,
    tokenId: t.tokenId,
    side: t.side,
    price: t.price,
    originalSize: t.originalSize,
    sizeMatched: t.sizeMatched,
    state: t.state,
    createdAtMs: t.createdAtMs,
  };
  if (t.tag !== undefined) s.tag = t.tag;
  return Object.freeze(s);
}

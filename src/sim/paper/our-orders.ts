// Our orders' records as the exchange's order lookup shows them (GET /data/order/{id}), kept by the
// venue itself rather than read back from the engine: the engine drops finished records at once
// (the external account finishes thousands of orders a minute), while our records must outlive
// their order for the order manager's lookups. Invariants kept:
// - a record is created only for an accepted order, from the engine's answer (status, matched
//   size, trades on arrival); afterwards only the engine's events change it (fills, cancels,
//   self-trade cancels, GTD expiry, resolution), so it always equals what the engine would show;
// - sizeMatched only grows, status leaves LIVE once and never returns;
// - finished records are kept `retainMs` after they finished, then dropped (oldest first): an id
//   then reads as unknown (lookup null), as on an exchange that forgot it; with `retainMs`
//   infinite, a finished record goes only when its reader forgets it (forget: the backtest's
//   executor, once it will read the order no more).
import { IdChanges } from '../../core/id-changes.js';
import { isoTime } from '../../core/iso-time.js';
import type { OrderRecord, OrderStatus } from '../../core/market.js';
import type { Price, Shares } from '../../core/money.js';
import type { OrderType, Side } from '../../core/order.js';

export interface OurOrder {
  readonly id: string;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly outcome: string;
  readonly side: Side;
  readonly price: Price;
  readonly originalSize: Shares;
  sizeMatched: Shares;
  status: OrderStatus;
  readonly type: OrderType;
  readonly createdAtMs: number;
  /** The signed order's maker (funder) address. */
  readonly maker: string;
  /** The API key the submission named. */
  readonly owner: string;
  readonly trades: string[];
}

/** An order's status and matched size, read in place (the venue's own record: do not keep it). */
export type OrderProgress = Readonly<Pick<OurOrder, 'status' | 'sizeMatched'>>;

export class OurOrders {
  /** The ids whose status or matched size changed (or that were added), for one reader. */
  readonly changes = new IdChanges();
  private readonly byId = new Map<string, OurOrder>();
  // Finished ids in the order they finished: a FIFO with a moving head (no shifting).
  private finishedIds: string[] = [];
  private finishedAt: number[] = [];
  private head = 0;

  constructor(private readonly retainMs: number) {}

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): OurOrder | undefined {
    return this.byId.get(id);
  }

  add(o: OurOrder, nowMs: number): void {
    this.byId.set(o.id, o);
    this.changes.note(o.id);
    if (o.status !== 'LIVE') this.markFinished(o.id, nowMs);
  }

  /** An engine order update of ours: the new status and cumulative matched size. */
  update(id: string, status: OrderStatus, sizeMatched: Shares, timeMs: number): void {
    const o = this.byId.get(id);
    if (o === undefined) return; // the placing order itself: its record is made from the answer
    if (sizeMatched > o.sizeMatched) {
      o.sizeMatched = sizeMatched;
      this.changes.note(id);
    }
    if (o.status === 'LIVE' && status !== 'LIVE') {
      o.status = status;
      this.changes.note(id);
      this.markFinished(id, timeMs);
    }
  }

  /** Drops a finished record now (a resting one stays): its reader will not read it again. */
  forget(id: string): void {
    const o = this.byId.get(id);
    if (o !== undefined && o.status !== 'LIVE') this.byId.delete(id);
  }

  addTrade(id: string, tradeId: string): void {
    this.byId.get(id)?.trades.push(tradeId);
  }

  /** Drops the records of orders that finished more than `retainMs` before `nowMs`. */
  prune(nowMs: number): void {
    if (this.retainMs === Number.POSITIVE_INFINITY) return;
    const before = nowMs - this.retainMs;
    let h = this.head;
    const ids = this.finishedIds;
    const at = this.finishedAt;
    while (h < ids.length && (at[h] as number) < before) {
      this.byId.delete(ids[h] as string);
      h++;
    }
    if (h === ids.length) {
      this.finishedIds = [];
      this.finishedAt = [];
      h = 0;
    } else if (h > 1024 && h * 2 > ids.length) {
      this.finishedIds = ids.slice(h);
      this.finishedAt = at.slice(h);
      h = 0;
    }
    this.head = h;
  }

  /** Resting orders, oldest first. */
  live(): OurOrder[] {
    const out: OurOrder[] = [];
    for (const o of this.byId.values()) if (o.status === 'LIVE') out.push(o);
    return out;
  }

  private markFinished(id: string, timeMs: number): void {
    // Kept forever: nothing to prune, so no queue to prune from.
    if (this.retainMs === Number.POSITIVE_INFINITY) return;
    this.finishedIds.push(id);
    this.finishedAt.push(timeMs);
  }
}

/** The exchange's order record of one of ours. */
export function toOrderRecord(o: OurOrder): OrderRecord {
  return {
    id: o.id,
    status: o.status,
    market: o.conditionId,
    assetId: o.tokenId,
    side: o.side,
    price: o.price,
    originalSize: o.originalSize,
    sizeMatched: o.sizeMatched,
    outcome: o.outcome,
    makerAddress: o.maker,
    owner: o.owner,
    type: o.type,
    createdAt: isoTime(o.createdAtMs),
    createdAtMs: o.createdAtMs,
    associateTrades: o.trades.slice(),
  };
}

// Event delivery of the engine: trades and order updates are queued while an operation runs and
// delivered synchronously once its state is final, in the order they happened, so a listener
// always sees a consistent engine and may call back into it (events its calls cause are delivered
// in the same loop, after the ones already queued). Nothing is allocated for events nobody listens
// to: the engine asks `wantsTrades` / `wantsUpdates` first. A listener that throws does not stop
// the others; the first error is rethrown once every queued event was delivered.
import type { Micros, Price, Shares } from '../../core/money.js';
import type {
  OrderStatus,
  OrderUpdate,
  OrderUpdateListener,
  OrderUpdateReason,
  Trade,
  TradeKind,
  TradeListener,
} from './types.js';

export class TradeRec implements Trade {
  constructor(
    readonly id: string,
    readonly conditionId: string,
    readonly kind: TradeKind,
    readonly timeMs: number,
    readonly size: Shares,
    readonly yesPrice: Price,
    readonly takerOrderId: string,
    readonly takerOwner: string,
    readonly takerTokenId: string,
    readonly takerSide: 'BUY' | 'SELL',
    readonly takerPrice: Price,
    readonly takerFee: Micros,
    readonly makerOrderId: string,
    readonly makerOwner: string,
    readonly makerTokenId: string,
    readonly makerSide: 'BUY' | 'SELL',
    readonly makerPrice: Price,
    readonly makerFee: Micros,
  ) {}
}

export class UpdateRec implements OrderUpdate {
  constructor(
    readonly orderId: string,
    readonly owner: string,
    readonly conditionId: string,
    readonly tokenId: string,
    readonly status: OrderStatus,
    readonly originalSize: Shares,
    readonly sizeMatched: Shares,
    readonly reason: OrderUpdateReason,
    readonly timeMs: number,
  ) {}
}

export class EngineEvents {
  // Listener arrays are replaced, never mutated, on (un)subscribe: delivery iterates them without
  // copying, and a listener that unsubscribes during delivery does not disturb the loop.
  private tradeListeners: readonly TradeListener[] = [];
  private updateListeners: readonly OrderUpdateListener[] = [];
  // Reused between operations: slots are overwritten and cleared, never reallocated.
  private readonly pending: (TradeRec | UpdateRec | null)[] = [];
  private count = 0;
  private emitting = false;

  get wantsTrades(): boolean {
    return this.tradeListeners.length > 0;
  }

  get wantsUpdates(): boolean {
    return this.updateListeners.length > 0;
  }

  onTrade(listener: TradeListener): () => void {
    this.tradeListeners = [...this.tradeListeners, listener];
    return () => {
      this.tradeListeners = this.tradeListeners.filter((l) => l !== listener);
    };
  }

  onOrderUpdate(listener: OrderUpdateListener): () => void {
    this.updateListeners = [...this.updateListeners, listener];
    return () => {
      this.updateListeners = this.updateListeners.filter((l) => l !== listener);
    };
  }

  queue(e: TradeRec | UpdateRec): void {
    if (this.count < this.pending.length) this.pending[this.count] = e;
    else this.pending.push(e);
    this.count++;
  }

  flush(): void {
    const pending = this.pending;
    if (this.emitting || this.count === 0) return;
    this.emitting = true;
    let firstError: unknown = null;
    let failed = false;
    try {
      for (let i = 0; i < this.count; i++) {
        const e = pending[i] as TradeRec | UpdateRec;
        pending[i] = null;
        if (e instanceof TradeRec) {
          const ls = this.tradeListeners;
          for (let k = 0; k < ls.length; k++) {
            try {
              (ls[k] as TradeListener)(e);
            } catch (err) {
              if (!failed) {
                failed = true;
                firstError = err;
              }
            }
          }
        } else {
          const ls = this.updateListeners;
          for (let k = 0; k < ls.length; k++) {
            try {
              (ls[k] as OrderUpdateListener)(e);
            } catch (err) {
              if (!failed) {
                failed = true;
                firstError = err;
              }
            }
          }
        }
      }
    } finally {
      for (let i = 0; i < this.count; i++) pending[i] = null; // only if a listener threw midway
      this.count = 0;
      this.emitting = false;
    }
    if (failed) throw firstError;
  }
}

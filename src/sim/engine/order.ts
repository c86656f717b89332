// The engine's internal order: one mutable node per order, which is at once the order record
// (for lookup), the entry in its price level's FIFO (doubly linked through prev/next, so removal
// anywhere is O(1) and nothing is ever shifted) and the holder of references to its account,
// position and market (so a fill touches no Map). The owner is its account's id and the bps of a
// BUY reservation its market's. Invariants: 0 ≤ remaining, matched ≤ size and
// remaining + matched = size while LIVE; a node is linked in a level iff status is LIVE and it
// rests; `idx` is its YES-terms price divided by the market's grid (re-indexed if the grid
// narrows). Once finished, a node's record moves to finished.ts and the node is dropped. Nothing
// outside src/sim/engine sees a node: lookups return OrderRecord snapshots.
import type { OrderType, Side } from '../../core/order.js';
import type { Account, Position } from './accounts.js';
import type { MarketBook } from './market.js';
import type { OrderRecord, OrderStatus } from './types.js';

export class OrderNode {
  // FIFO links within a price level.
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
  // Links in the owner's list of resting orders (accounts.ts).
  livePrev: OrderNode | null = null;
  liveNext: OrderNode | null = null;
  /** YES-terms price / market grid, set when the node rests. */
  idx = 0;
  remaining: number;
  matched = 0;
  /** BUY only: collateral still reserved, always buyNeed(price, remaining, market.fees). */
  reserved = 0;
  status: OrderStatus = 'LIVE';
  /** True while linked in a book. */
  resting = false;
  /** Trade ids: one string for the usual single fill, an array past it (fewer objects kept). */
  trades: string | string[] | null = null;

  constructor(
    readonly id: string,
    readonly account: Account,
    readonly position: Position,
    readonly market: MarketBook,
    /** 0: YES token, 1: NO token. */
    readonly outcome: 0 | 1,
    readonly isBuy: boolean,
    /** Limit price in own token terms. */
    readonly price: number,
    /** The same limit in YES terms (price for YES, 1 − price for NO). */
    readonly yesPrice: number,
    /** True when the order sits on the YES book's bid side: BUY YES or SELL NO. */
    readonly isBid: boolean,
    readonly size: number,
    readonly type: OrderType,
    readonly postOnly: boolean,
    /** Expiry instant in ms (0: none). */
    readonly expiresAtMs: number,
    readonly createdAtMs: number,
  ) {
    this.remaining = size;
  }

  get owner(): string {
    return this.account.id;
  }

  addTrade(id: string): void {
    const t = this.trades;
    if (t === null) this.trades = id;
    else if (typeof t === 'string') this.trades = [t, id];
    else t.push(id);
  }

  tradeIds(): string[] {
    const t = this.trades;
    return t === null ? [] : typeof t === 'string' ? [t] : t.slice();
  }

  get side(): Side {
    return this.isBuy ? 'BUY' : 'SELL';
  }

  get tokenId(): string {
    return this.market.tokens[this.outcome];
  }

  snapshot(): OrderRecord {
    return {
      id: this.id,
      status: this.status,
      conditionId: this.market.conditionId,
      tokenId: this.tokenId,
      outcomeIndex: this.outcome,
      owner: this.owner,
      side: this.side,
      price: this.price as OrderRecord['price'],
      originalSize: this.size as OrderRecord['originalSize'],
      sizeMatched: this.matched as OrderRecord['sizeMatched'],
      orderType: this.type,
      postOnly: this.postOnly,
      expirationSec: this.expiresAtMs / 1000,
      createdAtMs: this.createdAtMs,
      associateTrades: this.tradeIds(),
    };
  }
}

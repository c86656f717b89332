// Records of finished orders (MATCHED, CANCELED, CANCELED_MARKET_RESOLVED), kept for lookup and
// duplicate detection after the order left the book. They are stored column-wise in a ring indexed
// by an absolute sequence number (numbers in typed arrays, references in plain arrays), so a
// finished order costs the garbage collector almost nothing: its node dies young and only its id
// and trade-id strings stay on the heap. Invariants: entries are appended in finishing order; the
// live range is [head, tail); a slot outside it holds no references; pruning drops from the head.
import type { OrderType } from '../../core/order.js';
import type { Account } from './accounts.js';
import type { MarketBook } from './market.js';
import type { OrderNode } from './order.js';
import type { OrderRecord, OrderStatus } from './types.js';

const TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];
const STATUSES: readonly OrderStatus[] = ['MATCHED', 'CANCELED', 'CANCELED_MARKET_RESOLVED', 'LIVE'];

export class FinishedStore {
  private cap = 1024;
  private mask = 1023;
  /** Absolute sequence number of the oldest entry. */
  head = 0;
  /** Absolute sequence number the next entry gets. */
  tail = 0;
  private ids: (string | undefined)[] = new Array<string | undefined>(1024);
  private accounts: (Account | undefined)[] = new Array<Account | undefined>(1024);
  private markets: (MarketBook | undefined)[] = new Array<MarketBook | undefined>(1024);
  private trades: (string | string[] | null)[] = new Array<string | string[] | null>(1024).fill(null);
  // bit 0 outcome, bit 1 BUY, bit 2 post-only, bits 3–4 type, bits 5–6 status
  private info: Uint8Array = new Uint8Array(1024);
  private price: Float64Array = new Float64Array(1024);
  private size: Float64Array = new Float64Array(1024);
  private matched: Float64Array = new Float64Array(1024);
  private created: Float64Array = new Float64Array(1024);
  private expires: Float64Array = new Float64Array(1024);
  private finished: Float64Array = new Float64Array(1024);

  get length(): number {
    return this.tail - this.head;
  }

  /** Appends a finished node's record; returns its sequence number. */
  push(o: OrderNode, finishedAtMs: number): number {
    if (this.tail - this.head === this.cap) this.grow();
    const seq = this.tail++;
    const i = seq & this.mask;
    this.ids[i] = o.id;
    this.accounts[i] = o.account;
    this.markets[i] = o.market;
    this.trades[i] = o.trades;
    this.info[i] =
      o.outcome |
      (o.isBuy ? 2 : 0) |
      (o.postOnly ? 4 : 0) |
      (TYPES.indexOf(o.type) << 3) |
      (STATUSES.indexOf(o.status) << 5);
    this.price[i] = o.price;
    this.size[i] = o.size;
    this.matched[i] = o.matched;
    this.created[i] = o.createdAtMs;
    this.expires[i] = o.expiresAtMs;
    this.finished[i] = finishedAtMs;
    return seq;
  }

  has(seq: number): boolean {
    return seq >= this.head && seq < this.tail;
  }

  idAt(seq: number): string | undefined {
    return this.has(seq) ? this.ids[seq & this.mask] : undefined;
  }

  statusAt(seq: number): OrderStatus {
    return STATUSES[((this.info[seq & this.mask] as number) >> 5) & 3] as OrderStatus;
  }

  ownerAt(seq: number): string {
    return (this.accounts[seq & this.mask] as Account).id;
  }

  finishedAt(seq: number): number {
    return this.finished[seq & this.mask] as number;
  }

  record(seq: number): OrderRecord {
    const i = seq & this.mask;
    const info = this.info[i] as number;
    const m = this.markets[i] as MarketBook;
    const outcome = (info & 1) as 0 | 1;
    const t = this.trades[i] ?? null;
    return {
      id: this.ids[i] as string,
      status: STATUSES[(info >> 5) & 3] as OrderStatus,
      conditionId: m.conditionId,
      tokenId: m.tokens[outcome],
      outcomeIndex: outcome,
      owner: (this.accounts[i] as Account).id,
      side: (info & 2) !== 0 ? 'BUY' : 'SELL',
      price: this.price[i] as OrderRecord['price'],
      originalSize: this.size[i] as OrderRecord['originalSize'],
      sizeMatched: this.matched[i] as OrderRecord['sizeMatched'],
      orderType: TYPES[(info >> 3) & 3] as OrderType,
      postOnly: (info & 4) !== 0,
      expirationSec: (this.expires[i] as number) / 1000,
      createdAtMs: this.created[i] as number,
      associateTrades: t === null ? [] : typeof t === 'string' ? [t] : t.slice(),
    };
  }

  /** Drops the oldest entry, returning its id. */
  shift(): string {
    const i = this.head & this.mask;
    const id = this.ids[i] as string;
    this.ids[i] = undefined;
    this.accounts[i] = undefined;
    this.markets[i] = undefined;
    this.trades[i] = null;
    this.head++;
    return id;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const mask = cap - 1;
    const ids = new Array<string | undefined>(cap);
    const accounts = new Array<Account | undefined>(cap);
    const markets = new Array<MarketBook | undefined>(cap);
    const trades = new Array<string | string[] | null>(cap).fill(null);
    const info = new Uint8Array(cap);
    for (let s = this.head; s < this.tail; s++) {
      const a = s & this.mask;
      const b = s & mask;
      ids[b] = this.ids[a];
      accounts[b] = this.accounts[a];
      markets[b] = this.markets[a];
      trades[b] = this.trades[a] ?? null;
      info[b] = this.info[a] as number;
    }
    this.ids = ids;
    this.accounts = accounts;
    this.markets = markets;
    this.trades = trades;
    this.info = info;
    this.price = this.regrow(this.price, cap, mask);
    this.size = this.regrow(this.size, cap, mask);
    this.matched = this.regrow(this.matched, cap, mask);
    this.created = this.regrow(this.created, cap, mask);
    this.expires = this.regrow(this.expires, cap, mask);
    this.finished = this.regrow(this.finished, cap, mask);
    this.cap = cap;
    this.mask = mask;
  }

  private regrow(col: Float64Array, cap: number, mask: number): Float64Array {
    const out = new Float64Array(cap);
    for (let s = this.head; s < this.tail; s++) out[s & mask] = col[s & this.mask] as number;
    return out;
  }
}

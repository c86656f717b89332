// One recorded record as the replay loop reads it, whatever it comes from: the synchronous
// recording cursor (a file: no object per record) or RecordingEvent objects (a test's array, an
// async reader handed in by a caller). The loop reads the fields it needs of the current record
// and materializes a Book only when something asks for one (a poll of the daemon, a mid for the
// report, a venue that takes whole books).
import { restamped, type Book } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import type { RecordedMarketSettings } from '../../marketdata/recording/format.js';
import type { RecordingEvent } from '../../marketdata/recording/reader.js';

/** Record kinds, as the cursor numbers them. */
export const KIND = { SETTINGS: 1, BOOK: 2, DELTA: 3, MID: 4, TRADE: 6, RESOLVED: 7 } as const;

export interface ReplayRecord {
  readonly kind: number;
  readonly localTs: number;
  readonly exchangeTs: number;
  /** The record's token id. */
  tokenId(): string;
  /** The record's token as a dense number (0, 1, … in order of first appearance). */
  tokenNo(): number;
  /**
   * Applies a BOOK / DELTA record to its token's book. Until then the token's book (book(),
   * bookLater(), bestBid/Ask) is as the previous record left it: what is due before the record's
   * time (a poll at that instant) must not see it.
   */
  commit(): void;
  /** SETTINGS: the token's settings. */
  settings(): RecordedMarketSettings;
  /** BOOK / DELTA: the token's whole book after the record. */
  book(): Book;
  /**
   * BOOK / DELTA: a function that builds the token's book as of its last update (kept until the
   * next poll), stamped no older than `atLeastMs`, taking `reuse`'s levels where they are the same.
   */
  bookLater(): BookBuilder;
  /** BOOK / DELTA: best bid and ask of the token after the record (-1 when a side is empty). */
  bestBid(): number;
  bestAsk(): number;
  /** DELTA: changed levels (the token's own terms; size 0 removes the level). */
  readonly changeCount: number;
  readonly changePrice: ArrayLike<number>;
  readonly changeSize: ArrayLike<number>;
  readonly changeIsAsk: ArrayLike<number>;
  /** TRADE: price, size, and the taker's side. */
  readonly price: number;
  readonly size: number;
  tradeSide(): 'BUY' | 'SELL';
  /** RESOLVED: the market (the record's token won). */
  readonly conditionId: string;
}

/** Builds a token's book as of its last update (see ReplayRecord.bookLater). */
export type BookBuilder = (reuse: Book | null, atLeastMs: number) => Book;

const NONE: ArrayLike<number> = new Float64Array(0);

/** A RecordingEvent as a ReplayRecord (one wrapper per event: the slow path). */
export class EventRecord implements ReplayRecord {
  kind = 0;
  localTs = 0;
  exchangeTs = 0;
  changeCount = 0;
  changePrice: ArrayLike<number> = NONE;
  changeSize: ArrayLike<number> = NONE;
  changeIsAsk: ArrayLike<number> = NONE;
  price = 0;
  size = 0;
  conditionId = '';
  private ev: RecordingEvent | null = null;
  private built: Book | null = null;
  private readonly numbers = new Map<string, number>();
  private no = -1;

  set(ev: RecordingEvent): this {
    this.ev = ev;
    this.built = null;
    this.localTs = ev.localTs;
    this.exchangeTs = ev.exchangeTs;
    let no = this.numbers.get(ev.tokenId);
    if (no === undefined) {
      no = this.numbers.size;
      this.numbers.set(ev.tokenId, no);
    }
    this.no = no;
    this.changeCount = 0;
    switch (ev.kind) {
      case 'settings':
        this.kind = KIND.SETTINGS;
        break;
      case 'book':
        this.kind = KIND.BOOK;
        break;
      case 'delta': {
        this.kind = KIND.DELTA;
        const n = ev.changes.length;
        const px = new Float64Array(n);
        const sz = new Float64Array(n);
        const ask = new Uint8Array(n);
        ev.changes.forEach((c, i) => {
          px[i] = c.price;
          sz[i] = c.size;
          ask[i] = c.side === 'asks' ? 1 : 0;
        });
        this.changeCount = n;
        this.changePrice = px;
        this.changeSize = sz;
        this.changeIsAsk = ask;
        break;
      }
      case 'mid':
        this.kind = KIND.MID;
        break;
      case 'trade':
        this.kind = KIND.TRADE;
        this.price = ev.price;
        this.size = ev.size;
        break;
      case 'resolved':
        this.kind = KIND.RESOLVED;
        this.conditionId = ev.conditionId;
        break;
    }
    return this;
  }

  tokenId(): string {
    return (this.ev as RecordingEvent).tokenId;
  }
  tokenNo(): number {
    return this.no;
  }
  /** An event object carries its book already: nothing to apply. */
  commit(): void {}
  settings(): RecordedMarketSettings {
    const ev = this.ev as RecordingEvent;
    if (ev.kind !== 'settings') throw new InvariantError('not a settings record');
    return ev.settings;
  }
  book(): Book {
    if (this.built !== null) return this.built;
    const ev = this.ev as RecordingEvent;
    if (ev.kind !== 'book' && ev.kind !== 'delta') throw new InvariantError('not a book record');
    this.built = ev.book();
    return this.built;
  }
  bookLater(): BookBuilder {
    const b = this.book();
    return (_reuse, atLeastMs) => (b.timestampMs !== null && b.timestampMs >= atLeastMs ? b : restamped(b, atLeastMs));
  }
  bestBid(): number {
    const b = this.book();
    return b.bids.length === 0 ? -1 : (b.bids[0] as { price: number }).price;
  }
  bestAsk(): number {
    const b = this.book();
    return b.asks.length === 0 ? -1 : (b.asks[0] as { price: number }).price;
  }
  tradeSide(): 'BUY' | 'SELL' {
    const ev = this.ev as RecordingEvent;
    if (ev.kind !== 'trade') throw new InvariantError('not a trade record');
    return ev.side;
  }
}

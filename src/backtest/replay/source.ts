// Where the replay's records come from: a recording file through the synchronous cursor (no object
// per record: the record is the cursor's current state, read through CursorRecord), an array or
// other iterable of RecordingEvent objects (tests), or an async iterable (a RecordingReader a caller
// opened). `sync` is set when records can be pulled without a promise; `next` is the async path.
import type { Book } from '../../core/book.js';
import { RecordingCursor } from '../../marketdata/recording/cursor.js';
import type { RecordedMarketSettings } from '../../marketdata/recording/format.js';
import type { RecordingEvent } from '../../marketdata/recording/reader.js';
import { EventRecord, type BookBuilder, type ReplayRecord } from './records.js';

export interface RecordSource {
  /** The next record, or null at the end; null when the source is asynchronous. */
  readonly sync: (() => ReplayRecord | null) | null;
  next(): Promise<ReplayRecord | null>;
  close(): void;
  /** Bytes read so far and in all (progress), when known. */
  progress(): { readonly done: number; readonly total: number } | null;
}

/** The cursor's current record as a ReplayRecord (one instance per run, no allocation per record). */
export class CursorRecord implements ReplayRecord {
  private readonly later: BookBuilder[] = [];
  constructor(private readonly c: RecordingCursor) {}
  get kind(): number {
    return this.c.kind;
  }
  get localTs(): number {
    return this.c.localTs;
  }
  get exchangeTs(): number {
    return this.c.exchangeTs;
  }
  get changeCount(): number {
    return this.c.changeCount;
  }
  get changePrice(): ArrayLike<number> {
    return this.c.changePrice;
  }
  get changeSize(): ArrayLike<number> {
    return this.c.changeSize;
  }
  get changeIsAsk(): ArrayLike<number> {
    return this.c.changeIsAsk;
  }
  get price(): number {
    return this.c.price;
  }
  get size(): number {
    return this.c.size;
  }
  get conditionId(): string {
    return this.c.conditionId;
  }
  tokenId(): string {
    return this.c.tokenId(this.c.token);
  }
  tokenNo(): number {
    return this.c.token;
  }
  commit(): void {
    this.c.commit();
  }
  settings(): RecordedMarketSettings {
    return this.c.settings();
  }
  book(): Book {
    return this.c.book(this.c.token);
  }
  bookLater(): BookBuilder {
    const token = this.c.token;
    let f = this.later[token];
    if (f === undefined) {
      // Built when a poll asks, from the token's ladder as it is then (its latest state).
      f = (reuse, atLeastMs) => this.c.book(token, reuse ?? undefined, atLeastMs);
      this.later[token] = f;
    }
    return f;
  }
  bestBid(): number {
    return this.c.bestBid(this.c.token);
  }
  bestAsk(): number {
    return this.c.bestAsk(this.c.token);
  }
  tradeSide(): 'BUY' | 'SELL' {
    return this.c.takerSide === 0 ? 'BUY' : 'SELL';
  }
}

function isAsync(x: unknown): x is AsyncIterable<RecordingEvent> {
  return typeof (x as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

export function openRecordSource(
  recording: string | AsyncIterable<RecordingEvent> | Iterable<RecordingEvent>,
): RecordSource {
  if (typeof recording === 'string') {
    // Deferred ladders: the replay fires what is due before a record, then commits it.
    const cursor = RecordingCursor.open(recording, { deferLadder: true });
    const rec = new CursorRecord(cursor);
    const sync = (): ReplayRecord | null => (cursor.next() ? rec : null);
    return {
      sync,
      next: () => Promise.resolve(sync()),
      close: () => cursor.close(),
      progress: () => cursor.progress(),
    };
  }
  const rec = new EventRecord();
  if (isAsync(recording)) {
    const it = recording[Symbol.asyncIterator]();
    return {
      sync: null,
      next: async () => {
        const r = await it.next();
        return r.done === true ? null : rec.set(r.value);
      },
      close: () => void it.return?.(),
      progress: () => null,
    };
  }
  const it = recording[Symbol.iterator]();
  const sync = (): ReplayRecord | null => {
    const r = it.next();
    return r.done === true ? null : rec.set(r.value);
  };
  return { sync, next: () => Promise.resolve(sync()), close: () => it.return?.(), progress: () => null };
}

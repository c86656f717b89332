// Streams a recording back as domain events without loading the file: bytes come from a read
// stream, chunks are verified and decompressed one at a time, records are decoded one per pulled
// event. Invariants:
// - a truncated or damaged tail ends the iteration cleanly; `tail` then says how many chunks were
//   good and why reading stopped (a header that is not a recording's throws RecordingFormatError);
// - books are rebuilt only on demand: an event's book() materialises the token's ladder as of that
//   event, and throws InvariantError if the reader has since applied a later change to that token
//   (pulling events for other tokens does not invalidate it);
// - chunk-start restatements update state silently unless includeRestatements is set.
import { createReadStream } from 'node:fs';
import { brotliDecompressSync, inflateRawSync } from 'node:zlib';
import type { Book } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import type { Price, Shares } from '../../core/money.js';
import {
  ByteSource,
  REC_BOOK,
  REC_DELTA,
  REC_GRID,
  REC_MID,
  REC_RESOLVED,
  REC_RESTATE,
  REC_SETTINGS,
  REC_TRADE,
  RecordingFormatError,
  type Codec,
  type LevelChange,
  type RecordedMarketSettings,
} from './format.js';
import { readSettings, readSide, readSize } from './decode.js';
import { frames, type TailReport } from './frames.js';
import { Ladder } from './ladder.js';

interface EventBase {
  readonly tokenId: string;
  /** The exchange's timestamp, epoch ms. */
  readonly exchangeTs: number;
  /** Our clock when the observation arrived, epoch ms. */
  readonly localTs: number;
  /** True for a chunk-start restatement (only yielded with includeRestatements). */
  readonly restated: boolean;
}
export interface SettingsEvent extends EventBase {
  readonly kind: 'settings';
  readonly settings: RecordedMarketSettings;
}
export interface BookEvent extends EventBase {
  readonly kind: 'book';
  readonly hash: string;
  readonly lastTradePrice: Price | null;
  book(): Book;
}
export interface DeltaEvent extends EventBase {
  readonly kind: 'delta';
  readonly changes: readonly LevelChange[];
  /** The book after this delta. */
  book(): Book;
}
export interface MidEvent extends EventBase {
  readonly kind: 'mid';
  readonly mid: Price;
}
/**
 * A public trade on the token. `side` is the taker's (aggressor's) side as the exchange reports
 * it: BUY lifted resting asks, SELL hit resting bids. `exchangeTs` of a trade polled from the
 * data API has second resolution (a multiple of 1000); `localTs` is when we received it.
 */
export interface TradeEvent extends EventBase {
  readonly kind: 'trade';
  readonly price: Price;
  readonly size: Shares;
  readonly side: 'BUY' | 'SELL';
}
/** The market resolved: `tokenId` is the winning token, `conditionId` its market. */
export interface ResolvedEvent extends EventBase {
  readonly kind: 'resolved';
  readonly conditionId: string;
}
export type RecordingEvent = SettingsEvent | BookEvent | DeltaEvent | MidEvent | TradeEvent | ResolvedEvent;

export interface ReaderOptions {
  readonly includeRestatements?: boolean;
}

interface TokenState {
  settings: RecordedMarketSettings;
  grid: number;
  ladder: Ladder;
  version: number;
  exTs: number;
  hash: string;
  lastTradePrice: Price | null;
}

export class RecordingReader implements AsyncIterable<RecordingEvent> {
  private report: TailReport | null = null;
  private readonly states = new Map<string, TokenState>();

  constructor(
    private readonly source: () => AsyncIterable<Uint8Array>,
    private readonly opts: ReaderOptions = {},
  ) {}

  static fromFile(path: string, opts: ReaderOptions = {}): RecordingReader {
    return new RecordingReader(() => createReadStream(path, { highWaterMark: 64 * 1024 }), opts);
  }

  /** How reading ended; null until the iteration has run to its end. */
  get tail(): TailReport | null {
    return this.report;
  }

  /** The current book of a token (as of the last event pulled), or null before its first book. */
  bookOf(tokenId: string): Book | null {
    const st = this.states.get(tokenId);
    return st === undefined ? null : materialise(st);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RecordingEvent> {
    this.report = null;
    this.states.clear();
    let tail: TailReport | null = null;
    let good = 0;
    let seen = 0;
    for await (const frame of frames(this.source(), (t) => {
      tail = t;
    })) {
      seen = frame.offset + 12 + frame.payload.length;
      let raw: Buffer;
      try {
        raw = frame.codec === 'brotli' ? brotliDecompressSync(frame.payload) : inflateRawSync(frame.payload);
      } catch {
        raw = Buffer.alloc(0);
      }
      if (raw.length !== frame.rawLength || raw.length === 0) {
        // The CRC matched, so the writer sealed a payload it could not have produced: stop here.
        this.report = {
          status: 'corrupt',
          codec: frame.codec,
          chunks: good,
          validBytes: frame.offset,
          fileBytes: seen,
          reason: `chunk at byte ${frame.offset} does not decompress to its declared length`,
        };
        return;
      }
      good++;
      yield* this.decode(raw);
    }
    this.report = tail;
  }

  private *decode(raw: Buffer): Generator<RecordingEvent> {
    const src = new ByteSource(raw);
    const table: TokenState[] = [];
    let prevExTs = 0;
    const withRestated = this.opts.includeRestatements === true;
    while (!src.done) {
      const tag = src.u8();
      const type = tag & 0x0f;
      const restated = (tag & REC_RESTATE) !== 0;
      const index = src.uvar();
      if (type === REC_GRID) {
        const st = table[index];
        if (st === undefined) throw new RecordingFormatError(`grid record for unknown token index ${index}`);
        st.grid = src.uvar();
        continue;
      }
      const exchangeTs = prevExTs + src.svar();
      const localTs = exchangeTs + src.svar();
      prevExTs = exchangeTs;
      if (type === REC_SETTINGS) {
        const settings = readSettings(src);
        const grid = src.uvar();
        if (grid === 0) throw new RecordingFormatError('zero price grid');
        let st = this.states.get(settings.tokenId);
        if (st === undefined) {
          st = { settings, grid, ladder: new Ladder(), version: 0, exTs: exchangeTs, hash: '', lastTradePrice: null };
          this.states.set(settings.tokenId, st);
        } else {
          st.settings = settings;
          st.grid = grid;
        }
        if (index === table.length) table.push(st);
        else if (index < table.length) table[index] = st;
        else throw new RecordingFormatError(`settings record skips token index ${table.length}`);
        if (!restated || withRestated)
          yield { kind: 'settings', tokenId: settings.tokenId, exchangeTs, localTs, restated, settings };
        continue;
      }
      const st = table[index];
      if (st === undefined) throw new RecordingFormatError(`record for unknown token index ${index}`);
      const tokenId = st.settings.tokenId;
      if (type === REC_BOOK) {
        const hash = src.str();
        const ltp = src.uvar();
        const bids = readSide(src, st.grid, true);
        const asks = readSide(src, st.grid, false);
        st.ladder.replace(bids, asks);
        st.version++;
        st.exTs = exchangeTs;
        st.hash = hash;
        st.lastTradePrice = ltp === 0 ? null : ((ltp - 1) as Price);
        if (!restated || withRestated) {
          yield {
            kind: 'book',
            tokenId,
            exchangeTs,
            localTs,
            restated,
            hash,
            lastTradePrice: st.lastTradePrice,
            book: bookAt(st),
          };
        }
      } else if (type === REC_DELTA) {
        const n = src.uvar();
        const changes = new Array<LevelChange>(n);
        for (let i = 0; i < n; i++) {
          const v = src.uvar();
          const side = v % 2 === 0 ? 'bids' : 'asks';
          const price = (Math.floor(v / 2) * st.grid) as Price;
          const size = readSize(src);
          changes[i] = { side, price, size };
          st.ladder.set(side, price, size);
        }
        st.version++;
        st.exTs = exchangeTs;
        st.hash = '';
        yield { kind: 'delta', tokenId, exchangeTs, localTs, restated: false, changes, book: bookAt(st) };
      } else if (type === REC_MID) {
        yield { kind: 'mid', tokenId, exchangeTs, localTs, restated: false, mid: src.uvar() as Price };
      } else if (type === REC_TRADE) {
        const v = src.uvar();
        const price = Math.floor(v / 2) as Price;
        if (price <= 0) throw new RecordingFormatError('trade price out of range');
        const size = readSize(src);
        yield {
          kind: 'trade',
          tokenId,
          exchangeTs,
          localTs,
          restated: false,
          price,
          size,
          side: v % 2 === 0 ? 'BUY' : 'SELL',
        };
      } else if (type === REC_RESOLVED) {
        yield { kind: 'resolved', tokenId, conditionId: st.settings.conditionId, exchangeTs, localTs, restated: false };
      } else {
        throw new RecordingFormatError(`unknown record type ${type}`);
      }
    }
  }
}

function bookAt(st: TokenState): () => Book {
  const version = st.version;
  return () => {
    if (st.version !== version)
      throw new InvariantError(`book() of ${st.settings.tokenId} called after a later change was read`);
    return materialise(st);
  };
}

function materialise(st: TokenState): Book {
  const s = st.settings;
  return {
    market: s.conditionId,
    assetId: s.tokenId,
    timestampMs: st.exTs,
    hash: st.hash,
    bids: st.ladder.bids.slice(),
    asks: st.ladder.asks.slice(),
    minOrderSize: s.minOrderSize,
    tickSize: s.tickSize,
    negRisk: s.negRisk,
    lastTradePrice: st.lastTradePrice,
  };
}

/** Reads a whole recording into an array (for tests and small files). */
export async function readAll(reader: RecordingReader): Promise<RecordingEvent[]> {
  const out: RecordingEvent[] = [];
  for await (const e of reader) out.push(e);
  return out;
}

export type { Codec, TailReport };

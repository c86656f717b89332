// A synchronous, allocation-light cursor over a recording, for the backtest's replay loop: the
// same records RecordingReader yields, one per next(), exposed as fields of the cursor instead of
// event objects. Invariants:
// - next() visits exactly the records the reader yields with the same option (chunk-start
//   restatements update state silently unless `restated: true`), and event() materialises the
//   current one as the very object the reader would yield, so the two can be compared;
// - a delta, trade or mid allocates nothing: a delta's changes land in reused typed arrays and are
//   applied to the token's ladder, itself kept in typed arrays (bids strictly descending, asks
//   strictly ascending, sizes > 0, as ladder.ts keeps its Level arrays);
// - tokens get dense numbers 0, 1, 2, … in order of first appearance in the file, stable across
//   chunks (the chunk's own token table is only a translation to these numbers);
// - framing ends as the reader's does (frames.ts): the first incomplete, oversized, CRC-failing or
//   undecompressable chunk stops the cursor, and `tail` reports the same status, chunk count,
//   validBytes and fileBytes as RecordingReader.fromFile on the same file (read here in the same
//   64 KiB pieces as its stream, because fileBytes of a corrupt chunk counts the bytes read so far).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { brotliDecompressSync, crc32 as nativeCrc32, inflateRawSync } from 'node:zlib';
import type { Book, Level } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import type { Price, Shares } from '../../core/money.js';
import { readSettings, readSideInto, readSize, readSvar, readUvar } from './decode.js';
import {
  ByteSource,
  CHUNK_HEADER_BYTES,
  decodeHeader,
  HEADER_BYTES,
  MAGIC,
  MAX_CHUNK_BYTES,
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
import type { TailReport } from './frames.js';
import type { RecordingEvent } from './reader.js';

/** The kind of the current record: the record type numbers of format.ts (0 before the first and after the last). */
export const RecordKind = {
  NONE: 0,
  SETTINGS: REC_SETTINGS,
  BOOK: REC_BOOK,
  DELTA: REC_DELTA,
  MID: REC_MID,
  TRADE: REC_TRADE,
  RESOLVED: REC_RESOLVED,
} as const;
export type RecordKind = (typeof RecordKind)[keyof typeof RecordKind];

export const TAKER_BUY = 0;
export const TAKER_SELL = 1;

export interface CursorOptions {
  /** Also visit chunk-start restatements (RecordingReader's includeRestatements). */
  readonly restated?: boolean;
  /**
   * Leave a BOOK or DELTA record out of its token's ladder until commit() (or the next next()):
   * between next() and commit() the ladders (book(), ladder(), bestBid/Ask) are as they were
   * before the record, while its fields already hold it. A replay that must act on time t before
   * the record stamped t is applied (its clock's events due by t) reads the book as of then.
   */
  readonly deferLadder?: boolean;
}

/** A token's current ladder, read-only to callers: indices < bidCount / askCount are valid, best first. */
export interface LadderView {
  readonly bidCount: number;
  readonly askCount: number;
  readonly bidPrice: Float64Array;
  readonly bidSize: Float64Array;
  readonly askPrice: Float64Array;
  readonly askSize: Float64Array;
}

/** Same 64 KiB pieces as RecordingReader.fromFile's read stream (see the header on fileBytes). */
const PIECE = 64 * 1024;

/**
 * format.ts's chunkCrc (IEEE CRC-32 over the raw-length field, then the payload) computed by
 * zlib's native crc32 (Node ≥ 20.15): the same value (the cursor's tests check it against
 * chunkCrc), ~10× faster than the table loop, which was a third of the cursor's time.
 */
function chunkCrcNative(rawLenField: Uint8Array, payload: Uint8Array): number {
  return nativeCrc32(payload, nativeCrc32(rawLenField));
}
const INITIAL_LEVELS = 32;

function grown(a: Float64Array, need: number): Float64Array<ArrayBuffer> {
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

/**
 * Inserts, replaces or (size 0) removes `price` in a best-first side; returns the new count (as
 * ladder.ts's Ladder.set). Near the touch a side's levels usually sit on consecutive grid steps,
 * so the level's position is first guessed from its distance to the best price (one division, a
 * hit without a search); a miss falls back to a binary search.
 */
function setLevel(
  px: Float64Array,
  sz: Float64Array,
  n: number,
  desc: boolean,
  price: number,
  size: number,
  grid: number,
): number {
  let lo = n === 0 ? 0 : ((desc ? (px[0] as number) - price : price - (px[0] as number)) / grid) | 0;
  if (!(lo >= 0 && lo < n && px[lo] === price)) {
    lo = 0;
    let hi = n;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      const p = px[m] as number;
      if (desc ? p > price : p < price) lo = m + 1;
      else hi = m;
    }
  }
  // Plain loops, not copyWithin: sides are a few dozen levels, shorter than a builtin call's cost.
  if (lo < n && px[lo] === price) {
    if (size === 0) {
      for (let i = lo + 1; i < n; i++) {
        px[i - 1] = px[i] as number;
        sz[i - 1] = sz[i] as number;
      }
      return n - 1;
    }
    sz[lo] = size;
    return n;
  }
  if (size === 0) return n;
  // The caller guaranteed capacity for one more level.
  for (let i = n; i > lo; i--) {
    px[i] = px[i - 1] as number;
    sz[i] = sz[i - 1] as number;
  }
  px[lo] = price;
  sz[lo] = size;
  return n + 1;
}

/** One token's state across chunks: settings, grid, ladder and what the last book said. */
class TokenState implements LadderView {
  grid: number;
  /** Exchange time of the last book or delta (of the settings before any). */
  exTs: number;
  hash = '';
  /** µ, or -1 when none. */
  lastTradePrice = -1;
  /** Bumped on every book or delta: event().book() refuses to build a book that has moved on. */
  version = 0;
  bidCount = 0;
  askCount = 0;
  bidPrice = new Float64Array(INITIAL_LEVELS);
  bidSize = new Float64Array(INITIAL_LEVELS);
  askPrice = new Float64Array(INITIAL_LEVELS);
  askSize = new Float64Array(INITIAL_LEVELS);

  constructor(
    public settings: RecordedMarketSettings,
    grid: number,
    exTs: number,
  ) {
    this.grid = grid;
    this.exTs = exTs;
  }

  reserveBids(n: number): void {
    if (n > this.bidPrice.length) {
      this.bidPrice = grown(this.bidPrice, n);
      this.bidSize = grown(this.bidSize, n);
    }
  }
  reserveAsks(n: number): void {
    if (n > this.askPrice.length) {
      this.askPrice = grown(this.askPrice, n);
      this.askSize = grown(this.askSize, n);
    }
  }
  set(isAsk: boolean, price: number, size: number): void {
    if (isAsk) {
      this.reserveAsks(this.askCount + 1);
      this.askCount = setLevel(this.askPrice, this.askSize, this.askCount, false, price, size, this.grid);
    } else {
      this.reserveBids(this.bidCount + 1);
      this.bidCount = setLevel(this.bidPrice, this.bidSize, this.bidCount, true, price, size, this.grid);
    }
  }
}

const EMPTY = Buffer.alloc(0);

/** The bytes read but not yet framed: buf[start, end); `read` counts every byte read so far. */
class Pending {
  buf: Buffer = EMPTY;
  start = 0;
  end = 0;
  read = 0;
}

/** Where the cursor's bytes come from: one whole buffer, or a file read in pieces. */
interface Input {
  /** Appends the next piece to the pending bytes; false at the end. */
  more(p: Pending): boolean;
  close(): void;
  /** The whole input's length in bytes. */
  readonly size: number;
}

const EMPTY_SOURCE = new ByteSource(EMPTY);

/** `b`'s arrays, grown (contents dropped) to hold n levels. */
function sized(b: { px: Float64Array; sz: Float64Array }, n: number): { px: Float64Array; sz: Float64Array } {
  if (b.px.length < n) {
    b.px = new Float64Array(Math.max(n, 2 * b.px.length));
    b.sz = new Float64Array(b.px.length);
  }
  return b;
}

function levels(px: Float64Array, sz: Float64Array, n: number, reuse?: readonly Level[]): Level[] {
  const out = new Array<Level>(n);
  for (let i = 0; i < n; i++) {
    const r = reuse?.[i];
    out[i] =
      r !== undefined && r.price === px[i] && r.size === sz[i] ? r : { price: px[i] as Price, size: sz[i] as Shares };
  }
  return out;
}

export class RecordingCursor {
  // ---- the current record (valid until the next call of next()) ----
  kind: RecordKind = RecordKind.NONE;
  exchangeTs = 0;
  localTs = 0;
  restated = false;
  /** Dense token number of the record's token (RESOLVED: the winner). */
  token = -1;
  /** DELTA: changes in order, indices < changeCount (µ prices, µ sizes; size 0 removes the level). */
  changeCount = 0;
  changePrice = new Float64Array(16);
  changeSize = new Float64Array(16);
  changeIsAsk = new Uint8Array(16);
  /** BOOK: the token's ladder as the book left it, best first (indices < bidCount / askCount). */
  bidCount = 0;
  askCount = 0;
  bidPrice: Float64Array = new Float64Array(0);
  bidSize: Float64Array = new Float64Array(0);
  askPrice: Float64Array = new Float64Array(0);
  askSize: Float64Array = new Float64Array(0);
  hash = '';
  /** BOOK: µ, or -1 when none. */
  lastTradePrice = -1;
  /** MID: µ. */
  mid = 0;
  /** TRADE: µ price and size, the taker's side (TAKER_BUY 0 lifted asks, TAKER_SELL 1 hit bids). */
  price = 0;
  size = 0;
  takerSide = 0;
  /** RESOLVED: the market that resolved (its winner is `token`). */
  conditionId = '';

  // ---- framing ----
  private readonly pending = new Pending();
  private codec: Codec | null = null;
  private goodChunks = 0;
  private validBytes = 0;
  private report: TailReport | null = null;

  // ---- decoding ----
  private src: ByteSource = EMPTY_SOURCE;
  private prevExTs = 0;
  private table = new Int32Array(16);
  private tableLen = 0;
  private readonly tokens: TokenState[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly withRestated: boolean;
  private currentSettings: RecordedMarketSettings | null = null;
  // ---- deferred ladder updates (deferLadder) ----
  private readonly defer: boolean;
  /** The token whose ladder the current record still has to change; null when none. */
  private owed: TokenState | null = null;
  private owedKind: RecordKind = RecordKind.NONE;
  private owedExTs = 0;
  private owedHash = '';
  private owedLtp = -1;
  private owedBid = { px: new Float64Array(64), sz: new Float64Array(64), n: 0 };
  private owedAsk = { px: new Float64Array(64), sz: new Float64Array(64), n: 0 };

  private constructor(
    private readonly input: Input,
    opts: CursorOptions,
  ) {
    this.withRestated = opts.restated === true;
    this.defer = opts.deferLadder === true;
    this.readHeader();
  }

  /** A cursor over a file, read synchronously in 64 KiB pieces. Throws RecordingFormatError if it is not a recording. */
  static open(path: string, opts: CursorOptions = {}): RecordingCursor {
    const fd = openSync(path, 'r');
    let closed = false;
    const input: Input = {
      size: fstatSync(fd).size,
      more(c) {
        if (closed) return false;
        if (c.buf.length - c.end < PIECE) {
          const live = c.end - c.start;
          const next =
            live + PIECE <= c.buf.length ? c.buf : Buffer.allocUnsafe(Math.max(2 * c.buf.length, live + PIECE));
          c.buf.copy(next, 0, c.start, c.end);
          c.buf = next;
          c.start = 0;
          c.end = live;
        }
        const n = readSync(fd, c.buf, c.end, PIECE, null);
        if (n === 0) {
          this.close();
          return false;
        }
        c.end += n;
        c.read += n;
        return true;
      },
      close() {
        if (!closed) closeSync(fd);
        closed = true;
      },
    };
    try {
      return new RecordingCursor(input, opts);
    } catch (e) {
      input.close();
      throw e;
    }
  }

  /** A cursor over a recording in memory. Throws RecordingFormatError if it is not a recording. */
  static fromBytes(buf: Uint8Array, opts: CursorOptions = {}): RecordingCursor {
    let given = false;
    const bytes = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    const input: Input = {
      size: bytes.length,
      more(c) {
        if (given || bytes.length === 0) return false;
        given = true;
        c.buf = bytes;
        c.start = 0;
        c.end = bytes.length;
        c.read = bytes.length;
        return true;
      },
      close() {},
    };
    return new RecordingCursor(input, opts);
  }

  /** How reading ended (as RecordingReader's `tail`); null until next() has returned false. */
  get tail(): TailReport | null {
    return this.report;
  }
  /** null while reading, then the tail's status. */
  get status(): TailReport['status'] | null {
    return this.report === null ? null : this.report.status;
  }
  /** Chunks read and decompressed so far (at the end: the good chunks). */
  get chunks(): number {
    return this.goodChunks;
  }
  /** Bytes up to the end of the last good chunk so far. */
  get goodBytes(): number {
    return this.report === null ? this.validBytes : this.report.validBytes;
  }

  get tokenCount(): number {
    return this.tokens.length;
  }
  tokenId(token: number): string {
    return this.state(token).settings.tokenId;
  }
  conditionIdOf(token: number): string {
    return this.state(token).settings.conditionId;
  }
  /** The token's latest settings. */
  settingsOf(token: number): RecordedMarketSettings {
    return this.state(token).settings;
  }
  /** The dense number of a token id seen so far, or -1. */
  tokenNumber(tokenId: string): number {
    return this.numbers.get(tokenId) ?? -1;
  }
  /** The token's live ladder (as of the current record); do not write to it. */
  ladder(token: number): LadderView {
    return this.state(token);
  }

  /** The token's best bid, µ, or -1 when it has no bids. */
  bestBid(token: number): number {
    const st = this.state(token);
    return st.bidCount === 0 ? -1 : (st.bidPrice[0] as number);
  }
  /** The token's best ask, µ, or -1 when it has no asks. */
  bestAsk(token: number): number {
    const st = this.state(token);
    return st.askCount === 0 ? -1 : (st.askPrice[0] as number);
  }

  /** SETTINGS: the settings the record carries (the object RecordingReader's event holds). */
  settings(): RecordedMarketSettings {
    if (this.kind !== RecordKind.SETTINGS || this.currentSettings === null)
      throw new InvariantError('settings() called on a record that is not SETTINGS');
    return this.currentSettings;
  }

  /** The token's current full book (as of the current record), built now. */
  /**
   * The token's current book. `reuse`: an earlier book of the token whose Level objects are taken
   * where the same index holds the same price and size (a delta changes a few levels: the rest
   * need no new objects); `atLeastMs`: the book's time is stamped no older than it.
   */
  book(token: number, reuse?: Book, atLeastMs = Number.NEGATIVE_INFINITY): Book {
    const st = this.state(token);
    const s = st.settings;
    return {
      market: s.conditionId,
      assetId: s.tokenId,
      timestampMs: st.exTs >= atLeastMs ? st.exTs : atLeastMs,
      hash: st.hash,
      bids: levels(st.bidPrice, st.bidSize, st.bidCount, reuse?.bids),
      asks: levels(st.askPrice, st.askSize, st.askCount, reuse?.asks),
      minOrderSize: s.minOrderSize,
      tickSize: s.tickSize,
      negRisk: s.negRisk,
      lastTradePrice: st.lastTradePrice < 0 ? null : (st.lastTradePrice as Price),
    };
  }

  /** The current record as the object RecordingReader yields for it (slow path: allocates). */
  event(): RecordingEvent {
    const st = this.state(this.token);
    const base = {
      tokenId: st.settings.tokenId,
      exchangeTs: this.exchangeTs,
      localTs: this.localTs,
      restated: this.restated,
    };
    switch (this.kind) {
      case RecordKind.SETTINGS:
        return { kind: 'settings', ...base, settings: this.settings() };
      case RecordKind.BOOK:
        return {
          kind: 'book',
          ...base,
          hash: this.hash,
          lastTradePrice: this.lastTradePrice < 0 ? null : (this.lastTradePrice as Price),
          book: this.bookAt(st),
        };
      case RecordKind.DELTA: {
        const changes = new Array<LevelChange>(this.changeCount);
        for (let i = 0; i < this.changeCount; i++) {
          changes[i] = {
            side: this.changeIsAsk[i] === 1 ? 'asks' : 'bids',
            price: this.changePrice[i] as Price,
            size: this.changeSize[i] as Shares,
          };
        }
        return { kind: 'delta', ...base, changes, book: this.bookAt(st) };
      }
      case RecordKind.MID:
        return { kind: 'mid', ...base, mid: this.mid as Price };
      case RecordKind.TRADE:
        return {
          kind: 'trade',
          ...base,
          price: this.price as Price,
          size: this.size as Shares,
          side: this.takerSide === TAKER_SELL ? 'SELL' : 'BUY',
        };
      case RecordKind.RESOLVED:
        return { kind: 'resolved', ...base, conditionId: this.conditionId };
      default:
        throw new InvariantError('event() called with no current record');
    }
  }

  /** Closes the file early (the cursor closes it itself at the end). */
  close(): void {
    this.input.close();
  }

  /** Bytes of the input read so far (read ahead by at most one piece) and in all. */
  progress(): { readonly done: number; readonly total: number } {
    return { done: this.pending.read, total: this.input.size };
  }

  /** Applies the current record to its token's ladder (deferLadder); idempotent, a no-op otherwise. */
  commit(): void {
    const st = this.owed;
    if (st === null) return;
    this.owed = null;
    if (this.owedKind === RecordKind.DELTA) {
      const n = this.changeCount;
      for (let i = 0; i < n; i++)
        st.set(this.changeIsAsk[i] === 1, this.changePrice[i] as number, this.changeSize[i] as number);
      st.hash = '';
    } else {
      const b = this.owedBid;
      const a = this.owedAsk;
      st.reserveBids(b.n);
      st.bidPrice.set(b.px.subarray(0, b.n));
      st.bidSize.set(b.sz.subarray(0, b.n));
      st.bidCount = b.n;
      st.reserveAsks(a.n);
      st.askPrice.set(a.px.subarray(0, a.n));
      st.askSize.set(a.sz.subarray(0, a.n));
      st.askCount = a.n;
      st.hash = this.owedHash;
      st.lastTradePrice = this.owedLtp;
    }
    st.version++;
    st.exTs = this.owedExTs;
  }

  /** Advances to the next record; false at the end of the good part of the file. */
  next(): boolean {
    if (this.owed !== null) this.commit();
    for (;;) {
      const src = this.src;
      if (src.pos >= src.buf.length) {
        if (!this.nextChunk()) {
          this.kind = RecordKind.NONE;
          return false;
        }
        continue;
      }
      const tag = src.u8();
      const type = tag & 0x0f;
      const restated = (tag & REC_RESTATE) !== 0;
      const index = readUvar(src);
      if (type === REC_GRID) {
        this.tableState(index, 'grid record for unknown token index').grid = src.uvar();
        continue;
      }
      const exchangeTs = this.prevExTs + readSvar(src);
      const localTs = exchangeTs + readSvar(src);
      this.prevExTs = exchangeTs;
      if (type === REC_SETTINGS) {
        this.settingsRecord(src, index, exchangeTs);
        if (!restated || this.withRestated) {
          this.set(RecordKind.SETTINGS, exchangeTs, localTs, restated);
          return true;
        }
        continue;
      }
      const st = this.tableState(index, 'record for unknown token index');
      const token = this.table[index] as number;
      if (type === REC_DELTA) {
        this.deltaRecord(src, st, exchangeTs);
        this.token = token;
        this.set(RecordKind.DELTA, exchangeTs, localTs, false);
        return true;
      }
      if (type === REC_BOOK) {
        this.bookRecord(src, st, exchangeTs, this.defer && (!restated || this.withRestated));
        if (!restated || this.withRestated) {
          this.token = token;
          this.set(RecordKind.BOOK, exchangeTs, localTs, restated);
          return true;
        }
        continue;
      }
      if (type === REC_TRADE) {
        const v = readUvar(src);
        const price = Math.floor(v / 2);
        if (price <= 0) throw new RecordingFormatError('trade price out of range');
        this.price = price;
        this.size = readSize(src);
        this.takerSide = v % 2;
      } else if (type === REC_MID) {
        this.mid = readUvar(src);
      } else if (type === REC_RESOLVED) {
        this.conditionId = st.settings.conditionId;
      } else {
        throw new RecordingFormatError(`unknown record type ${type}`);
      }
      this.token = token;
      this.set(type as RecordKind, exchangeTs, localTs, false);
      return true;
    }
  }

  // ---- records ----

  private set(kind: RecordKind, exchangeTs: number, localTs: number, restated: boolean): void {
    this.kind = kind;
    this.exchangeTs = exchangeTs;
    this.localTs = localTs;
    this.restated = restated;
  }

  /** Applies a SETTINGS record: a new token gets the next dense number; the chunk's table maps `index` to it. */
  private settingsRecord(src: ByteSource, index: number, exchangeTs: number): void {
    const settings = readSettings(src);
    const grid = src.uvar();
    if (grid === 0) throw new RecordingFormatError('zero price grid');
    let token = this.numbers.get(settings.tokenId);
    if (token === undefined) {
      token = this.tokens.length;
      this.tokens.push(new TokenState(settings, grid, exchangeTs));
      this.numbers.set(settings.tokenId, token);
    } else {
      const st = this.tokens[token] as TokenState;
      st.settings = settings;
      st.grid = grid;
    }
    if (index === this.tableLen) {
      if (index === this.table.length) {
        const t = new Int32Array(this.table.length * 2);
        t.set(this.table);
        this.table = t;
      }
      this.table[index] = token;
      this.tableLen++;
    } else if (index < this.tableLen) {
      this.table[index] = token;
    } else {
      throw new RecordingFormatError(`settings record skips token index ${this.tableLen}`);
    }
    this.token = token;
    this.currentSettings = settings;
  }

  private bookRecord(src: ByteSource, st: TokenState, exchangeTs: number, defer: boolean): void {
    const hash = src.str();
    const ltp = src.uvar();
    const lastTradePrice = ltp === 0 ? -1 : ltp - 1;
    const nb = src.uvar();
    let bid: { px: Float64Array; sz: Float64Array };
    let ask: { px: Float64Array; sz: Float64Array };
    if (defer) {
      // Decoded beside the ladder: commit() copies it in.
      bid = sized(this.owedBid, nb);
      readSideInto(src, nb, st.grid, true, bid.px, bid.sz);
      this.owedBid.n = nb;
      const na = src.uvar();
      ask = sized(this.owedAsk, na);
      readSideInto(src, na, st.grid, false, ask.px, ask.sz);
      this.owedAsk.n = na;
      this.owe(st, RecordKind.BOOK, exchangeTs);
      this.owedHash = hash;
      this.owedLtp = lastTradePrice;
      this.askCount = na;
    } else {
      st.reserveBids(nb);
      readSideInto(src, nb, st.grid, true, st.bidPrice, st.bidSize);
      st.bidCount = nb;
      const na = src.uvar();
      st.reserveAsks(na);
      readSideInto(src, na, st.grid, false, st.askPrice, st.askSize);
      st.askCount = na;
      st.version++;
      st.exTs = exchangeTs;
      st.hash = hash;
      st.lastTradePrice = lastTradePrice;
      bid = { px: st.bidPrice, sz: st.bidSize };
      ask = { px: st.askPrice, sz: st.askSize };
      this.askCount = na;
    }
    this.hash = hash;
    this.lastTradePrice = lastTradePrice;
    this.bidCount = nb;
    this.bidPrice = bid.px;
    this.bidSize = bid.sz;
    this.askPrice = ask.px;
    this.askSize = ask.sz;
  }

  private deltaRecord(src: ByteSource, st: TokenState, exchangeTs: number): void {
    const n = readUvar(src);
    if (n > this.changePrice.length) {
      const cap = Math.max(n, this.changePrice.length * 2);
      this.changePrice = new Float64Array(cap);
      this.changeSize = new Float64Array(cap);
      this.changeIsAsk = new Uint8Array(cap);
    }
    const grid = st.grid;
    const cp = this.changePrice;
    const cs = this.changeSize;
    const ca = this.changeIsAsk;
    for (let i = 0; i < n; i++) {
      const v = readUvar(src);
      const isAsk = v % 2;
      cp[i] = ((v - isAsk) / 2) * grid;
      cs[i] = readSize(src);
      ca[i] = isAsk;
    }
    this.changeCount = n;
    if (this.defer) {
      this.owe(st, RecordKind.DELTA, exchangeTs);
      return;
    }
    for (let i = 0; i < n; i++) st.set(ca[i] === 1, cp[i] as number, cs[i] as number);
    st.version++;
    st.hash = '';
    st.exTs = exchangeTs;
  }

  private owe(st: TokenState, kind: RecordKind, exchangeTs: number): void {
    this.owed = st;
    this.owedKind = kind;
    this.owedExTs = exchangeTs;
  }

  private tableState(index: number, what: string): TokenState {
    if (index >= this.tableLen) throw new RecordingFormatError(`${what} ${index}`);
    return this.tokens[this.table[index] as number] as TokenState;
  }

  private state(token: number): TokenState {
    const st = this.tokens[token];
    if (st === undefined) throw new InvariantError(`no token number ${token} in this recording`);
    return st;
  }

  private bookAt(st: TokenState): () => Book {
    const version = st.version;
    const token = this.token;
    return () => {
      if (st.version !== version)
        throw new InvariantError(`book() of ${st.settings.tokenId} called after a later change was read`);
      return this.book(token);
    };
  }

  // ---- framing (as frames.ts, synchronously) ----

  private get left(): number {
    return this.pending.end - this.pending.start;
  }

  private readHeader(): void {
    for (;;) {
      const n = Math.min(this.left, 4);
      if (!this.pending.buf.subarray(this.pending.start, this.pending.start + n).equals(MAGIC.subarray(0, n)))
        throw new RecordingFormatError('not an oddsmaker recording (bad magic)');
      if (this.left >= HEADER_BYTES) {
        this.codec = decodeHeader(this.pending.buf.subarray(this.pending.start, this.pending.start + HEADER_BYTES));
        this.pending.start += HEADER_BYTES;
        this.validBytes = HEADER_BYTES;
        return;
      }
      if (!this.input.more(this.pending)) {
        this.finish('truncated', this.pending.read === 0 ? 'empty file' : 'file ends inside the header', 0);
        return;
      }
    }
  }

  private finish(
    status: TailReport['status'],
    reason: string,
    validBytes = this.validBytes,
    fileBytes = this.pending.read,
  ): void {
    this.report = { status, codec: this.codec, chunks: this.goodChunks, validBytes, fileBytes, reason };
    this.src = EMPTY_SOURCE;
    this.input.close();
  }

  /** Verifies, decompresses and enters the next chunk; false (with the tail filled in) at the end. */
  private nextChunk(): boolean {
    if (this.report !== null) return false;
    for (;;) {
      if (this.left >= CHUNK_HEADER_BYTES) {
        const at = this.pending.start;
        const len = this.pending.buf.readUInt32LE(at);
        const rawLength = this.pending.buf.readUInt32LE(at + 4);
        if (len > MAX_CHUNK_BYTES || rawLength > MAX_CHUNK_BYTES) {
          this.finish('corrupt', `chunk at byte ${this.validBytes} declares an impossible length`);
          return false;
        }
        if (this.left >= CHUNK_HEADER_BYTES + len) {
          const payload = this.pending.buf.subarray(at + CHUNK_HEADER_BYTES, at + CHUNK_HEADER_BYTES + len);
          if (
            chunkCrcNative(this.pending.buf.subarray(at + 4, at + 8), payload) !== this.pending.buf.readUInt32LE(at + 8)
          ) {
            this.finish('corrupt', `chunk at byte ${this.validBytes} fails its CRC`);
            return false;
          }
          const offset = this.validBytes;
          this.pending.start += CHUNK_HEADER_BYTES + len;
          this.validBytes += CHUNK_HEADER_BYTES + len;
          let raw: Buffer;
          try {
            // One output buffer of the declared size: zlib's default 16 KiB pieces would be
            // concatenated afterwards (a copy of every chunk). A wrong declaration still fails below.
            const chunkSize = Math.max(64, rawLength);
            raw =
              this.codec === 'brotli'
                ? brotliDecompressSync(payload, { chunkSize })
                : inflateRawSync(payload, { chunkSize });
          } catch {
            raw = EMPTY;
          }
          if (raw.length !== rawLength || raw.length === 0) {
            // The CRC matched, so the writer sealed a payload it could not have produced: stop here.
            this.finish(
              'corrupt',
              `chunk at byte ${offset} does not decompress to its declared length`,
              offset,
              this.validBytes,
            );
            return false;
          }
          this.goodChunks++;
          this.src = new ByteSource(raw);
          this.prevExTs = 0;
          this.tableLen = 0;
          return true;
        }
      }
      if (!this.input.more(this.pending)) {
        const left = this.left;
        if (left > 0) this.finish('truncated', `${left} bytes of an unfinished chunk at byte ${this.validBytes}`);
        else this.finish('complete', '');
        return false;
      }
    }
  }
}

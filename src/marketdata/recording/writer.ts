// Writes recordings (layout in FORMAT.md). RecordingEncoder turns observations into sealed,
// self-contained chunks handed to a sink; RecordingWriter appends them to a file. Invariants:
// - a token's settings come before any book, delta or mid of it (else InvariantError), because
//   the tick grid and condition id that books are encoded and rebuilt with live there;
// - every chunk can be decoded alone: the first time a chunk mentions a token it restates the
//   token's settings (and its current book when the record needs it), flagged RESTATE so readers
//   do not report them as new observations; timestamps delta-encode from 0 at each chunk start;
// - each price is a multiple of the token's grid (the tick at first): a price off the grid
//   (a tick change to a coarser tick leaves finer levels) refines the grid to the gcd with a GRID
//   record, never a lossy rounding;
// - the file is append-only: reopening a file first cuts a crash-truncated or damaged tail back
//   to the last complete chunk, so new chunks never land after garbage.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { brotliCompressSync, constants as zc, deflateRawSync } from 'node:zlib';
import { sortLevels, type Level } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import { SCALE, type Price } from '../../core/money.js';
import {
  ByteSink,
  CHUNK_HEADER_BYTES,
  chunkCrc,
  encodeHeader,
  gcd,
  HEADER_BYTES,
  REC_BOOK,
  REC_DELTA,
  REC_GRID,
  REC_MID,
  REC_RESOLVED,
  REC_RESTATE,
  REC_SETTINGS,
  REC_TRADE,
  SIZE_LOT,
  type Codec,
  type LevelChange,
  type RecordedMarketSettings,
  type TradeObservation,
} from './format.js';
import { scanRecording, type TailReport } from './frames.js';
import { Ladder } from './ladder.js';

/** A full book observation: levels best-first or in any order (they are sorted and checked). */
export interface BookObservation {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  /** The exchange's hash of the book, "" when none. */
  readonly hash?: string;
  readonly lastTradePrice?: Price | null;
}

/** What importers and the recorder write to: RecordingEncoder and RecordingWriter both are one. */
export interface RecordSink {
  settingsOf(tokenId: string): RecordedMarketSettings | undefined;
  settings(s: RecordedMarketSettings, exchangeTs: number, localTs: number): void;
  book(tokenId: string, exchangeTs: number, localTs: number, book: BookObservation): void;
  delta(tokenId: string, exchangeTs: number, localTs: number, changes: readonly LevelChange[]): void;
  mid(tokenId: string, exchangeTs: number, localTs: number, mid: Price): void;
  /** Optional so that book-only sinks stay valid; a source of trades skips them without it. */
  trade?(tokenId: string, exchangeTs: number, localTs: number, trade: TradeObservation): void;
  /** The market `conditionId` resolved and `winnerTokenId` (a token with settings) won. */
  resolved?(conditionId: string, winnerTokenId: string, exchangeTs: number, localTs: number): void;
}

export interface EncoderOptions {
  readonly codec?: Codec;
  /** A chunk is sealed once its uncompressed records reach this many bytes. Default 64 KiB. */
  readonly chunkBytes?: number;
}

export interface EncoderStats {
  records: number;
  /** Book and delta level changes plus mids: the "updates" of recording_bytes_per_update. */
  updates: number;
  /** TRADE records (not counted as updates: they are not book observations). */
  trades: number;
  chunks: number;
  /** Bytes of sealed chunks, framing included (the file header excluded). */
  bytes: number;
}

interface TokenState {
  settings: RecordedMarketSettings;
  grid: number;
  ladder: Ladder;
  hasBook: boolean;
  exTs: number;
  localTs: number;
  hash: string;
  lastTradePrice: Price | null;
}

interface ChunkEntry {
  index: number;
  bookStated: boolean;
}

function checkTs(v: number, what: string): void {
  if (!Number.isSafeInteger(v)) throw new InvariantError(`${what} is not a safe integer: ${String(v)}`);
}

function checkPrice(p: number): void {
  if (!Number.isSafeInteger(p) || p <= 0 || p >= SCALE)
    throw new InvariantError(`price out of range (0, 1): ${String(p)}`);
}

function optNonNeg(v: number | null, what: string): void {
  if (v !== null && (!Number.isSafeInteger(v) || v < 0))
    throw new InvariantError(`${what} must be a non-negative integer: ${String(v)}`);
}

export class RecordingEncoder implements RecordSink {
  readonly codec: Codec;
  readonly stats: EncoderStats = { records: 0, updates: 0, trades: 0, chunks: 0, bytes: 0 };
  private readonly chunkBytes: number;
  private readonly tokens = new Map<string, TokenState>();
  private readonly chunk = new Map<string, ChunkEntry>();
  private readonly raw = new ByteSink();
  private prevExTs = 0;

  constructor(
    private readonly emit: (chunk: Buffer) => void,
    opts: EncoderOptions = {},
  ) {
    this.codec = opts.codec ?? 'deflate-raw';
    this.chunkBytes = opts.chunkBytes ?? 64 * 1024;
    if (!(this.chunkBytes > 0)) throw new InvariantError('chunkBytes must be positive');
  }

  settingsOf(tokenId: string): RecordedMarketSettings | undefined {
    return this.tokens.get(tokenId)?.settings;
  }

  settings(s: RecordedMarketSettings, exchangeTs: number, localTs: number): void {
    checkTs(exchangeTs, 'exchangeTs');
    checkTs(localTs, 'localTs');
    if (s.tickSize !== null) checkPrice(s.tickSize);
    optNonNeg(s.minOrderSize, 'minOrderSize');
    optNonNeg(s.makerFeeBps, 'makerFeeBps');
    optNonNeg(s.takerFeeBps, 'takerFeeBps');
    if (s.rewards !== null) {
      optNonNeg(s.rewards.dailyRate, 'rewards.dailyRate');
      optNonNeg(s.rewards.minSize, 'rewards.minSize');
      optNonNeg(s.rewards.maxSpread, 'rewards.maxSpread');
    }
    let st = this.tokens.get(s.tokenId);
    if (st === undefined) {
      st = {
        settings: s,
        grid: s.tickSize ?? 10_000,
        ladder: new Ladder(),
        hasBook: false,
        exTs: exchangeTs,
        localTs,
        hash: '',
        lastTradePrice: null,
      };
      this.tokens.set(s.tokenId, st);
    } else {
      st.settings = s;
      // A new tick may be finer than the grid the book was encoded on.
      if (s.tickSize !== null && s.tickSize % st.grid !== 0) st.grid = gcd(st.grid, s.tickSize);
    }
    let entry = this.chunk.get(s.tokenId);
    if (entry === undefined) {
      // The settings record itself introduces the token to the chunk; restate only its book.
      entry = { index: this.chunk.size, bookStated: false };
      this.chunk.set(s.tokenId, entry);
    }
    this.prefix(REC_SETTINGS, entry.index, exchangeTs, localTs);
    this.writeSettings(st);
    if (!entry.bookStated && st.hasBook) this.restateBook(st, entry);
    this.done(0);
  }

  book(tokenId: string, exchangeTs: number, localTs: number, obs: BookObservation): void {
    checkTs(exchangeTs, 'exchangeTs');
    checkTs(localTs, 'localTs');
    const st = this.known(tokenId);
    const bids = obs.bids.slice();
    const asks = obs.asks.slice();
    const pb = sortLevels(bids, 'bids');
    if (pb !== null) throw new InvariantError(`bids[${pb.index}]: ${pb.reason}`);
    const pa = sortLevels(asks, 'asks');
    if (pa !== null) throw new InvariantError(`asks[${pa.index}]: ${pa.reason}`);
    for (const l of bids) checkSize(l.size, false);
    for (const l of asks) checkSize(l.size, false);
    const ltp = obs.lastTradePrice ?? null;
    if (ltp !== null && (!Number.isSafeInteger(ltp) || ltp < 0 || ltp > SCALE))
      throw new InvariantError(`lastTradePrice out of range: ${String(ltp)}`);
    const entry = this.enterWithGrid(
      st,
      tokenId,
      bids.concat(asks).map((l) => l.price),
      false,
    );
    this.prefix(REC_BOOK, entry.index, exchangeTs, localTs);
    st.ladder.replace(bids, asks);
    st.hasBook = true;
    st.exTs = exchangeTs;
    st.localTs = localTs;
    st.hash = obs.hash ?? '';
    st.lastTradePrice = ltp;
    this.writeBook(st);
    entry.bookStated = true;
    this.done(bids.length + asks.length);
  }

  delta(tokenId: string, exchangeTs: number, localTs: number, changes: readonly LevelChange[]): void {
    checkTs(exchangeTs, 'exchangeTs');
    checkTs(localTs, 'localTs');
    const st = this.known(tokenId);
    for (const c of changes) {
      checkPrice(c.price);
      checkSize(c.size, true);
      if (c.side !== 'bids' && c.side !== 'asks') throw new InvariantError(`unknown side ${String(c.side)}`);
    }
    const entry = this.enterWithGrid(
      st,
      tokenId,
      changes.map((c) => c.price),
      true,
    );
    this.prefix(REC_DELTA, entry.index, exchangeTs, localTs);
    const out = this.raw;
    out.uvar(changes.length);
    for (const c of changes) {
      out.uvar((c.price / st.grid) * 2 + (c.side === 'asks' ? 1 : 0));
      writeSize(out, c.size);
      st.ladder.set(c.side, c.price, c.size);
    }
    st.hasBook = true;
    st.exTs = exchangeTs;
    st.localTs = localTs;
    st.hash = '';
    this.done(changes.length);
  }

  mid(tokenId: string, exchangeTs: number, localTs: number, mid: Price): void {
    checkTs(exchangeTs, 'exchangeTs');
    checkTs(localTs, 'localTs');
    checkPrice(mid);
    const st = this.known(tokenId);
    const entry = this.enter(st, tokenId, false);
    this.prefix(REC_MID, entry.index, exchangeTs, localTs);
    this.raw.uvar(mid);
    this.done(1);
  }

  trade(tokenId: string, exchangeTs: number, localTs: number, t: TradeObservation): void {
    checkTs(exchangeTs, 'exchangeTs');
    checkTs(localTs, 'localTs');
    checkPrice(t.price);
    checkSize(t.size, false);
    if (t.side !== 'BUY' && t.side !== 'SELL') throw new InvariantError(`unknown taker side ${String(t.side)}`);
    const st = this.known(tokenId);
    const entry = this.enter(st, tokenId, false);
    this.prefix(REC_TRADE, entry.index, exchangeTs, localTs);
    // Trade prices need not sit on the tick grid (data API prices are whatever matched): raw µ.
    this.raw.uvar(t.price * 2 + (t.side === 'SELL' ? 1 : 0));
    writeSize(this.raw, t.size);
    this.stats.trades++;
    this.done(0);
  }

  resolved(conditionId: string, winnerTokenId: string, exchangeTs: number, localTs: number): void {
    checkTs(exchangeTs, 'exchangeTs');
    checkTs(localTs, 'localTs');
    const st = this.known(winnerTokenId);
    if (st.settings.conditionId !== conditionId) {
      throw new InvariantError(
        `token ${winnerTokenId} belongs to market ${st.settings.conditionId}, not ${conditionId}`,
      );
    }
    const entry = this.enter(st, winnerTokenId, false);
    this.prefix(REC_RESOLVED, entry.index, exchangeTs, localTs);
    this.done(0);
  }

  /** Seals the records buffered so far into a chunk (no-op when there are none). */
  flush(): void {
    if (this.raw.len === 0) return;
    const raw = this.raw.bytes();
    const payload =
      this.codec === 'brotli'
        ? brotliCompressSync(raw, { params: { [zc.BROTLI_PARAM_QUALITY]: 9, [zc.BROTLI_PARAM_SIZE_HINT]: raw.length } })
        : deflateRawSync(raw, { level: 9 });
    const frame = Buffer.allocUnsafe(CHUNK_HEADER_BYTES + payload.length);
    frame.writeUInt32LE(payload.length, 0);
    frame.writeUInt32LE(raw.length, 4);
    frame.writeUInt32LE(chunkCrc(frame.subarray(4, 8), payload), 8);
    payload.copy(frame, CHUNK_HEADER_BYTES);
    this.raw.reset();
    this.chunk.clear();
    this.prevExTs = 0;
    this.stats.chunks++;
    this.stats.bytes += frame.length;
    this.emit(frame);
  }

  private known(tokenId: string): TokenState {
    const st = this.tokens.get(tokenId);
    if (st === undefined) throw new InvariantError(`no settings recorded for token ${tokenId} before its first book`);
    return st;
  }

  /** Refines the grid so every price is on it, then enters the token into the chunk. */
  private enterWithGrid(st: TokenState, tokenId: string, prices: readonly number[], needBook: boolean): ChunkEntry {
    let grid = st.grid;
    for (const p of prices) if (p % grid !== 0) grid = gcd(grid, p);
    const changed = grid !== st.grid;
    st.grid = grid;
    const inChunk = this.chunk.get(tokenId);
    if (changed && inChunk !== undefined) {
      this.raw.u8(REC_GRID);
      this.raw.uvar(inChunk.index);
      this.raw.uvar(grid);
      this.stats.records++;
    }
    return this.enter(st, tokenId, needBook);
  }

  /** Makes the token known to the current chunk, restating settings (and book) on first use. */
  private enter(st: TokenState, tokenId: string, needBook: boolean): ChunkEntry {
    let entry = this.chunk.get(tokenId);
    if (entry === undefined) {
      entry = { index: this.chunk.size, bookStated: false };
      this.chunk.set(tokenId, entry);
      this.prefix(REC_SETTINGS | REC_RESTATE, entry.index, st.exTs, st.localTs);
      this.writeSettings(st);
      this.stats.records++;
    }
    if (needBook && !entry.bookStated) this.restateBook(st, entry);
    return entry;
  }

  private restateBook(st: TokenState, entry: ChunkEntry): void {
    entry.bookStated = true;
    if (!st.hasBook) return;
    this.prefix(REC_BOOK | REC_RESTATE, entry.index, st.exTs, st.localTs);
    this.writeBook(st);
    this.stats.records++;
  }

  private prefix(tag: number, index: number, exTs: number, localTs: number): void {
    const out = this.raw;
    out.u8(tag);
    out.uvar(index);
    out.svar(exTs - this.prevExTs);
    out.svar(localTs - exTs);
    this.prevExTs = exTs;
  }

  private writeSettings(st: TokenState): void {
    const out = this.raw;
    const s = st.settings;
    out.str(s.tokenId);
    out.str(s.conditionId);
    out.uvar(s.tickSize ?? 0);
    out.uvar(s.minOrderSize === null ? 0 : s.minOrderSize + 1);
    out.u8(s.negRisk === null ? 0 : s.negRisk ? 2 : 1);
    out.uvar(s.makerFeeBps === null ? 0 : s.makerFeeBps + 1);
    out.uvar(s.takerFeeBps === null ? 0 : s.takerFeeBps + 1);
    if (s.rewards === null) {
      out.u8(0);
    } else {
      out.u8(1);
      out.uvar(s.rewards.dailyRate);
      out.uvar(s.rewards.minSize);
      out.uvar(s.rewards.maxSpread);
    }
    out.uvar(st.grid);
  }

  private writeBook(st: TokenState): void {
    const out = this.raw;
    out.str(st.hash);
    out.uvar(st.lastTradePrice === null ? 0 : st.lastTradePrice + 1);
    writeSide(out, st.ladder.bids, st.grid, true);
    writeSide(out, st.ladder.asks, st.grid, false);
  }

  private done(updates: number): void {
    this.stats.records++;
    this.stats.updates += updates;
    if (this.raw.len >= this.chunkBytes) this.flush();
  }
}

function checkSize(size: number, zeroOk: boolean): void {
  if (!Number.isSafeInteger(size) || size < 0 || (!zeroOk && size === 0))
    throw new InvariantError(`invalid size ${String(size)}`);
}

/** Lots of 0.01 share when exact (low bit 0), else raw millionths (low bit 1). */
function writeSize(out: ByteSink, size: number): void {
  if (size % SIZE_LOT === 0) out.uvar((size / SIZE_LOT) * 2);
  else out.uvar(size * 2 + 1);
}

/** Count, first level index, then gaps between consecutive indices minus one (sides are strict). */
function writeSide(out: ByteSink, levels: readonly Level[], grid: number, desc: boolean): void {
  out.uvar(levels.length);
  let prev = 0;
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i] as Level;
    const idx = l.price / grid;
    out.uvar(i === 0 ? idx : (desc ? prev - idx : idx - prev) - 1);
    writeSize(out, l.size);
    prev = idx;
  }
}

export interface WriterOptions extends EncoderOptions {}

/**
 * Appends a recording to a file. Record methods buffer synchronously; sealed chunks are written
 * in order in the background; flush() seals the open chunk and waits for every write, so after it
 * resolves a crash loses nothing already recorded. A resumed file starts with no token state: send
 * each token's settings and a full book again before its deltas.
 */
export class RecordingWriter implements RecordSink {
  private writes: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private closed = false;

  private constructor(
    private readonly fh: FileHandle,
    private position: number,
    readonly encoder: RecordingEncoder,
    /** What reopening found and cut: null for a new file. */
    readonly recovered: TailReport | null,
  ) {}

  static async open(path: string, opts: WriterOptions = {}): Promise<RecordingWriter> {
    let size = 0;
    try {
      size = (await stat(path)).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    let recovered: TailReport | null = null;
    let codec: Codec = opts.codec ?? 'deflate-raw';
    let fh: FileHandle;
    let position: number;
    if (size > 0) {
      recovered = await scanRecording(path);
      fh = await open(path, 'r+');
      if (recovered.codec === null) {
        // Not even a whole header survived: start the file again.
        await fh.truncate(0);
        position = 0;
      } else {
        codec = recovered.codec;
        await fh.truncate(recovered.validBytes);
        position = recovered.validBytes;
      }
    } else {
      fh = await open(path, 'w');
      position = 0;
    }
    if (position === 0) {
      const header = encodeHeader(codec);
      await fh.write(header, 0, HEADER_BYTES, 0);
      position = HEADER_BYTES;
    }
    let writer: RecordingWriter | null = null;
    const encoder = new RecordingEncoder((chunk) => (writer as RecordingWriter).enqueue(chunk), { ...opts, codec });
    writer = new RecordingWriter(fh, position, encoder, recovered);
    return writer;
  }

  settingsOf(tokenId: string): RecordedMarketSettings | undefined {
    return this.encoder.settingsOf(tokenId);
  }
  settings(s: RecordedMarketSettings, exchangeTs: number, localTs: number): void {
    this.live();
    this.encoder.settings(s, exchangeTs, localTs);
  }
  book(tokenId: string, exchangeTs: number, localTs: number, book: BookObservation): void {
    this.live();
    this.encoder.book(tokenId, exchangeTs, localTs, book);
  }
  delta(tokenId: string, exchangeTs: number, localTs: number, changes: readonly LevelChange[]): void {
    this.live();
    this.encoder.delta(tokenId, exchangeTs, localTs, changes);
  }
  mid(tokenId: string, exchangeTs: number, localTs: number, mid: Price): void {
    this.live();
    this.encoder.mid(tokenId, exchangeTs, localTs, mid);
  }

  trade(tokenId: string, exchangeTs: number, localTs: number, trade: TradeObservation): void {
    this.live();
    this.encoder.trade(tokenId, exchangeTs, localTs, trade);
  }
  resolved(conditionId: string, winnerTokenId: string, exchangeTs: number, localTs: number): void {
    this.live();
    this.encoder.resolved(conditionId, winnerTokenId, exchangeTs, localTs);
  }

  /** Seals the open chunk and waits until every chunk is written. */
  async flush(): Promise<void> {
    this.live();
    this.encoder.flush();
    await this.writes;
    if (this.failure !== null) throw this.failure;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.fh.close();
    }
  }

  private live(): void {
    if (this.closed) throw new InvariantError('recording writer is closed');
    if (this.failure !== null) throw this.failure;
  }

  private enqueue(chunk: Buffer): void {
    const at = this.position;
    this.position += chunk.length;
    this.writes = this.writes.then(async () => {
      if (this.failure !== null) return;
      try {
        await this.fh.write(chunk, 0, chunk.length, at);
      } catch (e) {
        this.failure = e;
      }
    });
  }
}

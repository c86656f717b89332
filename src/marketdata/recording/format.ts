// The recording file format (byte layout in FORMAT.md): constants, the domain types a recording
// holds, varints, zigzag and CRC-32. Invariants kept here:
// - a file is an 8-byte header (magic "OMRC", version, codec, 2 reserved zero bytes) followed by
//   self-contained chunks; a chunk is [u32 LE compressed length][u32 LE raw length][u32 LE CRC-32
//   of the raw-length field and the compressed bytes][compressed payload], so a reader detects a
//   cut-off or damaged tail from the framing alone, without decompressing;
// - every number written is a safe non-negative integer (varint) or a safe integer (zigzag
//   varint); varints are arithmetic, not bitwise, because epoch milliseconds exceed 32 bits;
// - the writer and the reader share these tags, so a change here is a version change.
import type { BookSide } from '../../core/book.js';
import { OddsmakerError } from '../../core/errors.js';
import type { Micros, Price, Shares } from '../../core/money.js';
import type { Side } from '../../core/order.js';

export const MAGIC = Buffer.from('OMRC', 'latin1');
export const VERSION = 1;
export const HEADER_BYTES = 8;
export const CHUNK_HEADER_BYTES = 12;
/** Larger declared chunk lengths are treated as corruption (a writer never produces them). */
export const MAX_CHUNK_BYTES = 64 * 1024 * 1024;

export type Codec = 'deflate-raw' | 'brotli';
export const CODEC_IDS: Readonly<Record<Codec, number>> = { 'deflate-raw': 1, brotli: 2 };

/** Record types: the low nibble of a record's tag byte. */
export const REC_SETTINGS = 1;
export const REC_BOOK = 2;
export const REC_DELTA = 3;
export const REC_MID = 4;
export const REC_GRID = 5;
/** A public trade on the token (price, size, the taker's side). */
export const REC_TRADE = 6;
/** The token's market resolved and this token won. */
export const REC_RESOLVED = 7;
/** Tag bit: a chunk-start restatement of a token's settings or book (not a new observation). */
export const REC_RESTATE = 0x10;

/** Sizes are stored in lots of 0.01 share when they divide exactly, else in raw millionths. */
export const SIZE_LOT = 10_000;

/** Error of a file that is not a recording we can read (bad magic, unknown version or codec). */
export class RecordingFormatError extends OddsmakerError {
  constructor(message: string) {
    super('RECORDING_FORMAT', message, false);
  }
}

export interface RecordedRewards {
  /** Daily reward pool for the market, collateral millionths. */
  readonly dailyRate: Micros;
  readonly minSize: Shares;
  /** Maximum distance from the mid that earns rewards, price millionths (1.5 cents = 15000). */
  readonly maxSpread: Price;
}

/**
 * What a recording knows about one outcome token's market. Unknown values are null. Not the core's
 * MarketSettings (src/core/market-settings.ts, per market, what quoting uses): this is per token and
 * holds only what a recording can restate.
 */
export interface RecordedMarketSettings {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly tickSize: Price | null;
  readonly minOrderSize: Shares | null;
  readonly negRisk: boolean | null;
  readonly makerFeeBps: number | null;
  readonly takerFeeBps: number | null;
  readonly rewards: RecordedRewards | null;
}

/** A public trade: `side` is the taker's (aggressor's) side — BUY lifted asks, SELL hit bids. */
export interface TradeObservation {
  readonly price: Price;
  readonly size: Shares;
  readonly side: Side;
}

/** One price level's new size; size 0 removes the level. */
export interface LevelChange {
  readonly side: BookSide;
  readonly price: Price;
  readonly size: Shares;
}

// ---- varints -------------------------------------------------------------------------------

/** Growable byte buffer for encoding one chunk's records. */
export class ByteSink {
  buf: Buffer;
  len = 0;
  constructor(initial = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initial);
  }
  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.len++] = v;
  }
  /** Unsigned LEB128 of a safe non-negative integer. */
  uvar(v: number): void {
    this.ensure(8);
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
  }
  /** Zigzag then LEB128 of a safe integer: small magnitudes of either sign stay small. */
  svar(v: number): void {
    this.uvar(v >= 0 ? v * 2 : -v * 2 - 1);
  }
  str(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.uvar(n);
    this.ensure(n);
    this.buf.write(s, this.len, 'utf8');
    this.len += n;
  }
  reset(): void {
    this.len = 0;
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

/** Reads what ByteSink wrote; any overrun throws RecordingFormatError (a corrupt payload). */
export class ByteSource {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  u8(): number {
    const v = this.buf[this.pos++];
    if (v === undefined) throw new RecordingFormatError('record runs past the end of its chunk');
    return v;
  }
  uvar(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = this.u8();
      v += (b & 0x7f) * mul;
      if (b < 0x80) break;
      mul *= 0x80;
      if (mul > 2 ** 56) throw new RecordingFormatError('varint too long');
    }
    if (!Number.isSafeInteger(v)) throw new RecordingFormatError('varint exceeds the safe integer range');
    return v;
  }
  svar(): number {
    const z = this.uvar();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
  str(): string {
    const n = this.uvar();
    if (this.pos + n > this.buf.length) throw new RecordingFormatError('string runs past the end of its chunk');
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
}

// ---- CRC-32 (IEEE 802.3, as zip/gzip) ------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `bytes`, continuing from `crc` (0 to start). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The CRC stored in a chunk header: over the raw-length field's 4 bytes, then the payload. */
export function chunkCrc(rawLenField: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(rawLenField));
}

export function encodeHeader(codec: Codec): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(h, 0);
  h[4] = VERSION;
  h[5] = CODEC_IDS[codec];
  return h;
}

/** Parses the 8-byte header; throws RecordingFormatError on a file that is not a recording. */
export function decodeHeader(h: Buffer): Codec {
  if (h.length < HEADER_BYTES || !h.subarray(0, 4).equals(MAGIC))
    throw new RecordingFormatError('not an oddsmaker recording (bad magic)');
  if (h[4] !== VERSION) throw new RecordingFormatError(`unsupported recording version ${String(h[4])}`);
  const id = h[5];
  if (id === 1) return 'deflate-raw';
  if (id === 2) return 'brotli';
  throw new RecordingFormatError(`unknown codec id ${String(id)}`);
}

export function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Field-by-field equality of two settings (importers record settings only when they change). */
export function sameSettings(a: RecordedMarketSettings, b: RecordedMarketSettings): boolean {
  const ra = a.rewards;
  const rb = b.rewards;
  const rewardsEqual =
    ra === null || rb === null
      ? ra === rb
      : ra.dailyRate === rb.dailyRate && ra.minSize === rb.minSize && ra.maxSpread === rb.maxSpread;
  return (
    a.tokenId === b.tokenId &&
    a.conditionId === b.conditionId &&
    a.tickSize === b.tickSize &&
    a.minOrderSize === b.minOrderSize &&
    a.negRisk === b.negRisk &&
    a.makerFeeBps === b.makerFeeBps &&
    a.takerFeeBps === b.takerFeeBps &&
    rewardsEqual
  );
}

// Record-body decoders shared by RecordingReader (reader.ts, events of objects) and
// RecordingCursor (cursor.ts, typed arrays): the size encoding, a BOOK side and a SETTINGS body
// (byte layout in FORMAT.md). Invariants: both readers decode every body through these helpers,
// so they cannot disagree on a value; a level index ≤ 0 in a BOOK side is a corrupt record
// (RecordingFormatError), as every price lies in (0, 1).
import type { Level } from '../../core/book.js';
import type { Price, Shares } from '../../core/money.js';
import { RecordingFormatError, SIZE_LOT, type ByteSource, type RecordedMarketSettings } from './format.js';

/**
 * ByteSource.uvar with the one- to three-byte cases inline (level indices, lot sizes, time
 * deltas: < 2^21, so int32 arithmetic is exact): the same value, ByteSource's general path (and
 * its overrun and range errors) for the rest.
 */
export function readUvar(src: ByteSource): number {
  const buf = src.buf;
  const pos = src.pos;
  const b0 = buf[pos];
  if (b0 !== undefined && b0 < 0x80) {
    src.pos = pos + 1;
    return b0;
  }
  if (b0 !== undefined) {
    const b1 = buf[pos + 1];
    if (b1 !== undefined && b1 < 0x80) {
      src.pos = pos + 2;
      return (b0 & 0x7f) | (b1 << 7);
    }
    const b2 = buf[pos + 2];
    if (b1 !== undefined && b2 !== undefined && b2 < 0x80) {
      src.pos = pos + 3;
      return (b0 & 0x7f) | ((b1 & 0x7f) << 7) | (b2 << 14);
    }
  }
  return src.uvar();
}

/** ByteSource.svar over readUvar: zigzag-decoded. */
export function readSvar(src: ByteSource): number {
  const z = readUvar(src);
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

/** A size: lots of 0.01 share when the low bit is 0, else raw millionths. */
export function readSize(src: ByteSource): Shares {
  const v = readUvar(src);
  return (v % 2 === 0 ? (v / 2) * SIZE_LOT : (v - 1) / 2) as Shares;
}

/** The level index after `prev` given a side's stored gap (first level: the index itself). */
function nextIndex(first: boolean, prev: number, v: number, desc: boolean): number {
  const idx = first ? v : desc ? prev - v - 1 : prev + v + 1;
  if (idx <= 0) throw new RecordingFormatError('book level below the price grid');
  return idx;
}

/** One BOOK side as Level objects, best first. */
export function readSide(src: ByteSource, grid: number, desc: boolean): Level[] {
  const n = src.uvar();
  const out = new Array<Level>(n);
  let idx = 0;
  for (let i = 0; i < n; i++) {
    idx = nextIndex(i === 0, idx, src.uvar(), desc);
    out[i] = { price: (idx * grid) as Price, size: readSize(src) };
  }
  return out;
}

/** `n` levels of one BOOK side (its count already read) into parallel arrays of µ prices and sizes, best first. */
export function readSideInto(
  src: ByteSource,
  n: number,
  grid: number,
  desc: boolean,
  price: Float64Array,
  size: Float64Array,
): void {
  let idx = 0;
  for (let i = 0; i < n; i++) {
    idx = nextIndex(i === 0, idx, src.uvar(), desc);
    price[i] = idx * grid;
    size[i] = readSize(src);
  }
}

/** A SETTINGS body up to (not including) its trailing grid. */
export function readSettings(src: ByteSource): RecordedMarketSettings {
  const tokenId = src.str();
  const conditionId = src.str();
  const tick = src.uvar();
  const minSize = src.uvar();
  const neg = src.u8();
  const maker = src.uvar();
  const taker = src.uvar();
  const hasRewards = src.u8();
  const rewards = hasRewards === 0 ? null : { dailyRate: src.uvar(), minSize: src.uvar(), maxSpread: src.uvar() };
  return {
    tokenId,
    conditionId,
    tickSize: tick === 0 ? null : (tick as Price),
    minOrderSize: minSize === 0 ? null : ((minSize - 1) as Shares),
    negRisk: neg === 0 ? null : neg === 2,
    makerFeeBps: maker === 0 ? null : maker - 1,
    takerFeeBps: taker === 0 ? null : taker - 1,
    rewards: rewards as RecordedMarketSettings['rewards'],
  };
}

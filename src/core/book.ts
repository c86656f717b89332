// The domain order book of one outcome token and the questions a quoter asks of it. Invariants
// kept here (every Book built through `sortLevels`/`makeBook` satisfies them):
// - bids are best-first (strictly descending price), asks best-first (strictly ascending price):
//   levels are sorted on ingest because the exchange does not guarantee an order (it sends them
//   worst-first; docs/protocol.md §5), and a reversed or already-sorted side costs one pass, not a sort;
// - every price is in (0, 1) and every size is > 0, as integer millionths: a book never holds NaN,
//   a negative or an empty level;
// - a price appears at most once per side. A duplicated price level is rejected, not merged: the
//   interface's book is aggregated by price, so a duplicate means the payload is not what it claims
//   to be (a retransmission glitch would double the size if merged), and quoting off it is unsafe;
// - a crossed or locked book is representable (real feeds show transient crossings) and reported by
//   isCrossed; nothing here "repairs" it.
// Every derived value is exact: mid names its rounding, notionals go through bigint.
import { InvariantError } from './errors.js';
import { divRound, SCALE, type Price, type Rounding, type Shares, type Micros } from './money.js';

export type BookSide = 'bids' | 'asks';

export interface Level {
  readonly price: Price;
  readonly size: Shares;
}

export interface Book {
  /** Market (condition) identifier. */
  readonly market: string;
  /** Outcome token identifier. */
  readonly assetId: string;
  /**
   * Exchange time of the snapshot, epoch milliseconds; null when the exchange sent none (the public
   * exchange may send `"timestamp": null`: Polymarket/py-sdk tests/unit/test_clob_actions.py@1f125cd,
   * test_parse_order_book_accepts_null_timestamp_and_null_last_trade_price).
   */
  readonly timestampMs: number | null;
  /** The exchange's hash of the book as sent (docs/protocol.md §5), "" when it sent none. */
  readonly hash: string;
  /** Best-first: descending price. */
  readonly bids: readonly Level[];
  /** Best-first: ascending price. */
  readonly asks: readonly Level[];
  readonly minOrderSize: Shares | null;
  readonly tickSize: Price | null;
  readonly negRisk: boolean | null;
  readonly lastTradePrice: Price | null;
}

/** Why a side could not be normalised; `index` is the position in the input array. */
export interface LevelProblem {
  readonly index: number;
  readonly reason: string;
}

/**
 * Sorts one side best-first in place and checks it. Returns null when the side is valid, or the
 * first problem found (the caller turns it into a ParseError with a field path). O(n) when the
 * input is already best-first or exactly worst-first (the exchange's order), O(n log n) otherwise.
 */
export function sortLevels(levels: Level[], side: BookSide): LevelProblem | null {
  const n = levels.length;
  for (let i = 0; i < n; i++) {
    const l = levels[i] as Level;
    if (!(l.price > 0 && l.price < SCALE)) return { index: i, reason: `price out of range (0, 1): ${l.price / SCALE}` };
    if (!(l.size > 0)) return { index: i, reason: 'size is not positive' };
  }
  if (n < 2) return null;
  // One pass: strictly ascending? strictly descending? (strictness also rules out duplicates)
  let asc = true;
  let desc = true;
  let prev = (levels[0] as Level).price;
  for (let i = 1; i < n; i++) {
    const p = (levels[i] as Level).price;
    if (p <= prev) asc = false;
    if (p >= prev) desc = false;
    prev = p;
  }
  const wantDesc = side === 'bids';
  if (wantDesc ? desc : asc) return null;
  if (wantDesc ? asc : desc) {
    levels.reverse();
    return null;
  }
  // General case: sort in place; on a duplicate, report its later position in the input.
  const input = levels.slice();
  levels.sort(wantDesc ? byPriceDesc : byPriceAsc);
  for (let k = 1; k < n; k++) {
    const p = (levels[k] as Level).price;
    if (p === (levels[k - 1] as Level).price) {
      let seen = false;
      let index = 0;
      for (let i = 0; i < n; i++) {
        if ((input[i] as Level).price !== p) continue;
        if (seen) {
          index = i;
          break;
        }
        seen = true;
      }
      return { index, reason: `duplicated price level ${p / SCALE}` };
    }
  }
  return null;
}

const byPriceDesc = (a: Level, b: Level): number => b.price - a.price;
const byPriceAsc = (a: Level, b: Level): number => a.price - b.price;

/** A book whose exchange time is known (every book built here, and every recorded one). */
export type TimedBook = Book & { readonly timestampMs: number };

export interface BookInit {
  market: string;
  assetId: string;
  timestampMs: number;
  hash?: string;
  bids: Level[];
  asks: Level[];
  minOrderSize?: Shares | null;
  tickSize?: Price | null;
  negRisk?: boolean | null;
  lastTradePrice?: Price | null;
}

/**
 * Builds a Book from levels in any order (for tests, the simulator and replay). Our own inputs
 * that break the invariants are bugs, so this throws InvariantError; wire input goes through
 * parseBook, which reports a field path instead.
 */
export function makeBook(init: BookInit): TimedBook {
  const bids = init.bids.slice();
  const asks = init.asks.slice();
  const pb = sortLevels(bids, 'bids');
  if (pb !== null) throw new InvariantError(`bids[${pb.index}]: ${pb.reason}`);
  const pa = sortLevels(asks, 'asks');
  if (pa !== null) throw new InvariantError(`asks[${pa.index}]: ${pa.reason}`);
  return {
    market: init.market,
    assetId: init.assetId,
    timestampMs: init.timestampMs,
    hash: init.hash ?? '',
    bids,
    asks,
    minOrderSize: init.minOrderSize ?? null,
    tickSize: init.tickSize ?? null,
    negRisk: init.negRisk ?? null,
    lastTradePrice: init.lastTradePrice ?? null,
  };
}

export function bestBid(book: Book): Level | null {
  return book.bids[0] ?? null;
}

export function bestAsk(book: Book): Level | null {
  return book.asks[0] ?? null;
}

/**
 * (best bid + best ask) / 2, exact up to the named rounding of a half-millionth; null when a side
 * is empty. On a crossed book this is still the midpoint of the two best prices.
 */
export function mid(book: Book, rounding: Rounding): Price | null {
  const b = book.bids[0];
  const a = book.asks[0];
  if (b === undefined || a === undefined) return null;
  const sum = b.price + a.price;
  if (sum % 2 === 0) return (sum / 2) as Price;
  return Number(divRound(BigInt(sum), 2n, rounding)) as Price;
}

/** A mid observed at a time of our clock (recent mids feed volatility and drift estimates). */
export interface MidSample {
  /** Our clock, epoch ms. */
  readonly atMs: number;
  readonly mid: Price;
}

/**
 * A run of mid samples as parallel columns: sample i (start ≤ i < end, oldest first) was `mid[i]`
 * at `atMs[i]`. Whoever hands one out never writes those entries again, so it can be kept.
 */
export interface MidSeries {
  readonly atMs: ArrayLike<number>;
  readonly mid: ArrayLike<number>;
  readonly start: number;
  readonly end: number;
}

/** The samples of a series, as objects (a fresh array). */
export function midSamples(s: MidSeries): MidSample[] {
  const out = new Array<MidSample>(s.end - s.start);
  for (let i = s.start; i < s.end; i++) out[i - s.start] = { atMs: s.atMs[i] as number, mid: s.mid[i] as Price };
  return out;
}

/** A series of samples (columns copied). */
export function midSeriesOfSamples(samples: readonly MidSample[]): MidSeries {
  const n = samples.length;
  const atMs = new Float64Array(n);
  const mid = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = samples[i] as MidSample;
    atMs[i] = x.atMs;
    mid[i] = x.mid;
  }
  return { atMs, mid, start: 0, end: n };
}

/** best ask − best bid in millionths (≤ 0 when locked or crossed); null when a side is empty. */
export function spread(book: Book): number | null {
  const b = book.bids[0];
  const a = book.asks[0];
  if (b === undefined || a === undefined) return null;
  return a.price - b.price;
}

/** The same book stamped `timestampMs` (its levels shared; fields written out, not spread). */
export function restamped(book: Book, timestampMs: number): Book {
  return {
    market: book.market,
    assetId: book.assetId,
    timestampMs,
    hash: book.hash,
    bids: book.bids,
    asks: book.asks,
    minOrderSize: book.minOrderSize,
    tickSize: book.tickSize,
    negRisk: book.negRisk,
    lastTradePrice: book.lastTradePrice,
  };
}

/** Locked (bid = ask) or crossed (bid > ask): on a matching venue neither can rest. */
export function isCrossed(book: Book): boolean {
  const b = book.bids[0];
  const a = book.asks[0];
  return b !== undefined && a !== undefined && b.price >= a.price;
}

export interface Depth {
  /** Levels counted. */
  readonly levels: number;
  readonly shares: Shares;
  /** Σ price × size, exact, rounded once with the named rounding. */
  readonly notional: Micros;
}

/**
 * Depth of one side within `distance` (millionths, ≥ 0) of that side's best price, inclusive:
 * bids with price ≥ best − distance, asks with price ≤ best + distance.
 */
export function depthWithin(book: Book, side: BookSide, distance: number, rounding: Rounding): Depth {
  if (!Number.isSafeInteger(distance) || distance < 0)
    throw new InvariantError(`depth distance must be a non-negative integer, got ${distance}`);
  const levels = book[side];
  const best = levels[0];
  if (best === undefined) return { levels: 0, shares: 0 as Shares, notional: 0 as Micros };
  const limit = side === 'bids' ? best.price - distance : best.price + distance;
  let count = 0;
  let shares = 0;
  let num = 0n;
  for (const l of levels) {
    if (side === 'bids' ? l.price < limit : l.price > limit) break;
    count++;
    shares += l.size;
    num += BigInt(l.price) * BigInt(l.size);
  }
  if (!Number.isSafeInteger(shares)) throw new InvariantError('depth shares exceed the safe integer range');
  return {
    levels: count,
    shares: shares as Shares,
    notional: Number(divRound(num, BigInt(SCALE), rounding)) as Micros,
  };
}

// Order book wire → domain (interface §2.6, docs/protocol.md §5). The hot path of market data: a book
// of 20 levels a side must parse and sort at well over 100k/s, so the level loop reads the decimal
// strings with the fast exact scanner and builds field paths only when something fails.
// Invariants: the result satisfies every invariant of core/book.ts (sorted best-first, prices in
// (0, 1), sizes > 0, no duplicated price), or ParseError names the offending field, e.g.
// `[3].bids[2].size`. Fields the 2024 shape lacks (min_order_size, tick_size, neg_risk,
// last_trade_price) and `""` values become null; extra keys (a WS message's event_type) are ignored.
// Timestamp: the interface's book always carries one (parseBook requires it, so its books are
// TimedBooks); the public exchange's may send `null` or none (parsePublicBook: null), as its official
// parser accepts (Polymarket/py-sdk tests/unit/test_clob_actions.py@1f125cdb2bb684aec7c9b044ac9991e383822498,
// test_parse_order_book_accepts_null_timestamp_and_null_last_trade_price and
// test_parse_order_book_accepts_missing_timestamp_and_last_trade_price).
import { sortLevels, type Book, type BookSide, type Level, type TimedBook } from '../../core/book.js';
import { ParseError } from '../../core/errors.js';
import { SCALE, type Price, type Shares } from '../../core/money.js';
import { isKnownTick } from '../../core/tick.js';
import { readPrice, readShares, scanMicros } from './decimal.js';
import { arr, at, idx, nonEmpty, obj, optBool, str, typeName, uintString } from './read.js';

function levelObject(v: unknown, path: string, side: BookSide, i: number): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ParseError(idx(at(path, side), i), `expected an object, got ${typeName(v)}`);
  }
  return v as Record<string, unknown>;
}

function parseSide(v: unknown, path: string, side: BookSide): Level[] {
  const a = arr(v, at(path, side));
  const n = a.length;
  const out = new Array<Level>(n);
  for (let i = 0; i < n; i++) {
    const o = levelObject(a[i], path, side, i);
    const ps = o['price'];
    const ss = o['size'];
    let price = typeof ps === 'string' ? scanMicros(ps) : -1;
    if (price < 0 || price > SCALE) price = readPrice(ps, at(idx(at(path, side), i), 'price'));
    let size = typeof ss === 'string' ? scanMicros(ss) : -1;
    if (size < 0) size = readShares(ss, at(idx(at(path, side), i), 'size'));
    out[i] = { price: price as Price, size: size as Shares };
  }
  const problem = sortLevels(out, side);
  if (problem !== null) {
    const field = problem.reason.startsWith('size') ? 'size' : 'price';
    throw new ParseError(at(idx(at(path, side), problem.index), field), problem.reason);
  }
  return out;
}

function optWirePrice(v: unknown, path: string): Price | null {
  if (v === undefined || v === null || v === '') return null;
  return readPrice(v, path);
}

function optTick(v: unknown, path: string): Price | null {
  if (v === undefined || v === null || v === '') return null;
  const t = readPrice(v, path);
  if (!isKnownTick(t)) throw new ParseError(path, `unknown tick size ${JSON.stringify(v)}`);
  return t;
}

function optSize(v: unknown, path: string): Shares | null {
  if (v === undefined || v === null || v === '') return null;
  return readShares(v, path);
}

function bookFields(o: Record<string, unknown>, path: string, timestampMs: number | null): Book {
  const hash = o['hash'];
  return {
    market: nonEmpty(o['market'], at(path, 'market')),
    assetId: nonEmpty(o['asset_id'], at(path, 'asset_id')),
    timestampMs,
    hash: hash === undefined ? '' : str(hash, at(path, 'hash')),
    bids: parseSide(o['bids'], path, 'bids'),
    asks: parseSide(o['asks'], path, 'asks'),
    minOrderSize: optSize(o['min_order_size'], at(path, 'min_order_size')),
    tickSize: optTick(o['tick_size'], at(path, 'tick_size')),
    negRisk: optBool(o['neg_risk'], at(path, 'neg_risk')),
    lastTradePrice: optWirePrice(o['last_trade_price'], at(path, 'last_trade_price')),
  };
}

/** One order book (GET /book, an item of POST /books, or a WS `book` message), timestamp required. */
export function parseBook(json: unknown, path = ''): TimedBook {
  const o = obj(json, path);
  const ts = uintString(o['timestamp'], at(path, 'timestamp'));
  return bookFields(o, path, ts) as TimedBook;
}

/** The array answer of POST /books. */
export function parseBooks(json: unknown, path = ''): TimedBook[] {
  const a = arr(json, path);
  const out = new Array<TimedBook>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = parseBook(a[i], idx(path, i));
  return out;
}

/** A book as the public exchange sends it: `timestamp` may be null or missing (→ null). */
export function parsePublicBook(json: unknown, path = ''): Book {
  const o = obj(json, path);
  const t = o['timestamp'];
  return bookFields(o, path, t === undefined || t === null ? null : uintString(t, at(path, 'timestamp')));
}

/** The public exchange's POST /books answer. */
export function parsePublicBooks(json: unknown, path = ''): Book[] {
  const a = arr(json, path);
  const out = new Array<Book>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = parsePublicBook(a[i], idx(path, i));
  return out;
}

// The book hash of docs/protocol.md §5: SHA-1 hex of the compact JSON of the book with `hash` set to
// "", keys in the order of the interface's table 2.6. What the real payloads show (see
// test/core/book-hash.test.ts, which checks each claim against test/fixtures/real/):
// - the exchange hashes the full REST form of the book — all ten keys in table 2.6 order, levels
//   in the order sent (bids ascending, asks descending), the decimal strings exactly as sent —
//   even when the message carrying the hash omits fields: a websocket `book` snapshot lacks
//   min_order_size/neg_risk (and sometimes tick_size/last_trade_price) yet its hash covers them;
// - the payload's own key order is not what is hashed (a WS book with keys in another order still
//   hashes in table order);
// - books of 2024 (the old shape without min_order_size…last_trade_price) were hashed over
//   {market, asset_id, hash: "", bids, asks} — no timestamp; `legacyBookHash` reproduces those;
// - one recorded REST book (ccxt's 2026-06-12 fixture) matches neither scheme, nor any key subset,
//   key order, level order or nearby timestamp tried: its hash was not computed over that payload.
// Because the exchange hashes strings as sent ("0.920" and "0.92" hash differently), verify a
// received book with `bookHash` over its wire fields, not over the parsed domain book. `hashBook`
// renders a domain book the way the simulator sends it (minimal decimals, worst-first levels).
// core imports nothing outside core, so the input is structural; a WireBook satisfies it.
import { createHash } from 'node:crypto';
import type { Book } from './book.js';
import { formatMicros } from './money.js';

export interface HashLevel {
  readonly price: string;
  readonly size: string;
}

/** The ten fields of table 2.6 (the `hash` field itself is not read). */
export interface BookHashFields {
  readonly market: string;
  readonly asset_id: string;
  readonly timestamp: string;
  readonly bids: readonly HashLevel[];
  readonly asks: readonly HashLevel[];
  readonly min_order_size: string;
  readonly tick_size: string;
  readonly neg_risk: boolean;
  readonly last_trade_price: string;
}

function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

// Copying each level to {price, size} drops any extra keys a level might carry and fixes the
// key order; JSON.stringify does the string escaping exactly as the exchange's serializer.
function levels(ls: readonly HashLevel[]): HashLevel[] {
  const out = new Array<HashLevel>(ls.length);
  for (let i = 0; i < ls.length; i++) {
    const l = ls[i] as HashLevel;
    out[i] = { price: l.price, size: l.size };
  }
  return out;
}

/** The exact text that is hashed (exported for diagnostics and tests). */
export function bookHashPreimage(b: BookHashFields): string {
  return JSON.stringify({
    market: b.market,
    asset_id: b.asset_id,
    timestamp: b.timestamp,
    hash: '',
    bids: levels(b.bids),
    asks: levels(b.asks),
    min_order_size: b.min_order_size,
    tick_size: b.tick_size,
    neg_risk: b.neg_risk,
    last_trade_price: b.last_trade_price,
  });
}

/** docs/protocol.md §5 hash of a book given in its wire form. */
export function bookHash(b: BookHashFields): string {
  return sha1Hex(bookHashPreimage(b));
}

/** Hash of the 2024 book shape: {market, asset_id, hash: "", bids, asks}. */
export function legacyBookHash(b: Pick<BookHashFields, 'market' | 'asset_id' | 'bids' | 'asks'>): string {
  return sha1Hex(
    JSON.stringify({ market: b.market, asset_id: b.asset_id, hash: '', bids: levels(b.bids), asks: levels(b.asks) }),
  );
}

/**
 * The wire fields of a domain book as the simulator sends them: levels worst-first (bids
 * ascending, asks descending, as the public exchange), decimals minimal ("0.5", "100"), a missing
 * value as "" (neg_risk false). Feed the result to bookHash, and send exactly these strings.
 */
export function bookHashFields(book: Book): BookHashFields {
  const bids = new Array<HashLevel>(book.bids.length);
  for (let i = 0, j = book.bids.length - 1; j >= 0; i++, j--) {
    const l = book.bids[j]!;
    bids[i] = { price: formatMicros(l.price), size: formatMicros(l.size) };
  }
  const asks = new Array<HashLevel>(book.asks.length);
  for (let i = 0, j = book.asks.length - 1; j >= 0; i++, j--) {
    const l = book.asks[j]!;
    asks[i] = { price: formatMicros(l.price), size: formatMicros(l.size) };
  }
  return {
    market: book.market,
    asset_id: book.assetId,
    timestamp: String(book.timestampMs),
    bids,
    asks,
    min_order_size: book.minOrderSize === null ? '' : formatMicros(book.minOrderSize),
    tick_size: book.tickSize === null ? '' : formatMicros(book.tickSize),
    neg_risk: book.negRisk ?? false,
    last_trade_price: book.lastTradePrice === null ? '' : formatMicros(book.lastTradePrice),
  };
}

/** docs/protocol.md §5 hash of a domain book rendered by bookHashFields. */
export function hashBook(book: Book): string {
  return bookHash(bookHashFields(book));
}

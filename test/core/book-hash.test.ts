// The book hash of docs/protocol.md §5 checked against the recorded hashes of real books. Each test
// states one finding; together they are what book-hash.ts's header reports.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bookHash,
  bookHashFields,
  bookHashPreimage,
  hashBook,
  legacyBookHash,
  type BookHashFields,
} from '../../src/core/book-hash.js';
import { makeBook, type Level } from '../../src/core/book.js';
import type { Price, Shares } from '../../src/core/money.js';
import { parseBook } from '../../src/exchange/parse/book.js';
import { readPrice, readShares } from '../../src/exchange/parse/decimal.js';
import type { WireBook } from '../../src/exchange/wire.js';
import { realJson, realJsonLines } from '../exchange/parse/fixtures.js';

type Raw = Record<string, unknown> & { hash: string };
const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');

const emptyAsk = realJson('wire/markets/book_get_empty_ask_nautilus_2026-08-03.json') as WireBook;
const ws2026 = realJson('clob_ws_book_snapshot_2026.json') as Raw;
const rest2024 = realJson('clob_rest_book_2024-10-13.json') as Raw;
const ws2024 = realJson('clob_ws_book_2024.json') as Raw;
const ccxt2026 = realJson('wire/markets/book_get_ccxt_2026-06-12.json') as WireBook;
const burst = realJsonLines('clob_ws_market_burst_2tokens.jsonl') as Raw[];

describe('bookHash reproduces the exchange', () => {
  it('REST book of the current shape: table 2.6 key order, hash "", levels as sent', () => {
    expect(bookHash(emptyAsk)).toBe(emptyAsk.hash);
    expect(bookHashPreimage(emptyAsk)).toBe(
      '{"market":"0x9d839bf0aa31324b9848f5b89841b779238a7c07dee2f7fca675d934e8ab5bf2",' +
        '"asset_id":"72610532355343625199299853218161700546393390326785971247545541945337255643692",' +
        '"timestamp":"1785734468581","hash":"","bids":[{"price":"0.001","size":"667.12"},{"price":"0.002","size":"6.99"}],' +
        '"asks":[],"min_order_size":"5","tick_size":"0.001","neg_risk":true,"last_trade_price":""}',
    );
  });

  it('the parsed domain book re-rendered by hashBook gives the same hash (minimal decimals, worst-first)', () => {
    const b = parseBook(emptyAsk);
    expect(hashBook(b)).toBe(emptyAsk.hash);
    expect(bookHashFields(b).bids).toEqual(emptyAsk.bids);
  });

  it('WS book snapshots: the hash covers the REST fields the message omits (min_order_size 5, neg_risk false)', () => {
    const full = { ...ws2026, min_order_size: '5', neg_risk: false } as unknown as BookHashFields;
    expect(bookHash(full)).toBe(ws2026.hash);
    expect(bookHash({ ...full, neg_risk: true })).not.toBe(ws2026.hash);
    // Hashing the message itself in its own key order does not reproduce it.
    expect(sha1(JSON.stringify({ ...ws2026, hash: '' }))).not.toBe(ws2026.hash);

    const first = burst[0] as Raw;
    expect(bookHash({ ...first, min_order_size: '5', neg_risk: false } as unknown as BookHashFields)).toBe(first.hash);
    // The closing snapshot lacks tick_size and last_trade_price too: the trade just before it was at 0.301.
    const last = burst[burst.length - 1] as Raw;
    expect(Object.keys(last)).not.toContain('last_trade_price');
    expect(
      bookHash({
        ...last,
        min_order_size: '5',
        neg_risk: false,
        tick_size: '0.001',
        last_trade_price: '0.301',
      } as unknown as BookHashFields),
    ).toBe(last.hash);
  });

  it('every price_change hash is the hash of the book after all changes with that timestamp', () => {
    // Replay token A's deltas through the domain book and hashBook: 49 updates in 47 timestamps.
    const snap = burst[0] as Raw;
    const tokenA = snap['asset_id'] as string;
    const start = parseBook(snap);
    const bids = new Map<number, Shares>(start.bids.map((l) => [l.price, l.size]));
    const asks = new Map<number, Shares>(start.asks.map((l) => [l.price, l.size]));
    const groups = new Map<string, Array<Record<string, string>>>();
    for (const msg of burst.slice(1, -1)) {
      const ts = msg['timestamp'] as string;
      const changes = (msg['price_changes'] as Array<Record<string, string>>).filter((c) => c['asset_id'] === tokenA);
      groups.set(ts, [...(groups.get(ts) ?? []), ...changes]);
    }
    const toLevels = (m: Map<number, Shares>): Level[] =>
      [...m].map(([price, size]) => ({ price: price as Price, size }));
    let checked = 0;
    let lastTrade = start.lastTradePrice; // 0.255
    for (const [ts, changes] of groups) {
      for (const c of changes) {
        const side = c['side'] === 'BUY' ? bids : asks;
        const price = readPrice(c['price'], 'price');
        const size = readShares(c['size'], 'size');
        if (size === 0) side.delete(price);
        else side.set(price, size);
      }
      const book = (ltp: Price | null): string =>
        hashBook(
          makeBook({
            market: start.market,
            assetId: start.assetId,
            timestampMs: Number(ts),
            bids: toLevels(bids),
            asks: toLevels(asks),
            minOrderSize: 5_000_000 as Shares,
            tickSize: start.tickSize,
            negRisk: false,
            lastTradePrice: ltp,
          }),
        );
      let h = book(lastTrade);
      // The one trade of the burst (at 0.301) moves last_trade_price; it also clears the crossing.
      if (changes.some((c) => c['hash'] !== h)) {
        lastTrade = 301_000 as Price;
        h = book(lastTrade);
      }
      for (const c of changes) {
        expect(c['hash']).toBe(h);
        checked++;
      }
    }
    expect(checked).toBe(49);
    expect(groups.size).toBe(47);
    expect(lastTrade).toBe(301_000);
  });

  it('2024 books were hashed over {market, asset_id, hash: "", bids, asks}, without the timestamp', () => {
    for (const raw of [rest2024, ws2024]) {
      const b = raw as unknown as BookHashFields;
      expect(legacyBookHash(b)).toBe(raw.hash);
      expect(
        sha1(
          JSON.stringify({
            market: b.market,
            asset_id: b.asset_id,
            timestamp: b.timestamp,
            hash: '',
            bids: b.bids,
            asks: b.asks,
          }),
        ),
      ).not.toBe(raw.hash);
    }
  });

  it("ccxt's recorded 2026-06-12 REST book matches neither scheme (its hash was not computed over this payload)", () => {
    expect(bookHash(ccxt2026)).not.toBe(ccxt2026.hash);
    expect(legacyBookHash(ccxt2026)).not.toBe(ccxt2026.hash);
    expect(sha1(JSON.stringify({ ...ccxt2026, hash: '' }))).not.toBe(ccxt2026.hash);
  });
});

describe('bookHash details', () => {
  it('ignores the hash field value and extra level keys, and depends on level order and string form', () => {
    const withHash = { ...emptyAsk, hash: 'ffff' };
    expect(bookHash(withHash)).toBe(emptyAsk.hash);
    const extra = { ...emptyAsk, bids: emptyAsk.bids.map((l) => ({ ...l, extra: 1 })) };
    expect(bookHash(extra)).toBe(emptyAsk.hash);
    expect(bookHash({ ...emptyAsk, bids: [...emptyAsk.bids].reverse() })).not.toBe(emptyAsk.hash);
    expect(bookHash({ ...emptyAsk, bids: [{ price: '0.0010', size: '667.12' }, emptyAsk.bids[1]!] })).not.toBe(
      emptyAsk.hash,
    );
  });

  it('hashBook renders null fields as "" and neg_risk null as false', () => {
    const b = makeBook({
      market: 'm',
      assetId: 'a',
      timestampMs: 5,
      bids: [{ price: 500_000 as Price, size: 1_500_000 as Shares }],
      asks: [],
    });
    expect(bookHashPreimage(bookHashFields(b))).toBe(
      '{"market":"m","asset_id":"a","timestamp":"5","hash":"","bids":[{"price":"0.5","size":"1.5"}],"asks":[],' +
        '"min_order_size":"","tick_size":"","neg_risk":false,"last_trade_price":""}',
    );
    expect(hashBook(b)).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('rendering and parsing agree', () => {
  const level = fc.record({ price: fc.integer({ min: 1, max: 999_999 }), size: fc.integer({ min: 1, max: 10 ** 13 }) });
  const levels = fc.uniqueArray(level, { selector: (l) => l.price, maxLength: 30 }) as fc.Arbitrary<Level[]>;

  it('property: parseBook(bookHashFields(book)) is the book, and its hash is stable', () => {
    fc.assert(
      fc.property(
        levels,
        levels,
        fc.option(fc.constantFrom(100, 1000, 2500, 5000, 10_000, 100_000)),
        fc.option(fc.integer({ min: 0, max: 1_000_000 })),
        fc.option(fc.boolean()),
        (bids, asks, tick, ltp, neg) => {
          const book = makeBook({
            market: '0xm',
            assetId: '123',
            timestampMs: 1_790_000_000_000,
            bids,
            asks,
            tickSize: tick as Price | null,
            lastTradePrice: ltp as Price | null,
            negRisk: neg ?? false,
            minOrderSize: 5_000_000 as Shares,
          });
          const fields = bookHashFields(book);
          const h = bookHash(fields);
          const parsed = parseBook({ ...fields, hash: h });
          expect(parsed).toEqual({ ...book, hash: h });
          expect(hashBook(parsed)).toBe(h);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// parseBook / parseBooks against the real recorded books, and malformed variants of them.
import { describe, expect, it } from 'vitest';
import { parseBook, parseBooks } from '../../../src/exchange/parse/book.js';
import type { WireBook } from '../../../src/exchange/wire.js';
import { clone, realJson, pathOf } from './fixtures.js';

const rest2026 = realJson('wire/markets/book_get_ccxt_2026-06-12.json') as WireBook;
const rest2024 = realJson('clob_rest_book_2024-10-13.json') as Record<string, unknown>;
const emptyAsk = realJson('wire/markets/book_get_empty_ask_nautilus_2026-08-03.json') as WireBook;
const ws2026 = realJson('clob_ws_book_snapshot_2026.json') as Record<string, unknown>;
const ws2024 = realJson('clob_ws_book_2024.json') as Record<string, unknown>;

describe('parseBook on real payloads', () => {
  it('parses the current REST shape into exact millionths, best-first', () => {
    const b = parseBook(rest2026);
    expect(b.market).toBe(rest2026.market);
    expect(b.assetId).toBe(rest2026.asset_id);
    expect(b.timestampMs).toBe(1781289337944);
    expect(b.hash).toBe('3082b8da1567a4510e93544031cb9144524f2de7');
    // Sent worst-first (bids ascending, asks descending): stored best-first.
    expect(b.bids.map((l) => l.price)).toEqual([5000, 4000, 3000, 2000, 1000]);
    expect(b.asks.map((l) => l.price)).toEqual([995000, 996000, 997000, 998000, 999000]);
    expect(b.bids[2]).toEqual({ price: 3000, size: 135_826_510_000 });
    expect(b.asks[2]).toEqual({ price: 997000, size: 7_060_000 });
    expect(b.minOrderSize).toBe(5_000_000);
    expect(b.tickSize).toBe(1000);
    expect(b.negRisk).toBe(true);
    expect(b.lastTradePrice).toBe(152_000);
  });

  it('keeps an empty side empty and turns last_trade_price "" into null, not zero', () => {
    const b = parseBook(emptyAsk);
    expect(b.asks).toEqual([]);
    expect(b.bids.map((l) => [l.price, l.size])).toEqual([
      [2000, 6_990_000],
      [1000, 667_120_000],
    ]);
    expect(b.lastTradePrice).toBeNull();
  });

  it('accepts the 2024 shape: missing min_order_size/tick_size/neg_risk/last_trade_price become null', () => {
    const b = parseBook(rest2024);
    expect(b.minOrderSize).toBeNull();
    expect(b.tickSize).toBeNull();
    expect(b.negRisk).toBeNull();
    expect(b.lastTradePrice).toBeNull();
    // The 2024 payload's asks are unordered relative to the others but strictly descending: reversed.
    expect(b.asks.map((l) => l.price)).toEqual([140000, 200000, 380000, 460000, 470000, 500000, 980000]);
    expect(b.bids.map((l) => l.price)).toEqual([100000, 90000, 80000, 60000, 10000]);
  });

  it('parses websocket book messages (extra event_type ignored), deep ladders included', () => {
    const a = parseBook(ws2026);
    expect(a.bids).toHaveLength(7);
    expect(a.asks).toHaveLength(57);
    expect(a.tickSize).toBe(10000);
    expect(a.lastTradePrice).toBe(920_000);
    expect(a.minOrderSize).toBeNull();
    const b = parseBook(ws2024);
    expect(b.bids).toHaveLength(76);
    expect(b.asks).toHaveLength(86);
    for (let i = 1; i < b.bids.length; i++) expect(b.bids[i]!.price).toBeLessThan(b.bids[i - 1]!.price);
    for (let i = 1; i < b.asks.length; i++) expect(b.asks[i]!.price).toBeGreaterThan(b.asks[i - 1]!.price);
    expect(b.bids[0]!.price).toBeLessThan(b.asks[0]!.price);
  });

  it('sorts a side that arrives in no particular order', () => {
    const w = clone(rest2026);
    w.bids = [w.bids[3]!, w.bids[0]!, w.bids[4]!, w.bids[1]!, w.bids[2]!];
    w.asks = [w.asks[1]!, w.asks[4]!, w.asks[0]!, w.asks[3]!, w.asks[2]!];
    const b = parseBook(w);
    expect(b).toEqual(parseBook(rest2026));
  });

  it('does not mutate its input', () => {
    const w = clone(rest2026);
    parseBook(w);
    expect(w).toEqual(rest2026);
  });
});

describe('parseBook rejects malformed books with the field path', () => {
  const cases: Array<[string, (w: WireBook) => void, string]> = [
    [
      'NaN size',
      (w) => {
        w.bids[2]!.size = 'NaN';
      },
      'bids[2].size',
    ],
    [
      'exponent price',
      (w) => {
        w.asks[1]!.price = '1e-3';
      },
      'asks[1].price',
    ],
    [
      'negative size',
      (w) => {
        w.asks[0]!.size = '-5';
      },
      'asks[0].size',
    ],
    [
      'zero size',
      (w) => {
        w.bids[1]!.size = '0';
      },
      'bids[1].size',
    ],
    [
      'number instead of string',
      (w) => {
        (w.bids[0] as unknown as { price: number }).price = 0.001;
      },
      'bids[0].price',
    ],
    [
      'price above 1',
      (w) => {
        w.asks[4]!.price = '1.5';
      },
      'asks[4].price',
    ],
    [
      'price 0',
      (w) => {
        w.bids[0]!.price = '0';
      },
      'bids[0].price',
    ],
    [
      'price 1',
      (w) => {
        w.asks[0]!.price = '1';
      },
      'asks[0].price',
    ],
    [
      'seven decimals',
      (w) => {
        w.bids[3]!.size = '1.0000001';
      },
      'bids[3].size',
    ],
    [
      'empty size',
      (w) => {
        w.bids[4]!.size = '';
      },
      'bids[4].size',
    ],
    [
      'missing size',
      (w) => {
        delete (w.bids[4] as Partial<{ size: string }>).size;
      },
      'bids[4].size',
    ],
    [
      'level not an object',
      (w) => {
        (w.asks as unknown[])[2] = '0.5';
      },
      'asks[2]',
    ],
    [
      'bids not an array',
      (w) => {
        (w as unknown as Record<string, unknown>)['bids'] = {};
      },
      'bids',
    ],
    [
      'missing market',
      (w) => {
        delete (w as Partial<WireBook>).market;
      },
      'market',
    ],
    [
      'timestamp with a decimal point',
      (w) => {
        w.timestamp = '1781289337944.5';
      },
      'timestamp',
    ],
    [
      'timestamp as number',
      (w) => {
        (w as unknown as Record<string, unknown>)['timestamp'] = 1781289337944;
      },
      'timestamp',
    ],
    [
      'neg_risk as string',
      (w) => {
        (w as unknown as Record<string, unknown>)['neg_risk'] = 'true';
      },
      'neg_risk',
    ],
    [
      'unknown tick',
      (w) => {
        w.tick_size = '0.003';
      },
      'tick_size',
    ],
    [
      'last trade price NaN',
      (w) => {
        w.last_trade_price = 'NaN';
      },
      'last_trade_price',
    ],
    [
      'whitespace in a price',
      (w) => {
        w.bids[0]!.price = ' 0.001';
      },
      'bids[0].price',
    ],
    [
      'hex size',
      (w) => {
        w.bids[0]!.size = '0x10';
      },
      'bids[0].size',
    ],
  ];
  for (const [name, mutate, path] of cases) {
    it(name, () => {
      const w = clone(rest2026);
      mutate(w);
      expect(pathOf(() => parseBook(w))).toBe(path);
    });
  }

  it('rejects a duplicated price level (not merged), naming the later occurrence as sent', () => {
    const w = clone(rest2026);
    w.bids.push({ price: '0.003', size: '10' });
    expect(pathOf(() => parseBook(w))).toBe('bids[5].price');
    const v = clone(rest2026);
    v.asks.splice(1, 0, { price: '0.999', size: '1' }); // duplicate inside an otherwise reversed side
    expect(pathOf(() => parseBook(v))).toBe('asks[1].price');
  });

  it('rejects a non-object root', () => {
    expect(pathOf(() => parseBook(null))).toBe('');
    expect(pathOf(() => parseBook([rest2026]))).toBe('');
  });
});

describe('parseBooks', () => {
  it('parses the array answer of POST /books', () => {
    const books = parseBooks([rest2026, emptyAsk, ws2026]);
    expect(books.map((b) => b.assetId)).toEqual([rest2026.asset_id, emptyAsk.asset_id, ws2026['asset_id']]);
  });

  it('names the book index in the path, under a caller-given prefix', () => {
    const bad = clone(rest2026);
    bad.bids[2]!.size = '-1';
    const arr = [rest2026, emptyAsk, rest2026, bad];
    expect(pathOf(() => parseBooks(arr))).toBe('[3].bids[2].size');
    expect(pathOf(() => parseBooks(arr, 'books'))).toBe('books[3].bids[2].size');
    expect(pathOf(() => parseBooks({}))).toBe('');
  });
});

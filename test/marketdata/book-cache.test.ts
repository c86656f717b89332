// The book cache: receive times, staleness per token and per market, tick changes followed from
// the books (a real recorded book among them), mids and the recent-mids ring.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { makeBook, midSamples } from '../../src/core/book.js';
import type { Price, Shares } from '../../src/core/money.js';
import { parseBook } from '../../src/exchange/parse/book.js';
import { BookCache } from '../../src/marketdata/book-cache.js';
import type { UniverseMarket } from '../../src/marketdata/types.js';
import { realJson } from '../support/fixtures.js';
import { binary, bookAround, settings, SH, T0 } from './helpers.js';

const none = new Map<string, Price>();

function cacheWith(markets: UniverseMarket[], maxBookAgeMs = 5_000, midHistory?: number): BookCache {
  const c = new BookCache({ maxBookAgeMs, ...(midHistory !== undefined ? { midHistory } : {}) });
  c.setUniverse(markets);
  return c;
}

describe('BookCache storage', () => {
  it('keeps each book with our receive time and the exchange timestamp; ignores other tokens', () => {
    const c = cacheWith([binary('m1')]);
    const r = c.apply({
      receivedAtMs: T0 + 40,
      books: [bookAround('m1', 'm1-yes', 500_000, { ts: T0 - 300 }), bookAround('x', 'stranger', 500_000)],
      mids: none,
    });
    expect(r).toEqual({ books: 1, ignored: 1, tickChanges: [] });
    const e = c.token('m1-yes');
    expect(e?.bookAtMs).toBe(T0 + 40);
    expect(e?.exchangeTsMs).toBe(T0 - 300);
    expect(c.token('stranger')).toBeUndefined();
    expect(c.token('m1-no')?.book).toBeNull();
  });

  it('lists tokens and markets in universe order and forgets what leaves the universe', () => {
    const c = cacheWith([binary('a'), binary('b')]);
    expect(c.tokenIds()).toEqual(['a-yes', 'a-no', 'b-yes', 'b-no']);
    c.apply({
      receivedAtMs: T0,
      books: [bookAround('a', 'a-yes', 400_000), bookAround('b', 'b-yes', 600_000)],
      mids: none,
    });
    c.setUniverse([binary('b'), binary('c')]);
    expect(c.tokenIds()).toEqual(['b-yes', 'b-no', 'c-yes', 'c-no']);
    expect(c.token('a-yes')).toBeUndefined();
    expect(c.market('a')).toBeUndefined();
    expect(c.token('b-yes')?.book?.bids[0]?.price).toBe(590_000); // kept across the refresh
    expect(c.markets().map((m) => m.conditionId)).toEqual(['b', 'c']);
  });

  it('rejects a universe that repeats a token or a market', () => {
    const c = new BookCache({ maxBookAgeMs: 1000 });
    expect(() => c.setUniverse([binary('a'), binary('a')])).toThrow(/twice/);
    const clash: UniverseMarket = { ...binary('b'), tokens: binary('a').tokens };
    expect(() => c.setUniverse([binary('a'), clash])).toThrow(/token a-yes appears twice/);
  });
});

describe('BookCache staleness', () => {
  it('a token is stale without a book or when its book is older than maxBookAgeMs', () => {
    const c = cacheWith([binary('m')], 5_000);
    expect(c.isTokenStale('m-yes', T0)).toBe(true);
    c.apply({
      receivedAtMs: T0,
      books: [bookAround('m', 'm-yes', 500_000), bookAround('m', 'm-no', 500_000)],
      mids: none,
    });
    expect(c.isTokenStale('m-yes', T0 + 5_000)).toBe(false);
    expect(c.isTokenStale('m-yes', T0 + 5_001)).toBe(true);
  });

  it('a market is stale when either token is, and its data time is the older book', () => {
    const c = cacheWith([binary('m')], 5_000);
    c.apply({ receivedAtMs: T0, books: [bookAround('m', 'm-yes', 500_000)], mids: none });
    expect(c.isMarketStale('m', T0)).toBe(true); // the No token has no book yet
    expect(c.marketDataAtMs('m')).toBeNull();
    c.apply({ receivedAtMs: T0 + 1_000, books: [bookAround('m', 'm-no', 500_000)], mids: none });
    expect(c.marketDataAtMs('m')).toBe(T0);
    expect(c.isMarketStale('m', T0 + 5_000)).toBe(false);
    // only the No token keeps being refreshed: the Yes book ages out, and the market with it
    c.apply({ receivedAtMs: T0 + 5_500, books: [bookAround('m', 'm-no', 500_000)], mids: none });
    expect(c.isTokenStale('m-no', T0 + 5_500)).toBe(false);
    expect(c.isMarketStale('m', T0 + 5_500)).toBe(true);
    expect(c.staleMarkets(T0 + 5_500)).toEqual(['m']);
  });

  it('property: a market is stale exactly when now − (older receive time) > maxBookAgeMs', () => {
    fc.assert(
      fc.property(
        fc.nat(20_000),
        fc.nat(20_000),
        fc.nat(40_000),
        fc.integer({ min: 1, max: 10_000 }),
        (a, b, now, age) => {
          const c = cacheWith([binary('m')], age);
          c.apply({ receivedAtMs: a, books: [bookAround('m', 'm-yes', 500_000)], mids: none });
          c.apply({ receivedAtMs: b, books: [bookAround('m', 'm-no', 500_000)], mids: none });
          return c.isMarketStale('m', now) === now - Math.min(a, b) > age;
        },
      ),
    );
  });
});

describe('BookCache settings follow the books', () => {
  it('reports a tick change once per market and updates tick and minimum', () => {
    const c = cacheWith([binary('m', { tickSize: 10_000 as Price })]);
    const r1 = c.apply({ receivedAtMs: T0, books: [bookAround('m', 'm-yes', 500_000, { tick: 10_000 })], mids: none });
    expect(r1.tickChanges).toEqual([]);
    const r2 = c.apply({
      receivedAtMs: T0 + 1_000,
      books: [
        bookAround('m', 'm-yes', 980_000, { tick: 1_000, min: 10 }),
        bookAround('m', 'm-no', 20_000, { tick: 1_000, min: 10 }),
      ],
      mids: none,
    });
    expect(r2.tickChanges).toEqual([{ conditionId: 'm', tokenId: 'm-yes', from: 10_000, to: 1_000, atMs: T0 + 1_000 }]);
    expect(c.market('m')?.settings.tickSize).toBe(1_000);
    expect(c.market('m')?.settings.minOrderSize).toBe(10 * SH);
    expect(c.markets()[0]?.settings.tickSize).toBe(1_000);
    // a universe refresh with the listing's older tick keeps what the book said
    c.setUniverse([binary('m', { tickSize: 10_000 as Price, question: 'renamed' })]);
    expect(c.market('m')?.settings).toMatchObject({ tickSize: 1_000, question: 'renamed', minOrderSize: 10 * SH });
    // and the tick widening back is followed too
    const r3 = c.apply({
      receivedAtMs: T0 + 2_000,
      books: [bookAround('m', 'm-yes', 500_000, { tick: 10_000, min: 10 })],
      mids: none,
    });
    expect(r3.tickChanges.map((t) => [t.from, t.to])).toEqual([[1_000, 10_000]]);
  });

  it('follows the tick and minimum of a real recorded book (tick 0.001, minimum 5)', () => {
    const book = parseBook(realJson('wire/markets/book_get_ccxt_2026-06-12.json'), 'fixture');
    const m: UniverseMarket = {
      conditionId: book.market,
      settings: settings(book.market, { tickSize: 10_000 as Price, minOrderSize: (1 * SH) as Shares }),
      tokens: [{ tokenId: book.assetId, outcome: 'Yes', complementTokenId: null }],
    };
    const c = cacheWith([m]);
    const r = c.apply({ receivedAtMs: T0, books: [book], mids: none });
    expect(r.tickChanges).toEqual([
      { conditionId: book.market, tokenId: book.assetId, from: 10_000, to: 1_000, atMs: T0 },
    ]);
    expect(c.market(book.market)?.settings).toMatchObject({ tickSize: 1_000, minOrderSize: 5 * SH });
    // best bid 0.005, best ask 0.995: the book's own mid
    expect(c.token(book.assetId)?.mid).toBe(500_000);
  });
});

describe('BookCache mids', () => {
  it('prefers the exchange mid, falls back to the book, and is null on a one-sided book', () => {
    const c = cacheWith([binary('m')]);
    const oneSided = makeBook({
      market: 'm',
      assetId: 'm-no',
      timestampMs: T0,
      bids: [{ price: 400_000 as Price, size: SH as Shares }],
      asks: [],
    });
    c.apply({
      receivedAtMs: T0,
      books: [bookAround('m', 'm-yes', 500_000), oneSided],
      mids: new Map([['m-yes', 505_000 as Price]]),
    });
    expect(c.token('m-yes')?.mid).toBe(505_000);
    expect(c.token('m-no')?.mid).toBeNull();
    c.apply({ receivedAtMs: T0 + 1, books: [bookAround('m', 'm-yes', 520_000)], mids: none });
    expect(c.token('m-yes')?.mid).toBe(520_000);
    expect(c.mids()).toEqual(new Map([['m-yes', 520_000]]));
  });

  it('mids are one map until a mid or the universe changes, and a map handed out is never written', () => {
    const c = cacheWith([binary('m')]);
    c.apply({ receivedAtMs: T0, books: [bookAround('m', 'm-yes', 500_000)], mids: none });
    const first = c.mids();
    expect(c.mids()).toBe(first);
    // the same mid again: the same map
    c.apply({ receivedAtMs: T0 + 1, books: [bookAround('m', 'm-yes', 500_000)], mids: none });
    expect(c.mids()).toBe(first);
    c.apply({ receivedAtMs: T0 + 2, books: [], mids: new Map([['m-no', 480_000 as Price]]) });
    const second = c.mids();
    expect(second).not.toBe(first);
    expect(first).toEqual(new Map([['m-yes', 500_000]]));
    expect(second).toEqual(
      new Map([
        ['m-yes', 500_000],
        ['m-no', 480_000],
      ]),
    );
    c.setUniverse([binary('n')]);
    expect(c.mids()).toEqual(new Map());
    expect(second.size).toBe(2);
  });

  it('a window taken once keeps naming the same samples however many polls follow', () => {
    const c = cacheWith([binary('m')], 5_000, 3);
    const windows = [];
    for (let i = 0; i < 12; i++) {
      c.apply({ receivedAtMs: T0 + i, books: [], mids: new Map([['m-yes', (100_000 + i * 10_000) as Price]]) });
      windows.push(c.midWindow('m-yes'));
    }
    windows.forEach((w, i) => {
      const got = w === null ? [] : midSamples(w).map((s) => s.atMs - T0);
      expect(got).toEqual([i - 2, i - 1, i].filter((k) => k >= 0));
    });
    expect(c.midWindow('nope')).toBeNull();
  });

  it('keeps the last midHistory mids oldest first, never changing a list already handed out', () => {
    const c = cacheWith([binary('m')], 5_000, 3);
    const seen = [];
    for (let i = 0; i < 5; i++) {
      c.apply({ receivedAtMs: T0 + i, books: [bookAround('m', 'm-yes', 400_000 + i * 10_000)], mids: none });
      seen.push(c.recentMids('m-yes'));
    }
    expect(c.recentMids('m-yes')).toEqual([
      { atMs: T0 + 2, mid: 420_000 },
      { atMs: T0 + 3, mid: 430_000 },
      { atMs: T0 + 4, mid: 440_000 },
    ]);
    expect(seen[0]).toEqual([{ atMs: T0, mid: 400_000 }]);
    expect(seen[1]).toHaveLength(2);
  });

  it('property: the ring is the last `cap` mids of the sequence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 2, max: 98 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        (mids, cap) => {
          const c = cacheWith([binary('m')], 5_000, cap);
          mids.forEach((m, i) =>
            c.apply({ receivedAtMs: i, books: [], mids: new Map([['m-yes', (m * 10_000) as Price]]) }),
          );
          const got = c.recentMids('m-yes').map((s) => s.mid);
          return JSON.stringify(got) === JSON.stringify(mids.slice(-cap).map((m) => m * 10_000));
        },
      ),
    );
  });
});

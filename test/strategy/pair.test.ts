// Token pairs as one book: grouping, the mirror, mid and net position in the first token's terms,
// our orders taken out of the book, passive prices, and the Expresser choosing the cheaper
// expression of each quote (a sale of the token held before a purchase of the other).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price } from '../../src/core/money.js';
import {
  Expresser,
  externalBook,
  mirrorBook,
  netPosition,
  ownLevels,
  pairBook,
  pairMid,
  pairMinSize,
  pairRecentMids,
  pairsOf,
  pairTick,
  passiveAt,
  primaryPrice,
  type Pair,
} from '../../src/strategy/sdk.js';
import { binary, NO, order, px, rows, sh, T, YES, yesBook } from '../strategies/helpers.js';
import { fixtureBook, marketView, settings, SH, tokenView } from './factories.js';

// The 2024 book of the Trump market's No token: best 0.511 / 0.514, no tick of its own.
const noBook = fixtureBook('clob_ws_book_2024.json');

describe('pairs', () => {
  it('groups a token with its complement, in token order; a lone token pairs with nothing', () => {
    const m = binary(yesBook([[0.49, 100]], [[0.51, 100]]));
    const ps = pairsOf(m);
    expect(ps).toHaveLength(1);
    expect(ps[0]?.primary.tokenId).toBe(YES);
    expect(ps[0]?.complement?.tokenId).toBe(NO);
    const lone = marketView(settings(), [tokenView(null, { tokenId: 'A', complementTokenId: 'B' })]);
    expect(pairsOf(lone).map((p) => [p.primary.tokenId, p.complement])).toEqual([['A', null]]);
  });

  it('the mirror of a book swaps sides at 1 − p, best first; twice is the book again', () => {
    const yes = mirrorBook(noBook, 'Y');
    expect(yes.bids.slice(0, 2).map((l) => [l.price, l.size])).toEqual([
      [486_000, 20_230_870_000],
      [485_000, 43_551_960_000],
    ]);
    expect(yes.asks.slice(0, 2).map((l) => [l.price, l.size])).toEqual([
      [489_000, 1_304_720_000],
      [490_000, 12_848_170_000],
    ]);
    expect(mirrorBook(yes, noBook.assetId).bids).toEqual(noBook.bids);
    expect(mirrorBook(yes, noBook.assetId).asks).toEqual(noBook.asks);
  });

  it("book, mid and recent mids in the first token's terms, from the complement when the first has none", () => {
    const yesFromNo = mirrorBook(noBook, YES);
    const m = binary(yesFromNo, { recentMids: [{ atMs: T - 1_000, mid: px(0.48) }] });
    const p = pairsOf(m)[0] as Pair;
    expect(pairMid(p)).toBe(487_500); // (0.486 + 0.489) / 2
    // YES without a book: everything comes from NO's, mirrored.
    const onlyNo: Pair = {
      market: m,
      primary: { ...p.primary, book: null, bookAtMs: null, mid: null, recentMids: [] },
      complement: p.complement,
    };
    expect(pairMid(onlyNo)).toBe(487_500);
    expect(pairBook(onlyNo)?.bids[0]).toEqual({ price: 486_000, size: 20_230_870_000 });
    expect(pairRecentMids(onlyNo)).toEqual([{ atMs: T - 1_000, mid: 480_000 }]);
    // No tick or minimum in the book: the market record's.
    expect(pairTick(p)).toBe(10_000);
    expect(pairMinSize(p)).toBe(5 * SH);
  });

  it('net position is YES held minus NO held', () => {
    const p = pairsOf(binary(yesBook([[0.49, 1]], [[0.51, 1]]), { yes: 30, no: 50 }))[0] as Pair;
    expect(netPosition(p)).toBe(-20 * SH);
  });

  it('our orders in YES terms, and the book without them', () => {
    const book = mirrorBook(noBook, YES);
    const orders = [
      order(YES, 'BUY', 0.486, 20), // bid 0.486
      order(NO, 'BUY', 0.511, 4.72), // ask 0.489
      order(NO, 'SELL', 0.52, 10), // bid 0.48
      order(YES, 'SELL', 0.49, 12848.17), // ask 0.49: the whole level
      order(YES, 'BUY', 0.485, 5, { matched: 5 }), // filled: nothing left
    ];
    const p = pairsOf(binary(book, { orders }))[0] as Pair;
    expect(ownLevels(p).map((l) => [l.side, l.price, l.remaining])).toEqual([
      ['bid', 486_000, 20 * SH],
      ['ask', 490_000, 12_848_170_000],
      ['ask', 489_000, 4_720_000],
      ['bid', 480_000, 10 * SH],
    ]);
    const ext = externalBook(p);
    expect(ext?.bids[0]).toEqual({ price: 486_000, size: 20_210_870_000 });
    expect(ext?.asks.slice(0, 2)).toEqual([
      { price: 489_000, size: 1_300_000_000 },
      { price: 491_000, size: 27_880_000 },
    ]);
    // No orders: the book itself.
    const q = pairsOf(binary(book))[0] as Pair;
    expect(externalBook(q)).toBe(q.primary.book);
  });

  it("passive prices: on tick, in range, bids below and asks above the token's own mid", () => {
    const p = pairsOf(binary(yesBook([[0.48, 10]], [[0.52, 10]])))[0] as Pair; // mid 0.50, tick 0.01
    expect(passiveAt(p, { tokenId: YES, side: 'BUY' }, px(0.49))).toBe(true);
    expect(passiveAt(p, { tokenId: YES, side: 'BUY' }, px(0.5))).toBe(false);
    expect(passiveAt(p, { tokenId: YES, side: 'SELL' }, px(0.51))).toBe(true);
    expect(passiveAt(p, { tokenId: YES, side: 'BUY' }, px(0.495))).toBe(false); // off tick
    expect(passiveAt(p, { tokenId: NO, side: 'BUY' }, px(0.49))).toBe(true); // NO's mid is 0.50 too
    expect(passiveAt(p, { tokenId: NO, side: 'SELL' }, px(0.49))).toBe(false);
    expect(passiveAt(p, { tokenId: 'OTHER', side: 'BUY' }, px(0.49))).toBe(false);
    expect(passiveAt(p, { tokenId: YES, side: 'BUY' }, 0)).toBe(false);
    expect(primaryPrice(p, { tokenId: NO, price: px(0.3) })).toBe(700_000);
  });
});

describe('Expresser', () => {
  const book = yesBook([[0.49, 100]], [[0.51, 100]]);
  const pair = (o: { yes?: number; no?: number } = {}): Pair => pairsOf(binary(book, o))[0] as Pair;

  it('flat: a bid buys YES at p, an ask buys NO at 1 − p', () => {
    const ex = new Expresser(pair(), 5 * SH);
    expect(ex.bid(px(0.48), sh(10), 'b')).toBe(sh(10));
    expect(ex.ask(px(0.53), sh(10), 'a')).toBe(sh(10));
    expect(rows(ex.quotes())).toEqual([
      [YES, 'BUY', 0.48, 10],
      [NO, 'BUY', 0.47, 10],
    ]);
    expect(ex.quotes().map((q) => q.tag)).toEqual(['b', 'a']);
  });

  it('holding NO: bids sell it at 1 − p first, the rest buys YES; a rest below the minimum is left out', () => {
    const ex = new Expresser(pair({ no: 30 }), 5 * SH);
    expect(ex.bid(px(0.48), sh(10))).toBe(sh(10));
    expect(ex.bid(px(0.47), sh(25))).toBe(sh(25));
    expect(ex.bid(px(0.46), sh(3))).toBe(0);
    expect(rows(ex.quotes())).toEqual([
      [NO, 'SELL', 0.52, 10],
      [NO, 'SELL', 0.53, 20],
      [YES, 'BUY', 0.47, 5],
    ]);
    const ex2 = new Expresser(pair({ yes: 7 }), 5 * SH);
    expect(ex2.ask(px(0.5), sh(10))).toBe(sh(7)); // 7 sold, the 3 left below the minimum
    expect(rows(ex2.quotes())).toEqual([[YES, 'SELL', 0.5, 7]]);
  });

  it('holdings below the minimum cannot be sold: the side is bought whole (dust stays)', () => {
    const ex = new Expresser(pair({ yes: 3 }), 5 * SH);
    expect(ex.ask(px(0.5), sh(10))).toBe(sh(10));
    expect(rows(ex.quotes())).toEqual([[NO, 'BUY', 0.5, 10]]);
  });

  it('two quotes at one key are one quote of the summed size, with the first tag', () => {
    const ex = new Expresser(pair(), 5 * SH);
    ex.bid(px(0.48), sh(10), 'first');
    ex.bid(px(0.48), sh(15), 'second');
    expect(ex.quotes()).toEqual([{ tokenId: YES, side: 'BUY', price: 480_000, size: sh(25), tag: 'first' }]);
  });

  it('a lone token: bids buy it, asks only sell what is held', () => {
    const lone: Pair = { ...pair({ yes: 12 }), complement: null };
    const ex = new Expresser(lone, 5 * SH);
    ex.bid(px(0.48), sh(10));
    expect(ex.ask(px(0.52), sh(20))).toBe(sh(12));
    expect(rows(ex.quotes())).toEqual([
      [YES, 'BUY', 0.48, 10],
      [YES, 'SELL', 0.52, 12],
    ]);
  });

  it('property: never sells more than held, never both buys and sells one token, minimum respected, sizes add up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(
          fc.record({
            bid: fc.boolean(),
            price: fc.integer({ min: 1, max: 99 }),
            size: fc.integer({ min: 1, max: 6_000 }),
          }),
          { maxLength: 8 },
        ),
        (yes, no, min, ops) => {
          const p = pairsOf(binary(book, { yes, no }))[0] as Pair;
          const ex = new Expresser(p, min * SH);
          let want = 0;
          for (const o of ops) {
            const size = o.size * 10_000;
            const done = o.bid ? ex.bid((o.price * 10_000) as Price, size) : ex.ask((o.price * 10_000) as Price, size);
            expect(done).toBeLessThanOrEqual(size);
            want += done;
          }
          const qs = ex.quotes();
          expect(qs.reduce((s, q) => s + q.size, 0)).toBe(want);
          const sold = (t: string): number =>
            qs.filter((q) => q.tokenId === t && q.side === 'SELL').reduce((s, q) => s + q.size, 0);
          expect(sold(YES)).toBeLessThanOrEqual(yes * SH);
          expect(sold(NO)).toBeLessThanOrEqual(no * SH);
          for (const q of qs) {
            expect(q.size).toBeGreaterThanOrEqual(min * SH);
            expect(q.size % 10_000).toBe(0);
          }
          // A purchase of one token is only made once the complement held is sold down below the minimum.
          if (qs.some((q) => q.tokenId === YES && q.side === 'BUY')) expect(no * SH - sold(NO)).toBeLessThan(min * SH);
          if (qs.some((q) => q.tokenId === NO && q.side === 'BUY')) expect(yes * SH - sold(YES)).toBeLessThan(min * SH);
        },
      ),
      { numRuns: 300 },
    );
  });
});

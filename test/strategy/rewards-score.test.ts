// The liquidity-reward score of docs/protocol.md §6, against hand-computed values: one order's score,
// the size-cutoff midpoint, Q_one and Q_two across a token and its complement, Q_min inside and
// outside [0.10, 0.90] (boundaries included), a whole book's score and the share.
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import {
  bookScore,
  expectedRewardScores,
  orderScore,
  qMin,
  rewardScore,
  rewardShare,
  sizeCutoffMid,
  type RewardTerms,
  type Rewards,
} from '../../src/strategy/sdk.js';
import { fixtureBook, trumpSettings } from './factories.js';
import { binary, NO, order, YES, yesBook } from '../strategies/helpers.js';

const R: RewardTerms = { maxSpread: 30_000 as Price, minSize: 50_000_000 as Shares }; // 3 ¢, 50 shares

describe('order score', () => {
  it('((v − s) / v)² × size, in shares', () => {
    expect(orderScore(10_000, 100_000_000, R)).toBeCloseTo((2 / 3) ** 2 * 100, 10); // 44.444
    expect(orderScore(-10_000, 100_000_000, R)).toBeCloseTo(44.4444444, 6); // distance either way
    expect(orderScore(0, 50_000_000, R)).toBe(50);
    expect(orderScore(29_999, 100_000_000, R)).toBeCloseTo(100 / 30_000 ** 2, 12);
  });

  it('0 at or beyond v, below min_size, or with no window', () => {
    expect(orderScore(30_000, 100_000_000, R)).toBe(0);
    expect(orderScore(31_000, 100_000_000, R)).toBe(0);
    expect(orderScore(0, 49_990_000, R)).toBe(0);
    expect(orderScore(0, 100_000_000, { ...R, maxSpread: 0 as Price })).toBe(0);
  });

  it('the real market record: max_spread 1.5 ¢ rounds to 0.015, min_size 200', () => {
    const r = trumpSettings().rewards;
    expect(r).not.toBeNull();
    expect(r?.maxSpread).toBe(15_000);
    expect(orderScore(5_000, 200_000_000, r as RewardTerms)).toBeCloseTo((10 / 15) ** 2 * 200, 10);
  });
});

describe('size-cutoff midpoint', () => {
  it('the best levels holding at least min_size on each side', () => {
    const b = yesBook(
      [
        [0.49, 10],
        [0.48, 60],
      ],
      [[0.51, 100]],
    );
    expect(sizeCutoffMid(b, 50_000_000)).toBe(495_000);
    expect(sizeCutoffMid(b, 1)).toBe(500_000);
    expect(sizeCutoffMid(b, 200_000_000)).toBeNull();
  });

  it('half a millionth rounds half-even', () => {
    const b = (bid: number) => ({
      ...yesBook([], []),
      bids: [{ price: bid as Price, size: 1 as Shares }],
      asks: [{ price: 510_000 as Price, size: 1 as Shares }],
    });
    expect(sizeCutoffMid(b(480_001), 1)).toBe(495_000); // 495 000.5 → even
    expect(sizeCutoffMid(b(480_003), 1)).toBe(495_002); // 495 001.5 → even
  });

  it('on a real book: the 2024 No book with min_size 200', () => {
    // bids 0.511×1304.72, asks 0.514×20230.87: both levels hold ≥ 200
    expect(sizeCutoffMid(fixtureBook('clob_ws_book_2024.json'), 200_000_000)).toBe(512_500);
  });
});

describe('market score', () => {
  it("Q_one = bids on the token + asks on its complement; Q_two the reverse; distances in each token's terms", () => {
    const orders = [
      { tokenId: 'Y', side: 'BUY' as const, price: 490_000, size: 100_000_000 }, // d 0.01 → 44.444 (Q_one)
      { tokenId: 'N', side: 'SELL' as const, price: 520_000, size: 100_000_000 }, // N mid 0.50, d 0.02 → 11.111 (Q_one)
      { tokenId: 'N', side: 'BUY' as const, price: 490_000, size: 60_000_000 }, // d 0.01 → 26.667 (Q_two)
      { tokenId: 'Y', side: 'SELL' as const, price: 500_000, size: 50_000_000 }, // d 0 → 50 (Q_two)
      { tokenId: 'Z', side: 'BUY' as const, price: 500_000, size: 500_000_000 }, // another market: ignored
    ];
    const s = rewardScore(orders, 'Y', 'N', 500_000, R);
    expect(s.qOne).toBeCloseTo(55.5555556, 6);
    expect(s.qTwo).toBeCloseTo(76.6666667, 6);
    expect(s.qMin).toBeCloseTo(55.5555556, 6); // max(min, max / 3) = max(55.56, 25.56)
  });

  it("the complement's mid is 1 − the token's", () => {
    // mid 0.30: N's mid is 0.70; a BUY N at 0.69 is 0.01 away
    const s = rewardScore([{ tokenId: 'N', side: 'BUY', price: 690_000, size: 90_000_000 }], 'Y', 'N', 300_000, R);
    expect(s.qTwo).toBeCloseTo(40, 10);
    expect(s.qOne).toBe(0);
    expect(s.qMin).toBeCloseTo(40 / 3, 10);
  });

  it('Q_min: one side scores a third with the mid in [0.10, 0.90] (inclusive), nothing outside', () => {
    expect(qMin(90, 0, 500_000)).toBe(30);
    expect(qMin(90, 0, 100_000)).toBe(30);
    expect(qMin(90, 0, 900_000)).toBe(30);
    expect(qMin(90, 0, 99_999)).toBe(0);
    expect(qMin(90, 0, 900_001)).toBe(0);
    expect(qMin(90, 60, 950_000)).toBe(60);
    expect(qMin(90, 20, 500_000)).toBe(30);
    expect(qMin(90, 40, 500_000)).toBe(40);
  });

  it('a whole book, each level as one order; the share of the rate', () => {
    const b = yesBook(
      [
        [0.49, 100],
        [0.48, 40],
        [0.47, 1000],
      ],
      [
        [0.51, 100],
        [0.52, 100],
      ],
    );
    const s = bookScore(b, 500_000, R);
    // bids: 0.49 → 44.444; 0.48 below min size; 0.47 at v → 0. asks: 44.444 + 11.111
    expect(s.qOne).toBeCloseTo(44.4444444, 6);
    expect(s.qTwo).toBeCloseTo(55.5555556, 6);
    expect(rewardShare(30, 90)).toBe(0.25);
    expect(rewardShare(0, 0)).toBe(0);
    expect(rewardShare(10, -5)).toBe(1);
  });
});

describe('expected reward scores per market', () => {
  const r: Rewards = {
    rates: [],
    dailyRate: 100_000_000 as Micros,
    minSize: 50_000_000 as Shares,
    maxSpreadCents: 3,
    maxSpread: 30_000 as Price,
  };
  const book = yesBook(
    [
      [0.49, 100],
      [0.47, 500],
    ],
    [
      [0.51, 100],
      [0.53, 500],
    ],
  );

  it("any strategy's quotes, per market paying rewards, against the mid without our resting orders", () => {
    // Our resting 100 at 0.49 and 0.51 are the best levels: without them the size-cutoff mid is
    // (0.47 + 0.53) / 2 = 0.50 all the same; quotes 0.01 away on each side score 44.44 each.
    const m = binary(book, {
      settings: { rewards: r },
      orders: [order(YES, 'BUY', 0.49, 100), order(NO, 'BUY', 0.49, 100)],
    });
    const quotes = [
      { tokenId: YES, side: 'BUY' as const, price: 490_000, size: 100_000_000 },
      { tokenId: NO, side: 'BUY' as const, price: 490_000, size: 100_000_000 },
    ];
    const s = expectedRewardScores([m, binary(book, { settings: { conditionId: '0xnorewards' } })], quotes);
    expect([...s.keys()]).toEqual([m.conditionId]);
    expect(s.get(m.conditionId)?.qOne).toBeCloseTo(44.4444444, 6);
    expect(s.get(m.conditionId)?.qMin).toBeCloseTo(44.4444444, 6);
    // a market with no mid is absent
    expect(expectedRewardScores([binary(yesBook([[0.4, 100]], []), { settings: { rewards: r } })], quotes).size).toBe(
      0,
    );
  });
});

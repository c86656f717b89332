// rewards: placement on the real Trump market (rewards 750/day, max_spread 1.5 ¢, min_size 200)
// against hand-computed prices and scores; the distance v − 2/κ and its clamps; ticks that would
// leave the window; staying behind the touch; the two-sided rule outside [0.10, 0.90]; inventory
// in lots and unwinding; markets without rewards; params; and a property: every order scores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import {
  mirrorBook,
  orderScore,
  pairsOf,
  silentLogger,
  type MarketView,
  type Pair,
  type Rewards,
  type StrategyLogger,
} from '../../src/strategy/sdk.js';
import { registry } from '../../strategies/index.js';
import { rewards, rewardsPlan, type RewardsParams } from '../../strategies/rewards/index.js';
import { fixtureBook, trumpSettings } from '../strategy/factories.js';
import {
  binary,
  checkInvariants,
  inputAt,
  NO,
  px,
  rows,
  sh,
  SH,
  T,
  YES,
  yesBook,
  type BinaryOptions,
} from './helpers.js';

const P = (raw: Record<string, unknown> = {}): RewardsParams => rewards.parseParams(raw) as RewardsParams;
const trumpRewards = trumpSettings().rewards as Rewards;
const trumpYes = { ...mirrorBook(fixtureBook('clob_ws_book_2024.json'), YES), timestampMs: T }; // 0.486 / 0.489
const trump = (o: BinaryOptions = {}): MarketView =>
  binary(trumpYes, {
    ...o,
    settings: { tickSize: px(0.001), minOrderSize: sh(5), rewards: trumpRewards, ...o.settings },
  });
const pair = (m: MarketView): Pair => pairsOf(m)[0] as Pair;
const terms = (maxSpread: number, minSize: number, daily = 100): Rewards => ({
  rates: [{ assetAddress: '0xusdc', dailyRate: (daily * SH) as Micros }],
  dailyRate: (daily * SH) as Micros,
  minSize: sh(minSize),
  maxSpreadCents: maxSpread * 100,
  maxSpread: px(maxSpread),
});

describe('rewards: placement on a real market', () => {
  it('the record: 750/day, max_spread 1.5 ¢ → 0.015, min_size 200', () => {
    expect(trumpRewards).toMatchObject({ dailyRate: 750 * SH, maxSpread: 15_000, minSize: 200 * SH });
  });

  it('κ = 100: v − 2/κ < 0, so the minimum distance 0.005; min_size each side; both sides score 80.22', () => {
    const x = rewardsPlan(P(), pair(trump()), T);
    expect(x?.mid).toBe(487_500); // size-cutoff mid: 0.486 and 0.489 both hold ≥ 200
    expect(x?.distance).toBe(5_000);
    // 0.4825 floors to 0.482 (0.0055 away), 0.4925 ceils to 0.493; the ask is a BUY NO at 0.507
    expect([x?.bid, x?.ask]).toEqual([482_000, 493_000]);
    expect(rows(x?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.482, 200],
      [NO, 'BUY', 0.507, 200],
    ]);
    const each = ((0.015 - 0.0055) / 0.015) ** 2 * 200; // 80.222
    expect(x?.score.qOne).toBeCloseTo(each, 9);
    expect(x?.score.qTwo).toBeCloseTo(each, 9);
    expect(x?.score.qMin).toBeCloseTo(each, 9);
    expect(x?.share).toBeCloseTo(each / (each + (x?.others.qMin ?? 0)), 12);
    expect(x?.expectedDaily).toBeCloseTo((x?.share ?? 0) * 750, 9);
    expect(x?.others.qMin).toBeGreaterThan(0);
  });

  it('κ = 400: s* = 0.015 − 0.005 = 0.01', () => {
    const x = rewardsPlan(P({ kappa: 400 }), pair(trump()), T);
    expect(x?.distance).toBe(10_000);
    expect([x?.bid, x?.ask]).toEqual([477_000, 498_000]); // 0.4775 → 0.477, 0.4975 → 0.498
  });

  it('when rounding away from the mid would leave the window, it rounds toward it', () => {
    // κ = 10 000: s* = 0.0148; 0.4727 floors to 0.472 (0.0155 ≥ v), so 0.473; 0.5023 ceils to 0.503, so 0.502
    const x = rewardsPlan(P({ kappa: 10_000 }), pair(trump()), T);
    expect(x?.distance).toBe(14_800);
    expect([x?.bid, x?.ask]).toEqual([473_000, 502_000]);
    expect(orderScore(487_500 - 473_000, 200 * SH, trumpRewards)).toBeGreaterThan(0);
  });

  it('size: at least min_size and the market minimum', () => {
    expect(rewardsPlan(P({ size: 250 }), pair(trump()), T)?.quotes.map((q) => q.size / SH)).toEqual([250, 250]);
    expect(rewardsPlan(P({ size: 50, maxLots: 2 }), pair(trump()), T)?.quotes.map((q) => q.size / SH)).toEqual([
      200, 200,
    ]);
  });

  it('logs its expected score per market, and is registered', () => {
    const logged: Array<[string, unknown]> = [];
    const log: StrategyLogger = {
      ...silentLogger,
      debug: (m, f) => {
        logged.push([m, f]);
      },
    };
    const runner = registry.get('rewards').create({}, { clock: new VirtualClock(T), log });
    const inp = inputAt([trump()]);
    runner.start(inp);
    expect(rows(runner.quote(inp))).toEqual([
      [YES, 'BUY', 0.482, 200],
      [NO, 'BUY', 0.507, 200],
    ]);
    expect(logged[0]?.[0]).toBe('rewards score');
    expect(logged[0]?.[1]).toMatchObject({ market: trumpYes.market, qMin: expect.closeTo(80.2222, 3) as unknown });
  });
});

describe('rewards: behind the touch, the window, the sides', () => {
  // mid 0.50, tick 0.01, v = 0.035, min 50: s* = 0.015 → 0.485 → 0.48 / 0.515 → 0.52
  const wide = yesBook([[0.47, 500]], [[0.53, 500]]);
  const m = (o: BinaryOptions = {}): MarketView =>
    binary(wide, { ...o, settings: { rewards: terms(0.035, 50), ...o.settings } });

  it('joins the best external price instead of improving on it, while that still scores', () => {
    expect(rows(rewardsPlan(P(), pair(m()), T)?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.47, 50],
      [NO, 'BUY', 0.47, 50],
    ]);
    expect(rows(rewardsPlan(P({ behindTouch: false }), pair(m()), T)?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.48, 50],
      [NO, 'BUY', 0.48, 50],
    ]);
    // v = 0.025: the touch (0.03 away) would not score, so it improves on it
    expect(rows(rewardsPlan(P(), pair(m({ settings: { rewards: terms(0.025, 50) } })), T)?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.49, 50],
      [NO, 'BUY', 0.49, 50],
    ]);
  });

  it('the scoring mid ignores levels below min_size', () => {
    const b = yesBook(
      [
        [0.49, 10],
        [0.47, 500],
      ],
      [[0.53, 500]],
    ); // the 0.49 bid is dust: mid stays 0.50
    const x = rewardsPlan(P(), pair(binary(b, { settings: { rewards: terms(0.035, 50) } })), T);
    expect(x?.mid).toBe(500_000);
  });

  it('holding a lot (maxLots 1): only the side that unwinds it, inside [0.10, 0.90] and outside', () => {
    expect(rows(rewardsPlan(P(), pair(m({ yes: 50 })), T)?.quotes ?? [])).toEqual([[YES, 'SELL', 0.53, 50]]);
    expect(rows(rewardsPlan(P(), pair(m({ no: 50 })), T)?.quotes ?? [])).toEqual([[NO, 'SELL', 0.53, 50]]);
    const low = yesBook([[0.04, 500]], [[0.06, 500]]); // mid 0.05
    const lowM = (o: BinaryOptions): MarketView => binary(low, { ...o, settings: { rewards: terms(0.03, 50) } });
    expect(rows(rewardsPlan(P(), pair(lowM({})), T)?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.04, 50],
      [NO, 'BUY', 0.94, 50],
    ]);
    expect(rows(rewardsPlan(P(), pair(lowM({ yes: 50 })), T)?.quotes ?? [])).toEqual([[YES, 'SELL', 0.06, 50]]);
    // 30 held, fewer than min_size: a sale would not score, so the ask is bought whole as NO
    expect(rows(rewardsPlan(P(), pair(m({ yes: 30 })), T)?.quotes ?? [])).toEqual([[NO, 'BUY', 0.47, 50]]);
    // two lots allowed: holding one, both sides again
    expect(rewardsPlan(P({ maxLots: 2 }), pair(m({ yes: 50 })), T)?.quotes).toHaveLength(2);
  });

  it('outside [0.10, 0.90] one side alone that does not unwind is not quoted (it would score nothing)', () => {
    const low = yesBook([[0.01, 500]], [[0.02, 500]]); // mid 0.015; 0.01 from it, a bid is below the tick
    const x = rewardsPlan(P({ minDistance: 0.01 }), pair(binary(low, { settings: { rewards: terms(0.03, 50) } })), T);
    expect(x).toBeNull();
    // inside the band one side scores a third: quoted, unless twoSidedOnly
    const mid = yesBook([[0.49, 500]], [[0.51, 500]]);
    const oneSide = (raw: Record<string, unknown>) =>
      rewardsPlan(P(raw), pair(binary(mid, { settings: { rewards: terms(0.03, 50) }, no: 0, yes: 0 })), T);
    expect(oneSide({ maxPosition: 49 })).toBeNull(); // neither side fits the position limit
  });

  it('nothing on a market without rewards, or with a window no wider than minDistance', () => {
    expect(rewardsPlan(P(), pair(binary(wide)), T)).toBeNull();
    expect(rewardsPlan(P({ minDistance: 0.035 }), pair(m()), T)).toBeNull();
  });

  it('the guards: a fast mid pulls at 0.02 by default; a thin book widens toward v', () => {
    expect(rewardsPlan(P(), pair(m({ recentMids: [{ atMs: T - 5_000, mid: px(0.479) }] })), T)).toBeNull();
    expect(rewardsPlan(P(), pair(m({ recentMids: [{ atMs: T - 5_000, mid: px(0.48) }] })), T)).not.toBeNull();
    // thin: 500 within 0.02 < 1000 → widen ×2: 0.035 − (0.035 − 0.015) / 2 = 0.025 from the mid
    const x = rewardsPlan(P({ behindTouch: false, guards: { thinDepth: 1000 } }), pair(m()), T);
    expect(x?.distance).toBe(25_000);
    expect([x?.bid, x?.ask]).toEqual([470_000, 530_000]);
  });
});

describe('rewards: property', () => {
  it('every order scores (size ≥ min_size, within v of the scoring mid), passive, on tick, limits held', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(10_000, 1_000),
        fc.integer({ min: 3, max: 97 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(0.015, 0.02, 0.03, 0.035, 0.045),
        fc.constantFrom(20, 50, 100, 200),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 50, max: 1_000 }),
        fc.double({ min: 10, max: 10_000, noNaN: true }),
        fc.boolean(),
        (tick, centi, spreadTicks, v, minSize, yes, no, maxLots, maxPos, kappa, behind) => {
          const bid = centi * 10_000;
          const ask = bid + spreadTicks * tick;
          if (ask > SH - tick) return;
          const b = {
            ...yesBook([], []),
            bids: [{ price: bid as Price, size: (1_000 * SH) as Shares }],
            asks: [{ price: ask as Price, size: (1_000 * SH) as Shares }],
            tickSize: tick as Price,
          };
          const r = terms(v, minSize);
          const mk = binary(b, { yes, no, settings: { rewards: r } });
          const p = P({ maxLots, maxPosition: maxPos, kappa, behindTouch: behind });
          const x = rewardsPlan(p, pair(mk), T);
          if (x === null) return;
          const size = Math.max(minSize, 5) * SH;
          checkInvariants(x.quotes, mk, Math.max(Math.min(maxPos * SH, maxLots * size), Math.abs(yes - no) * SH));
          for (const q of x.quotes) {
            const own = q.tokenId === YES;
            const m = own ? x.mid : SH - x.mid;
            expect(orderScore(q.price - m, q.size, r), `${q.tokenId} ${q.side} ${q.price}`).toBeGreaterThan(0);
            const yesPrice = own ? q.price : SH - q.price;
            const isBid = own === (q.side === 'BUY');
            if (isBid) expect(yesPrice).toBeLessThan(ask);
            else expect(yesPrice).toBeGreaterThan(bid);
          }
          const n = yes - no;
          const sides = new Set(x.quotes.map((q) => ((q.tokenId === YES) === (q.side === 'BUY') ? 'bid' : 'ask')));
          if (sides.size === 1 && (x.mid < 100_000 || x.mid > 900_000)) {
            // one side outside the band: only to unwind
            expect(sides.has('bid') ? n < 0 : n > 0).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

// avellaneda-stoikov: the model on a real book against hand-computed values (reservation price,
// half-spread, the variance cap m(1 − m), the horizon from the end date), inventory skew and
// limits, the bounds of (0, 1), the minimum spread in ticks, passivity, the guards, params, and a
// property over random books, holdings and parameters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ParseError } from '../../src/core/errors.js';
import type { Price, Shares } from '../../src/core/money.js';
import {
  mirrorBook,
  pairsOf,
  silentLogger,
  type MarketView,
  type MidSample,
  type Pair,
} from '../../src/strategy/sdk.js';
import { asModel, asParams, avellanedaStoikov, type AsParams } from '../../strategies/avellaneda-stoikov/index.js';
import { registry } from '../../strategies/index.js';
import { fixtureBook } from '../strategy/factories.js';
import { binary, checkInvariants, inputAt, NO, px, rows, SH, T, YES, yesBook, type BinaryOptions } from './helpers.js';

const P = (raw: Record<string, unknown> = {}): AsParams => avellanedaStoikov.parseParams(raw) as AsParams;
// The Trump market's YES book: the mirror of the recorded 2024 No book (best 0.486 / 0.489 → mid
// 0.4875), tick 0.001, minimum 5.
const trumpYes = { ...mirrorBook(fixtureBook('clob_ws_book_2024.json'), YES), timestampMs: T };
const trump = (o: BinaryOptions = {}): MarketView =>
  binary(trumpYes, { ...o, settings: { tickSize: px(0.001), minOrderSize: (5 * SH) as Shares, ...o.settings } });
const pair = (m: MarketView): Pair => pairsOf(m)[0] as Pair;
/** Mids moving ±d each second: σ = d per √s whatever the weights. */
const wiggle = (d: number): MidSample[] => [
  { atMs: T - 2_000, mid: px(0.4875) },
  { atMs: T - 1_000, mid: px(0.4875 + d) },
  { atMs: T, mid: px(0.4875) },
];
const TWO_HOURS = 7_200_000;

describe('avellaneda-stoikov: the model on a real book', () => {
  it('flat, σ = 0.001/√s, end in 2 h: V = σ²τ = 0.0072, half-spread (γV + (2/γ) ln(1 + γ/κ)) / 2', () => {
    const m = trump({ recentMids: wiggle(0.001), settings: { endDateMs: T + TWO_HOURS } });
    const x = asModel(P(), pair(m), T);
    expect(x).not.toBeNull();
    expect(x?.sigma).toBeCloseTo(0.001, 12);
    expect(x?.tauSec).toBe(7_200);
    expect(x?.variance).toBeCloseTo(0.0072, 12);
    expect(x?.reservation).toBeCloseTo(0.4875, 12);
    expect(x?.halfSpread).toBeCloseTo(0.0103550033, 9);
    // 0.4875 ∓ 0.010355 = 0.477145 / 0.497855 → bid floored 0.477, ask ceiled 0.498 (as BUY NO at 0.502)
    expect([x?.bid, x?.ask]).toEqual([477_000, 498_000]);
    expect(rows(x?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.477, 10],
      [NO, 'BUY', 0.502, 10],
    ]);
    expect((x?.quotes ?? []).map((q) => q.tag)).toEqual(['as-bid', 'as-ask']);
  });

  it('holding 30 YES (3 lots of 10): r = m − x γ V = 0.48534, both quotes move down, the ask sells YES', () => {
    const x = asModel(
      P(),
      pair(trump({ yes: 30, recentMids: wiggle(0.001), settings: { endDateMs: T + TWO_HOURS } })),
      T,
    );
    expect(x?.inventory).toBe(3);
    expect(x?.reservation).toBeCloseTo(0.48534, 12);
    // 0.48534 ∓ 0.010355 = 0.474985 / 0.495695
    expect(rows(x?.quotes ?? [])).toEqual([
      [YES, 'BUY', 0.474, 10],
      [YES, 'SELL', 0.496, 10],
    ]);
  });

  it('the variance is capped at m(1 − m), the most a price in (0, 1) can have at resolution', () => {
    const x = asModel(P(), pair(trump({ recentMids: wiggle(0.01), settings: { endDateMs: T + TWO_HOURS } })), T);
    expect(x?.sigma).toBeCloseTo(0.01, 12);
    expect(x?.variance).toBeCloseTo(0.4875 * 0.5125, 12); // σ²τ = 0.72 would exceed it
    expect(x?.halfSpread).toBeCloseTo(0.0224871908, 9);
    expect([x?.bid, x?.ask]).toEqual([465_000, 510_000]);
  });

  it('the horizon is the end date when known, else maxHorizonMs (6 h by default), and at most that', () => {
    const unknown = asModel(P(), pair(trump({ recentMids: wiggle(0.001) })), T);
    expect(unknown?.tauSec).toBe(21_600);
    expect(unknown?.variance).toBeCloseTo(0.0216, 12);
    expect([unknown?.bid, unknown?.ask]).toEqual([476_000, 499_000]); // 0.4875 ∓ 0.011075
    const far = asModel(
      P(),
      pair(trump({ recentMids: wiggle(0.001), settings: { endDateMs: T + 30 * 86_400_000 } })),
      T,
    );
    expect(far?.tauSec).toBe(21_600);
    expect(asModel(P({ maxHorizonMs: 3_600_000 }), pair(trump()), T)?.tauSec).toBe(3_600);
  });

  it('without mids σ is the floor', () => {
    expect(asModel(P({ sigmaFloor: 0.0005 }), pair(trump()), T)?.sigma).toBe(0.0005);
  });
});

describe('avellaneda-stoikov: bounds, ticks, passivity, limits', () => {
  it('the half-spread is at least minHalfSpreadTicks of the current tick', () => {
    // κ = 10 000 makes the model's half-spread 0.00014: three ticks of 0.001 it is
    const b = yesBook([[0.4, 100]], [[0.6, 100]], { tick: 0.001 });
    const x = asModel(P({ kappa: 10_000, minHalfSpreadTicks: 3 }), pair(binary(b)), T);
    expect(x?.halfSpread).toBeCloseTo(0.003, 12);
    expect([x?.bid, x?.ask]).toEqual([497_000, 503_000]);
  });

  it('near 0 a bid below the tick is left out, never clamped; the ask stays', () => {
    const b = yesBook([[0.01, 100]], [[0.02, 100]]); // mid 0.015, tick 0.01
    const x = asModel(P(), pair(binary(b)), T);
    expect(x?.bid).toBeNull();
    expect(rows(x?.quotes ?? [])).toEqual([[NO, 'BUY', 0.97, 10]]);
    const hi = yesBook([[0.98, 100]], [[0.99, 100]]);
    expect(rows(asModel(P(), pair(binary(hi)), T)?.quotes ?? [])).toEqual([[YES, 'BUY', 0.97, 10]]);
  });

  it('passive: a bid never reaches the external ask; short at the limit only the reducing side is quoted', () => {
    // Holding 100 NO (−10 lots) with σ large: r = 0.4925 + 10 × 0.1 × 0.2499 ≈ 0.742, far above the book
    const b = yesBook([[0.49, 100]], [[0.495, 100]], { tick: 0.001 });
    const x = asModel(P({ sigmaFloor: 0.01 }), pair(binary(b, { no: 100 })), T);
    expect(x?.reservation).toBeCloseTo(0.74244375, 9);
    expect(x?.bid).toBe(494_000);
    expect(rows(x?.quotes ?? [])).toEqual([[NO, 'SELL', 0.506, 10]]); // the ask would add to the short: budget 0
  });

  it('a size below the market minimum is raised to it (the lot too)', () => {
    const x = asModel(P({ size: 2 }), pair(trump({ yes: 10 })), T);
    expect(x?.inventory).toBe(2); // 10 shares in lots of 5
    expect((x?.quotes ?? []).map((q) => q.size)).toEqual([5 * SH, 5 * SH]);
  });

  it('the guards pull: end date within the hour, stale book, fast mid', () => {
    expect(asModel(P(), pair(trump({ settings: { endDateMs: T + 3_600_000 } })), T)).toBeNull();
    expect(asModel(P(), pair(trump({ bookAtMs: T - 10_001 })), T)).toBeNull();
    expect(asModel(P(), pair(trump({ recentMids: wiggle(0.06) })), T)).toBeNull();
  });
});

describe('avellaneda-stoikov: runner and params', () => {
  it('is registered and quotes every binary market of its context', () => {
    const runner = registry.get('avellaneda-stoikov').create({}, { clock: new VirtualClock(T), log: silentLogger });
    const inp = inputAt([trump({ recentMids: wiggle(0.001), settings: { endDateMs: T + TWO_HOURS } })]);
    runner.start(inp);
    expect(rows(runner.quote(inp))).toEqual([
      [YES, 'BUY', 0.477, 10],
      [NO, 'BUY', 0.502, 10],
    ]);
  });

  it('params: defaults and errors naming the path and the value', () => {
    expect(P()).toMatchObject({
      gamma: 0.1,
      kappa: 100,
      size: 10 * SH,
      maxPosition: 100 * SH,
      volHalfLifeMs: 60_000,
      sigmaFloor: 0.0002,
      maxHorizonMs: 21_600_000,
      minHalfSpreadTicks: 1,
      maxHalfSpread: 100_000,
    });
    const err = (raw: unknown): string => {
      try {
        avellanedaStoikov.parseParams(raw, 'strategy.params');
      } catch (e) {
        if (e instanceof ParseError) return e.message;
        throw e;
      }
      return 'no error';
    };
    expect(err({ gamma: 0 })).toMatch(/strategy\.params\.gamma: .*\(got 0\)/);
    expect(err({ size: 10.001 })).toMatch(/strategy\.params\.size: shares must have at most 2 decimals/);
    expect(err({ guards: { fastAction: 'run' } })).toMatch(/strategy\.params\.guards\.fastAction/);
    expect(asParams.safeParse({ kappa: -1 }).success).toBe(false);
  });
});

describe('avellaneda-stoikov: property', () => {
  it('on tick, in range, bid below ask, passive, sizes at least the minimum, sells within holdings, net limit held', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(10_000, 1_000),
        fc.integer({ min: 2, max: 97 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0.001, max: 10, noNaN: true }),
        fc.double({ min: 1, max: 5_000, noNaN: true }),
        fc.array(fc.integer({ min: -20_000, max: 20_000 }), { maxLength: 10 }),
        (tick, centiMid, spreadTicks, yes, no, maxPos, size, gamma, kappa, moves) => {
          const bid = centiMid * 10_000;
          const ask = bid + spreadTicks * tick;
          if (ask > SH - tick) return;
          const b = {
            ...yesBook([], []),
            bids: [{ price: bid as Price, size: SH as Shares }],
            asks: [{ price: ask as Price, size: SH as Shares }],
            tickSize: tick as Price,
          };
          let mid = (bid + ask) / 2;
          const mids: MidSample[] = moves.map((d, i) => {
            mid = Math.min(990_000, Math.max(10_000, mid + d));
            return { atMs: T - (moves.length - i) * 1_000, mid: Math.round(mid) as Price };
          });
          const m = binary(b, { yes, no, recentMids: mids });
          const p = P({ gamma, kappa, maxPosition: maxPos, size, guards: { maxMidMove: 0 } });
          const x = asModel(p, pair(m), T);
          if (x === null) return;
          checkInvariants(x.quotes, m, maxPos * SH);
          if (x.bid !== null) expect(x.bid).toBeLessThan(ask);
          if (x.ask !== null) expect(x.ask).toBeGreaterThan(bid);
          if (x.bid !== null && x.ask !== null) expect(x.bid).toBeLessThan(x.ask);
        },
      ),
      { numRuns: 400 },
    );
  });
});

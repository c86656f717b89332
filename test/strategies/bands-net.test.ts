// bands, extended: a binary market as one book (one ladder from the net position, each side
// expressed with the cheaper token), the price floor and ceiling, the refresh tolerance, the
// maximum order age, the guards (end date, stale book, fast mid), the separate mode, and a
// property over random books, holdings and ladders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { TICKS } from '../../src/core/tick.js';
import type { Price, Shares } from '../../src/core/money.js';
import { silentLogger } from '../../src/strategy/sdk.js';
import { bands, ladder, marketQuotes, type BandsParams } from '../../strategies/bands/index.js';
import { fixtureBook } from '../strategy/factories.js';
import { binary, checkInvariants, inputAt, NO, order, px, rows, SH, T, YES, yesBook } from './helpers.js';

const P = (raw: Record<string, unknown> = {}): BandsParams => bands.parseParams(raw) as BandsParams;
// The real 2026 book: best 0.005 / 0.995 → mid 0.5; tick 0.001, minimum 5. As the YES token.
const wide = { ...fixtureBook('wire/markets/book_get_ccxt_2026-06-12.json'), assetId: YES, timestampMs: T };

describe('bands: one book per binary market', () => {
  it('flat: each level bids YES at m − margin and bids NO at 1 − (m + margin)', () => {
    expect(rows(marketQuotes(P(), binary(wide), T))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.49, 10],
      [YES, 'BUY', 0.48, 15],
      [NO, 'BUY', 0.48, 15],
      [YES, 'BUY', 0.46, 25],
      [NO, 'BUY', 0.46, 25],
    ]);
  });

  it('holding 30 YES: the asks sell them from the inside out, and only then buy NO', () => {
    // net +30: bid budget 70, ask budget 130; level 2's ask: 5 YES sold, 20 bought as NO at 1 − 0.54
    expect(rows(marketQuotes(P(), binary(wide, { yes: 30 }), T))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [YES, 'SELL', 0.51, 10],
      [YES, 'BUY', 0.48, 15],
      [YES, 'SELL', 0.52, 15],
      [YES, 'BUY', 0.46, 25],
      [YES, 'SELL', 0.54, 5],
      [NO, 'BUY', 0.46, 20],
    ]);
  });

  it('holding 30 NO: the bids sell it at 1 − p first; the asks buy NO as before', () => {
    expect(rows(marketQuotes(P(), binary(wide, { no: 30 }), T))).toEqual([
      [NO, 'SELL', 0.51, 10],
      [NO, 'BUY', 0.49, 10],
      [NO, 'SELL', 0.52, 15],
      [NO, 'BUY', 0.48, 15],
      [NO, 'SELL', 0.54, 5],
      [YES, 'BUY', 0.46, 20],
      [NO, 'BUY', 0.46, 25],
    ]);
  });

  it('the limit is on the net position: at −100 nothing adds to it, everything held is offered back', () => {
    const qs = marketQuotes(P(), binary(wide, { no: 100 }), T);
    expect(rows(qs)).toEqual([
      [NO, 'SELL', 0.51, 10],
      [NO, 'SELL', 0.52, 15],
      [NO, 'SELL', 0.54, 25],
    ]);
    // holding both: YES 20 and NO 20 is net 0 — each side sells what it can first
    expect(
      rows(marketQuotes(P({ levels: [{ margin: 0.01, size: 10 }] }), binary(wide, { yes: 20, no: 20 }), T)),
    ).toEqual([
      [NO, 'SELL', 0.51, 10],
      [YES, 'SELL', 0.51, 10],
    ]);
  });

  it("separate mode: each token's own ladder, as the first version quoted", () => {
    const m = binary(wide, { yes: 30 });
    const p = P({ complement: 'separate' });
    const first = [...ladder(p, m, m.tokens[0]!), ...ladder(p, m, m.tokens[1]!)];
    expect(marketQuotes(p, m, T)).toEqual(first);
    expect(rows(first).filter((r) => r[0] === NO)).toEqual([
      [NO, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.48, 15],
      [NO, 'BUY', 0.46, 25],
    ]);
  });

  it('a price ceiling and floor, in YES terms: levels outside are left out, not clamped', () => {
    expect(rows(marketQuotes(P({ priceCeiling: 0.485 }), binary(wide), T))).toEqual([
      [YES, 'BUY', 0.48, 15],
      [YES, 'BUY', 0.46, 25],
    ]);
    expect(rows(marketQuotes(P({ priceFloor: 0.52 }), binary(wide), T))).toEqual([
      [NO, 'BUY', 0.48, 15],
      [NO, 'BUY', 0.46, 25],
    ]);
    expect(() => P({ priceFloor: 0.6, priceCeiling: 0.4 })).toThrow(/priceCeiling must be above priceFloor/);
  });
});

describe('bands: refresh tolerance and order age', () => {
  const one = (raw: Record<string, unknown> = {}): BandsParams => P({ levels: [{ margin: 0.01, size: 10 }], ...raw });

  it('a resting order within the tolerance stays where it is', () => {
    const orders = [order(YES, 'BUY', 0.487, 10), order(NO, 'BUY', 0.494, 10)];
    expect(rows(marketQuotes(one(), binary(wide, { orders }), T))).toEqual([
      [YES, 'BUY', 0.487, 10],
      [NO, 'BUY', 0.494, 10],
    ]);
    expect(rows(marketQuotes(one({ refreshTolerance: 0.002 }), binary(wide, { orders }), T))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.49, 10],
    ]);
  });

  it('a resting price no longer on the tick (the tick changed) is not kept', () => {
    const coarse = { ...wide, tickSize: px(0.01) };
    const orders = [order(YES, 'BUY', 0.487, 10)];
    expect(rows(marketQuotes(one(), binary(coarse, { orders }), T))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.49, 10],
    ]);
  });

  it('an order past maxOrderAgeMs is renewed: left out this call, placed again the next', () => {
    const old = order(YES, 'BUY', 0.49, 10, { atMs: T - 600_000 });
    const p = one({ maxOrderAgeMs: 600_000 });
    expect(rows(marketQuotes(p, binary(wide, { orders: [old] }), T))).toEqual([[NO, 'BUY', 0.49, 10]]);
    expect(rows(marketQuotes(p, binary(wide, { orders: [{ ...old, state: 'cancelling' }] }), T))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.49, 10],
    ]);
    expect(rows(marketQuotes(one(), binary(wide, { orders: [old] }), T))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.49, 10],
    ]);
  });
});

describe('bands: guards', () => {
  const one = P({ levels: [{ margin: 0.01, size: 10 }] });

  it('pulls an hour before the end date, on a stale book, on a crossed one', () => {
    expect(marketQuotes(one, binary(wide, { settings: { endDateMs: T + 3_600_000 } }), T)).toEqual([]);
    expect(marketQuotes(one, binary(wide, { settings: { endDateMs: T + 3_600_001 } }), T)).toHaveLength(2);
    expect(marketQuotes(one, binary(wide, { bookAtMs: T - 10_001 }), T)).toEqual([]);
    expect(marketQuotes(one, binary(yesBook([[0.52, 10]], [[0.51, 10]])), T)).toEqual([]);
  });

  it('a fast mid pulls by default, or doubles the margins with fastAction widen', () => {
    const fast = { recentMids: [{ atMs: T - 10_000, mid: px(0.44) }] }; // 0.06 in 10 s
    expect(marketQuotes(one, binary(wide, fast), T)).toEqual([]);
    const widen = P({ levels: [{ margin: 0.01, size: 10 }], guards: { fastAction: 'widen' } });
    expect(rows(marketQuotes(widen, binary(wide, fast), T))).toEqual([
      [YES, 'BUY', 0.48, 10],
      [NO, 'BUY', 0.48, 10],
    ]);
  });

  it('the runner quotes every market of its context through the guards', () => {
    const runner = bands.create(
      { levels: [{ margin: 0.01, size: 10 }] },
      { clock: new VirtualClock(T), log: silentLogger },
    );
    const live = binary(wide);
    const ended = { ...binary(wide, { settings: { endDateMs: T - 1, conditionId: '0xended' } }) };
    const inp = inputAt([live, ended]);
    runner.start(inp);
    expect(rows(runner.quote(inp))).toEqual([
      [YES, 'BUY', 0.49, 10],
      [NO, 'BUY', 0.49, 10],
    ]);
  });
});

describe('bands: property (one book per market)', () => {
  it('on tick, in range, bids below asks, sizes at least the minimum, sells within holdings, net limit held', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS.filter((t) => t >= 1_000)),
        fc.integer({ min: 2, max: 998 }),
        fc.array(
          fc.record({ marginTicks: fc.integer({ min: 1, max: 300 }), sizeCents: fc.integer({ min: 1, max: 5_000 }) }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 15 }),
        (tick, midPermille, lvls, maxPos, yes, no, min) => {
          const margins = [...new Set(lvls.map((l) => l.marginTicks * 500))].sort((a, b) => a - b);
          const p = P({
            levels: margins.map((m, i) => ({ margin: m / SH, size: (lvls[i]?.sizeCents ?? 1) / 100 })),
            maxPosition: maxPos,
          });
          // A one-tick book around the mid (snapped), so the book's tick is the one in force.
          const mid = Math.max(tick, Math.min(SH - tick, Math.round((midPermille * 1_000) / tick) * tick));
          const bid = mid - tick;
          const ask = mid + tick;
          if (bid < tick || ask > SH - tick) return;
          const b = {
            ...yesBook([], []),
            bids: [{ price: bid as Price, size: SH as Shares }],
            asks: [{ price: ask as Price, size: SH as Shares }],
            tickSize: tick,
            minOrderSize: (min * SH) as Shares,
          };
          const m = binary(b, { yes, no });
          const qs = marketQuotes(p, m, T);
          checkInvariants(qs, m, maxPos * SH);
          expect(qs.every((q) => (q.tokenId === YES ? q.price : SH - q.price) !== mid)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

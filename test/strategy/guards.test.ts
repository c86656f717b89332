// The guards every strategy applies: each reason to pull at its exact boundary (closed market, end
// date, game start, missing, stale or crossed book, no mid, fast mid, thin book), widening instead
// of pulling, our own orders left out of the depth, and a strategy's own defaults.
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/core/errors.js';
import fc from 'fast-check';
import { makeBook, midSeriesOfSamples, type MidSeries } from '../../src/core/book.js';
import type { Price } from '../../src/core/money.js';
import {
  GUARD_DEFAULTS,
  assessPair,
  fromSchema,
  guardParams,
  guardParamsWith,
  MID_SERIES,
  midMove,
  mirrorBook,
  pairMidMove,
  pairRecentMids,
  pairsOf,
  settingsFromMarket,
  timeToPull,
  type GuardParams,
  type MidSample,
  type TokenView,
  type MarketSettings,
  type Pair,
} from '../../src/strategy/sdk.js';
import { binary, NO, order, px, sh, SH, T, YES, yesBook, type BinaryOptions } from '../strategies/helpers.js';
import { parseMarket } from '../../src/exchange/parse/markets.js';
import { fixture, settings } from './factories.js';

const G: GuardParams = guardParams.parse({});
const book = yesBook(
  [
    [0.49, 60],
    [0.48, 50],
    [0.46, 1000],
  ],
  [
    [0.51, 30],
    [0.53, 80],
  ],
); // mid 0.50
const pairOf = (o: BinaryOptions = {}, b = book): Pair => pairsOf(binary(b, o))[0] as Pair;
const verdict = (o: BinaryOptions = {}, g: Partial<GuardParams> = {}, now = T, b = book) =>
  assessPair(now, pairOf(o, b), { ...G, ...g });

describe('guards', () => {
  it('defaults', () => {
    expect(G).toEqual({
      maxBookAgeMs: 10_000,
      pullBeforeEndMs: 3_600_000,
      pullBeforeGameStartMs: 300_000,
      thinDepth: 0,
      thinDistance: 20_000,
      thinAction: 'widen',
      maxMidMove: 50_000,
      midMoveWindowMs: 30_000,
      fastAction: 'pull',
      widenFactor: 2,
    });
    expect(guardParamsWith({ maxMidMove: 0.02, thinAction: 'pull' }).parse({})).toMatchObject({
      maxMidMove: 20_000,
      thinAction: 'pull',
      maxBookAgeMs: 10_000,
    });
    expect(GUARD_DEFAULTS.maxBookAgeMs).toBe(10_000);
  });

  it('a healthy book quotes, unwidened', () => {
    expect(verdict()).toEqual({ kind: 'quote', widen: 1, reasons: [] });
  });

  it('pulls on a closed market', () => {
    expect(verdict({ settings: { acceptingOrders: false } })).toEqual({ kind: 'pull', reason: 'market-closed' });
  });

  it('pulls from pullBeforeEndMs before the end date, and from pullBeforeGameStartMs before a game', () => {
    expect(verdict({ settings: { endDateMs: T + 3_600_000 } })).toEqual({ kind: 'pull', reason: 'end-date' });
    expect(verdict({ settings: { endDateMs: T + 3_600_001 } }).kind).toBe('quote');
    expect(verdict({ settings: { endDateMs: T - 1 } })).toEqual({ kind: 'pull', reason: 'end-date' });
    expect(verdict({ settings: { gameStartMs: T + 300_000 } })).toEqual({ kind: 'pull', reason: 'game-start' });
    expect(verdict({ settings: { gameStartMs: T + 300_001 } }).kind).toBe('quote');
    expect(verdict({ settings: { gameStartMs: T + 60_000 } }, { pullBeforeGameStartMs: 0 }).kind).toBe('quote');
    const s: MarketSettings = settings({ endDateMs: null });
    expect(timeToPull(T, s, G)).toBeNull(); // no gameStartMs at all (settings built before it existed)
  });

  it("the market record's game start time reaches the settings (null when it has none)", () => {
    const rec = fixture('clob_rest_market_single.json') as Record<string, unknown>;
    expect(settingsFromMarket(parseMarket(rec)).gameStartMs).toBeNull();
    const game = settingsFromMarket(parseMarket({ ...rec, game_start_time: '2024-11-04T23:00:00Z' }));
    expect(game.gameStartMs).toBe(Date.UTC(2024, 10, 4, 23));
    expect(timeToPull(Date.UTC(2024, 10, 4, 22, 55), game, G)).toBe('game-start');
    expect(timeToPull(Date.UTC(2024, 10, 4, 22, 54, 59, 999), game, { ...G, pullBeforeEndMs: 0 })).toBeNull();
  });

  it("pulls without a book, on a stale one, a crossed one (either token's), or without a mid", () => {
    expect(assessPair(T, pairsOf(binary(null))[0] as Pair, G)).toEqual({ kind: 'pull', reason: 'no-book' });
    expect(verdict({ bookAtMs: T - 10_001 })).toEqual({ kind: 'pull', reason: 'stale-book' });
    expect(verdict({ bookAtMs: T - 10_000 }).kind).toBe('quote');
    const crossed = yesBook([[0.52, 10]], [[0.51, 10]]);
    expect(verdict({}, {}, T, crossed)).toEqual({ kind: 'pull', reason: 'crossed-book' });
    const p = pairOf();
    const badNo: Pair = {
      ...p,
      complement:
        p.complement === null
          ? null
          : {
              ...p.complement,
              book: makeBook({
                market: 'm',
                assetId: NO,
                timestampMs: T,
                bids: [{ price: px(0.5), size: sh(1) }],
                asks: [{ price: px(0.5), size: sh(1) }],
              }),
            },
    };
    expect(assessPair(T, badNo, G)).toEqual({ kind: 'pull', reason: 'crossed-book' });
    expect(verdict({}, {}, T, yesBook([[0.49, 10]], []))).toEqual({ kind: 'pull', reason: 'no-mid' });
  });

  it('the book of the complement serves when the first token has none', () => {
    const p = pairOf();
    const onlyNo: Pair = { ...p, primary: { ...p.primary, book: null, bookAtMs: null, mid: null } };
    expect(assessPair(T, onlyNo, G).kind).toBe('quote');
    expect(onlyNo.complement?.book).toEqual(mirrorBook(book, NO));
  });

  it('fast mid: a move beyond maxMidMove within the window pulls (or widens)', () => {
    const mids = (m: number) => [
      { atMs: T - 31_000, mid: px(0.3) },
      { atMs: T - 30_000, mid: px(m) },
    ];
    expect(verdict({ recentMids: mids(0.45) }).kind).toBe('quote'); // 0.05 is not more than 0.05; 0.30 is out of the window
    expect(verdict({ recentMids: mids(0.449) })).toEqual({ kind: 'pull', reason: 'fast-mid' });
    expect(verdict({ recentMids: mids(0.449) }, { fastAction: 'widen' })).toEqual({
      kind: 'quote',
      widen: 2,
      reasons: ['fast-mid'],
    });
    expect(verdict({ recentMids: mids(0.1) }, { maxMidMove: px(0) }).kind).toBe('quote'); // off
    expect(
      midMove(
        T,
        px(0.5),
        midSeriesOfSamples([
          { atMs: T - 5, mid: px(0.52) },
          { atMs: T - 1, mid: px(0.47) },
        ]),
        10,
      ),
    ).toBe(30_000);
  });

  it("the pair's mid move on its views' columns is the move on their recent mids, primary first, else the complement's flipped", () => {
    // A reference over samples (the guard's rule before it read columns).
    const reference = (now: number, mid: number, samples: readonly MidSample[], windowMs: number): number => {
      let lo = mid;
      let hi = mid;
      for (let i = samples.length - 1; i >= 0; i--) {
        const x = samples[i] as MidSample;
        if (x.atMs < now - windowMs) break;
        lo = Math.min(lo, x.mid);
        hi = Math.max(hi, x.mid);
      }
      return Math.max(mid - lo, hi - mid);
    };
    // Columns as the cache hands them: samples at an offset, with entries before and after the window.
    const columns = (samples: readonly MidSample[], pad: number): MidSeries => {
      const at = new Float64Array(samples.length + 2 * pad).fill(T);
      const mid = new Float64Array(at.length).fill(SH);
      samples.forEach((x, i) => {
        at[pad + i] = x.atMs;
        mid[pad + i] = x.mid;
      });
      return { atMs: at, mid, start: pad, end: pad + samples.length };
    };
    const sample = fc.record({ dt: fc.integer({ min: 0, max: 2_000 }), mid: fc.integer({ min: 1, max: 99 }) });
    fc.assert(
      fc.property(
        fc.array(sample, { maxLength: 30 }),
        fc.array(sample, { maxLength: 30 }),
        fc.integer({ min: 1, max: 40_000 }),
        fc.integer({ min: 0, max: 5 }),
        (yesDraw, noDraw, windowMs, pad) => {
          const path = (d: typeof yesDraw): MidSample[] => {
            let t = T - 40_000;
            return d.map((x) => ({ atMs: (t += x.dt), mid: (x.mid * 10_000) as Price }));
          };
          const pair = pairOf({}, book);
          const primary = { ...pair.primary, recentMids: path(yesDraw) };
          const complement = { ...(pair.complement as TokenView), recentMids: path(noDraw) };
          const plain: Pair = { ...pair, primary, complement };
          const withColumns: Pair = {
            ...pair,
            primary: { ...primary, [MID_SERIES]: columns(primary.recentMids, pad) },
            complement: { ...complement, [MID_SERIES]: columns(complement.recentMids, pad) },
          };
          const expected = reference(T, 420_000, pairRecentMids(plain), windowMs);
          expect(pairMidMove(T, 420_000, plain, windowMs)).toBe(expected);
          expect(pairMidMove(T, 420_000, withColumns, windowMs)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('thin book: depth within thinDistance of the best price, ours excluded, widens (or pulls)', () => {
    // bids within 0.02 of 0.49: 60 + 50 = 110; asks within 0.02 of 0.51: 30 + 80 = 110
    expect(verdict({}, { thinDepth: sh(110) }).kind).toBe('quote');
    expect(verdict({}, { thinDepth: sh(110.01) })).toEqual({ kind: 'quote', widen: 2, reasons: ['thin-book'] });
    // 20 of the 0.49 bids are ours: 90 left
    const ours = { orders: [order(YES, 'BUY', 0.49, 20)] };
    expect(verdict(ours, { thinDepth: sh(100), widenFactor: 3 })).toEqual({
      kind: 'quote',
      widen: 3,
      reasons: ['thin-book'],
    });
    expect(verdict(ours, { thinDepth: sh(100), thinAction: 'pull' })).toEqual({ kind: 'pull', reason: 'thin-book' });
  });

  it('both conditions widen once', () => {
    const v = verdict({ recentMids: [{ atMs: T - 1_000, mid: px(0.4) }] }, { fastAction: 'widen', thinDepth: sh(500) });
    expect(v).toEqual({ kind: 'quote', widen: 2, reasons: ['fast-mid', 'thin-book'] });
  });

  it('params: errors name the path and the value', () => {
    const parse = fromSchema(guardParams);
    expect(() => parse({ thinAction: 'shrink' }, 'strategy.params.guards')).toThrow(ParseError);
    expect(() => parse({ maxBookAgeMs: 0 }, 'g')).toThrow(/g\.maxBookAgeMs/);
    expect(() => parse({ widenFactor: 0.5 }, 'g')).toThrow(/g\.widenFactor.*0\.5/);
    expect(() => parse({ extra: 1 }, 'g')).toThrow(/Unrecognized key/);
  });
});

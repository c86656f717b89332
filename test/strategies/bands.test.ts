// bands: quote() on real fixture books against hand-computed ladders, the inventory limit, the
// edges of the price range, params parsing, a property over random books and params, and one pass
// of the loop (strategy → risk → reconcile → apply → reconcile yields nothing). The extensions
// (one book per binary market, refresh tolerance, order age, price band, guards) are in
// bands-net.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeBook } from '../../src/core/book.js';
import { ParseError } from '../../src/core/errors.js';
import type { LiveOrder } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { TICKS } from '../../src/core/tick.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { VirtualClock } from '../../src/core/clock.js';
import { reconcile } from '../../src/execution/reconcile.js';
import { checkRisk, KILL_SWITCH_ARMED, type TokenRiskInfo } from '../../src/execution/risk.js';
import { silentLogger, type StrategyLogger } from '../../src/strategy/sdk.js';
import { bands, bandsParams, ladder, type BandsParams } from '../../strategies/bands/index.js';
import { registry } from '../../strategies/index.js';
import { fixtureBook, input, marketView, NOW, settings, SH, tokenView, trumpSettings } from '../strategy/factories.js';

const DEFAULTS = bands.parseParams({}) as BandsParams;

/** [side, price as a decimal, shares] — what a person writes when computing a ladder by hand. */
type Row = [string, number, number];
const rows = (qs: readonly DesiredQuote[]): Row[] => qs.map((q) => [q.side, q.price / SH, q.size / SH]);

describe('bands: ladders on real books', () => {
  // clob_rest_book_2026-06-12: best bid 0.005, best ask 0.995 → mid 0.5; tick 0.001, minimum 5.
  const wide = fixtureBook('wire/markets/book_get_ccxt_2026-06-12.json');
  const wideMarket = settings({ conditionId: wide.market, tickSize: 10_000 as Price });

  it('flat: bids only (nothing to sell), mid − margin floored, inner level first', () => {
    const t = tokenView(wide);
    expect(t.mid).toBe(500_000);
    const qs = ladder(DEFAULTS, marketView(wideMarket, [t]), t);
    expect(rows(qs)).toEqual([
      ['BUY', 0.49, 10],
      ['BUY', 0.48, 15],
      ['BUY', 0.46, 25],
    ]);
    expect(qs.map((q) => q.tag)).toEqual(['band-0', 'band-1', 'band-2']);
    expect(qs.every((q) => q.tokenId === wide.assetId)).toBe(true);
  });

  it("the book's tick wins over the market record's", () => {
    const t = tokenView(wide);
    // the record says 0.01, the book 0.001: 0.5 − 0.0125 floors to 0.487 on the book's tick
    const p = bandsParams.parse({ levels: [{ margin: 0.0125, size: 10 }] });
    expect(rows(ladder(p, marketView(wideMarket, [t]), t))).toEqual([['BUY', 0.487, 10]]);
  });

  it('holding 30 shares: asks offer them from the inside out', () => {
    const t = tokenView(wide, { position: 30 });
    expect(rows(ladder(DEFAULTS, marketView(wideMarket, [t]), t))).toEqual([
      ['BUY', 0.49, 10],
      ['SELL', 0.51, 10],
      ['BUY', 0.48, 15],
      ['SELL', 0.52, 15],
      ['BUY', 0.46, 25],
      ['SELL', 0.54, 5],
    ]);
  });

  it('the inventory limit trims bids from the outside and stops them at the limit', () => {
    const at = (pos: number): Row[] => {
      const t = tokenView(wide, { position: pos });
      return rows(ladder(DEFAULTS, marketView(wideMarket, [t]), t)).filter((r) => r[0] === 'BUY');
    };
    expect(at(60)).toEqual([
      ['BUY', 0.49, 10],
      ['BUY', 0.48, 15],
      ['BUY', 0.46, 15],
    ]);
    expect(at(92)).toEqual([['BUY', 0.49, 8]]);
    expect(at(97)).toEqual([]); // 3 left: below the minimum of 5
    expect(at(100)).toEqual([]);
    expect(at(150)).toEqual([]);
  });

  it('sellInventory: false quotes no asks', () => {
    const t = tokenView(wide, { position: 30 });
    const p = bands.parseParams({ sellInventory: false }) as BandsParams;
    expect(ladder(p, marketView(wideMarket, [t]), t).every((q) => q.side === 'BUY')).toBe(true);
  });

  it("a deep 2024 book with no tick of its own uses the market record's (0.001)", () => {
    // clob_ws_book_2024 (the No token of the Trump market): best 0.511 / 0.514 → mid 0.5125
    const book = fixtureBook('clob_ws_book_2024.json');
    expect(book.tickSize).toBeNull();
    const s = trumpSettings();
    expect(s.tickSize).toBe(1_000);
    const t = tokenView(book, { position: 50 });
    expect(t.mid).toBe(512_500);
    expect(rows(ladder(DEFAULTS, marketView(s, [t]), t))).toEqual([
      ['BUY', 0.502, 10],
      ['SELL', 0.523, 10],
      ['BUY', 0.492, 15],
      ['SELL', 0.533, 15],
      ['BUY', 0.472, 25],
      ['SELL', 0.553, 25],
    ]);
  });

  it('on a 0.01 tick near 0: levels snapping to one price merge; a bid below the tick is left out', () => {
    // clob_ws_book_snapshot_2026: best 0.07 / 0.08 → mid 0.075, tick 0.01, no minimum in the message
    const book = fixtureBook('clob_ws_book_snapshot_2026.json');
    const t = tokenView(book, { position: 40 });
    expect(t.mid).toBe(75_000);
    const p = bandsParams.parse({
      levels: [
        { margin: 0.01, size: 10 },
        { margin: 0.015, size: 10 },
        { margin: 0.07, size: 10 },
      ],
    });
    const qs = ladder(p, marketView(settings({ minOrderSize: (5 * SH) as Shares }), [t]), t);
    // 0.065 → 0.06 and 0.06 → 0.06 merge; 0.085 → 0.09 and 0.09 → 0.09 merge; 0.005 → 0 is out; 0.145 → 0.15
    expect(rows(qs)).toEqual([
      ['BUY', 0.06, 20],
      ['SELL', 0.09, 20],
      ['SELL', 0.15, 10],
    ]);
    expect(qs.map((q) => q.tag)).toEqual(['band-0', 'band-0', 'band-2']);
  });

  it('an ask above 1 − tick is left out, not clamped', () => {
    const book = makeBook({
      market: 'm',
      assetId: 'hi',
      timestampMs: NOW,
      bids: [{ price: 980_000 as Price, size: SH as Shares }],
      asks: [{ price: 990_000 as Price, size: SH as Shares }],
      tickSize: 10_000 as Price,
    });
    const t = tokenView(book, { position: 50 });
    const p = bandsParams.parse({
      levels: [
        { margin: 0.005, size: 10 },
        { margin: 0.01, size: 10 },
      ],
    });
    // mid 0.985: asks 0.99 and ceil(0.995) = 1.00 (out); bids 0.98 and floor(0.975) = 0.97
    expect(rows(ladder(p, marketView(settings(), [t]), t))).toEqual([
      ['BUY', 0.98, 10],
      ['SELL', 0.99, 10],
      ['BUY', 0.97, 10],
    ]);
  });

  it('quotes nothing without a mid (empty side), on a crossed book, or when the market is closed', () => {
    const empty = fixtureBook('wire/markets/book_get_empty_ask_nautilus_2026-08-03.json');
    const te = tokenView(empty);
    expect(te.mid).toBeNull();
    expect(ladder(DEFAULTS, marketView(settings({ tickSize: 1_000 as Price }), [te]), te)).toEqual([]);
    const crossed = makeBook({
      market: 'm',
      assetId: 'x',
      timestampMs: NOW,
      bids: [{ price: 520_000 as Price, size: SH as Shares }],
      asks: [{ price: 510_000 as Price, size: SH as Shares }],
    });
    const tc = tokenView(crossed);
    expect(ladder(DEFAULTS, marketView(settings(), [tc]), tc)).toEqual([]);
    const tw = tokenView(fixtureBook('wire/markets/book_get_ccxt_2026-06-12.json'));
    expect(ladder(DEFAULTS, marketView(settings({ acceptingOrders: false }), [tw]), tw)).toEqual([]);
  });

  it('quotes every token of every market in its context', () => {
    const a = fixtureBook('wire/markets/book_get_ccxt_2026-06-12.json');
    const b = fixtureBook('clob_ws_book_2024.json');
    const runner = bands.create(
      { levels: [{ margin: 0.01, size: 10 }] },
      { clock: new VirtualClock(NOW), log: silentLogger },
    );
    // (the Trump market ended in 2024: as of a month before NOW, so that the end-date guard lets it quote)
    const inp = input([
      marketView(settings({ conditionId: a.market }), [tokenView(a)]),
      marketView({ ...trumpSettings(), endDateMs: NOW + 30 * 86_400_000 }, [tokenView(b)]),
    ]);
    runner.start(inp);
    expect(runner.quote(inp).map((q) => [q.tokenId, q.side, q.price])).toEqual([
      [a.assetId, 'BUY', 490_000],
      [b.assetId, 'BUY', 502_000],
    ]);
  });
});

describe('bands: params', () => {
  it('defaults', () => {
    expect(DEFAULTS).toEqual({
      levels: [
        { margin: 10_000, size: 10 * SH },
        { margin: 20_000, size: 15 * SH },
        { margin: 40_000, size: 25 * SH },
      ],
      maxPosition: 100 * SH,
      sellInventory: true,
      complement: 'net',
      refreshTolerance: 5_000,
      maxOrderAgeMs: 0,
      priceFloor: 0,
      priceCeiling: SH,
      guards: {
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
      },
    });
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(Object.isFrozen(DEFAULTS.levels[0])).toBe(true);
    expect(bands.parseParams(undefined)).toEqual(DEFAULTS);
  });

  it('accepts decimal strings as well as numbers', () => {
    expect(bands.parseParams({ levels: [{ margin: '0.015', size: '12.5' }], maxPosition: '40' })).toMatchObject({
      levels: [{ margin: 15_000, size: 12_500_000 }],
      maxPosition: 40 * SH,
    });
  });

  const err = (raw: unknown): ParseError => {
    try {
      bands.parseParams(raw, 'strategies[0].params');
    } catch (e) {
      if (e instanceof ParseError) return e;
      throw e;
    }
    throw new Error('no error');
  };

  it('errors name the path and the value', () => {
    const e = err({
      levels: [
        { margin: 0.02, size: 10 },
        { margin: 0.01, size: 10 },
      ],
    });
    expect(e.path).toBe('strategies[0].params.levels[1].margin');
    expect(e.message).toBe(
      'strategies[0].params.levels[1].margin: margins must increase from one level to the next (got 0.01)',
    );
    expect(err({ levels: [{ margin: 0, size: 10 }] }).message).toBe(
      'strategies[0].params.levels[0].margin: price must be > 0 (got 0)',
    );
    expect(err({ levels: [{ margin: 0.0100001, size: 10 }] }).message).toMatch(
      /levels\[0\]\.margin: price: more than 6 decimals: 0\.0100001 \(got 0\.0100001\)/,
    );
    expect(err({ levels: [{ margin: 0.01, size: 10.001 }] }).message).toMatch(
      /levels\[0\]\.size: shares must have at most 2 decimals \(got 10\.001\)/,
    );
    expect(err({ levels: [] }).path).toBe('strategies[0].params.levels');
    expect(err({ maxPosition: -1 }).message).toMatch(/maxPosition: shares must be ≥ 0 \(got -1\)/);
    expect(err({ sellInventry: true }).message).toMatch(/Unrecognized key: "sellInventry"/);
    expect(err({ levels: [{ margin: '1e-2', size: 10 }] }).message).toMatch(/not a plain decimal/);
  });

  it('is registered under its name', () => {
    expect(registry.get('bands')).toBe(bands);
    expect(registry.names()).toContain('bands');
  });
});

describe('bands: property', () => {
  it('every ladder is on tick, inside [tick, 1 − tick], bids below asks, sizes at least the minimum, within inventory', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TICKS),
        fc.integer({ min: 1, max: 999_999 }),
        fc.array(
          fc.record({ marginTicks: fc.integer({ min: 1, max: 400 }), sizeCents: fc.integer({ min: 1, max: 5_000 }) }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 15 }),
        (tick, midRaw, lvls, maxPos, pos, min) => {
          const margins = [...new Set(lvls.map((l) => l.marginTicks * 250))].sort((a, b) => a - b);
          const p: BandsParams = {
            ...DEFAULTS,
            levels: margins.map((m, i) => ({
              margin: m as Price,
              size: ((lvls[i]?.sizeCents ?? 1) * 10_000) as Shares,
            })),
            maxPosition: (maxPos * SH) as Shares,
            sellInventory: true,
          };
          const s = settings({ tickSize: tick, minOrderSize: (min * SH) as Shares });
          const t = tokenView(null, { tokenId: 'T', mid: midRaw as Price, position: pos });
          const qs = ladder(p, marketView(s, [t]), t);
          const keys = new Set<string>();
          let bids = 0;
          let asks = 0;
          for (const q of qs) {
            expect(q.price % tick).toBe(0);
            expect(q.price).toBeGreaterThanOrEqual(tick);
            expect(q.price).toBeLessThanOrEqual(SH - tick);
            expect(q.size % 10_000).toBe(0);
            expect(q.size).toBeGreaterThan(0);
            expect(q.size).toBeGreaterThanOrEqual(min * SH);
            if (q.side === 'BUY') {
              expect(q.price).toBeLessThan(midRaw);
              bids += q.size;
            } else {
              expect(q.price).toBeGreaterThan(midRaw);
              asks += q.size;
            }
            const k = `${q.side}${q.price}`;
            expect(keys.has(k)).toBe(false);
            keys.add(k);
          }
          expect(bids).toBeLessThanOrEqual(Math.max(0, (maxPos - pos) * SH));
          expect(asks).toBeLessThanOrEqual(pos * SH);
          if (pos >= maxPos) expect(bids).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('bands: one pass of the loop', () => {
  it('strategy → risk → reconcile places the ladder; applied and reconciled again, nothing moves', () => {
    const book = fixtureBook('clob_ws_book_2024.json');
    const s = { ...trumpSettings(), endDateMs: NOW + 30 * 86_400_000 }; // a month before its end
    const token = tokenView(book, { position: 50 });
    const inp = input([marketView(s, [token])]);
    const logged: string[] = [];
    const log: StrategyLogger = {
      ...silentLogger,
      info: (m) => {
        logged.push(m);
      },
    };
    const runner = registry.get('bands').create({}, { clock: new VirtualClock(NOW), log });
    runner.start(inp);
    expect(logged).toEqual(['bands started']);
    const desired = runner.quote(inp);

    const info: TokenRiskInfo = {
      tokenId: book.assetId,
      marketId: book.market,
      complementTokenId: null,
      tickSize: s.tickSize,
      minOrderSize: s.minOrderSize,
      acceptingOrders: true,
      mark: token.mid,
      dataAtMs: NOW,
    };
    const risk = checkRisk(
      desired,
      {
        nowMs: NOW,
        tokens: new Map([[book.assetId, info]]),
        positions: new Map([[book.assetId, token.position]]),
        collateral: (1_000 * SH) as Micros,
        dailyPnl: 0 as Micros,
        day: '2026-01-01',
        killSwitch: KILL_SWITCH_ARMED,
      },
      {
        market: { maxPosition: (150 * SH) as Shares, maxNotional: null },
        maxTotalExposure: null,
        dailyLossLimit: (50 * SH) as Micros,
        maxDataAgeMs: 10_000,
      },
    );
    expect(risk.dropped).toEqual([]);
    expect(risk.accepted).toEqual(desired);

    const plan = reconcile(risk.accepted, [], { toleranceBps: 500, minOrderSize: () => s.minOrderSize });
    expect(plan.cancels).toEqual([]);
    expect(plan.placements).toHaveLength(6);
    const live: LiveOrder[] = plan.placements.map((pl, i) => ({
      id: `0x${i}`,
      tokenId: pl.quote.tokenId,
      side: pl.quote.side,
      price: pl.quote.price,
      originalSize: pl.quote.size,
      sizeMatched: 0 as Shares,
      state: 'live',
      createdAtMs: NOW,
    }));
    const again = reconcile(runner.quote(input([marketView(s, [token])], live)), live, { toleranceBps: 500 });
    expect(again.cancels).toEqual([]);
    expect(again.placements).toEqual([]);
  });
});

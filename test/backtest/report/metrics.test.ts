// Report metrics against values computed by hand on a small handmade run (see the comments for
// the arithmetic), plus determinism of report.json and a PnL invariant under fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import type { ReportInput } from '../../../src/backtest/report/input.js';
import { computeReport, reportJson } from '../../../src/backtest/report/metrics.js';

const DAY = 86_400_000;
const H = 3_600_000;
const p = (v: number): Price => v as Price;
const s = (v: number): Shares => v as Shares;
const m = (v: number): Micros => v as Micros;

function input(): ReportInput {
  return {
    startMs: 0,
    endMs: 20_000,
    capital: m(1_000_000_000),
    markets: [
      { tokenId: 'A', name: 'Will A win?', tickSize: p(10_000) },
      { tokenId: 'B', name: 'B', tickSize: p(1_000) },
    ],
    fills: [
      { timeMs: 0, tokenId: 'A', side: 'BUY', price: p(500_000), size: s(10_000_000), fee: m(10_000) },
      { timeMs: 5_000, tokenId: 'A', side: 'SELL', price: p(550_000), size: s(4_000_000), fee: m(0) },
    ],
    mids: [
      { timeMs: 0, tokenId: 'A', mid: p(500_000) },
      { timeMs: 1_000, tokenId: 'A', mid: p(520_000) },
      { timeMs: 5_000, tokenId: 'A', mid: p(550_000) },
      { timeMs: 6_000, tokenId: 'A', mid: p(540_000) },
      { timeMs: 15_000, tokenId: 'A', mid: p(600_000) },
    ],
    equity: [
      { timeMs: 0, equity: m(1_000_000_000) },
      { timeMs: H, equity: m(1_010_000_000) },
      { timeMs: 2 * H, equity: m(990_000_000) },
      { timeMs: DAY + H, equity: m(1_020_000_000) },
      { timeMs: DAY + 2 * H, equity: m(1_005_000_000) },
      { timeMs: 3 * DAY, equity: m(1_030_000_000) },
    ],
    inventory: [
      { timeMs: 0, tokenId: 'A', shares: s(10_000_000) },
      { timeMs: 10_000, tokenId: 'B', shares: s(-2_000_000) },
      { timeMs: 5_000, tokenId: 'A', shares: s(6_000_000) },
    ],
    uptime: [
      { timeMs: 0, quoted: 2, tokens: 2 },
      { timeMs: 5_000, quoted: 1, tokens: 2 },
      { timeMs: 10_000, quoted: 0, tokens: 2 },
      { timeMs: 16_000, quoted: 2, tokens: 2 },
      { timeMs: 18_000, quoted: 0, tokens: 0 },
    ],
    orders: { placed: 5, placedSize: s(30_000_000), filled: 2, filledSize: s(14_000_000) },
  };
}

describe('computeReport', () => {
  const r = computeReport(input());

  it('PnL: average cost, realized net of fees, marked at the last mid', () => {
    // Buy 10 @ 0.50 (basis 5.00); sell 4 @ 0.55: proceeds 2.20 − basis 2.00 = 0.20, less the fee
    // 0.01: 0.19 realized. 6 left, basis 3.00, last mid 0.60 → 3.60 − 3.00 = 0.60 unrealized.
    expect(r.pnl).toEqual({
      totalMicros: 790_000,
      realizedMicros: 190_000,
      unrealizedMicros: 600_000,
      feesMicros: 10_000,
      unmarkedTokens: [],
    });
    expect(r.fills).toEqual({ count: 2, buys: 1, sells: 1 });
    expect(r.volume).toEqual({ notionalMicros: 7_200_000, sharesMicros: 14_000_000 });
  });

  it('maximum drawdown: 1010 → 990', () => {
    expect(r.drawdown.maxMicros).toBe(20_000_000);
    expect(r.drawdown.maxFraction).toBeCloseTo(20 / 1010, 12);
    expect(r.drawdown.peakTimeMs).toBe(H);
    expect(r.drawdown.troughTimeMs).toBe(2 * H);
  });

  it('Sharpe per day: daily closes 990, 1005, (1005), 1030 from 1000 over capital 1000', () => {
    // Returns −0.01, 0.015, 0, 0.025: mean 0.0075; squared deviations sum to 0.000725.
    const sd = Math.sqrt(0.000725 / 3);
    expect(r.sharpe.days).toBe(4);
    expect(r.sharpe.meanDailyReturn).toBeCloseTo(0.0075, 12);
    expect(r.sharpe.stdevDailyReturn).toBeCloseTo(sd, 12);
    expect(r.sharpe.perDay).toBeCloseTo(0.0075 / sd, 10);
    expect(r.sharpe.annualised).toBeCloseTo((0.0075 / sd) * Math.sqrt(365), 9);
  });

  it('markouts at 1 s, 10 s and 60 s', () => {
    const [m1, m10, m60] = r.markouts;
    // 1 s: buy 0.50 vs mid 0.52 → +0.02; sell 0.55 vs mid 0.54 → +0.01. Mean 0.015 = 1.5 ticks.
    expect(m1?.horizonMs).toBe(1_000);
    expect(m1?.fills).toBe(2);
    expect(m1?.meanPrice).toBeCloseTo(0.015, 12);
    expect(m1?.meanTicks).toBeCloseTo(1.5, 12);
    // 10 s: buy vs mid at 10 s (0.54, set at 6 s) → +0.04; sell vs mid at 15 s (0.60) → −0.05.
    expect(m10?.fills).toBe(2);
    expect(m10?.meanPrice).toBeCloseTo(-0.005, 12);
    expect(m10?.meanTicks).toBeCloseTo(-0.5, 12);
    // 60 s: past the end of the run for both fills.
    expect(m60).toEqual({ horizonMs: 60_000, fills: 0, meanPrice: null, meanTicks: null });
  });

  it('inventory statistics per token', () => {
    expect(r.inventory).toEqual([
      // A: 10 for 5 s, then 6 for 15 s → time-weighted (50 + 90) / 20 = 7.
      { tokenId: 'A', samples: 2, mean: 8, maxAbs: 10, timeWeightedMean: 7, timeWeightedMeanAbs: 7 },
      { tokenId: 'B', samples: 1, mean: -2, maxAbs: 2, timeWeightedMean: -2, timeWeightedMeanAbs: 2 },
    ]);
  });

  it('quote uptime and fill ratio', () => {
    // Per cycle: (2 + 1 + 0 + 2) / 8; time-weighted: (1·5 + 0.5·5 + 0·6 + 1·4) / 20 (the cycle
    // with no tokens is left out).
    expect(r.uptime.cycles).toBe(4);
    expect(r.uptime.perCycle).toBeCloseTo(0.625, 12);
    expect(r.uptime.timeWeighted).toBeCloseTo(0.575, 12);
    expect(r.fillRatio.ratio).toBeCloseTo(14 / 30, 12);
    expect(r.fillRatio.ordersPlaced).toBe(5);
  });

  it('empty input gives nulls, not NaN', () => {
    const e = computeReport({
      ...input(),
      fills: [],
      equity: [],
      inventory: [],
      mids: [],
      uptime: [],
      orders: { placed: 0, placedSize: s(0), filled: 0, filledSize: s(0) },
    });
    expect(e.sharpe.perDay).toBeNull();
    expect(e.fillRatio.ratio).toBeNull();
    expect(e.uptime.timeWeighted).toBeNull();
    expect(reportJson(e)).not.toMatch(/NaN|Infinity/);
  });
});

describe('reportJson', () => {
  it('is byte-identical for the same input and independent of input order at distinct times', () => {
    const a = reportJson(computeReport(input()));
    const b = reportJson(computeReport(structuredClone(input())));
    expect(b).toBe(a);
    const shuffled = input();
    const c = reportJson(
      computeReport({
        ...shuffled,
        fills: [...shuffled.fills].reverse(),
        mids: [...shuffled.mids].reverse(),
        equity: [...shuffled.equity].reverse(),
        inventory: [...shuffled.inventory].reverse(),
      }),
    );
    expect(c).toBe(a);
    expect(Object.keys(JSON.parse(a) as object)).toEqual([
      'version',
      'startMs',
      'endMs',
      'capitalMicros',
      'pnl',
      'fills',
      'volume',
      'drawdown',
      'sharpe',
      'inventory',
      'uptime',
      'fillRatio',
      'markouts',
      'settlements',
      'settings',
      'markets',
      'trades',
      'final',
    ]);
  });

  it('property: trading at one constant price marked at that price loses exactly the fees', () => {
    const fill = fc.record({
      buy: fc.boolean(),
      size: fc.integer({ min: 1, max: 1_000_000_000 }),
      fee: fc.integer({ min: 0, max: 100_000 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.array(fill, { maxLength: 30 }), (cents, fs) => {
        const price = p(cents * 10_000);
        const r = computeReport({
          ...input(),
          fills: fs.map((f, i) => ({
            timeMs: i,
            tokenId: 'A',
            side: f.buy ? ('BUY' as const) : ('SELL' as const),
            price,
            size: s(f.size),
            fee: m(f.fee),
          })),
          mids: [{ timeMs: 0, tokenId: 'A', mid: price }],
        });
        const fees = fs.reduce((a, f) => a + f.fee, 0);
        // Each fill's collateral and the marked value round against us (by under a micro each);
        // the cost basis never leaves a residue.
        expect(r.pnl.totalMicros).toBeLessThanOrEqual(-fees);
        expect(r.pnl.totalMicros).toBeGreaterThanOrEqual(-fees - fs.length - 1);
        expect(r.pnl.feesMicros).toBe(fees);
      }),
    );
  });
});

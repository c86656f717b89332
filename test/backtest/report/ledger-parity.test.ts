// One PnL: the report's PnL (metrics.ts) of a ledger's fills and resolutions, marked at the
// ledger's marks, equals the ledger's own markToMarket to the millionth, realized, unrealized,
// fees and total, and its settlements equal the ledger's settlement rows, whatever the fills (odd
// exact notionals, fees and rebates, sells ahead of buys, fills learned after the resolution).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import { reportFillsFromLedger, reportResolutionsFromLedger } from '../../../src/backtest/report/from-ledger.js';
import type { ReportInput } from '../../../src/backtest/report/input.js';
import { computeReport } from '../../../src/backtest/report/metrics.js';
import { renderHtml } from '../../../src/backtest/report/html.js';
import { Ledger } from '../../../src/ledger/index.js';

const T0 = Date.UTC(2026, 5, 12, 10);
const M1 = '0xm1';
const M2 = '0xm2';
const TOKENS: ReadonlyArray<readonly [string, string]> = [
  ['Y1', M1],
  ['N1', M1],
  ['Y2', M2],
];

const fillArb = fc.record({
  token: fc.integer({ min: 0, max: 2 }),
  buy: fc.boolean(),
  price: fc.integer({ min: 1, max: 999_999 }),
  size: fc.integer({ min: 1, max: 50_000_000 }),
  fee: fc.integer({ min: -2_000, max: 20_000 }),
  // An exact collateral off the rounded product by a little (what a placement's amounts can give).
  skew: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

function input(ledger: Ledger, endMs: number, marks: ReadonlyMap<string, Price>): ReportInput {
  const fills = ledger.fills(0, 100_000);
  return {
    startMs: T0,
    endMs,
    capital: 0 as Micros,
    markets: TOKENS.map(([tokenId]) => ({ tokenId, name: tokenId, tickSize: 10_000 as Price })),
    fills: reportFillsFromLedger(fills),
    mids: [...marks].map(([tokenId, mid]) => ({ timeMs: endMs, tokenId, mid })),
    equity: [],
    inventory: [],
    uptime: [],
    orders: { placed: 0, placedSize: 0 as Shares, filled: 0, filledSize: 0 as Shares },
    resolutions: reportResolutionsFromLedger(ledger.resolutions(), fills),
  };
}

describe("the report's PnL is the ledger's", () => {
  it('property: equal to the millionth for any fills, a resolution among them, and any marks', () => {
    fc.assert(
      fc.property(
        fc.array(fillArb, { minLength: 1, maxLength: 30 }),
        fc.nat(30),
        fc.boolean(),
        fc.array(fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }), { minLength: 3, maxLength: 3 }),
        (fs, resolveAt, yesWins, markOpts) => {
          const clock = new VirtualClock(T0);
          const ledger = Ledger.open(':memory:', { clock });
          try {
            fs.forEach((f, i) => {
              if (i === resolveAt) ledger.resolveMarket(M1, yesWins ? 'Y1' : 'N1');
              clock.advance(1_000);
              const [tokenId, conditionId] = TOKENS[f.token] as readonly [string, string];
              const product = Math.floor((f.price * f.size) / 1_000_000);
              ledger.recordFill({
                tokenId,
                conditionId,
                side: f.buy ? 'BUY' : 'SELL',
                price: f.price as Price,
                size: f.size as Shares,
                feeMicros: f.fee as Micros,
                liquidity: 'maker',
                timeMs: clock.now(),
                source: 'sim',
                dedupKey: `t${i}`,
                ...(f.skew !== undefined ? { notional: (product + f.skew) as Micros } : {}),
              });
            });
            clock.advance(1_000);
            const marks = new Map<string, Price>();
            TOKENS.forEach(([t], i) => {
              const m = markOpts[i];
              if (m !== undefined) marks.set(t, m as Price);
            });
            const ledgerPnl = ledger.markToMarket(marks);
            const report = computeReport(input(ledger, clock.now(), marks));
            expect(report.pnl).toEqual({
              totalMicros: ledgerPnl.total,
              realizedMicros: ledgerPnl.realized,
              unrealizedMicros: ledgerPnl.unrealized,
              feesMicros: ledgerPnl.fees,
              unmarkedTokens: [...ledgerPnl.unmarked].sort(),
            });
            const settled = ledger.settlements();
            expect(report.settlements.reduce((a, s) => a + s.realizedMicros, 0)).toBe(
              settled.reduce((a, s) => a + s.realizedDelta, 0),
            );
            expect(report.settlements.reduce((a, s) => a + s.payoutMicros, 0)).toBe(
              settled.reduce((a, s) => a + s.proceeds, 0),
            );
          } finally {
            ledger.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a held token without a mid is unmarked in both (and named on the page), not marked at 0 or at its last fill', () => {
    const clock = new VirtualClock(T0);
    const ledger = Ledger.open(':memory:', { clock });
    ledger.recordFill({
      tokenId: 'Y2',
      conditionId: M2,
      side: 'BUY',
      price: 400_000 as Price,
      size: 10_000_000 as Shares,
      feeMicros: 0 as Micros,
      liquidity: 'maker',
      timeMs: T0,
      source: 'sim',
      dedupKey: 'a',
    });
    const inp = input(ledger, T0 + 1_000, new Map());
    const r = computeReport(inp);
    expect(r.pnl).toEqual({
      totalMicros: 0,
      realizedMicros: 0,
      unrealizedMicros: 0,
      feesMicros: 0,
      unmarkedTokens: ['Y2'],
    });
    expect(renderHtml(r, inp)).toContain('<tr><th>Unmarked (held, no mid)</th><td>Y2</td></tr>');
    expect(ledger.markToMarket(new Map()).unmarked).toEqual(['Y2']);
    ledger.close();
  });
});

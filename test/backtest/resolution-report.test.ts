// The report's side of resolution payoffs (metrics.ts): positions of a resolved market close at
// their payouts at the resolution's time, a fill of it afterwards is settled at once, other
// markets are untouched, settlements are listed per resolution, a property ties the PnL to the
// fills' cash flows plus the payouts, and report.json stays byte-identical; the HTML lists them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { ReportFill, ReportInput } from '../../src/backtest/report/input.js';
import { computeReport, computeSettlements, reportJson } from '../../src/backtest/report/metrics.js';
import { renderHtml } from '../../src/backtest/report/html.js';

const p = (v: number): Price => v as Price;
const s = (v: number): Shares => v as Shares;
const m = (v: number): Micros => v as Micros;

const fill = (
  timeMs: number,
  tokenId: string,
  side: 'BUY' | 'SELL',
  price: number,
  size: number,
  fee = 0,
): ReportFill => ({
  timeMs,
  tokenId,
  side,
  price: p(price),
  size: s(size),
  fee: m(fee),
});

function input(over: Partial<ReportInput> = {}): ReportInput {
  return {
    startMs: 0,
    endMs: 60_000,
    capital: m(1_000_000_000),
    markets: ['A', 'B', 'C'].map((tokenId) => ({
      tokenId,
      name: tokenId === 'C' ? 'other' : 'M<1>',
      tickSize: p(10_000),
    })),
    fills: [
      fill(1_000, 'A', 'BUY', 400_000, 10_000_000, 20_000),
      fill(2_000, 'A', 'SELL', 500_000, 4_000_000),
      fill(3_000, 'B', 'BUY', 300_000, 5_000_000),
      fill(4_000, 'C', 'BUY', 600_000, 1_000_000),
      // At the resolution's own time: before it (it is settled by it).
      fill(10_000, 'B', 'BUY', 300_000, 1_000_000),
      // Learned after the resolution: settled at once (B pays 0).
      fill(20_000, 'B', 'BUY', 200_000, 2_000_000),
    ],
    mids: [
      { timeMs: 0, tokenId: 'A', mid: p(450_000) },
      { timeMs: 0, tokenId: 'B', mid: p(550_000) },
      { timeMs: 0, tokenId: 'C', mid: p(650_000) },
    ],
    equity: [],
    inventory: [],
    uptime: [],
    orders: { placed: 0, placedSize: s(0), filled: 0, filledSize: s(0) },
    resolutions: [
      {
        timeMs: 10_000,
        conditionId: 'M<1>',
        winnerTokenId: 'A',
        payouts: [
          { tokenId: 'A', payout: p(1_000_000) },
          { tokenId: 'B', payout: p(0) },
        ],
      },
    ],
    ...over,
  };
}

describe('report settlements', () => {
  it('closes the resolved market at its payouts and lists what each token settled', () => {
    const r = computeReport(input());
    // A: sell 4 @ 0.50 vs basis 0.40 → +0.40; 6 left pay 6.00 − basis 2.40 → +3.60.
    // B: 6 @ 0.30 pay 0 → −1.80; the late 2 @ 0.20 pay 0 → −0.40. C: 1 @ 0.60 marked 0.65 → +0.05.
    // Realized is net of the fee 0.02.
    expect(r.pnl).toEqual({
      realizedMicros: 400_000 + 3_600_000 - 1_800_000 - 400_000 - 20_000,
      unrealizedMicros: 50_000,
      feesMicros: 20_000,
      totalMicros: 1_800_000 + 50_000 - 20_000,
      unmarkedTokens: [],
    });
    expect(r.settlements).toEqual([
      {
        conditionId: 'M<1>',
        winnerTokenId: 'A',
        timeMs: 10_000,
        tokens: [
          {
            tokenId: 'A',
            payout: 1_000_000,
            sharesMicros: 6_000_000,
            payoutMicros: 6_000_000,
            realizedMicros: 3_600_000,
          },
          { tokenId: 'B', payout: 0, sharesMicros: 8_000_000, payoutMicros: 0, realizedMicros: -2_200_000 },
        ],
        sharesMicros: 14_000_000,
        payoutMicros: 6_000_000,
        realizedMicros: 1_400_000,
      },
    ]);
    expect(computeSettlements(input())).toEqual(r.settlements);
  });

  it('without resolutions nothing is settled and the PnL marks at the mids, as before', () => {
    const r = computeReport(input({ resolutions: [] }));
    expect(r.settlements).toEqual([]);
    const { resolutions: _, ...old } = input();
    expect(computeReport(old).pnl).toEqual(r.pnl);
    // A: 6 marked 0.45 − 2.40 = 0.30; B: 8 @ (0.30×6 + 0.20×2 = 2.20) marked 0.55 = 4.40 → 2.20; C 0.05.
    expect(r.pnl.unrealizedMicros).toBe(300_000 + 2_200_000 + 50_000);
  });

  it('a repeated resolution of a market counts once; a short position settles negative', () => {
    const r = computeReport(
      input({
        fills: [fill(1_000, 'A', 'SELL', 700_000, 2_000_000)],
        resolutions: [
          {
            timeMs: 5_000,
            conditionId: 'M<1>',
            winnerTokenId: 'A',
            payouts: [
              { tokenId: 'A', payout: p(1_000_000) },
              { tokenId: 'B', payout: p(0) },
            ],
          },
          {
            timeMs: 6_000,
            conditionId: 'M<1>',
            winnerTokenId: 'A',
            payouts: [
              { tokenId: 'A', payout: p(1_000_000) },
              { tokenId: 'B', payout: p(0) },
            ],
          },
        ],
      }),
    );
    expect(r.settlements).toHaveLength(1);
    expect(r.settlements[0]!.tokens).toEqual([
      { tokenId: 'A', payout: 1_000_000, sharesMicros: -2_000_000, payoutMicros: -2_000_000, realizedMicros: -600_000 },
    ]);
    expect(r.pnl).toMatchObject({ realizedMicros: -600_000, unrealizedMicros: 0 });
  });

  it("property: PnL = Σ fills' cash flows − fees + payout × net shares of the resolved tokens", () => {
    const f = fc.record({
      t: fc.integer({ min: 0, max: 30_000 }),
      token: fc.constantFrom('A', 'B'),
      buy: fc.boolean(),
      price: fc.integer({ min: 1, max: 9_999 }).map((x) => x * 100),
      lots: fc.integer({ min: 1, max: 100_000 }),
      fee: fc.integer({ min: 0, max: 5_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(f, { maxLength: 25 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.constantFrom('A', 'B'),
        (fs, tRes, winner) => {
          const fills = fs.map((x) => fill(x.t, x.token, x.buy ? 'BUY' : 'SELL', x.price, x.lots * 10_000, x.fee));
          const inp = input({
            fills,
            mids: [],
            resolutions: [
              {
                timeMs: tRes,
                conditionId: 'M',
                winnerTokenId: winner,
                payouts: ['A', 'B'].map((tk) => ({ tokenId: tk, payout: p(tk === winner ? 1_000_000 : 0) })),
              },
            ],
          });
          let cash = 0;
          const net = new Map<string, number>([
            ['A', 0],
            ['B', 0],
          ]);
          for (const x of fills) {
            const notional = (x.price * x.size) / 1_000_000; // exact on these grids
            cash += (x.side === 'SELL' ? notional : -notional) - x.fee;
            net.set(x.tokenId, (net.get(x.tokenId) as number) + (x.side === 'BUY' ? x.size : -x.size));
          }
          const r = computeReport(inp);
          expect(r.pnl.unrealizedMicros).toBe(0);
          expect(r.pnl.totalMicros).toBe(cash + (net.get(winner) as number));
          // Every share held at or after the resolution was settled: the listed shares are the net.
          const listed = new Map(r.settlements[0]!.tokens.map((x) => [x.tokenId, x.sharesMicros]));
          for (const tk of ['A', 'B']) expect(listed.get(tk) ?? 0).toBe(net.get(tk));
          expect(reportJson(computeReport(structuredClone(inp)))).toBe(reportJson(r));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('report.html lists the settlements, escaped', () => {
    const inp = input();
    const html = renderHtml(computeReport(inp), inp);
    expect(html).toContain('<h2>Settlements</h2>');
    expect(html).toContain('M&#60;1&#62;');
    expect(html).not.toContain('M<1>');
    expect(html).toContain('<td>3.6</td>');
    expect(renderHtml(computeReport(input({ resolutions: [] })), input({ resolutions: [] }))).not.toContain(
      'Settlements',
    );
  });
});

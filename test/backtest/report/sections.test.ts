// The report's sections beyond the summary: run settings, the per-market table (labelled by
// question and outcome, else a shortened id — never the full 77-digit token id in a cell), the
// trades table, charts that draw a flat series to the end, all read back by parsing report.html's
// tables (by id) and report.json.
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import { renderHtml } from '../../../src/backtest/report/html.js';
import type { ReportInput, ReportSettings } from '../../../src/backtest/report/input.js';
import { shortId } from '../../../src/backtest/report/labels.js';
import { computeReport } from '../../../src/backtest/report/metrics.js';

const YES = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
const NO = '34920131519830587098201380394410960290416208151508196700716452045287014720118';
const T0 = 1_700_000_000_000;

const SETTINGS: ReportSettings = {
  config: 'config/bt.json',
  recording: 'data/r.omrc',
  strategy: 'bands',
  params: { levels: [{ margin: 0.01, size: 10 }] },
  fillModel: 'queue-probabilistic',
  latency: '50 ms',
  cadence: 'poll',
  pollIntervalMs: 1000,
  seed: 7,
  depth: 'full',
};

function input(): ReportInput {
  return {
    startMs: T0,
    endMs: T0 + 60_000,
    capital: 100_000_000 as Micros,
    markets: [
      { tokenId: YES, name: 'Will JD Vance win the 2028 US Presidential Election? — Yes', tickSize: 1_000 as Price },
      { tokenId: NO, name: '', tickSize: 1_000 as Price },
    ],
    fills: [
      {
        timeMs: T0 + 10_000,
        tokenId: YES,
        side: 'BUY',
        price: 150_000 as Price,
        size: 10_000_000 as Shares,
        fee: 0 as Micros,
        liquidity: 'maker',
      },
      {
        timeMs: T0 + 20_000,
        tokenId: YES,
        side: 'SELL',
        price: 160_000 as Price,
        size: 4_000_000 as Shares,
        fee: 1_000 as Micros,
        liquidity: 'taker',
      },
      // A fill at the last instant.
      {
        timeMs: T0 + 60_000,
        tokenId: NO,
        side: 'BUY',
        price: 840_000 as Price,
        size: 2_000_000 as Shares,
        fee: 0 as Micros,
      },
    ],
    equity: [0, 30, 60].map((k) => ({ timeMs: T0 + k * 1000, equity: 100_000_000 as Micros })),
    inventory: [],
    // A flat mid: one value all along.
    mids: [
      { timeMs: T0, tokenId: YES, mid: 155_000 as Price },
      { timeMs: T0, tokenId: NO, mid: 845_000 as Price },
    ],
    uptime: [],
    orders: { placed: 3, placedSize: 16_000_000 as Shares, filled: 3, filledSize: 16_000_000 as Shares },
    settings: SETTINGS,
  };
}

/** Cell texts of the table with this id, row by row (header row first), entities decoded. */
function tableRows(html: string, id: string): string[][] {
  const m = new RegExp(`<table id="${id}">(.*?)</table>`, 's').exec(html);
  if (m === null) throw new Error(`no table ${id}`);
  const decode = (s: string): string => s.replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)));
  return [...(m[1] as string).matchAll(/<tr>(.*?)<\/tr>/gs)].map((r) =>
    [...(r[1] as string).matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((c) => decode(c[1] as string)),
  );
}

describe('report sections', () => {
  const inp = input();
  const report = computeReport(inp);
  const html = renderHtml(report, inp);

  it('run settings: config, strategy and parameters, fill model, latency, cadence, seed (HTML and JSON)', () => {
    expect(report.settings).toEqual(SETTINGS);
    const rows = Object.fromEntries(tableRows(html, 'settings').map((r) => [r[0], r[1]]));
    expect(rows).toEqual({
      Config: 'config/bt.json',
      Recording: 'data/r.omrc (depth full)',
      Strategy: 'bands',
      'Strategy parameters': '{"levels":[{"margin":0.01,"size":10}]}',
      'Fill model': 'queue-probabilistic',
      Latency: '50 ms',
      Cadence: 'poll (poll interval 1000 ms)',
      Seed: '7',
    });
  });

  it('per-market table: labelled by question and outcome (shortened id without one); rows sum to the totals', () => {
    expect(report.markets.map((m) => [m.tokenId, m.label])).toEqual([
      [YES, 'Will JD Vance win the 2028 US Presidential Election? — Yes'],
      [NO, shortId(NO)],
    ]);
    const yes = report.markets.find((m) => m.tokenId === YES);
    // 10 bought at 0.15, 4 sold at 0.16 (fee 0.001): realized 4 × 0.01 − 0.001 = 0.039; 6 held marked at 0.155: +0.03.
    expect(yes).toMatchObject({
      fills: 2,
      buys: 1,
      sells: 1,
      volumeMicros: 2_140_000,
      positionSharesMicros: 6_000_000,
      markMicros: 155_000,
      realizedMicros: 39_000,
      unrealizedMicros: 30_000,
      feesMicros: 1_000,
      pnlMicros: 69_000,
    });
    const no = report.markets.find((m) => m.tokenId === NO);
    expect(no).toMatchObject({ fills: 1, positionSharesMicros: 2_000_000, pnlMicros: 10_000 });
    expect(report.markets.reduce((a, m) => a + m.pnlMicros, 0)).toBe(report.pnl.totalMicros);
    const rows = tableRows(html, 'markets');
    expect(rows[0]).toEqual([
      'Market',
      'Fills',
      'Buys / sells',
      'Volume',
      'Position',
      'Mark',
      'Realized',
      'Unrealized',
      'Fees',
      'PnL',
    ]);
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(['Will JD Vance win the 2028 US Presidential Election? — Yes', shortId(NO)].sort());
    // No cell anywhere holds a full token id.
    for (const id of ['settings', 'summary', 'markets', 'trades'])
      for (const r of tableRows(html, id)) for (const c of r) expect(c).not.toContain(NO);
  });

  it("trades table: time, market, side, price, size, fee, liquidity; the last instant's fill included", () => {
    const rows = tableRows(html, 'trades');
    expect(rows[0]).toEqual(['Time (UTC)', 'Market', 'Side', 'Price', 'Size (shares)', 'Fee (USDC)', 'Liquidity']);
    expect(rows.slice(1)).toEqual([
      [
        new Date(T0 + 10_000).toISOString(),
        'Will JD Vance win the 2028 US Presidential Election? — Yes',
        'BUY',
        '0.15',
        '10',
        '0',
        'maker',
      ],
      [
        new Date(T0 + 20_000).toISOString(),
        'Will JD Vance win the 2028 US Presidential Election? — Yes',
        'SELL',
        '0.16',
        '4',
        '0.001',
        'taker',
      ],
      [new Date(T0 + 60_000).toISOString(), shortId(NO), 'BUY', '0.84', '2', '0', '—'],
    ]);
    expect(report.trades).toHaveLength(3);
    expect(report.fills.count).toBe(3);
  });

  it('a flat mid draws a line to the end of the run', () => {
    const section = new RegExp('<h2>Mid and fills: Will JD Vance[^<]*<small>.*?</svg>', 's').exec(html)?.[0] ?? '';
    const d = /<path d="([^"]+)"/.exec(section)?.[1] ?? '';
    // M at the start, then a segment to the right edge at the same height.
    const pts = [...d.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(pts.length).toBeGreaterThanOrEqual(2);
    expect(pts[0]?.[1]).toBe(pts.at(-1)?.[1]);
    expect((pts.at(-1)?.[0] ?? 0) - (pts[0]?.[0] ?? 0)).toBeGreaterThan(700);
  });

  it('is a pure function of its input: equal inputs, equal bytes', () => {
    expect(renderHtml(computeReport(input()), input())).toBe(html);
  });
});

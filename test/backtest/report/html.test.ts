// report.html: self-contained (nothing loads from a URL), hostile names escaped, deterministic.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import { escapeHtml, renderHtml } from '../../../src/backtest/report/html.js';
import { writeReport } from '../../../src/backtest/report/index.js';
import type { ReportInput } from '../../../src/backtest/report/input.js';
import { computeReport, reportJson } from '../../../src/backtest/report/metrics.js';

const HOSTILE = '<script src="https://evil.example/x.js"></script><img src=x onerror="alert(1)"> & \'q\'';

function input(): ReportInput {
  return {
    startMs: 1_700_000_000_000,
    endMs: 1_700_000_060_000,
    capital: 100_000_000 as Micros,
    markets: [{ tokenId: 'tok"1', name: HOSTILE, tickSize: 10_000 as Price }],
    fills: [
      {
        timeMs: 1_700_000_010_000,
        tokenId: 'tok"1',
        side: 'BUY',
        price: 480_000 as Price,
        size: 5_000_000 as Shares,
        fee: 0 as Micros,
      },
      {
        timeMs: 1_700_000_030_000,
        tokenId: 'tok"1',
        side: 'SELL',
        price: 520_000 as Price,
        size: 5_000_000 as Shares,
        fee: 0 as Micros,
      },
    ],
    equity: [0, 10, 20, 30, 40, 50].map((k) => ({
      timeMs: 1_700_000_000_000 + k * 1000,
      equity: (100_000_000 + k * 1000) as Micros,
    })),
    inventory: [
      { timeMs: 1_700_000_010_000, tokenId: 'tok"1', shares: 5_000_000 as Shares },
      { timeMs: 1_700_000_030_000, tokenId: 'tok"1', shares: 0 as Shares },
    ],
    mids: [0, 10, 20, 30, 40].map((k) => ({
      timeMs: 1_700_000_000_000 + k * 1000,
      tokenId: 'tok"1',
      mid: (490_000 + k * 1000) as Price,
    })),
    uptime: [{ timeMs: 1_700_000_000_000, quoted: 1, tokens: 1 }],
    orders: { placed: 4, placedSize: 20_000_000 as Shares, filled: 2, filledSize: 10_000_000 as Shares },
  };
}

describe('renderHtml', () => {
  const inp = input();
  const html = renderHtml(computeReport(inp), inp);

  it('loads nothing from the network', () => {
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    // No element carries a src or href at all (the hostile name's URL survives only as escaped text).
    // Escaping leaves no raw quote in input text, so blanking quoted values leaves only markup.
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\s(src|href)\s*=/i);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
  });

  it('escapes a hostile market name and token id', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror="');
    expect(html).not.toContain('tok"1');
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(escapeHtml('<a href="x">&\'')).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
  });

  it('draws the three charts and marks both fills', () => {
    expect(html.match(/<svg /g)?.length).toBe(3);
    expect(html).toContain('Equity');
    expect(html).toContain('Inventory');
    expect(html.match(/<circle /g)?.length).toBe(2);
    expect(html).toContain('fill="#2ca02c"');
    expect(html).toContain('fill="#d62728"');
  });

  it('writeReport writes byte-identical files for the same input', async () => {
    const d1 = mkdtempSync(join(tmpdir(), 'om-report-'));
    const d2 = mkdtempSync(join(tmpdir(), 'om-report-'));
    await writeReport(d1, input());
    await writeReport(d2, structuredClone(input()));
    for (const f of ['report.json', 'report.html'])
      expect(readFileSync(join(d2, f))).toEqual(readFileSync(join(d1, f)));
    expect(readFileSync(join(d1, 'report.json'), 'utf8')).toBe(reportJson(computeReport(input())));
  });
});

// The sweep's HTML table: settings and one row per combination in the given (sorted) order, with
// dotted keys as columns, money in USDC, hostile strings escaped, nothing loaded, equal bytes for
// equal documents.
import { describe, expect, it } from 'vitest';
import { renderSweepHtml, type SweepDocument } from '../../../src/backtest/sweep/index.js';

const doc: SweepDocument = {
  sort: 'pnl',
  fillModel: 'queue-probabilistic',
  cadence: 'poll',
  seed: 1,
  latencyMs: 0,
  strategy: 'bands<x>',
  keys: ['levels.0.margin', 'maxPosition'],
  config: 'c.json',
  recording: 'r.omrc',
  rows: [
    {
      index: 1,
      params: { 'levels.0.margin': 0.02, maxPosition: 5 },
      pnlTotalMicros: 1_250_000,
      fills: 3,
      volumeMicros: 14_700_000,
      maxDrawdownMicros: 100_000,
      sharpePerDay: null,
      fillRatio: 0.5,
    },
    {
      index: 0,
      params: { 'levels.0.margin': 0.01, maxPosition: 5 },
      pnlTotalMicros: -400_000,
      fills: 1,
      volumeMicros: 4_900_000,
      maxDrawdownMicros: 400_000,
      sharpePerDay: 0.12345,
      fillRatio: null,
    },
  ],
};

function rows(html: string, id: string): string[][] {
  const t = new RegExp(`<table id="${id}">(.*?)</table>`, 's').exec(html)?.[1] ?? '';
  return [...t.matchAll(/<tr>(.*?)<\/tr>/gs)].map((r) =>
    [...(r[1] as string).matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((c) => c[1] as string),
  );
}

describe('renderSweepHtml', () => {
  const html = renderSweepHtml(doc);
  it('has a header row with the swept keys and units, and the rows in order', () => {
    const r = rows(html, 'rows');
    expect(r[0]).toEqual([
      '#',
      'levels.0.margin',
      'maxPosition',
      'PnL (USDC)',
      'Fills',
      'Volume (USDC)',
      'Max drawdown (USDC)',
      'Sharpe / day',
      'Fill ratio',
    ]);
    expect(r.slice(1)).toEqual([
      ['1', '0.02', '5', '1.25', '3', '14.7', '0.1', '—', '0.5000'],
      ['2', '0.01', '5', '-0.4', '1', '4.9', '0.4', '0.1235', '—'],
    ]);
  });
  it('states the shared settings, escapes input text, loads nothing, and is deterministic', () => {
    const s = Object.fromEntries(rows(html, 'settings').map((r) => [r[0], r[1]]));
    expect(s).toMatchObject({
      Config: 'c.json',
      Recording: 'r.omrc',
      'Fill model': 'queue-probabilistic',
      Seed: '1',
      Combinations: '2',
    });
    expect(html).not.toContain('bands<x>');
    expect(html).toContain('bands&#60;x&#62;');
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
    expect(renderSweepHtml(structuredClone(doc))).toBe(html);
  });
});

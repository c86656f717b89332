// The sweep's HTML table (`oddsmaker backtest sweep` writes it beside the rows' JSON): one
// self-contained page (inline CSS, no script, nothing loaded) with the run's shared settings and
// one row per combination in the sorted order: rank, each swept param (dotted keys as given), PnL,
// fills, volume, max drawdown, Sharpe per day, fill ratio. Invariants: every input string goes
// through escapeHtml; a pure function of the document, so equal sweeps give equal bytes; money is
// shown in USDC from exact millionths (formatMicros), ratios with fixed decimals.
import { formatMicros } from '../../core/money.js';
import { escapeHtml } from '../report/html.js';
import type { SweepRow } from './row.js';

export interface SweepDocument {
  readonly sort: string;
  readonly fillModel: string;
  readonly cadence: string;
  readonly seed: number;
  readonly latencyMs: number;
  readonly strategy: string;
  readonly keys: readonly string[];
  readonly rows: readonly SweepRow[];
  /** The config and recording as named on the command line (absent: not shown). */
  readonly config?: string;
  readonly recording?: string;
}

function cell(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

const ratio = (x: number | null): string => (x === null ? '—' : x.toFixed(4));

export function renderSweepHtml(doc: SweepDocument): string {
  const head = [
    '#',
    ...doc.keys,
    'PnL (USDC)',
    'Fills',
    'Volume (USDC)',
    'Max drawdown (USDC)',
    'Sharpe / day',
    'Fill ratio',
  ];
  const nParams = doc.keys.length;
  const rows = doc.rows.map((r, i) => {
    const cells = [
      String(i + 1),
      ...doc.keys.map((k) => cell(r.params[k])),
      formatMicros(r.pnlTotalMicros),
      String(r.fills),
      formatMicros(r.volumeMicros),
      formatMicros(r.maxDrawdownMicros),
      ratio(r.sharpePerDay),
      ratio(r.fillRatio),
    ];
    return `<tr>${cells.map((c, j) => `<td${j === 0 || j > nParams ? ' class="n"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const settings: Array<[string, string]> = [
    ...(doc.config !== undefined ? [['Config', doc.config] as [string, string]] : []),
    ...(doc.recording !== undefined ? [['Recording', doc.recording] as [string, string]] : []),
    ['Strategy', doc.strategy],
    ['Fill model', doc.fillModel],
    ['Latency', `${doc.latencyMs} ms`],
    ['Cadence', doc.cadence],
    ['Seed', String(doc.seed)],
    ['Sorted by', `${doc.sort} (${doc.sort === 'drawdown' ? 'smallest' : 'largest'} first; ties in grid order)`],
    ['Combinations', String(doc.rows.length)],
  ];
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(`oddsmaker sweep: ${doc.strategy}`)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;margin:16px;color:#222}table{border-collapse:collapse;font-size:13px}th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}thead th{background:#f4f4f4}h2{font-size:15px;margin:18px 0 4px}</style>',
    '</head><body>',
    `<h1>${escapeHtml(`oddsmaker sweep: ${doc.strategy}`)}</h1>`,
    `<table id="settings">${settings.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`,
    `<h2>Combinations</h2><table id="rows"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
    '</body></html>',
    '',
  ].join('\n');
}

// One sweep row per combination: its params and the report's headline metrics, how rows are
// sorted, and the readable table. Invariants kept:
// - a row is plain JSON (money in integer millionths, ratios as floats or null), built from the
//   same computeReport as `oddsmaker backtest`, so a row equals that command's report figures;
// - sorting is total and deterministic: by the metric (higher first, except drawdown: smaller
//   first), nulls last, ties by the combination's index in the grid's expansion order.
import { formatMicros } from '../../core/money.js';
import type { Report } from '../report/metrics.js';

export interface SweepRow {
  readonly index: number;
  readonly params: Readonly<Record<string, unknown>>;
  readonly pnlTotalMicros: number;
  readonly fills: number;
  readonly volumeMicros: number;
  readonly maxDrawdownMicros: number;
  readonly sharpePerDay: number | null;
  readonly fillRatio: number | null;
}

export const SORT_METRICS = ['pnl', 'fills', 'volume', 'drawdown', 'sharpe', 'fill-ratio'] as const;
export type SortMetric = (typeof SORT_METRICS)[number];

export function rowFromReport(index: number, params: Readonly<Record<string, unknown>>, r: Report): SweepRow {
  return {
    index,
    params,
    pnlTotalMicros: r.pnl.totalMicros,
    fills: r.fills.count,
    volumeMicros: r.volume.notionalMicros,
    maxDrawdownMicros: r.drawdown.maxMicros,
    sharpePerDay: r.sharpe.perDay,
    fillRatio: r.fillRatio.ratio,
  };
}

function metricOf(row: SweepRow, m: SortMetric): number | null {
  switch (m) {
    case 'pnl':
      return row.pnlTotalMicros;
    case 'fills':
      return row.fills;
    case 'volume':
      return row.volumeMicros;
    case 'drawdown':
      return row.maxDrawdownMicros;
    case 'sharpe':
      return row.sharpePerDay;
    case 'fill-ratio':
      return row.fillRatio;
  }
}

export function sortRows(rows: readonly SweepRow[], metric: SortMetric): SweepRow[] {
  const dir = metric === 'drawdown' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = metricOf(a, metric);
    const y = metricOf(b, metric);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return dir * (x - y);
    }
    return a.index - b.index;
  });
}

function cell(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

const ratio = (x: number | null): string => (x === null ? '-' : x.toFixed(4));

/** A fixed-width text table: one column per swept param, then the metrics. */
export function formatTable(rows: readonly SweepRow[], keys: readonly string[]): string {
  const head = ['#', ...keys, 'pnl', 'fills', 'volume', 'max_dd', 'sharpe/day', 'fill_ratio'];
  const body = rows.map((r, i) => [
    String(i + 1),
    ...keys.map((k) => cell(r.params[k])),
    formatMicros(r.pnlTotalMicros),
    String(r.fills),
    formatMicros(r.volumeMicros),
    formatMicros(r.maxDrawdownMicros),
    ratio(r.sharpePerDay),
    ratio(r.fillRatio),
  ]);
  const widths = head.map((h, j) => Math.max(h.length, ...body.map((b) => (b[j] as string).length)));
  const line = (cols: readonly string[]): string =>
    cols
      .map((c, j) => c.padEnd(widths[j] as number))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

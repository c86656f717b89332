// The comparison's table: one row per strategy, the columns of the issue (PnL, fills, inventory,
// reward score) and the order counts behind them, as aligned text or Markdown. Numbers are
// rounded for reading only (2 decimals for money and shares); the JSON output keeps them whole.
import type { CompareOptions, StrategyResult } from './run.js';

interface Column {
  readonly head: string;
  readonly value: (r: StrategyResult) => string;
}

const f2 = (x: number): string => (Object.is(Math.round(x * 100) / 100, -0) ? '0.00' : (Math.round(x * 100) / 100).toFixed(2));

export const COLUMNS: readonly Column[] = [
  { head: 'strategy', value: (r) => r.strategy },
  { head: 'fills', value: (r) => String(r.fills) },
  { head: 'volume (sh)', value: (r) => f2(r.volume) },
  { head: 'PnL@mid', value: (r) => f2(r.pnlMid) },
  { head: 'PnL@latent', value: (r) => f2(r.pnlLatent) },
  { head: 'fees', value: (r) => f2(r.fees) },
  { head: 'net inv end (sh)', value: (r) => f2(r.netInventory) },
  { head: 'max |net| (sh)', value: (r) => f2(r.maxNetInventory) },
  { head: 'reward score', value: (r) => f2(r.rewardScore) },
  { head: 'est. rewards', value: (r) => f2(r.rewardEstimate) },
  { head: 'placed', value: (r) => String(r.placed) },
  { head: 'cancelled', value: (r) => String(r.cancelled) },
];

export function renderTable(rows: readonly StrategyResult[], format: 'text' | 'markdown'): string {
  const cells = rows.map((r) => COLUMNS.map((c) => c.value(r)));
  const heads = COLUMNS.map((c) => c.head);
  if (format === 'markdown') {
    const line = (cs: readonly string[]): string => `| ${cs.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
    return [line(heads), `|${heads.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...cells.map(line)].join('\n');
  }
  const widths = heads.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (cs: readonly string[]): string => cs.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(heads), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** One line naming the run, so a table is never read without its world. */
export function describeRun(o: CompareOptions, markets: number): string {
  return `seed ${o.seed}, ${o.worldMarkets}-market world, ${markets} markets quoted, flow ${o.flow}, `
    + `${o.warmupMs / 60_000} min warm-up then ${o.durationMs / 60_000} min of quoting, a cycle every ${o.pollMs} ms (virtual clock)`;
}

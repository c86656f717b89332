// The comparison's table: one row per strategy, the columns of the issue (PnL, fills, inventory,
// reward score) and the order counts behind them, as aligned text or Markdown. Every heading
// carries its unit and the PnLs their mark ("PnL @ mid (USDC)"), with a legend under the table. Numbers are
// rounded for reading only, 2 decimals: money is exact micros until here (rounded half-even to
// the cent and printed as a decimal string, no float on the way); shares and scores are floats.
// The JSON output keeps them whole. `unmarked tokens` counts held tokens left out of PnL @ mid (no mid).
import { formatFixed, roundToStep } from '../../core/money.js';
import type { CompareOptions, StrategyResult } from './run.js';

interface Column {
  readonly head: string;
  readonly value: (r: StrategyResult) => string;
}

const f2 = (x: number): string =>
  Object.is(Math.round(x * 100) / 100, -0) ? '0.00' : (Math.round(x * 100) / 100).toFixed(2);
/** Exact micros to cents, half-even, as a decimal string. */
const cents = (m: number): string => formatFixed(roundToStep(m, 10_000, 'half-even'), 2);

// Every heading names its unit, and the two PnLs say what they mark at (LEGEND spells it out).
export const COLUMNS: readonly Column[] = [
  { head: 'strategy', value: (r) => r.strategy },
  { head: 'fills', value: (r) => String(r.fills) },
  { head: 'volume (shares)', value: (r) => f2(r.volume) },
  { head: 'PnL @ mid (USDC)', value: (r) => cents(r.pnlMidMicros) },
  { head: 'PnL @ latent (USDC)', value: (r) => cents(r.pnlLatentMicros) },
  { head: 'fees paid (USDC)', value: (r) => cents(r.feesMicros) },
  { head: 'unmarked tokens', value: (r) => String(r.unmarked.length) },
  { head: 'net inventory at end (shares)', value: (r) => f2(r.netInventory) },
  { head: 'max |net inventory| (shares)', value: (r) => f2(r.maxNetInventory) },
  { head: 'reward score (share-min)', value: (r) => f2(r.rewardScore) },
  { head: 'est. rewards (USDC)', value: (r) => f2(r.rewardEstimate) },
  { head: 'orders placed', value: (r) => String(r.placed) },
  { head: 'orders cancelled', value: (r) => String(r.cancelled) },
];

/** What the columns mean, printed under the table. */
export const LEGEND: readonly string[] = [
  "PnL @ mid: realized + unrealized, net of fees, held positions valued at the book's mid at the end (tokens without a mid are left out and counted as unmarked tokens).",
  'PnL @ latent: the same fills, held positions valued at the synthetic flow\'s latent probability (the simulated "true" value), so it does not move with the spread.',
  'fees paid: already inside both PnLs (shown, never subtracted twice). net inventory: Σ over markets of |Yes − No| shares. reward score: Σ of our Q_min per sample (share-minutes); est. rewards: the pool share it would earn.',
];

export function renderTable(rows: readonly StrategyResult[], format: 'text' | 'markdown'): string {
  const cells = rows.map((r) => COLUMNS.map((c) => c.value(r)));
  const heads = COLUMNS.map((c) => c.head);
  if (format === 'markdown') {
    const line = (cs: readonly string[]): string => `| ${cs.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
    return [line(heads), `|${heads.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...cells.map(line)].join(
      '\n',
    );
  }
  const widths = heads.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (cs: readonly string[]): string =>
    cs.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(heads), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** One line naming the run, so a table is never read without its world. */
export function describeRun(o: CompareOptions, markets: number): string {
  return (
    `seed ${o.seed}, ${o.worldMarkets}-market world, ${markets} markets quoted, flow ${o.flow}, ` +
    `${o.warmupMs / 60_000} min warm-up then ${o.durationMs / 60_000} min of quoting, a cycle every ${o.pollMs} ms (virtual clock)`
  );
}

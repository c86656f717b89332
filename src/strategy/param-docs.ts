// A strategy's parameter table (`oddsmaker strategies show NAME`, the READMEs): its ParamDoc rows
// with each default read from the params the strategy parses out of nothing, so the table cannot
// drift from the schema. Invariants: money values (integer millionths once parsed) print as
// decimals (formatMicros: exact, no exponent); a row inside a list ("levels[].margin") prints "—",
// its default being the list's; `paramLeaves` lists every path the defaults hold, so a test can
// check each is documented and no row documents a path that does not exist. Pure.
import { formatMicros } from '../core/money.js';
import type { ParamDoc, StrategyModule } from './define.js';

export interface ParamRow {
  readonly path: string;
  readonly unit: string;
  readonly default: string;
  readonly description: string;
}

/** The value at a dotted path ("a.b"); undefined when absent or inside a list ("a[].b"). */
export function valueAt(obj: unknown, path: string): unknown {
  if (path.includes('[]')) return undefined;
  let v: unknown = obj;
  for (const k of path.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A parsed param value as a person would write it. */
export function formatParam(v: unknown, money: boolean): string {
  if (typeof v === 'number') return money && Number.isSafeInteger(v) ? formatMicros(v) : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => formatParam(x, money)).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${formatParam(x, money)}`)
      .join(', ')}}`;
  }
  return '—';
}

/** Every documented row of a strategy with its default. */
export function paramTable(m: Pick<StrategyModule, 'parseParams' | 'paramDocs'>): ParamRow[] {
  const defaults = m.parseParams(undefined);
  return (m.paramDocs ?? []).map((d: ParamDoc) => ({
    path: d.path,
    unit: d.unit,
    default: d.path.includes('[]') ? '—' : formatParam(valueAt(defaults, d.path), d.money === true),
    description: d.description,
  }));
}

/**
 * Every path the defaults hold: leaves as "a.b", lists as "a" and their items' fields as
 * "a[].b" (from the first item; a list of plain values is a leaf).
 */
export function paramLeaves(v: unknown, prefix = ''): string[] {
  if (Array.isArray(v)) {
    const first: unknown = v[0];
    const out = [prefix];
    if (typeof first === 'object' && first !== null && !Array.isArray(first))
      out.push(...paramLeaves(first, `${prefix}[]`));
    return out;
  }
  if (typeof v === 'object' && v !== null) {
    const out: string[] = [];
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      out.push(...paramLeaves(x, path));
    }
    return out;
  }
  return [prefix];
}

/** The table as aligned text (`strategies show`) or as Markdown (the READMEs). */
export function renderParamTable(rows: readonly ParamRow[], format: 'text' | 'markdown'): string {
  const head = ['name', 'unit', 'default', 'meaning'];
  const cells = rows.map((r) => [r.path, r.unit, r.default, r.description]);
  if (format === 'markdown') {
    const esc = (s: string): string => s.replaceAll('|', '\\|');
    // The name and the default are code; the unit and the meaning are prose.
    const line = (cs: readonly string[], code: boolean): string =>
      `| ${cs.map((c, i) => (code && (i === 0 || i === 2) ? `\`${esc(c)}\`` : esc(c))).join(' | ')} |`;
    return [line(head, false), `|${head.map(() => '---').join('|')}|`, ...cells.map((c) => line(c, true))].join('\n');
  }
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (cs: readonly string[]): string =>
    cs.map((c, i) => (i === cs.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

// report.html: one self-contained page (inline CSS and inline SVG drawn here; no script, font,
// image or link that loads anything) with the summary numbers and charts of equity, inventory per
// token, and each token's mid with our fills marked. Invariants:
// - every string that comes from input (token ids, market names) goes through escapeHtml, in text
//   and in attributes alike, so a hostile market name cannot inject markup;
// - the output is a pure function of (report, input): same input, same bytes (numbers are printed
//   with fixed decimals; series are sorted by time, tokens by id).
// Sections: run settings (when the input has them), summary, a per-market table (markets by question
// and outcome, else a shortened id: labels.ts), settlements, charts, and a trades table (time,
// market, side, price, size, fee, liquidity). Tables carry ids (settings, summary, markets,
// settlements, trades). Step series are held to the end time, ending at the final state (the
// producer's end sample, from-backtest.ts), so a flat series draws a line and the fills of the last
// instant show.
// Resolved markets get a settlements table (market, winner, time, and per token the shares
// settled, the payout per share, the collateral paid out and the PnL the settlement realized).
// Long series are thinned to at most MAX_POINTS points per line (evenly by index, the last point
// always kept) so the page stays small; fills are all drawn.
import { formatMicros, SCALE } from '../../core/money.js';
import type { ReportInput } from './input.js';
import { shortId, tokenLabel } from './labels.js';
import type { Report } from './metrics.js';
import { byTime, byTokenInTime } from './series.js';

const W = 860;
const H = 220;
const PAD_L = 70;
const PAD_R = 12;
const PAD_T = 12;
const PAD_B = 28;
const MAX_POINTS = 2000;
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf'];

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function fx(x: number, d = 2): string {
  return Number.isFinite(x) ? x.toFixed(d) : '0';
}

interface Series {
  readonly label: string;
  /** [time ms, value] sorted by time. */
  readonly points: readonly (readonly [number, number])[];
  readonly step: boolean;
}

interface Marker {
  readonly t: number;
  readonly v: number;
  readonly buy: boolean;
  readonly title: string;
}

function thin<T>(xs: readonly T[]): readonly T[] {
  if (xs.length <= MAX_POINTS) return xs;
  const out: T[] = [];
  const step = xs.length / MAX_POINTS;
  for (let i = 0; i < MAX_POINTS - 1; i++) out.push(xs[Math.floor(i * step)] as T);
  out.push(xs[xs.length - 1] as T);
  return out;
}

function chart(
  title: string,
  t0: number,
  t1: number,
  series: readonly Series[],
  markers: readonly Marker[],
  unit: string,
): string {
  const vals: number[] = [];
  for (const s of series) for (const p of s.points) vals.push(p[1]);
  for (const m of markers) vals.push(m.v);
  // Loops, not Math.min(...vals): a long series would overflow the argument stack.
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of vals) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (vals.length === 0) {
    lo = 0;
    hi = 1;
  }
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const span = t1 > t0 ? t1 - t0 : 1;
  const X = (t: number): string => fx(PAD_L + ((t - t0) / span) * (W - PAD_L - PAD_R));
  const Y = (v: number): string => fx(PAD_T + (1 - (v - lo) / (hi - lo)) * (H - PAD_T - PAD_B));
  const parts: string[] = [];
  parts.push(`<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(title)}">`);
  parts.push(
    `<rect x="${PAD_L}" y="${PAD_T}" width="${W - PAD_L - PAD_R}" height="${H - PAD_T - PAD_B}" fill="#fafafa" stroke="#ccc"/>`,
  );
  for (let i = 0; i <= 4; i++) {
    const v = lo + ((hi - lo) * i) / 4;
    parts.push(
      `<text x="${PAD_L - 4}" y="${Y(v)}" text-anchor="end" font-size="10" dominant-baseline="middle">${escapeHtml(fx(v, 4))}</text>`,
    );
  }
  parts.push(`<text x="${PAD_L}" y="${H - 8}" font-size="10">${escapeHtml(new Date(t0).toISOString())}</text>`);
  parts.push(
    `<text x="${W - PAD_R}" y="${H - 8}" font-size="10" text-anchor="end">${escapeHtml(new Date(t1).toISOString())}</text>`,
  );
  series.forEach((s, i) => {
    // A step series holds its last value to the end, so a flat or single-sample series draws a
    // line and the last instant is on the chart.
    const last = s.points[s.points.length - 1];
    const pts =
      s.step && last !== undefined && last[0] < t1 ? [...thin(s.points), [t1, last[1]] as const] : thin(s.points);
    if (pts.length === 0) return;
    const d: string[] = [];
    pts.forEach((p, j) => {
      if (j === 0) {
        d.push(`M${X(p[0])},${Y(p[1])}`);
        return;
      }
      if (s.step) d.push(`H${X(p[0])}`);
      d.push(`L${X(p[0])},${Y(p[1])}`);
    });
    const color = COLORS[i % COLORS.length] as string;
    parts.push(
      `<path d="${d.join('')}" fill="none" stroke="${color}" stroke-width="1.2"><title>${escapeHtml(s.label)}</title></path>`,
    );
  });
  for (const m of markers) {
    parts.push(
      `<circle cx="${X(m.t)}" cy="${Y(m.v)}" r="3" fill="${m.buy ? '#2ca02c' : '#d62728'}"><title>${escapeHtml(m.title)}</title></circle>`,
    );
  }
  parts.push('</svg>');
  const legend = series
    .map((s, i) => `<span style="color:${COLORS[i % COLORS.length] as string}">■</span> ${escapeHtml(s.label)}`)
    .join(' &nbsp; ');
  return `<section><h2>${escapeHtml(title)} <small>(${escapeHtml(unit)})</small></h2>${parts.join('')}<div class="legend">${legend}</div></section>`;
}

function row(k: string, v: string): string {
  return `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`;
}

function opt(x: number | null, d = 4): string {
  return x === null ? '—' : fx(x, d);
}

/** A table with an id (tests and readers find the sections by it); cells escaped. */
function table(
  id: string,
  head: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: ReadonlySet<number> = new Set(),
): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map(
      (r) => `<tr>${r.map((c, i) => `<td${numeric.has(i) ? ' class="n"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table id="${id}"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

const MAX_TRADE_ROWS = 5_000;

export function renderHtml(report: Report, input: ReportInput, title = 'oddsmaker backtest'): string {
  const t0 = input.startMs;
  const t1 = Math.max(input.endMs, report.final.timeMs, t0 + 1);
  const names = new Map(input.markets.map((m) => [m.tokenId, m.name]));
  const label = (token: string): string => tokenLabel(names, token);
  const tokens = [
    ...new Set([
      ...input.markets.map((m) => m.tokenId),
      ...input.mids.map((m) => m.tokenId),
      ...input.inventory.map((s) => s.tokenId),
      ...input.fills.map((f) => f.tokenId),
    ]),
  ].sort();
  const iso = (t: number): string => new Date(t).toISOString();

  const sections: string[] = [];
  const st = report.settings;
  if (st !== null) {
    sections.push(
      `<section><h2>Run settings</h2><table id="settings">${[
        row('Config', st.config),
        row('Recording', `${st.recording} (depth ${st.depth})`),
        row('Strategy', st.strategy),
        row('Strategy parameters', JSON.stringify(st.params)),
        row('Fill model', st.fillModel),
        row('Latency', st.latency),
        row('Cadence', `${st.cadence} (poll interval ${st.pollIntervalMs} ms)`),
        row('Seed', String(st.seed)),
      ].join('')}</table></section>`,
    );
  }

  const summary = [
    row('PnL total', formatMicros(report.pnl.totalMicros)),
    row('PnL realized', formatMicros(report.pnl.realizedMicros)),
    row('PnL unrealized', formatMicros(report.pnl.unrealizedMicros)),
    // A held token with no mid is left out of unrealized (metrics.ts); say which, never hide it.
    ...(report.pnl.unmarkedTokens.length > 0
      ? [row('Unmarked (held, no mid)', report.pnl.unmarkedTokens.map(label).join(', '))]
      : []),
    row('Fees', formatMicros(report.pnl.feesMicros)),
    row('Final equity', `${formatMicros(report.final.equityMicros)} (capital ${formatMicros(report.capitalMicros)})`),
    row('Fills (buys / sells)', `${report.fills.count} (${report.fills.buys} / ${report.fills.sells})`),
    row('Volume (notional)', formatMicros(report.volume.notionalMicros)),
    row(
      'Max drawdown',
      `${formatMicros(report.drawdown.maxMicros)} (${opt(report.drawdown.maxFraction === null ? null : report.drawdown.maxFraction * 100, 2)} %)`,
    ),
    row('Sharpe per day (not annualised)', opt(report.sharpe.perDay)),
    row('Quote uptime (time-weighted)', opt(report.uptime.timeWeighted)),
    row('Fill ratio', opt(report.fillRatio.ratio)),
    ...report.markouts.map((m) =>
      row(
        `Markout ${m.horizonMs / 1000} s (${m.fills} fills)`,
        `${opt(m.meanPrice, 5)} (${opt(m.meanTicks, 2)} ticks)`,
      ),
    ),
  ].join('');
  sections.push(
    `<section><h2>Summary <small>(USDC unless stated)</small></h2><table id="summary">${summary}</table></section>`,
  );

  sections.push(
    `<section><h2>Per market <small>(USDC; position in shares)</small></h2>${table(
      'markets',
      ['Market', 'Fills', 'Buys / sells', 'Volume', 'Position', 'Mark', 'Realized', 'Unrealized', 'Fees', 'PnL'],
      // By name on the page (a market's outcomes together); report.json keeps token-id order.
      [...report.markets]
        .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : a.tokenId < b.tokenId ? -1 : 1))
        .map((m) => [
          m.label,
          String(m.fills),
          `${m.buys} / ${m.sells}`,
          formatMicros(m.volumeMicros),
          formatMicros(m.positionSharesMicros),
          m.markMicros === null ? '—' : formatMicros(m.markMicros),
          formatMicros(m.realizedMicros),
          m.unrealizedMicros === null ? 'unmarked' : formatMicros(m.unrealizedMicros),
          formatMicros(m.feesMicros),
          formatMicros(m.pnlMicros),
        ]),
      new Set([1, 3, 4, 5, 6, 7, 8, 9]),
    )}</section>`,
  );

  if (report.settlements.length > 0) {
    const rows: string[][] = [];
    for (const s of report.settlements) {
      const lead = [
        s.conditionId.length > 16 ? shortId(s.conditionId) : s.conditionId,
        label(s.winnerTokenId),
        iso(s.timeMs),
      ];
      if (s.tokens.length === 0) rows.push([...lead, '—', '0', '—', '0', '0']);
      for (const tk of s.tokens)
        rows.push([
          ...lead,
          label(tk.tokenId),
          formatMicros(tk.sharesMicros),
          formatMicros(tk.payout),
          formatMicros(tk.payoutMicros),
          formatMicros(tk.realizedMicros),
        ]);
    }
    sections.push(
      `<section><h2>Settlements</h2>${table('settlements', ['Market', 'Winner', 'Time', 'Token', 'Shares', 'Payout / share', 'Paid out', 'Realized'], rows)}</section>`,
    );
  }

  sections.push(
    chart(
      'Equity',
      t0,
      t1,
      [{ label: 'equity', step: true, points: byTime(input.equity).map((s) => [s.timeMs, s.equity / SCALE] as const) }],
      [],
      'USDC',
    ),
  );
  const inventory = byTokenInTime(input.inventory);
  const midsOf = byTokenInTime(input.mids);
  const fillsOf = byTokenInTime(input.fills);
  const inv = tokens
    .map((tok) => ({
      label: label(tok),
      step: true,
      points: (inventory.get(tok) ?? []).map((s) => [s.timeMs, s.shares / SCALE] as const),
    }))
    .filter((s) => s.points.length > 0);
  sections.push(chart('Inventory', t0, t1, inv, [], 'shares'));
  for (const tok of tokens) {
    const mids = (midsOf.get(tok) ?? []).map((m) => [m.timeMs, m.mid / SCALE] as const);
    const fills = (fillsOf.get(tok) ?? []).map((f) => ({
      t: f.timeMs,
      v: f.price / SCALE,
      buy: f.side === 'BUY',
      title: `${f.side} ${formatMicros(f.size)} @ ${formatMicros(f.price)} ${iso(f.timeMs)}`,
    }));
    if (mids.length === 0 && fills.length === 0) continue;
    sections.push(
      chart(
        `Mid and fills: ${label(tok)}`,
        t0,
        t1,
        [{ label: 'mid', step: true, points: mids }],
        fills,
        'price; green = buy, red = sell',
      ),
    );
  }

  const trades = report.trades.slice(0, MAX_TRADE_ROWS);
  const more =
    report.trades.length > trades.length
      ? ` <small>(first ${trades.length} of ${report.trades.length}; all in report.json)</small>`
      : '';
  sections.push(
    `<section><h2>Trades${more}</h2>${table(
      'trades',
      ['Time (UTC)', 'Market', 'Side', 'Price', 'Size (shares)', 'Fee (USDC)', 'Liquidity'],
      trades.map((t) => [
        iso(t.timeMs),
        t.label,
        t.side,
        formatMicros(t.priceMicros),
        formatMicros(t.sizeMicros),
        formatMicros(t.feeMicros),
        t.liquidity === '' ? '—' : t.liquidity,
      ]),
      new Set([3, 4, 5]),
    )}</section>`,
  );

  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;margin:16px;color:#222;max-width:1100px}table{border-collapse:collapse;font-size:13px}th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}thead th{background:#f4f4f4}h2{font-size:15px;margin:18px 0 4px}.legend{font-size:12px}</style>',
    '</head><body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(iso(input.startMs))} → ${escapeHtml(iso(input.endMs))}</p>`,
    ...sections,
    '</body></html>',
    '',
  ].join('\n');
}

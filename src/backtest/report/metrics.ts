// report.json's numbers, computed from a ReportInput (input.ts). Pure: no I/O, no clock. Invariants:
// - money is exact integer millionths (fields named *Micros); ratios and averages are floats;
// - the same input gives the same report, and reportJson() gives it byte for byte: every object is
//   built with a fixed key order, per-token lists are sorted by token id, series are sorted stably
//   by time, and every sum runs in that order;
// - a float that has no value (an empty average, a zero deviation) is null, never NaN or Infinity.
// Definitions (also in the README's backtest section):
// - PnL: the core's one PnL (src/core/pnl.ts, pnl-mark.ts), the ledger's own: the fills, in time
//   order, are applied to signed average-cost positions per token at their exact collateral (the
//   fill's `notional`, else price × size rounded against us); realized is net of fees (proceeds of
//   the closed quantity − its share of the cost basis − every fee); unrealized = each held token's
//   last mid at or before endMs × position (rounded down) − its cost basis; a held token that never
//   had a mid is unmarked (listed in `unmarkedTokens`, left out, never marked at a made-up price);
//   fees = Σ fill fees, shown beside realized; total = realized + unrealized. For the fills,
//   resolutions and marks of a ledger, these are the ledger's numbers to the millionth.
// - Resolution: at a resolution's time (after the fills of that same time) every position in its
//   market closes at its payout per share (winner 1, other tokens 0; core settlePosition):
//   realized += payout × position − its cost basis; a fill of a resolved token later (the ledger
//   may learn of a fill late) is settled at once. `settlements` lists, per resolution, each token
//   settled with the shares, the collateral paid out and the PnL the settlement realized (late
//   fills' settlements included).
// - Maximum drawdown: the largest fall of equity from its running peak over the equity samples,
//   in micros, and as a fraction of that peak. (A producer samples the end state itself:
//   from-backtest.ts appends capital + total PnL at endMs, so fills of the last instant count.)
// - `final`: capital + total PnL at endMs, the headline numbers' equity.
// - Per market (`markets`, per token): fills, volume, end position, its mark, realized (net of
//   fees), unrealized (null when held and unmarked) and PnL, the same replay as the totals, so
//   the rows sum to the totals. `trades`: every fill in time order with its label and liquidity.
// - `settings`: the input's run settings as given (null when absent).
// - Sharpe per day: one equity value per UTC day (the day's last sample, carried over days with
//   none); daily return r_d = (E_d − E_{d−1}) / capital, E_{−1} = the first sample; Sharpe =
//   mean(r) / stdev(r) with the sample (n − 1) deviation, NOT annualised; `annualised` = Sharpe ×
//   √365 (prediction markets trade every day). Null with fewer than 2 days or a zero deviation.
// - Inventory per token: mean over samples, max |shares|, and time-weighted mean and mean |shares|
//   (each sample holds until the token's next sample, the last until endMs).
// - Quote uptime: Σ quoted / Σ tokens over cycles, and time-weighted (each cycle's quoted/tokens
//   fraction holds until the next cycle, the last until endMs); cycles with no tokens are left out.
// - Fill ratio: filled size / placed size.
// - Markout at Δ ∈ {1 s, 10 s, 60 s}: for each fill with t + Δ ≤ endMs and a mid of its token at
//   or before t + Δ: (mid(t + Δ) − price) for a buy, (price − mid(t + Δ)) for a sell (positive =
//   the fill was good for us); the mean over those fills (each fill counts once, whatever its size),
//   in price units and in ticks of the fill's token.
import { mulMicros, SCALE, type Price } from '../../core/money.js';
import { applyFill, FLAT, settlePosition, type PositionState } from '../../core/pnl.js';
import { markToMarket } from '../../core/pnl-mark.js';
import type {
  InventorySample,
  ReportFill,
  ReportInput,
  ReportSettings,
  TokenMidSample,
  ReportResolution,
} from './input.js';
import { BacktestError } from '../errors.js';
import { tokenLabel } from './labels.js';
import { byTime, byTokenInTime } from './series.js';

export const MARKOUT_HORIZONS_MS: readonly number[] = [1_000, 10_000, 60_000];
const DAY_MS = 86_400_000;

export interface PnlReport {
  /** realizedMicros + unrealizedMicros. */
  readonly totalMicros: number;
  /** Net of fees, settlements included. */
  readonly realizedMicros: number;
  /** Over the marked tokens only. */
  readonly unrealizedMicros: number;
  readonly feesMicros: number;
  /** Tokens held at the end without any mid (left out of unrealized), by token id. */
  readonly unmarkedTokens: readonly string[];
}

export interface FillsReport {
  readonly count: number;
  readonly buys: number;
  readonly sells: number;
}

export interface VolumeReport {
  /** Σ price × size over fills. */
  readonly notionalMicros: number;
  /** Σ size over fills, share millionths. */
  readonly sharesMicros: number;
}

export interface DrawdownReport {
  readonly maxMicros: number;
  /** maxMicros / the peak it fell from; null when that peak is ≤ 0 or there is no drawdown. */
  readonly maxFraction: number | null;
  readonly peakTimeMs: number | null;
  readonly troughTimeMs: number | null;
}

export interface SharpeReport {
  readonly days: number;
  readonly meanDailyReturn: number | null;
  readonly stdevDailyReturn: number | null;
  readonly perDay: number | null;
  readonly annualised: number | null;
}

export interface InventoryReport {
  readonly tokenId: string;
  readonly samples: number;
  /** Shares (floats): mean over samples. */
  readonly mean: number | null;
  readonly maxAbs: number;
  readonly timeWeightedMean: number | null;
  readonly timeWeightedMeanAbs: number | null;
}

export interface UptimeReport {
  readonly cycles: number;
  readonly perCycle: number | null;
  readonly timeWeighted: number | null;
}

export interface FillRatioReport {
  readonly ordersPlaced: number;
  readonly ordersFilled: number;
  readonly placedSharesMicros: number;
  readonly filledSharesMicros: number;
  readonly ratio: number | null;
}

export interface MarkoutReport {
  readonly horizonMs: number;
  /** Fills that had a mid at t + Δ within the run. */
  readonly fills: number;
  readonly meanPrice: number | null;
  readonly meanTicks: number | null;
}

export interface SettledTokenReport {
  readonly tokenId: string;
  /** Per share, micros (1 000 000 for the winner). */
  readonly payout: number;
  /** Shares settled (signed: a short position settles negative), share millionths. */
  readonly sharesMicros: number;
  /** payout × shares, micros. */
  readonly payoutMicros: number;
  /** payout × shares − the cost basis closed. */
  readonly realizedMicros: number;
}

export interface SettlementReport {
  readonly conditionId: string;
  readonly winnerTokenId: string;
  readonly timeMs: number;
  /** Tokens that had a position to settle, by token id. */
  readonly tokens: readonly SettledTokenReport[];
  readonly sharesMicros: number;
  readonly payoutMicros: number;
  readonly realizedMicros: number;
}

/** One token's line of the per-market table. */
export interface MarketReport {
  readonly tokenId: string;
  /** Question and outcome, or the shortened id (labels.ts). */
  readonly label: string;
  readonly fills: number;
  readonly buys: number;
  readonly sells: number;
  /** Σ price × size of its fills, micros. */
  readonly volumeMicros: number;
  readonly volumeSharesMicros: number;
  /** Shares held at the end (after every fill and settlement), share millionths. */
  readonly positionSharesMicros: number;
  /** The mark the end position was valued at; null when flat or unmarked. */
  readonly markMicros: number | null;
  readonly realizedMicros: number;
  /** Null when a position is held and the token has no mid (unmarked). */
  readonly unrealizedMicros: number | null;
  readonly feesMicros: number;
  /** realized + unrealized (unrealized 0 when unmarked). */
  readonly pnlMicros: number;
}

/** One fill of the trades table. */
export interface TradeReport {
  readonly timeMs: number;
  readonly tokenId: string;
  readonly label: string;
  readonly side: 'BUY' | 'SELL';
  readonly priceMicros: number;
  readonly sizeMicros: number;
  readonly feeMicros: number;
  /** `maker`, `taker`, or "" when unknown. */
  readonly liquidity: string;
}

/** The run's end state (fills of the last instant included). */
export interface FinalReport {
  readonly timeMs: number;
  /** capital + total PnL at endMs. */
  readonly equityMicros: number;
}

export interface Report {
  readonly version: 1;
  readonly startMs: number;
  readonly endMs: number;
  readonly capitalMicros: number;
  readonly pnl: PnlReport;
  readonly fills: FillsReport;
  readonly volume: VolumeReport;
  readonly drawdown: DrawdownReport;
  readonly sharpe: SharpeReport;
  readonly inventory: readonly InventoryReport[];
  readonly uptime: UptimeReport;
  readonly fillRatio: FillRatioReport;
  readonly markouts: readonly MarkoutReport[];
  readonly settlements: readonly SettlementReport[];
  /** How the run was set up; null when the input did not say. */
  readonly settings: ReportSettings | null;
  /** Per token, by token id. */
  readonly markets: readonly MarketReport[];
  /** Every fill in time order. */
  readonly trades: readonly TradeReport[];
  readonly final: FinalReport;
}

/** A float, or null when it is not finite. */
function num(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

function sortedKeys<V>(m: ReadonlyMap<string, V>): string[] {
  return [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Index of the last sample with timeMs ≤ t, or -1. */
function lastAtOrBefore(xs: readonly { readonly timeMs: number }[], t: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if ((xs[m] as { timeMs: number }).timeMs <= t) {
      ans = m;
      lo = m + 1;
    } else hi = m - 1;
  }
  return ans;
}

interface Settled {
  shares: number;
  payout: number;
  realized: number;
}

interface ReportPnl {
  readonly pnl: PnlReport;
  readonly settlements: SettlementReport[];
  /** Each token's position at the end, and its mark (undefined: none). */
  readonly positions: ReadonlyMap<string, PositionState>;
  readonly markOf: (token: string) => Price | undefined;
}

/** Resolutions by time (then condition id), the first of each market only. */
function resolutionsInOrder(input: ReportInput): ReportResolution[] {
  const seen = new Set<string>();
  const out: ReportResolution[] = [];
  for (const r of [...(input.resolutions ?? [])].sort(
    (a, b) => a.timeMs - b.timeMs || (a.conditionId < b.conditionId ? -1 : a.conditionId > b.conditionId ? 1 : 0),
  )) {
    if (seen.has(r.conditionId)) continue;
    seen.add(r.conditionId);
    out.push(r);
  }
  return out;
}

/** Fills and resolutions replayed in time order through the core PnL: the PnL and what each resolution settled. */
function reportPnl(input: ReportInput): ReportPnl {
  const pos = new Map<string, PositionState>();
  const resolutions = resolutionsInOrder(input);
  // Once a token's market resolved: its payout and the per-token settlement totals of that resolution.
  const payoutOf = new Map<string, { payout: Price; settled: Map<string, Settled> }>();
  const settledBy = resolutions.map(() => new Map<string, Settled>());
  const settle = (token: string): void => {
    const r = payoutOf.get(token);
    const p = pos.get(token);
    if (r === undefined || p === undefined || p.size === 0) return;
    const e = settlePosition(p, r.payout);
    pos.set(token, e.position);
    let acc = r.settled.get(token);
    if (acc === undefined) {
      acc = { shares: 0, payout: 0, realized: 0 };
      r.settled.set(token, acc);
    }
    acc.shares += e.size;
    acc.payout += e.proceeds;
    acc.realized += e.realizedDelta;
  };
  let ri = 0;
  const resolveUpTo = (t: number): void => {
    for (; ri < resolutions.length && (resolutions[ri] as ReportResolution).timeMs < t; ri++) {
      const r = resolutions[ri] as ReportResolution;
      const settled = settledBy[ri] as Map<string, Settled>;
      for (const x of r.payouts) {
        if (!payoutOf.has(x.tokenId)) payoutOf.set(x.tokenId, { payout: x.payout, settled });
        settle(x.tokenId);
      }
    }
  };
  for (const f of byTime(input.fills)) {
    resolveUpTo(f.timeMs);
    const fill = {
      side: f.side,
      price: f.price,
      size: f.size,
      feeMicros: f.fee,
      ...(f.notional !== undefined ? { notional: f.notional } : {}),
    };
    pos.set(f.tokenId, applyFill(pos.get(f.tokenId) ?? FLAT, fill).position);
    settle(f.tokenId); // a fill of a market already resolved
  }
  resolveUpTo(Number.POSITIVE_INFINITY);
  // Each token's last mid at or before endMs (none: unmarked): of equal times the later in input
  // order, as the last of a stable sort by time.
  const lastMid = new Map<string, TokenMidSample>();
  for (const s of input.mids) {
    if (s.timeMs > input.endMs) continue;
    const held = lastMid.get(s.tokenId);
    if (held === undefined || s.timeMs >= held.timeMs) lastMid.set(s.tokenId, s);
  }
  const markOf = (token: string): Price | undefined => lastMid.get(token)?.mid;
  const m = markToMarket(
    sortedKeys(pos).map((tokenId) => ({ tokenId, ...(pos.get(tokenId) as PositionState) })),
    markOf,
  );
  const settlements = resolutions.map((r, i): SettlementReport => {
    const settled = settledBy[i] as Map<string, Settled>;
    const payouts = new Map(r.payouts.map((x) => [x.tokenId, x.payout]));
    const tokens = sortedKeys(settled).map((tokenId): SettledTokenReport => {
      const a = settled.get(tokenId) as Settled;
      return {
        tokenId,
        payout: payouts.get(tokenId) ?? 0,
        sharesMicros: a.shares,
        payoutMicros: a.payout,
        realizedMicros: a.realized,
      };
    });
    let shares = 0;
    let payout = 0;
    let gain = 0;
    for (const t of tokens) {
      shares += t.sharesMicros;
      payout += t.payoutMicros;
      gain += t.realizedMicros;
    }
    return {
      conditionId: r.conditionId,
      winnerTokenId: r.winnerTokenId,
      timeMs: r.timeMs,
      tokens,
      sharesMicros: shares,
      payoutMicros: payout,
      realizedMicros: gain,
    };
  });
  return {
    pnl: {
      totalMicros: m.total,
      realizedMicros: m.realized,
      unrealizedMicros: m.unrealized,
      feesMicros: m.fees,
      unmarkedTokens: m.unmarked.map((p) => p.tokenId),
    },
    settlements,
    positions: pos,
    markOf,
  };
}

export function computePnl(input: ReportInput): PnlReport {
  return reportPnl(input).pnl;
}

/** The PnL and each token's end position (a token with no fill: none), without the rest of the report. */
export function computeEnd(input: ReportInput): {
  readonly pnl: PnlReport;
  readonly positions: ReadonlyMap<string, PositionState>;
} {
  const r = reportPnl(input);
  return { pnl: r.pnl, positions: r.positions };
}

/** What each resolution of the run settled (see the header). */
export function computeSettlements(input: ReportInput): SettlementReport[] {
  return reportPnl(input).settlements;
}

export function computeDrawdown(input: ReportInput): DrawdownReport {
  let peak: number | null = null;
  let peakT = 0;
  let best = {
    maxMicros: 0,
    maxFraction: null as number | null,
    peakTimeMs: null as number | null,
    troughTimeMs: null as number | null,
  };
  for (const s of byTime(input.equity)) {
    if (peak === null || s.equity > peak) {
      peak = s.equity;
      peakT = s.timeMs;
      continue;
    }
    const dd = peak - s.equity;
    if (dd > best.maxMicros) {
      best = { maxMicros: dd, maxFraction: peak > 0 ? dd / peak : null, peakTimeMs: peakT, troughTimeMs: s.timeMs };
    }
  }
  return best;
}

/** Daily returns over capital (see the header). */
export function dailyReturns(input: ReportInput): number[] {
  const eq = byTime(input.equity);
  const first = eq[0];
  if (first === undefined || input.capital <= 0) return [];
  const lastOfDay = new Map<number, number>();
  for (const s of eq) lastOfDay.set(Math.floor(s.timeMs / DAY_MS), s.equity);
  const d0 = Math.floor(first.timeMs / DAY_MS);
  const d1 = Math.floor((eq[eq.length - 1] as { timeMs: number }).timeMs / DAY_MS);
  const out: number[] = [];
  let prev: number = first.equity;
  for (let d = d0; d <= d1; d++) {
    const e = lastOfDay.get(d) ?? prev;
    out.push((e - prev) / input.capital);
    prev = e;
  }
  return out;
}

export function computeSharpe(input: ReportInput): SharpeReport {
  const r = dailyReturns(input);
  const n = r.length;
  if (n === 0) return { days: 0, meanDailyReturn: null, stdevDailyReturn: null, perDay: null, annualised: null };
  let sum = 0;
  for (const x of r) sum += x;
  const mean = sum / n;
  if (n < 2) return { days: n, meanDailyReturn: num(mean), stdevDailyReturn: null, perDay: null, annualised: null };
  let ss = 0;
  for (const x of r) ss += (x - mean) * (x - mean);
  const sd = Math.sqrt(ss / (n - 1));
  const sharpe = sd > 0 ? mean / sd : Number.NaN;
  return {
    days: n,
    meanDailyReturn: num(mean),
    stdevDailyReturn: num(sd),
    perDay: num(sharpe),
    annualised: num(sharpe * Math.sqrt(365)),
  };
}

export function computeInventory(input: ReportInput): InventoryReport[] {
  const groups = byTokenInTime(input.inventory);
  return sortedKeys(groups).map((tokenId) => {
    const xs = groups.get(tokenId) as readonly InventorySample[];
    let count = 0;
    let sum = 0;
    let maxAbs = 0;
    let tw = 0;
    let twAbs = 0;
    let weight = 0;
    xs.forEach((s, i) => {
      // A run of n equal samples: n in the count and the mean; its time weight runs to the next.
      const n = s.samples ?? 1;
      count += n;
      sum += s.shares * n;
      maxAbs = Math.max(maxAbs, Math.abs(s.shares));
      const until = xs[i + 1]?.timeMs ?? Math.max(input.endMs, s.timeMs);
      const w = until - s.timeMs;
      tw += s.shares * w;
      twAbs += Math.abs(s.shares) * w;
      weight += w;
    });
    return {
      tokenId,
      samples: count,
      mean: num(sum / count / SCALE),
      maxAbs: maxAbs / SCALE,
      timeWeightedMean: weight > 0 ? num(tw / weight / SCALE) : null,
      timeWeightedMeanAbs: weight > 0 ? num(twAbs / weight / SCALE) : null,
    };
  });
}

export function computeUptime(input: ReportInput): UptimeReport {
  const xs = byTime(input.uptime).filter((c) => c.tokens > 0);
  let quoted = 0;
  let tokens = 0;
  let tw = 0;
  let weight = 0;
  xs.forEach((c, i) => {
    quoted += c.quoted;
    tokens += c.tokens;
    const until = xs[i + 1]?.timeMs ?? Math.max(input.endMs, c.timeMs);
    const w = until - c.timeMs;
    tw += (c.quoted / c.tokens) * w;
    weight += w;
  });
  return {
    cycles: xs.length,
    perCycle: tokens > 0 ? num(quoted / tokens) : null,
    timeWeighted: weight > 0 ? num(tw / weight) : null,
  };
}

export function computeFillRatio(input: ReportInput): FillRatioReport {
  const o = input.orders;
  return {
    ordersPlaced: o.placed,
    ordersFilled: o.filled,
    placedSharesMicros: o.placedSize,
    filledSharesMicros: o.filledSize,
    ratio: o.placedSize > 0 ? num(o.filledSize / o.placedSize) : null,
  };
}

export function computeMarkouts(input: ReportInput): MarkoutReport[] {
  const ticks = new Map(input.markets.map((m) => [m.tokenId, m.tickSize]));
  const mids = byTokenInTime(input.mids);
  const fills: readonly ReportFill[] = byTime(input.fills);
  return MARKOUT_HORIZONS_MS.map((h) => {
    let n = 0;
    let sum = 0;
    let sumTicks = 0;
    for (const f of fills) {
      const at = f.timeMs + h;
      if (at > input.endMs) continue;
      const series = mids.get(f.tokenId) ?? [];
      const i = lastAtOrBefore(series, at);
      if (i < 0) continue;
      const tick = ticks.get(f.tokenId);
      if (tick === undefined || tick <= 0)
        throw new BacktestError('BACKTEST_NO_TICK', `report: no tick size for token ${f.tokenId}`);
      const m = (series[i] as TokenMidSample).mid;
      const mo = f.side === 'BUY' ? m - f.price : f.price - m;
      n++;
      sum += mo;
      sumTicks += mo / tick;
    }
    return {
      horizonMs: h,
      fills: n,
      meanPrice: n > 0 ? num(sum / n / SCALE) : null,
      meanTicks: n > 0 ? num(sumTicks / n) : null,
    };
  });
}

/** The per-market table: every token of the input's markets and fills, by token id. */
function computeMarkets(input: ReportInput, replay: ReportPnl): MarketReport[] {
  const names = new Map(input.markets.map((m) => [m.tokenId, m.name]));
  const tokens = [...new Set([...input.markets.map((m) => m.tokenId), ...input.fills.map((f) => f.tokenId)])].sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  const byToken = byTokenInTime(input.fills);
  return tokens.map((tokenId): MarketReport => {
    let buys = 0;
    let vol = 0;
    let shares = 0;
    const fills = byToken.get(tokenId) ?? [];
    for (const f of fills) {
      if (f.side === 'BUY') buys++;
      vol += mulMicros(f.price, f.size, 'half-even');
      shares += f.size;
    }
    const p = replay.positions.get(tokenId) ?? FLAT;
    const mark = p.size === 0 ? undefined : replay.markOf(tokenId);
    const unrealized =
      p.size === 0 ? 0 : mark === undefined ? null : markToMarket([{ tokenId, ...p }], () => mark).unrealized;
    return {
      tokenId,
      label: tokenLabel(names, tokenId),
      fills: fills.length,
      buys,
      sells: fills.length - buys,
      volumeMicros: vol,
      volumeSharesMicros: shares,
      positionSharesMicros: p.size,
      markMicros: mark ?? null,
      realizedMicros: p.realized,
      unrealizedMicros: unrealized,
      feesMicros: p.fees,
      pnlMicros: p.realized + (unrealized ?? 0),
    };
  });
}

function computeTrades(input: ReportInput): TradeReport[] {
  const names = new Map(input.markets.map((m) => [m.tokenId, m.name]));
  return byTime(input.fills).map((f) => ({
    timeMs: f.timeMs,
    tokenId: f.tokenId,
    label: tokenLabel(names, f.tokenId),
    side: f.side,
    priceMicros: f.price,
    sizeMicros: f.size,
    feeMicros: f.fee,
    liquidity: f.liquidity ?? '',
  }));
}

export function computeReport(input: ReportInput): Report {
  let buys = 0;
  let notional = 0;
  let sharesVol = 0;
  for (const f of byTime(input.fills)) {
    if (f.side === 'BUY') buys++;
    notional += mulMicros(f.price, f.size, 'half-even');
    sharesVol += f.size;
  }
  const replay = reportPnl(input);
  return {
    version: 1,
    startMs: input.startMs,
    endMs: input.endMs,
    capitalMicros: input.capital,
    pnl: replay.pnl,
    fills: { count: input.fills.length, buys, sells: input.fills.length - buys },
    volume: { notionalMicros: notional, sharesMicros: sharesVol },
    drawdown: computeDrawdown(input),
    sharpe: computeSharpe(input),
    inventory: computeInventory(input),
    uptime: computeUptime(input),
    fillRatio: computeFillRatio(input),
    markouts: computeMarkouts(input),
    settlements: replay.settlements,
    settings: input.settings ?? null,
    markets: computeMarkets(input, replay),
    trades: computeTrades(input),
    final: { timeMs: input.endMs, equityMicros: input.capital + replay.pnl.totalMicros },
  };
}

/** report.json's text: two-space indented, trailing newline, byte-identical for equal input. */
export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

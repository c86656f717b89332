// Maps the replay engine's BacktestResult (src/backtest/types.ts, another owner's) into the
// report's own input (input.ts), in this one place. Choices, since the result is coarser than the
// input in two spots:
// - inventory: one sample per cycle for every token of the run's markets, 0 when the cycle's
//   inventory list (positions only) does not name the token, so time-weighted stats see flat time;
//   consecutive cycles with the token's same position are one run (InventorySample.samples), so
//   the input grows with the changes, not with cycles × tokens;
// - uptime: the result counts resting orders per cycle, not quoted tokens, so a cycle counts as
//   quoting (1 of 1) when any order rests after it: "time with at least one quote up".
// Market names: "question — outcome" from the labels the caller passes (the recording's sidecar,
// src/marketdata/recording/importers/sidecar.ts), else the shortened condition and token ids (the
// result carries no question text; labels.ts). Fills keep the ledger's liquidity. Resolutions carry the
// winner and the market's tokens; the report settles its own positions from them (metrics.ts).
// Fills carry the ledger's exact notional, so the report's PnL (core/pnl.ts, as the ledger books
// it) is the ledger's own to the millionth for the same marks.
import { ONE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { BacktestResult, MidSeries } from '../types.js';
import type { InventorySample, ReportInput, ReportMarket, ReportSettings } from './input.js';
import { shortId } from './labels.js';
import { computeEnd } from './metrics.js';

export interface FromBacktestOptions {
  /** Question and outcome per token id (a recording's sidecar labels). */
  readonly labels?: Readonly<Record<string, { readonly question: string; readonly outcome: string }>>;
  readonly settings?: ReportSettings;
}

export function reportInputFromBacktest(r: BacktestResult, opts: FromBacktestOptions = {}): ReportInput {
  return withFinalState(mapResult(r, opts));
}

/**
 * The end state sampled: the ledger may record fills after the last cycle (its last lookups run
 * as the daemon stops), which the cycle samples never saw. When the report's PnL at endMs differs
 * from the last equity sample, or that sample is earlier than endMs, one more sample at endMs is
 * appended: equity = capital + the report's total PnL, inventory = each token's end position. So
 * the equity chart, drawdown and the headline PnL agree, and the charts reach the last instant.
 */
function withFinalState(input: ReportInput): ReportInput {
  const end = computeEnd(input);
  const last = input.equity[input.equity.length - 1];
  const finalEquity = (input.capital + end.pnl.totalMicros) as Micros;
  if (last !== undefined && last.timeMs >= input.endMs && last.equity === finalEquity) return input;
  const t = Math.max(input.endMs, last?.timeMs ?? input.endMs);
  const tokens = [...new Set(input.inventory.map((s) => s.tokenId))].sort();
  return {
    ...input,
    equity: [...input.equity, { timeMs: t, equity: finalEquity }],
    inventory: [
      ...input.inventory,
      ...tokens.map((tokenId) => ({ timeMs: t, tokenId, shares: (end.positions.get(tokenId)?.size ?? 0) as Shares })),
    ],
  };
}

function mapResult(r: BacktestResult, opts: FromBacktestOptions): ReportInput {
  const markets: ReportMarket[] = [];
  for (const m of r.markets) {
    for (const t of m.tokens) {
      const l = opts.labels?.[t];
      const name =
        l === undefined
          ? `market ${shortId(m.conditionId)} · token ${shortId(t)}`
          : l.outcome === ''
            ? l.question
            : `${l.question} — ${l.outcome}`;
      markets.push({ tokenId: t, name, conditionId: m.conditionId, tickSize: m.tickSize as Price });
    }
  }
  const tokens = [...new Set(markets.map((m) => m.tokenId))].sort();
  const inventory = inventoryRuns(r.equity, tokens);
  let placedSize = 0;
  let filledSize = 0;
  let filled = 0;
  for (const o of r.orders) {
    placedSize += o.size;
    filledSize += o.sizeMatched;
    if (o.sizeMatched > 0) filled++;
  }
  return {
    startMs: r.startMs,
    endMs: r.endMs,
    capital: r.capital as Micros,
    markets,
    fills: r.fills.map((f) => ({
      timeMs: f.timeMs,
      tokenId: f.tokenId,
      side: f.side,
      price: f.price as Price,
      size: f.size as Shares,
      fee: f.feeMicros as Micros,
      notional: f.notional as Micros,
      ...(f.liquidity !== '' ? { liquidity: f.liquidity } : {}),
    })),
    equity: r.equity.map((e) => ({ timeMs: e.t, equity: e.equity as Micros })),
    inventory,
    mids: Object.keys(r.mids)
      .sort()
      .flatMap((tokenId) => {
        const s = r.mids[tokenId] as MidSeries;
        return s.t.map((timeMs, i) => ({ timeMs, tokenId, mid: s.mid[i] as Price }));
      }),
    uptime: r.equity.map((e) => ({ timeMs: e.t, quoted: e.openOrders > 0 ? 1 : 0, tokens: 1 })),
    orders: { placed: r.orders.length, placedSize: placedSize as Shares, filled, filledSize: filledSize as Shares },
    // A result written before resolutions were recorded has none.
    resolutions: (r.resolutions ?? []).map((x) => ({
      timeMs: x.timeMs,
      conditionId: x.conditionId,
      winnerTokenId: x.winnerTokenId,
      payouts: x.tokens.map((t) => ({ tokenId: t, payout: (t === x.winnerTokenId ? ONE : 0) as Price })),
    })),
    ...(opts.settings !== undefined ? { settings: opts.settings } : {}),
  };
}

/**
 * Each token's position per cycle, as runs: a sample where the token's position differs from its
 * previous cycle's (or at the first cycle), counting the equal cycles after it. Samples are in
 * cycle order, tokens in `tokens` order within a cycle. A cycle whose inventory list is the
 * previous one's own array (the sampler reuses it while the ledger is unchanged) extends every run.
 */
function inventoryRuns(equity: BacktestResult['equity'], tokens: readonly string[]): InventorySample[] {
  const out: InventorySample[] = [];
  const runs: Array<{ timeMs: number; tokenId: string; shares: Shares; samples: number }> = [];
  let previous: BacktestResult['equity'][number]['inventory'] | null = null;
  for (const e of equity) {
    if (e.inventory === previous) {
      for (const run of runs) run.samples++;
      continue;
    }
    previous = e.inventory;
    const held = new Map(e.inventory);
    tokens.forEach((tokenId, i) => {
      const shares = (held.get(tokenId) ?? 0) as Shares;
      const run = runs[i];
      if (run !== undefined && run.shares === shares) {
        run.samples++;
        return;
      }
      const next = { timeMs: e.t, tokenId, shares, samples: 1 };
      runs[i] = next;
      out.push(next);
    });
  }
  return out;
}

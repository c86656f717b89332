// Parity of the backtester with the daemon (issue 7's done-when): the daemon (the compiled CLI, live
// mode, sandbox-equivalent: the simulator in this process with seed 7 and synthetic flow) runs a
// bounded session (10 fills or 45 s, then SIGTERM) with `record.enabled`, which records the polled
// books AND the markets' public trades (GET /trades, taker rows); runBacktest then replays that
// recording with the same config (no latency) under `queue` (the reference), `cross` and
// `queue-probabilistic`, and each result is compared with the daemon's ledger, all marked to the
// same marks (the recording's last book mids).
//
// The daemon's recorder takes its own live quotes out of the recorded books (recorder.ts), so the
// backtest's orders join the book the others made rather than queueing behind their own twins.
//
// What holds, and is asserted (TOL):
// - the recording holds trades, and quote parity: the backtest's first cycle places exactly the
//   orders (token, side, price, size) the daemon's first cycle placed, and over the session the
//   `queue` backtest places between TOL.ordersMin and TOL.ordersMax times as many orders;
// - `queue-probabilistic` (a size decrease at our level is a trade ahead of us with p = 0.5) is the
//   closest model: its fill count within TOL.probFills × the ledger's, its PnL within
//   TOL.probPnlFractionOfNotional × the ledger's filled notional of the ledger's PnL;
// - the fill count is bracketed: queue fills ≤ ledger fills ≤ cross fills, with
//   queue fills ≥ TOL.queueFillsMin × ledger fills (and ≥ 1) and cross fills ≤ TOL.crossFillsMax ×
//   ledger fills: `cross` lets every recorded trade at or through our price fill us (no queue:
//   optimistic), `queue` puts the whole recorded size at our price ahead of us (conservative),
//   and the live session falls between;
// - PnL: |queue PnL − ledger PnL| ≤ TOL.pnlFractionOfNotional × the ledger's filled notional.
// - One PnL, exactly (no tolerance): each backtest's report (report.json's pnl, computed from the
//   report input's fills and resolutions through src/core/pnl.ts) equals that backtest's own
//   ledger PnL to the millionth, realized, unrealized, fees and total; and the live session
//   reported from its ledger's records (report/from-ledger.ts), at the same marks, equals the live
//   ledger's markToMarket to the millionth.
//
// Measured with this test's setup, seed 7, three runs (ledger fills / PnL, then per model fills /
// PnL, in collateral; the session runs on wall time, so a seed varies a little from run to run):
//   ledger 10 / 0.287 · queue-prob. 10 / 0.363 · queue 6 / 0.040 · cross 32 / 1.626
//   ledger 10 / 0.287 · queue-prob.  8 / 0.363 · queue 4 / 0.040 · cross 31 / 1.678
//   ledger 10 / 0.287 · queue-prob.  9 / 0.313 · queue 5 / −0.010 · cross 32 / 1.626
// so queue-probabilistic/ledger fills 0.8–1.0 and its PnL gap 0.06–0.18 % of the ledger's filled
// notional (43.70); queue/ledger fills 0.4–0.6, cross/ledger 3.1–3.2. (Before own quotes were
// taken out of the recording: queue-prob. 4–8 fills, queue 3–4.) The bounds leave room around
// that. Why `queue` stays under the ledger: the simulator's liquidity providers cancel and re-post
// at the same price within a poll, which puts them behind our live order; a recording nets that
// to nothing, so their size stays ahead of us in the model. Why `cross` is far above: every taker
// print at our price fills us in full, also those the live queue gave to orders ahead of ours.
// Trades also reach the backtest a tape round late (receive time), after books that may already
// show their effect.
// Re-measured on 2026-11-25 (issue #15), eight sessions: ledger 10 fills each; queue-prob. 3, 4,
// 4, 5, 8, 8, 8, 8; queue 2–7; cross 29–33. The session varies with the machine's timing, not the
// backtest: the backtest engine before #15 gives exactly the same fill counts as the synchronous
// replay on the same three recordings (queue/queue-prob./cross 3/4/30, 6/8/33, 3/5/31). So the
// queue-probabilistic lower bound is 0.3 of the ledger's fills (it was 0.5, which a third of
// today's sessions miss with either engine).
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { reportInputFromBacktest } from '../../src/backtest/report/from-backtest.js';
import { reportFillsFromLedger, reportResolutionsFromLedger } from '../../src/backtest/report/from-ledger.js';
import type { ReportInput } from '../../src/backtest/report/input.js';
import { computeReport } from '../../src/backtest/report/metrics.js';
import type { BacktestResult } from '../../src/backtest/types.js';
import { loadConfigFile } from '../../src/config/load.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { assertBuilt } from './harness.js';
import { runParitySession, type ParitySession, type PlacedQuote } from './parity-session.js';

const TOL = {
  probFills: [0.3, 1.5],
  probPnlFractionOfNotional: 0.02,
  ordersMin: 0.6,
  // Measured after post-only quotes by default and trades-first fills (this stop's changes): the
  // backtest placed 114/96 = 1.19, 1.20 and 106/86 = 1.23 times the live orders in three runs;
  // 1.35 leaves room around that.
  ordersMax: 1.35,
  queueFillsMin: 0.2,
  crossFillsMax: 10,
  pnlFractionOfNotional: 0.03,
} as const;

const key = (q: PlacedQuote): string => `${q.tokenId}|${q.side}|${q.price}|${q.size}`;

function firstCycle(orders: readonly PlacedQuote[]): string[] {
  const t0 = Math.min(...orders.map((o) => o.createdAtMs));
  return orders
    .filter((o) => o.createdAtMs === t0)
    .map(key)
    .sort();
}

/** A backtest's report PnL and its ledger's, side by side in millionths. */
function reportAndLedgerPnl(r: BacktestResult): { report: object; ledger: object } {
  const p = computeReport(reportInputFromBacktest(r)).pnl;
  return {
    report: { total: p.totalMicros, realized: p.realizedMicros, unrealized: p.unrealizedMicros, fees: p.feesMicros },
    ledger: { total: r.pnl.total, realized: r.pnl.realized, unrealized: r.pnl.unrealized, fees: r.pnl.fees },
  };
}

// One session (it runs on wall time, ~45 s) and its backtests, shared by the tests below.
let s: ParitySession;
const runs = new Map<string, BacktestResult>();

beforeAll(async () => {
  assertBuilt();
  s = await runParitySession({ seed: 7, targetFills: 10, maxMs: 45_000, fillModel: 'queue' });
  runs.set('queue', s.result);
  for (const fillModel of ['cross', 'queue-probabilistic'] as const) {
    runs.set(
      fillModel,
      await runBacktest({ recording: s.recording, config: loadConfigFile(s.configPath), fillModel, seed: 7 }),
    );
  }
}, 240_000);

afterAll(() => {
  if (s !== undefined) rmSync(dirname(s.recording), { recursive: true, force: true });
});

describe('backtest parity with the daemon on a recorded sandbox session', () => {
  it("replays the recording (books and trades) into the same quotes; queue-probabilistic fills and PnL near the ledger's; queue ≤ ledger ≤ cross", () => {
    const others: Record<string, { fills: number; total: number; notional: number }> = {};
    for (const fillModel of ['cross', 'queue-probabilistic'] as const) {
      const r = runs.get(fillModel) as BacktestResult;
      others[fillModel] = {
        fills: r.fills.length,
        total: r.pnl.total,
        notional: r.fills.reduce((a, f) => a + f.notional, 0),
      };
    }
    const cross = others['cross'] as { fills: number; total: number };
    const prob = others['queue-probabilistic'] as { fills: number; total: number };
    console.log(
      `PARITY ${JSON.stringify({
        recorded: s.recorded,
        ledger: s.ledger,
        queue: s.backtest,
        others,
        orders: { live: s.liveOrders.length, backtest: s.backtestOrders.length },
        cycles: { live: s.cycles, backtest: s.result.cycles },
      })}`,
    );
    expect(s.exitCode).toBe(0);
    expect(s.recorded.trades).toBeGreaterThan(0);
    expect(s.ledger.fills).toBeGreaterThan(0);
    expect(s.result.cycles).toBeGreaterThan(10);

    expect(firstCycle(s.backtestOrders)).toEqual(firstCycle(s.liveOrders));
    const ratio = s.backtestOrders.length / s.liveOrders.length;
    expect(ratio).toBeGreaterThanOrEqual(TOL.ordersMin);
    expect(ratio).toBeLessThanOrEqual(TOL.ordersMax);

    expect(prob.fills).toBeGreaterThanOrEqual(Math.floor(TOL.probFills[0] * s.ledger.fills));
    expect(prob.fills).toBeLessThanOrEqual(Math.ceil(TOL.probFills[1] * s.ledger.fills));
    expect(Math.abs(prob.total - s.ledger.total)).toBeLessThanOrEqual(
      TOL.probPnlFractionOfNotional * s.ledger.notional,
    );

    expect(s.backtest.fills).toBeGreaterThanOrEqual(Math.max(1, Math.floor(TOL.queueFillsMin * s.ledger.fills)));
    expect(s.backtest.fills).toBeLessThanOrEqual(s.ledger.fills);
    expect(cross.fills).toBeGreaterThanOrEqual(s.ledger.fills);
    expect(cross.fills).toBeLessThanOrEqual(TOL.crossFillsMax * s.ledger.fills);
    expect(Math.abs(s.backtest.total - s.ledger.total)).toBeLessThanOrEqual(
      TOL.pnlFractionOfNotional * s.ledger.notional,
    );
  });

  it("one PnL: each backtest's report equals its ledger to the millionth", () => {
    for (const [model, r] of runs) {
      expect(r.fills.length, `${model}: a run with fills`).toBeGreaterThan(0);
      const { report, ledger } = reportAndLedgerPnl(r);
      expect(report, model).toEqual(ledger);
    }
  });

  it("one PnL: the live session reported from its ledger's records equals the ledger to the millionth", () => {
    const rec = s.ledgerRecords;
    expect(rec.reversals).toBe(0); // the report carries no reversals; the simulator failed no trade here
    expect(rec.fills.length).toBe(s.ledger.fills);
    const endMs = Math.max(...rec.fills.map((f) => f.recordedAtMs)) + 1;
    const input: ReportInput = {
      startMs: 0,
      endMs,
      capital: 0 as Micros,
      markets: [...new Set(rec.fills.map((f) => f.tokenId))].map((tokenId) => ({
        tokenId,
        name: tokenId,
        tickSize: 10_000 as Price,
      })),
      fills: reportFillsFromLedger(rec.fills),
      mids: [...s.marks].map(([tokenId, mid]) => ({ timeMs: endMs, tokenId, mid })),
      equity: [],
      inventory: [],
      uptime: [],
      orders: { placed: 0, placedSize: 0 as Shares, filled: 0, filledSize: 0 as Shares },
      resolutions: reportResolutionsFromLedger(rec.resolutions, rec.fills),
    };
    expect(computeReport(input).pnl).toEqual({
      totalMicros: s.ledger.total,
      realizedMicros: s.ledger.realized,
      unrealizedMicros: s.ledger.unrealized,
      feesMicros: s.ledger.fees,
      unmarkedTokens: [...rec.unmarked].sort(),
    });
  });
});

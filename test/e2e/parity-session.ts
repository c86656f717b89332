// Parity-session helper: one seeded sandbox session of the daemon (the compiled CLI, live mode,
// against the in-process simulator with synthetic flow) recording its polls, then the ledger's and
// a backtest's outcomes of it, both marked to the same marks (the recording's last book mids), and
// the ledger's own records (fills, resolutions) to report the session from its ledger. The
// recording holds the session's public trades (TRADE records, polled from the simulator's
// GET /trades) besides its books. Owns nothing but the measurement; test/e2e/parity.test.ts states
// and asserts the tolerance.
import { join } from 'node:path';
import { SystemClock } from '../../src/core/clock.js';
import type { Price } from '../../src/core/money.js';
import { loadConfigFile } from '../../src/config/load.js';
import { runBacktest } from '../../src/backtest/index.js';
import type { BacktestFillModel, BacktestResult } from '../../src/backtest/types.js';
import { Ledger } from '../../src/ledger/index.js';
import type { LedgerFill, MarketResolution } from '../../src/ledger/types.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { DaemonProcess, startSim, tempDir, writeConfig, type LogLine } from './harness.js';
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface Outcome {
  readonly fills: number;
  /** Filled shares, millionths (sum of fill sizes). */
  readonly volume: number;
  /** Filled notional, collateral millionths (sum of fill notionals). */
  readonly notional: number;
  readonly realized: number;
  readonly unrealized: number;
  readonly fees: number;
  readonly total: number;
}

/** The live ledger's own records, for reporting the session from its ledger (report/from-ledger.ts). */
export interface LedgerRecords {
  readonly fills: readonly LedgerFill[];
  readonly resolutions: readonly MarketResolution[];
  /** Reversals of failed trades (the report carries none). */
  readonly reversals: number;
  /** Held tokens without a mark, as markToMarket listed them. */
  readonly unmarked: readonly string[];
}

/** One order as placed: what the strategy quoted, comparable across the two runs. */
export interface PlacedQuote {
  readonly tokenId: string;
  readonly side: string;
  readonly price: number;
  readonly size: number;
  readonly createdAtMs: number;
}

export interface ParitySession {
  /** Every order the live daemon placed (from its ledger file) and every order the backtest placed. */
  readonly liveOrders: readonly PlacedQuote[];
  readonly backtestOrders: readonly PlacedQuote[];
  readonly ledger: Outcome;
  readonly ledgerRecords: LedgerRecords;
  /** The marks both outcomes use: each token's last mid in the backtest. */
  readonly marks: ReadonlyMap<string, Price>;
  readonly backtest: Outcome;
  readonly result: BacktestResult;
  readonly exitCode: number | null;
  readonly cycles: number;
  readonly recording: string;
  readonly configPath: string;
  /** TRADE and book records in the recording. */
  readonly recorded: { readonly trades: number; readonly bookUpdates: number };
}

export interface SessionOptions {
  readonly seed: number;
  /** Stop after this many ledger fills were logged, or after maxMs, whichever first. */
  readonly targetFills: number;
  readonly maxMs: number;
  readonly fillModel: BacktestFillModel;
}

export async function runParitySession(o: SessionOptions): Promise<ParitySession> {
  const sim = await startSim(o.seed);
  let d: DaemonProcess | null = null;
  try {
    const dir = tempDir();
    const cfgPath = writeConfig(dir, sim);
    const raw = JSON.parse(readFileSync(cfgPath, 'utf8')) as Record<string, unknown>;
    const recording = join(dir, 'session.omr');
    writeFileSync(cfgPath, JSON.stringify({ ...raw, record: { enabled: true, path: recording } }));
    d = new DaemonProcess(cfgPath, sim);
    const proc = d;
    await proc.waitFor((l) => l.msg === 'startup reconciliation done', 'startup reconciliation');
    const isFill = (l: LogLine): boolean => l.msg === 'fill';
    await proc
      .waitFor(() => proc.lines.filter(isFill).length >= o.targetFills, `${o.targetFills} fills`, o.maxMs)
      .catch((err: unknown) => {
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw err;
      });
    proc.child.kill('SIGTERM');
    const exit = await proc.exited;
    const cycles = proc.lines.filter((l) => l.msg === 'cycle').length;

    const recorded = { trades: 0, bookUpdates: 0 };
    for await (const e of RecordingReader.fromFile(recording)) {
      if (e.kind === 'trade') recorded.trades++;
      else if (e.kind === 'book' || e.kind === 'delta') recorded.bookUpdates++;
    }
    const config = loadConfigFile(cfgPath);
    const result = await runBacktest({ recording, config, fillModel: o.fillModel, seed: o.seed });
    const marks = new Map<string, Price>();
    for (const [t, series] of Object.entries(result.mids)) {
      const last = series.mid.at(-1);
      if (last !== undefined) marks.set(t, last as Price);
    }
    const ledgerDb = Ledger.open(join(dir, 'ledger.sqlite'), { clock: new SystemClock() });
    let ledger: Outcome;
    let ledgerRecords: LedgerRecords;
    try {
      const fills = ledgerDb.fills(0, 100_000);
      const mtm = ledgerDb.markToMarket(marks);
      ledger = {
        fills: fills.length,
        volume: fills.reduce((s, f) => s + f.size, 0),
        notional: fills.reduce((s, f) => s + f.notional, 0),
        realized: mtm.realized,
        unrealized: mtm.unrealized,
        fees: mtm.fees,
        total: mtm.total,
      };
      ledgerRecords = {
        fills,
        resolutions: ledgerDb.resolutions(),
        reversals: ledgerDb.fillReversals(0, 100_000).length,
        unmarked: mtm.unmarked,
      };
    } finally {
      ledgerDb.close();
    }
    const db = new Database(join(dir, 'ledger.sqlite'), { readonly: true });
    let liveOrders: PlacedQuote[];
    try {
      liveOrders = db
        .prepare(
          'SELECT token_id AS tokenId, side, price, size, created_at_ms AS createdAtMs FROM orders ORDER BY created_at_ms, id',
        )
        .all() as PlacedQuote[];
    } finally {
      db.close();
    }
    const backtestOrders = result.orders.map((x) => ({
      tokenId: x.tokenId,
      side: x.side,
      price: x.price,
      size: x.size,
      createdAtMs: x.createdAtMs,
    }));
    const backtest: Outcome = {
      fills: result.fills.length,
      volume: result.fills.reduce((s, f) => s + f.size, 0),
      notional: result.fills.reduce((s, f) => s + f.notional, 0),
      realized: result.pnl.realized,
      unrealized: result.pnl.unrealized,
      fees: result.pnl.fees,
      total: result.pnl.total,
    };
    return {
      liveOrders,
      backtestOrders,
      ledger,
      ledgerRecords,
      marks,
      backtest,
      result,
      exitCode: exit.code,
      cycles,
      recording,
      configPath: cfgPath,
      recorded,
    };
  } finally {
    if (d !== null && d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
    await sim.close();
  }
}

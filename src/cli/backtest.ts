// `oddsmaker backtest --config C --recording R --out DIR` and `oddsmaker backtest sweep ...`.
// backtest: replays the recording through runBacktest on a thread of its own (src/backtest/thread:
// the young generation a replay wants), writes DIR/report.json and DIR/report.html there
// (src/backtest/report: markets labelled from the recording's sidecar, the run's settings) and
// prints one summary line; a recording whose sidecar says depth L1 runs with a warning on stderr
// that fills are approximate. sweep: runs every combination of a grid of strategy params (dotted
// keys reach nested params; src/backtest/sweep) in worker threads and writes the sorted rows as
// JSON and as an HTML table beside it (rows.json → rows.html), with a text table on stdout. The
// default fill model is the realistic `queue-probabilistic` (DEFAULT_FILL_MODEL). Invariants kept:
// - deterministic: the outputs are functions of (config, recording, fill model, latency, seed);
//   nothing from the wall clock reaches them, so equal inputs give byte-identical files;
// - exit codes: a bad flag, config or grid is a usage error (exit 2) naming the path or key and
//   the value; a recording that does not exist is a usage error too (exit 2: a wrong argument,
//   caught before any work); a recording that exists but cannot be replayed fails with exit 1;
// - progress bars go to stderr and only on a TTY (ProgressBar is a no-op otherwise); stdout holds
//   only the summary line (backtest) or the table (sweep).
// `backtest` has two subcommands, `run` (the default, so `oddsmaker backtest --config ...` runs it)
// and `sweep`: commander would otherwise let `backtest`'s own options swallow sweep's.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import {
  type BacktestCadence,
  type BacktestFillModel,
  type BacktestProgress,
  type LatencySpec,
} from '../backtest/index.js';
import { ProgressBar, type Report } from '../backtest/report/index.js';
import type { ReportSettings } from '../backtest/report/input.js';
import {
  formatTable,
  GridError,
  parseGridShape,
  renderSweepHtml,
  runSweepPool,
  SORT_METRICS,
  sortRows,
  validateGrid,
  type Combination,
  type SortMetric,
  type SweepRow,
  type SweepSetup,
} from '../backtest/sweep/index.js';
import { runBacktestOnThread } from '../backtest/thread/run-thread.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { formatMicros } from '../core/money.js';
import { readSidecar } from '../marketdata/recording/importers/sidecar.js';
import { UsageError } from './exit-codes.js';

const FILL_MODELS: readonly BacktestFillModel[] = ['cross', 'queue', 'queue-probabilistic'];
/** The realistic model by default: resting orders wait their turn behind the recorded queue. */
export const DEFAULT_FILL_MODEL: BacktestFillModel = 'queue-probabilistic';
const CADENCES: readonly BacktestCadence[] = ['poll', 'update'];
/** The smallest --max-heap-mb: below it a thread cannot load the code and a small recording. */
const MIN_HEAP_MB = 256;

export interface BacktestCommonOptions {
  config: string;
  recording: string;
  fillModel?: string;
  latencyMs?: string;
  seed?: string;
  cadence?: string;
  maxHeapMb?: string;
}

export interface BacktestCliOptions extends BacktestCommonOptions {
  out: string;
  /** Write the run's ledger to this new SQLite file. */
  ledger?: string;
}

export interface SweepCliOptions extends BacktestCommonOptions {
  grid: string;
  out: string;
  sort?: string;
  workers?: string;
}

interface Common {
  fillModel: BacktestFillModel;
  cadence: BacktestCadence;
  latency?: LatencySpec;
  seed: number;
  /** The run's thread's heap limit, MB (absent: Node's). */
  maxHeapMb?: number;
}

function intFlag(flag: string, raw: string, min: number): number {
  const n = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${flag} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

function parseCommon(o: BacktestCommonOptions): Common {
  const fillModel = (o.fillModel ?? DEFAULT_FILL_MODEL) as BacktestFillModel;
  if (!FILL_MODELS.includes(fillModel))
    throw new UsageError(`--fill-model must be one of ${FILL_MODELS.join(', ')}, got ${JSON.stringify(o.fillModel)}`);
  const seed = intFlag('--seed', o.seed ?? '1', 0);
  if (seed > 0xffff_ffff) throw new UsageError(`--seed must be at most ${0xffff_ffff}, got ${JSON.stringify(o.seed)}`);
  const latencyMs = o.latencyMs === undefined ? undefined : intFlag('--latency-ms', o.latencyMs, 0);
  const cadence = (o.cadence ?? 'poll') as BacktestCadence;
  if (!CADENCES.includes(cadence))
    throw new UsageError(`--cadence must be one of ${CADENCES.join(', ')}, got ${JSON.stringify(o.cadence)}`);
  const maxHeapMb = o.maxHeapMb === undefined ? undefined : intFlag('--max-heap-mb', o.maxHeapMb, MIN_HEAP_MB);
  return {
    fillModel,
    cadence,
    seed,
    ...(latencyMs !== undefined && latencyMs > 0 ? { latency: { placeMs: latencyMs, cancelMs: latencyMs } } : {}),
    ...(maxHeapMb !== undefined ? { maxHeapMb } : {}),
  };
}

/** What a run and a sweep's combinations share: the recording, the config and the common flags. */
function replaySetup(recording: string, config: Readonly<Config>, common: Common): SweepSetup {
  return {
    recording,
    config,
    fillModel: common.fillModel,
    seed: common.seed,
    cadence: common.cadence,
    ...(common.latency !== undefined ? { latency: common.latency } : {}),
  };
}

function latencyText(l: LatencySpec | undefined): string {
  if (l === undefined) return '0 ms';
  if ('placeMs' in l)
    return l.placeMs === l.cancelMs ? `${l.placeMs} ms` : `place ${l.placeMs} ms, cancel ${l.cancelMs} ms`;
  return `uniform: place ${l.place.minMs}–${l.place.maxMs} ms, cancel ${l.cancel.minMs}–${l.cancel.maxMs} ms`;
}

function checkRecording(path: string): void {
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new UsageError(`--recording ${JSON.stringify(path)}: no such file`);
}

/** A rate in human units: 1234567 → "1.23M". */
function compact(x: number): string {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)}k`;
  return String(Math.round(x));
}

/** Seconds as "42 s" or "3 min 5 s". */
function duration(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * The backtest's progress on the bar: the share of the file read, events per second and the time
 * left at that pace (wall time, measured here at the edge; the replay itself runs on its virtual clock).
 */
export function progressDetail(p: BacktestProgress, elapsedSec: number): string {
  const rate = elapsedSec > 0 ? p.records / elapsedSec : 0;
  const frac = p.bytesTotal > 0 ? p.bytesRead / p.bytesTotal : 0;
  const left = frac > 0 ? (elapsedSec * (1 - frac)) / frac : null;
  return `${compact(rate)} events/s, ${left === null ? '-' : duration(left)} left`;
}

const fmtRatio = (x: number | null): string => (x === null ? '-' : x.toFixed(4));

export function summaryLine(r: Report, dir: string): string {
  return (
    `backtest: pnl ${formatMicros(r.pnl.totalMicros)} (realized ${formatMicros(r.pnl.realizedMicros)}, fees ${formatMicros(r.pnl.feesMicros)}), ` +
    `${r.fills.count} fills, volume ${formatMicros(r.volume.notionalMicros)}, max drawdown ${formatMicros(r.drawdown.maxMicros)}, ` +
    `sharpe/day ${fmtRatio(r.sharpe.perDay)}, fill ratio ${fmtRatio(r.fillRatio.ratio)}; report in ${dir}`
  );
}

export interface BacktestIo {
  stdout: (line: string) => void;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

const processIo = (): BacktestIo => ({
  stdout: (l) => {
    process.stdout.write(`${l}\n`);
  },
  stderr: process.stderr,
});

/** `workerUrl`: the compiled run-worker.js (default: beside the thread module; tests of the sources name dist's). */
export async function runBacktestCommand(
  o: BacktestCliOptions,
  io: BacktestIo = processIo(),
  workerUrl?: URL,
): Promise<Report> {
  if (o.out === '') throw new UsageError('--out must name a directory');
  const common = parseCommon(o);
  // Loaded here for its errors (exit 2, before any work); the thread loads the strategy again.
  const { config } = await loadConfig(o.config);
  checkRecording(o.recording);
  if (o.ledger !== undefined && (o.ledger === '' || existsSync(o.ledger)))
    throw new UsageError(
      `--ledger ${JSON.stringify(o.ledger)}: name a new file (the ledger is written once, never over another)`,
    );
  const sidecar = readSidecar(o.recording);
  const settings: ReportSettings = {
    config: o.config,
    recording: o.recording,
    strategy: config.strategy.name,
    params: config.strategy.params,
    fillModel: common.fillModel,
    latency: latencyText(common.latency),
    cadence: common.cadence,
    pollIntervalMs: config.poll.intervalMs,
    seed: common.seed,
    depth: sidecar?.depth ?? 'full',
  };
  const bar = new ProgressBar(io.stderr, { label: 'backtest' });
  const t0 = performance.now();
  let last: BacktestProgress | null = null;
  // On a thread of its own, for the young generation a replay wants (thread/young-generation.ts).
  const report = await runBacktestOnThread(
    {
      ...replaySetup(o.recording, config, common),
      ...(o.ledger !== undefined ? { ledgerPath: o.ledger } : {}),
      out: o.out,
      settings,
      ...(sidecar !== null ? { labels: sidecar.labels } : {}),
    },
    {
      onProgress: (p) => {
        last = p;
        bar.update(p.bytesRead, p.bytesTotal, progressDetail(p, (performance.now() - t0) / 1000));
      },
      ...(workerUrl !== undefined ? { workerUrl } : {}),
      ...(common.maxHeapMb !== undefined ? { maxHeapMb: common.maxHeapMb } : {}),
    },
  );
  const done = last as BacktestProgress | null;
  if (done !== null)
    bar.finish(done.bytesTotal, done.bytesTotal, progressDetail(done, (performance.now() - t0) / 1000));
  if (sidecar?.depth === 'L1') {
    io.stderr.write(
      `backtest: warning: the recording's depth is L1 (top of book only, synthetic sizes): fills (--fill-model ${common.fillModel}) are approximate, queue position is not known\n`,
    );
  }
  io.stdout(summaryLine(report, o.out));
  return report;
}

function readGrid(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--grid ${JSON.stringify(path)}: cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UsageError(`--grid ${JSON.stringify(path)}: not valid JSON: ${(err as Error).message}`);
  }
}

/** The sweep's HTML table beside its JSON: rows.json → rows.html (other names: + ".html"). */
export function sweepHtmlPath(out: string): string {
  return out.endsWith('.json') ? `${out.slice(0, -'.json'.length)}.html` : `${out}.html`;
}

export async function runSweepCommand(o: SweepCliOptions, io: BacktestIo = processIo()): Promise<SweepRow[]> {
  if (o.out === '') throw new UsageError('--out must name a file');
  const common = parseCommon(o);
  const sort = (o.sort ?? 'pnl') as SortMetric;
  if (!SORT_METRICS.includes(sort))
    throw new UsageError(`--sort must be one of ${SORT_METRICS.join(', ')}, got ${JSON.stringify(o.sort)}`);
  const workers =
    o.workers === undefined ? Math.max(1, availableParallelism() - 1) : intFlag('--workers', o.workers, 1);
  const { config, strategy } = await loadConfig(o.config);
  checkRecording(o.recording);
  let combos: Combination[];
  let keys: readonly string[];
  try {
    const grid = parseGridShape(readGrid(o.grid), o.grid);
    keys = grid.keys;
    combos = validateGrid(grid, strategy, config.strategy.params, o.grid);
  } catch (err) {
    if (err instanceof GridError) throw new UsageError(err.message);
    throw err;
  }
  const bar = new ProgressBar(io.stderr, { label: 'sweep' });
  const rows = await runSweepPool({
    setup: replaySetup(o.recording, config, common),
    combinations: combos,
    workers,
    ...(common.maxHeapMb !== undefined ? { maxHeapMb: common.maxHeapMb } : {}),
    onProgress: (done, total) => {
      bar.update(done, total);
    },
  });
  bar.finish(rows.length, rows.length);
  const sorted = sortRows(rows, sort);
  await mkdir(dirname(o.out), { recursive: true });
  const doc = {
    version: 1,
    sort,
    fillModel: common.fillModel,
    cadence: common.cadence,
    seed: common.seed,
    latencyMs: o.latencyMs === undefined ? 0 : Number(o.latencyMs),
    strategy: config.strategy.name,
    keys,
    rows: sorted,
  };
  await writeFile(o.out, `${JSON.stringify(doc, null, 2)}\n`);
  await writeFile(sweepHtmlPath(o.out), renderSweepHtml({ ...doc, config: o.config, recording: o.recording }));
  io.stdout(formatTable(sorted, keys));
  return sorted;
}

function commonOptions(c: Command): Command {
  return c
    .option('--config <file>', 'config file (JSON)', 'config/default.json')
    .requiredOption('--recording <file>', 'recording file (oddsmaker record, or an importer)')
    .option('--fill-model <model>', `fill model: ${FILL_MODELS.join(' | ')}`, DEFAULT_FILL_MODEL)
    .option('--latency-ms <ms>', 'order-entry and cancel latency, milliseconds (default 0)')
    .option('--seed <n>', 'seed of the key, salts, latency draws and queue draws', '1')
    .option(
      '--max-heap-mb <MB>',
      "heap limit of the run's thread (each sweep worker's), MB (default: Node's, about 4 GB)",
    )
    .option(
      '--cadence <when>',
      `when the strategy quotes: ${CADENCES.join(' | ')} (poll: at the config's poll interval; update: on every recorded book update)`,
      'poll',
    );
}

export function register(program: Command): void {
  const backtest = program
    .command('backtest')
    .description(
      'replay a recording through the strategy against a simulated venue (run, the default) or sweep a parameter grid',
    );
  commonOptions(backtest.command('run', { isDefault: true }))
    .description('backtest one config on a recording; writes report.json and report.html to --out')
    .requiredOption('--out <dir>', 'report directory (created)')
    .option('--ledger <file>', "write the run's ledger (orders, fills, settlements) to this new SQLite file")
    .action(async (o: BacktestCliOptions) => {
      await runBacktestCommand(o);
    });
  commonOptions(backtest.command('sweep'))
    .description(
      'run every combination of a grid of strategy params (worker threads); writes the rows sorted as JSON and an HTML table beside it',
    )
    .requiredOption(
      '--grid <file>',
      'JSON object: strategy param name (or dotted path into nested params, e.g. levels.0.margin) → array of values',
    )
    .requiredOption('--out <file>', 'rows as JSON')
    .option(
      '--sort <metric>',
      `sort by: ${SORT_METRICS.join(' | ')} (drawdown: smallest first; others: largest first)`,
      'pnl',
    )
    .option('--workers <n>', 'worker threads (default: cores − 1, at least 1)')
    .action(async (o: SweepCliOptions) => {
      await runSweepCommand(o);
    });
}

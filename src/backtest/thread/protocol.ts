// The messages between `oddsmaker backtest`'s main thread (run-thread.ts) and the worker thread
// that runs the backtest and writes its report (run-worker.ts). Plain structured-clone data: the
// validated config travels as data (the worker loads the strategy module it names again), and
// an error crosses as its code and message.
import type { Report } from '../report/index.js';
import type { ReportSettings } from '../report/input.js';
import type { SweepSetup } from '../sweep/protocol.js';
import type { BacktestProgress } from '../types.js';

/** workerData: the replay (the fields a sweep's combinations share) and where its report goes. */
export interface ThreadRunSetup extends SweepSetup {
  /** Write the run's ledger to this new SQLite file. */
  readonly ledgerPath?: string;
  /** The report's directory (created). */
  readonly out: string;
  readonly settings: ReportSettings;
  /** Question and outcome per token id (the recording's sidecar labels). */
  readonly labels?: Readonly<Record<string, { readonly question: string; readonly outcome: string }>>;
}

/** Worker → main: progress (any number), then exactly one of done or failed. */
export type ThreadRunMessage =
  | { readonly kind: 'progress'; readonly progress: BacktestProgress }
  | { readonly kind: 'done'; readonly report: Report }
  | { readonly kind: 'failed'; readonly code: string | null; readonly message: string };

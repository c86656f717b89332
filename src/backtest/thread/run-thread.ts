// Runs one backtest and writes its report on a worker thread of its own (run-worker.ts, compiled
// beside this file), so the replay gets the young generation sized for it
// (young-generation.ts); the caller's thread only hears progress and the report. Invariants kept:
// - the result is the report writeReport wrote, exactly as an in-thread run would write it (the
//   worker runs the same runBacktest and report code on the same config data);
// - a failure in the worker rejects with an OddsmakerError of the code it was thrown with
//   (ThreadRunError), so the CLI's exit code is the one an in-thread run would give; a worker that
//   dies rejects too (out of heap: BACKTEST_OUT_OF_HEAP, naming --max-heap-mb); nothing is left
//   running after the promise settles.
import { Worker } from 'node:worker_threads';
import { OddsmakerError } from '../../core/errors.js';
import type { Report } from '../report/index.js';
import type { BacktestProgress } from '../types.js';
import type { ThreadRunMessage, ThreadRunSetup } from './protocol.js';
import { backtestThreadLimits, isOutOfHeap, OUT_OF_HEAP_HINT } from './young-generation.js';

/** The worker's failure, with the code it was thrown with (BACKTEST_THREAD_FAILED: none, or the thread died). */
export class ThreadRunError extends OddsmakerError {
  constructor(code: string, message: string) {
    super(code, message, false);
  }
}

export interface ThreadRunOptions {
  readonly onProgress?: (p: BacktestProgress) => void;
  /** Default: run-worker.js beside this module. */
  readonly workerUrl?: URL;
  /** The thread's heap (old generation) limit, MB; absent: Node's. */
  readonly maxHeapMb?: number;
}

export function runBacktestOnThread(setup: ThreadRunSetup, opts: ThreadRunOptions = {}): Promise<Report> {
  const url = opts.workerUrl ?? new URL('./run-worker.js', import.meta.url);
  const worker = new Worker(url, {
    workerData: setup,
    resourceLimits: backtestThreadLimits(opts.maxHeapMb),
  });
  return new Promise<Report>((resolve, reject) => {
    let outcome: { ok: true; report: Report } | { ok: false; err: Error } | null = null;
    const settle = (o: NonNullable<typeof outcome>): void => {
      if (outcome === null) outcome = o;
    };
    worker.on('message', (m: ThreadRunMessage) => {
      if (m.kind === 'progress') {
        opts.onProgress?.(m.progress);
        return;
      }
      settle(
        m.kind === 'done'
          ? { ok: true, report: m.report }
          : { ok: false, err: new ThreadRunError(m.code ?? 'BACKTEST_THREAD_FAILED', m.message) },
      );
      // The report is written (and the ledger file, if asked) before the answer: nothing is cut short.
      void worker.terminate();
    });
    worker.on('error', (err) => {
      settle({
        ok: false,
        err: isOutOfHeap(err)
          ? new ThreadRunError('BACKTEST_OUT_OF_HEAP', OUT_OF_HEAP_HINT)
          : new ThreadRunError('BACKTEST_THREAD_FAILED', `the backtest's thread failed: ${err.message}`),
      });
    });
    // Settled once the thread is gone, so nothing of the run outlives the promise.
    worker.on('exit', (code) => {
      const o = outcome ?? {
        ok: false as const,
        err: new ThreadRunError(
          'BACKTEST_THREAD_FAILED',
          `the backtest's thread exited (code ${code}) before its report`,
        ),
      };
      if (o.ok) resolve(o.report);
      else reject(o.err);
    });
  });
}

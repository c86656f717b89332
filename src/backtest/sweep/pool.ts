// Runs a sweep's combinations on N worker threads (worker.ts, compiled next to this file: the URL
// is resolved from import.meta.url, so it is dist's worker.js when this is dist's pool.js).
// Invariants kept:
// - each worker has at most one task in flight; tasks are handed out in index order;
// - the result has one row per combination, in index order, whatever finished first;
// - the first failure (a failed combination or a dead worker) rejects the sweep and every
//   worker is terminated; on success every worker is terminated too (nothing keeps the process up).
import { Worker } from 'node:worker_threads';
import type { Combination } from './grid.js';
import type { SweepReply, SweepSetup } from './protocol.js';
import type { SweepRow } from './row.js';
import { BacktestError } from '../errors.js';
import { backtestThreadLimits, isOutOfHeap, OUT_OF_HEAP_HINT } from '../thread/young-generation.js';

export interface SweepPoolOptions {
  readonly setup: SweepSetup;
  readonly combinations: readonly Combination[];
  readonly workers: number;
  /** Called after each finished combination. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Default: worker.js beside this module. */
  readonly workerUrl?: URL;
  /** Each worker's heap (old generation) limit, MB; absent: Node's. */
  readonly maxHeapMb?: number;
}

/** A sweep combination failed or a worker died (code BACKTEST_SWEEP_FAILED). */
export class SweepError extends BacktestError {
  constructor(message: string) {
    super('BACKTEST_SWEEP_FAILED', message);
  }
}

export async function runSweepPool(opts: SweepPoolOptions): Promise<SweepRow[]> {
  const total = opts.combinations.length;
  const rows: Array<SweepRow | undefined> = new Array<SweepRow | undefined>(total);
  if (total === 0) return [];
  const url = opts.workerUrl ?? new URL('./worker.js', import.meta.url);
  const n = Math.max(1, Math.min(opts.workers, total));
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (err: Error): void => {
        if (!failed) {
          failed = true;
          reject(err);
        }
      };
      const feed = (w: Worker): void => {
        const c = opts.combinations[next];
        if (c === undefined) return;
        next++;
        w.postMessage({ index: c.index, params: c.params });
      };
      for (let i = 0; i < n; i++) {
        const w = new Worker(url, {
          workerData: opts.setup,
          // A replay's young generation (thread/young-generation.ts says why and what it measured).
          resourceLimits: backtestThreadLimits(opts.maxHeapMb),
        });
        workers.push(w);
        w.on('message', (m: SweepReply) => {
          if (failed) return;
          if (!m.ok) {
            fail(
              new SweepError(
                `combination ${JSON.stringify(opts.combinations[m.index]?.params ?? m.index)} failed: ${m.error}`,
              ),
            );
            return;
          }
          rows[m.index] = m.row;
          done++;
          opts.onProgress?.(done, total);
          if (done === total) resolve();
          else feed(w);
        });
        w.on('error', (err) => {
          fail(isOutOfHeap(err) ? new SweepError(OUT_OF_HEAP_HINT) : err);
        });
        w.on('exit', (code) => {
          if (done < total) fail(new SweepError(`a sweep worker exited (code ${code}) before the sweep finished`));
        });
        feed(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return rows.map((r, i) => {
    if (r === undefined) throw new SweepError(`combination ${i} has no row`);
    return r;
  });
}

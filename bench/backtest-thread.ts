// The backtest bench's worker thread (backtest.bench.ts starts it with the young generation a
// backtest runs with, src/backtest/thread/young-generation.ts, so the figures are the ones
// `oddsmaker backtest` and the sweep get). Each message is one job, answered with its wall time:
// `decode` reads the file with the cursor alone; `run` replays it with runBacktest.
import { parentPort } from 'node:worker_threads';
import { runBacktest } from '../src/backtest/engine.js';
import type { BacktestOptions } from '../src/backtest/types.js';
import { RecordingCursor } from '../src/marketdata/recording/cursor.js';

export type BenchJob =
  { readonly kind: 'decode'; readonly path: string } | { readonly kind: 'run'; readonly options: BacktestOptions };

export interface BenchAnswer {
  readonly sec: number;
  readonly events: number;
  readonly cycles: number;
  readonly orders: number;
  readonly fills: number;
}

const port = parentPort;
if (port === null) throw new Error('backtest-thread.ts runs only as a worker thread');

async function answer(job: BenchJob): Promise<BenchAnswer> {
  const t0 = performance.now();
  if (job.kind === 'decode') {
    let n = 0;
    const c = RecordingCursor.open(job.path);
    while (c.next()) n++;
    c.close();
    return { sec: (performance.now() - t0) / 1000, events: n, cycles: 0, orders: 0, fills: 0 };
  }
  const r = await runBacktest(job.options);
  const sec = (performance.now() - t0) / 1000;
  return { sec, events: r.events, cycles: r.cycles, orders: r.orders.length, fills: r.fills.length };
}

port.on('message', (job: BenchJob) => {
  void answer(job).then((a) => {
    port.postMessage(a);
  });
});

// The sweep's worker thread: workerData is the SweepSetup, each message a SweepTask; it answers
// every task with exactly one SweepReply (a failure is a reply, never an uncaught throw), and runs
// one task at a time (the pool sends the next only after the reply).
import { parentPort, workerData } from 'node:worker_threads';
import type { SweepReply, SweepSetup, SweepTask } from './protocol.js';
import { runCombination } from './run-one.js';
import { InvariantError } from '../../core/errors.js';

const port = parentPort;
if (port === null) throw new InvariantError('worker.ts runs only as a worker thread');
const setup = workerData as SweepSetup;

port.on('message', (task: SweepTask) => {
  runCombination(setup, task).then(
    (row) => {
      port.postMessage({ index: task.index, ok: true, row } satisfies SweepReply);
    },
    (err: unknown) => {
      port.postMessage({
        index: task.index,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies SweepReply);
    },
  );
});

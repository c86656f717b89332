// The worker thread of `oddsmaker backtest` (run-thread.ts starts it): runs the backtest of
// workerData, writes its report, and answers with progress messages and then exactly one of
// done or failed (a failure is a message, never an uncaught throw).
import { parentPort, workerData } from 'node:worker_threads';
import { InvariantError, OddsmakerError } from '../../core/errors.js';
import { strategyOfConfig } from '../../config/load.js';
import { runBacktest } from '../engine.js';
import { reportInputFromBacktest } from '../report/from-backtest.js';
import { writeReport } from '../report/index.js';
import type { ThreadRunMessage, ThreadRunSetup } from './protocol.js';

const port = parentPort;
if (port === null) throw new InvariantError('run-worker.ts runs only as a worker thread');
const setup = workerData as ThreadRunSetup;
const send = (m: ThreadRunMessage): void => {
  port.postMessage(m);
};

async function run(): Promise<void> {
  const result = await runBacktest({
    recording: setup.recording,
    config: setup.config,
    // The user's modules cannot cross to a worker: loaded again here (the main thread validated them).
    strategy: await strategyOfConfig(setup.config),
    fillModel: setup.fillModel,
    seed: setup.seed,
    ...(setup.cadence !== undefined ? { cadence: setup.cadence } : {}),
    ...(setup.latency !== undefined ? { latency: setup.latency } : {}),
    ...(setup.ledgerPath !== undefined ? { ledgerPath: setup.ledgerPath } : {}),
    onProgress: (progress) => {
      send({ kind: 'progress', progress });
    },
  });
  const input = reportInputFromBacktest(result, {
    settings: setup.settings,
    ...(setup.labels !== undefined ? { labels: setup.labels } : {}),
  });
  const report = await writeReport(setup.out, input, `oddsmaker backtest: ${result.strategy}`);
  send({ kind: 'done', report });
}

run().catch((err: unknown) => {
  send({
    kind: 'failed',
    code: err instanceof OddsmakerError ? err.code : null,
    message: err instanceof Error ? err.message : String(err),
  });
});

// Runs one sweep combination in the current thread: the config with the combination's params over
// its strategy params, replayed by runBacktest, reduced by the report's own computeReport to a row.
// The worker (worker.ts) calls only this, so a row is what `oddsmaker backtest` would report.
import { strategyOfConfig } from '../../config/load.js';
import { runBacktest } from '../engine.js';
import { reportInputFromBacktest } from '../report/from-backtest.js';
import { computeReport } from '../report/metrics.js';
import { mergeParams } from './grid.js';
import type { SweepSetup, SweepTask } from './protocol.js';
import { rowFromReport, type SweepRow } from './row.js';

export async function runCombination(setup: SweepSetup, task: SweepTask): Promise<SweepRow> {
  const config = {
    ...setup.config,
    strategy: { ...setup.config.strategy, params: mergeParams(setup.config.strategy.params, task.params) },
  };
  const result = await runBacktest({
    recording: setup.recording,
    config,
    // The user's modules cannot cross to a worker: loaded again here (import() caches them).
    strategy: await strategyOfConfig(config),
    fillModel: setup.fillModel,
    seed: setup.seed,
    recordMids: true,
    ...(setup.latency !== undefined ? { latency: setup.latency } : {}),
    ...(setup.cadence !== undefined ? { cadence: setup.cadence } : {}),
  });
  return rowFromReport(task.index, task.params, computeReport(reportInputFromBacktest(result)));
}

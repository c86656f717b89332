// The messages between the sweep's pool (pool.ts) and its worker threads (worker.ts). All plain
// structured-clone data: the parsed config travels as data, never re-read from disk by a worker,
// so every combination runs on exactly the config the main thread validated.
import type { Config } from '../../config/schema.js';
import type { BacktestCadence, BacktestFillModel, LatencySpec } from '../types.js';
import type { SweepRow } from './row.js';

/** workerData: what every combination shares. */
export interface SweepSetup {
  readonly recording: string;
  readonly config: Readonly<Config>;
  readonly fillModel: BacktestFillModel;
  readonly latency?: LatencySpec;
  readonly seed: number;
  readonly cadence?: BacktestCadence;
}

/** Main → worker: run one combination. */
export interface SweepTask {
  readonly index: number;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Worker → main: the combination's row, or why it failed. */
export type SweepReply =
  | { readonly index: number; readonly ok: true; readonly row: SweepRow }
  | { readonly index: number; readonly ok: false; readonly error: string };

// Public surface of backtest parameter sweeps: the grid (parse, validate, expand), the pool of
// worker threads, rows with their sort, text table and HTML table. The CLI (src/cli/backtest.ts) reads only this.
export {
  combinations,
  GridError,
  keyPath,
  mergeParams,
  parseGridShape,
  validateGrid,
  type Combination,
  type Grid,
} from './grid.js';
export { renderSweepHtml, type SweepDocument } from './html.js';
export { runSweepPool, SweepError, type SweepPoolOptions } from './pool.js';
export type { SweepReply, SweepSetup, SweepTask } from './protocol.js';
export { runCombination } from './run-one.js';
export { formatTable, rowFromReport, SORT_METRICS, sortRows, type SortMetric, type SweepRow } from './row.js';

// Public surface of the backtest engine (the report and the CLI read only this): runBacktest, its
// option and result types, and the pieces a caller may reuse (the queue fill model, the recorded
// market-data port, the latency wrapper). The rules are stated in engine.ts and fill-queue.ts.
export { runBacktest } from './engine.js';
export {
  QueueFillModel,
  restingFromVenue,
  type QueueModelOptions,
  type RestingOrder,
  type RestingSource,
} from './fill-queue.js';
export { latencySampler, type LatencySampler } from './latency.js';
export { bookMid, DEFAULT_RECORDED, RecordedMarketData } from './market-data.js';
export type {
  BacktestCadence,
  BacktestFill,
  BacktestFillModel,
  BacktestOptions,
  BacktestOrder,
  BacktestPnl,
  BacktestResolution,
  BacktestResult,
  BacktestSettlement,
  EquitySample,
  MidSeries,
  LatencySpec,
  BacktestProgress,
  RecordedDefaults,
} from './types.js';
export { BacktestResolutions } from './resolution.js';

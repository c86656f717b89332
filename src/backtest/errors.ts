// Errors of the backtest (docs/errors.md: a class with a stable code and a retryable flag). None is
// retryable: each one means the recording or the run's settings cannot give a backtest, and the
// same input fails the same way again. Bad options of the fill and latency models are core's
// OptionError with code BACKTEST_OPTION.
import { OddsmakerError } from '../core/errors.js';

export type BacktestErrorCode =
  | 'BACKTEST_RECORDING_INCONSISTENT' // the recording contradicts itself (a market resolved twice, for a token not its own)
  | 'BACKTEST_NOTHING_TO_REPLAY' // no book of a market with two recorded tokens
  | 'BACKTEST_NO_TICK' // the report met a fill of a token whose tick size was never recorded
  | 'BACKTEST_SWEEP_FAILED'; // a sweep combination failed, or a sweep worker died

export class BacktestError extends OddsmakerError {
  declare readonly code: BacktestErrorCode;
  constructor(code: BacktestErrorCode, message: string) {
    super(code, message, false);
  }
}

// Errors of paper mode's simulated venue (docs/ARCHITECTURE.md §8: a class with a stable code and a
// retryable flag). A rejection of one of our orders is never an error here: it is a value (the
// engine's SubmitResult, the gateway's PlacementResult). These are for a market the venue cannot
// simulate (settings it cannot hold) and for misuse of the venue's own API.
import { OddsmakerError } from '../../core/errors.js';

export type PaperErrorCode =
  | 'PAPER_MARKET_UNSUPPORTED' // settings the engine cannot hold (not two tokens, unknown tick, bad fees)
  | 'PAPER_MARKET_CONFLICT' // a market added again with other tokens
  | 'PAPER_CONFIG'; // an invalid venue option

export class PaperError extends OddsmakerError {
  declare readonly code: PaperErrorCode;
  constructor(code: PaperErrorCode, message: string) {
    super(code, message, false);
  }
}

// Process exit codes of the CLI: 0 success, 1 failure, 2 usage or config error.
// Config errors (2) are every CONFIG_* code: the schema's, an unknown strategy or a strategy
// parameter its parser refuses (both reported by config validation), missing credentials, a ledger
// of another exchange or account (CONFIG_LEDGER_IDENTITY); and a config the rate limiter rejects
// (RATE_LIMIT_CONFIG). A condition of the world at start-up is a failure, 1: the config is valid,
// the world is not (yet), and retrying may succeed: the rate limiter's Redis unreachable
// (RATE_LIMIT_BACKEND_UNREACHABLE), the ledger locked by another daemon (LEDGER_LOCKED), the ops
// port taken (OPS_LISTEN).
import { OddsmakerError } from '../core/errors.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Error codes that are configuration errors (exit 2) besides UsageError. */
export function isConfigErrorCode(code: string): boolean {
  return code.startsWith('CONFIG') || code === 'RATE_LIMIT_CONFIG' || code === 'STRATEGY_UNKNOWN';
}

/** A usage or configuration error: the CLI prints the message and exits 2. */
export class UsageError extends OddsmakerError {
  constructor(message: string) {
    super('USAGE', message, false);
  }
}

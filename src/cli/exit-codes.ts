// Process exit codes of the CLI: 0 success, 1 failure, 2 usage or config error.
// A dependency the config names that cannot be reached at start-up (the rate limiter's Redis,
// RATE_LIMIT_BACKEND_UNREACHABLE) is a failure, 1: the config is valid, the world is not (yet);
// retrying may succeed. A config the rate limiter rejects (RATE_LIMIT_CONFIG) is a config error, 2.
import { OddsmakerError } from '../core/errors.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Error codes that are configuration errors (exit 2) besides UsageError. */
export function isConfigErrorCode(code: string): boolean {
  return code.startsWith('CONFIG') || code === 'RATE_LIMIT_CONFIG';
}

/** A usage or configuration error: the CLI prints the message and exits 2. */
export class UsageError extends OddsmakerError {
  constructor(message: string) {
    super('USAGE', message, false);
  }
}

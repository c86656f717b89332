// Process exit codes of the CLI: 0 success, 1 failure, 2 usage or config error.
import { OddsmakerError } from '../core/errors.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A usage or configuration error: the CLI prints the message and exits 2. */
export class UsageError extends OddsmakerError {
  constructor(message: string) {
    super('USAGE', message, false);
  }
}

// Errors of the runtime's own life cycle (docs/errors.md). A failure to build a mode's runtime is
// the failing part's own coded error (ConfigError, RateLimitBackendError, ...); this file holds
// what belongs to no part: closing the runtime, where every part is closed even when one fails.
import { OddsmakerError } from '../core/errors.js';

/** One or more parts failed to close (each was still tried); `failures` holds their errors. */
export class RuntimeCloseError extends OddsmakerError {
  readonly failures: readonly unknown[];
  constructor(failures: readonly unknown[]) {
    super(
      'RUNTIME_CLOSE_FAILED',
      `closing the runtime: ${failures.length} part(s) failed: ${failures.map(describe).join('; ')}`,
      false,
      { cause: failures[0] },
    );
    this.failures = failures;
  }
}

function describe(err: unknown): string {
  if (err instanceof OddsmakerError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

// Error base of the project (docs/ARCHITECTURE.md §8): every error has a stable `code` and a `retryable`
// flag, so callers branch on data, never on message text. An exchange's rejection of an order is a
// value in a result, not an error; a broken invariant throws InvariantError and stops quoting.
// Every code, its class and what to do about it: docs/errors.md (test/core/error-codes.test.ts
// keeps that table and the sources in step, and refuses a bare Error/RangeError/TypeError).

export class OddsmakerError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  constructor(code: string, message: string, retryable = false, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.retryable = retryable;
  }
}

/** A value from outside (wire, file, config) failed validation; `path` names the field. */
export class ParseError extends OddsmakerError {
  readonly path: string;
  constructor(path: string, message: string) {
    super('PARSE_INVALID', `${path === '' ? '(root)' : path}: ${message}`, false);
    this.path = path;
  }
}

/** Our own code broke an invariant (an off-tick price, NaN): a bug, never retried. */
export class InvariantError extends OddsmakerError {
  constructor(message: string) {
    super('INVARIANT', message, false);
  }
}

/**
 * An option handed to a constructor or function is outside its documented range (a bad CLI or
 * config value that no schema checked, or a caller's bug). The code names the layer
 * (`SIM_OPTION`, `EXECUTION_OPTION`, ...); never retried: the same value fails again.
 */
export class OptionError extends OddsmakerError {
  constructor(code: `${string}_OPTION` | `${string}_CONFIG`, message: string) {
    super(code, message, false);
  }
}

/** The reason our code aborts work it started when it stops (a poller, a watch, a check). */
export class StoppedError extends OddsmakerError {
  constructor(message: string) {
    super('STOPPED', message, false);
  }
}

/** The reason our code aborts work whose deadline on the injected clock passed; the next try may succeed. */
export class DeadlineError extends OddsmakerError {
  constructor(message: string) {
    super('DEADLINE', message, true);
  }
}

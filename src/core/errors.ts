// Error base of the project (DESIGN.md §4.3): every error has a stable `code` and a `retryable`
// flag, so callers branch on data, never on message text. An exchange's rejection of an order is a
// value in a result, not an error; a broken invariant throws InvariantError and stops quoting.

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

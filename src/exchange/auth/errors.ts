// Errors of authentication material and request signing. Invariant: no message built here ever
// contains a secret (API secret, passphrase, private key, keystore password): messages name the
// environment variable, the header or the field, never its value, and no error carries a `cause`
// that could (a library error may quote the value it failed to parse).
import { OddsmakerError } from '../../core/errors.js';

/**
 * Credentials or keys are missing or malformed (environment, keystore). A configuration problem:
 * the code starts with CONFIG, so the CLI exits 2, and retrying cannot help.
 */
export class CredentialsError extends OddsmakerError {
  constructor(message: string) {
    super('CONFIG_CREDENTIALS', message, false);
  }
}

/** An auth header could not be built from the given inputs (bad path, bad timestamp, ...). */
export class AuthError extends OddsmakerError {
  constructor(message: string) {
    super('AUTH_INVALID_INPUT', message, false);
  }
}

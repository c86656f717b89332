// Errors of the signing machinery itself (not of an order's content, which is an InvariantError
// when our own code built it wrong, or a ParseError when it came from the wire). Messages never
// carry key material.
import { OddsmakerError } from '../../core/errors.js';

/** A signing worker died or the pool was closed with work in flight; the orders were not signed. */
export class SigningError extends OddsmakerError {
  constructor(code: 'SIGNING_WORKER_FAILED' | 'SIGNING_POOL_CLOSED', message: string) {
    // A crashed worker is replaced, so signing the same orders again can succeed.
    super(code, message, code === 'SIGNING_WORKER_FAILED');
  }
}

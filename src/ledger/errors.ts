// Errors of the ledger (docs/ARCHITECTURE.md §8): a stable `code`, never retryable, because each one means
// the caller asked for something the ledger's records contradict (an unknown order, a reused order
// id with other contents, a database written by a newer version), or the file cannot be kept as
// the ledger needs (no WAL journal). Broken arithmetic invariants
// (an oversell, a fill beyond an order's size) throw core's InvariantError instead.
import { OddsmakerError } from '../core/errors.js';

export type LedgerErrorCode =
  | 'LEDGER_UNKNOWN_ORDER'
  | 'LEDGER_DUPLICATE_ORDER'
  | 'LEDGER_BAD_TRANSITION'
  | 'LEDGER_UNKNOWN_STATUS'
  | 'LEDGER_SCHEMA_TOO_NEW'
  | 'LEDGER_MIGRATION_FAILED'
  | 'LEDGER_NO_WAL'
  | 'LEDGER_CLOSED'
  | 'LEDGER_NO_HISTORY' // a memory ledger opened without history asked to save or replay it
  | 'LEDGER_NOT_ROLLED_BACK'; // a memory ledger without history after a transaction it could not roll back

export class LedgerError extends OddsmakerError {
  declare readonly code: LedgerErrorCode;
  constructor(code: LedgerErrorCode, message: string) {
    super(code, message, false);
  }
}

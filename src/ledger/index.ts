// Public surface of the ledger: the Ledger class, its record types, the position check
// (the pure PnL math it books through lives in src/core/pnl.ts), the exchange and account it belongs to (identity) and its one-daemon lock. Callers import from here, not from the store files behind the class.
export { Ledger, type LedgerOptions } from './ledger.js';
export {
  LedgerSaveError,
  MemoryLedger,
  type MemoryLedgerOptions,
  type SaveOptions,
  type SaveSummary,
} from './memory-ledger.js';
export type { LedgerStore, LedgerStoreMethod } from './store.js';
export { LedgerError, type LedgerErrorCode } from './errors.js';
export {
  IDENTITY_FIELDS,
  type BindResult,
  type BoundIdentity,
  type IdentityField,
  type LedgerIdentity,
  type LedgerMode,
} from './identity.js';
export { LedgerLockedError, lockLedger, lockPathOf, type LedgerLock } from './lock.js';
export {
  LATEST_VERSION,
  MIGRATIONS,
  migrate,
  schemaVersion,
  type Migration,
  type MigrateResult,
} from './migrations.js';
export type { SynchronousMode } from './sqlite.js';
export * from './positions-diff.js';
export type * from './types.js';

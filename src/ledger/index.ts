// Public surface of the ledger: the Ledger class, its record types, the pure PnL math and the
// position check. Callers import from here, not from the store files behind the class.
export { Ledger, type LedgerOptions } from './ledger.js';
export { LedgerError, type LedgerErrorCode } from './errors.js';
export { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion, type Migration, type MigrateResult } from './migrations.js';
export { OPEN_ORDER_STATES, ORDER_STATES, isOpenState, type OrderState } from './order-state.js';
export type { SynchronousMode } from './sqlite.js';
export * from './pnl.js';
export * from './positions-diff.js';
export type * from './types.js';

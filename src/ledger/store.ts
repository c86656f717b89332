// The ledger interface both ledgers implement: the write-ahead SQLite `Ledger` (live, sandbox,
// paper) and the in-memory `MemoryLedger` (backtests, written to SQLite once at the end). It is
// the Ledger's own method set minus what only a database has (cycle history and compaction, order
// pruning, trade legs of the trades route, the file path and migration), so `Ledger` satisfies it
// structurally with no change, and a caller typed on it runs on either.
// Invariant: for the same calls on the same clock, both give the same results and throw the same
// error codes (test/ledger/memory-ledger.test.ts).
import type { Ledger } from './ledger.js';

export type LedgerStoreMethod =
  | 'isOpen'
  | 'close'
  | 'transaction'
  | 'identity'
  | 'bindIdentity'
  | 'recordSignedOrder'
  | 'recordSignedOrders'
  | 'markSent'
  | 'markAccepted'
  | 'markRejected'
  | 'markUnknown'
  | 'markCanceled'
  | 'markCancelling'
  | 'markCancelAnswered'
  | 'markCancelNotSent'
  | 'markMatched'
  | 'markLookup'
  | 'restsAsLookedUp'
  | 'order'
  | 'openOrders'
  | 'orderEvents'
  | 'recordFill'
  | 'recordCumulativeMatch'
  | 'fills'
  | 'fillsOfOrder'
  | 'fillReversals'
  | 'positions'
  | 'position'
  | 'markToMarket'
  | 'pnlSnapshot'
  | 'dailyPnl'
  | 'resolveMarket'
  | 'settleMarket'
  | 'resolution'
  | 'resolutions'
  | 'settlements'
  | 'recordCycle';

/** What a caller may use of a ledger whichever kind it is (the Ledger class satisfies it). */
export type LedgerStore = Pick<Ledger, LedgerStoreMethod>;

// What the replay writes and reads of a ledger: the order manager's order steps and fill records
// (executor.ts, through the same FillTracker as live), the cycle's positions, daily PnL and new
// fills (src/runtime/cycle.ts), settlements (resolution.ts) and the report's reads (engine.ts).
// Both the write-ahead SQLite Ledger and the in-memory ledger satisfy it, with the same results
// (test/ledger/memory-ledger.test.ts); a backtest runs on the in-memory one and writes SQLite once
// at the end when a ledger file is asked for.
import type { Ledger } from '../../ledger/index.js';

export type ReplayLedger = ReplayLedgerBase & {
  /** Orders whose record was written since the last call (the in-memory ledger tells; absent: not told). */
  takeOrderChanges?(): ReadonlySet<string> | 'all';
};

type ReplayLedgerBase = Pick<
  Ledger,
  | 'recordSignedOrders'
  | 'markSent'
  | 'markAccepted'
  | 'markRejected'
  | 'markUnknown'
  | 'markCancelling'
  | 'markCancelAnswered'
  | 'markLookup'
  | 'restsAsLookedUp'
  | 'transaction'
  | 'order'
  | 'positions'
  | 'dailyPnl'
  | 'fills'
  | 'markToMarket'
  | 'resolveMarket'
  | 'settlements'
>;

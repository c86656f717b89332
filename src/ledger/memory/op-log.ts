// The in-memory ledger's log of its mutating calls: each successful write as it was called, with
// the clock's time at the call. Replaying the log through any LedgerStore (a fresh SQLite Ledger
// on a ReplayClock, or the memory ledger itself after a rollback) reproduces the same records, so
// the file a backtest saves equals the ledger it ran on by construction. Invariants kept:
// - only calls that succeeded are logged, in call order; a call that wrote nothing may be left out
//   (a repeated cumulative match, a fill or order already recorded): replaying it is a no-op too;
// - an entry keeps the caller's arguments; arrays and maps are copied (a caller may reuse them),
//   records (orders, fills, lookups) are kept as they are: they are read-only values;
// - defaults taken from the clock (a resolution's time) are resolved before logging, so replay
//   does not depend on anything but the entry.
import type { Price, Shares } from '../../core/money.js';
import type { LedgerIdentity } from '../identity.js';
import type { LedgerStore } from '../store.js';
import type { AcceptedPlacement, CumulativeMatchOptions, FillInput, LookupResult, SignedOrderInput } from '../types.js';

/** Kinds of logged call (small integers: the switch of applyOp stays a jump table). */
export const OP = {
  SignedOrder: 0,
  SignedOrders: 1,
  Sent: 2,
  Accepted: 3,
  Rejected: 4,
  Unknown: 5,
  Canceled: 6,
  Cancelling: 7,
  CancelAnswered: 8,
  CancelNotSent: 9,
  Matched: 10,
  Lookup: 11,
  Fill: 12,
  Cumulative: 13,
  Settle: 14,
  Snapshot: 15,
  Bind: 16,
} as const;
export type OpKind = (typeof OP)[keyof typeof OP];

/** One logged call; one shape for every kind (a, b, c, d are the call's arguments in order). */
export class Op {
  constructor(
    readonly kind: OpKind,
    readonly now: number,
    readonly a: unknown,
    readonly b: unknown,
    readonly c: unknown,
    readonly d: unknown,
  ) {}
}

/** Applies one logged call to `to` (the caller sets `to`'s clock to `op.now` first). */
export function applyOp(to: LedgerStore, op: Op): void {
  const id = op.a as string;
  switch (op.kind) {
    case OP.SignedOrder:
      to.recordSignedOrder(op.a as SignedOrderInput);
      return;
    case OP.SignedOrders:
      to.recordSignedOrders(op.a as SignedOrderInput[]);
      return;
    case OP.Sent:
      to.markSent(id);
      return;
    case OP.Accepted:
      to.markAccepted(id, op.b as AcceptedPlacement);
      return;
    case OP.Rejected:
      to.markRejected(id, op.b as string);
      return;
    case OP.Unknown:
      to.markUnknown(id, op.b as string);
      return;
    case OP.Canceled:
      to.markCanceled(id, op.b as string);
      return;
    case OP.Cancelling:
      to.markCancelling(op.a as string[], op.b as string);
      return;
    case OP.CancelAnswered:
      to.markCancelAnswered(id, op.b as string);
      return;
    case OP.CancelNotSent:
      to.markCancelNotSent(id, op.b as string);
      return;
    case OP.Matched:
      to.markMatched(id, op.b as string);
      return;
    case OP.Lookup:
      to.markLookup(id, op.b as LookupResult);
      return;
    case OP.Fill:
      to.recordFill(op.a as FillInput);
      return;
    case OP.Cumulative:
      to.recordCumulativeMatch(id, op.b as Shares, op.c as CumulativeMatchOptions);
      return;
    case OP.Settle:
      to.settleMarket(id, op.b as ReadonlyMap<string, Price>, op.c as string | null, op.d as number);
      return;
    case OP.Snapshot:
      to.pnlSnapshot(op.a as ReadonlyMap<string, Price>);
      return;
    case OP.Bind:
      to.bindIdentity(op.a as LedgerIdentity);
      return;
  }
}

// What the daemon loop needs of the order manager (src/execution/order-manager.ts, whose class
// satisfies this interface as it stands): apply a reconcile plan with the markets' settings, poll
// fills, resolve ambiguous orders, list our open orders, reconcile at startup, cancel everything
// (shutdown, kill switch), resume after a cancelAll, close. The loop is written against this
// interface so that tests can drive it with an in-memory executor and the daemon does not depend
// on how orders are signed, sent or recorded. Invariants the loop relies on: liveOrders()
// includes in-flight, cancelling and unknown orders (reconcile must never place at a key that may
// already rest); apply() sends cancels before placements; every fill found, whatever the path,
// is written to the ledger (the daemon reads new fills from there); cancelAll() halts placements
// until resume().
import type { LiveOrder } from '../core/order.js';
import type { PlacementRejection } from '../core/quote.js';
import type { CircuitState } from '../execution/circuit-breaker.js';
import type {
  ApplyReport,
  CancelAllReport,
  MarketInfo,
  MarketsByToken,
  OrphanPolicy,
  PollFillsOptions,
  PollReport,
  ResolveReport,
  StartupReport,
} from '../execution/order-manager-types.js';
import type { ReconcilePlan } from '../execution/types.js';
import type { FillReadStatus } from '../execution/order-manager.js';

export type { FillReadStatus };
export type {
  ApplyReport,
  CancelAllReport,
  CircuitState,
  MarketInfo,
  MarketsByToken,
  OrphanPolicy,
  PollFillsOptions,
  PollReport,
  ResolveReport,
  StartupReport,
};

export interface OrderExecutor {
  /** Crash recovery, run before the first quote: the ledger's open orders against the exchange. */
  startupReconcile(opts: {
    orphanPolicy: OrphanPolicy;
    markets?: MarketsByToken;
    signal?: AbortSignal;
  }): Promise<StartupReport>;
  /** Sends the plan (cancels first); `markets` gives tick, neg-risk and fees of every token. */
  apply(plan: ReconcilePlan, markets: MarketsByToken): Promise<ApplyReport>;
  /** Looks up orders for fills: final reads owed first, then live orders (those that may have filled first). */
  pollFills(opts?: PollFillsOptions): Promise<PollReport>;
  /** Looks up orders whose placement or cancel outcome was lost. */
  resolveUnknown(opts?: { all?: boolean; signal?: AbortSignal }): Promise<ResolveReport>;
  /** Our open orders (in-flight, live, cancelling, unknown). */
  liveOrders(): readonly LiveOrder[];
  /** Halts placements and cancels every open order, bounded by timeoutMs. */
  cancelAll(opts?: { timeoutMs?: number }): Promise<CancelAllReport>;
  /** Placements may go again after cancelAll. */
  resume(): void;
  /** Stops timers and waits for in-flight requests. */
  close(): Promise<void>;
  /** The order-entry circuit breaker. */
  readonly circuitState: CircuitState;
  /** Fill discovery's backlog and what holds placements back (the order manager has it; fakes may not). */
  fillReads?(): FillReadStatus;
  /** Why placements are held back now (fill backlog, cancel reserve), or null. */
  placementHold?(): 'fill-backlog' | 'cancel-reserve' | null;
  /** Placements the exchange refused in the latest plan applied. */
  rejections?(): readonly PlacementRejection[];
}

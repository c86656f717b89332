// The ledger: one SQLite database (a file for live and paper mode, ":memory:" for backtests) that
// records every signed order before it is sent and every change of its state, every fill exactly
// once, positions with average-cost PnL, market resolutions, PnL snapshots and quoting cycles.
// Invariants kept (details in the files it delegates to):
// - every public write is one transaction (IMMEDIATE, so two connections never deadlock on a lock
//   upgrade); `transaction(fn)` groups several into one commit (one fsync), and nests;
// - a write that throws leaves nothing behind: the transaction rolls back whole;
// - `openOrders()` is exactly what startup reconciliation must look up: every order in signed,
//   sent, unknown or live state, including those written but never sent;
// - fills are idempotent (dedup keys; cumulative matches record only increments), positions and
//   order matched sizes move in the same transaction as the fill;
// - trade legs (the exchange's trades of our orders, with their settlement status) share their
//   shares with the order lookups' fills without double counting, keep positions' pending shares,
//   and a FAILED leg is reversed in the position exactly once (trade-store.ts);
// - it belongs to one exchange and account, recorded by the first daemon that binds it and
//   compared by every later one (identity.ts; the runtime refuses another's);
// - the only time source is the injected Clock; all amounts are integer millionths.
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { ONE, type Micros, type Price, type Shares } from '../core/money.js';
import type { OrderState } from '../core/order-lifecycle.js';
import { CycleStore, DEFAULT_COMPACT_EVERY, DEFAULT_CYCLE_RETENTION_MS } from './cycle-store.js';
import { LedgerError } from './errors.js';
import { FillStore } from './fill-store.js';
import { bindIdentity, readIdentity, type BindResult, type BoundIdentity, type LedgerIdentity } from './identity.js';
import { migrate, type MigrateResult } from './migrations.js';
import {
  isDuplicateRejection,
  isImmediateOrderType,
  parsePlacementStatus,
  restsAs,
  stateFromLookupStatus,
} from './order-state.js';
import { OrderStore } from './order-store.js';
import { PnlReporter } from './pnl-report.js';
import { openDatabase, type SynchronousMode } from './sqlite.js';
import { TradeStore } from './trade-store.js';
import type {
  CumulativeMatchOptions,
  CycleHour,
  CycleInput,
  CycleRecord,
  DailyPnl,
  FillInput,
  FillReversal,
  LedgerFill,
  LedgerOrder,
  LedgerPosition,
  LedgerTradeLeg,
  LookupOutcome,
  LookupResult,
  MarketResolution,
  MarkToMarket,
  OrderEvent,
  AcceptedPlacement,
  PnlSnapshot,
  Settlement,
  SignedOrderInput,
  TradeLegInput,
  TradeLegOutcome,
} from './types.js';

export interface LedgerOptions {
  readonly clock: Clock;
  /**
   * FULL (default): every commit is fsynced, so a signed order written before sending survives a
   * power loss. NORMAL: survives a process crash, not a power loss; for paper mode and backtests.
   */
  readonly synchronous?: SynchronousMode;
  /** How long raw cycle rows are kept before folding into hourly rows (default 3 days). */
  readonly cycleRetentionMs?: number;
  /** Cycles recorded between two compactions (default 1000). */
  readonly cycleCompactEvery?: number;
  /** How long a write waits for another connection's lock (default 5000 ms). */
  readonly busyTimeoutMs?: number;
}

export class Ledger {
  readonly path: string;
  /** Schema migration done when this ledger was opened. */
  readonly migration: MigrateResult;
  private readonly db: Database.Database;
  private readonly clock: Clock;
  private readonly orders: OrderStore;
  private readonly fillStore: FillStore;
  private readonly trades: TradeStore;
  private readonly reporter: PnlReporter;
  private readonly cycles: CycleStore;
  private readonly runTx: Database.Transaction<(fn: () => unknown) => unknown>;

  private constructor(path: string, db: Database.Database, opts: LedgerOptions, migration: MigrateResult) {
    this.path = path;
    this.db = db;
    this.clock = opts.clock;
    this.migration = migration;
    this.orders = new OrderStore(db, this.clock);
    this.fillStore = new FillStore(db, this.clock, this.orders);
    this.trades = new TradeStore(db, this.clock, this.orders, this.fillStore);
    this.reporter = new PnlReporter(db, this.clock, this.fillStore);
    this.cycles = new CycleStore(
      db,
      this.clock,
      opts.cycleRetentionMs ?? DEFAULT_CYCLE_RETENTION_MS,
      opts.cycleCompactEvery ?? DEFAULT_COMPACT_EVERY,
    );
    this.runTx = db.transaction((fn: () => unknown) => fn());
  }

  /** Opens (creating if needed) the ledger at `path` (":memory:" for an in-memory one) and migrates it. */
  static open(path: string, opts: LedgerOptions): Ledger {
    const db = openDatabase(path, {
      synchronous: opts.synchronous ?? 'FULL',
      busyTimeoutMs: opts.busyTimeoutMs ?? 5000,
    });
    try {
      const migration = migrate(db, opts.clock.now());
      const ledger = new Ledger(path, db, opts, migration);
      ledger.cycles.compact();
      return ledger;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  /** Closes the database (checkpointing the WAL). Idempotent. */
  close(): void {
    if (!this.db.open) return;
    this.db.pragma('optimize');
    this.db.close();
  }

  /** The exchange and account this ledger belongs to, or null before a daemon bound it. */
  identity(): BoundIdentity | null {
    return readIdentity(this.db);
  }

  /** Records the exchange and account if none is recorded, else compares them (identity.ts). */
  bindIdentity(id: LedgerIdentity): BindResult {
    return bindIdentity(this.db, id, this.clock.now());
  }

  /** Runs fn in one transaction (nested calls become savepoints); rolls back if it throws. */
  transaction<T>(fn: () => T): T {
    return this.runTx.immediate(fn) as T;
  }

  // ---------------------------------------------------------------------------------------------
  // Orders

  /** Writes a signed order in state `signed`, before it is sent. False if already recorded identically. */
  recordSignedOrder(o: SignedOrderInput): boolean {
    return this.transaction(() => this.orders.insert(o));
  }

  /** Writes a batch of signed orders in one commit; returns how many were new. */
  recordSignedOrders(os: readonly SignedOrderInput[]): number {
    return this.transaction(() => os.reduce((n, o) => n + (this.orders.insert(o) ? 1 : 0), 0));
  }

  /** The order was handed to the transport. Allowed from signed and unknown (a resend). */
  markSent(id: string): OrderState {
    return this.transaction(() => {
      const row = this.orders.mustRow(id);
      if (row.state !== 'signed' && row.state !== 'unknown' && row.state !== 'sent') {
        throw new LedgerError('LEDGER_BAD_TRANSITION', `order ${id} cannot be sent from state ${row.state}`);
      }
      return this.orders.transition(row, 'sent', null, 'own');
    });
  }

  /**
   * The exchange accepted the order (placement status live, matched, delayed; `unmatched` cancels
   * it). A match on arrival is recorded as a fill (source `placement`) from the exact amounts.
   */
  markAccepted(id: string, r: AcceptedPlacement): OrderState {
    const status = parsePlacementStatus(r.status);
    if (status === null)
      throw new LedgerError(
        'LEDGER_UNKNOWN_STATUS',
        `order ${id}: unknown placement status ${JSON.stringify(r.status)}`,
      );
    return this.transaction(() => {
      const row = this.orders.mustRow(id);
      const extras = { exchangeStatus: status, makingAmount: r.makingAmount, takingAmount: r.takingAmount };
      if (status === 'matched' && r.makingAmount !== null && r.takingAmount !== null) {
        this.fillStore.recordPlacementMatch(
          row,
          r.makingAmount,
          r.takingAmount,
          r.feeMicros ?? (0 as Micros),
          r.timeMs ?? this.clock.now(),
        );
      }
      let to: OrderState;
      if (status === 'unmatched') to = 'canceled';
      else if (status === 'matched' && (row.size_matched >= row.size || isImmediateOrderType(row.order_type)))
        to = 'matched';
      else to = 'live';
      return this.orders.transition(row, to, `accepted: ${status}`, 'own', extras);
    });
  }

  /**
   * The exchange refused the order. A `Duplicated.` refusal means the order is already on the
   * exchange (a resend), so the order goes to `unknown` for a lookup instead of `rejected`.
   */
  markRejected(id: string, errorMsg: string): OrderState {
    return this.transaction(() => {
      const row = this.orders.mustRow(id);
      if (isDuplicateRejection(errorMsg)) {
        return this.orders.transition(row, 'unknown', `duplicate: ${errorMsg}`, 'own', { errorMsg });
      }
      return this.orders.transition(row, 'rejected', errorMsg, 'own', { errorMsg });
    });
  }

  /** The outcome of a send or cancel is ambiguous (timeout, 5xx): resolve by lookup. */
  markUnknown(id: string, reason = 'ambiguous outcome'): OrderState {
    return this.transaction(() => this.orders.transition(this.orders.mustRow(id), 'unknown', reason, 'own'));
  }

  /**
   * Canceled without ever resting (signed and never sent, or an ambiguous order we gave up on):
   * final at once. A live order's cancel goes through markCancelling / markCancelAnswered instead.
   */
  markCanceled(id: string, reason: string): OrderState {
    return this.transaction(() => this.orders.transition(this.orders.mustRow(id), 'canceled', reason, 'own'));
  }

  /**
   * Our cancels of these orders are about to be sent: written first (one commit), so a crash
   * before their answers still leaves each order owed a cancel. Returns the resulting states.
   */
  markCancelling(ids: readonly string[], reason: string): OrderState[] {
    return this.transaction(() =>
      ids.map((id) => this.orders.transition(this.orders.mustRow(id), 'cancelling', reason, 'own')),
    );
  }

  /**
   * The exchange answered our cancel: the order no longer rests, but what matched before the
   * cancel is still to be read (state `closing`, until a lookup makes it final).
   */
  markCancelAnswered(id: string, detail = 'cancel answered'): OrderState {
    return this.transaction(() => this.orders.transition(this.orders.mustRow(id), 'closing', detail, 'own'));
  }

  /** A cancel certainly did not reach the exchange: the order rests as before. */
  markCancelNotSent(id: string, reason: string): OrderState {
    return this.transaction(() =>
      this.orders.transition(this.orders.mustRow(id), 'live', `cancel not sent: ${reason}`, 'own'),
    );
  }

  /** The order is known to be fully done by matching (its fills are recorded separately). */
  markMatched(id: string, detail = 'matched'): OrderState {
    return this.transaction(() => this.orders.transition(this.orders.mustRow(id), 'matched', detail, 'own'));
  }

  /**
   * Applies an order lookup (GET /data/order/{id}, or NOT_FOUND for a 404): records the matched
   * increment as a fill (source `lookup`, at the order's price unless told otherwise) and moves
   * the order to the state the exchange reports, whatever the ledger thought. An answer whose
   * sizeMatched is below what the ledger knows is stale: it is logged and changes nothing.
   */
  markLookup(id: string, r: LookupResult): LookupOutcome {
    const target = stateFromLookupStatus(r.status);
    if (target === null)
      throw new LedgerError('LEDGER_UNKNOWN_STATUS', `order ${id}: unknown order status ${JSON.stringify(r.status)}`);
    return this.transaction(() => {
      const row = this.orders.mustRow(id);
      if (target !== 'not_found' && r.sizeMatched < row.size_matched) {
        // Matched sizes only grow: this answer is older than what the ledger already knows (an
        // out-of-order or cached response), so neither its size nor its status is news.
        this.orders.note(row, `stale lookup ignored: ${r.status} sizeMatched=${r.sizeMatched} < ${row.size_matched}`);
        return { state: row.state, newlyMatched: 0 as Shares };
      }
      let newlyMatched = 0 as Shares;
      if (target !== 'not_found') {
        newlyMatched = this.fillStore.recordCumulative(row, r.sizeMatched, {
          source: 'lookup',
          ...(r.price === undefined ? {} : { price: r.price }),
          ...(r.feeMicros === undefined ? {} : { feeMicros: r.feeMicros }),
          ...(r.liquidity === undefined ? {} : { liquidity: r.liquidity }),
          ...(r.timeMs === undefined ? {} : { timeMs: r.timeMs }),
        });
      }
      const before = row.state;
      const state = this.orders.transition(
        row,
        target,
        `lookup: ${r.status} sizeMatched=${r.sizeMatched}`,
        'exchange',
        { exchangeStatus: r.status },
      );
      if (state === before && newlyMatched > 0)
        this.orders.note(row, `lookup: ${r.status} sizeMatched=${r.sizeMatched}`);
      return { state, newlyMatched };
    });
  }

  /**
   * Whether the ledger holds order `id` live, with exchange status `status` and `sizeMatched`
   * matched, where `status` reads as live: then markLookup with that answer records nothing and
   * answers live with no new match (a caller that reads many unchanged orders may skip it).
   */
  restsAsLookedUp(id: string, status: string, sizeMatched: number): boolean {
    return restsAs(this.orders.get(id), status, sizeMatched);
  }

  order(id: string): LedgerOrder | null {
    return this.orders.get(id);
  }

  /** Orders in an open state (src/core/order-lifecycle.ts), oldest first: the obligations reconciliation works through. */
  openOrders(): LedgerOrder[] {
    return this.orders.open();
  }

  orderEvents(id: string): OrderEvent[] {
    return this.orders.events(id);
  }

  /** Deletes terminal orders (with their events) last changed before `beforeMs`; fills stay. */
  pruneOrders(beforeMs: number): number {
    return this.transaction(() => this.orders.prune(beforeMs));
  }

  // ---------------------------------------------------------------------------------------------
  // Fills

  /** Records a fill; false when its dedup key was already recorded (idempotent). */
  recordFill(f: FillInput): boolean {
    return this.transaction(() => this.fillStore.record(f));
  }

  /**
   * Records what an order's cumulative matched size adds over the fills already recorded for it;
   * returns the increment (0 when the observation is not new).
   */
  recordCumulativeMatch(orderId: string, sizeMatched: Shares, opts: CumulativeMatchOptions = {}): Shares {
    return this.transaction(() => this.fillStore.recordCumulative(this.orders.mustRow(orderId), sizeMatched, opts));
  }

  /** Fills in record order, after sequence number `afterSeq`. */
  fills(afterSeq = 0, limit = 10_000): LedgerFill[] {
    return this.fillStore.fills(afterSeq, limit);
  }

  fillsOfOrder(orderId: string): LedgerFill[] {
    return this.fillStore.fillsOfOrder(orderId);
  }

  // ---------------------------------------------------------------------------------------------
  // Trades (GET /data/trades) and their settlement

  /**
   * Records one of our legs of an exchange trade, or moves a known leg to the status reported:
   * shares order lookups already booked are claimed (no double count), only the rest is a new
   * fill (source 'trade'); CONFIRMED makes the shares final, FAILED reverses them in the position
   * once (the order keeps its size_matched). A leg of an order the ledger does not know writes
   * nothing (`unknown-order`). See trade-store.ts.
   */
  recordTradeLeg(leg: TradeLegInput): TradeLegOutcome {
    return this.transaction(() => this.trades.record(leg));
  }

  /** Trade legs of one order, of one trade, or all, by match time. */
  tradeLegs(filter: { orderId?: string; tradeId?: string } = {}): LedgerTradeLeg[] {
    return this.trades.legs(filter);
  }

  /** Match time of the oldest leg whose trade is not final yet, or null. */
  oldestUnsettledTradeMs(): number | null {
    return this.trades.oldestUnsettledMatchMs();
  }

  /** Match time of the latest trade leg recorded, or null. */
  latestTradeMs(): number | null {
    return this.trades.latestMatchMs();
  }

  /** Reversals of FAILED legs in record order, after sequence number `afterSeq`. */
  fillReversals(afterSeq = 0, limit = 10_000): FillReversal[] {
    return this.fillStore.reversals(afterSeq, limit);
  }

  // ---------------------------------------------------------------------------------------------
  // Positions and PnL

  /** Every token ever traded (flat ones too: their realized PnL counts), or only those held. */
  positions(opts: { openOnly?: boolean } = {}): LedgerPosition[] {
    return this.fillStore.positions(opts.openOnly ?? false);
  }

  position(tokenId: string): LedgerPosition | null {
    return this.fillStore.position(tokenId);
  }

  markToMarket(mids: ReadonlyMap<string, Price>): MarkToMarket {
    return this.reporter.markToMarket(mids);
  }

  /**
   * The market resolved: the winner pays 1 a share (SCALE µ, exact), every other token of the
   * condition 0, and every position of the condition closes (realized += payout − cost basis,
   * size 0). `timeMs` is when it resolved (default: the ledger clock). Idempotent: the same
   * resolution again returns [] and changes nothing; another winner is an InvariantError. A fill
   * of the market recorded later (learned late) is settled as it is recorded. Returns the
   * settlements made now, by token id.
   */
  resolveMarket(conditionId: string, winnerTokenId: string, timeMs?: number): Settlement[] {
    return this.settleMarket(conditionId, new Map([[winnerTokenId, ONE]]), winnerTokenId, timeMs);
  }

  /** General resolution (e.g. a 50-50 market pays 0.5 each); tokens absent from `payouts` pay 0. */
  settleMarket(
    conditionId: string,
    payouts: ReadonlyMap<string, Price>,
    winnerTokenId: string | null = null,
    timeMs?: number,
  ): Settlement[] {
    return this.transaction(() =>
      this.fillStore.settle(conditionId, payouts, winnerTokenId, timeMs ?? this.clock.now()),
    );
  }

  /** The market's recorded resolution, or null while it has none. */
  resolution(conditionId: string): MarketResolution | null {
    return this.fillStore.resolution(conditionId);
  }

  /** Every recorded resolution, by resolution time. */
  resolutions(): MarketResolution[] {
    return this.fillStore.resolutions();
  }

  /** Settlement rows in record order (late fills' settlements included), of one market or all. */
  settlements(conditionId?: string): Settlement[] {
    return this.fillStore.settlements(conditionId);
  }

  /** Marks to market and writes the result to pnl_snapshots. */
  pnlSnapshot(mids: ReadonlyMap<string, Price>): PnlSnapshot {
    return this.transaction(() => this.reporter.snapshot(mids));
  }

  /** Realized + unrealized PnL since UTC midnight (for the daily-loss kill switch). */
  dailyPnl(mids: ReadonlyMap<string, Price>): DailyPnl {
    return this.reporter.daily(mids);
  }

  // ---------------------------------------------------------------------------------------------
  // Cycles

  recordCycle(c: CycleInput): void {
    this.cycles.record(c);
  }

  /** Folds cycle rows past retention into hourly rows now; returns how many were folded. */
  compactCycles(): number {
    return this.cycles.compact();
  }

  recentCycles(limit = 100): CycleRecord[] {
    return this.cycles.recent(limit);
  }

  cycleHours(sinceMs = 0): CycleHour[] {
    return this.cycles.hours(sinceMs);
  }
}

// The backtest ledger: the Ledger's interface (store.ts LedgerStore) and its rules over plain
// in-memory structures, written to a SQLite ledger once at the end when a file is asked for
// (saveTo). Live, sandbox and paper keep the write-ahead SQLite Ledger (ledger.ts). Invariants kept:
// - same calls on the same clock give the same results and the same error codes as the Ledger:
//   order states and transitions (src/core/order-lifecycle.ts, ported from order-store.ts), fill
//   deduplication and cumulative matches (fill-store.ts), positions, PnL, marks and settlements
//   through the very same core functions (src/core/pnl.ts, pnl-mark.ts), daily PnL by record time
//   from UTC midnight with the last snapshot at or before it as the baseline (pnl-report.ts);
//   test/ledger/memory-ledger.test.ts runs both on random call sequences and compares every read;
// - every write is whole or nothing: it checks everything that can refuse it before it changes
//   anything (the Ledger gets this from its transaction); `transaction(fn)` that throws after
//   writes rolls them back by replaying the operation log up to its start (O(history), only then);
// - every successful write is logged with the clock's time at the call (memory/op-log.ts), and
//   saveTo replays that log through a new SQLite Ledger in one transaction, so the file's reads
//   equal this ledger's by construction (order events included, which memory does not keep);
// - opened with `history: false` (a backtest that saves no file), it keeps no log, only the count
//   of writes (`operations`), and so about half the memory per order: saveTo and orderEvents
//   refuse (LEDGER_NO_HISTORY), and a transaction that fails after writing cannot be rolled back,
//   so it ends the ledger's use (every later call throws LEDGER_NOT_ROLLED_BACK) rather than leave
//   a half-written state readable;
// - reads are O(what they return): positions are kept per token in SQLite's BINARY order of token
//   ids, fills in an array (seq = index + 1), orders in a Map with the open ones in a Set; the
//   day's realized PnL is a prefix-sum lookup (memory/time-sums.ts). Results are shared read-only
//   values (a position's record is rebuilt only after it changed); callers must not mutate them;
// - the only time source is the injected Clock; all amounts are integer millionths.
// Not kept (store.ts leaves them out of LedgerStore): trade legs and their reversals (the trades
// route: fillReversals() is always empty, pendingSize only grows with order fills, as in a Ledger
// that never saw a leg), cycle history (recordCycle counts), order pruning, order events (read
// through a replay: orderEvents is O(history)).
import { existsSync, rmSync } from 'node:fs';
import { impliedPrice } from '../core/amounts.js';
import type { Clock } from '../core/clock.js';
import { InvariantError, OddsmakerError } from '../core/errors.js';
import { IdChanges } from '../core/id-changes.js';
import { ONE, SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import { canTransition, isOpenState, type OrderState } from '../core/order-lifecycle.js';
import type { Side } from '../core/order.js';
import { markToMarket as markPositions } from '../core/pnl-mark.js';
import { applyFill, FLAT, settlePosition } from '../core/pnl.js';
import { LedgerError } from './errors.js';
import { IDENTITY_FIELDS, type BindResult, type BoundIdentity, type LedgerIdentity } from './identity.js';
import { Ledger, type LedgerOptions } from './ledger.js';
import { compareBinary } from './memory/binary-order.js';
import { applyOp, Op, OP, type OpKind } from './memory/op-log.js';
import {
  firstWithId,
  lookupState,
  OrderRec,
  payoutOf,
  placementStatus,
  PositionRec,
  sameInput,
  sameOrder,
  toOrder,
  validateOrder,
  viewOf,
  normalizeMeta,
  type ResolutionRec,
} from './memory/records.js';
import { ReplayClock } from './memory/replay-clock.js';
import { TimeSums } from './memory/time-sums.js';
import { isDuplicateRejection, isImmediateOrderType, restsAs } from './order-state.js';
import { markToMarketAt } from './pnl-report.js';
import { checkSettlement } from './fill-store.js';
import type { LedgerStore } from './store.js';
import type {
  AcceptedPlacement,
  CumulativeMatchOptions,
  CycleInput,
  DailyPnl,
  FillInput,
  FillReversal,
  FillSource,
  LedgerFill,
  LedgerOrder,
  LedgerPosition,
  Liquidity,
  LookupOutcome,
  LookupResult,
  MarketResolution,
  MarkToMarket,
  OrderEvent,
  PnlSnapshot,
  Settlement,
  SignedOrderInput,
} from './types.js';

const DAY_MS = 86_400_000;
const FILL_SOURCES: readonly FillSource[] = ['placement', 'lookup', 'sim', 'backtest', 'trade'];
/** cycle-store.ts's counters, each a non-negative integer. */
const CYCLE_COUNTERS = [
  'durationMs',
  'books',
  'quotes',
  'placed',
  'cancelled',
  'fills',
  'errors',
  'rewardScore',
] as const;

/** The options of Ledger.open that mean something without a database, and whether to keep a log. */
export type MemoryLedgerOptions = Pick<LedgerOptions, 'clock'> & {
  /** Keep the operation log (default true): saveTo, orderEvents and rollbacks need it (see the header). */
  readonly history?: boolean;
};

/** The options of the SQLite ledger saveTo writes (its clock is the replay's). */
export type SaveOptions = Omit<LedgerOptions, 'clock'>;

export interface SaveSummary {
  readonly path: string;
  /** Logged calls replayed. */
  readonly operations: number;
  readonly orders: number;
  readonly fills: number;
  readonly settlements: number;
}

/** saveTo was asked to write over an existing file: the saved ledger must be a new one. */
export class LedgerSaveError extends OddsmakerError {
  constructor(message: string) {
    super('LEDGER_SAVE_EXISTS', message, false);
  }
}

/** A dailyPnl answer and its inputs (MemoryLedger.sameDailyInputs). */
interface DailyMemo {
  readonly dayStartMs: number;
  /** The mid read for each position held, in order (undefined: none). */
  readonly marks: ReadonlyArray<Price | undefined>;
  readonly realized: TimeSums;
  readonly realizedCount: number;
  readonly snapshots: TimeSums;
  readonly snapshotCount: number;
  /** The position views the answer marked, in positionList order. */
  readonly positions: readonly LedgerPosition[];
  readonly pnl: DailyPnl;
}

export class MemoryLedger implements LedgerStore {
  private clock: Clock;
  private readonly realClock: Clock;
  private open = true;
  /** Closed by a transaction this ledger could not roll back (no history), not by close(). */
  private notRolledBack = false;
  private readonly history: boolean;
  private log: Op[] = [];
  /** Writes so far: the log's length when it is kept. */
  private written = 0;

  private orders = new Map<string, OrderRec>();
  private openSet = new Set<OrderRec>();
  private fillList: LedgerFill[] = [];
  private fillByKey = new Map<string, LedgerFill>();
  private fillsByOrder = new Map<string, LedgerFill[]>();
  private positionsByToken = new Map<string, PositionRec>();
  /** Every position, in SQLite BINARY order of token id. */
  private positionList: PositionRec[] = [];
  private resolutionsByCondition = new Map<string, ResolutionRec>();
  private readonly orderChanges = new IdChanges();
  private settlementList: Settlement[] = [];
  /** Realized PnL deltas of fills and settlements by record time (the daily PnL's sums). */
  private realizedByTime = new TimeSums();
  /** Snapshots' unrealized PnL by time (the daily PnL's baseline); seq = index + 1. */
  private snapshots = new TimeSums(64);
  private bound: BoundIdentity | null = null;
  private cycleCount = 0;
  /** The last dailyPnl and what it was computed from (sameDailyInputs). */
  private lastDaily: DailyMemo | null = null;

  private constructor(opts: MemoryLedgerOptions) {
    this.clock = opts.clock;
    this.realClock = opts.clock;
    this.history = opts.history ?? true;
  }

  /** An empty ledger on `opts.clock` (the SQLite-only options of Ledger.open are not taken). */
  static open(opts: MemoryLedgerOptions): MemoryLedger {
    return new MemoryLedger(opts);
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Ends use of the ledger (every later call but saveTo throws LEDGER_CLOSED). Idempotent. */
  close(): void {
    this.open = false;
  }

  /** Cycles recorded (a backtest keeps no cycle log). */
  get cyclesRecorded(): number {
    return this.cycleCount;
  }

  /** Writes so far (with history, what saveTo replays): equal counts, equal state. */
  get operations(): number {
    return this.written;
  }

  identity(): BoundIdentity | null {
    this.assertOpen();
    return this.bound === null ? null : { ...this.bound };
  }

  /** As Ledger.bindIdentity (identity.ts): records the first, compares every later one. */
  bindIdentity(id: LedgerIdentity): BindResult {
    this.assertOpen();
    const want: LedgerIdentity = {
      ...id,
      account: /^0x[0-9a-fA-F]+$/.test(id.account) ? id.account.toLowerCase() : id.account,
    };
    const have = this.bound;
    if (have === null) {
      const now = this.clock.now();
      this.bound = {
        mode: want.mode,
        exchange: want.exchange,
        dialect: want.dialect,
        account: want.account,
        simSeed: want.simSeed,
        simRun: want.simRun,
        boundAtMs: now,
      };
      this.logOp(OP.Bind, now, id, null, null, null);
      return { status: 'bound', identity: { ...want, boundAtMs: now } };
    }
    const differs = IDENTITY_FIELDS.filter((f) => have[f] !== want[f]);
    return differs.length === 0
      ? { status: 'same', identity: { ...have } }
      : { status: 'other', identity: { ...have }, differs };
  }

  /**
   * Runs fn. Each call in it is whole or nothing by itself; when fn throws after writes, they are
   * undone (the state is rebuilt from the log up to this call: O(history), on failure only), as
   * the Ledger's transaction rolls back. Nests.
   */
  transaction<T>(fn: () => T): T {
    this.assertOpen();
    const mark = this.written;
    try {
      return fn();
    } catch (e) {
      if (this.written !== mark) {
        if (this.history) this.rollbackTo(mark);
        else {
          this.open = false;
          this.notRolledBack = true;
        }
      }
      throw e;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Orders

  recordSignedOrder(o: SignedOrderInput): boolean {
    this.assertOpen();
    validateOrder(o);
    const existing = this.orders.get(o.id);
    if (existing !== undefined) {
      if (sameOrder(existing, o)) return false;
      throw new LedgerError('LEDGER_DUPLICATE_ORDER', `order ${o.id} is already recorded with other contents`);
    }
    const now = this.clock.now();
    this.insertOrder(o, now);
    this.logOp(OP.SignedOrder, now, o, null, null, null);
    return true;
  }

  recordSignedOrders(os: readonly SignedOrderInput[]): number {
    this.assertOpen();
    // Everything is checked before anything is written (the batch is one commit in the Ledger),
    // an id twice in the batch included: the later must equal the first. Batches are small (≤ 15
    // a chunk): an earlier duplicate is found by a scan, a Map only for a large batch.
    const byId = os.length > 32 ? new Map<string, SignedOrderInput>() : null;
    for (let j = 0; j < os.length; j++) {
      const o = os[j] as SignedOrderInput;
      validateOrder(o);
      const rec = this.orders.get(o.id);
      let same = true;
      if (rec !== undefined) same = sameOrder(rec, o);
      else {
        const first = byId !== null ? byId.get(o.id) : firstWithId(os, o.id, j);
        if (first !== undefined) same = sameInput(first, o);
        else byId?.set(o.id, o);
      }
      if (!same)
        throw new LedgerError('LEDGER_DUPLICATE_ORDER', `order ${o.id} is already recorded with other contents`);
    }
    const now = this.clock.now();
    let n = 0;
    for (const o of os) {
      if (this.orders.has(o.id)) continue;
      this.insertOrder(o, now);
      n++;
    }
    if (n > 0) this.logOp(OP.SignedOrders, now, os.slice(), null, null, null);
    return n;
  }

  markSent(id: string): OrderState {
    this.assertOpen();
    const rec = this.mustOrder(id);
    if (rec.state !== 'signed' && rec.state !== 'unknown' && rec.state !== 'sent') {
      throw new LedgerError('LEDGER_BAD_TRANSITION', `order ${id} cannot be sent from state ${rec.state}`);
    }
    const now = this.clock.now();
    const s = this.transition(rec, 'sent', true, now, undefined, undefined, undefined, undefined);
    this.logOp(OP.Sent, now, id, null, null, null);
    return s;
  }

  markAccepted(id: string, r: AcceptedPlacement): OrderState {
    this.assertOpen();
    const status = placementStatus(r.status);
    if (status === null)
      throw new LedgerError(
        'LEDGER_UNKNOWN_STATUS',
        `order ${id}: unknown placement status ${JSON.stringify(r.status)}`,
      );
    const rec = this.mustOrder(id);
    const now = this.clock.now();
    if (status === 'matched' && r.makingAmount !== null && r.takingAmount !== null) {
      this.recordPlacementMatch(rec, r.makingAmount, r.takingAmount, r.feeMicros ?? 0, r.timeMs ?? now, now);
    }
    let to: OrderState;
    if (status === 'unmatched') to = 'canceled';
    else if (status === 'matched' && (rec.sizeMatched >= rec.size || isImmediateOrderType(rec.orderType)))
      to = 'matched';
    else to = 'live';
    const s = this.transition(rec, to, true, now, status, undefined, r.makingAmount, r.takingAmount);
    this.logOp(OP.Accepted, now, id, r, null, null);
    return s;
  }

  markRejected(id: string, errorMsg: string): OrderState {
    this.assertOpen();
    const rec = this.mustOrder(id);
    const now = this.clock.now();
    const to: OrderState = isDuplicateRejection(errorMsg) ? 'unknown' : 'rejected';
    const s = this.transition(rec, to, true, now, undefined, errorMsg, undefined, undefined);
    this.logOp(OP.Rejected, now, id, errorMsg, null, null);
    return s;
  }

  markUnknown(id: string, reason = 'ambiguous outcome'): OrderState {
    return this.ownMark(OP.Unknown, id, 'unknown', reason);
  }

  markCanceled(id: string, reason: string): OrderState {
    return this.ownMark(OP.Canceled, id, 'canceled', reason);
  }

  markCancelling(ids: readonly string[], reason: string): OrderState[] {
    this.assertOpen();
    const recs = ids.map((id) => this.mustOrder(id));
    const now = this.clock.now();
    const out = recs.map((rec) =>
      this.transition(rec, 'cancelling', true, now, undefined, undefined, undefined, undefined),
    );
    this.logOp(OP.Cancelling, now, ids.slice(), reason, null, null);
    return out;
  }

  markCancelAnswered(id: string, detail = 'cancel answered'): OrderState {
    return this.ownMark(OP.CancelAnswered, id, 'closing', detail);
  }

  markCancelNotSent(id: string, reason: string): OrderState {
    return this.ownMark(OP.CancelNotSent, id, 'live', reason);
  }

  markMatched(id: string, detail = 'matched'): OrderState {
    return this.ownMark(OP.Matched, id, 'matched', detail);
  }

  /** As Ledger.markLookup: the increment as a fill, then the state the exchange reports. */
  markLookup(id: string, r: LookupResult): LookupOutcome {
    this.assertOpen();
    const target = lookupState(r.status);
    if (target === null)
      throw new LedgerError('LEDGER_UNKNOWN_STATUS', `order ${id}: unknown order status ${JSON.stringify(r.status)}`);
    const rec = this.mustOrder(id);
    const now = this.clock.now();
    if (target !== 'not_found' && r.sizeMatched < rec.sizeMatched) {
      // Stale (the Ledger notes it as an event): logged for the saved file's events only.
      this.logOp(OP.Lookup, now, id, r, null, null);
      return { state: rec.state, newlyMatched: 0 as Shares };
    }
    // A lookup that finds what the ledger already holds (no new match, the same state and
    // exchange status) writes nothing in the Ledger (its transition skips an equal state with
    // equal extras), so it is not logged: a daemon looks every open order up each poll, and a
    // backtest of many markets kept millions of such entries.
    const unchanged = rec.state === target && rec.exchangeStatus === r.status;
    let newlyMatched = 0 as Shares;
    if (target !== 'not_found') {
      newlyMatched = this.recordCumulative(
        rec,
        r.sizeMatched,
        r.price,
        undefined,
        r.feeMicros,
        r.liquidity,
        r.timeMs,
        'lookup',
        now,
      );
    }
    const state = this.transition(rec, target, false, now, r.status, undefined, undefined, undefined);
    if (!(unchanged && newlyMatched === 0)) this.logOp(OP.Lookup, now, id, r, null, null);
    return { state, newlyMatched };
  }

  /**
   * The orders whose record (state, exchange status, matched size) was written since the last
   * call, for one reader (IdChanges; 'all' at the first call and after a rollback).
   */
  takeOrderChanges(): ReadonlySet<string> | 'all' {
    this.assertOpen();
    return this.orderChanges.take();
  }

  /** Ledger.restsAsLookedUp, without building the order's view (read every poll, per order). */
  restsAsLookedUp(id: string, status: string, sizeMatched: number): boolean {
    this.assertOpen();
    return restsAs(this.orders.get(id), status, sizeMatched, lookupState);
  }

  order(id: string): LedgerOrder | null {
    this.assertOpen();
    const rec = this.orders.get(id);
    return rec === undefined ? null : toOrder(rec);
  }

  /** Open orders by creation time, then id (the Ledger's ORDER BY created_at_ms, id). */
  openOrders(): LedgerOrder[] {
    this.assertOpen();
    const recs = [...this.openSet];
    recs.sort((a, b) => a.createdAtMs - b.createdAtMs || compareBinary(a.id, b.id));
    return recs.map(toOrder);
  }

  /**
   * The order's event log, as the SQLite ledger writes it. Memory keeps no events: this replays
   * the operation log into a temporary SQLite ledger (O(history): for inspection, not a hot path).
   */
  orderEvents(id: string): OrderEvent[] {
    this.assertOpen();
    this.assertHistory('read order events');
    const clock = new ReplayClock(this.clock.now());
    const l = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    try {
      this.replayInto(l, clock);
      return l.orderEvents(id);
    } finally {
      l.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Fills

  recordFill(f: FillInput): boolean {
    this.assertOpen();
    const now = this.clock.now();
    const fill = this.insertFill(
      f.orderId ?? null,
      f.tokenId,
      f.conditionId,
      f.side,
      f.price,
      f.size,
      f.feeMicros,
      f.liquidity,
      f.timeMs,
      f.source,
      f.dedupKey,
      f.notional,
      undefined,
      now,
    );
    if (fill === null) return false;
    this.logOp(OP.Fill, now, f, null, null, null);
    return true;
  }

  recordCumulativeMatch(orderId: string, sizeMatched: Shares, opts: CumulativeMatchOptions = {}): Shares {
    this.assertOpen();
    const rec = this.mustOrder(orderId);
    const now = this.clock.now();
    const inc = this.recordCumulative(
      rec,
      sizeMatched,
      opts.price,
      opts.notional,
      opts.feeMicros,
      opts.liquidity,
      opts.timeMs,
      opts.source,
      now,
    );
    if (inc > 0) this.logOp(OP.Cumulative, now, orderId, sizeMatched, opts, null);
    return inc;
  }

  /** Fills in record order after sequence number `afterSeq` (at most `limit`; a negative limit: all). */
  fills(afterSeq = 0, limit = 10_000): LedgerFill[] {
    this.assertOpen();
    const n = this.fillList.length;
    if (n <= afterSeq) return [];
    const start = afterSeq > 0 ? Math.floor(afterSeq) : 0;
    const end = limit < 0 ? n : Math.min(n, start + limit);
    return this.fillList.slice(start, end);
  }

  fillsOfOrder(orderId: string): LedgerFill[] {
    this.assertOpen();
    const list = this.fillsByOrder.get(orderId);
    return list === undefined ? [] : list.slice();
  }

  /** Always empty: this ledger records no trade legs, so nothing is ever reversed. */
  fillReversals(afterSeq = 0, limit = 10_000): FillReversal[] {
    void afterSeq;
    void limit;
    this.assertOpen();
    return [];
  }

  // ---------------------------------------------------------------------------------------------
  // Positions and PnL

  positions(opts: { openOnly?: boolean } = {}): LedgerPosition[] {
    this.assertOpen();
    const openOnly = opts.openOnly ?? false;
    const list = this.positionList;
    const out: LedgerPosition[] = [];
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as PositionRec;
      if (!openOnly || p.size !== 0) out.push(p.view ?? viewOf(p));
    }
    return out;
  }

  position(tokenId: string): LedgerPosition | null {
    this.assertOpen();
    const p = this.positionsByToken.get(tokenId);
    return p === undefined ? null : (p.view ?? viewOf(p));
  }

  markToMarket(mids: ReadonlyMap<string, Price>): MarkToMarket {
    this.assertOpen();
    return markToMarketAt(this.positions(), mids, this.clock.now());
  }

  pnlSnapshot(mids: ReadonlyMap<string, Price>): PnlSnapshot {
    this.assertOpen();
    const m = this.markToMarket(mids);
    const seq = this.snapshots.push(m.atMs, m.unrealized);
    this.logOp(OP.Snapshot, m.atMs, new Map(mids), null, null, null);
    return { ...m, seq };
  }

  /** As Ledger.dailyPnl (pnl-report.ts): realized since UTC midnight plus the unrealized change. */
  dailyPnl(mids: ReadonlyMap<string, Price>): DailyPnl {
    this.assertOpen();
    const now = this.clock.now();
    const dayStartMs = Math.floor(now / DAY_MS) * DAY_MS;
    const last = this.lastDaily;
    if (last !== null && this.sameDailyInputs(last, dayStartMs, mids)) return last.pnl;
    const realized = this.realizedByTime.sumSince(dayStartMs);
    const b = this.snapshots.latestAtOrBefore(dayStartMs);
    // The one mark-to-market rule, without the report's per-position records (a cycle asks).
    const positions = this.positions();
    const marks: Array<Price | undefined> = [];
    const m = markPositions(positions, (t) => {
      const mark = mids.get(t);
      marks.push(mark);
      return mark;
    });
    const unrealizedChange = m.unrealized - (b < 0 ? 0 : this.snapshots.valueAt(b));
    const pnl: DailyPnl = {
      dayStartMs,
      realized: realized as Micros,
      unrealizedChange: unrealizedChange as Micros,
      total: (realized + unrealizedChange) as Micros,
      baselineAtMs: b < 0 ? null : this.snapshots.timeAt(b),
      unmarked: m.unmarked.map((p) => p.tokenId),
    };
    this.lastDaily = {
      dayStartMs,
      marks,
      realized: this.realizedByTime,
      realizedCount: this.realizedByTime.length,
      snapshots: this.snapshots,
      snapshotCount: this.snapshots.length,
      positions,
      pnl,
    };
    return pnl;
  }

  /**
   * Whether dailyPnl would compute `last.pnl` again: the same day, no realized entry or snapshot
   * since (both are append-only), the same position views (a position's view is rebuilt when it
   * changes) and the same mid for each position held (the only mids the mark reads). Most cycles
   * ask with nothing of it changed.
   */
  private sameDailyInputs(last: DailyMemo, dayStartMs: number, mids: ReadonlyMap<string, Price>): boolean {
    if (
      last.dayStartMs !== dayStartMs ||
      last.realized !== this.realizedByTime ||
      last.realizedCount !== this.realizedByTime.length ||
      last.snapshots !== this.snapshots ||
      last.snapshotCount !== this.snapshots.length ||
      last.positions.length !== this.positionList.length
    )
      return false;
    const list = this.positionList;
    let held = 0;
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as PositionRec;
      if (p.view !== last.positions[i]) return false;
      if (p.size !== 0 && mids.get(p.tokenId) !== last.marks[held++]) return false;
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Resolutions

  resolveMarket(conditionId: string, winnerTokenId: string, timeMs?: number): Settlement[] {
    return this.settleMarket(conditionId, new Map([[winnerTokenId, ONE]]), winnerTokenId, timeMs);
  }

  /** As Ledger.settleMarket (fill-store.ts settle): closes every position of the condition at its payout. */
  settleMarket(
    conditionId: string,
    payouts: ReadonlyMap<string, Price>,
    winnerTokenId: string | null = null,
    timeMs?: number,
  ): Settlement[] {
    this.assertOpen();
    const now = this.clock.now();
    const resolvedAtMs = timeMs ?? now;
    checkSettlement(conditionId, payouts, winnerTokenId, resolvedAtMs);
    const entries = [...payouts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const payoutsJson = JSON.stringify(entries);
    const existing = this.resolutionsByCondition.get(conditionId);
    if (existing !== undefined) {
      if (existing.payoutsJson !== payoutsJson || existing.view.winnerTokenId !== winnerTokenId) {
        throw new InvariantError(`market ${conditionId} is already resolved with other payouts`);
      }
      return [];
    }
    const res: ResolutionRec = {
      payoutsJson,
      view: {
        conditionId,
        winnerTokenId,
        // As the Ledger reads them back (JSON), so -0 and the like come out alike.
        payouts: (JSON.parse(payoutsJson) as [string, number][]).map(([t, p]) => [t, p as Price] as const),
        resolvedAtMs: resolvedAtMs + 0,
        recordedAtMs: now,
      },
    };
    this.resolutionsByCondition.set(conditionId, res);
    const out: Settlement[] = [];
    for (const p of this.positionList) {
      if (p.conditionId !== conditionId) continue;
      const s = this.settleToken(res, p, now);
      if (s !== null) out.push(s);
    }
    this.logOp(OP.Settle, now, conditionId, new Map(payouts), winnerTokenId, resolvedAtMs);
    return out;
  }

  resolution(conditionId: string): MarketResolution | null {
    this.assertOpen();
    return this.resolutionsByCondition.get(conditionId)?.view ?? null;
  }

  /** By resolution time, then condition id. */
  resolutions(): MarketResolution[] {
    this.assertOpen();
    const out = [...this.resolutionsByCondition.values()].map((r) => r.view);
    out.sort((a, b) => a.resolvedAtMs - b.resolvedAtMs || compareBinary(a.conditionId, b.conditionId));
    return out;
  }

  settlements(conditionId?: string): Settlement[] {
    this.assertOpen();
    return conditionId === undefined
      ? this.settlementList.slice()
      : this.settlementList.filter((s) => s.conditionId === conditionId);
  }

  /** A backtest keeps no cycle log: the cycle is checked as the Ledger checks it, and counted. */
  recordCycle(c: CycleInput): void {
    this.assertOpen();
    if (!Number.isSafeInteger(c.startedAtMs))
      throw new InvariantError(`cycle start is not an integer: ${String(c.startedAtMs)}`);
    for (const k of CYCLE_COUNTERS) {
      const v = k === 'rewardScore' ? (c.rewardScore ?? 0) : c[k];
      if (!Number.isSafeInteger(v) || v < 0)
        throw new InvariantError(`cycle ${k} is not a non-negative integer: ${String(v)}`);
    }
    this.cycleCount++;
  }

  // ---------------------------------------------------------------------------------------------
  // Writing to SQLite

  /**
   * Writes everything recorded to a new SQLite ledger at `path` (refused with LEDGER_SAVE_EXISTS if
   * the file exists) by replaying the operation log through Ledger's own methods, in one
   * transaction, each call at the time it was made. Works after close() too. On failure the
   * partial file is removed.
   */
  saveTo(path: string, opts: SaveOptions = {}): SaveSummary {
    this.assertHistory('save to a file');
    if (existsSync(path)) throw new LedgerSaveError(`cannot save the ledger to ${path}: the file exists`);
    const clock = new ReplayClock(this.log[0]?.now ?? this.realClock.now());
    let l: Ledger | null = null;
    try {
      l = Ledger.open(path, { ...opts, clock });
      this.replayInto(l, clock);
      l.close();
    } catch (e) {
      l?.close();
      for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
      throw e;
    }
    return {
      path,
      operations: this.written,
      orders: this.orders.size,
      fills: this.fillList.length,
      settlements: this.settlementList.length,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Internals

  private replayInto(l: Ledger, clock: ReplayClock): void {
    const ops = this.log;
    l.transaction(() => {
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i] as Op;
        clock.t = op.now;
        applyOp(l, op);
      }
    });
  }

  /** Rebuilds the state from the first `mark` logged operations (a rollback). */
  private rollbackTo(mark: number): void {
    this.orderChanges.noteAll();
    const ops = this.log.slice(0, mark);
    this.log = [];
    this.written = 0;
    this.orders = new Map();
    this.openSet = new Set();
    this.fillList = [];
    this.fillByKey = new Map();
    this.fillsByOrder = new Map();
    this.positionsByToken = new Map();
    this.positionList = [];
    this.resolutionsByCondition = new Map();
    this.settlementList = [];
    this.realizedByTime = new TimeSums();
    this.snapshots = new TimeSums(64);
    this.bound = null;
    const clock = new ReplayClock(0);
    this.clock = clock;
    try {
      for (const op of ops) {
        clock.t = op.now;
        applyOp(this, op);
      }
    } finally {
      this.clock = this.realClock;
    }
  }

  private logOp(kind: OpKind, now: number, a: unknown, b: unknown, c: unknown, d: unknown): void {
    this.written++;
    if (this.history) this.log.push(new Op(kind, now, a, b, c, d));
  }

  private assertOpen(): void {
    if (this.notRolledBack)
      throw new LedgerError(
        'LEDGER_NOT_ROLLED_BACK',
        'a transaction failed after writing, and this ledger keeps no history to roll it back: it takes no more calls',
      );
    if (!this.open) throw new LedgerError('LEDGER_CLOSED', 'the ledger is closed');
  }

  private assertHistory(what: string): void {
    if (!this.history)
      throw new LedgerError('LEDGER_NO_HISTORY', `cannot ${what}: this ledger was opened without history`);
  }

  private mustOrder(id: string): OrderRec {
    const r = this.orders.get(id);
    if (r === undefined) throw new LedgerError('LEDGER_UNKNOWN_ORDER', `no order ${id} in the ledger`);
    return r;
  }

  private insertOrder(o: SignedOrderInput, now: number): void {
    const rec = new OrderRec(
      o.id,
      o.tokenId,
      o.conditionId,
      o.side,
      o.price + 0,
      o.size + 0,
      o.orderType,
      o.salt,
      o.createdAtMs + 0,
      now,
      o.strategy ?? null,
      o.replaces ?? null,
      o.meta === undefined ? null : normalizeMeta(o.meta),
      o.signedJson ?? null,
    );
    this.orders.set(o.id, rec);
    this.openSet.add(rec);
    this.orderChanges.note(o.id);
  }

  private ownMark(kind: OpKind, id: string, to: OrderState, detail: string): OrderState {
    this.assertOpen();
    const rec = this.mustOrder(id);
    const now = this.clock.now();
    const s = this.transition(rec, to, true, now, undefined, undefined, undefined, undefined);
    this.logOp(kind, now, id, detail, null, null);
    return s;
  }

  /**
   * order-store.ts transition: `own` follows the transition table (a contradiction is ignored),
   * the exchange's (a lookup) always applies; not a change refreshes only what the exchange said.
   */
  private transition(
    rec: OrderRec,
    to: OrderState,
    own: boolean,
    now: number,
    exchangeStatus: string | undefined,
    errorMsg: string | undefined,
    making: number | null | undefined,
    taking: number | null | undefined,
  ): OrderState {
    this.orderChanges.note(rec.id);
    if (rec.state === to) {
      // Only the extras (state time kept), as the Ledger's extrasDiffer + setState.
      if (exchangeStatus !== undefined) rec.exchangeStatus = exchangeStatus;
      if (errorMsg !== undefined) rec.errorMsg = errorMsg;
      if (making !== undefined && making !== null) rec.makingAmount = making;
      if (taking !== undefined && taking !== null) rec.takingAmount = taking;
      return to;
    }
    if (own && !canTransition(rec.state, to)) return rec.state;
    rec.state = to;
    rec.stateAtMs = now;
    if (exchangeStatus !== undefined) rec.exchangeStatus = exchangeStatus;
    if (errorMsg !== undefined) rec.errorMsg = errorMsg;
    if (making !== undefined && making !== null) rec.makingAmount = making + 0;
    if (taking !== undefined && taking !== null) rec.takingAmount = taking + 0;
    if (isOpenState(to)) this.openSet.add(rec);
    else this.openSet.delete(rec);
    return to;
  }

  /** fill-store.ts recordCumulative: the increment over what the order has recorded. */
  private recordCumulative(
    rec: OrderRec,
    sizeMatched: number,
    price: Price | undefined,
    notional: Micros | undefined,
    feeMicros: Micros | undefined,
    liquidity: Liquidity | undefined,
    timeMs: number | undefined,
    source: FillSource | undefined,
    now: number,
  ): Shares {
    if (!Number.isSafeInteger(sizeMatched) || sizeMatched < 0) {
      throw new InvariantError(`order ${rec.id}: bad cumulative matched size ${String(sizeMatched)}`);
    }
    if (sizeMatched > rec.size) {
      throw new InvariantError(`order ${rec.id}: matched ${sizeMatched / SCALE} exceeds its size ${rec.size / SCALE}`);
    }
    const increment = sizeMatched - rec.sizeMatched;
    if (increment <= 0) return 0 as Shares;
    const fill = this.insertFill(
      rec.id,
      rec.tokenId,
      rec.conditionId,
      rec.side,
      price ?? (rec.price as Price),
      increment as Shares,
      feeMicros ?? (0 as Micros),
      liquidity ?? 'maker',
      timeMs ?? now,
      source ?? 'lookup',
      `${rec.id}@${sizeMatched}`,
      notional,
      rec,
      now,
    );
    return (fill !== null ? increment : 0) as Shares;
  }

  /** fill-store.ts recordPlacementMatch: the part matched on arrival, from the exact amounts. */
  private recordPlacementMatch(
    rec: OrderRec,
    makingAmount: number,
    takingAmount: number,
    feeMicros: number,
    timeMs: number,
    now: number,
  ): Shares {
    const buy = rec.side === 'BUY';
    const collateral = buy ? makingAmount : takingAmount;
    const shares = buy ? takingAmount : makingAmount;
    if (shares <= 0) return 0 as Shares;
    if (shares <= rec.sizeMatched) return 0 as Shares;
    const px = impliedPrice(rec.side, makingAmount, takingAmount).price as Price;
    return this.recordCumulative(
      rec,
      shares,
      px,
      rec.sizeMatched === 0 ? (collateral as Micros) : undefined,
      feeMicros as Micros,
      'taker',
      timeMs,
      'placement',
      now,
    );
  }

  /**
   * fill-store.ts insert: every check first (dedup, the order's token, side and size, the token's
   * condition, the PnL math's own), then the writes: the order's matched size, the fill, the
   * position, and its settlement (resolved market) or pending shares (an order's fill).
   */
  private insertFill(
    orderId: string | null,
    tokenId: string,
    conditionId: string,
    side: Side,
    price: Price,
    size: Shares,
    feeMicros: Micros,
    liquidity: Liquidity,
    timeMs: number,
    source: FillSource,
    dedupKey: string,
    notional: Micros | undefined,
    loaded: OrderRec | undefined,
    now: number,
  ): LedgerFill | null {
    if (dedupKey === '') throw new InvariantError('fill dedup key is empty');
    if (tokenId === '' || conditionId === '') throw new InvariantError(`fill ${dedupKey}: empty token or condition id`);
    if (side !== 'BUY' && side !== 'SELL') throw new InvariantError(`fill ${dedupKey}: bad side ${String(side)}`);
    if (liquidity !== 'maker' && liquidity !== 'taker')
      throw new InvariantError(`fill ${dedupKey}: bad liquidity ${String(liquidity)}`);
    if (!FILL_SOURCES.includes(source)) throw new InvariantError(`fill ${dedupKey}: bad source ${String(source)}`);
    if (!Number.isSafeInteger(timeMs)) throw new InvariantError(`fill ${dedupKey}: bad time ${String(timeMs)}`);
    const existing = this.fillByKey.get(dedupKey);
    if (existing !== undefined) {
      if (
        existing.orderId !== orderId ||
        existing.tokenId !== tokenId ||
        existing.side !== side ||
        existing.price !== price ||
        existing.size !== size ||
        existing.feeMicros !== feeMicros
      ) {
        throw new InvariantError(`fill ${dedupKey} is already recorded with other contents`);
      }
      return null;
    }
    let order: OrderRec | undefined;
    let matchedAfter = 0;
    if (orderId !== null) {
      order = loaded !== undefined && loaded.id === orderId ? loaded : this.orders.get(orderId);
      if (order !== undefined) {
        if (order.tokenId !== tokenId || order.side !== side) {
          throw new InvariantError(
            `fill ${dedupKey} (${side} ${tokenId}) does not match order ${orderId} (${order.side} ${order.tokenId})`,
          );
        }
        matchedAfter = order.sizeMatched + size;
        if (matchedAfter > order.size) {
          throw new InvariantError(
            `fills of order ${order.id} would reach ${matchedAfter / SCALE} shares, beyond its size ${order.size / SCALE}`,
          );
        }
      }
    }
    let pos = this.positionsByToken.get(tokenId);
    if (pos !== undefined && pos.conditionId !== conditionId) {
      throw new InvariantError(`token ${tokenId} belongs to condition ${pos.conditionId}, not ${conditionId}`);
    }
    const effect = applyFill(
      pos === undefined ? FLAT : pos,
      notional === undefined ? { side, price, size, feeMicros } : { side, price, size, feeMicros, notional },
    );
    // Nothing below throws: the write is whole.
    if (order !== undefined) {
      order.sizeMatched = matchedAfter;
      this.orderChanges.note(order.id);
      if (matchedAfter === order.size && canTransition(order.state, 'matched')) {
        this.transition(order, 'matched', true, now, undefined, undefined, undefined, undefined);
      }
    }
    const fill: LedgerFill = {
      seq: this.fillList.length + 1,
      dedupKey,
      orderId,
      tokenId,
      conditionId,
      side,
      // -0 stored as 0, as an INTEGER column does (here and in every record below).
      price: (price + 0) as Price,
      size: (size + 0) as Shares,
      notional: (effect.notional + 0) as Micros,
      feeMicros: (feeMicros + 0) as Micros,
      liquidity,
      source,
      timeMs: timeMs + 0,
      recordedAtMs: now,
      realizedDelta: (effect.realizedDelta + 0) as Micros,
    };
    this.fillList.push(fill);
    this.fillByKey.set(dedupKey, fill);
    if (orderId !== null) {
      const list = this.fillsByOrder.get(orderId);
      if (list === undefined) this.fillsByOrder.set(orderId, [fill]);
      else list.push(fill);
    }
    this.realizedByTime.push(now, fill.realizedDelta);
    if (pos === undefined) {
      pos = new PositionRec(tokenId, conditionId, now);
      this.positionsByToken.set(tokenId, pos);
      this.insertSorted(pos);
    }
    pos.set(effect.position, now);
    const res = this.resolutionsByCondition.get(conditionId);
    // A fill of an order is pending until a trade leg makes it final (none here); a resolved
    // market's settlement zeroes it.
    if (res !== undefined) this.settleToken(res, pos, now);
    else if (orderId !== null) {
      pos.pending += side === 'BUY' ? size : -size;
      pos.view = null;
    }
    return fill;
  }

  /** fill-store.ts settleToken: nothing pending; a held position closes at its payout. */
  private settleToken(res: ResolutionRec, pos: PositionRec, now: number): Settlement | null {
    if (pos.pending !== 0) {
      pos.pending = 0;
      pos.view = null;
    }
    if (pos.size === 0) return null;
    const payout = payoutOf(res.view, pos.tokenId);
    const effect = settlePosition(pos, payout);
    const s: Settlement = {
      seq: this.settlementList.length + 1,
      conditionId: pos.conditionId,
      tokenId: pos.tokenId,
      payout: (payout + 0) as Price,
      size: (effect.size + 0) as Shares,
      proceeds: (effect.proceeds + 0) as Micros,
      realizedDelta: (effect.realizedDelta + 0) as Micros,
      recordedAtMs: now,
    };
    this.settlementList.push(s);
    this.realizedByTime.push(now, s.realizedDelta);
    pos.set(effect.position, now);
    return s;
  }

  private insertSorted(pos: PositionRec): void {
    const list = this.positionList;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBinary((list[mid] as PositionRec).tokenId, pos.tokenId) < 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, pos);
  }
}

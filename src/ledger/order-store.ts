// Orders and their event log in SQLite. Invariants kept:
// - an order row and its first event (`signed`) are written together; every later state change
//   updates the row and appends one event in the same transaction, so the log and the row agree;
// - an order id is written once: writing it again with the same contents is a no-op (a replay
//   after a crash), with other contents an error (two orders must never share a digest);
// - our own marks follow the transitions of src/core/order-lifecycle.ts; a report that contradicts a terminal state
//   (a late placement result, a cancel after a fill) is logged as an event and leaves the state;
//   only an exchange lookup may move an order out of a terminal state;
// - size_matched never exceeds size (also a CHECK in the schema).
// Callers (ledger.ts) run these inside a transaction.
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import { SCALE, type Price, type Shares } from '../core/money.js';
import {
  canTransition,
  OPEN_ORDER_STATES,
  ORDER_STATES,
  TERMINAL_ORDER_STATES,
  type OrderState,
} from '../core/order-lifecycle.js';
import { LedgerError } from './errors.js';
import type { LedgerOrder, OrderEvent, OrderMeta, SignedOrderInput } from './types.js';

export interface OrderRow {
  id: string;
  token_id: string;
  condition_id: string;
  side: 'BUY' | 'SELL';
  price: number;
  size: number;
  order_type: string;
  salt: string;
  created_at_ms: number;
  state: OrderState;
  state_at_ms: number;
  size_matched: number;
  making_amount: number | null;
  taking_amount: number | null;
  exchange_status: string | null;
  error_msg: string | null;
  strategy: string | null;
  replaces: string | null;
  meta_json: string | null;
  signed_json: string | null;
}

interface EventRow {
  seq: number;
  order_id: string;
  at_ms: number;
  state: OrderState;
  detail: string | null;
}

interface StateUpdate {
  id: string;
  state: OrderState;
  at: number;
  /** null keeps the stored value (here and below). */
  status: string | null;
  err: string | null;
  making: number | null;
  taking: number | null;
}

/** Columns a transition may set besides the state. */
export interface TransitionExtras {
  readonly exchangeStatus?: string;
  readonly errorMsg?: string;
  readonly makingAmount?: number | null;
  readonly takingAmount?: number | null;
}

const sqlList = (states: readonly OrderState[]): string => states.map((x) => `'${x}'`).join(', ');
const OPEN_SQL = sqlList(OPEN_ORDER_STATES);
const TERMINAL_SQL = sqlList(TERMINAL_ORDER_STATES);

export class OrderStore {
  private readonly insertOrder;
  private readonly selectOrder;
  private readonly selectOpen;
  private readonly insertEvent;
  private readonly selectEvents;
  private readonly updateState;
  private readonly updateMatched;
  private readonly deleteOld;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.insertOrder = db.prepare<
      [
        string,
        string,
        string,
        string,
        number,
        number,
        string,
        string,
        number,
        number,
        string | null,
        string | null,
        string | null,
        string | null,
      ]
    >(`INSERT INTO orders (id, token_id, condition_id, side, price, size, order_type, salt, created_at_ms,
          state, state_at_ms, strategy, replaces, meta_json, signed_json)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'signed', ?, ?, ?, ?, ?)`);
    this.selectOrder = db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE id = ?');
    this.selectOpen = db.prepare<[], OrderRow>(
      `SELECT * FROM orders WHERE state IN (${OPEN_SQL}) ORDER BY created_at_ms, id`,
    );
    this.insertEvent = db.prepare<[string, number, string, string | null]>(
      'INSERT INTO order_events (order_id, at_ms, state, detail) VALUES (?, ?, ?, ?)',
    );
    this.selectEvents = db.prepare<[string], EventRow>(
      'SELECT seq, order_id, at_ms, state, detail FROM order_events WHERE order_id = ? ORDER BY seq',
    );
    this.updateState = db.prepare<StateUpdate>(
      `UPDATE orders SET state = @state, state_at_ms = @at,
          exchange_status = coalesce(@status, exchange_status),
          error_msg = coalesce(@err, error_msg),
          making_amount = coalesce(@making, making_amount),
          taking_amount = coalesce(@taking, taking_amount)
        WHERE id = @id`,
    );
    this.updateMatched = db.prepare<[number, string]>('UPDATE orders SET size_matched = ? WHERE id = ?');
    this.deleteOld = db.prepare<[number]>(`DELETE FROM orders WHERE state IN (${TERMINAL_SQL}) AND state_at_ms < ?`);
  }

  /** Writes a signed order (state `signed`) and its first event. False when already recorded identically. */
  insert(o: SignedOrderInput): boolean {
    validateOrder(o);
    const existing = this.selectOrder.get(o.id);
    if (existing !== undefined) {
      if (sameOrder(existing, o)) return false;
      throw new LedgerError('LEDGER_DUPLICATE_ORDER', `order ${o.id} is already recorded with other contents`);
    }
    const now = this.clock.now();
    this.insertOrder.run(
      o.id,
      o.tokenId,
      o.conditionId,
      o.side,
      o.price,
      o.size,
      o.orderType,
      o.salt,
      o.createdAtMs,
      now,
      o.strategy ?? null,
      o.replaces ?? null,
      o.meta === undefined ? null : JSON.stringify(o.meta),
      o.signedJson ?? null,
    );
    this.insertEvent.run(o.id, now, 'signed', null);
    return true;
  }

  row(id: string): OrderRow | undefined {
    return this.selectOrder.get(id);
  }

  mustRow(id: string): OrderRow {
    const r = this.selectOrder.get(id);
    if (r === undefined) throw new LedgerError('LEDGER_UNKNOWN_ORDER', `no order ${id} in the ledger`);
    return r;
  }

  get(id: string): LedgerOrder | null {
    const r = this.selectOrder.get(id);
    return r === undefined ? null : toOrder(r);
  }

  open(): LedgerOrder[] {
    return this.selectOpen.all().map(toOrder);
  }

  events(id: string): OrderEvent[] {
    return this.selectEvents.all(id).map((e) => ({
      seq: e.seq,
      orderId: e.order_id,
      atMs: e.at_ms,
      state: e.state,
      detail: e.detail,
    }));
  }

  /**
   * Moves an order to `to`. `authority` 'own' follows the transition table (a contradiction of a
   * terminal state is logged and ignored; anything else is a bug); 'exchange' (a lookup) always
   * applies. Returns the resulting state.
   */
  transition(
    row: OrderRow,
    to: OrderState,
    detail: string | null,
    authority: 'own' | 'exchange',
    extras: TransitionExtras = {},
  ): OrderState {
    const now = this.clock.now();
    if (row.state === to) {
      // Not a change: keep the time of the last change, only refresh what the exchange reported
      // (and skip the write when that is the same too, as for a repeated poll).
      if (extrasDiffer(row, extras)) this.setState(row, to, row.state_at_ms, extras);
      return to;
    }
    if (authority === 'own' && !canTransition(row.state, to)) {
      this.insertEvent.run(
        row.id,
        now,
        row.state,
        `ignored ${to}${detail === null ? '' : `: ${detail}`} (order already ${row.state})`,
      );
      return row.state;
    }
    this.setState(row, to, now, extras);
    this.insertEvent.run(row.id, now, to, detail);
    return to;
  }

  /** Logs an event without a state change (e.g. a lookup that saw a new match). */
  note(row: OrderRow, detail: string): void {
    this.insertEvent.run(row.id, this.clock.now(), row.state, detail);
  }

  /** Advances size_matched by `size`; moves an open order to `matched` once fully matched. */
  addMatched(row: OrderRow, size: number): void {
    const next = row.size_matched + size;
    if (next > row.size) {
      throw new InvariantError(
        `fills of order ${row.id} would reach ${next / SCALE} shares, beyond its size ${row.size / SCALE}`,
      );
    }
    this.updateMatched.run(next, row.id);
    row.size_matched = next;
    if (next === row.size && canTransition(row.state, 'matched')) {
      this.transition(row, 'matched', 'fully matched', 'own');
    }
  }

  /** Deletes terminal orders (and, by cascade, their events) whose last change is before `beforeMs`. */
  prune(beforeMs: number): number {
    return this.deleteOld.run(beforeMs).changes;
  }

  private setState(row: OrderRow, to: OrderState, now: number, extras: TransitionExtras): void {
    const making = extras.makingAmount ?? null;
    const taking = extras.takingAmount ?? null;
    this.updateState.run({
      id: row.id,
      state: to,
      at: now,
      status: extras.exchangeStatus ?? null,
      err: extras.errorMsg ?? null,
      making,
      taking,
    });
    row.state = to;
    row.state_at_ms = now;
    if (extras.exchangeStatus !== undefined) row.exchange_status = extras.exchangeStatus;
    if (extras.errorMsg !== undefined) row.error_msg = extras.errorMsg;
    if (making !== null) row.making_amount = making;
    if (taking !== null) row.taking_amount = taking;
  }
}

function extrasDiffer(row: OrderRow, e: TransitionExtras): boolean {
  return (
    (e.exchangeStatus !== undefined && e.exchangeStatus !== row.exchange_status) ||
    (e.errorMsg !== undefined && e.errorMsg !== row.error_msg) ||
    (e.makingAmount !== undefined && e.makingAmount !== null && e.makingAmount !== row.making_amount) ||
    (e.takingAmount !== undefined && e.takingAmount !== null && e.takingAmount !== row.taking_amount)
  );
}

function validateOrder(o: SignedOrderInput): void {
  if (o.id === '') throw new InvariantError('order id is empty');
  if (o.tokenId === '' || o.conditionId === '') throw new InvariantError(`order ${o.id}: empty token or condition id`);
  if (o.side !== 'BUY' && o.side !== 'SELL') throw new InvariantError(`order ${o.id}: bad side ${String(o.side)}`);
  if (!Number.isSafeInteger(o.price) || o.price < 0 || o.price > SCALE)
    throw new InvariantError(`order ${o.id}: bad price ${String(o.price)}`);
  if (!Number.isSafeInteger(o.size) || o.size <= 0)
    throw new InvariantError(`order ${o.id}: bad size ${String(o.size)}`);
  if (!Number.isSafeInteger(o.createdAtMs))
    throw new InvariantError(`order ${o.id}: bad createdAtMs ${String(o.createdAtMs)}`);
}

function sameOrder(r: OrderRow, o: SignedOrderInput): boolean {
  return (
    r.token_id === o.tokenId &&
    r.condition_id === o.conditionId &&
    r.side === o.side &&
    r.price === o.price &&
    r.size === o.size &&
    r.order_type === o.orderType &&
    r.salt === o.salt &&
    r.created_at_ms === o.createdAtMs
  );
}

function assertState(s: string): OrderState {
  if ((ORDER_STATES as readonly string[]).includes(s)) return s as OrderState;
  throw new InvariantError(`unknown order state in the ledger: ${s}`);
}

export function toOrder(r: OrderRow): LedgerOrder {
  return {
    id: r.id,
    tokenId: r.token_id,
    conditionId: r.condition_id,
    side: r.side,
    price: r.price as Price,
    size: r.size as Shares,
    orderType: r.order_type,
    salt: r.salt,
    createdAtMs: r.created_at_ms,
    state: assertState(r.state),
    stateAtMs: r.state_at_ms,
    sizeMatched: r.size_matched as Shares,
    makingAmount: r.making_amount,
    takingAmount: r.taking_amount,
    exchangeStatus: r.exchange_status,
    errorMsg: r.error_msg,
    strategy: r.strategy,
    replaces: r.replaces,
    meta: r.meta_json === null ? null : (JSON.parse(r.meta_json) as OrderMeta),
    signedJson: r.signed_json,
  };
}

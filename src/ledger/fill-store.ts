// Fills, positions and market resolutions in SQLite. Invariants kept:
// - a fill is written at most once: its dedup key is UNIQUE; the same key again is a no-op, the
//   same key with other contents is an InvariantError (two different fills cannot share a key);
// - a fill, its effect on the position (src/core/pnl.ts average cost) and on its order's size_matched are
//   written in one transaction (the caller's), so they never disagree after a crash;
// - a cumulative match (an order lookup's sizeMatched) records only the increment over the sum
//   of the order's recorded fills, keyed by (order id, cumulative size): repeated or out-of-order
//   observations never add anything, and the total recorded equals the largest value seen;
// - a resolved market settles every position of its condition at its payout (winner 1, loser 0)
//   exactly once; a fill that arrives after the resolution is settled as soon as it is applied
//   (never refused: the exchange matched it before the market closed, and the ledger may learn of
//   it only at a later lookup, so it is real money that the payout must still count);
// - a resolution keeps two times: when the market resolved (the caller's, default the clock) and
//   when the ledger recorded it; settlement rows carry their record time (the daily PnL's rule);
// - a token belongs to one condition: a fill naming another condition is an InvariantError;
// - a position's pending_size (types.ts LedgerPosition.pendingSize) moves in the same transaction
//   as what moves it: every fill of an order enters it (signed), a trade leg leaves it when final
//   (trade-store.ts, through addPending); in a resolved market it is 0 (nothing is held);
// - a reversal (a FAILED trade leg, trade-store.ts) is applied to the position here, written once
//   with its place among the fills (after_fill_seq) and its realized PnL; a reversal in a resolved
//   market is settled at once, as a late fill is.
import type Database from 'better-sqlite3';
import { impliedPrice } from '../core/amounts.js';
import type { Clock } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import { SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import type { OrderRow, OrderStore } from './order-store.js';
import {
  applyFill,
  averagePrice,
  FLAT,
  reverseFill,
  settlePosition,
  type PnlReversal,
  type PositionState,
} from '../core/pnl.js';
import type {
  CumulativeMatchOptions,
  FillInput,
  FillReversal,
  FillSource,
  LedgerFill,
  LedgerPosition,
  Liquidity,
  MarketResolution,
  Settlement,
} from './types.js';
import type { Side } from '../core/order.js';

interface FillRow {
  seq: number;
  dedup_key: string;
  order_id: string | null;
  token_id: string;
  condition_id: string;
  side: Side;
  price: number;
  size: number;
  notional: number;
  fee: number;
  liquidity: Liquidity;
  source: FillSource;
  time_ms: number;
  recorded_at_ms: number;
  realized_delta: number;
}

interface PositionRow {
  token_id: string;
  condition_id: string;
  size: number;
  cost: number;
  realized: number;
  fees: number;
  bought: number;
  sold: number;
  pending_size: number;
  updated_at_ms: number;
}

interface ReversalRow {
  seq: number;
  trade_id: string;
  order_id: string;
  token_id: string;
  condition_id: string;
  side: Side;
  price: number;
  size: number;
  notional: number;
  fee: number;
  after_fill_seq: number;
  time_ms: number;
  recorded_at_ms: number;
  realized_delta: number;
}

/** A leg's reversal as trade-store.ts asks for it. */
export interface ReversalInput extends PnlReversal {
  readonly tradeId: string;
  readonly orderId: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly timeMs: number;
}

interface ResolutionRow {
  condition_id: string;
  winner_token_id: string | null;
  payouts_json: string;
  resolved_at_ms: number;
  recorded_at_ms: number;
}

interface SettlementRow {
  seq: number;
  condition_id: string;
  token_id: string;
  payout: number;
  size: number;
  proceeds: number;
  realized_delta: number;
  recorded_at_ms: number;
}

const FILL_SOURCES: readonly FillSource[] = ['placement', 'lookup', 'sim', 'backtest', 'trade'];

/** A resolution's arguments as every ledger checks them (InvariantError on a bad one). */
export function checkSettlement(
  conditionId: string,
  payouts: ReadonlyMap<string, Price>,
  winnerTokenId: string | null,
  resolvedAtMs: number,
): void {
  if (conditionId === '') throw new InvariantError('resolution of an empty condition id');
  if (!Number.isSafeInteger(resolvedAtMs))
    throw new InvariantError(`resolution of ${conditionId}: bad time ${String(resolvedAtMs)}`);
  if (winnerTokenId !== null && winnerTokenId === '')
    throw new InvariantError(`resolution of ${conditionId}: empty winner token id`);
  for (const [token, p] of payouts) {
    if (!Number.isSafeInteger(p) || p < 0 || p > SCALE)
      throw new InvariantError(`payout of ${token} outside [0, 1]: ${String(p)}`);
  }
}

export class FillStore {
  private readonly selectFillByKey;
  private readonly insertFill;
  private readonly selectFills;
  private readonly selectLastSeq;
  private readonly selectFillsOfOrder;
  private readonly selectPosition;
  private readonly selectPositions;
  private readonly selectOpenPositions;
  private readonly selectConditionPositions;
  private readonly upsertPosition;
  private readonly selectResolution;
  private readonly insertResolution;
  private readonly insertSettlement;
  private readonly selectResolutions;
  private readonly selectSettlements;
  private readonly selectSettlementsOf;
  private readonly selectFillBySeq;
  private readonly updatePending;
  private readonly zeroPending;
  private readonly insertReversal;
  private readonly selectReversals;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
    private readonly orders: OrderStore,
  ) {
    this.selectFillByKey = db.prepare<[string], FillRow>('SELECT * FROM fills WHERE dedup_key = ?');
    this.insertFill = db.prepare<Omit<FillRow, 'seq'>>(
      `INSERT INTO fills (dedup_key, order_id, token_id, condition_id, side, price, size, notional, fee, liquidity,
          source, time_ms, recorded_at_ms, realized_delta)
        VALUES (@dedup_key, @order_id, @token_id, @condition_id, @side, @price, @size, @notional, @fee, @liquidity,
          @source, @time_ms, @recorded_at_ms, @realized_delta)`,
    );
    this.selectFills = db.prepare<[number, number], FillRow>('SELECT * FROM fills WHERE seq > ? ORDER BY seq LIMIT ?');
    this.selectLastSeq = db.prepare<[], number | null>('SELECT max(seq) FROM fills').pluck();
    this.selectFillsOfOrder = db.prepare<[string], FillRow>('SELECT * FROM fills WHERE order_id = ? ORDER BY seq');
    this.selectPosition = db.prepare<[string], PositionRow>('SELECT * FROM positions WHERE token_id = ?');
    this.selectPositions = db.prepare<[], PositionRow>('SELECT * FROM positions ORDER BY token_id');
    this.selectOpenPositions = db.prepare<[], PositionRow>('SELECT * FROM positions WHERE size != 0 ORDER BY token_id');
    this.selectConditionPositions = db.prepare<[string], PositionRow>(
      'SELECT * FROM positions WHERE condition_id = ? ORDER BY token_id',
    );
    this.upsertPosition = db.prepare<Omit<PositionRow, 'pending_size'>>(
      `INSERT INTO positions (token_id, condition_id, size, cost, realized, fees, bought, sold, updated_at_ms)
        VALUES (@token_id, @condition_id, @size, @cost, @realized, @fees, @bought, @sold, @updated_at_ms)
        ON CONFLICT (token_id) DO UPDATE SET size = excluded.size, cost = excluded.cost, realized = excluded.realized,
          fees = excluded.fees, bought = excluded.bought, sold = excluded.sold, updated_at_ms = excluded.updated_at_ms`,
    );
    this.selectResolution = db.prepare<[string], ResolutionRow>(
      'SELECT * FROM market_resolutions WHERE condition_id = ?',
    );
    this.insertResolution = db.prepare<ResolutionRow>(
      `INSERT INTO market_resolutions (condition_id, winner_token_id, payouts_json, resolved_at_ms, recorded_at_ms)
        VALUES (@condition_id, @winner_token_id, @payouts_json, @resolved_at_ms, @recorded_at_ms)`,
    );
    this.insertSettlement = db.prepare<[string, string, number, number, number, number, number]>(
      `INSERT INTO settlements (condition_id, token_id, payout, size, proceeds, realized_delta, recorded_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectResolutions = db.prepare<[], ResolutionRow>(
      'SELECT * FROM market_resolutions ORDER BY resolved_at_ms, condition_id',
    );
    this.selectSettlements = db.prepare<[], SettlementRow>('SELECT * FROM settlements ORDER BY seq');
    this.selectSettlementsOf = db.prepare<[string], SettlementRow>(
      'SELECT * FROM settlements WHERE condition_id = ? ORDER BY seq',
    );
    this.selectFillBySeq = db.prepare<[number], FillRow>('SELECT * FROM fills WHERE seq = ?');
    this.updatePending = db.prepare<[number, string]>(
      'UPDATE positions SET pending_size = pending_size + ? WHERE token_id = ?',
    );
    this.zeroPending = db.prepare<[string]>('UPDATE positions SET pending_size = 0 WHERE token_id = ?');
    this.insertReversal = db.prepare<Omit<ReversalRow, 'seq'>>(
      `INSERT INTO fill_reversals (trade_id, order_id, token_id, condition_id, side, price, size, notional, fee, after_fill_seq,
          time_ms, recorded_at_ms, realized_delta)
        VALUES (@trade_id, @order_id, @token_id, @condition_id, @side, @price, @size, @notional, @fee, @after_fill_seq,
          @time_ms, @recorded_at_ms, @realized_delta)`,
    );
    this.selectReversals = db.prepare<[number, number], ReversalRow>(
      'SELECT * FROM fill_reversals WHERE seq > ? ORDER BY seq LIMIT ?',
    );
  }

  /**
   * Records a fill; false when its dedup key is already recorded (with the same contents).
   * `loaded` is the fill's order row when the caller holds it: it is updated in place.
   */
  record(f: FillInput, loaded?: OrderRow): boolean {
    return this.insert(f, loaded) !== null;
  }

  /** As record(), returning the fill written (null when its key was already recorded). */
  insert(f: FillInput, loaded?: OrderRow): LedgerFill | null {
    validateFill(f);
    const orderId = f.orderId ?? null;
    const existing = this.selectFillByKey.get(f.dedupKey);
    if (existing !== undefined) {
      if (!sameFill(existing, f, orderId)) {
        throw new InvariantError(`fill ${f.dedupKey} is already recorded with other contents`);
      }
      return null;
    }
    if (orderId !== null) {
      const order = loaded !== undefined && loaded.id === orderId ? loaded : this.orders.row(orderId);
      if (order !== undefined) {
        if (order.token_id !== f.tokenId || order.side !== f.side) {
          throw new InvariantError(
            `fill ${f.dedupKey} (${f.side} ${f.tokenId}) does not match order ${orderId} (${order.side} ${order.token_id})`,
          );
        }
        this.orders.addMatched(order, f.size);
      }
    }
    const now = this.clock.now();
    const before = this.loadPosition(f.tokenId, f.conditionId);
    const effect = applyFill(before, {
      side: f.side,
      price: f.price,
      size: f.size,
      feeMicros: f.feeMicros,
      ...(f.notional === undefined ? {} : { notional: f.notional }),
    });
    const row: Omit<FillRow, 'seq'> = {
      dedup_key: f.dedupKey,
      order_id: orderId,
      token_id: f.tokenId,
      condition_id: f.conditionId,
      side: f.side,
      price: f.price,
      size: f.size,
      notional: effect.notional,
      fee: f.feeMicros,
      liquidity: f.liquidity,
      source: f.source,
      time_ms: f.timeMs,
      recorded_at_ms: now,
      realized_delta: effect.realizedDelta,
    };
    const seq = Number(this.insertFill.run(row).lastInsertRowid);
    this.savePosition(f.tokenId, f.conditionId, effect.position, now);
    const resolution = this.selectResolution.get(f.conditionId);
    // A fill of an order is pending until the trade leg holding its shares is final (a resolved
    // market's settlement zeroes it).
    if (resolution !== undefined) this.settleToken(resolution, f.tokenId, f.conditionId, effect.position, now);
    else if (orderId !== null) this.updatePending.run(signed(f.side, f.size), f.tokenId);
    return toFill({ ...row, seq });
  }

  fillBySeq(seq: number): LedgerFill | null {
    const r = this.selectFillBySeq.get(seq);
    return r === undefined ? null : toFill(r);
  }

  /** Moves a position's pending shares by `delta` (signed); 0 in a resolved market. */
  addPending(tokenId: string, conditionId: string, delta: number): void {
    if (this.selectResolution.get(conditionId) !== undefined) this.zeroPending.run(tokenId);
    else if (delta !== 0) this.updatePending.run(delta, tokenId);
  }

  /**
   * Undoes a FAILED leg's shares in the position (pnl.ts reverseFill) and writes the reversal
   * row; the caller (trade-store.ts) makes sure it happens once per leg. Settled at once in a
   * resolved market, as a late fill is.
   */
  reverse(r: ReversalInput): FillReversal {
    if (!Number.isSafeInteger(r.size) || r.size <= 0)
      throw new InvariantError(`reversal of ${r.tradeId}/${r.orderId}: bad size ${String(r.size)}`);
    const now = this.clock.now();
    const before = this.loadPosition(r.tokenId, r.conditionId);
    const effect = reverseFill(before, r);
    const row: Omit<ReversalRow, 'seq'> = {
      trade_id: r.tradeId,
      order_id: r.orderId,
      token_id: r.tokenId,
      condition_id: r.conditionId,
      side: r.side,
      price: r.price,
      size: r.size,
      notional: r.notional,
      fee: r.feeMicros,
      after_fill_seq: this.selectLastSeq.get() ?? 0,
      time_ms: r.timeMs,
      recorded_at_ms: now,
      realized_delta: effect.realizedDelta,
    };
    const seq = Number(this.insertReversal.run(row).lastInsertRowid);
    this.savePosition(r.tokenId, r.conditionId, effect.position, now);
    const resolution = this.selectResolution.get(r.conditionId);
    if (resolution !== undefined) this.settleToken(resolution, r.tokenId, r.conditionId, effect.position, now);
    return toReversal({ ...row, seq });
  }

  /** Reversals in record order, after sequence number `afterSeq`. */
  reversals(afterSeq: number, limit: number): FillReversal[] {
    return this.selectReversals.all(afterSeq, limit).map(toReversal);
  }

  /**
   * Records what a cumulative matched size adds over the order's recorded fills. Returns the
   * increment (0 when the observation is not new).
   */
  recordCumulative(order: OrderRow, sizeMatched: Shares, opts: CumulativeMatchOptions): Shares {
    if (!Number.isSafeInteger(sizeMatched) || sizeMatched < 0) {
      throw new InvariantError(`order ${order.id}: bad cumulative matched size ${String(sizeMatched)}`);
    }
    if (sizeMatched > order.size) {
      throw new InvariantError(
        `order ${order.id}: matched ${sizeMatched / SCALE} exceeds its size ${order.size / SCALE}`,
      );
    }
    const increment = sizeMatched - order.size_matched;
    if (increment <= 0) return 0 as Shares;
    const recorded = this.record(
      {
        orderId: order.id,
        tokenId: order.token_id,
        conditionId: order.condition_id,
        side: order.side,
        price: opts.price ?? (order.price as Price),
        size: increment as Shares,
        feeMicros: opts.feeMicros ?? (0 as Micros),
        liquidity: opts.liquidity ?? 'maker',
        timeMs: opts.timeMs ?? this.clock.now(),
        source: opts.source ?? 'lookup',
        dedupKey: `${order.id}@${sizeMatched}`,
        ...(opts.notional === undefined ? {} : { notional: opts.notional }),
      },
      order,
    );
    return (recorded ? increment : 0) as Shares;
  }

  /**
   * Records the part of an order matched on arrival, from the placement result's amounts (BUY:
   * making = collateral, taking = shares; SELL: the reverse). Returns the increment.
   */
  recordPlacementMatch(
    order: OrderRow,
    makingAmount: number,
    takingAmount: number,
    feeMicros: Micros,
    timeMs: number,
  ): Shares {
    const [collateral, shares] = order.side === 'BUY' ? [makingAmount, takingAmount] : [takingAmount, makingAmount];
    if (shares <= 0) return 0 as Shares;
    // Matched amounts exceed what the ledger knows only on the first report; a later lookup that
    // already recorded more makes this a no-op.
    if (shares <= order.size_matched) return 0 as Shares;
    // The exact collateral belongs to the whole matched amount; when a part was already recorded
    // (a lookup answered first), the rest is priced at the implied average price.
    const px = impliedPrice(order.side, makingAmount, takingAmount).price as Price;
    return this.recordCumulative(order, shares as Shares, {
      price: px,
      ...(order.size_matched === 0 ? { notional: collateral as Micros } : {}),
      feeMicros,
      liquidity: 'taker',
      timeMs,
      source: 'placement',
    });
  }

  fills(afterSeq: number, limit: number): LedgerFill[] {
    // The daemon asks every cycle and there is rarely anything new: max(seq) answers that in a
    // tenth of the time the range query takes to come back empty.
    const last = this.selectLastSeq.get();
    if (last === undefined || last === null || last <= afterSeq) return [];
    return this.selectFills.all(afterSeq, limit).map(toFill);
  }

  fillsOfOrder(orderId: string): LedgerFill[] {
    return this.selectFillsOfOrder.all(orderId).map(toFill);
  }

  position(tokenId: string): LedgerPosition | null {
    const r = this.selectPosition.get(tokenId);
    return r === undefined ? null : toPosition(r);
  }

  positions(openOnly: boolean): LedgerPosition[] {
    return (openOnly ? this.selectOpenPositions : this.selectPositions).all().map(toPosition);
  }

  /**
   * Resolves a market: every position of the condition is closed at its payout (tokens absent from
   * `payouts` pay 0). Resolving again with the same payouts is a no-op (returns []), whatever
   * time it names; with other payouts, an InvariantError.
   */
  settle(
    conditionId: string,
    payouts: ReadonlyMap<string, Price>,
    winnerTokenId: string | null,
    resolvedAtMs: number,
  ): Settlement[] {
    checkSettlement(conditionId, payouts, winnerTokenId, resolvedAtMs);
    const payoutsJson = JSON.stringify([...payouts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const existing = this.selectResolution.get(conditionId);
    if (existing !== undefined) {
      if (existing.payouts_json !== payoutsJson || existing.winner_token_id !== winnerTokenId) {
        throw new InvariantError(`market ${conditionId} is already resolved with other payouts`);
      }
      return [];
    }
    const now = this.clock.now();
    const resolution: ResolutionRow = {
      condition_id: conditionId,
      winner_token_id: winnerTokenId,
      payouts_json: payoutsJson,
      resolved_at_ms: resolvedAtMs,
      recorded_at_ms: now,
    };
    this.insertResolution.run(resolution);
    const out: Settlement[] = [];
    for (const r of this.selectConditionPositions.all(conditionId)) {
      const s = this.settleToken(resolution, r.token_id, conditionId, rowToState(r), now);
      if (s !== null) out.push(s);
    }
    return out;
  }

  private settleToken(
    res: ResolutionRow,
    tokenId: string,
    conditionId: string,
    pos: PositionState,
    now: number,
  ): Settlement | null {
    // A resolved market holds nothing, so nothing of it is pending.
    this.zeroPending.run(tokenId);
    if (pos.size === 0) return null;
    const payout = payoutOf(res, tokenId);
    const effect = settlePosition(pos, payout);
    const r = this.insertSettlement.run(
      conditionId,
      tokenId,
      payout,
      effect.size,
      effect.proceeds,
      effect.realizedDelta,
      now,
    );
    this.savePosition(tokenId, conditionId, effect.position, now);
    return {
      seq: Number(r.lastInsertRowid),
      conditionId,
      tokenId,
      payout,
      size: effect.size,
      proceeds: effect.proceeds,
      realizedDelta: effect.realizedDelta,
      recordedAtMs: now,
    };
  }

  resolution(conditionId: string): MarketResolution | null {
    const r = this.selectResolution.get(conditionId);
    return r === undefined ? null : toResolution(r);
  }

  /** Every resolved market, by resolution time (then condition id). */
  resolutions(): MarketResolution[] {
    return this.selectResolutions.all().map(toResolution);
  }

  /** Settlement rows in record order, of one market or of all. */
  settlements(conditionId?: string): Settlement[] {
    const rows = conditionId === undefined ? this.selectSettlements.all() : this.selectSettlementsOf.all(conditionId);
    return rows.map((r) => ({
      seq: r.seq,
      conditionId: r.condition_id,
      tokenId: r.token_id,
      payout: r.payout as Price,
      size: r.size as Shares,
      proceeds: r.proceeds as Micros,
      realizedDelta: r.realized_delta as Micros,
      recordedAtMs: r.recorded_at_ms,
    }));
  }

  private loadPosition(tokenId: string, conditionId: string): PositionState {
    const r = this.selectPosition.get(tokenId);
    if (r === undefined) return FLAT;
    if (r.condition_id !== conditionId) {
      throw new InvariantError(`token ${tokenId} belongs to condition ${r.condition_id}, not ${conditionId}`);
    }
    return rowToState(r);
  }

  private savePosition(tokenId: string, conditionId: string, p: PositionState, now: number): void {
    this.upsertPosition.run({
      token_id: tokenId,
      condition_id: conditionId,
      size: p.size,
      cost: p.cost,
      realized: p.realized,
      fees: p.fees,
      bought: p.bought,
      sold: p.sold,
      updated_at_ms: now,
    });
  }
}

function toResolution(r: ResolutionRow): MarketResolution {
  const payouts = (JSON.parse(r.payouts_json) as [string, number][]).map(([t, p]) => [t, p as Price] as const);
  return {
    conditionId: r.condition_id,
    winnerTokenId: r.winner_token_id,
    payouts,
    resolvedAtMs: r.resolved_at_ms,
    recordedAtMs: r.recorded_at_ms,
  };
}

function payoutOf(res: ResolutionRow, tokenId: string): Price {
  const entries = JSON.parse(res.payouts_json) as [string, number][];
  for (const [t, p] of entries) if (t === tokenId) return p as Price;
  return 0 as Price;
}

function validateFill(f: FillInput): void {
  if (f.dedupKey === '') throw new InvariantError('fill dedup key is empty');
  if (f.tokenId === '' || f.conditionId === '')
    throw new InvariantError(`fill ${f.dedupKey}: empty token or condition id`);
  if (f.side !== 'BUY' && f.side !== 'SELL') throw new InvariantError(`fill ${f.dedupKey}: bad side ${String(f.side)}`);
  if (f.liquidity !== 'maker' && f.liquidity !== 'taker')
    throw new InvariantError(`fill ${f.dedupKey}: bad liquidity ${String(f.liquidity)}`);
  if (!FILL_SOURCES.includes(f.source)) throw new InvariantError(`fill ${f.dedupKey}: bad source ${String(f.source)}`);
  if (!Number.isSafeInteger(f.timeMs)) throw new InvariantError(`fill ${f.dedupKey}: bad time ${String(f.timeMs)}`);
}

function sameFill(r: FillRow, f: FillInput, orderId: string | null): boolean {
  return (
    r.order_id === orderId &&
    r.token_id === f.tokenId &&
    r.side === f.side &&
    r.price === f.price &&
    r.size === f.size &&
    r.fee === f.feeMicros
  );
}

function rowToState(r: PositionRow): PositionState {
  return {
    size: r.size as Shares,
    cost: r.cost as Micros,
    realized: r.realized as Micros,
    fees: r.fees as Micros,
    bought: r.bought as Shares,
    sold: r.sold as Shares,
  };
}

function toPosition(r: PositionRow): LedgerPosition {
  const s = rowToState(r);
  return {
    tokenId: r.token_id,
    conditionId: r.condition_id,
    size: s.size,
    cost: s.cost,
    avgPrice: averagePrice(s),
    realized: s.realized,
    fees: s.fees,
    bought: s.bought,
    sold: s.sold,
    pendingSize: r.pending_size as Shares,
    updatedAtMs: r.updated_at_ms,
  };
}

/** Shares with the sign of the side's effect on a position. */
export function signed(side: Side, size: number): number {
  return side === 'BUY' ? size : -size;
}

function toReversal(r: ReversalRow): FillReversal {
  return {
    seq: r.seq,
    tradeId: r.trade_id,
    orderId: r.order_id,
    tokenId: r.token_id,
    conditionId: r.condition_id,
    side: r.side,
    price: r.price as Price,
    size: r.size as Shares,
    notional: r.notional as Micros,
    feeMicros: r.fee as Micros,
    afterFillSeq: r.after_fill_seq,
    timeMs: r.time_ms,
    recordedAtMs: r.recorded_at_ms,
    realizedDelta: r.realized_delta as Micros,
  };
}

function toFill(r: FillRow): LedgerFill {
  return {
    seq: r.seq,
    dedupKey: r.dedup_key,
    orderId: r.order_id,
    tokenId: r.token_id,
    conditionId: r.condition_id,
    side: r.side,
    price: r.price as Price,
    size: r.size as Shares,
    notional: r.notional as Micros,
    feeMicros: r.fee as Micros,
    liquidity: r.liquidity,
    source: r.source,
    timeMs: r.time_ms,
    recordedAtMs: r.recorded_at_ms,
    realizedDelta: r.realized_delta as Micros,
  };
}

// Our legs of the exchange's trades (GET /data/trades) with their settlement status, in SQLite
// (table trade_legs, migration 7). Two sources report the same shares of an order: its lookups
// (cumulative size_matched, fill-store.ts recordCumulative: one fill per increment, no trade id)
// and its trade legs (one per trade, with price, fee and status). They are reconciled per order:
//
//   pool(order) = Σ size of the order's fills not made by a leg (lookups, placement answers)
//               − Σ claimed_size of its legs
//
// is the order's shares that lookups recorded and no leg has claimed yet. Invariants kept:
// - no double count, either way round. A new leg first claims min(leg, pool) shares (no new fill,
//   no position effect: they are booked already) and records only the rest as a fill (source
//   'trade', key `trade:<trade id>:<order id>`), which raises the order's size_matched; a later
//   lookup records only what its cumulative size adds over size_matched, which counts the legs'
//   fills too (recordCumulative), so it never re-adds shares a leg recorded. Hence, per order,
//   size_matched = Σ fills = pool + Σ leg sizes, and when every leg is known the pool is empty;
// - a claim carries the collateral and fee those lookup fills booked for the claimed shares
//   (the pool's remaining notional and fee pro rata, the last claim takes the remainder exactly),
//   so what a reversal gives back is exactly what was booked, to the millionth;
// - one row per (trade id, order id): a leg reported again only moves its status. Statuses go
//   MATCHED/MINED/RETRYING → CONFIRMED or FAILED; a final status never changes again (a report
//   contradicting it is `ignored`, nothing written). A leg first seen final goes through the
//   same steps (recorded pending, then made final) in the same transaction;
// - FAILED undoes the leg's shares in the position exactly once (fill-store.ts reverse: the
//   opposite of what was booked, fee refunded, realized PnL adjusted; a UNIQUE reversal row per
//   leg) and never touches the order's size_matched (the exchange keeps the match: a later lookup
//   must not book those shares again);
// - pending: every fill of an order enters the position's pending_size when recorded; a leg
//   leaves it (its whole size, claimed part included) when it becomes CONFIRMED or FAILED. So
//   pending_size = Σ signed fills of orders − Σ signed sizes of final legs (resolved markets: 0);
// - a leg's contents (token, side, price, size) never change; a report with others is an
//   InvariantError. A leg of an order the ledger does not know writes nothing (`unknown-order`).
// Callers (ledger.ts) run these inside a transaction.
import type Database from 'better-sqlite3';
import { isTerminalTradeStatus, TRADE_STATUSES, type TradeStatus } from '../core/account.js';
import type { Clock } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import { divRound, SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import { signed, type FillStore } from './fill-store.js';
import type { OrderStore } from './order-store.js';
import type { FillReversal, LedgerFill, LedgerTradeLeg, Liquidity, TradeLegInput, TradeLegOutcome } from './types.js';
import type { Side } from '../core/order.js';

interface LegRow {
  trade_id: string;
  order_id: string;
  token_id: string;
  condition_id: string;
  side: Side;
  price: number;
  size: number;
  fee: number;
  liquidity: Liquidity;
  status: TradeStatus;
  match_time_ms: number;
  last_update_ms: number;
  recorded_at_ms: number;
  status_at_ms: number;
  claimed_size: number;
  claimed_notional: number;
  claimed_fee: number;
  fill_seq: number | null;
  reversal_seq: number | null;
}

interface Sums {
  s: number;
  n: number;
  f: number;
}

const UNSETTLED_SQL = "status IN ('MATCHED', 'MINED', 'RETRYING')";

export class TradeStore {
  private readonly selectLeg;
  private readonly insertLeg;
  private readonly updateStatus;
  private readonly setReversal;
  private readonly selectLegsOfOrder;
  private readonly selectLegsOfTrade;
  private readonly selectLegs;
  private readonly poolFills;
  private readonly poolClaims;
  private readonly oldestUnsettled;
  private readonly latestMatch;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
    private readonly orders: OrderStore,
    private readonly fills: FillStore,
  ) {
    this.selectLeg = db.prepare<[string, string], LegRow>(
      'SELECT * FROM trade_legs WHERE trade_id = ? AND order_id = ?',
    );
    this.insertLeg = db.prepare<LegRow>(
      `INSERT INTO trade_legs (trade_id, order_id, token_id, condition_id, side, price, size, fee, liquidity, status,
          match_time_ms, last_update_ms, recorded_at_ms, status_at_ms, claimed_size, claimed_notional, claimed_fee, fill_seq, reversal_seq)
        VALUES (@trade_id, @order_id, @token_id, @condition_id, @side, @price, @size, @fee, @liquidity, @status,
          @match_time_ms, @last_update_ms, @recorded_at_ms, @status_at_ms, @claimed_size, @claimed_notional, @claimed_fee, @fill_seq, @reversal_seq)`,
    );
    this.updateStatus = db.prepare<[string, number, number, string, string]>(
      'UPDATE trade_legs SET status = ?, status_at_ms = ?, last_update_ms = max(last_update_ms, ?) WHERE trade_id = ? AND order_id = ?',
    );
    this.setReversal = db.prepare<[number, string, string]>(
      'UPDATE trade_legs SET reversal_seq = ? WHERE trade_id = ? AND order_id = ?',
    );
    this.selectLegsOfOrder = db.prepare<[string], LegRow>(
      'SELECT * FROM trade_legs WHERE order_id = ? ORDER BY match_time_ms, trade_id',
    );
    this.selectLegsOfTrade = db.prepare<[string], LegRow>(
      'SELECT * FROM trade_legs WHERE trade_id = ? ORDER BY order_id',
    );
    this.selectLegs = db.prepare<[], LegRow>('SELECT * FROM trade_legs ORDER BY match_time_ms, trade_id, order_id');
    this.poolFills = db.prepare<[string], Sums>(
      "SELECT coalesce(sum(size), 0) AS s, coalesce(sum(notional), 0) AS n, coalesce(sum(fee), 0) AS f FROM fills WHERE order_id = ? AND source != 'trade'",
    );
    this.poolClaims = db.prepare<[string], Sums>(
      'SELECT coalesce(sum(claimed_size), 0) AS s, coalesce(sum(claimed_notional), 0) AS n, coalesce(sum(claimed_fee), 0) AS f FROM trade_legs WHERE order_id = ?',
    );
    this.oldestUnsettled = db
      .prepare<[], number | null>(`SELECT min(match_time_ms) FROM trade_legs WHERE ${UNSETTLED_SQL}`)
      .pluck();
    this.latestMatch = db.prepare<[], number | null>('SELECT max(match_time_ms) FROM trade_legs').pluck();
  }

  /** Records a leg, or moves a known one to the status reported (see the header). */
  record(input: TradeLegInput): TradeLegOutcome {
    validateLeg(input);
    const known = this.selectLeg.get(input.tradeId, input.orderId);
    if (known !== undefined) {
      if (
        known.token_id !== input.tokenId ||
        known.price !== input.price ||
        known.size !== input.size ||
        (input.side !== null && input.side !== known.side)
      ) {
        throw new InvariantError(
          `trade ${input.tradeId}: leg of order ${input.orderId} is already recorded with other contents`,
        );
      }
      return this.move(known, input.status, input.lastUpdateMs, null);
    }
    const order = this.orders.row(input.orderId);
    if (order === undefined)
      return { result: 'unknown-order', leg: null, previousStatus: null, fill: null, reversal: null };
    const side = input.side ?? order.side;
    if (order.token_id !== input.tokenId || order.side !== side) {
      throw new InvariantError(
        `trade ${input.tradeId}: leg (${side} ${input.tokenId}) does not match order ${order.id} (${order.side} ${order.token_id})`,
      );
    }
    // Claim what lookups booked for this order and no leg has claimed yet.
    const got = this.poolFills.get(order.id) as Sums;
    const used = this.poolClaims.get(order.id) as Sums;
    const pool = { size: got.s - used.s, notional: got.n - used.n, fee: got.f - used.f };
    if (pool.size < 0) throw new InvariantError(`order ${order.id}: legs claimed more shares than its fills hold`);
    const claimed = Math.min(input.size, pool.size);
    const part = (v: number, rounding: 'floor' | 'ceil'): number =>
      claimed === pool.size ? v : Number(divRound(BigInt(v) * BigInt(claimed), BigInt(pool.size), rounding));
    // What stays in the pool is never understated: the claim rounds down.
    const claimedNotional = claimed === 0 ? 0 : part(pool.notional, 'floor');
    const claimedFee = claimed === 0 ? 0 : part(pool.fee, 'floor');
    const rest = input.size - claimed;
    let fill: LedgerFill | null = null;
    if (rest > 0) {
      // The leg's fee pro rata to the rest, rounded up (never understates what we paid).
      const fee =
        rest === input.size
          ? input.feeMicros
          : Number(divRound(BigInt(input.feeMicros) * BigInt(rest), BigInt(input.size), 'ceil'));
      fill = this.fills.insert(
        {
          orderId: order.id,
          tokenId: order.token_id,
          conditionId: order.condition_id,
          side,
          price: input.price,
          size: rest as Shares,
          feeMicros: fee as Micros,
          liquidity: input.liquidity,
          timeMs: input.matchTimeMs,
          source: 'trade',
          dedupKey: `trade:${input.tradeId}:${order.id}`,
        },
        order,
      );
      if (fill === null)
        throw new InvariantError(`trade ${input.tradeId}: a fill of order ${order.id}'s leg exists without its leg`);
    }
    const now = this.clock.now();
    const row: LegRow = {
      trade_id: input.tradeId,
      order_id: order.id,
      token_id: order.token_id,
      condition_id: order.condition_id,
      side,
      price: input.price,
      size: input.size,
      fee: input.feeMicros,
      liquidity: input.liquidity,
      // Recorded pending first; a final status is applied as a move (below), like any other.
      status: isTerminalTradeStatus(input.status) ? 'MATCHED' : input.status,
      match_time_ms: input.matchTimeMs,
      last_update_ms: input.lastUpdateMs,
      recorded_at_ms: now,
      status_at_ms: now,
      claimed_size: claimed,
      claimed_notional: claimedNotional,
      claimed_fee: claimedFee,
      fill_seq: fill?.seq ?? null,
      reversal_seq: null,
    };
    this.insertLeg.run(row);
    const moved = this.move(row, input.status, input.lastUpdateMs, fill);
    return { ...moved, result: 'recorded', previousStatus: null };
  }

  /** Moves a leg to `to` (see the header); `fill` is the fill this call recorded, if any. */
  private move(row: LegRow, to: TradeStatus, lastUpdateMs: number, fill: LedgerFill | null): TradeLegOutcome {
    const from = row.status;
    if (from === to || isTerminalTradeStatus(from)) {
      return {
        result: from === to ? 'unchanged' : 'ignored',
        leg: toLeg(row),
        previousStatus: from,
        fill,
        reversal: null,
      };
    }
    const now = this.clock.now();
    let reversal: FillReversal | null = null;
    if (to === 'FAILED') {
      const own = row.fill_seq === null ? null : this.fills.fillBySeq(row.fill_seq);
      if (row.fill_seq !== null && own === null)
        throw new InvariantError(
          `trade ${row.trade_id}: fill ${row.fill_seq} of order ${row.order_id}'s leg is missing`,
        );
      reversal = this.fills.reverse({
        tradeId: row.trade_id,
        orderId: row.order_id,
        tokenId: row.token_id,
        conditionId: row.condition_id,
        side: row.side,
        price: row.price as Price,
        size: row.size as Shares,
        notional: (row.claimed_notional + (own?.notional ?? 0)) as Micros,
        feeMicros: (row.claimed_fee + (own?.feeMicros ?? 0)) as Micros,
        timeMs: Math.max(lastUpdateMs, row.last_update_ms),
      });
      this.setReversal.run(reversal.seq, row.trade_id, row.order_id);
      row.reversal_seq = reversal.seq;
    }
    if (isTerminalTradeStatus(to)) this.fills.addPending(row.token_id, row.condition_id, -signed(row.side, row.size));
    this.updateStatus.run(to, now, lastUpdateMs, row.trade_id, row.order_id);
    row.status = to;
    row.status_at_ms = now;
    row.last_update_ms = Math.max(row.last_update_ms, lastUpdateMs);
    return { result: 'updated', leg: toLeg(row), previousStatus: from, fill, reversal };
  }

  /** Legs of one order, of one trade, or all, by match time. */
  legs(filter: { orderId?: string; tradeId?: string } = {}): LedgerTradeLeg[] {
    const rows =
      filter.orderId !== undefined
        ? this.selectLegsOfOrder
            .all(filter.orderId)
            .filter((r) => filter.tradeId === undefined || r.trade_id === filter.tradeId)
        : filter.tradeId !== undefined
          ? this.selectLegsOfTrade.all(filter.tradeId)
          : this.selectLegs.all();
    return rows.map(toLeg);
  }

  /** Match time of the oldest leg not yet final (MATCHED, MINED, RETRYING), or null. */
  oldestUnsettledMatchMs(): number | null {
    return this.oldestUnsettled.get() ?? null;
  }

  /** Match time of the latest leg recorded, or null. */
  latestMatchMs(): number | null {
    return this.latestMatch.get() ?? null;
  }
}

function validateLeg(l: TradeLegInput): void {
  const what = `trade ${l.tradeId} leg of ${l.orderId}`;
  if (l.tradeId === '' || l.orderId === '' || l.tokenId === '')
    throw new InvariantError(`${what}: empty trade, order or token id`);
  if (l.side !== null && l.side !== 'BUY' && l.side !== 'SELL')
    throw new InvariantError(`${what}: bad side ${String(l.side)}`);
  if (!Number.isSafeInteger(l.price) || l.price < 0 || l.price > SCALE)
    throw new InvariantError(`${what}: bad price ${String(l.price)}`);
  if (!Number.isSafeInteger(l.size) || l.size <= 0) throw new InvariantError(`${what}: bad size ${String(l.size)}`);
  if (!Number.isSafeInteger(l.feeMicros)) throw new InvariantError(`${what}: bad fee ${String(l.feeMicros)}`);
  if (l.liquidity !== 'maker' && l.liquidity !== 'taker')
    throw new InvariantError(`${what}: bad liquidity ${String(l.liquidity)}`);
  if (!TRADE_STATUSES.includes(l.status)) throw new InvariantError(`${what}: bad status ${String(l.status)}`);
  if (!Number.isSafeInteger(l.matchTimeMs) || !Number.isSafeInteger(l.lastUpdateMs))
    throw new InvariantError(`${what}: bad time`);
}

function toLeg(r: LegRow): LedgerTradeLeg {
  return {
    tradeId: r.trade_id,
    orderId: r.order_id,
    tokenId: r.token_id,
    conditionId: r.condition_id,
    side: r.side,
    price: r.price as Price,
    size: r.size as Shares,
    feeMicros: r.fee as Micros,
    liquidity: r.liquidity,
    status: r.status,
    matchTimeMs: r.match_time_ms,
    lastUpdateMs: r.last_update_ms,
    recordedAtMs: r.recorded_at_ms,
    statusAtMs: r.status_at_ms,
    claimedSize: r.claimed_size as Shares,
    claimedNotional: r.claimed_notional as Micros,
    claimedFee: r.claimed_fee as Micros,
    fillSeq: r.fill_seq,
    reversalSeq: r.reversal_seq,
  };
}

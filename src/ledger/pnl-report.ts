// PnL reports over the ledger's positions: mark to market, snapshots, and the day's PnL for the
// daily-loss kill switch. Invariants kept:
// - mark to market is the core's one rule (src/core/pnl-mark.ts): each held token at its mid
//   (value rounded down) minus its cost basis; a held token with no mid is listed in `unmarked`
//   and left out, never marked at a made-up price;
// - the day starts at UTC midnight; the day's PnL is the realized PnL recorded since midnight
//   (fills, reversals of failed trades and resolutions, fees included, by the ledger clock's record time) plus the change of
//   unrealized PnL since the baseline: the last snapshot taken at or before midnight, or 0 when
//   there is none (a ledger started today, where that is exact). A snapshot taken at midnight
//   makes the baseline exact; one taken earlier misses what the fills between it and midnight
//   did to unrealized PnL, so the daemon should snapshot often (or on the stroke of midnight).
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { Micros, Price } from '../core/money.js';
import { markToMarket } from '../core/pnl-mark.js';
import type { FillStore } from './fill-store.js';
import type { DailyPnl, LedgerPosition, MarkedPosition, MarkToMarket, PnlSnapshot } from './types.js';

/** The ledger's mark-to-market of `positions` at `mids` (unmarked tokens listed, never marked at 0), at `atMs`. */
export function markToMarketAt(
  positions: readonly LedgerPosition[],
  mids: ReadonlyMap<string, Price>,
  atMs: number,
): MarkToMarket {
  const m = markToMarket(positions, (t) => mids.get(t));
  return {
    atMs,
    positions: m.marked.map(({ position: p, mark, value, unrealized }): MarkedPosition => ({
      tokenId: p.tokenId,
      conditionId: p.conditionId,
      size: p.size,
      cost: p.cost,
      mark,
      value,
      unrealized,
    })),
    unrealized: m.unrealized,
    realized: m.realized,
    fees: m.fees,
    total: m.total,
    unmarked: m.unmarked.map((p) => p.tokenId),
  };
}

const DAY_MS = 86_400_000;

interface SnapshotRow {
  seq: number;
  at_ms: number;
  unrealized: number;
}

export class PnlReporter {
  private readonly insertSnapshot;
  private readonly selectBaseline;
  private readonly sumFillsSince;
  private readonly sumSettlementsSince;
  private readonly sumReversalsSince;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
    private readonly fills: FillStore,
  ) {
    this.insertSnapshot = db.prepare<[number, number, number, number, number, number, number, string]>(
      `INSERT INTO pnl_snapshots (at_ms, realized, unrealized, fees, total, open_positions, unmarked, detail_json)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectBaseline = db.prepare<[number], SnapshotRow>(
      'SELECT seq, at_ms, unrealized FROM pnl_snapshots WHERE at_ms <= ? ORDER BY at_ms DESC, seq DESC LIMIT 1',
    );
    this.sumFillsSince = db.prepare<[number], { s: number | null }>(
      'SELECT sum(realized_delta) AS s FROM fills WHERE recorded_at_ms >= ?',
    );
    this.sumSettlementsSince = db.prepare<[number], { s: number | null }>(
      'SELECT sum(realized_delta) AS s FROM settlements WHERE recorded_at_ms >= ?',
    );
    this.sumReversalsSince = db.prepare<[number], { s: number | null }>(
      'SELECT sum(realized_delta) AS s FROM fill_reversals WHERE recorded_at_ms >= ?',
    );
  }

  markToMarket(mids: ReadonlyMap<string, Price>): MarkToMarket {
    return markToMarketAt(this.fills.positions(false), mids, this.clock.now());
  }

  snapshot(mids: ReadonlyMap<string, Price>): PnlSnapshot {
    const m = this.markToMarket(mids);
    // Integers only: [token, size, cost, mark] per marked position.
    const detail = JSON.stringify({
      marked: m.positions.map((p) => [p.tokenId, p.size, p.cost, p.mark]),
      unmarked: m.unmarked,
    });
    const r = this.insertSnapshot.run(
      m.atMs,
      m.realized,
      m.unrealized,
      m.fees,
      m.total,
      m.positions.length + m.unmarked.length,
      m.unmarked.length,
      detail,
    );
    return { ...m, seq: Number(r.lastInsertRowid) };
  }

  daily(mids: ReadonlyMap<string, Price>): DailyPnl {
    const now = this.clock.now();
    const dayStartMs = Math.floor(now / DAY_MS) * DAY_MS;
    const realized =
      (this.sumFillsSince.get(dayStartMs)?.s ?? 0) +
      (this.sumSettlementsSince.get(dayStartMs)?.s ?? 0) +
      (this.sumReversalsSince.get(dayStartMs)?.s ?? 0);
    const baseline = this.selectBaseline.get(dayStartMs);
    const m = this.markToMarket(mids);
    const unrealizedChange = m.unrealized - (baseline?.unrealized ?? 0);
    return {
      dayStartMs,
      realized: realized as Micros,
      unrealizedChange: unrealizedChange as Micros,
      total: (realized + unrealizedChange) as Micros,
      baselineAtMs: baseline?.at_ms ?? null,
      unmarked: m.unmarked,
    };
  }
}

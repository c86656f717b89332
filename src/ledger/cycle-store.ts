// The quoting-cycle log. A daemon runs for weeks at a cycle every second or so, so raw rows are
// kept only for a retention window (3 days by default) and older ones are folded into one row per
// UTC hour (count, summed and maximum duration, summed counters and reward score), kept
// indefinitely (24 rows a day). The reward score (migration 4) is share millionths, an integer:
// the hour keeps its sum, so folding stays exact and the mean is sum / cycles.
// Invariants kept:
// - folding is one transaction: a raw row is either still raw or counted in its hour, never both
//   and never neither; folding an hour in several passes adds up (sums add, maxima max);
// - compaction runs every `compactEvery` recorded cycles, so recording stays one INSERT.
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { InvariantError } from '../core/errors.js';
import type { CycleHour, CycleInput, CycleRecord } from './types.js';

export const DEFAULT_CYCLE_RETENTION_MS = 3 * 86_400_000;
export const DEFAULT_COMPACT_EVERY = 1000;
const HOUR_MS = 3_600_000;

interface CycleRow {
  seq: number;
  started_at_ms: number;
  duration_ms: number;
  books: number;
  quotes: number;
  placed: number;
  cancelled: number;
  fills: number;
  errors: number;
  reward_score: number;
}

interface HourRow {
  hour_ms: number;
  cycles: number;
  duration_sum_ms: number;
  duration_max_ms: number;
  books: number;
  quotes: number;
  placed: number;
  cancelled: number;
  fills: number;
  errors: number;
  reward_score: number;
}

const COUNTERS = ['durationMs', 'books', 'quotes', 'placed', 'cancelled', 'fills', 'errors', 'rewardScore'] as const;

export class CycleStore {
  private readonly insert;
  private readonly fold;
  private readonly deleteBefore;
  private readonly selectRecent;
  private readonly selectHours;
  private readonly compactTx;
  private sinceCompact = 0;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly compactEvery: number,
  ) {
    this.insert = db.prepare<[number, number, number, number, number, number, number, number, number]>(
      `INSERT INTO cycles (started_at_ms, duration_ms, books, quotes, placed, cancelled, fills, errors, reward_score)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.fold = db.prepare<[number]>(
      `INSERT INTO cycles_hourly (hour_ms, cycles, duration_sum_ms, duration_max_ms, books, quotes, placed, cancelled, fills, errors, reward_score)
        SELECT (started_at_ms / ${HOUR_MS}) * ${HOUR_MS} AS h, count(*), sum(duration_ms), max(duration_ms),
          sum(books), sum(quotes), sum(placed), sum(cancelled), sum(fills), sum(errors), sum(reward_score)
        FROM cycles WHERE started_at_ms < ? GROUP BY h
        ON CONFLICT (hour_ms) DO UPDATE SET
          cycles = cycles + excluded.cycles,
          duration_sum_ms = duration_sum_ms + excluded.duration_sum_ms,
          duration_max_ms = max(duration_max_ms, excluded.duration_max_ms),
          books = books + excluded.books, quotes = quotes + excluded.quotes, placed = placed + excluded.placed,
          cancelled = cancelled + excluded.cancelled, fills = fills + excluded.fills, errors = errors + excluded.errors,
          reward_score = reward_score + excluded.reward_score`,
    );
    this.deleteBefore = db.prepare<[number]>('DELETE FROM cycles WHERE started_at_ms < ?');
    this.selectRecent = db.prepare<[number], CycleRow>('SELECT * FROM cycles ORDER BY seq DESC LIMIT ?');
    this.selectHours = db.prepare<[number], HourRow>('SELECT * FROM cycles_hourly WHERE hour_ms >= ? ORDER BY hour_ms');
    this.compactTx = db.transaction((cutoff: number): number => {
      this.fold.run(cutoff);
      return this.deleteBefore.run(cutoff).changes;
    });
  }

  record(c: CycleInput): void {
    if (!Number.isSafeInteger(c.startedAtMs))
      throw new InvariantError(`cycle start is not an integer: ${String(c.startedAtMs)}`);
    for (const k of COUNTERS) {
      const v = k === 'rewardScore' ? (c.rewardScore ?? 0) : c[k];
      if (!Number.isSafeInteger(v) || v < 0)
        throw new InvariantError(`cycle ${k} is not a non-negative integer: ${String(v)}`);
    }
    this.insert.run(
      c.startedAtMs,
      c.durationMs,
      c.books,
      c.quotes,
      c.placed,
      c.cancelled,
      c.fills,
      c.errors,
      c.rewardScore ?? 0,
    );
    if (++this.sinceCompact >= this.compactEvery) this.compact();
  }

  /** Folds raw rows older than the retention window into hourly rows; returns how many were folded. */
  compact(): number {
    this.sinceCompact = 0;
    return this.compactTx.immediate(this.clock.now() - this.retentionMs);
  }

  recent(limit: number): CycleRecord[] {
    return this.selectRecent.all(limit).map((r) => ({
      seq: r.seq,
      startedAtMs: r.started_at_ms,
      durationMs: r.duration_ms,
      books: r.books,
      quotes: r.quotes,
      placed: r.placed,
      cancelled: r.cancelled,
      fills: r.fills,
      errors: r.errors,
      rewardScore: r.reward_score,
    }));
  }

  hours(sinceMs: number): CycleHour[] {
    return this.selectHours.all(sinceMs).map((r) => ({
      hourMs: r.hour_ms,
      cycles: r.cycles,
      durationSumMs: r.duration_sum_ms,
      durationMaxMs: r.duration_max_ms,
      books: r.books,
      quotes: r.quotes,
      placed: r.placed,
      cancelled: r.cancelled,
      fills: r.fills,
      errors: r.errors,
      rewardScore: r.reward_score,
    }));
  }
}

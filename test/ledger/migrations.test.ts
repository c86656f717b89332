// Versioned migrations: a fresh file gets every version once, reopening changes nothing, an older
// (v1) database upgrades with its data intact, a v3 one gains the cycles' reward score (old rows
// read 0), a newer one is refused, and STRICT integer columns refuse floats.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from '../../src/ledger/migrations.js';
import { COND, fill, px, sh, signedOrder, T0, tempDir, YES } from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function tmpPath(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return join(t.dir, 'ledger.db');
}

function versions(path: string): { version: number; applied_at_ms: number }[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare<[], { version: number; applied_at_ms: number }>(
        'SELECT version, applied_at_ms FROM schema_version ORDER BY version',
      )
      .all();
  } finally {
    db.close();
  }
}

describe('ledger migrations', () => {
  it('has consecutive versions from 1', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('migrates a fresh file to the latest version, in WAL mode', () => {
    const path = tmpPath();
    const clock = new VirtualClock(T0);
    const l = Ledger.open(path, { clock });
    expect(l.migration).toEqual({ from: 0, to: LATEST_VERSION, applied: MIGRATIONS.map((m) => m.version) });
    l.close();
    expect(versions(path)).toEqual(MIGRATIONS.map((m) => ({ version: m.version, applied_at_ms: T0 })));
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('is idempotent on reopen and keeps the data', () => {
    const path = tmpPath();
    const clock = new VirtualClock(T0);
    const l1 = Ledger.open(path, { clock });
    l1.recordSignedOrder(signedOrder({ id: 'o1' }));
    l1.close();
    clock.advance(60_000);
    const l2 = Ledger.open(path, { clock });
    expect(l2.migration).toEqual({ from: LATEST_VERSION, to: LATEST_VERSION, applied: [] });
    expect(l2.order('o1')?.state).toBe('signed');
    l2.close();
    // No second set of rows, and the original times are kept.
    expect(versions(path).every((v) => v.applied_at_ms === T0)).toBe(true);
    expect(versions(path)).toHaveLength(LATEST_VERSION);
  });

  it('upgrades a v1 database, keeping its orders, fills and positions', () => {
    const path = tmpPath();
    // A database as the first release left it: only migration 1, with data written by hand in the
    // v1 shape (no resolutions, snapshots or cycles tables yet).
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrate(db, T0, 1)).toEqual({ from: 0, to: 1, applied: [1] });
    expect(schemaVersion(db)).toBe(1);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name);
    expect(tables).not.toContain('pnl_snapshots');
    expect(tables).not.toContain('cycles');
    db.prepare(
      `INSERT INTO orders (id, token_id, condition_id, side, price, size, order_type, salt, created_at_ms, state, state_at_ms, size_matched)
      VALUES ('old-1', ?, ?, 'BUY', 500000, 10000000, 'GTC', '7', ?, 'live', ?, 4000000)`,
    ).run(YES, COND, T0, T0);
    db.prepare(
      `INSERT INTO fills (dedup_key, order_id, token_id, condition_id, side, price, size, notional, fee, liquidity, source, time_ms, recorded_at_ms, realized_delta)
      VALUES ('old-1@4000000', 'old-1', ?, ?, 'BUY', 500000, 4000000, 2000000, 0, 'maker', 'lookup', ?, ?, 0)`,
    ).run(YES, COND, T0, T0);
    db.prepare(
      `INSERT INTO positions (token_id, condition_id, size, cost, realized, fees, bought, sold, updated_at_ms)
      VALUES (?, ?, 4000000, 2000000, 0, 0, 4000000, 0, ?)`,
    ).run(YES, COND, T0);
    db.close();

    const clock = new VirtualClock(T0 + 1000);
    const l = Ledger.open(path, { clock });
    expect(l.migration).toEqual({ from: 1, to: LATEST_VERSION, applied: MIGRATIONS.slice(1).map((m) => m.version) });
    expect(l.openOrders().map((o) => o.id)).toEqual(['old-1']);
    expect(l.position(YES)).toMatchObject({ size: 4_000_000, cost: 2_000_000, avgPrice: 500_000 });
    // The new tables work on the old data: a lookup continues the old order's fills, a snapshot is taken.
    expect(l.markLookup('old-1', { status: 'LIVE', sizeMatched: sh(6_000_000) }).newlyMatched).toBe(2_000_000);
    expect(l.pnlSnapshot(new Map([[YES, px(600_000)]])).unrealized).toBe(600_000);
    l.recordCycle({
      startedAtMs: T0,
      durationMs: 5,
      books: 1,
      quotes: 2,
      placed: 1,
      cancelled: 0,
      fills: 1,
      errors: 0,
    });
    expect(l.recentCycles()).toHaveLength(1);
    l.close();
    expect(versions(path).map((v) => v.applied_at_ms)).toEqual([T0, ...MIGRATIONS.slice(1).map(() => T0 + 1000)]);
  });

  it('upgrades a v3 database: cycles gain a reward score, 0 on old rows and old hours, folded as a sum', () => {
    const path = tmpPath();
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    expect(migrate(db, T0, 3)).toEqual({ from: 0, to: 3, applied: [1, 2, 3] });
    const cols = (t: string): string[] =>
      db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${t}')`)
        .all()
        .map((r) => r.name);
    expect(cols('cycles')).not.toContain('reward_score');
    // A cycle still raw and an hour already folded, in the v3 shape.
    db.prepare(
      `INSERT INTO cycles (started_at_ms, duration_ms, books, quotes, placed, cancelled, fills, errors)
      VALUES (?, 5, 2, 4, 1, 0, 0, 0)`,
    ).run(T0);
    db.prepare(
      `INSERT INTO cycles_hourly (hour_ms, cycles, duration_sum_ms, duration_max_ms, books, quotes, placed, cancelled, fills, errors)
      VALUES (?, 3, 15, 7, 6, 12, 3, 0, 0, 0)`,
    ).run(T0 - 3_600_000);
    db.close();

    const clock = new VirtualClock(T0 + 1000);
    const l = Ledger.open(path, { clock, cycleRetentionMs: 1_000, cycleCompactEvery: 1_000_000 });
    expect(l.migration).toEqual({
      from: 3,
      to: LATEST_VERSION,
      applied: MIGRATIONS.filter((m) => m.version > 3).map((m) => m.version),
    });
    expect(l.recentCycles()).toEqual([
      {
        seq: 1,
        startedAtMs: T0,
        durationMs: 5,
        books: 2,
        quotes: 4,
        placed: 1,
        cancelled: 0,
        fills: 0,
        errors: 0,
        rewardScore: 0,
      },
    ]);
    expect(l.cycleHours()).toEqual([expect.objectContaining({ hourMs: T0 - 3_600_000, cycles: 3, rewardScore: 0 })]);
    l.recordCycle({
      startedAtMs: T0 + 500,
      durationMs: 5,
      books: 2,
      quotes: 4,
      placed: 0,
      cancelled: 0,
      fills: 0,
      errors: 0,
      rewardScore: 10_000_000,
    });
    expect(l.recentCycles(1)[0]?.rewardScore).toBe(10_000_000);
    // Fold both raw rows (the old one scored 0) into the hour of T0: the sum.
    clock.advance(3_600_000);
    expect(l.compactCycles()).toBe(2);
    expect(l.cycleHours().find((h) => h.hourMs === T0)).toMatchObject({ cycles: 2, rewardScore: 10_000_000 });
    l.close();
  });

  it('refuses a database written by a newer version', () => {
    const path = tmpPath();
    const clock = new VirtualClock(T0);
    Ledger.open(path, { clock }).close();
    const db = new Database(path);
    db.prepare('INSERT INTO schema_version (version, description, applied_at_ms) VALUES (?, ?, ?)').run(
      LATEST_VERSION + 1,
      'from the future',
      T0,
    );
    db.close();
    expect(() => Ledger.open(path, { clock })).toThrow(expect.objectContaining({ code: 'LEDGER_SCHEMA_TOO_NEW' }));
  });

  it('a migration that fails leaves the previous version', () => {
    const db = new Database(':memory:');
    migrate(db, T0, 1);
    // Occupy a name migration 2 creates, so it fails halfway through its SQL.
    db.exec('CREATE TABLE pnl_snapshots (x INTEGER)');
    expect(() => migrate(db, T0)).toThrow();
    expect(schemaVersion(db)).toBe(1);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name);
    expect(tables).not.toContain('market_resolutions'); // created before the failing statement, rolled back
    db.close();
  });

  it('stores amounts as integers only (STRICT tables refuse a float)', () => {
    const db = new Database(':memory:');
    migrate(db, T0);
    expect(() =>
      db
        .prepare(
          `INSERT INTO positions (token_id, condition_id, size, cost, realized, fees, bought, sold, updated_at_ms)
      VALUES ('t', 'c', 1.5, 0, 0, 0, 0, 0, 0)`,
        )
        .run(),
    ).toThrow(/INTEGER/);
    // The reward score too is integer share millionths, never a REAL (nor negative).
    const cycle =
      db.prepare(`INSERT INTO cycles (started_at_ms, duration_ms, books, quotes, placed, cancelled, fills, errors, reward_score)
      VALUES (0, 0, 0, 0, 0, 0, 0, 0, ?)`);
    expect(() => cycle.run(8.888)).toThrow(/INTEGER/);
    expect(() => cycle.run(-1)).toThrow(/CHECK/);
    db.close();
  });

  it('creates the directory of a new ledger file', () => {
    const path = join(tmpPath(), '..', 'data', 'paper', 'ledger.db');
    const l = Ledger.open(path, { clock: new VirtualClock(T0), synchronous: 'NORMAL' });
    expect(l.path).toBe(path);
    expect(l.migration.to).toBe(LATEST_VERSION);
    l.close();
  });

  it('works in memory for backtests', () => {
    const clock = new VirtualClock(T0);
    const l = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    expect(l.recordFill(fill({ source: 'backtest' }))).toBe(true);
    expect(l.position(YES)?.size).toBe(1_000_000);
    l.close();
    expect(l.isOpen).toBe(false);
    l.close(); // idempotent
  });
});

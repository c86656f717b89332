// Versioned schema migrations of the ledger. Invariants kept:
// - the applied versions live in `schema_version` (one row per migration, with its time), so an
//   operator can see what ran when; versions are applied in order, each in its own transaction
//   together with its `schema_version` row, so a crash mid-migration leaves the previous version;
// - a migration, once released, is never edited: a change is a new migration appended here;
// - reopening a database at the latest version does nothing; a database written by a newer
//   version (unknown migrations applied) is refused rather than guessed at;
// - every amount column is INTEGER millionths, and the tables are STRICT so SQLite rejects a REAL
//   or a TEXT slipped into one.
import type Database from 'better-sqlite3';
import { LedgerError } from './errors.js';

export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
  /**
   * The migration rebuilds a table that others reference (SQLite cannot alter a CHECK): foreign
   * keys are switched off around its transaction, as SQLite's documented table-rebuild procedure
   * requires (a DROP TABLE with them on would cascade-delete the referencing rows), and checked
   * inside it before the commit.
   */
  readonly rebuildsTables?: boolean;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'orders with their events, fills, positions',
    sql: `
CREATE TABLE orders (
  id              TEXT PRIMARY KEY,
  token_id        TEXT NOT NULL,
  condition_id    TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price           INTEGER NOT NULL CHECK (price BETWEEN 0 AND 1000000),
  size            INTEGER NOT NULL CHECK (size > 0),
  order_type      TEXT NOT NULL,
  salt            TEXT NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('signed', 'sent', 'unknown', 'live', 'matched', 'canceled', 'rejected', 'not_found')),
  state_at_ms     INTEGER NOT NULL,
  size_matched    INTEGER NOT NULL DEFAULT 0 CHECK (size_matched BETWEEN 0 AND size),
  making_amount   INTEGER,
  taking_amount   INTEGER,
  exchange_status TEXT,
  error_msg       TEXT,
  strategy        TEXT,
  replaces        TEXT,
  meta_json       TEXT,
  signed_json     TEXT
) STRICT;
CREATE INDEX orders_open ON orders (state) WHERE state IN ('signed', 'sent', 'unknown', 'live');
CREATE INDEX orders_token ON orders (token_id);

CREATE TABLE order_events (
  seq      INTEGER PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  at_ms    INTEGER NOT NULL,
  state    TEXT NOT NULL,
  detail   TEXT
) STRICT;
CREATE INDEX order_events_order ON order_events (order_id, seq);

-- No foreign key to orders: simulated and backtest fills may have no ledger order, and pruning old
-- orders must keep the fills (they are the PnL history).
CREATE TABLE fills (
  seq            INTEGER PRIMARY KEY,
  dedup_key      TEXT NOT NULL UNIQUE,
  order_id       TEXT,
  token_id       TEXT NOT NULL,
  condition_id   TEXT NOT NULL,
  side           TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price          INTEGER NOT NULL CHECK (price BETWEEN 0 AND 1000000),
  size           INTEGER NOT NULL CHECK (size > 0),
  notional       INTEGER NOT NULL CHECK (notional >= 0),
  fee            INTEGER NOT NULL,
  liquidity      TEXT NOT NULL CHECK (liquidity IN ('maker', 'taker')),
  source         TEXT NOT NULL CHECK (source IN ('placement', 'lookup', 'sim', 'backtest', 'trade')),
  time_ms        INTEGER NOT NULL,
  recorded_at_ms INTEGER NOT NULL,
  realized_delta INTEGER NOT NULL
) STRICT;
CREATE INDEX fills_order ON fills (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX fills_recorded ON fills (recorded_at_ms);

CREATE TABLE positions (
  token_id      TEXT PRIMARY KEY,
  condition_id  TEXT NOT NULL,
  size          INTEGER NOT NULL CHECK (size >= 0),
  cost          INTEGER NOT NULL CHECK (cost >= 0),
  realized      INTEGER NOT NULL,
  fees          INTEGER NOT NULL,
  bought        INTEGER NOT NULL,
  sold          INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX positions_condition ON positions (condition_id);
`,
  },
  {
    version: 2,
    description: 'market resolutions, settlements, PnL snapshots',
    sql: `
CREATE TABLE market_resolutions (
  condition_id    TEXT PRIMARY KEY,
  winner_token_id TEXT,
  payouts_json    TEXT NOT NULL,
  resolved_at_ms  INTEGER NOT NULL
) STRICT;

CREATE TABLE settlements (
  seq            INTEGER PRIMARY KEY,
  condition_id   TEXT NOT NULL REFERENCES market_resolutions (condition_id),
  token_id       TEXT NOT NULL,
  payout         INTEGER NOT NULL CHECK (payout BETWEEN 0 AND 1000000),
  size           INTEGER NOT NULL CHECK (size >= 0),
  proceeds       INTEGER NOT NULL,
  realized_delta INTEGER NOT NULL,
  recorded_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX settlements_recorded ON settlements (recorded_at_ms);

CREATE TABLE pnl_snapshots (
  seq            INTEGER PRIMARY KEY,
  at_ms          INTEGER NOT NULL,
  realized       INTEGER NOT NULL,
  unrealized     INTEGER NOT NULL,
  fees           INTEGER NOT NULL,
  total          INTEGER NOT NULL,
  open_positions INTEGER NOT NULL,
  unmarked       INTEGER NOT NULL,
  detail_json    TEXT NOT NULL
) STRICT;
CREATE INDEX pnl_snapshots_at ON pnl_snapshots (at_ms);
`,
  },
  {
    version: 3,
    description: 'cycles, with hourly aggregates for rows past retention',
    sql: `
CREATE TABLE cycles (
  seq           INTEGER PRIMARY KEY,
  started_at_ms INTEGER NOT NULL,
  duration_ms   INTEGER NOT NULL,
  books         INTEGER NOT NULL,
  quotes        INTEGER NOT NULL,
  placed        INTEGER NOT NULL,
  cancelled     INTEGER NOT NULL,
  fills         INTEGER NOT NULL,
  errors        INTEGER NOT NULL
) STRICT;
CREATE INDEX cycles_started ON cycles (started_at_ms);

CREATE TABLE cycles_hourly (
  hour_ms         INTEGER PRIMARY KEY,
  cycles          INTEGER NOT NULL,
  duration_sum_ms INTEGER NOT NULL,
  duration_max_ms INTEGER NOT NULL,
  books           INTEGER NOT NULL,
  quotes          INTEGER NOT NULL,
  placed          INTEGER NOT NULL,
  cancelled       INTEGER NOT NULL,
  fills           INTEGER NOT NULL,
  errors          INTEGER NOT NULL
) STRICT;
`,
  },
  {
    version: 4,
    description: 'expected reward score per cycle, summed in the hourly aggregates',
    // The score (docs/protocol.md §6's Q_min of the cycle's accepted quotes, summed over markets) is not
    // money but shares × a unitless factor, a float in memory. It is stored as INTEGER share
    // millionths, rounded to the nearest, like every other quantity here: STRICT tables keep
    // refusing REALs, and hourly sums stay exact integers. The hourly row keeps the sum (as for
    // the other counters); the mean per cycle is reward_score / cycles. Rows written before this
    // version read 0 (they were never scored).
    sql: `
ALTER TABLE cycles ADD COLUMN reward_score INTEGER NOT NULL DEFAULT 0 CHECK (reward_score >= 0);
ALTER TABLE cycles_hourly ADD COLUMN reward_score INTEGER NOT NULL DEFAULT 0 CHECK (reward_score >= 0);
`,
  },
  {
    version: 5,
    description: 'resolution time apart from the time the ledger learned of it; settlements by market',
    // Until now `resolved_at_ms` was the ledger clock at the call. A market resolves at a time of
    // its own (the exchange's, or a recording's event) that the ledger may learn of much later, and
    // a backtest's report lists settlements at the resolution's time; so `resolved_at_ms` becomes
    // that time (callers default it to the clock, as before) and `recorded_at_ms` the ledger clock
    // when it was written. Rows written before this version had both equal: they are backfilled so.
    // Settlement rows keep their record time (the daily PnL counts realized PnL by record time).
    sql: `
ALTER TABLE market_resolutions ADD COLUMN recorded_at_ms INTEGER NOT NULL DEFAULT 0;
UPDATE market_resolutions SET recorded_at_ms = resolved_at_ms;
CREATE INDEX settlements_condition ON settlements (condition_id, seq);
`,
  },
  {
    version: 6,
    description: 'durable obligations: cancelling and closing order states; positions may be negative',
    // An order we cancel is written `cancelling` before the request and `closing` once the cancel
    // is answered; only the read of its final matched size makes it terminal (src/core/order-lifecycle.ts), so
    // startup reconciliation finds every order still owed a cancel or a read. Fills of one token
    // may be discovered out of order (a SELL's lookup before the BUY's that funded it), so a
    // position may be held below zero until the other fill arrives (pnl.ts): the non-negative
    // CHECKs on positions and settlements go. SQLite cannot alter a CHECK, so both tables are
    // rebuilt (rows copied as they are).
    rebuildsTables: true,
    sql: `
CREATE TABLE orders_v6 (
  id              TEXT PRIMARY KEY,
  token_id        TEXT NOT NULL,
  condition_id    TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price           INTEGER NOT NULL CHECK (price BETWEEN 0 AND 1000000),
  size            INTEGER NOT NULL CHECK (size > 0),
  order_type      TEXT NOT NULL,
  salt            TEXT NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('signed', 'sent', 'unknown', 'live', 'cancelling', 'closing', 'matched', 'canceled', 'rejected', 'not_found')),
  state_at_ms     INTEGER NOT NULL,
  size_matched    INTEGER NOT NULL DEFAULT 0 CHECK (size_matched BETWEEN 0 AND size),
  making_amount   INTEGER,
  taking_amount   INTEGER,
  exchange_status TEXT,
  error_msg       TEXT,
  strategy        TEXT,
  replaces        TEXT,
  meta_json       TEXT,
  signed_json     TEXT
) STRICT;
INSERT INTO orders_v6 SELECT * FROM orders;
DROP TABLE orders;
ALTER TABLE orders_v6 RENAME TO orders;
CREATE INDEX orders_open ON orders (state) WHERE state IN ('signed', 'sent', 'unknown', 'live', 'cancelling', 'closing');
CREATE INDEX orders_token ON orders (token_id);

CREATE TABLE positions_v6 (
  token_id      TEXT PRIMARY KEY,
  condition_id  TEXT NOT NULL,
  size          INTEGER NOT NULL,
  cost          INTEGER NOT NULL,
  realized      INTEGER NOT NULL,
  fees          INTEGER NOT NULL,
  bought        INTEGER NOT NULL CHECK (bought >= 0),
  sold          INTEGER NOT NULL CHECK (sold >= 0),
  updated_at_ms INTEGER NOT NULL
) STRICT;
INSERT INTO positions_v6 SELECT * FROM positions;
DROP TABLE positions;
ALTER TABLE positions_v6 RENAME TO positions;
CREATE INDEX positions_condition ON positions (condition_id);

CREATE TABLE settlements_v6 (
  seq            INTEGER PRIMARY KEY,
  condition_id   TEXT NOT NULL REFERENCES market_resolutions (condition_id),
  token_id       TEXT NOT NULL,
  payout         INTEGER NOT NULL CHECK (payout BETWEEN 0 AND 1000000),
  size           INTEGER NOT NULL,
  proceeds       INTEGER NOT NULL,
  realized_delta INTEGER NOT NULL,
  recorded_at_ms INTEGER NOT NULL
) STRICT;
INSERT INTO settlements_v6 SELECT * FROM settlements;
DROP TABLE settlements;
ALTER TABLE settlements_v6 RENAME TO settlements;
CREATE INDEX settlements_recorded ON settlements (recorded_at_ms);
CREATE INDEX settlements_condition ON settlements (condition_id, seq);
`,
  },
  {
    version: 7,
    description:
      'trade legs with their settlement status, fill reversals of failed trades, pending shares per position',
    // The exchange's trades route (GET /data/trades) reports each trade of ours with a settlement
    // status (MATCHED, MINED, RETRYING → CONFIRMED or FAILED). `trade_legs` holds one row per
    // (trade, order of ours): the part of the leg whose shares order lookups had already recorded
    // (`claimed_*`, with the collateral and fee those fills booked for them) and the fill the leg
    // recorded for the rest (`fill_seq`, source 'trade', or null). A FAILED leg is undone once by a
    // `fill_reversals` row (UNIQUE per leg), applied to the position as the opposite of what was
    // booked for its shares; `after_fill_seq` places it among the fills for a replay. Orders keep
    // their size_matched (the exchange keeps the match). `positions.pending_size` is the signed
    // part of `size` whose trade is not final: every fill of an order enters it, a leg leaves it
    // when CONFIRMED or FAILED. Existing rows are backfilled so (no leg is known yet, so every
    // order's fills are pending), except in resolved markets, which hold nothing.
    sql: `
CREATE TABLE trade_legs (
  trade_id         TEXT NOT NULL,
  order_id         TEXT NOT NULL,
  token_id         TEXT NOT NULL,
  condition_id     TEXT NOT NULL,
  side             TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price            INTEGER NOT NULL CHECK (price BETWEEN 0 AND 1000000),
  size             INTEGER NOT NULL CHECK (size > 0),
  fee              INTEGER NOT NULL,
  liquidity        TEXT NOT NULL CHECK (liquidity IN ('maker', 'taker')),
  status           TEXT NOT NULL CHECK (status IN ('MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED')),
  match_time_ms    INTEGER NOT NULL,
  last_update_ms   INTEGER NOT NULL,
  recorded_at_ms   INTEGER NOT NULL,
  status_at_ms     INTEGER NOT NULL,
  claimed_size     INTEGER NOT NULL CHECK (claimed_size BETWEEN 0 AND size),
  claimed_notional INTEGER NOT NULL CHECK (claimed_notional >= 0),
  claimed_fee      INTEGER NOT NULL,
  fill_seq         INTEGER,
  reversal_seq     INTEGER,
  PRIMARY KEY (trade_id, order_id)
) STRICT;
CREATE INDEX trade_legs_order ON trade_legs (order_id);
CREATE INDEX trade_legs_match ON trade_legs (match_time_ms);
CREATE INDEX trade_legs_unsettled ON trade_legs (match_time_ms) WHERE status IN ('MATCHED', 'MINED', 'RETRYING');

CREATE TABLE fill_reversals (
  seq            INTEGER PRIMARY KEY,
  trade_id       TEXT NOT NULL,
  order_id       TEXT NOT NULL,
  token_id       TEXT NOT NULL,
  condition_id   TEXT NOT NULL,
  side           TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price          INTEGER NOT NULL CHECK (price BETWEEN 0 AND 1000000),
  size           INTEGER NOT NULL CHECK (size > 0),
  notional       INTEGER NOT NULL CHECK (notional >= 0),
  fee            INTEGER NOT NULL,
  after_fill_seq INTEGER NOT NULL,
  time_ms        INTEGER NOT NULL,
  recorded_at_ms INTEGER NOT NULL,
  realized_delta INTEGER NOT NULL,
  UNIQUE (trade_id, order_id)
) STRICT;
CREATE INDEX fill_reversals_recorded ON fill_reversals (recorded_at_ms);

ALTER TABLE positions ADD COLUMN pending_size INTEGER NOT NULL DEFAULT 0;
UPDATE positions SET pending_size = coalesce((
    SELECT sum(CASE f.side WHEN 'BUY' THEN f.size ELSE -f.size END) FROM fills f
    WHERE f.token_id = positions.token_id AND f.order_id IS NOT NULL), 0)
  WHERE condition_id NOT IN (SELECT condition_id FROM market_resolutions);
`,
  },
  {
    version: 8,
    description: 'the exchange and account the ledger belongs to',
    // One row at most (id = 1): which exchange (the CLOB URL, or `sandbox` with the in-process
    // simulator's seed and run id), dialect and account the ledger's orders, fills and positions
    // are of, written by the first daemon that opens it (identity.ts). A ledger written before
    // this version has none: the next daemon to open it records its own.
    sql: `
CREATE TABLE ledger_identity (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  mode        TEXT NOT NULL CHECK (mode IN ('sandbox', 'live', 'paper')),
  exchange    TEXT NOT NULL,
  dialect     TEXT NOT NULL,
  account     TEXT NOT NULL,
  sim_seed    INTEGER,
  sim_run     TEXT,
  bound_at_ms INTEGER NOT NULL
) STRICT;
`,
  },
];

export const LATEST_VERSION: number = MIGRATIONS.reduce((m, x) => Math.max(m, x.version), 0);

const BOOTSTRAP = `
CREATE TABLE IF NOT EXISTS schema_version (
  version       INTEGER PRIMARY KEY,
  description   TEXT NOT NULL,
  applied_at_ms INTEGER NOT NULL
) STRICT`;

/** Highest applied version, 0 for a fresh database. */
export function schemaVersion(db: Database.Database): number {
  db.exec(BOOTSTRAP);
  const row = db.prepare<[], { v: number | null }>('SELECT max(version) AS v FROM schema_version').get();
  return row?.v ?? 0;
}

export interface MigrateResult {
  readonly from: number;
  readonly to: number;
  readonly applied: readonly number[];
}

/**
 * Brings the database to `target` (default: the latest). Each migration and its schema_version row
 * commit together. Refuses a database newer than this code knows.
 */
export function migrate(db: Database.Database, nowMs: number, target: number = LATEST_VERSION): MigrateResult {
  const from = schemaVersion(db);
  if (from > LATEST_VERSION) {
    throw new LedgerError(
      'LEDGER_SCHEMA_TOO_NEW',
      `ledger schema version ${from} is newer than this program knows (${LATEST_VERSION}); refusing to open it`,
    );
  }
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO schema_version (version, description, applied_at_ms) VALUES (?, ?, ?)');
  const ordered = [...MIGRATIONS].sort((a, b) => a.version - b.version);
  for (const m of ordered) {
    if (m.version <= from || m.version > target) continue;
    const fkOn = m.rebuildsTables === true && db.pragma('foreign_keys', { simple: true }) === 1;
    if (fkOn) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        if (m.rebuildsTables === true) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0)
            throw new LedgerError(
              'LEDGER_MIGRATION_FAILED',
              `migration ${m.version} left ${broken.length} broken references`,
            );
        }
        record.run(m.version, m.description, nowMs);
      }).immediate();
    } finally {
      if (fkOn) db.pragma('foreign_keys = ON');
    }
    applied.push(m.version);
  }
  return { from, to: Math.max(from, ...applied), applied };
}

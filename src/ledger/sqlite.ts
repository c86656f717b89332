// Opens the ledger's SQLite database with the settings crash safety depends on. Invariants kept:
// - a file database runs in WAL mode: a transaction is either wholly in the log or not at all, so
//   a process killed at any instant (SIGKILL mid-write) reopens to the last commit, never to half
//   of one; readers do not block the writer;
// - synchronous=FULL by default: the WAL is fsynced at every commit, so a commit that returned
//   survives a power loss or kernel crash too. This matters because the ledger writes each signed
//   order *before* it is sent and the exchange has no "list my orders": an order whose record is
//   lost is an orphan nobody can find. The cost is one fsync per transaction, and the daemon
//   writes one transaction per batch of orders, not per row. synchronous=NORMAL (no fsync at
//   commit; still safe against a process crash, not against power loss) is offered for paper mode
//   and backtests, where the exchange is simulated and speed matters more;
// - foreign keys are enforced; ":memory:" (backtests) skips WAL, which does not apply to it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LedgerError } from './errors.js';

export type SynchronousMode = 'FULL' | 'NORMAL';

export interface OpenDatabaseOptions {
  readonly synchronous: SynchronousMode;
  readonly busyTimeoutMs: number;
}

export function isMemoryPath(path: string): boolean {
  return path === ':memory:' || path === '';
}

export function openDatabase(path: string, opts: OpenDatabaseOptions): Database.Database {
  if (!isMemoryPath(path)) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: opts.busyTimeoutMs });
  try {
    if (!isMemoryPath(path)) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (String(mode).toLowerCase() !== 'wal')
        throw new LedgerError('LEDGER_NO_WAL', `could not switch ${path} to WAL (got ${String(mode)})`);
      // Bounds the log file after checkpoints so a long-running daemon does not keep a huge WAL.
      db.pragma('journal_size_limit = 67108864');
    }
    db.pragma(`synchronous = ${opts.synchronous}`);
    db.pragma('foreign_keys = ON');
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

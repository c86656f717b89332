// Which exchange and account a ledger belongs to (table `ledger_identity`, migration 8). Its
// orders, fills and positions are one account's on one exchange: a daemon of another exchange or
// account must not read them as its own (positions it does not hold, orders it cannot find).
// Invariants kept:
// - at most one identity per ledger, written by the first daemon that binds it and never changed
//   afterwards (a ledger written before migration 8 has none: the next bind records one);
// - bind() is one IMMEDIATE transaction: read, compare, insert if absent;
// - accounts (0x addresses) compare case-insensitively and are stored lower-case; every other
//   field compares exactly. What to do about a difference is the caller's (runtime) to say.
import type Database from 'better-sqlite3';

export type LedgerMode = 'sandbox' | 'live' | 'paper';

export interface LedgerIdentity {
  readonly mode: LedgerMode;
  /** The CLOB URL (live; paper: its market data's), or `sandbox` (the in-process simulator). */
  readonly exchange: string;
  readonly dialect: string;
  /** The account whose positions these are (the maker address; `paper` for the paper venue's). */
  readonly account: string;
  /** Sandbox only: the simulator's seed and the run id of its world (new every start). */
  readonly simSeed: number | null;
  readonly simRun: string | null;
}

export interface BoundIdentity extends LedgerIdentity {
  readonly boundAtMs: number;
}

export const IDENTITY_FIELDS = ['mode', 'exchange', 'dialect', 'account', 'simSeed', 'simRun'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export type BindResult =
  /** The ledger had no identity: this one is now recorded. */
  | { readonly status: 'bound'; readonly identity: BoundIdentity }
  /** The ledger belongs to this exchange and account. */
  | { readonly status: 'same'; readonly identity: BoundIdentity }
  /** The ledger belongs to another: `differs` lists the fields that differ. */
  | { readonly status: 'other'; readonly identity: BoundIdentity; readonly differs: readonly IdentityField[] };

interface Row {
  mode: LedgerMode;
  exchange: string;
  dialect: string;
  account: string;
  sim_seed: number | null;
  sim_run: string | null;
  bound_at_ms: number;
}

const norm = (id: LedgerIdentity): LedgerIdentity => ({
  ...id,
  account: /^0x[0-9a-fA-F]+$/.test(id.account) ? id.account.toLowerCase() : id.account,
});

export function readIdentity(db: Database.Database): BoundIdentity | null {
  const r = db
    .prepare<[], Row>(
      'SELECT mode, exchange, dialect, account, sim_seed, sim_run, bound_at_ms FROM ledger_identity WHERE id = 1',
    )
    .get();
  if (r === undefined) return null;
  return {
    mode: r.mode,
    exchange: r.exchange,
    dialect: r.dialect,
    account: r.account,
    simSeed: r.sim_seed,
    simRun: r.sim_run,
    boundAtMs: r.bound_at_ms,
  };
}

/** Records `id` if the ledger has none, else compares it with the recorded one. */
export function bindIdentity(db: Database.Database, id: LedgerIdentity, nowMs: number): BindResult {
  const want = norm(id);
  return db
    .transaction((): BindResult => {
      const have = readIdentity(db);
      if (have === null) {
        db.prepare(
          `INSERT INTO ledger_identity (id, mode, exchange, dialect, account, sim_seed, sim_run, bound_at_ms)
        VALUES (1, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(want.mode, want.exchange, want.dialect, want.account, want.simSeed, want.simRun, nowMs);
        return { status: 'bound', identity: { ...want, boundAtMs: nowMs } };
      }
      const differs = IDENTITY_FIELDS.filter((f) => have[f] !== want[f]);
      return differs.length === 0 ? { status: 'same', identity: have } : { status: 'other', identity: have, differs };
    })
    .immediate();
}

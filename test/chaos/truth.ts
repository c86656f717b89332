// Chaos harness: the two sides' truth, read without changing either. Owns reading the exchange
// (the simulator's own unthrottled `/_sim/` routes, plus GET /positions, the portfolio route the
// daemon's scheduled check compares with) and reading the daemon's SQLite ledger strictly read-only
// (better-sqlite3 `readonly`, WAL lets it read while the daemon writes). Amounts are integer
// millionths throughout, as in the ledger.
import Database from 'better-sqlite3';
import { microsFromNumber, parseShares } from '../../src/core/money.js';
import type { SimMarket, SimProcess } from './harness.js';

// ------------------------------------------------------------------------------------ exchange

export type ExchangeStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'CANCELED_MARKET_RESOLVED';

export interface ExchangeOrder {
  readonly id: string;
  readonly status: ExchangeStatus;
  readonly tokenId: string;
  readonly side: 'BUY' | 'SELL';
  /** Millionths of a share. */
  readonly sizeMatched: number;
  readonly originalSize: number;
}

interface WireSimOrder {
  id: string;
  status: ExchangeStatus;
  assetId: string;
  side: 'BUY' | 'SELL';
  sizeMatched: string;
  originalSize: string;
}

/** Every order of the simulator's account (all statuses, or one), from GET /_sim/orders. */
export async function exchangeOrders(sim: SimProcess, status?: ExchangeStatus): Promise<ExchangeOrder[]> {
  const out: ExchangeOrder[] = [];
  const q = status === undefined ? '' : `&status=${status}`;
  for (let offset = 0; ; offset += 1000) {
    const body = await sim.get<{ count: number; data: WireSimOrder[] }>(
      `/_sim/orders?owner=${sim.account.address}${q}&limit=1000&offset=${offset}`,
    );
    for (const o of body.data) {
      out.push({
        id: o.id,
        status: o.status,
        tokenId: o.assetId,
        side: o.side,
        sizeMatched: parseShares(o.sizeMatched),
        originalSize: parseShares(o.originalSize),
      });
    }
    if (offset + 1000 >= body.count) return out;
  }
}

/** Shares held per token (available + reserved for resting SELLs), from GET /_sim/balances. */
export async function exchangeHoldings(sim: SimProcess): Promise<Map<string, number>> {
  const b = await sim.get<{ tokens: Record<string, { available: string; reserved: string }> }>(
    `/_sim/balances?address=${sim.account.address}`,
  );
  const out = new Map<string, number>();
  for (const [token, v] of Object.entries(b.tokens)) {
    const held = parseShares(v.available) + parseShares(v.reserved);
    if (held !== 0) out.set(token, held);
  }
  return out;
}

interface WirePos {
  asset: string;
  conditionId: string;
  outcomeIndex: number;
  size: number;
}

/** Position per token from GET /positions?user=&sizeThreshold=0 (the portfolio API's own view). */
export async function exchangePositions(sim: SimProcess): Promise<Map<string, number>> {
  const byCondition = new Map<string, readonly string[]>(
    sim.markets.map((m: SimMarket) => [m.conditionId.toLowerCase(), m.tokenIds]),
  );
  const out = new Map<string, number>();
  for (let offset = 0; ; offset += 500) {
    const page = await sim.get<WirePos[]>(
      `/positions?user=${sim.account.address}&sizeThreshold=0&limit=500&offset=${offset}`,
    );
    for (const p of page) {
      const token =
        byCondition.get(p.conditionId.toLowerCase())?.[p.outcomeIndex] ?? (p.asset.includes(':') ? null : p.asset);
      if (token === null || token === undefined) throw new Error(`GET /positions: cannot tie ${p.asset} to a token`);
      const size = microsFromNumber(p.size, 'half-even', 'position size');
      if (size !== 0) out.set(token, size);
    }
    if (page.length < 500 || offset >= 10_000) return out;
  }
}

export interface SimState {
  readonly throttled: number;
  readonly stats: { orders: number; fills: { fills: number } };
}

/** GET /_sim/state: `throttled` counts every 429 the edge answered since the simulator started. */
export function simState(sim: SimProcess): Promise<SimState> {
  return sim.get<SimState>('/_sim/state');
}

// ------------------------------------------------------------------------------------ ledger

/**
 * The ledger's final order states (src/ledger/migrations.ts). Every other state (signed, sent,
 * unknown, live, and any state added later for what is still owed, such as cancelling/closing)
 * holds the order open: reconciliation will look at it again.
 */
export const FINAL_STATES: ReadonlySet<string> = new Set(['matched', 'canceled', 'rejected', 'not_found']);

/** The ledger holds an order in this state open (it is not final). */
export function isOpenState(state: string): boolean {
  return !FINAL_STATES.has(state);
}

export interface LedgerOrder {
  readonly id: string;
  readonly state: string;
  readonly tokenId: string;
  /** orders.size_matched, millionths. */
  readonly sizeMatched: number;
  /** Σ fills.size of the order, millionths. */
  readonly filled: number;
}

export interface LedgerSnapshot {
  readonly orders: ReadonlyMap<string, LedgerOrder>;
  /** positions.size per token (zero rows left out). */
  readonly positions: ReadonlyMap<string, number>;
  /** Σ fills.size per order id, over every fill row (fills have no foreign key to orders). */
  readonly fillsByOrder: ReadonlyMap<string, number>;
  /** Σ fills.size over fills without an order id, millionths (should be 0 in live mode). */
  readonly unattributedFills: number;
}

/** A read-only connection to a daemon's ledger; safe while the daemon runs (WAL). */
export class LedgerReader {
  private readonly db: Database.Database;

  constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
  }

  /** positions.size per token, non-zero only. */
  positions(): Map<string, number> {
    const rows = this.db.prepare('SELECT token_id AS t, size AS s FROM positions WHERE size <> 0').all() as Array<{
      t: string;
      s: number;
    }>;
    return new Map(rows.map((r) => [r.t, r.s]));
  }

  /** Σ fills.size of one order, millionths. */
  filledOf(orderId: string): number {
    const r = this.db.prepare('SELECT COALESCE(SUM(size), 0) AS s FROM fills WHERE order_id = ?').get(orderId) as {
      s: number;
    };
    return r.s;
  }

  /** Orders with their summed fills, and positions, in one read transaction. */
  snapshot(): LedgerSnapshot {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `
        SELECT o.id AS id, o.state AS state, o.token_id AS tokenId, o.size_matched AS sizeMatched,
               COALESCE((SELECT SUM(f.size) FROM fills f WHERE f.order_id = o.id), 0) AS filled
        FROM orders o`,
        )
        .all() as LedgerOrder[];
      const byOrder = this.db
        .prepare('SELECT order_id AS id, SUM(size) AS s FROM fills WHERE order_id IS NOT NULL GROUP BY order_id')
        .all() as Array<{ id: string; s: number }>;
      const un = this.db.prepare('SELECT COALESCE(SUM(size), 0) AS s FROM fills WHERE order_id IS NULL').get() as {
        s: number;
      };
      return {
        orders: new Map(rows.map((r) => [r.id, r])),
        positions: this.positions(),
        fillsByOrder: new Map(byOrder.map((r) => [r.id, r.s])),
        unattributedFills: un.s,
      };
    })();
  }

  close(): void {
    this.db.close();
  }
}

/** Opens, snapshots and closes. */
export function readLedger(path: string): LedgerSnapshot {
  const r = new LedgerReader(path);
  try {
    return r.snapshot();
  } finally {
    r.close();
  }
}

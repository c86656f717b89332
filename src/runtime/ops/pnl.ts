// PnL per token and per market for the operator's view (/status, /metrics), read from the ledger
// and marked at the book cache's mids. Invariants kept:
// - every amount is integer millionths, straight from the ledger (realized is net of fees, fees
//   are shown beside it for information, never subtracted twice);
// - unrealized PnL is the ledger's own mark to market, the core's one rule (src/core/pnl-mark.ts:
//   value at the mid rounded down, minus cost); a held token without a mid is `unmarked`: its
//   unrealized PnL is null and it is left out of the totals, never marked at a made-up price;
// - nothing here computes PnL: per-token figures are the ledger's positions (src/core/pnl.ts as
//   the ledger books it), per-market figures their sums.
// - once the ledger is closed (after the daemon stopped) there is no report (null), not zeros.
import type { Micros, Price, Shares } from '../../core/money.js';
import type { LedgerPosition, MarkToMarket } from '../../ledger/types.js';

/** What the report reads of the ledger (the Ledger class satisfies it). */
export interface PnlSource {
  readonly isOpen: boolean;
  positions(opts?: { openOnly?: boolean }): LedgerPosition[];
  markToMarket(mids: ReadonlyMap<string, Price>): MarkToMarket;
}

export interface TokenPnl {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly size: Shares;
  /** The part of `size` whose trades are not final yet (size − pendingSize is confirmed). */
  readonly pendingSize: Shares;
  readonly avgPrice: Price | null;
  readonly cost: Micros;
  /** Net of fees. */
  readonly realized: Micros;
  readonly fees: Micros;
  /** The mid it is marked at; null when it has none (or holds nothing). */
  readonly mark: Price | null;
  /** null: held but unmarked; 0 when flat. */
  readonly unrealized: Micros | null;
}

export interface MarketPnl {
  readonly conditionId: string;
  readonly realized: Micros;
  /** Sum over the market's marked tokens. */
  readonly unrealized: Micros;
  readonly fees: Micros;
}

export interface PnlReport {
  /** Every token the ledger ever traded. */
  readonly tokens: readonly TokenPnl[];
  /** Per market (condition id), in first-seen order. */
  readonly markets: readonly MarketPnl[];
  readonly realized: Micros;
  readonly unrealized: Micros;
  readonly fees: Micros;
  /** realized + unrealized. */
  readonly total: Micros;
  /** Tokens held without a mid (left out of unrealized). */
  readonly unmarked: readonly string[];
}

/** The report, or null when the ledger is closed. */
export function pnlReport(src: PnlSource, mids: ReadonlyMap<string, Price>): PnlReport | null {
  if (!src.isOpen) return null;
  const m2m = src.markToMarket(mids);
  const marked = new Map(m2m.positions.map((p) => [p.tokenId, p] as const));
  const tokens: TokenPnl[] = [];
  const byMarket = new Map<string, { realized: number; unrealized: number; fees: number }>();
  for (const p of src.positions()) {
    const mk = marked.get(p.tokenId);
    const unrealized = p.size === 0 ? (0 as Micros) : (mk?.unrealized ?? null);
    tokens.push({
      tokenId: p.tokenId,
      conditionId: p.conditionId,
      size: p.size,
      pendingSize: p.pendingSize,
      avgPrice: p.avgPrice,
      cost: p.cost,
      realized: p.realized,
      fees: p.fees,
      mark: mk?.mark ?? null,
      unrealized,
    });
    const acc = byMarket.get(p.conditionId) ?? { realized: 0, unrealized: 0, fees: 0 };
    acc.realized += p.realized;
    acc.fees += p.fees;
    acc.unrealized += unrealized ?? 0;
    byMarket.set(p.conditionId, acc);
  }
  return {
    tokens,
    markets: [...byMarket].map(([conditionId, a]) => ({
      conditionId,
      realized: a.realized as Micros,
      unrealized: a.unrealized as Micros,
      fees: a.fees as Micros,
    })),
    realized: m2m.realized,
    unrealized: m2m.unrealized,
    fees: m2m.fees,
    total: m2m.total,
    unmarked: m2m.unmarked,
  };
}

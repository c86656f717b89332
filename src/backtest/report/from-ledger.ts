// The money-bearing part of a report's input (fills and resolutions) from a ledger's own records,
// so a session the ledger booked (a live or sandbox run) is reported by the same code as a backtest.
// Fills are taken at the time the ledger recorded them (its sequence order; ties keep it) with
// their exact collateral; each resolution pays every token of its market the ledger traded (tokens
// absent from the ledger's payouts pay 0, as the ledger settles them) at the time it was recorded.
// Invariant: with the ledger's marks as mids at or before endMs, the report's PnL (metrics.ts, the
// core's one PnL) equals the ledger's markToMarket to the millionth. Not carried: reversals of
// failed trades (the report has no such record), so a ledger with reversals reports without them.
import type { Price } from '../../core/money.js';
import type { LedgerFill, MarketResolution } from '../../ledger/types.js';
import type { ReportFill, ReportResolution } from './input.js';

export function reportFillsFromLedger(fills: readonly LedgerFill[]): ReportFill[] {
  return fills.map((f) => ({
    timeMs: f.recordedAtMs,
    tokenId: f.tokenId,
    side: f.side,
    price: f.price,
    size: f.size,
    fee: f.feeMicros,
    notional: f.notional,
  }));
}

export function reportResolutionsFromLedger(
  resolutions: readonly MarketResolution[],
  fills: readonly LedgerFill[],
): ReportResolution[] {
  const tokensOf = new Map<string, Set<string>>();
  for (const f of fills) {
    let s = tokensOf.get(f.conditionId);
    if (s === undefined) {
      s = new Set();
      tokensOf.set(f.conditionId, s);
    }
    s.add(f.tokenId);
  }
  return resolutions.map((r) => {
    const pays = new Map(r.payouts);
    const tokens = [...new Set([...pays.keys(), ...(tokensOf.get(r.conditionId) ?? [])])].sort();
    return {
      timeMs: r.recordedAtMs,
      conditionId: r.conditionId,
      winnerTokenId: r.winnerTokenId ?? '',
      payouts: tokens.map((tokenId) => ({ tokenId, payout: pays.get(tokenId) ?? (0 as Price) })),
    };
  });
}

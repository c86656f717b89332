// Maps the replay engine's BacktestResult (src/backtest/types.ts, another owner's) into the
// report's own input (input.ts), in this one place. Choices, since the result is coarser than the
// input in two spots:
// - inventory: one sample per cycle for every token of the run's markets, 0 when the cycle's
//   inventory list (positions only) does not name the token, so time-weighted stats see flat time;
// - uptime: the result counts resting orders per cycle, not quoted tokens, so a cycle counts as
//   quoting (1 of 1) when any order rests after it: "time with at least one quote up".
// Market names are the condition ids (the result carries no question text). Resolutions carry the
// winner and the market's tokens; the report settles its own positions from them (metrics.ts).
import { ONE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { BacktestResult } from '../types.js';
import type { InventorySample, ReportInput, ReportMarket } from './input.js';

export function reportInputFromBacktest(r: BacktestResult): ReportInput {
  const markets: ReportMarket[] = [];
  for (const m of r.markets) for (const t of m.tokens) markets.push({ tokenId: t, name: m.conditionId, tickSize: m.tickSize as Price });
  const tokens = [...new Set(markets.map((m) => m.tokenId))].sort();
  const inventory: InventorySample[] = [];
  for (const e of r.equity) {
    const held = new Map(e.inventory);
    for (const t of tokens) inventory.push({ timeMs: e.t, tokenId: t, shares: (held.get(t) ?? 0) as Shares });
  }
  let placedSize = 0;
  let filledSize = 0;
  let filled = 0;
  for (const o of r.orders) {
    placedSize += o.size;
    filledSize += o.sizeMatched;
    if (o.sizeMatched > 0) filled++;
  }
  return {
    startMs: r.startMs,
    endMs: r.endMs,
    capital: r.capital as Micros,
    markets,
    fills: r.fills.map((f) => ({ timeMs: f.timeMs, tokenId: f.tokenId, side: f.side, price: f.price as Price, size: f.size as Shares, fee: f.feeMicros as Micros })),
    equity: r.equity.map((e) => ({ timeMs: e.t, equity: e.equity as Micros })),
    inventory,
    mids: Object.keys(r.mids).sort().flatMap((tokenId) => (r.mids[tokenId] ?? []).map(([timeMs, mid]) => ({ timeMs, tokenId, mid: mid as Price }))),
    uptime: r.equity.map((e) => ({ timeMs: e.t, quoted: e.openOrders > 0 ? 1 : 0, tokens: 1 })),
    orders: { placed: r.orders.length, placedSize: placedSize as Shares, filled, filledSize: filledSize as Shares },
    // A result written before resolutions were recorded has none.
    resolutions: (r.resolutions ?? []).map((x) => ({
      timeMs: x.timeMs, conditionId: x.conditionId, winnerTokenId: x.winnerTokenId,
      payouts: x.tokens.map((t) => ({ tokenId: t, payout: (t === x.winnerTokenId ? ONE : 0) as Price })),
    })),
  };
}

// The BacktestResult → ReportInput mapping: fills, equity, mids carried over; inventory filled in
// with zeros for tokens without a position; order totals; uptime from resting orders.
import { describe, expect, it } from 'vitest';
import { reportInputFromBacktest } from '../../../src/backtest/report/from-backtest.js';
import type { BacktestResult } from '../../../src/backtest/types.js';

function result(): BacktestResult {
  const sample = (t: number, inventory: Array<[string, number]>, openOrders: number) => ({
    t, equity: 100_000_000 + t, pnl: t, realized: 0, unrealized: t, fees: 0, inventory, quotes: openOrders, openOrders,
  });
  return {
    version: 1, seed: 1, fillModel: 'cross', strategy: 'bands', capital: 100_000_000, startMs: 0, endMs: 3000,
    events: 10, bookUpdates: 8, cycles: 3,
    markets: [{ conditionId: '0xc', tokens: ['t1', 't2'], tickSize: 10_000, minOrderSize: 5_000_000, makerFeeBps: 0, takerFeeBps: 0 }],
    fills: [{ seq: 1, orderId: 'o1', tokenId: 't1', conditionId: '0xc', side: 'BUY', price: 500_000, size: 5_000_000, notional: 2_500_000, feeMicros: 12, liquidity: 'maker', timeMs: 1000, realizedDelta: 0, midAtFill: 505_000 }],
    orders: [
      { id: 'o1', tokenId: 't1', conditionId: '0xc', side: 'BUY', price: 500_000, size: 5_000_000, sizeMatched: 5_000_000, state: 'MATCHED', createdAtMs: 0, stateAtMs: 1000 },
      { id: 'o2', tokenId: 't2', conditionId: '0xc', side: 'SELL', price: 520_000, size: 5_000_000, sizeMatched: 0, state: 'CANCELED', createdAtMs: 0, stateAtMs: 3000 },
    ],
    pnl: { atMs: 3000, total: 0, realized: 0, unrealized: 0, fees: 0, positions: [] },
    equity: [sample(0, [], 2), sample(1000, [['t1', 5_000_000]], 1), sample(2000, [['t1', 5_000_000]], 0)],
    mids: { t2: [[0, 480_000]], t1: [[0, 500_000], [1500, 510_000]] },
    venue: { booksFed: 8, fills: 1 },
  } as unknown as BacktestResult; // only the fields the mapping reads; the engine's type grows independently
}

describe('reportInputFromBacktest', () => {
  it('maps every series', () => {
    const inp = reportInputFromBacktest(result());
    expect(inp.markets).toEqual([{ tokenId: 't1', name: '0xc', tickSize: 10_000 }, { tokenId: 't2', name: '0xc', tickSize: 10_000 }]);
    expect(inp.fills).toEqual([{ timeMs: 1000, tokenId: 't1', side: 'BUY', price: 500_000, size: 5_000_000, fee: 12 }]);
    expect(inp.equity.map((e) => e.equity)).toEqual([100_000_000, 100_001_000, 100_002_000]);
    expect(inp.inventory.filter((s) => s.tokenId === 't1').map((s) => s.shares)).toEqual([0, 5_000_000, 5_000_000]);
    expect(inp.inventory.filter((s) => s.tokenId === 't2').map((s) => s.shares)).toEqual([0, 0, 0]);
    expect(inp.mids).toEqual([
      { timeMs: 0, tokenId: 't1', mid: 500_000 }, { timeMs: 1500, tokenId: 't1', mid: 510_000 }, { timeMs: 0, tokenId: 't2', mid: 480_000 },
    ]);
    expect(inp.uptime.map((u) => u.quoted)).toEqual([1, 1, 0]);
    expect(inp.orders).toEqual({ placed: 2, placedSize: 10_000_000, filled: 1, filledSize: 5_000_000 });
  });
});

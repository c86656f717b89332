// The BacktestResult → ReportInput mapping: fills, equity, mids carried over; inventory filled in
// with zeros for tokens without a position, as runs of equal cycles (and the report's inventory
// statistics over runs equal those over one sample per cycle, a property); order totals; uptime
// from resting orders; market labels (sidecar labels, else shortened ids); run settings; the end
// state sampled at endMs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportInputFromBacktest } from '../../../src/backtest/report/from-backtest.js';
import type { ReportInput } from '../../../src/backtest/report/input.js';
import { computeInventory, computeReport } from '../../../src/backtest/report/metrics.js';
import type { BacktestResult } from '../../../src/backtest/types.js';

function result(): BacktestResult {
  const sample = (t: number, inventory: Array<[string, number]>, openOrders: number) => ({
    t,
    equity: 100_000_000 + t,
    pnl: t,
    realized: 0,
    unrealized: t,
    fees: 0,
    inventory,
    quotes: openOrders,
    openOrders,
  });
  return {
    version: 1,
    seed: 1,
    fillModel: 'cross',
    strategy: 'bands',
    capital: 100_000_000,
    startMs: 0,
    endMs: 3000,
    events: 10,
    bookUpdates: 8,
    cycles: 3,
    markets: [
      {
        conditionId: '0xc',
        tokens: ['t1', 't2'],
        tickSize: 10_000,
        minOrderSize: 5_000_000,
        makerFeeBps: 0,
        takerFeeBps: 0,
      },
    ],
    fills: [
      {
        seq: 1,
        orderId: 'o1',
        tokenId: 't1',
        conditionId: '0xc',
        side: 'BUY',
        price: 500_000,
        size: 5_000_000,
        notional: 2_500_000,
        feeMicros: 12,
        liquidity: 'maker',
        timeMs: 1000,
        realizedDelta: 0,
        midAtFill: 505_000,
      },
    ],
    orders: [
      {
        id: 'o1',
        tokenId: 't1',
        conditionId: '0xc',
        side: 'BUY',
        price: 500_000,
        size: 5_000_000,
        sizeMatched: 5_000_000,
        state: 'MATCHED',
        createdAtMs: 0,
        stateAtMs: 1000,
      },
      {
        id: 'o2',
        tokenId: 't2',
        conditionId: '0xc',
        side: 'SELL',
        price: 520_000,
        size: 5_000_000,
        sizeMatched: 0,
        state: 'CANCELED',
        createdAtMs: 0,
        stateAtMs: 3000,
      },
    ],
    pnl: { atMs: 3000, total: 0, realized: 0, unrealized: 0, fees: 0, positions: [] },
    equity: [sample(0, [], 2), sample(1000, [['t1', 5_000_000]], 1), sample(2000, [['t1', 5_000_000]], 0)],
    mids: {
      t2: { t: [0], mid: [480_000] },
      t1: { t: [0, 1500], mid: [500_000, 510_000] },
    },
    venue: { booksFed: 8, fills: 1 },
  } as unknown as BacktestResult; // only the fields the mapping reads; the engine's type grows independently
}

describe('reportInputFromBacktest', () => {
  it('maps every series', () => {
    const inp = reportInputFromBacktest(result());
    expect(inp.markets).toEqual([
      { tokenId: 't1', name: 'market 0xc · token t1', conditionId: '0xc', tickSize: 10_000 },
      { tokenId: 't2', name: 'market 0xc · token t2', conditionId: '0xc', tickSize: 10_000 },
    ]);
    expect(inp.fills).toEqual([
      {
        timeMs: 1000,
        tokenId: 't1',
        side: 'BUY',
        price: 500_000,
        size: 5_000_000,
        fee: 12,
        notional: 2_500_000,
        liquidity: 'maker',
      },
    ]);
    // The cycles' samples, then the end state at endMs (3000): capital + the report's PnL
    // (5 shares bought at 0.50 marked at 0.51 = +0.05, fee 12 micros).
    expect(inp.equity).toEqual([
      { timeMs: 0, equity: 100_000_000 },
      { timeMs: 1000, equity: 100_001_000 },
      { timeMs: 2000, equity: 100_002_000 },
      { timeMs: 3000, equity: 100_049_988 },
    ]);
    // Runs of equal cycles (t1: flat at the first cycle, 5 shares from the second on; t2 flat
    // throughout), then the end state's sample.
    const runs = (token: string) =>
      inp.inventory.filter((s) => s.tokenId === token).map((s) => [s.timeMs, s.shares, s.samples ?? 1]);
    expect(runs('t1')).toEqual([
      [0, 0, 1],
      [1000, 5_000_000, 2],
      [3000, 5_000_000, 1],
    ]);
    expect(runs('t2')).toEqual([
      [0, 0, 3],
      [3000, 0, 1],
    ]);
    expect(inp.mids).toEqual([
      { timeMs: 0, tokenId: 't1', mid: 500_000 },
      { timeMs: 1500, tokenId: 't1', mid: 510_000 },
      { timeMs: 0, tokenId: 't2', mid: 480_000 },
    ]);
    expect(inp.uptime.map((u) => u.quoted)).toEqual([1, 1, 0]);
    expect(inp.orders).toEqual({ placed: 2, placedSize: 10_000_000, filled: 1, filledSize: 5_000_000 });
  });

  it('labels markets by question and outcome from the sidecar labels, and carries the run settings', () => {
    const settings = {
      config: 'c.json',
      recording: 'r.omrc',
      strategy: 'bands',
      params: { levels: [] },
      fillModel: 'queue-probabilistic',
      latency: '0 ms',
      cadence: 'poll',
      pollIntervalMs: 1000,
      seed: 1,
      depth: 'full',
    };
    const inp = reportInputFromBacktest(result(), {
      labels: { t1: { question: 'Will it rain?', outcome: 'Yes' } },
      settings,
    });
    expect(inp.markets.map((m) => m.name)).toEqual(['Will it rain? — Yes', 'market 0xc · token t2']);
    expect(computeReport(inp).settings).toEqual(settings);
  });

  it('samples the end state: a fill the ledger recorded after the last cycle reaches equity, drawdown and the chart', () => {
    // Flat equity over the cycles; a losing fill at the last instant (a sell below the mark).
    const r = result() as unknown as Record<string, unknown>;
    const flat = (t: number) => ({
      t,
      equity: 100_000_000,
      pnl: 0,
      realized: 0,
      unrealized: 0,
      fees: 0,
      inventory: [],
      quotes: 0,
      openOrders: 0,
    });
    const res = {
      ...r,
      equity: [flat(0), flat(1000), flat(2000)],
      fills: [
        {
          seq: 1,
          orderId: 'o1',
          tokenId: 't2',
          conditionId: '0xc',
          side: 'BUY',
          price: 520_000,
          size: 10_000_000,
          notional: 5_200_000,
          feeMicros: 0,
          liquidity: 'taker',
          timeMs: 3000,
          realizedDelta: 0,
          midAtFill: 480_000,
        },
      ],
    } as unknown as BacktestResult;
    const inp = reportInputFromBacktest(res);
    const rep = computeReport(inp);
    // 10 bought at 0.52, marked at 0.48: −0.40.
    expect(rep.pnl.totalMicros).toBe(-400_000);
    expect(inp.equity.at(-1)).toEqual({ timeMs: 3000, equity: 99_600_000 });
    expect(rep.drawdown.maxMicros).toBe(400_000);
    expect(rep.final).toEqual({ timeMs: 3000, equityMicros: 99_600_000 });
    expect(rep.fills.count).toBe(1);
    expect(rep.trades).toEqual([
      {
        timeMs: 3000,
        tokenId: 't2',
        label: 'market 0xc · token t2',
        side: 'BUY',
        priceMicros: 520_000,
        sizeMicros: 10_000_000,
        feeMicros: 0,
        liquidity: 'taker',
      },
    ]);
    expect(inp.inventory.filter((s) => s.tokenId === 't2').at(-1)).toEqual({
      timeMs: 3000,
      tokenId: 't2',
      shares: 10_000_000,
    });
  });

  it('inventory as runs gives the statistics of one sample per cycle and token (property)', () => {
    const cycle = fc.record({
      gapMs: fc.integer({ min: 0, max: 2_000 }),
      // The previous cycle's own list (the sampler's unchanged ledger), or a fresh one.
      same: fc.boolean(),
      held: fc.array(fc.tuple(fc.constantFrom('t1', 't2'), fc.integer({ min: -3, max: 3 })), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(cycle, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 5_000 }), (cs, tail) => {
        let t = 0;
        let list: Array<[string, number]> = [];
        const equity = cs.map((c, i) => {
          t += c.gapMs;
          if (i === 0 || !c.same) {
            const m = new Map(
              c.held.filter(([, n]) => n !== 0).map(([k, n]) => [k, n * 1_000_000] as [string, number]),
            );
            list = [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
          }
          return { ...result().equity[0]!, t, inventory: list };
        });
        const res = { ...result(), fills: [], orders: [], equity, endMs: t + tail } as BacktestResult;
        const inp = reportInputFromBacktest(res);
        // The same input with one sample per cycle and token, as the runs stand for.
        const perCycle: ReportInput = {
          ...inp,
          inventory: equity.flatMap((e) =>
            ['t1', 't2'].map((tokenId) => ({
              timeMs: e.t,
              tokenId,
              shares: (new Map(e.inventory).get(tokenId) ?? 0) as ReportInput['inventory'][number]['shares'],
            })),
          ),
        };
        const endState = inp.inventory.filter((s) => s.samples === undefined);
        const expected = computeInventory({ ...perCycle, inventory: [...perCycle.inventory, ...endState] });
        expect(computeInventory(inp)).toEqual(expected);
        expect(inp.inventory.length).toBeLessThanOrEqual(2 * equity.length + endState.length);
      }),
      { numRuns: 500 },
    );
  });
});

// Sweep rows: the sort (metric order, drawdown smallest first, nulls last, ties by grid index; a
// function of the rows as a set, so the workers' finishing order cannot change it) and the table.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTable, SORT_METRICS, sortRows, type SweepRow } from '../../../src/backtest/sweep/index.js';

const row = (index: number, over: Partial<SweepRow> = {}): SweepRow => ({
  index,
  params: { k: index },
  pnlTotalMicros: 0,
  fills: 0,
  volumeMicros: 0,
  maxDrawdownMicros: 0,
  sharpePerDay: null,
  fillRatio: null,
  ...over,
});

describe('sortRows', () => {
  it('sorts by pnl descending, ties in grid order', () => {
    const rows = [
      row(0, { pnlTotalMicros: 5 }),
      row(1, { pnlTotalMicros: 9 }),
      row(2, { pnlTotalMicros: 5 }),
      row(3, { pnlTotalMicros: -1 }),
    ];
    expect(sortRows(rows, 'pnl').map((r) => r.index)).toEqual([1, 0, 2, 3]);
  });

  it('sorts drawdown smallest first and puts null metrics last', () => {
    const rows = [row(0, { maxDrawdownMicros: 7 }), row(1, { maxDrawdownMicros: 2 }), row(2, { maxDrawdownMicros: 7 })];
    expect(sortRows(rows, 'drawdown').map((r) => r.index)).toEqual([1, 0, 2]);
    const s = [row(0), row(1, { sharpePerDay: -2 }), row(2, { sharpePerDay: 1.5 }), row(3)];
    expect(sortRows(s, 'sharpe').map((r) => r.index)).toEqual([2, 1, 0, 3]);
  });

  it('property: the order does not depend on the input order', () => {
    const arbRow = fc.record({
      pnlTotalMicros: fc.integer({ min: -5, max: 5 }),
      fills: fc.nat(3),
      volumeMicros: fc.nat(3),
      maxDrawdownMicros: fc.nat(3),
      sharpePerDay: fc.option(fc.integer({ min: -2, max: 2 })),
      fillRatio: fc.option(fc.constantFrom(0, 0.5, 1)),
    });
    fc.assert(
      fc.property(
        fc.array(arbRow, { maxLength: 12 }),
        fc.constantFrom(...SORT_METRICS),
        fc.infiniteStream(fc.nat()),
        (raw, metric, noise) => {
          const rows = raw.map((r, i) => row(i, r));
          const shuffled = rows
            .map((r) => [noise.next().value as number, r] as const)
            .sort((a, b) => a[0] - b[0])
            .map(([, r]) => r);
          expect(sortRows(shuffled, metric)).toEqual(sortRows(rows, metric));
        },
      ),
    );
  });
});

describe('formatTable', () => {
  it('one header and one line per row, params then metrics, money formatted', () => {
    const t = formatTable(
      [row(0, { params: { size: 10 }, pnlTotalMicros: 1_500_000, fills: 2, fillRatio: 0.5 })],
      ['size'],
    ).split('\n');
    expect(t).toHaveLength(2);
    expect(t[0]).toMatch(/^#\s+size\s+pnl\s+fills\s+volume\s+max_dd\s+sharpe\/day\s+fill_ratio$/);
    expect(t[1]).toMatch(/^1\s+10\s+1\.5\s+2\s+0\s+0\s+-\s+0\.5000$/);
  });
});

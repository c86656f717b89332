// The one mark-to-market rule: realized and fees over every position (flat ones too), unrealized
// over held tokens with a mark, a held token without one listed as unmarked and left out (never
// marked at 0), total = realized + unrealized; a mark of 0 is a mark (a resolved loser).
import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { applyFill, FLAT, replayFills, type PnlFill } from '../../src/core/pnl.js';
import { markToMarket } from '../../src/core/pnl-mark.js';

const fill = (side: 'BUY' | 'SELL', price: number, size: number, fee = 0): PnlFill => ({
  side,
  price: price as Price,
  size: size as Shares,
  feeMicros: fee as Micros,
});

describe('markToMarket', () => {
  // A: bought 10 @ 0.40 (fee 0.02), sold 4 @ 0.50: realized 0.40 − 0.02 = 0.38, 6 held at cost 2.40.
  const a = {
    tokenId: 'A',
    ...replayFills([fill('BUY', 400_000, 10_000_000, 20_000), fill('SELL', 500_000, 4_000_000)]),
  };
  // B: bought and sold out, 5 @ 0.30 then 0.20: realized −0.50 − fee 0.01, flat.
  const b = {
    tokenId: 'B',
    ...replayFills([fill('BUY', 300_000, 5_000_000), fill('SELL', 200_000, 5_000_000, 10_000)]),
  };
  // C: 2 held @ 0.70, no mark.
  const c = { tokenId: 'C', ...applyFill(FLAT, fill('BUY', 700_000, 2_000_000)).position };

  it('marks held tokens, sums realized and fees over all, leaves the unmarked out', () => {
    const m = markToMarket([a, b, c], (t) => (t === 'A' ? (450_000 as Price) : undefined));
    expect(m.realized).toBe(380_000 - 510_000);
    expect(m.fees).toBe(30_000);
    expect(m.unrealized).toBe(2_700_000 - 2_400_000);
    expect(m.total).toBe(m.realized + m.unrealized);
    expect(m.marked.map((x) => [x.position.tokenId, x.mark, x.value, x.unrealized])).toEqual([
      ['A', 450_000, 2_700_000, 300_000],
    ]);
    expect(m.unmarked.map((p) => p.tokenId)).toEqual(['C']);
  });

  it('a mark of 0 is a mark, not a missing one', () => {
    const m = markToMarket([c], () => 0 as Price);
    expect(m.unmarked).toEqual([]);
    expect(m.unrealized).toBe(-1_400_000);
  });
});

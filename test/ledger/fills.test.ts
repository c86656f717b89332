// Fills: idempotent under duplicates, cumulative lookups record only increments (property test),
// positions always equal a replay of the recorded fills, invariants refuse impossible fills, and
// market resolution settles positions once (late fills included).
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { InvariantError } from '../../src/core/errors.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { replayFills } from '../../src/core/pnl.js';
import { COND, fill, mc, NO, px, sh, signedOrder, T0, tempDir, testLedger, YES, type TestLedger } from './helpers.js';

let t: TestLedger;
beforeEach(() => {
  t = testLedger();
});
afterEach(() => t.cleanup());

describe('fills', () => {
  it('records a fill once; the same key again is a no-op, also after reopening', () => {
    const f = fill({ dedupKey: 'trade-abc', size: sh(2_000_000), price: px(450_000), feeMicros: mc(1_000) });
    expect(t.ledger.recordFill(f)).toBe(true);
    expect(t.ledger.recordFill(f)).toBe(false);
    t.reopen();
    expect(t.ledger.recordFill(f)).toBe(false);
    expect(t.ledger.fills()).toHaveLength(1);
    expect(t.ledger.position(YES)).toMatchObject({ size: 2_000_000, cost: 900_000, realized: -1_000, fees: 1_000 });
  });

  it('the same key with other contents is an invariant error, and changes nothing', () => {
    t.ledger.recordFill(fill({ dedupKey: 'k' }));
    expect(() => t.ledger.recordFill(fill({ dedupKey: 'k', size: sh(2_000_000) }))).toThrow(InvariantError);
    expect(t.ledger.position(YES)?.size).toBe(1_000_000);
  });

  it('fills commute: a SELL recorded before the BUY that funded it holds the position below zero until the BUY arrives', () => {
    const sell = signedOrder({ side: 'SELL', price: px(600_000), size: sh(5_000_000) });
    const buy = signedOrder({ side: 'BUY', price: px(400_000), size: sh(5_000_000), meta: { n: 2 } });
    t.ledger.recordSignedOrders([sell, buy]);
    // Discovery order reversed: the SELL's lookup comes first.
    expect(t.ledger.recordCumulativeMatch(sell.id, sh(5_000_000), { price: px(600_000) })).toBe(5_000_000);
    expect(t.ledger.position(YES)).toMatchObject({ size: -5_000_000, cost: -3_000_000 });
    expect(t.ledger.recordCumulativeMatch(buy.id, sh(5_000_000), { price: px(400_000) })).toBe(5_000_000);
    expect(t.ledger.position(YES)).toMatchObject({ size: 0, cost: 0, realized: 1_000_000 });
    expect(t.ledger.fills()).toHaveLength(2);
  });

  it('refuses fills beyond an order size or not matching its order', () => {
    const o = signedOrder({ size: sh(1_000_000) });
    t.ledger.recordSignedOrder(o);
    expect(() => t.ledger.recordFill(fill({ orderId: o.id, size: sh(1_000_001) }))).toThrow(/beyond its size/);
    expect(() => t.ledger.recordFill(fill({ orderId: o.id, side: 'SELL' }))).toThrow(/does not match order/);
    expect(() => t.ledger.recordFill(fill({ orderId: o.id, tokenId: NO }))).toThrow(/does not match order/);
    expect(() => t.ledger.recordCumulativeMatch(o.id, sh(2_000_000))).toThrow(/exceeds its size/);
  });

  it('a token belongs to one condition', () => {
    t.ledger.recordFill(fill());
    expect(() => t.ledger.recordFill(fill({ conditionId: '0xother' }))).toThrow(/belongs to condition/);
  });

  it('a fully filled order is marked matched by its fills', () => {
    const o = signedOrder({ size: sh(2_000_000) });
    t.ledger.recordSignedOrder(o);
    t.ledger.markAccepted(o.id, { status: 'live', makingAmount: null, takingAmount: null });
    t.ledger.recordFill(fill({ orderId: o.id, size: sh(1_500_000) }));
    expect(t.ledger.order(o.id)?.state).toBe('live');
    t.ledger.recordFill(fill({ orderId: o.id, size: sh(500_000) }));
    expect(t.ledger.order(o.id)).toMatchObject({ state: 'matched', sizeMatched: 2_000_000 });
    expect(t.ledger.orderEvents(o.id).at(-1)).toMatchObject({ state: 'matched', detail: 'fully matched' });
  });

  it('a cumulative match records only the increment, at the order price by default', () => {
    const o = signedOrder({ side: 'BUY', price: px(420_000), size: sh(10_000_000) });
    t.ledger.recordSignedOrder(o);
    expect(t.ledger.recordCumulativeMatch(o.id, sh(3_000_000))).toBe(3_000_000);
    expect(t.ledger.recordCumulativeMatch(o.id, sh(3_000_000))).toBe(0);
    expect(t.ledger.recordCumulativeMatch(o.id, sh(1_000_000))).toBe(0); // stale observation
    expect(t.ledger.recordCumulativeMatch(o.id, sh(7_500_000), { feeMicros: mc(500) })).toBe(4_500_000);
    expect(t.ledger.fillsOfOrder(o.id).map((f) => [f.size, f.price, f.dedupKey])).toEqual([
      [3_000_000, 420_000, `${o.id}@3000000`],
      [4_500_000, 420_000, `${o.id}@7500000`],
    ]);
    expect(t.ledger.position(YES)).toMatchObject({ size: 7_500_000, cost: 3_150_000, fees: 500 });
  });

  it('any sequence of repeated, out-of-order cumulative observations records exactly the largest', () => {
    const size = 50_000_000;
    const dir = tempDir();
    const path = join(dir.dir, 'cumulative.db');
    let run = 0;
    try {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: size }), { minLength: 1, maxLength: 30 }),
          fc.integer({ min: 0, max: 4 }),
          (observations, reopenEvery) => {
            // One file for every run (migrated once); each run trades its own token.
            const token = `token-${run++}`;
            const clock = new VirtualClock(T0);
            let ledger = Ledger.open(path, { clock, synchronous: 'NORMAL' });
            try {
              const o = signedOrder({ size: sh(size), price: px(300_000), tokenId: token });
              ledger.recordSignedOrder(o);
              let total = 0;
              observations.forEach((obs, i) => {
                // Some observations arrive as whole lookups, some as bare cumulative matches; each twice.
                total +=
                  i % 2 === 0
                    ? ledger.markLookup(o.id, { status: obs === size ? 'MATCHED' : 'LIVE', sizeMatched: sh(obs) })
                        .newlyMatched
                    : ledger.recordCumulativeMatch(o.id, sh(obs));
                total += ledger.recordCumulativeMatch(o.id, sh(obs));
                if (reopenEvery > 0 && i % reopenEvery === 0) {
                  ledger.close();
                  ledger = Ledger.open(path, { clock, synchronous: 'NORMAL' });
                }
              });
              const max = Math.max(...observations);
              const recorded = ledger.fillsOfOrder(o.id).reduce((s, f) => s + f.size, 0);
              expect(total).toBe(max);
              expect(recorded).toBe(max);
              expect(ledger.order(o.id)?.sizeMatched).toBe(max);
              expect(ledger.position(token)?.size ?? 0).toBe(max);
              expect(ledger.order(o.id)?.state).toBe(max === size ? 'matched' : 'live');
            } finally {
              ledger.close();
            }
          },
        ),
        { numRuns: 100 },
      );
    } finally {
      dir.cleanup();
    }
  });

  it('positions always equal a replay of the recorded fills, in record order', () => {
    const step = fc.record({
      token: fc.constantFrom(YES, NO),
      buy: fc.boolean(),
      price: fc.integer({ min: 1, max: 999 }).map((c) => c * 1_000),
      size: fc.integer({ min: 1, max: 2_000 }).map((c) => c * 10_000),
      fee: fc.integer({ min: 0, max: 5_000 }),
      dup: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const ledger = Ledger.open(':memory:', { clock: new VirtualClock(T0), synchronous: 'NORMAL' });
        try {
          const held = new Map<string, number>();
          steps.forEach((s, i) => {
            const h = held.get(s.token) ?? 0;
            const side = s.buy || h < s.size ? 'BUY' : 'SELL';
            const f = fill({
              dedupKey: `k${i}`,
              tokenId: s.token,
              side,
              price: px(s.price),
              size: sh(s.size),
              feeMicros: mc(s.fee),
            });
            expect(ledger.recordFill(f)).toBe(true);
            if (s.dup) expect(ledger.recordFill(f)).toBe(false);
            held.set(s.token, h + (side === 'BUY' ? s.size : -s.size));
          });
          const fills = ledger.fills();
          expect(fills).toHaveLength(steps.length);
          for (const token of [YES, NO]) {
            const mine = fills.filter((f) => f.tokenId === token);
            const expected = replayFills(
              mine.map((f) => ({ side: f.side, price: f.price, size: f.size, feeMicros: f.feeMicros })),
            );
            const p = ledger.position(token);
            if (mine.length === 0) {
              expect(p).toBeNull();
              continue;
            }
            expect(p).toMatchObject({
              size: expected.size,
              cost: expected.cost,
              realized: expected.realized,
              fees: expected.fees,
            });
            // Each fill's stored realized delta adds up to the position's realized PnL.
            expect(mine.reduce((s, f) => s + f.realizedDelta, 0)).toBe(expected.realized);
          }
        } finally {
          ledger.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('market resolution', () => {
  function hold(): void {
    // 10 YES at 0.40 and 4 NO at 0.55.
    t.ledger.recordFill(fill({ tokenId: YES, price: px(400_000), size: sh(10_000_000) }));
    t.ledger.recordFill(fill({ tokenId: NO, price: px(550_000), size: sh(4_000_000) }));
  }

  it('the winner pays 1 and the loser 0, realized and recorded', () => {
    hold();
    t.clock.advance(1000);
    const s = t.ledger.resolveMarket(COND, YES);
    expect(s.map((x) => [x.tokenId, x.payout, x.size, x.proceeds, x.realizedDelta])).toEqual(
      [
        [NO, 0, 4_000_000, 0, -2_200_000],
        [YES, 1_000_000, 10_000_000, 10_000_000, 6_000_000],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(t.ledger.position(YES)).toMatchObject({ size: 0, cost: 0, realized: 6_000_000 });
    expect(t.ledger.position(NO)).toMatchObject({ size: 0, cost: 0, realized: -2_200_000 });
    expect(t.ledger.markToMarket(new Map()).realized).toBe(3_800_000);
  });

  it('is idempotent, and refuses a different outcome', () => {
    hold();
    expect(t.ledger.resolveMarket(COND, YES)).toHaveLength(2);
    t.reopen();
    expect(t.ledger.resolveMarket(COND, YES)).toEqual([]);
    expect(t.ledger.position(YES)?.realized).toBe(6_000_000);
    expect(() => t.ledger.resolveMarket(COND, NO)).toThrow(/already resolved/);
  });

  it('a fill recorded after the resolution is settled at once', () => {
    hold();
    t.ledger.resolveMarket(COND, NO);
    t.ledger.recordFill(fill({ tokenId: NO, price: px(600_000), size: sh(1_000_000), timeMs: T0 - 5_000 }));
    expect(t.ledger.position(NO)).toMatchObject({ size: 0, cost: 0, realized: 1_800_000 + 400_000 });
  });

  it('supports general payouts (a 50-50 market)', () => {
    hold();
    t.ledger.settleMarket(
      COND,
      new Map([
        [YES, px(500_000)],
        [NO, px(500_000)],
      ]),
    );
    expect(t.ledger.position(YES)?.realized).toBe(1_000_000);
    expect(t.ledger.position(NO)?.realized).toBe(-200_000);
  });
});

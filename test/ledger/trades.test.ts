// Trade legs with their settlement status (trade-store.ts): a leg claims the shares order lookups
// already booked (no double count whichever comes first), CONFIRMED moves pending shares to
// confirmed, FAILED reverses the leg's shares in the position exactly once (exact collateral, fee
// refunded, realized PnL adjusted, size_matched kept), the migration backfills pending shares,
// and a property test: any interleaving of lookups and leg reports of the same orders ends with
// the position equal to the sum of the legs minus the failed ones, nothing pending, and the
// position equal to a replay of the fills and reversals in their recorded order.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TradeStatus } from '../../src/core/account.js';
import { VirtualClock } from '../../src/core/clock.js';
import { InvariantError } from '../../src/core/errors.js';
import { mulMicros } from '../../src/core/money.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { migrate } from '../../src/ledger/migrations.js';
import { applyFill, FLAT, reverseFill, unrealizedPnl, type PositionState } from '../../src/core/pnl.js';
import type { TradeLegInput } from '../../src/ledger/types.js';
import { COND, mc, NO, px, sh, signedOrder, T0, tempDir, testLedger, YES, type TestLedger } from './helpers.js';
import type { Side } from '../../src/core/order.js';

let t: TestLedger;
beforeEach(() => {
  t = testLedger();
});
afterEach(() => t.cleanup());

const SH = 1_000_000;

function leg(orderId: string, tradeId: string, size: number, over: Partial<TradeLegInput> = {}): TradeLegInput {
  return {
    tradeId,
    orderId,
    tokenId: YES,
    side: 'BUY',
    price: px(500_000),
    size: sh(size),
    feeMicros: mc(0),
    liquidity: 'maker',
    status: 'MATCHED',
    matchTimeMs: T0,
    lastUpdateMs: T0,
    ...over,
  };
}

function buyOrder(size = 10 * SH, price = 500_000) {
  const o = signedOrder({ side: 'BUY', price: px(price), size: sh(size) });
  t.ledger.recordSignedOrder(o);
  return o;
}

describe('trade legs and order lookups share their shares', () => {
  it('lookup first, then the trades: the legs claim what the lookup booked, no new fill', () => {
    const o = buyOrder();
    expect(t.ledger.recordCumulativeMatch(o.id, sh(10 * SH), { feeMicros: mc(2_000) })).toBe(10 * SH);
    const a = t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH, { feeMicros: mc(900) }));
    expect(a).toMatchObject({ result: 'recorded', fill: null, reversal: null, previousStatus: null });
    // The claim carries what the lookup booked for those shares: 4/10 of its collateral and fee.
    expect(a.leg).toMatchObject({
      claimedSize: 4 * SH,
      claimedNotional: 2_000_000,
      claimedFee: 800,
      fillSeq: null,
      status: 'MATCHED',
    });
    const b = t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH, { feeMicros: mc(1_100) }));
    // The last claim takes the rest exactly.
    expect(b.leg).toMatchObject({ claimedSize: 6 * SH, claimedNotional: 3_000_000, claimedFee: 1_200, fillSeq: null });
    expect(t.ledger.fills()).toHaveLength(1);
    expect(t.ledger.order(o.id)?.sizeMatched).toBe(10 * SH);
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, cost: 5_000_000, fees: 2_000, pendingSize: 10 * SH });
    // The lookup again adds nothing.
    expect(t.ledger.recordCumulativeMatch(o.id, sh(10 * SH))).toBe(0);
    expect(t.ledger.markLookup(o.id, { status: 'MATCHED', sizeMatched: sh(10 * SH) }).newlyMatched).toBe(0);
  });

  it('trade first, then the lookup: the lookup books only what no leg has, and the later leg claims it', () => {
    const o = buyOrder();
    const a = t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH, { price: px(480_000), feeMicros: mc(700) }));
    expect(a.fill).toMatchObject({
      source: 'trade',
      size: 4 * SH,
      price: 480_000,
      notional: 1_920_000,
      feeMicros: 700,
      dedupKey: `trade:ta:${o.id}`,
    });
    expect(a.leg).toMatchObject({ claimedSize: 0, fillSeq: a.fill?.seq });
    expect(t.ledger.order(o.id)?.sizeMatched).toBe(4 * SH);
    // The exchange's cumulative size counts the trade's 4 shares: nothing new at 4, 6 new at 10.
    expect(t.ledger.recordCumulativeMatch(o.id, sh(4 * SH))).toBe(0);
    expect(t.ledger.markLookup(o.id, { status: 'MATCHED', sizeMatched: sh(10 * SH) }).newlyMatched).toBe(6 * SH);
    const b = t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH));
    expect(b).toMatchObject({ result: 'recorded', fill: null });
    expect(b.leg?.claimedSize).toBe(6 * SH);
    expect(t.ledger.fills().map((f) => [f.source, f.size])).toEqual([
      ['trade', 4 * SH],
      ['lookup', 6 * SH],
    ]);
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, pendingSize: 10 * SH });
    expect(t.ledger.order(o.id)).toMatchObject({ sizeMatched: 10 * SH, state: 'matched' });
  });

  it('a leg partly claimed records the rest as a fill, with the leg fee pro rata', () => {
    const o = buyOrder();
    t.ledger.recordCumulativeMatch(o.id, sh(3 * SH));
    const r = t.ledger.recordTradeLeg(leg(o.id, 'ta', 7 * SH, { feeMicros: mc(1_001) }));
    expect(r.leg).toMatchObject({ claimedSize: 3 * SH });
    // 1001 × 4/7 = 572, rounded up (never understates a fee paid).
    expect(r.fill).toMatchObject({ size: 4 * SH, feeMicros: 572 });
    expect(t.ledger.order(o.id)?.sizeMatched).toBe(7 * SH);
  });

  it("a leg reported again only moves its status; a side left out is the order's; other contents are refused", () => {
    const o = buyOrder();
    expect(t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH, { side: null })).result).toBe('recorded');
    expect(t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH)).result).toBe('unchanged');
    expect(
      t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH, { status: 'MINED', lastUpdateMs: T0 + 2_000 })),
    ).toMatchObject({
      result: 'updated',
      previousStatus: 'MATCHED',
      leg: { status: 'MINED', lastUpdateMs: T0 + 2_000 },
    });
    expect(() => t.ledger.recordTradeLeg(leg(o.id, 'ta', 5 * SH))).toThrow(InvariantError);
    expect(() => t.ledger.recordTradeLeg(leg(o.id, 'tb', 1 * SH, { side: 'SELL' }))).toThrow(/does not match order/);
    expect(() => t.ledger.recordTradeLeg(leg(o.id, 'tb', 1 * SH, { tokenId: NO }))).toThrow(/does not match order/);
    expect(t.ledger.tradeLegs({ orderId: o.id })).toHaveLength(1);
    expect(t.ledger.position(YES)?.size).toBe(4 * SH);
  });

  it('a leg of an order the ledger does not know writes nothing', () => {
    expect(t.ledger.recordTradeLeg(leg('0xnot-ours', 'ta', SH))).toEqual({
      result: 'unknown-order',
      leg: null,
      previousStatus: null,
      fill: null,
      reversal: null,
    });
    expect(t.ledger.fills()).toEqual([]);
    expect(t.ledger.tradeLegs()).toEqual([]);
  });
});

describe('settlement status', () => {
  it('CONFIRMED moves pending shares to confirmed, leg by leg; a final status never changes again', () => {
    const o = buyOrder();
    t.ledger.recordCumulativeMatch(o.id, sh(10 * SH));
    t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH));
    t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH, { status: 'MINED' }));
    expect(t.ledger.oldestUnsettledTradeMs()).toBe(T0);
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, pendingSize: 10 * SH });
    t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH, { status: 'CONFIRMED' }));
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, pendingSize: 6 * SH });
    t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH, { status: 'CONFIRMED' }));
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, pendingSize: 0 });
    expect(t.ledger.oldestUnsettledTradeMs()).toBeNull();
    expect(t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH, { status: 'CONFIRMED' })).result).toBe('unchanged');
    expect(t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH, { status: 'FAILED' })).result).toBe('ignored');
    expect(t.ledger.recordTradeLeg(leg(o.id, 'tb', 6 * SH, { status: 'MINED' })).result).toBe('ignored');
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, pendingSize: 0 });
    expect(t.ledger.fillReversals()).toEqual([]);
  });

  it('a SELL leg is pending with its sign', () => {
    const o = signedOrder({ side: 'SELL', price: px(600_000), size: sh(5 * SH) });
    t.ledger.recordSignedOrder(o);
    t.ledger.recordTradeLeg(leg(o.id, 'ts', 5 * SH, { side: 'SELL', price: px(600_000) }));
    expect(t.ledger.position(YES)).toMatchObject({ size: -5 * SH, pendingSize: -5 * SH });
  });

  it('FAILED reverses the leg once: exact collateral, fee refunded, realized PnL adjusted, size_matched kept', () => {
    // 10 held at 0.50 through a lookup, confirmed; then 10 more at 0.40 by a trade (fee 1000) that fails.
    const first = buyOrder(10 * SH, 500_000);
    t.ledger.recordCumulativeMatch(first.id, sh(10 * SH));
    t.ledger.recordTradeLeg(leg(first.id, 't1', 10 * SH, { status: 'CONFIRMED' }));
    const second = buyOrder(10 * SH, 400_000);
    t.ledger.recordTradeLeg(
      leg(second.id, 't2', 10 * SH, { price: px(400_000), feeMicros: mc(1_000), liquidity: 'taker' }),
    );
    expect(t.ledger.position(YES)).toMatchObject({
      size: 20 * SH,
      cost: 9_000_000,
      realized: -1_000,
      fees: 1_000,
      pendingSize: 10 * SH,
      bought: 20 * SH,
    });

    t.clock.advance(10_000);
    const failed = t.ledger.recordTradeLeg(
      leg(second.id, 't2', 10 * SH, { price: px(400_000), status: 'FAILED', lastUpdateMs: T0 + 10_000 }),
    );
    expect(failed).toMatchObject({ result: 'updated', previousStatus: 'MATCHED', fill: null });
    // Average cost: the 10 reversed at 0.40 take 10 × 0.45 of the basis out: −0.5 realized, +0.001 refund.
    expect(failed.reversal).toMatchObject({
      tradeId: 't2',
      orderId: second.id,
      side: 'BUY',
      size: 10 * SH,
      notional: 4_000_000,
      feeMicros: 1_000,
      realizedDelta: -499_000,
      timeMs: T0 + 10_000,
      recordedAtMs: T0 + 10_000,
    });
    expect(failed.leg).toMatchObject({ status: 'FAILED', reversalSeq: failed.reversal?.seq });
    const p = t.ledger.position(YES)!;
    expect(p).toMatchObject({
      size: 10 * SH,
      cost: 4_500_000,
      realized: -500_000,
      fees: 0,
      pendingSize: 0,
      bought: 10 * SH,
      sold: 0,
    });
    // realized − cost, hence realized + unrealized at any mark, is as if the trade never happened.
    for (const mark of [0, 300_000, 450_000, 1_000_000]) {
      expect(p.realized + unrealizedPnl(p, px(mark))).toBe(mulMicros(mark, 10 * SH, 'floor') - 5_000_000);
    }
    // Exactly once: FAILED again, or any other status, changes nothing.
    expect(
      t.ledger.recordTradeLeg(leg(second.id, 't2', 10 * SH, { price: px(400_000), status: 'FAILED' })).result,
    ).toBe('unchanged');
    expect(
      t.ledger.recordTradeLeg(leg(second.id, 't2', 10 * SH, { price: px(400_000), status: 'CONFIRMED' })).result,
    ).toBe('ignored');
    expect(t.ledger.fillReversals()).toHaveLength(1);
    expect(t.ledger.position(YES)).toMatchObject({ size: 10 * SH, cost: 4_500_000, realized: -500_000 });
    // The exchange keeps the order's match: the ledger too, so a lookup books nothing again.
    expect(t.ledger.order(second.id)?.sizeMatched).toBe(10 * SH);
    expect(t.ledger.markLookup(second.id, { status: 'MATCHED', sizeMatched: sh(10 * SH) }).newlyMatched).toBe(0);
    expect(t.ledger.position(YES)?.size).toBe(10 * SH);
    // The day's realized PnL counts the reversal.
    expect(t.ledger.dailyPnl(new Map()).realized).toBe(-500_000);
  });

  it('a leg first seen FAILED, partly claimed from a lookup, undoes exactly what was booked', () => {
    const o = buyOrder(10 * SH, 500_000);
    t.ledger.recordCumulativeMatch(o.id, sh(6 * SH), { price: px(500_000), feeMicros: mc(300) });
    const r = t.ledger.recordTradeLeg(
      leg(o.id, 'tx', 10 * SH, { price: px(490_000), feeMicros: mc(500), status: 'FAILED' }),
    );
    expect(r).toMatchObject({
      result: 'recorded',
      previousStatus: null,
      leg: { status: 'FAILED', claimedSize: 6 * SH, claimedNotional: 3_000_000, claimedFee: 300 },
    });
    expect(r.fill).toMatchObject({ size: 4 * SH, notional: 1_960_000, feeMicros: 200 });
    expect(r.reversal).toMatchObject({ size: 10 * SH, notional: 4_960_000, feeMicros: 500, realizedDelta: 500 });
    expect(t.ledger.position(YES)).toMatchObject({ size: 0, cost: 0, realized: 0, fees: 0, pendingSize: 0, bought: 0 });
    expect(t.ledger.order(o.id)?.sizeMatched).toBe(10 * SH);
  });

  it('in a resolved market nothing is pending, and a late status change keeps it so', () => {
    const o = buyOrder();
    t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH));
    expect(t.ledger.position(YES)?.pendingSize).toBe(4 * SH);
    t.ledger.resolveMarket(COND, YES);
    expect(t.ledger.position(YES)).toMatchObject({ size: 0, pendingSize: 0, realized: 2_000_000 });
    t.ledger.recordTradeLeg(leg(o.id, 'ta', 4 * SH, { status: 'CONFIRMED' }));
    expect(t.ledger.position(YES)).toMatchObject({ size: 0, pendingSize: 0, realized: 2_000_000 });
  });
});

describe('migration 7', () => {
  it("backfills pending shares from the orders' fills (none in a resolved market)", () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'v6.db');
      const db = new Database(path);
      migrate(db, T0, 6);
      const ins =
        db.prepare(`INSERT INTO fills (dedup_key, order_id, token_id, condition_id, side, price, size, notional, fee, liquidity, source, time_ms, recorded_at_ms, realized_delta)
        VALUES (?, ?, ?, ?, ?, 500000, ?, 0, 0, 'maker', ?, ?, ?, 0)`);
      ins.run('a', 'o1', YES, COND, 'BUY', 7 * SH, 'lookup', T0, T0);
      ins.run('b', 'o2', YES, COND, 'SELL', 2 * SH, 'placement', T0, T0);
      ins.run('c', null, YES, COND, 'BUY', 1 * SH, 'sim', T0, T0);
      ins.run('d', 'o3', 'tok-r', 'cond-r', 'BUY', 3 * SH, 'lookup', T0, T0);
      const pos = db.prepare(
        `INSERT INTO positions (token_id, condition_id, size, cost, realized, fees, bought, sold, updated_at_ms) VALUES (?, ?, ?, 0, 0, 0, 0, 0, ?)`,
      );
      pos.run(YES, COND, 6 * SH, T0);
      pos.run('tok-r', 'cond-r', 0, T0);
      db.prepare(
        `INSERT INTO market_resolutions (condition_id, winner_token_id, payouts_json, resolved_at_ms, recorded_at_ms) VALUES ('cond-r', 'tok-r', '[]', ?, ?)`,
      ).run(T0, T0);
      db.close();
      const l = Ledger.open(path, { clock: new VirtualClock(T0) });
      expect(l.position(YES)?.pendingSize).toBe(5 * SH);
      expect(l.position('tok-r')?.pendingSize).toBe(0);
      l.close();
    } finally {
      dir.cleanup();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Property: any interleaving of lookups and leg reports.

interface TruthLeg {
  order: number;
  size: number;
  price: number;
  fee: number;
  fails: boolean;
}

const ORDERS: ReadonlyArray<{ token: string; side: Side; price: number; size: number }> = [
  { token: YES, side: 'BUY', price: 450_000, size: 30 * SH },
  { token: YES, side: 'SELL', price: 550_000, size: 30 * SH },
  { token: NO, side: 'BUY', price: 400_000, size: 30 * SH },
];

const legArb = fc.record({
  order: fc.integer({ min: 0, max: ORDERS.length - 1 }),
  size: fc.integer({ min: 1, max: 800 }).map((c) => c * 10_000),
  // Off the limit price for a taker leg (price improvement), at it for a maker leg.
  improve: fc.integer({ min: 0, max: 3 }).map((c) => c * 10_000),
  fee: fc.integer({ min: 0, max: 3_000 }),
  fails: fc.boolean(),
});
const action = fc.oneof(
  fc.record({ kind: fc.constant('match' as const) }),
  fc.record({
    kind: fc.constant('lookup' as const),
    order: fc.integer({ min: 0, max: ORDERS.length - 1 }),
    seen: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('report' as const),
    pick: fc.nat(),
    final: fc.boolean(),
    stage: fc.integer({ min: 0, max: 1 }),
  }),
);

describe('property: lookups and trade legs in any order', () => {
  it('end with the sum of the legs minus the failed ones, nothing pending, and a position equal to a replay', () => {
    fc.assert(
      fc.property(
        fc.array(legArb, { minLength: 1, maxLength: 12 }),
        fc.array(action, { maxLength: 60 }),
        (rawLegs, actions) => {
          const ledger = Ledger.open(':memory:', { clock: new VirtualClock(T0), synchronous: 'NORMAL' });
          try {
            const orders = ORDERS.map((o) => {
              const so = signedOrder({ tokenId: o.token, side: o.side, price: px(o.price), size: sh(o.size) });
              ledger.recordSignedOrder(so);
              return so;
            });
            // Legs within their order's size.
            const used = ORDERS.map(() => 0);
            const legs: TruthLeg[] = [];
            for (const l of rawLegs) {
              const o = ORDERS[l.order]!;
              if (used[l.order]! + l.size > o.size) continue;
              used[l.order]! += l.size;
              const price = o.side === 'BUY' ? o.price - l.improve : o.price + l.improve;
              legs.push({ order: l.order, size: l.size, price, fee: l.fee, fails: l.fails });
            }
            let matched = 0; // legs [0, matched) have happened on the exchange
            const finalSeen = new Set<number>();
            const cumulative = (order: number, upTo: number): number =>
              legs
                .slice(0, upTo)
                .filter((x) => x.order === order)
                .reduce((s, x) => s + x.size, 0);
            const report = (i: number, final: boolean, stage: number): void => {
              const l = legs[i]!;
              if (final) finalSeen.add(i);
              const status: TradeStatus = finalSeen.has(i)
                ? l.fails
                  ? 'FAILED'
                  : 'CONFIRMED'
                : l.fails
                  ? stage === 0
                    ? 'MATCHED'
                    : 'RETRYING'
                  : stage === 0
                    ? 'MATCHED'
                    : 'MINED';
              const o = ORDERS[l.order]!;
              ledger.recordTradeLeg({
                tradeId: `t${i}`,
                orderId: orders[l.order]!.id,
                tokenId: o.token,
                side: stage === 0 ? o.side : null,
                price: px(l.price),
                size: sh(l.size),
                feeMicros: mc(l.fee),
                liquidity: l.price === o.price ? 'maker' : 'taker',
                status,
                matchTimeMs: T0 + i,
                lastUpdateMs: T0 + i,
              });
            };
            const lookup = (order: number, upTo: number): void => {
              const c = cumulative(order, upTo);
              // The lookup's fee: a little per share, its own guess.
              ledger.recordCumulativeMatch(orders[order]!.id, sh(c), {
                feeMicros: mc(
                  Math.floor(Math.max(0, c - (ledger.order(orders[order]!.id)?.sizeMatched ?? 0)) / 10_000),
                ),
              });
            };
            for (const a of actions) {
              if (a.kind === 'match') {
                if (matched < legs.length) matched++;
              } else if (a.kind === 'lookup') lookup(a.order, Math.floor(a.seen * (matched + 1)));
              else if (matched > 0) report(a.pick % matched, a.final, a.stage);
              checkPending(ledger);
            }
            // Everything happens and is seen: every leg final, a last lookup of every order.
            matched = legs.length;
            legs.forEach((_, i) => {
              report(i, true, 1);
            });
            ORDERS.forEach((_, i) => {
              lookup(i, legs.length);
            });
            checkPending(ledger);
            // Idempotent: the same reports and lookups again change nothing.
            const before = JSON.stringify([ledger.positions(), ledger.fills(), ledger.fillReversals()]);
            legs.forEach((_, i) => {
              report(i, true, 0);
            });
            ORDERS.forEach((_, i) => {
              lookup(i, legs.length);
            });
            expect(JSON.stringify([ledger.positions(), ledger.fills(), ledger.fillReversals()])).toBe(before);

            for (const token of [YES, NO]) {
              const mine = legs.filter((l) => ORDERS[l.order]!.token === token);
              const sign = (l: TruthLeg): number => (ORDERS[l.order]!.side === 'BUY' ? 1 : -1);
              const p = ledger.position(token);
              expect(p?.size ?? 0).toBe(mine.filter((l) => !l.fails).reduce((s, l) => s + sign(l) * l.size, 0));
              expect(p?.pendingSize ?? 0).toBe(0);
              expect(p?.bought ?? 0).toBe(mine.filter((l) => !l.fails && sign(l) > 0).reduce((s, l) => s + l.size, 0));
              expect(p?.sold ?? 0).toBe(mine.filter((l) => !l.fails && sign(l) < 0).reduce((s, l) => s + l.size, 0));
              if (p !== null) expect(p).toMatchObject(replay(ledger, token));
            }
            ORDERS.forEach((_, i) => {
              const all = legs.filter((l) => l.order === i).reduce((s, l) => s + l.size, 0);
              expect(ledger.order(orders[i]!.id)?.sizeMatched).toBe(all);
              expect(ledger.fillsOfOrder(orders[i]!.id).reduce((s, f) => s + f.size, 0)).toBe(all);
            });
            expect(
              ledger
                .fillReversals()
                .map((r) => r.tradeId)
                .sort(),
            ).toEqual(legs.flatMap((l, i) => (l.fails ? [`t${i}`] : [])).sort());
            expect(ledger.tradeLegs().every((l) => l.status === 'CONFIRMED' || l.status === 'FAILED')).toBe(true);
          } finally {
            ledger.close();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** pending = Σ signed fills of orders − Σ signed final legs, per token (no resolution here). */
function checkPending(ledger: Ledger): void {
  const want = new Map<string, number>();
  const s = (side: Side, n: number): number => (side === 'BUY' ? n : -n);
  for (const f of ledger.fills())
    if (f.orderId !== null) want.set(f.tokenId, (want.get(f.tokenId) ?? 0) + s(f.side, f.size));
  for (const l of ledger.tradeLegs()) {
    if (l.status === 'CONFIRMED' || l.status === 'FAILED')
      want.set(l.tokenId, (want.get(l.tokenId) ?? 0) - s(l.side, l.size));
  }
  for (const p of ledger.positions()) expect(p.pendingSize).toBe(want.get(p.tokenId) ?? 0);
}

/** The token's position replayed from its fills and reversals in their recorded order. */
function replay(ledger: Ledger, token: string): PositionState {
  const reversals = ledger.fillReversals().filter((r) => r.tokenId === token);
  let pos = FLAT;
  const applyReversalsAfter = (seq: number): void => {
    for (const r of reversals) {
      if (r.afterFillSeq === seq)
        pos = reverseFill(pos, {
          side: r.side,
          price: r.price,
          size: r.size,
          notional: r.notional,
          feeMicros: r.feeMicros,
        }).position;
    }
  };
  applyReversalsAfter(0);
  for (const f of ledger.fills()) {
    if (f.tokenId === token)
      pos = applyFill(pos, {
        side: f.side,
        price: f.price,
        size: f.size,
        feeMicros: f.feeMicros,
        notional: f.notional,
      }).position;
    applyReversalsAfter(f.seq);
  }
  return pos;
}

// Market resolution in the ledger: a property test (after settlement, total PnL = Σ signed cash
// flows of the fills + payout × shares held, whatever the fills and the winner, late fills
// included), idempotence across a reopen, the resolution's own time apart from its record time,
// the listing of resolutions and settlement rows, and migration 5 on a v4 database.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { mulMicros, ONE, SCALE } from '../../src/core/money.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { LATEST_VERSION, migrate } from '../../src/ledger/migrations.js';
import { COND, fill, mc, NO, px, sh, T0, tempDir, testLedger, YES, type TestLedger } from './helpers.js';

let t: TestLedger | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

interface Op {
  readonly token: 0 | 1;
  readonly buy: boolean;
  readonly price: number;
  readonly lots: number;
  readonly fee: number;
  readonly late: boolean;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  token: fc.constantFrom(0 as const, 1 as const),
  buy: fc.boolean(),
  // Prices on the engine's 0.0001 grid, sizes in 0.01-share lots: notionals round (BUY ceil, SELL floor).
  price: fc.integer({ min: 1, max: 9_999 }).map((x) => x * 100),
  lots: fc.integer({ min: 1, max: 50_000 }),
  fee: fc.integer({ min: 0, max: 20_000 }),
  late: fc.boolean(),
});

describe('market resolution', () => {
  it('total PnL after settlement = Σ signed cash flows + payout × shares held (property)', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 30 }),
        fc.constantFrom(YES, NO),
        fc.boolean(),
        (ops, winner, withLate) => {
          const l = Ledger.open(':memory:', { clock: new VirtualClock(T0), synchronous: 'NORMAL' });
          try {
            const tokens = [YES, NO] as const;
            const held = new Map<string, number>([
              [YES, 0],
              [NO, 0],
            ]);
            let cash = 0;
            let key = 0;
            const apply = (o: Op): void => {
              const token = tokens[o.token];
              const have = held.get(token) as number;
              // A token cannot be sold short: a sell beyond the position becomes a buy.
              const size = o.lots * 10_000;
              const side = o.buy || size > have ? 'BUY' : 'SELL';
              l.recordFill(
                fill({
                  tokenId: token,
                  side,
                  price: px(o.price),
                  size: sh(size),
                  feeMicros: mc(o.fee),
                  dedupKey: `p-${key++}`,
                }),
              );
              const notional = mulMicros(o.price, size, side === 'BUY' ? 'ceil' : 'floor');
              cash += (side === 'BUY' ? -notional : notional) - o.fee;
              held.set(token, have + (side === 'BUY' ? size : -size));
            };
            const before = ops.filter((o) => !(withLate && o.late));
            const after = ops.filter((o) => withLate && o.late);
            for (const o of before) apply(o);
            const s = l.resolveMarket(COND, winner, T0 - 60_000);
            // One settlement per token held, paying exactly 1 µ-collateral per µ-share to the winner.
            expect(s.map((x) => x.tokenId).sort()).toEqual(tokens.filter((tk) => (held.get(tk) as number) > 0).sort());
            for (const x of s) expect(x.proceeds).toBe(x.tokenId === winner ? x.size : 0);
            cash += held.get(winner) as number;
            held.set(YES, 0);
            held.set(NO, 0);
            // Late fills (learned after the resolution) are settled as they are recorded.
            for (const o of after) {
              apply(o);
              const tk = tokens[o.token];
              cash += tk === winner ? (held.get(tk) as number) : 0;
              held.set(tk, 0);
            }
            const m = l.markToMarket(new Map());
            expect(m.total).toBe(cash);
            expect(m.realized).toBe(cash);
            expect(m.unrealized).toBe(0);
            expect(m.unmarked).toEqual([]);
            expect(l.positions({ openOnly: true })).toEqual([]);
            // The realized PnL is exactly what the fill rows and the settlement rows say it is.
            const fromRows =
              l.fills().reduce((a, f) => a + f.realizedDelta, 0) +
              l.settlements().reduce((a, x) => a + x.realizedDelta, 0);
            expect(fromRows).toBe(cash);
            // Idempotent: settling again changes nothing.
            expect(l.resolveMarket(COND, winner)).toEqual([]);
            expect(l.markToMarket(new Map()).total).toBe(cash);
          } finally {
            l.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the resolution time apart from the record time, lists resolutions and settlements, survives a reopen', () => {
    t = testLedger();
    t.ledger.recordFill(fill({ tokenId: YES, price: px(400_000), size: sh(10_000_000), feeMicros: mc(5_000) }));
    t.ledger.recordFill(fill({ tokenId: NO, price: px(550_000), size: sh(4_000_000) }));
    t.clock.advance(7_000);
    const resolvedAt = T0 + 2_000;
    const s = t.ledger.resolveMarket(COND, YES, resolvedAt);
    expect(s.map((x) => [x.tokenId, x.size, x.proceeds, x.realizedDelta, x.recordedAtMs])).toEqual(
      [
        [YES, 10_000_000, 10_000_000, 6_000_000, T0 + 7_000],
        [NO, 4_000_000, 0, -2_200_000, T0 + 7_000],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    expect(t.ledger.resolution(COND)).toEqual({
      conditionId: COND,
      winnerTokenId: YES,
      payouts: [[YES, ONE]],
      resolvedAtMs: resolvedAt,
      recordedAtMs: T0 + 7_000,
    });
    expect(t.ledger.resolution('0xother')).toBeNull();
    // A late fill of the loser: a settlement row of its own, at its record time.
    t.clock.advance(1_000);
    t.ledger.recordFill(fill({ tokenId: NO, price: px(500_000), size: sh(1_000_000), timeMs: T0 + 1_000 }));
    const rows = t.ledger.settlements(COND);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({
      tokenId: NO,
      size: 1_000_000,
      payout: 0,
      proceeds: 0,
      realizedDelta: -500_000,
      recordedAtMs: T0 + 8_000,
    });
    expect(rows.map((r) => r.seq)).toEqual([...rows.map((r) => r.seq)].sort((a, b) => a - b));
    t.reopen();
    expect(t.ledger.settlements()).toEqual(rows);
    expect(t.ledger.settlements('0xother')).toEqual([]);
    expect(t.ledger.resolutions()).toEqual([expect.objectContaining({ conditionId: COND, resolvedAtMs: resolvedAt })]);
    // Settling again, even naming another time, is a no-op; another winner is refused.
    expect(t.ledger.resolveMarket(COND, YES, T0 + 99_000)).toEqual([]);
    expect(t.ledger.resolution(COND)?.resolvedAtMs).toBe(resolvedAt);
    expect(() => t!.ledger.resolveMarket(COND, NO)).toThrow(/already resolved/);
    expect(t.ledger.markToMarket(new Map()).total).toBe(6_000_000 - 5_000 - 2_200_000 - 500_000);
  });

  it('refuses a resolution time that is not an integer, and writes nothing', () => {
    t = testLedger({ memory: true });
    t.ledger.recordFill(fill({ tokenId: YES }));
    expect(() => t!.ledger.resolveMarket(COND, YES, Number.NaN)).toThrow(/bad time/);
    expect(t.ledger.resolution(COND)).toBeNull();
    expect(t.ledger.position(YES)?.size).toBe(1_000_000);
  });

  it('markToMarket, positions and the daily PnL see a settled market as closed', () => {
    t = testLedger({ memory: true });
    t.ledger.recordFill(fill({ tokenId: YES, price: px(300_000), size: sh(2_000_000) }));
    expect(t.ledger.markToMarket(new Map([[YES, px(350_000)]]))).toMatchObject({ unrealized: 100_000, total: 100_000 });
    t.ledger.resolveMarket(COND, NO);
    // A mid still around for the token no longer marks anything: the position is closed at 0.
    const m = t.ledger.markToMarket(new Map([[YES, px(350_000)]]));
    expect(m).toMatchObject({ positions: [], unrealized: 0, realized: -600_000, total: -600_000 });
    expect(t.ledger.position(YES)).toMatchObject({
      size: 0,
      cost: 0,
      avgPrice: null,
      realized: -600_000,
      bought: 2_000_000,
    });
    expect(t.ledger.dailyPnl(new Map())).toMatchObject({ realized: -600_000, total: -600_000 });
  });

  it("migration 5 gives a v4 database its resolutions' record time (backfilled from the old time)", () => {
    const dir = tempDir();
    try {
      const path = join(dir.dir, 'ledger.db');
      const db = new Database(path);
      db.pragma('journal_mode = WAL');
      expect(migrate(db, T0, 4).to).toBe(4);
      db.prepare(
        'INSERT INTO market_resolutions (condition_id, winner_token_id, payouts_json, resolved_at_ms) VALUES (?, ?, ?, ?)',
      ).run(COND, YES, JSON.stringify([[YES, SCALE]]), T0 + 500);
      db.close();
      const l = Ledger.open(path, { clock: new VirtualClock(T0 + 10_000) });
      try {
        expect(l.migration.to).toBe(LATEST_VERSION);
        expect(l.migration.applied).toContain(5);
        expect(l.resolution(COND)).toEqual({
          conditionId: COND,
          winnerTokenId: YES,
          payouts: [[YES, ONE]],
          resolvedAtMs: T0 + 500,
          recordedAtMs: T0 + 500,
        });
        // The old resolution still settles a late fill.
        l.recordFill(fill({ tokenId: YES, price: px(200_000), size: sh(1_000_000) }));
        expect(l.position(YES)).toMatchObject({ size: 0, realized: 800_000 });
      } finally {
        l.close();
      }
    } finally {
      dir.cleanup();
    }
  });
});

// Mark to market, PnL snapshots and the day's PnL since UTC midnight (the kill switch's input).
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { fill, mc, NO, px, sh, testLedger, YES, type TestLedger } from './helpers.js';

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 5, 13); // 2026-06-13T00:00Z

let t: TestLedger;
afterEach(() => t.cleanup());

describe('mark to market', () => {
  it('marks held tokens at their mid and lists those without one', () => {
    t = testLedger();
    t.ledger.recordFill(fill({ tokenId: YES, price: px(400_000), size: sh(10_000_000) }));
    t.ledger.recordFill(fill({ tokenId: NO, price: px(550_000), size: sh(4_000_000) }));
    t.ledger.recordFill(
      fill({ tokenId: YES, side: 'SELL', price: px(450_000), size: sh(2_000_000), feeMicros: mc(10_000) }),
    );
    const m = t.ledger.markToMarket(new Map([[YES, px(425_500)]]));
    // YES: 8 held at 0.40 (cost 3.20), value 8 × 0.4255 = 3.404 → +0.204; realized (0.45 − 0.40) × 2 − 0.01 = 0.09.
    expect(m.positions).toEqual([
      {
        tokenId: YES,
        conditionId: expect.any(String),
        size: 8_000_000,
        cost: 3_200_000,
        mark: 425_500,
        value: 3_404_000,
        unrealized: 204_000,
      },
    ]);
    expect(m).toMatchObject({ unrealized: 204_000, realized: 90_000, fees: 10_000, total: 294_000, unmarked: [NO] });
  });

  it('writes snapshots with integer detail', () => {
    t = testLedger();
    t.ledger.recordFill(fill({ price: px(400_000), size: sh(10_000_000) }));
    const s = t.ledger.pnlSnapshot(new Map([[YES, px(410_000)]]));
    expect(s).toMatchObject({ seq: 1, unrealized: 100_000, total: 100_000 });
    const db = new Database(t.path, { readonly: true });
    const row = db.prepare('SELECT * FROM pnl_snapshots').get() as Record<string, unknown>;
    db.close();
    expect(row).toMatchObject({
      at_ms: t.clock.now(),
      realized: 0,
      unrealized: 100_000,
      total: 100_000,
      open_positions: 1,
      unmarked: 0,
    });
    expect(JSON.parse(String(row['detail_json']))).toEqual({
      marked: [[YES, 10_000_000, 4_000_000, 410_000]],
      unmarked: [],
    });
  });
});

describe('daily PnL since UTC midnight', () => {
  it('is realized since midnight plus the change of unrealized since the last snapshot before it', () => {
    t = testLedger({ start: MIDNIGHT - 2 * 3_600_000 }); // 22:00 the day before
    // Yesterday: buy 10 at 0.40, sell 2 at 0.50 (realized +0.20, yesterday's).
    t.ledger.recordFill(fill({ price: px(400_000), size: sh(10_000_000) }));
    t.ledger.recordFill(fill({ side: 'SELL', price: px(500_000), size: sh(2_000_000) }));
    t.clock.advance(3_600_000); // 23:00: snapshot with YES at 0.45 → unrealized 8 × 0.05 = 0.40
    expect(t.ledger.pnlSnapshot(new Map([[YES, px(450_000)]])).unrealized).toBe(400_000);
    const beforeMidnight = t.ledger.dailyPnl(new Map([[YES, px(450_000)]]));
    expect(beforeMidnight.dayStartMs).toBe(MIDNIGHT - DAY);
    expect(beforeMidnight.realized).toBe(200_000); // yesterday's own day
    t.clock.advance(2 * 3_600_000); // 01:00 today
    // Today: sell 4 at 0.35 → realized (0.35 − 0.40) × 4 − 0.02 fee = −0.22.
    t.ledger.recordFill(fill({ side: 'SELL', price: px(350_000), size: sh(4_000_000), feeMicros: mc(20_000) }));
    const d = t.ledger.dailyPnl(new Map([[YES, px(300_000)]]));
    // Unrealized now 4 × (0.30 − 0.40) = −0.40; baseline 0.40 → change −0.80.
    expect(d).toEqual({
      dayStartMs: MIDNIGHT,
      realized: -220_000,
      unrealizedChange: -800_000,
      total: -1_020_000,
      baselineAtMs: MIDNIGHT - 3_600_000,
      unmarked: [],
    });
  });

  it('counts resolutions of the day, and has a zero baseline for a ledger started today', () => {
    t = testLedger({ start: MIDNIGHT + 3_600_000 });
    t.ledger.recordFill(fill({ tokenId: YES, price: px(400_000), size: sh(10_000_000) }));
    t.ledger.recordFill(fill({ tokenId: NO, price: px(500_000), size: sh(2_000_000) }));
    expect(
      t.ledger.dailyPnl(
        new Map([
          [YES, px(380_000)],
          [NO, px(500_000)],
        ]),
      ),
    ).toMatchObject({
      realized: 0,
      unrealizedChange: -200_000,
      total: -200_000,
      baselineAtMs: null,
    });
    t.ledger.resolveMarket(fill().conditionId, NO);
    // YES pays 0 (−4.00), NO pays 1 (+1.00): all realized today; nothing held any more.
    expect(t.ledger.dailyPnl(new Map())).toMatchObject({
      realized: -3_000_000,
      unrealizedChange: 0,
      total: -3_000_000,
    });
    // The next day starts from zero.
    t.clock.advance(DAY);
    expect(t.ledger.dailyPnl(new Map())).toMatchObject({ dayStartMs: MIDNIGHT + DAY, realized: 0, total: 0 });
  });

  it('reports held tokens it could not mark', () => {
    t = testLedger({ memory: true });
    t.ledger.recordFill(fill({ tokenId: YES }));
    expect(t.ledger.dailyPnl(new Map()).unmarked).toEqual([YES]);
  });
});

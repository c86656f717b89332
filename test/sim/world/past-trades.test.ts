// The world's past trades (past-trades.ts) and what standings.ts derives from them: trades lie in
// their market's trading window before the world's start, on the tick, in whole lots, fee-free,
// never selling more than held; the leaderboard and the profile holdings are exactly what the
// trades give (deriveStandings run again on the generated world reproduces them).
import { describe, expect, it } from 'vitest';
import { SCALE } from '../../../src/core/money.js';
import { LOT } from '../../../src/sim/world/past-trades.js';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS } from '../../../src/sim/world/model.js';
import { deriveStandings } from '../../../src/sim/world/standings.js';
import { makeWorld, START } from './helpers.js';

describe("the world's past trades", () => {
  const w = makeWorld(200, 'past');

  it("lie in their market's trading window, in time order, whole seconds before the start", () => {
    expect(w.pastTrades.length).toBeGreaterThan(1000);
    let prev = -Infinity;
    for (const t of w.pastTrades) {
      const m = w.markets[t.marketIndex];
      if (m === undefined) throw new Error('unknown market');
      expect(t.timeMs % 1000).toBe(0);
      expect(t.timeMs).toBeGreaterThanOrEqual(prev);
      expect(t.timeMs).toBeLessThan(START);
      expect(t.timeMs).toBeGreaterThanOrEqual(m.acceptingOrderTimestampMs);
      if (m.state.closed) expect(t.timeMs).toBeLessThan(m.endDateMs);
      prev = t.timeMs;
    }
  });

  it('are on the tick, in whole lots, and fee-free (takers only where the schedule charges nothing)', () => {
    for (const t of w.pastTrades) {
      const m = w.markets[t.marketIndex];
      if (m === undefined) throw new Error('unknown market');
      const tick = m.state.tick;
      expect(t.price % tick).toBe(0);
      expect(t.price).toBeGreaterThanOrEqual(tick);
      expect(t.price).toBeLessThanOrEqual(SCALE - tick);
      expect(t.size % LOT).toBe(0);
      expect(t.size).toBeGreaterThan(0);
      if (t.role === 'taker') expect([m.fee.rate, m.fee.makerBaseFeeBps, m.fee.takerBaseFeeBps]).toEqual([0, 0, 0]);
    }
  });

  it('never sell more than held, and a position sold out is not bought again', () => {
    const held = new Map<string, number>();
    const soldOut = new Set<string>();
    for (const t of w.pastTrades) {
      const k = `${t.userIndex}|${t.marketIndex}|${t.outcomeIndex}`;
      expect(soldOut.has(k)).toBe(false);
      const h = (held.get(k) ?? 0) + (t.side === 'BUY' ? t.size : -t.size);
      expect(h).toBeGreaterThanOrEqual(0);
      held.set(k, h);
      if (h === 0) soldOut.add(k);
    }
  });

  it("are the only source of the leaderboard and of the profiles' holdings", () => {
    const again = deriveStandings(w);
    for (const c of LEADERBOARD_CATEGORIES) {
      for (const p of LEADERBOARD_PERIODS)
        expect(again.leaderboard.get(`${c}/${p}`)).toEqual(w.leaderboardFigures(c, p));
    }
    for (const u of w.users) expect(u.positions).toEqual(again.holdings.get(u.index) ?? []);
    expect(w.users.some((u) => u.positions.length > 0)).toBe(true);
  });
});

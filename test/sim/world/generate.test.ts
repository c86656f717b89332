import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCALE } from '../../../src/core/money.js';
import { isValidOrderPrice, TICKS } from '../../../src/core/tick.js';
import { generateWorld } from '../../../src/sim/world/generate.js';
import { toWireClobMarketSettings, toWireMarket, toWireSamplingMarket } from '../../../src/sim/world/render-market.js';
import { toWireComment, toWireEventFull } from '../../../src/sim/world/render-catalog.js';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS } from '../../../src/sim/world/model.js';
import type { World } from '../../../src/sim/world/world.js';
import { makeWorld, START } from './helpers.js';
import { OptionError } from '../../../src/core/errors.js';

function everything(w: World): string {
  return JSON.stringify({
    world: w,
    markets: w.markets.map((m) => [toWireMarket(m), toWireSamplingMarket(w, m), toWireClobMarketSettings(m)]),
    events: w.events.map((e) => toWireEventFull(w, e)),
    comments: w.comments.map((c) => toWireComment(w, c)),
  });
}

describe('generateWorld determinism', () => {
  it('same seed → byte-identical world and wire output', () => {
    const a = everything(makeWorld(250, 'seed-a'));
    const b = everything(makeWorld(250, 'seed-a'));
    expect(a).toBe(b);
  });

  it('reproduces a pinned world (same seed → same bytes on every machine)', () => {
    // If generation is changed on purpose, print the new digest and update it here.
    const digest = createHash('sha256')
      .update(JSON.stringify(makeWorld(50, 'pin')))
      .digest('hex');
    expect(digest).toBe('ca2069dba46e097fa8934d29412c718a89e47c8ad7a3f035bb6e320e0a5f6d1a');
  });

  it('different seeds → different worlds', () => {
    expect(everything(makeWorld(50, 1))).not.toBe(everything(makeWorld(50, 2)));
  });

  it('a smaller world is a prefix of a larger one with the same seed', () => {
    const small = makeWorld(60, 9);
    const large = makeWorld(200, 9);
    // Every event but the last (whose market list may be truncated) is identical.
    for (let i = 0; i < small.events.length - 1; i++) {
      expect(large.events[i]?.slug).toBe(small.events[i]?.slug);
      expect(large.events[i]?.marketIndexes).toEqual(small.events[i]?.marketIndexes);
    }
    const lastFull = small.events[small.events.length - 2];
    for (const i of lastFull?.marketIndexes ?? [])
      expect(large.markets[i]?.conditionId).toBe(small.markets[i]?.conditionId);
  });

  it('rejects bad options', () => {
    expect(() => generateWorld({ seed: 1, markets: 0, startMs: START })).toThrow(OptionError);
    expect(() => generateWorld({ seed: 1, markets: 1.5, startMs: START })).toThrow(OptionError);
    expect(() => generateWorld({ seed: 1, markets: 10, startMs: 5 })).toThrow(OptionError);
    expect(() => generateWorld({ seed: 1, markets: 10, startMs: START, users: 0 })).toThrow(OptionError);
  });
});

describe('generateWorld content', () => {
  const w = makeWorld(600, 3);

  it('has exactly the asked number of markets, each in exactly one event', () => {
    expect(w.markets.length).toBe(600);
    const owners = new Map<number, number>();
    for (const e of w.events) {
      expect(e.marketIndexes.length).toBeGreaterThan(0);
      for (const i of e.marketIndexes) {
        expect(owners.has(i)).toBe(false);
        owners.set(i, e.index);
        expect(w.markets[i]?.eventIndex).toBe(e.index);
      }
    }
    expect(owners.size).toBe(600);
  });

  it('identifiers have the public formats and are unique', () => {
    const cond = new Set<string>();
    const tokens = new Set<string>();
    const slugs = new Set<string>();
    const ids = new Set<number>();
    for (const m of w.markets) {
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.questionId).toMatch(/^0x[0-9a-f]{64}$/);
      for (const t of m.tokenIds) {
        expect(t).toMatch(/^[1-9]\d{75}$/);
        tokens.add(t);
      }
      expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      cond.add(m.conditionId);
      slugs.add(m.slug);
      ids.add(m.id);
    }
    expect(cond.size).toBe(w.markets.length);
    expect(tokens.size).toBe(2 * w.markets.length);
    expect(slugs.size).toBe(w.markets.length);
    expect(ids.size).toBe(w.markets.length);
    expect(new Set(w.events.map((e) => e.slug)).size).toBe(w.events.length);
    expect(new Set(w.events.map((e) => e.id)).size).toBe(w.events.length);
    expect(new Set(w.users.map((u) => u.proxyWallet)).size).toBe(w.users.length);
    expect(new Set(w.users.map((u) => u.name)).size).toBe(w.users.length);
    for (const u of w.users) expect(u.proxyWallet).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it('prices sit on the tick and sum to 1; resolved markets show 1 and 0', () => {
    for (const m of w.markets) {
      const [a, b] = m.state.prices;
      expect(a + b).toBe(SCALE);
      expect(TICKS).toContain(m.state.tick);
      if (m.state.winner === null) {
        expect(isValidOrderPrice(a, m.state.tick)).toBe(true);
      } else {
        expect(m.state.prices[m.state.winner]).toBe(SCALE);
        expect(m.state.closed).toBe(true);
      }
    }
  });

  it('has the status mix: open, closed, resolved, archived, paused', () => {
    const s = w.markets.map((m) => m.state);
    const open = s.filter((x) => !x.closed).length;
    expect(open / s.length).toBeGreaterThan(0.6);
    expect(s.some((x) => x.closed && x.winner === null)).toBe(true);
    expect(s.some((x) => x.winner !== null && !x.archived)).toBe(true);
    expect(s.some((x) => x.archived && !x.active)).toBe(true);
    expect(s.some((x) => !x.closed && !x.acceptingOrders)).toBe(true);
    for (const x of s) {
      if (x.closed) expect(x.acceptingOrders).toBe(false);
      if (x.archived) expect(x.closed).toBe(true);
    }
  });

  it('open events end after the start time, finished ones before it', () => {
    for (const e of w.events) {
      const f = w.eventFlags(e);
      if (f.closed) expect(e.endDateMs).toBeLessThan(START);
      else expect(e.endDateMs).toBeGreaterThan(START);
      expect(e.createdAtMs).toBeLessThanOrEqual(e.creationDateMs);
      expect(e.createdAtMs).toBeLessThan(e.endDateMs);
      expect(w.eventUpdatedAtMs(e)).toBeLessThanOrEqual(START);
      expect(e.endDateMs % 3_600_000).toBe(0);
    }
  });

  it('neg-risk events share a neg_risk_market_id, question ids derive from it, and one market wins', () => {
    const groups = w.events.filter((e) => e.negRisk);
    expect(groups.length).toBeGreaterThan(3);
    for (const e of groups) {
      const ms = w.marketsOf(e);
      expect(ms.length).toBeGreaterThan(1);
      expect(e.negRiskMarketId).toMatch(/^0x[0-9a-f]{62}00$/);
      ms.forEach((m, i) => {
        expect(m.negRisk).toBe(true);
        expect(m.negRiskMarketId).toBe(e.negRiskMarketId);
        expect(m.questionId).toBe(e.negRiskMarketId.slice(0, 64) + i.toString(16).padStart(2, '0'));
        expect(m.negRiskRequestId).toMatch(/^0x[0-9a-f]{64}$/);
      });
      if (ms.every((m) => m.state.winner !== null)) expect(ms.filter((m) => m.state.winner === 0).length).toBe(1);
    }
    for (const m of w.markets.filter((x) => !x.negRisk)) {
      expect(m.negRiskMarketId).toBe('');
      expect(m.negRiskRequestId).toBe('');
    }
  });

  it('draws ticks, minimum sizes, fees and rewards from the allowed sets', () => {
    const ticks = new Set(w.markets.map((m) => m.state.tick));
    expect([...ticks].sort()).toEqual([1_000, 10_000]);
    const sizes = new Set(w.markets.map((m) => m.state.minOrderSize / SCALE));
    expect([...sizes].every((s) => [5, 10, 15, 20].includes(s))).toBe(true);
    expect(sizes.has(5)).toBe(true);
    expect(w.markets.filter((m) => m.state.tick === 10_000).length).toBeGreaterThan(w.markets.length / 2);
    expect(w.markets.some((m) => m.fee.takerBaseFeeBps > 0 && m.fee.makerBaseFeeBps === 0)).toBe(true);
    expect(w.markets.filter((m) => m.fee.takerBaseFeeBps === 0).length).toBeGreaterThan(w.markets.length / 2);
    const rewarded = w.markets.filter((m) => m.rewards !== null);
    expect(rewarded.length).toBeGreaterThan(10);
    for (const m of rewarded) expect(m.state.closed).toBe(false);
  });

  it('covers every category, uses outcome names beyond Yes/No, and schedules games', () => {
    expect(new Set(w.markets.map((m) => m.category)).size).toBe(9);
    expect(w.markets.some((m) => m.outcomes[0] === 'Up')).toBe(true);
    const games = w.markets.filter((m) => m.gameStartTimeMs !== null);
    expect(games.length).toBeGreaterThan(0);
    for (const g of games) {
      expect(g.outcomes[0]).not.toBe('Yes');
      expect(g.gameStartTimeMs).toBeLessThan(g.endDateMs);
    }
  });

  it('links tags, series and users consistently', () => {
    for (const e of w.events) {
      expect(w.tagsOf(e.tagIds).length).toBe(e.tagIds.length);
      for (const s of w.seriesOf(e)) expect(w.eventsOfSeries(s)).toContain(e);
    }
    for (const m of w.markets) expect(w.tagsOf(m.tagIds).map((t) => t.label)).toEqual(m.tagLabels);
    for (const u of w.users) for (const p of u.positions) expect(w.token(p.tokenId)).toBeDefined();
  });

  it('comments: replies follow their parent in time and address its author', () => {
    let replies = 0;
    const walk = (c: (typeof w.comments)[number]): void => {
      expect(c.createdAtMs).toBeLessThanOrEqual(START);
      expect(c.updatedAtMs).toBeLessThanOrEqual(START);
      for (const x of c.reactions) expect(x.createdAtMs).toBeLessThanOrEqual(START);
      for (const r of c.replies) {
        replies++;
        expect(r.parentCommentID).toBe(c.id);
        expect(r.replyAddress).toBe(w.user(c.userIndex).proxyWallet);
        expect(r.createdAtMs).toBeGreaterThanOrEqual(c.createdAtMs);
        walk(r);
      }
    };
    for (const c of w.comments) {
      expect(c.parentCommentID).toBe('');
      expect(c.replyAddress).toBe('');
      expect(w.eventById(String(c.parentEntityID))).toBeDefined();
      walk(c);
    }
    expect(w.comments.length).toBeGreaterThan(50);
    expect(replies).toBeGreaterThan(20);
  });

  it('leaderboard: periods nest, OVERALL sums the categories, whole cents', () => {
    const vol = (
      cat: (typeof LEADERBOARD_CATEGORIES)[number],
      p: (typeof LEADERBOARD_PERIODS)[number],
      u: number,
    ): number => w.leaderboardFigures(cat, p).find((f) => f.userIndex === u)?.vol ?? 0;
    for (const cat of LEADERBOARD_CATEGORIES) {
      for (const p of LEADERBOARD_PERIODS) {
        for (const f of w.leaderboardFigures(cat, p)) {
          expect(f.vol % 10_000).toBe(0);
          expect(Math.abs(f.pnl % 10_000)).toBe(0);
          expect(f.vol).toBeGreaterThan(0);
        }
      }
    }
    for (const u of w.users.slice(0, 50)) {
      expect(vol('OVERALL', 'DAY', u.index)).toBeLessThanOrEqual(vol('OVERALL', 'WEEK', u.index));
      expect(vol('OVERALL', 'WEEK', u.index)).toBeLessThanOrEqual(vol('OVERALL', 'MONTH', u.index));
      expect(vol('OVERALL', 'MONTH', u.index)).toBeLessThanOrEqual(vol('OVERALL', 'ALL', u.index));
      const sum = LEADERBOARD_CATEGORIES.filter((c) => c !== 'OVERALL').reduce((a, c) => a + vol(c, 'ALL', u.index), 0);
      expect(vol('OVERALL', 'ALL', u.index)).toBe(sum);
    }
  });
});

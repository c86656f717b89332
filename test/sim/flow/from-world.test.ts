// The flow over a generated world: every open market gets flow with its latent, closed and
// resolved ones none; after a simulated half hour every market that takes orders has a two-sided
// book near its latent, and the engine's audit holds.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE } from '../../../src/core/money.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import { FlowDriver } from '../../../src/sim/flow/driver.js';
import { flowMarketsFromWorld } from '../../../src/sim/flow/from-world.js';
import { generateWorld } from '../../../src/sim/world/generate.js';

describe('flowMarketsFromWorld', () => {
  it('runs flow on the open markets of a world', () => {
    const startMs = Date.UTC(2026, 0, 1);
    const world = generateWorld({ seed: 21, markets: 40, startMs });
    const clock = new VirtualClock(startMs);
    const engine = new MatchingEngine({ clock, retainFinishedMs: 60_000 });
    for (const m of world.markets) {
      engine.addMarket({
        conditionId: m.conditionId,
        tokens: m.tokenIds,
        tick: m.state.tick,
        minSize: m.state.minOrderSize,
        makerFeeBps: m.fee.makerBaseFeeBps,
        takerFeeBps: m.fee.takerBaseFeeBps,
        negRisk: m.negRisk,
        acceptingOrders: m.state.acceptingOrders && !m.state.closed,
      });
      if (m.state.closed) engine.closeMarket(m.conditionId);
    }
    const fm = flowMarketsFromWorld(world);
    const open = world.markets.filter((m) => !m.state.closed && m.state.winner === null);
    expect(fm.map((m) => m.conditionId)).toEqual(open.map((m) => m.conditionId));
    expect(fm.length).toBeGreaterThan(10);
    expect(fm.length).toBeLessThan(world.markets.length);
    for (const m of fm) expect(m.probability).toBe(world.marketByCondition(m.conditionId)?.latentProbability);

    const flow = new FlowDriver({ engine, clock, seed: 21, intensity: 'normal', markets: fm });
    flow.start();
    clock.advance(30 * 60_000);
    let trading = 0;
    for (const m of open) {
      const top = engine.topOfBook(m.tokenIds[0]);
      if (!m.state.acceptingOrders) {
        expect(top).toEqual({ bid: null, ask: null });
        continue;
      }
      trading++;
      expect(top?.bid, m.conditionId).not.toBeNull();
      expect(top?.ask, m.conditionId).not.toBeNull();
      const mid = engine.midpoint(m.tokenIds[0]) as number;
      expect(Math.abs(mid - flow.latent(m.conditionId) * SCALE), m.conditionId).toBeLessThan(40_000);
    }
    expect(trading).toBeGreaterThan(10);
    // Only the taker rules a thin book can trip; never a malformed, off-tick or unfunded order.
    for (const code of Object.keys(flow.stats().rejectedByCode))
      expect(['FOK_NOT_FILLED', 'FAK_NO_MATCH']).toContain(code);
    expect(auditEngine(engine)).toEqual([]);
  });
});

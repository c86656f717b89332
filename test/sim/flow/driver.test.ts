// The driver's API and guarantees: `none` submits nothing; determinism (same seed and same
// external orders → same trades; ticks versus steps of any size; reading the latent changes
// nothing); freeze/unfreeze/step/stop/withdraw; accounts and funding; the market lifecycle (pause,
// tick change, resolution, removal); refilling after an outside trader sweeps the book; news.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import type { Trade } from '../../../src/sim/engine/types.js';
import { FlowError } from '../../../src/sim/flow/driver.js';
import { resolveFlowParams } from '../../../src/sim/flow/params.js';
import { HOUR, makeHarness, recordTrades, type Harness } from './helpers.js';

const MIN = 60_000;

/** A trade without its venue-assigned fields that depend on the clock. */
function shape(t: Trade): string {
  return [
    t.kind,
    t.size,
    t.yesPrice,
    t.takerOrderId,
    t.takerOwner,
    t.takerTokenId,
    t.takerSide,
    t.makerOrderId,
    t.makerOwner,
    t.makerTokenId,
    t.makerSide,
  ].join(' ');
}

/** An outside trader who, every 7 s, buys or sells 30 YES with a FAK across the touch. */
function outsideTaker(h: Harness): void {
  const m = h.markets[0]!;
  h.engine.deposit('outsider', 1_000_000_000_000 as Micros);
  h.engine.mint('outsider', m.conditionId, 100_000_000_000 as Shares);
  let n = 0;
  h.clock.setInterval(() => {
    n++;
    const top = h.engine.topOfBook(m.yes);
    const buy = n % 2 === 0;
    const px = buy ? top?.ask : top?.bid;
    if (px == null) return;
    h.engine.submit({
      id: `out-${n}`,
      owner: 'outsider',
      tokenId: m.yes,
      side: buy ? 'BUY' : 'SELL',
      price: px as Price,
      size: 30_000_000 as Shares,
      orderType: 'FAK',
    });
  }, 7_000);
}

describe('FlowDriver: none', () => {
  it('submits nothing, creates no account, deposits nothing', () => {
    const h = makeHarness({ seed: 1, intensity: 'none' });
    const trades = recordTrades(h.engine);
    const before = h.flow.latent('m-even');
    h.clock.advance(2 * HOUR);
    h.flow.step(HOUR);
    const st = h.flow.stats();
    expect(st.submitted).toBe(0);
    expect(st.canceled).toBe(0);
    expect(st.accounts).toBe(0);
    expect(st.pendingTasks).toBe(0);
    expect(trades).toEqual([]);
    expect(h.engine.internals().orders.size).toBe(0);
    expect(h.engine.internals().accounts.deposited).toBe(0);
    for (const m of h.markets) expect(h.engine.topOfBook(m.yes)).toEqual({ bid: null, ask: null });
    // The latent still moves (for views and for a later switch of intensity).
    expect(h.flow.latent('m-even')).not.toBe(before);
  });
});

describe('FlowDriver: determinism', () => {
  function runOnClock(
    seed: number,
    opts: { outside?: boolean; readLatent?: boolean } = {},
  ): { trades: Trade[]; stats: unknown } {
    const h = makeHarness({ seed });
    const trades = recordTrades(h.engine);
    if (opts.outside === true) outsideTaker(h);
    if (opts.readLatent === true)
      h.clock.setInterval(() => {
        for (const m of h.markets) h.flow.latent(m.conditionId);
      }, 333);
    h.clock.advance(30 * MIN);
    return { trades, stats: h.flow.stats() };
  }

  it('the same seed and the same outside orders give the same trades', () => {
    const a = runOnClock(5, { outside: true });
    const b = runOnClock(5, { outside: true });
    expect(a.trades.length).toBeGreaterThan(100);
    expect(b.trades).toEqual(a.trades);
    expect(b.stats).toEqual(a.stats);
    expect(a.trades.some((t) => t.takerOwner === 'outsider')).toBe(true);
  });

  it('another seed gives other trades', () => {
    const a = runOnClock(5);
    const c = runOnClock(6);
    expect(c.trades.map(shape)).not.toEqual(a.trades.map(shape));
  });

  it('reading the latent does not change anything', () => {
    expect(runOnClock(8, { readLatent: true }).trades).toEqual(runOnClock(8).trades);
  });

  it('how flow time is cut into steps changes nothing', () => {
    const reference = (() => {
      const h = makeHarness({ seed: 3, start: false });
      const trades = recordTrades(h.engine);
      for (let i = 0; i < 4 * 60 * 10; i++) h.flow.step(250);
      return trades.map(shape);
    })();
    expect(reference.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 30 }), (cuts) => {
        const h = makeHarness({ seed: 3, start: false });
        const trades = recordTrades(h.engine);
        let left = 10 * MIN;
        for (const c of cuts) {
          const d = Math.min(c, left);
          h.flow.step(d);
          left -= d;
        }
        h.flow.step(left);
        expect(trades.map(shape)).toEqual(reference);
      }),
      { numRuns: 8 },
    );
  });

  it('clock ticks and explicit steps give the same flow', () => {
    const onClock = makeHarness({ seed: 4 });
    const t1 = recordTrades(onClock.engine);
    onClock.clock.advance(10 * MIN);
    const stepped = makeHarness({ seed: 4, start: false });
    const t2 = recordTrades(stepped.engine);
    stepped.flow.step(10 * MIN);
    expect(t2.map(shape)).toEqual(t1.map(shape));
  });
});

describe('FlowDriver: time controls', () => {
  it('freeze stops flow time while the clock runs; step works while frozen; unfreeze does not catch up', () => {
    const h = makeHarness({ seed: 2 });
    const t0 = h.flow.now();
    h.clock.advance(5 * MIN);
    expect(h.flow.now()).toBe(t0 + 5 * MIN);
    h.flow.freeze();
    expect(h.flow.frozen).toBe(true);
    const before = h.flow.stats().submitted;
    h.clock.advance(10 * MIN);
    expect(h.flow.stats().submitted).toBe(before);
    expect(h.flow.now()).toBe(t0 + 5 * MIN);
    h.flow.step(MIN);
    expect(h.flow.now()).toBe(t0 + 6 * MIN);
    const afterStep = h.flow.stats().submitted;
    expect(afterStep).toBeGreaterThan(before);
    h.flow.unfreeze();
    h.clock.advance(250);
    expect(h.flow.now()).toBe(t0 + 6 * MIN + 250);
    h.clock.advance(MIN);
    expect(h.flow.stats().submitted).toBeGreaterThan(afterStep);
  });

  it('stop removes the timer and keeps resting orders; withdraw cancels them; start resumes', () => {
    const h = makeHarness({ seed: 2 });
    h.clock.advance(2 * MIN);
    expect(h.clock.pending()).toBe(1);
    h.flow.stop();
    expect(h.flow.running).toBe(false);
    expect(h.clock.pending()).toBe(0);
    const resting = h.flow.stats().restingOrders;
    expect(resting).toBeGreaterThan(0);
    const n = h.flow.withdraw();
    expect(n).toBe(resting);
    expect(h.flow.stats().restingOrders).toBe(0);
    for (const a of h.flow.accounts()) expect(h.engine.openOrders(a.owner)).toEqual([]);
    h.flow.start();
    h.flow.start(); // idempotent
    expect(h.clock.pending()).toBe(1);
    h.clock.advance(MIN);
    expect(h.flow.stats().restingOrders).toBeGreaterThan(0);
  });

  it('rejects a bad step and advancing from inside its own listener chain', () => {
    const h = makeHarness({ seed: 2 });
    expect(() => h.flow.step(-1)).toThrow(FlowError);
    expect(() => h.flow.step(Number.NaN)).toThrow(FlowError);
    let thrown: unknown = null;
    h.engine.onTrade(() => {
      if (thrown !== null) return;
      try {
        h.flow.step(1);
      } catch (e) {
        thrown = e;
      }
    });
    h.clock.advance(5 * MIN);
    expect(thrown).toBeInstanceOf(FlowError);
  });
});

describe('FlowDriver: accounts and markets', () => {
  it('funds every account at its market start, with the roles of the parameters', () => {
    const h = makeHarness({ seed: 9 });
    const p = resolveFlowParams('normal');
    const perMarket = p.lp.length + p.noise.accounts + p.informed.accounts;
    expect(h.flow.accounts()).toHaveLength(perMarket * h.markets.length);
    const acc = h.flow.accounts('m-even');
    expect(acc.filter((a) => a.role === 'lp')).toHaveLength(p.lp.length);
    expect(acc.filter((a) => a.role === 'noise')).toHaveLength(p.noise.accounts);
    expect(new Set(h.flow.accounts().map((a) => a.owner)).size).toBe(perMarket * h.markets.length);
    for (const a of acc) {
      expect(a.owner).toMatch(/^0x[0-9a-f]{40}$/);
      expect(h.flow.isFlowAccount(a.owner)).toBe(true);
    }
    expect(h.flow.isFlowAccount('someone')).toBe(false);
    h.clock.advance(250);
    for (const a of acc) {
      const b = h.engine.balances(a.owner);
      const free = b.collateral.available + b.collateral.reserved;
      expect(free).toBeGreaterThan(0);
    }
    expect(h.engine.internals().accounts.deposited).toBe(
      h.flow.accounts().length * (p.funding.collateral + p.funding.sets),
    );
  });

  it('refuses unknown and duplicate markets', () => {
    const h = makeHarness({ seed: 9 });
    expect(() => h.flow.addMarket({ conditionId: 'nope', probability: 500_000 })).toThrow(FlowError);
    expect(() => h.flow.addMarket({ conditionId: 'm-even', probability: 500_000 })).toThrow(FlowError);
    expect(() => h.flow.latent('nope')).toThrow(FlowError);
  });

  it('does nothing in a paused or closed market and resumes when it reopens', () => {
    const h = makeHarness({ seed: 9, markets: [{ id: 'solo', probability: 400_000 }] });
    h.clock.advance(MIN);
    h.engine.setAcceptingOrders('solo', false);
    const s0 = h.flow.stats();
    h.clock.advance(10 * MIN);
    const s1 = h.flow.stats();
    expect(s1.submitted).toBe(s0.submitted);
    expect(s1.events).toBeGreaterThan(s0.events);
    h.engine.setAcceptingOrders('solo', true);
    h.clock.advance(MIN);
    expect(h.flow.stats().submitted).toBeGreaterThan(s1.submitted);
    h.engine.closeMarket('solo');
    const s2 = h.flow.stats();
    h.clock.advance(10 * MIN);
    expect(h.flow.stats().submitted).toBe(s2.submitted);
  });

  it("on resolution: redeems its accounts and stops the market's tasks", () => {
    const h = makeHarness({ seed: 9, markets: [{ id: 'solo', probability: 400_000 }] });
    h.clock.advance(20 * MIN);
    h.engine.resolve('solo', 'solo-yes');
    h.clock.advance(5 * MIN);
    const st = h.flow.stats();
    expect(st.pendingTasks).toBe(0);
    expect(st.restingOrders).toBe(0);
    for (const a of h.flow.accounts('solo')) {
      const b = h.engine.balances(a.owner);
      expect(b.tokens.get('solo-yes')?.available ?? 0).toBe(0);
      expect(b.tokens.get('solo-no')?.available ?? 0).toBe(0);
    }
    expect(h.engine.market('solo')?.lockedCollateral).toBe(0);
    expect(auditEngine(h.engine)).toEqual([]);
  });

  it('follows a tick change: new orders on the new tick, none rejected', () => {
    const h = makeHarness({ seed: 9, markets: [{ id: 'fine', probability: 300_000, tick: 1_000 }] });
    h.clock.advance(10 * MIN);
    h.engine.setTick('fine', 10_000 as Price);
    const since = h.flow.stats().submitted;
    const placed: number[] = [];
    h.engine.onOrderUpdate((u) => {
      if (u.reason === 'placed' && h.flow.isFlowAccount(u.owner))
        placed.push(h.engine.getOrder(u.orderId)?.price ?? -1);
    });
    h.clock.advance(10 * MIN);
    expect(h.flow.stats().submitted).toBeGreaterThan(since);
    expect(placed.length).toBeGreaterThan(0);
    for (const p of placed) expect(p % 10_000).toBe(0);
    expect(h.flow.stats().rejectedByCode.INVALID_TICK).toBeUndefined();
  });

  it('removeMarket cancels its orders and ends its flow; the others go on', () => {
    const h = makeHarness({ seed: 9 });
    h.clock.advance(5 * MIN);
    const owners = h.flow.accounts('m-even').map((a) => a.owner);
    expect(h.flow.removeMarket('m-even')).toBeGreaterThan(0);
    for (const o of owners) expect(h.engine.openOrders(o)).toEqual([]);
    expect(h.flow.conditionIds()).toEqual(['m-fav', 'm-long']);
    expect(() => h.flow.latent('m-even')).toThrow(FlowError);
    const trades = recordTrades(h.engine);
    h.clock.advance(10 * MIN);
    expect(trades.some((t) => t.conditionId === 'm-even')).toBe(false);
    expect(trades.some((t) => t.conditionId === 'm-fav')).toBe(true);
    expect(h.engine.topOfBook('m-even-yes')).toEqual({ bid: null, ask: null });
  });
});

describe('FlowDriver: reacting to the book and to news', () => {
  it('refills the book within seconds after an outsider sweeps one side', () => {
    const h = makeHarness({ seed: 12, markets: [{ id: 'solo', probability: 500_000 }] });
    h.clock.advance(5 * MIN);
    h.engine.deposit('whale', 1_000_000_000_000 as Micros);
    const r = h.engine.submit({
      id: 'sweep',
      owner: 'whale',
      tokenId: 'solo-yes',
      side: 'BUY',
      price: (SCALE - 10_000) as Price,
      size: 100_000_000_000 as Shares,
      orderType: 'FAK',
    });
    expect(r.ok).toBe(true);
    expect(h.engine.topOfBook('solo-yes')?.ask).toBeNull();
    h.clock.advance(5_000);
    expect(h.engine.topOfBook('solo-yes')?.ask).not.toBeNull();
  });

  it('setLatent moves the market: the mid follows news', () => {
    const h = makeHarness({
      seed: 12,
      markets: [{ id: 'solo', probability: 500_000 }],
      overrides: { latent: { volMin: 0, volMax: 0, jumpsPerHour: 0 } },
    });
    h.clock.advance(5 * MIN);
    const mid0 = h.engine.midpoint('solo-yes')!;
    expect(Math.abs(mid0 - 500_000)).toBeLessThan(20_000);
    h.flow.setLatent('solo', 0.8);
    expect(h.flow.latent('solo')).toBeCloseTo(0.8, 12);
    expect(h.flow.latentPrice('solo')).toBe(800_000);
    h.clock.advance(5 * MIN);
    expect(Math.abs(h.engine.midpoint('solo-yes')! - 800_000)).toBeLessThan(20_000);
  });
});

// Order entry of the flow's traders: the token follows the inventory (sell what is held, else buy
// the complement), prices stay on tick in range, sizes are whole lots above the minimum, and a BUY
// short of collateral is funded first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { isValidOrderPrice } from '../../../src/core/tick.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import { newCounters, type FlowContext } from '../../../src/sim/flow/context.js';
import { EventQueue } from '../../../src/sim/flow/event-queue.js';
import { orderPrice, placeYes, readInventory, toLots } from '../../../src/sim/flow/orders.js';
import { resolveFlowParams } from '../../../src/sim/flow/params.js';

function setup(): { engine: MatchingEngine; ctx: FlowContext; m: { yesToken: string; noToken: string } } {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const engine = new MatchingEngine({ clock });
  engine.addMarket({
    conditionId: 'c',
    tokens: ['y', 'n'],
    tick: 10_000 as Price,
    minSize: 5_000_000 as Shares,
    makerFeeBps: 0,
    takerFeeBps: 200,
    negRisk: false,
    acceptingOrders: true,
  });
  let seq = 0;
  const ctx: FlowContext = {
    engine,
    queue: new EventQueue(),
    params: resolveFlowParams('normal'),
    counters: newCounters(),
    now: () => clock.now(),
    nextOrderId: () => `t-${++seq}`,
    track: () => undefined,
  };
  return { engine, ctx, m: { yesToken: 'y', noToken: 'n' } };
}

describe('placeYes', () => {
  it('buys YES for a bid and NO for an ask when holding nothing, topping up collateral', () => {
    const { engine, ctx, m } = setup();
    const s = engine.market('c')!;
    const inv = readInventory(ctx, 'a', m);
    expect(inv).toEqual({ collateral: 0, yes: 0, no: 0 });
    const r1 = placeYes(ctx, m, s, inv, {
      owner: 'a',
      role: 'lp',
      isBid: true,
      yesPrice: 400_000,
      size: 10_000_000,
      type: 'GTC',
    });
    const r2 = placeYes(ctx, m, s, inv, {
      owner: 'a',
      role: 'lp',
      isBid: false,
      yesPrice: 600_000,
      size: 10_000_000,
      type: 'GTC',
    });
    expect(r1.ok && r2.ok).toBe(true);
    const orders = engine.openOrders('a');
    expect(orders.map((o) => [o.tokenId, o.side, o.price])).toEqual([
      ['y', 'BUY', 400_000],
      ['n', 'BUY', 400_000],
    ]);
    expect(ctx.counters.toppedUp).toBe(ctx.params.funding.topUp);
    expect(engine.balances('a').collateral.available + engine.balances('a').collateral.reserved).toBe(
      ctx.params.funding.topUp,
    );
    expect(ctx.counters.byRole.lp).toEqual({ submitted: 2, accepted: 2, rejected: 0 });
  });

  it('sells what it holds: YES for an ask, NO for a bid', () => {
    const { engine, ctx, m } = setup();
    engine.mint('a', 'c', 50_000_000 as Shares);
    const s = engine.market('c')!;
    const inv = readInventory(ctx, 'a', m);
    placeYes(ctx, m, s, inv, {
      owner: 'a',
      role: 'noise',
      isBid: false,
      yesPrice: 610_000,
      size: 20_000_000,
      type: 'GTC',
    });
    placeYes(ctx, m, s, inv, {
      owner: 'a',
      role: 'noise',
      isBid: true,
      yesPrice: 390_000,
      size: 20_000_000,
      type: 'GTC',
    });
    expect(engine.openOrders('a').map((o) => [o.tokenId, o.side, o.price])).toEqual([
      ['y', 'SELL', 610_000],
      ['n', 'SELL', 610_000],
    ]);
    expect(inv.yes).toBe(30_000_000);
    expect(inv.no).toBe(30_000_000);
    expect(ctx.counters.toppedUp).toBe(0);
  });

  it('a taker crossing the book trades, and counts fills and rejections', () => {
    const { engine, ctx, m } = setup();
    engine.deposit('mm', 1_000_000_000 as Micros);
    engine.submit({
      id: 'ask',
      owner: 'mm',
      tokenId: 'y',
      side: 'BUY',
      price: 300_000 as Price,
      size: 10_000_000 as Shares,
      orderType: 'GTC',
    });
    const s = engine.market('c')!;
    // A YES ask at 0.30 held by nobody: BUY NO at 0.70 against mm's BUY YES at 0.30, a mint.
    const r = placeYes(ctx, m, s, readInventory(ctx, 't', m), {
      owner: 't',
      role: 'informed',
      isBid: false,
      yesPrice: 300_000,
      size: 10_000_000,
      type: 'FAK',
    });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.trades.map((t) => t.kind)).toEqual(['mint']);
    expect(ctx.counters.takerFills).toBe(1);
    const again = placeYes(ctx, m, s, readInventory(ctx, 't', m), {
      owner: 't',
      role: 'informed',
      isBid: false,
      yesPrice: 300_000,
      size: 10_000_000,
      type: 'FAK',
    });
    expect(again.ok).toBe(false);
    expect(ctx.counters.rejectedByCode).toEqual({ FAK_NO_MATCH: 1 });
  });
});

describe('toLots / orderPrice', () => {
  it('sizes are whole lots, at least the minimum', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e10, noNaN: true }), fc.integer({ min: 0, max: 100_000_000 }), (x, min) => {
        const s = toLots(x, min);
        expect(s % 10_000).toBe(0);
        expect(s).toBeGreaterThanOrEqual(Math.max(min, 10_000));
        expect(s).toBeLessThanOrEqual(Math.max(x, Math.ceil(min / 10_000) * 10_000, 10_000));
      }),
    );
  });

  it('prices are on tick, in range, and rounded the named way', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e5, max: 1.1e6, noNaN: true }),
        fc.constantFrom(100, 1_000, 2_500, 5_000, 10_000, 100_000),
        (x, tick) => {
          const f = orderPrice(x, tick, 'floor');
          const c = orderPrice(x, tick, 'ceil');
          expect(isValidOrderPrice(f, tick as Price)).toBe(true);
          expect(isValidOrderPrice(c, tick as Price)).toBe(true);
          if (x >= tick && x <= SCALE - tick) {
            expect(f).toBeLessThanOrEqual(x);
            expect(c).toBeGreaterThanOrEqual(x);
            expect(c - f).toBeLessThanOrEqual(tick);
          }
        },
      ),
    );
  });
});

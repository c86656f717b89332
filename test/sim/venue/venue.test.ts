// The simulated venue without HTTP: determinism from the seed, the funded account and its key, the
// world mirrored into the engine, fills into positions / trade log / last trades (and positions
// always equal to engine holdings, a property), order views, tick changes, resolution, mid
// sampling on the clock, and the flow control surface with engineer K's traders.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { Venue, type FlowContext, type FlowControl, type PlaceRequest } from '../../../src/sim/venue/index.js';
import type { MarketRec } from '../../../src/sim/world/index.js';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';

function venue(opts: Partial<ConstructorParameters<typeof Venue>[0]> = {}): Venue {
  return new Venue({ clock: new VirtualClock(T0), seed: 11, markets: 25, dialect: DIALECTS.spec, ...opts });
}

function open(v: Venue, n = 0): MarketRec {
  const m = v.world.markets.filter((x) => x.state.acceptingOrders && !x.state.closed)[n];
  if (m === undefined) throw new Error('no open market');
  return m;
}

let seq = 0;
function req(
  m: MarketRec,
  owner: string,
  side: 'BUY' | 'SELL',
  price: number,
  size: number,
  outcome: 0 | 1 = 0,
): PlaceRequest {
  return {
    id: `0x${(++seq).toString(16).padStart(64, '0')}`,
    owner: owner.toLowerCase(),
    tokenId: m.tokenIds[outcome],
    side,
    price: price as Price,
    size: size as Shares,
    orderType: 'GTC',
    postOnly: false,
    expirationSec: null,
    maker: owner,
    apiKey: 'k',
  };
}

describe('Venue', () => {
  it('is a function of the seed: world, account, credentials', () => {
    const a = venue();
    const b = venue();
    expect(JSON.stringify(a.world)).toBe(JSON.stringify(b.world));
    expect(a.account.address).toBe(b.account.address);
    expect(a.account.privateKey).toBe(b.account.privateKey);
    expect(a.account.credentials.apiKey).toBe(b.account.credentials.apiKey);
    expect(a.account.credentials.secret).toBe(b.account.credentials.secret);
    const c = venue({ seed: 12 });
    expect(c.account.address).not.toBe(a.account.address);
    expect(c.account.credentials.apiKey).not.toBe(a.account.credentials.apiKey);
  });

  it('funds the test account with 1,000,000 collateral and knows its API key', () => {
    const v = venue();
    expect(v.balances(v.account.address).collateral).toEqual({ available: 1_000_000 * SCALE, reserved: 0 });
    const k = v.keys.lookup(v.account.credentials.apiKey);
    expect(k?.address).toBe(v.account.address);
    expect(v.keys.lookup('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('mirrors the world into the engine: ticks, sizes, closed and resolved markets', () => {
    const v = venue();
    for (const m of v.world.markets) {
      const s = v.engine.market(m.conditionId);
      expect(s?.tick).toBe(m.state.tick);
      expect(s?.minSize).toBe(m.state.minOrderSize);
      expect(s?.closed).toBe(m.state.closed);
      expect(s?.winner).toBe(m.state.winner === null ? null : m.tokenIds[m.state.winner]);
    }
  });

  it('turns fills into positions, trade log rows and last trade prices for both tokens', () => {
    const v = venue();
    v.fund(A, (1000 * SCALE) as Micros);
    v.fund(B, (1000 * SCALE) as Micros);
    const m = open(v);
    const tick = m.state.tick;
    const p = 40 * tick;
    // A buys YES (rests), B buys NO at the complement: a mint.
    expect(v.place(req(m, A, 'BUY', p, 20 * SCALE)).ok).toBe(true);
    const r = v.place(req(m, B, 'BUY', SCALE - p, 20 * SCALE, 1));
    expect(r.ok && r.status).toBe('matched');
    const posA = v.positions.current(A);
    const posB = v.positions.current(B);
    expect(posA.map((x) => [x.market.conditionId, x.outcomeIndex, x.size])).toEqual([[m.conditionId, 0, 20 * SCALE]]);
    expect(posB.map((x) => [x.outcomeIndex, x.size])).toEqual([[1, 20 * SCALE]]);
    expect(v.lastTrades.get(m.tokenIds[0])?.price).toBe(p);
    expect(v.lastTrades.get(m.tokenIds[1])?.price).toBe(SCALE - p);
    // The market's listing also holds the world's past trades; ours are the two newest.
    const log = v.trades.query({ market: m.conditionId, limit: '500' });
    expect(log.ok && log.body.filter((x) => [A, B].includes(x.proxyWallet)).length).toBe(2);
    expect(log.ok && log.body.slice(0, 2).every((x) => [A, B].includes(x.proxyWallet))).toBe(true);
    // A sells everything back to B's resting bid: A's position closes.
    expect(v.place(req(m, B, 'BUY', p, 20 * SCALE)).ok).toBe(true);
    const s = v.place(req(m, A, 'SELL', p, 20 * SCALE));
    expect(s.ok && s.status).toBe('matched');
    expect(v.positions.current(A)).toEqual([]);
    expect(v.positions.closed(A).map((x) => x.totalBought)).toEqual([20 * SCALE]);
    expect(v.stats().fills.positionErrors).toBe(0);
  });

  it("lists an owner's orders by status, and looks orders up with their submission data", () => {
    const v = venue();
    v.fund(A, (1000 * SCALE) as Micros);
    const m = open(v);
    const tick = m.state.tick;
    const r1 = req(m, A, 'BUY', 10 * tick, 10 * SCALE);
    const r2 = req(m, A, 'BUY', 11 * tick, 10 * SCALE);
    v.place(r1);
    v.place(r2);
    expect(v.cancel(r1.id, A.toLowerCase()).canceled).toBe(true);
    expect(v.cancel(r2.id, B.toLowerCase())).toEqual({
      canceled: false,
      reason: 'Order not found or already canceled',
    });
    expect(v.ordersOf(A.toLowerCase()).map((o) => o.record.id)).toEqual([r1.id, r2.id]);
    expect(v.ordersOf(A.toLowerCase(), 'LIVE').map((o) => o.record.id)).toEqual([r2.id]);
    expect(v.ordersOf(A.toLowerCase(), 'CANCELED').map((o) => o.record.id)).toEqual([r1.id]);
    const view = v.order(r2.id);
    expect(view?.meta).toEqual({ maker: A, apiKey: 'k', owner: A.toLowerCase() });
    expect(view?.market.conditionId).toBe(m.conditionId);
    expect(v.order('0xdead')).toBeUndefined();
  });

  it('changes a tick in world and engine, and refuses a tick not in use without changing anything', () => {
    const v = venue();
    const m = open(v);
    const next = (m.state.tick === 10_000 ? 1_000 : 10_000) as Price;
    v.setTick(m.conditionId, next);
    expect(m.state.tick).toBe(next);
    expect(v.engine.market(m.conditionId)?.tick).toBe(next);
    expect(() => v.setTick(m.conditionId, 3_000 as Price)).toThrow(/tick/);
    expect(m.state.tick).toBe(next);
    expect(v.engine.market(m.conditionId)?.tick).toBe(next);
    expect(() => v.setTick('0x' + 'ab'.repeat(32), next)).toThrow(/unknown market/);
  });

  it('resolves: resting orders cancelled as CANCELED_MARKET_RESOLVED, winner fixed, positions redeemable', () => {
    const v = venue();
    v.fund(A, (1000 * SCALE) as Micros);
    v.fund(B, (1000 * SCALE) as Micros);
    const m = open(v);
    const p = 50 * m.state.tick;
    v.place(req(m, A, 'BUY', p, 10 * SCALE));
    v.place(req(m, B, 'BUY', SCALE - p, 10 * SCALE, 1));
    const resting = req(m, A, 'BUY', 10 * m.state.tick, 10 * SCALE);
    v.place(resting);
    v.resolve(m.conditionId, 0);
    expect(v.order(resting.id)?.record.status).toBe('CANCELED_MARKET_RESOLVED');
    expect(m.state.winner).toBe(0);
    expect(m.state.closed).toBe(true);
    expect(v.engine.market(m.conditionId)?.winner).toBe(m.tokenIds[0]);
    expect(v.positions.current(A)[0]?.redeemable).toBe(true);
    expect(v.positions.current(A)[0]?.curPrice).toBe(SCALE);
    expect(v.place(req(m, A, 'BUY', p, 10 * SCALE))).toMatchObject({ ok: false, code: 'MARKET_NOT_READY' });
    expect(() => v.resolve(m.conditionId, 1)).toThrow(/already resolved/);
  });

  it('samples midpoints on the clock into price history and displayed prices', () => {
    const clock = new VirtualClock(T0);
    const v = venue({ clock, sampleIntervalMs: 60_000 });
    v.fund(A, (1000 * SCALE) as Micros);
    const m = open(v);
    const t = m.state.tick;
    v.place(req(m, A, 'BUY', 30 * t, 10 * SCALE));
    v.place(req(m, A, 'SELL', 40 * t, 10 * SCALE, 1)); // no NO tokens: rejected, book stays one-sided
    v.place(req(m, A, 'BUY', SCALE - 40 * t, 10 * SCALE, 1)); // ask at 40 ticks in YES terms
    v.start();
    clock.advance(3 * 60_000);
    const mid = 35 * t;
    expect(m.state.prices[0]).toBe(mid);
    expect(m.state.prices[1]).toBe(SCALE - mid);
    const h = v.history.query({ market: m.tokenIds[0] }, clock.now());
    expect(h.ok && h.body.history.length).toBe(4);
    expect(h.ok && h.body.history.every((pt) => pt.p === mid / SCALE)).toBe(true);
    v.close();
    clock.advance(3 * 60_000);
    const h2 = v.history.query({ market: m.tokenIds[0] }, clock.now());
    expect(h2.ok && h2.body.history.length).toBe(4);
  });

  it('drives the flow through its control surface, and tells it when a market resolves', () => {
    const calls: string[] = [];
    const factory = (ctx: FlowContext): FlowControl => ({
      intensity: ctx.intensity,
      state: 'stopped',
      start: () => calls.push('start'),
      stop: () => calls.push('stop'),
      freeze: () => calls.push('freeze'),
      unfreeze: () => calls.push('unfreeze'),
      step: (ms) => calls.push(`step ${ms}`),
      latent: () => null,
      marketClosed: (id) => calls.push(`closed ${id}`),
      dispose: () => calls.push('dispose'),
    });
    const v = venue({ flow: 'low', flowFactory: factory });
    v.start();
    const m = open(v);
    v.resolve(m.conditionId, 1);
    v.close();
    expect(calls).toEqual(['start', `closed ${m.conditionId}`, 'dispose']);
    expect(venue({ flow: 'none', flowFactory: factory }).flow.intensity).toBe('none');
  });

  it("runs engineer K's synthetic traders deterministically from the seed", () => {
    const run = (): { trades: number; book: string } => {
      const clock = new VirtualClock(T0);
      const v = venue({ clock, flow: 'normal' });
      v.start();
      clock.advance(10 * 60_000);
      const m = open(v);
      const b = v.engine.bookView(m.tokenIds[0]);
      const out = {
        trades: v.trades.size,
        book: JSON.stringify(b?.bids.slice(0, 3)) + JSON.stringify(b?.asks.slice(0, 3)),
      };
      v.close();
      return out;
    };
    const a = run();
    const b = run();
    expect(a).toEqual(b);
    expect(a.trades).toBeGreaterThan(0);
  });

  it('keeps positions consistent with engine balances for venue accounts over random trading', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            who: fc.constantFrom(A, B),
            outcome: fc.constantFrom<0 | 1>(0, 1),
            side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
            ticks: fc.integer({ min: 20, max: 80 }),
            lots: fc.integer({ min: 5, max: 30 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (steps) => {
          const v = venue();
          v.fund(A, (10_000 * SCALE) as Micros);
          v.fund(B, (10_000 * SCALE) as Micros);
          const m = open(v);
          // Prices on the 0.01 grid are valid on every tick the world uses (0.01 and 0.001).
          for (const s of steps) v.place(req(m, s.who, s.side, s.ticks * 10_000, s.lots * SCALE, s.outcome));
          expect(v.stats().fills.positionErrors).toBe(0);
          for (const who of [A, B]) {
            const bal = v.balances(who);
            for (const i of [0, 1] as const) {
              const token = m.tokenIds[i];
              const held = (bal.tokens.get(token)?.available ?? 0) + (bal.tokens.get(token)?.reserved ?? 0);
              const pos = v.positions.current(who).find((x) => x.outcomeIndex === i)?.size ?? 0;
              expect(pos).toBe(held);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

// The venue's account lifecycle without HTTP: trade settlement on the virtual clock (MATCHED →
// MINED → CONFIRMED, or RETRYING → FAILED with the trade undone in the engine and the
// PositionBook), the seeded and the forced failures, the unrevertable case, and the heartbeat
// dead-man switch. Positions always equal engine holdings after an undo (a property).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { auditEngine } from '../../../src/sim/engine/index.js';
import { Venue, SettlementConfigError, type PlaceRequest } from '../../../src/sim/venue/index.js';
import type { MarketRec } from '../../../src/sim/world/index.js';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const px = (x: number): number => Math.round(x * SCALE);

function setup(opts: Partial<ConstructorParameters<typeof Venue>[0]> = {}): {
  v: Venue;
  clock: VirtualClock;
  m: MarketRec;
} {
  const clock = new VirtualClock(T0);
  const v = new Venue({ clock, seed: 11, markets: 25, dialect: DIALECTS.spec, ...opts });
  v.fund(A, px(1000) as Micros);
  v.fund(B, px(1000) as Micros);
  const m = v.world.markets.filter(
    (x) => x.state.acceptingOrders && !x.state.closed && x.state.tick === 10_000,
  )[0] as MarketRec;
  return { v, clock, m };
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
    price: px(price) as Price,
    size: px(size) as Shares,
    orderType: 'GTC',
    postOnly: false,
    expirationSec: null,
    maker: owner,
    apiKey: 'k',
  };
}

/** B rests NO bids at 1 − p; A buys YES at p: one fill of `size`, A taker, B maker. Returns the trade id. */
function buyYes(v: Venue, m: MarketRec, p: number, size: number): string {
  v.place(req(m, B, 'BUY', 1 - p, size, 1));
  const r = v.place(req(m, A, 'BUY', p, size));
  if (!r.ok || r.trades.length !== 1) throw new Error('expected one fill');
  return (r.trades[0] as { id: string }).id;
}

const holding = (v: Venue, who: string, token: string): number => {
  const b = v.balances(who).tokens.get(token);
  return b === undefined ? 0 : b.available + b.reserved;
};
const collateral = (v: Venue, who: string): number =>
  v.balances(who).collateral.available + v.balances(who).collateral.reserved;

describe('settlement', () => {
  it('moves a trade MATCHED → MINED → CONFIRMED on the clock, for both parties', () => {
    const { v, clock, m } = setup();
    const id = buyYes(v, m, 0.4, 20);
    expect(v.settlement.get(id)).toMatchObject({ status: 'MATCHED', lastUpdateMs: T0 });
    expect(v.settlement.ofOwner(A.toLowerCase()).map((s) => s.trade.id)).toEqual([id]);
    expect(v.settlement.ofOwner(B.toLowerCase()).map((s) => s.trade.id)).toEqual([id]);
    clock.advance(1_999);
    expect(v.settlement.get(id)?.status).toBe('MATCHED');
    clock.advance(1);
    expect(v.settlement.get(id)).toMatchObject({ status: 'MINED', lastUpdateMs: T0 + 2_000 });
    clock.advance(8_000);
    expect(v.settlement.get(id)).toMatchObject({ status: 'CONFIRMED', lastUpdateMs: T0 + 10_000 });
    expect(v.settlement.stats).toMatchObject({ tracked: 1, confirmed: 1, failed: 0 });
    v.close();
  });

  it('undoes a failed trade: RETRYING, then FAILED with balances and positions as before', () => {
    const { v, clock, m } = setup({ settlement: { minedAfterMs: 1_000, confirmedAfterMs: 5_000 } });
    const before = { a: collateral(v, A), b: collateral(v, B) };
    v.settlement.failNext();
    const id = buyYes(v, m, 0.4, 20);
    expect(v.positions.sizeOf(A, m.tokenIds[0])).toBe(px(20));
    expect(holding(v, B, m.tokenIds[1])).toBe(px(20));
    clock.advance(1_000);
    expect(v.settlement.get(id)?.status).toBe('RETRYING');
    clock.advance(4_000);
    expect(v.settlement.get(id)?.status).toBe('FAILED');
    expect({ a: collateral(v, A), b: collateral(v, B) }).toEqual(before);
    expect(holding(v, A, m.tokenIds[0])).toBe(0);
    expect(holding(v, B, m.tokenIds[1])).toBe(0);
    expect(v.positions.current(A)).toEqual([]);
    expect(v.positions.current(B)).toEqual([]);
    expect(v.positions.closed(A)).toEqual([]);
    expect(v.settlement.stats).toMatchObject({ tracked: 1, failed: 1, positionErrors: 0 });
    expect(auditEngine(v.engine)).toEqual([]);
    v.close();
  });

  it('confirms instead when the undo is impossible (the buyer sold the tokens on)', () => {
    const { v, clock, m } = setup();
    v.settlement.failNext();
    const id = buyYes(v, m, 0.4, 20);
    v.place(req(m, B, 'BUY', 0.5, 20));
    v.place(req(m, A, 'SELL', 0.5, 20)); // a second trade, not forced
    clock.advance(10_000);
    expect(v.settlement.get(id)?.status).toBe('CONFIRMED');
    expect(v.settlement.stats).toMatchObject({ tracked: 2, confirmed: 2, failed: 0, unrevertable: 1 });
    expect(auditEngine(v.engine)).toEqual([]);
    v.close();
  });

  it('fails a seeded fraction of trades, the same ones for the same seed and sequence', () => {
    const run = (): string[] => {
      const { v, clock, m } = setup({ settlement: { failFraction: 0.5 } });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(buyYes(v, m, 0.3 + (i % 5) * 0.01, 20));
      clock.advance(10_000);
      const statuses = ids.map((id) => v.settlement.get(id)?.status as string);
      expect(auditEngine(v.engine)).toEqual([]);
      v.close();
      return statuses;
    };
    const a = run();
    expect(a).toEqual(run());
    expect(a).toContain('FAILED');
    expect(a).toContain('CONFIRMED');
    expect(new Set(a)).toEqual(new Set(['FAILED', 'CONFIRMED']));
  });

  it('keeps PositionBook sizes equal to engine holdings whatever fails (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            p: fc.integer({ min: 20, max: 80 }),
            size: fc.integer({ min: 20, max: 40 }),
            sell: fc.boolean(),
            fail: fc.boolean(),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (steps) => {
          const { v, clock, m } = setup({ settlement: { minedAfterMs: 0, confirmedAfterMs: 3_000 } });
          for (const s of steps) {
            if (s.fail) v.settlement.failNext();
            const held = holding(v, A, m.tokenIds[0]);
            if (s.sell && held >= px(s.size)) {
              v.place(req(m, B, 'BUY', s.p / 100, s.size));
              v.place(req(m, A, 'SELL', s.p / 100, s.size));
            } else buyYes(v, m, s.p / 100, s.size);
            clock.advance(1_000);
          }
          clock.advance(10_000);
          for (const who of [A, B]) {
            for (const tok of m.tokenIds) expect(v.positions.sizeOf(who, tok)).toBe(holding(v, who, tok));
          }
          expect(auditEngine(v.engine)).toEqual([]);
          v.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('validates its settings and does not track trades between accounts it does not serve', () => {
    const { v, m } = setup();
    expect(() => v.settlement.configure({ minedAfterMs: 5, confirmedAfterMs: 4 })).toThrow(SettlementConfigError);
    expect(() => v.settlement.configure({ failFraction: 2 })).toThrow(SettlementConfigError);
    expect(() => v.settlement.configure({ typo: 1 } as never)).toThrow(/unknown settlement setting/);
    expect(v.settlement.configure({ failFraction: 0.25 })).toMatchObject({ failFraction: 0.25, minedAfterMs: 2_000 });
    v.engine.mint('flow-1', m.conditionId, px(20) as Shares);
    v.engine.deposit('flow-2', px(20) as Micros);
    v.engine.submit({
      id: 'f1',
      owner: 'flow-1',
      tokenId: m.tokenIds[0],
      side: 'SELL',
      price: px(0.5) as Price,
      size: px(20) as Shares,
      orderType: 'GTC',
    });
    v.engine.submit({
      id: 'f2',
      owner: 'flow-2',
      tokenId: m.tokenIds[0],
      side: 'BUY',
      price: px(0.5) as Price,
      size: px(20) as Shares,
      orderType: 'GTC',
    });
    expect(v.settlement.stats.tracked).toBe(0);
    v.close();
  });
});

describe('heartbeat', () => {
  it('cancels every live order of an account whose heartbeats stop, and only then', () => {
    const { v, clock, m } = setup({ heartbeatExpiryMs: 5_000 });
    const a = A.toLowerCase();
    v.place(req(m, A, 'BUY', 0.2, 20));
    v.place(req(m, A, 'BUY', 0.21, 20));
    v.place(req(m, B, 'BUY', 0.1, 20));
    const first = v.heartbeats.beat(a, null);
    expect(first.ok).toBe(true);
    clock.advance(4_999);
    const second = v.heartbeats.beat(a, first.heartbeatId);
    expect(second.ok).toBe(true);
    expect(second.heartbeatId).not.toBe(first.heartbeatId);
    clock.advance(4_999);
    expect(v.engine.openOrders(a)).toHaveLength(2);
    clock.advance(1);
    expect(v.engine.openOrders(a)).toHaveLength(0);
    expect(v.engine.openOrders(B.toLowerCase())).toHaveLength(1); // B never sent a heartbeat
    expect(v.heartbeats.active(a)).toBe(false);
    expect(v.heartbeats.stats).toMatchObject({ beats: 2, expired: 1, canceledOrders: 2 });
    v.close();
  });

  it('refuses a stale id with the current one and does not move the deadline; "" joins the session', () => {
    const { v, clock } = setup({ heartbeatExpiryMs: 5_000 });
    const a = A.toLowerCase();
    const s1 = v.heartbeats.beat(a, '');
    const s2 = v.heartbeats.beat(a, s1.heartbeatId);
    const stale = v.heartbeats.beat(a, s1.heartbeatId);
    expect(stale).toEqual({ ok: false, heartbeatId: s2.heartbeatId, error: 'Invalid Heartbeat ID' });
    clock.advance(5_000);
    expect(v.heartbeats.active(a)).toBe(false);
    // With no session running, any id starts one.
    expect(v.heartbeats.beat(a, 'whatever').ok).toBe(true);
    const joined = v.heartbeats.beat(a, '');
    expect(joined.ok).toBe(true);
    expect(joined.heartbeatId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    v.close();
  });
});

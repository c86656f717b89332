import { describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../../src/core/money.js';
import { WorldError } from '../../../src/sim/world/world.js';
import { marketStatus, toWireMarket } from '../../../src/sim/world/render-market.js';
import { toWireEvent, toWireEventFull } from '../../../src/sim/world/render-catalog.js';
import { makeWorld, START } from './helpers.js';

function openMarket(w: ReturnType<typeof makeWorld>) {
  const m = w.markets.find((x) => !x.state.closed && x.state.acceptingOrders);
  if (m === undefined) throw new Error('no open market');
  return m;
}

describe('World lookups', () => {
  const w = makeWorld(120, 'lookups');
  it('finds markets by condition id (any case), market id and token id', () => {
    for (const m of w.markets) {
      expect(w.marketByCondition(m.conditionId.toUpperCase().replace('0X', '0x'))).toBe(m);
      expect(w.marketById(m.id)).toBe(m);
      expect(w.token(m.tokenIds[0])).toEqual({ market: m, outcomeIndex: 0 });
      expect(w.token(m.tokenIds[1])).toEqual({ market: m, outcomeIndex: 1 });
    }
    expect(w.marketByCondition('0x00')).toBeUndefined();
  });
  it('finds events, tags, users, comments', () => {
    for (const e of w.events) {
      expect(w.eventBySlug(e.slug)).toBe(e);
      expect(w.eventById(e.id)).toBe(e);
    }
    for (const t of w.tags) expect(w.tagBySlug(t.slug)).toBe(t);
    for (const u of w.users) {
      expect(w.userByWallet(u.proxyWallet.toUpperCase().replace('0X', '0x'))).toBe(u);
      expect(w.userByName(u.name)).toBe(u);
    }
    const c = w.comments.find((x) => x.replies.length > 0);
    const r = c?.replies[0];
    if (c === undefined || r === undefined) throw new Error('no reply');
    expect(w.comment(r.id)).toEqual({ comment: r, parent: c });
    expect(w.commentsBy(w.user(r.userIndex))).toContain(r);
  });
});

describe('World mutations', () => {
  it('setTick validates the tick and shows on the wire', () => {
    const w = makeWorld(40, 'm1');
    const m = openMarket(w);
    expect(() => w.setTick(m.conditionId, 3_000 as Price, START)).toThrow(WorldError);
    expect(() => w.setTick('0x' + '1'.repeat(64), 1_000 as Price, START)).toThrow(/unknown market/);
    w.setTick(m.conditionId, 100 as Price, START + 5);
    expect(toWireMarket(m).minimum_tick_size).toBe(0.0001);
    expect(m.state.updatedAtMs).toBe(START + 5);
  });

  it('close stops trading; reopening a closed market for orders is refused', () => {
    const w = makeWorld(40, 'm2');
    const m = openMarket(w);
    w.close(m.conditionId, START + 1);
    const r = toWireMarket(m);
    expect([r.closed, r.accepting_orders, r.enable_order_book]).toEqual([true, false, false]);
    expect(marketStatus(m)).toBe('closed');
    expect(() => w.setAcceptingOrders(m.conditionId, true, START + 2)).toThrow(WorldError);
  });

  it('pause and resume accepting orders', () => {
    const w = makeWorld(40, 'm3');
    const m = openMarket(w);
    w.setAcceptingOrders(m.conditionId, false, START + 1);
    expect(marketStatus(m)).toBe('paused');
    w.setAcceptingOrders(m.conditionId, true, START + 2);
    expect(marketStatus(m)).toBe('active');
  });

  it('resolve sets the winner once, fixes prices at 1/0, and later price updates are ignored', () => {
    const w = makeWorld(40, 'm4');
    const m = openMarket(w);
    w.setTokenPrice(m.tokenIds[0], 420_000 as Price);
    expect(toWireMarket(m).tokens[0]?.price).toBe(0.42);
    w.resolve(m.conditionId, 0, START + 10);
    expect(toWireMarket(m).tokens.map((t) => [t.price, t.winner])).toEqual([
      [1, true],
      [0, false],
    ]);
    expect(marketStatus(m)).toBe('resolved');
    expect(m.state.resolvedAtMs).toBe(START + 10);
    expect(() => w.resolve(m.conditionId, 1, START + 11)).toThrow(/already resolved/);
    w.setTokenPrice(m.tokenIds[0], 100_000 as Price);
    expect(m.state.prices[0]).toBe(1_000_000);
    expect(() => w.setTokenPrice(m.tokenIds[0], 2_000_000 as Price)).toThrow(WorldError);
    expect(() => w.setTokenPrice('42', 1 as Price)).toThrow(/unknown token/);
  });

  it('archive needs a closed market, and event flags follow their markets', () => {
    const w = makeWorld(200, 'm5');
    const e = w.events.find((x) => x.marketIndexes.length > 1 && !w.eventFlags(x).closed);
    if (e === undefined) throw new Error('no open multi-market event');
    const ms = w.marketsOf(e);
    const first = ms[0];
    if (first === undefined) throw new Error('empty');
    expect(() => w.archive(first.conditionId, START)).toThrow(/must be closed/);
    w.close(first.conditionId, START + 100);
    expect(toWireEvent(w, e).closed).toBe(false);
    expect(toWireEvent(w, e).updatedAt).toBe(new Date(START + 100).toISOString());
    for (const m of ms) w.close(m.conditionId, START + 200);
    expect(toWireEvent(w, e).closed).toBe(true);
    expect(toWireEvent(w, e).active).toBe(true);
    for (const m of ms) w.archive(m.conditionId, START + 300);
    const full = toWireEventFull(w, e);
    expect([full.active, full.closed, full.archived]).toEqual([false, true, true]);
    expect(full.markets.every((m) => m.archived && !m.active)).toBe(true);
  });

  it('setMinOrderSize validates and shows', () => {
    const w = makeWorld(20, 'm6');
    const m = openMarket(w);
    w.setMinOrderSize(m.conditionId, 15_000_000 as Shares, START);
    expect(toWireMarket(m).minimum_order_size).toBe(15);
    expect(() => w.setMinOrderSize(m.conditionId, 0 as Shares, START)).toThrow(WorldError);
  });
});

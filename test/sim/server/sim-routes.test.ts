// The simulator-only /_sim/ routes (not part of the interface): state, orders by owner and status,
// balances and funding, flow control, market resolution and tick changes, samples — and what the
// interface routes show after each change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import type { WireBook, WireMarket, WireOrderRecord } from '../../../src/exchange/wire.js';
import { openMarket, px, raw, startTestSim, submission, T0, type TestSim } from './helpers.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.close();
});

const post = (path: string, body: unknown): ReturnType<typeof raw> =>
  raw(t.sim, 'POST', path, { body: JSON.stringify(body) });

describe('/_sim/state, /_sim/orders, /_sim/balances, /_sim/fund', () => {
  it("reports the simulator's settings and counters", async () => {
    const s = (await raw(t.sim, 'GET', '/_sim/state')).json as Record<string, unknown>;
    expect(s).toMatchObject({
      seed: 7,
      dialect: 'spec',
      markets: 30,
      account: t.sim.account.address,
      limits: 'off',
      flow: { intensity: 'none', state: 'running' },
    });
  });

  it("lists a wallet's orders by status, by address or API key, with paging", async () => {
    const m = openMarket(t.sim, 0);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.client.postOrder(submission(t, { market: m, price: (10 + i) * m.state.tick, size: px(20) }));
      ids.push(r.orderId as string);
    }
    await t.client.cancelOrder(ids[0] as string);
    const q = async (qs: string): Promise<{ count: number; data: WireOrderRecord[] }> =>
      (await raw(t.sim, 'GET', `/_sim/orders?${qs}`)).json as { count: number; data: WireOrderRecord[] };
    const all = await q(`owner=${t.sim.account.address}`);
    expect(all.data.slice(-3).map((o) => o.id)).toEqual(ids);
    expect((await q(`owner=${t.sim.account.apiKey}&status=CANCELED`)).data.map((o) => o.id)).toContain(ids[0]);
    const live = await q(`owner=${t.sim.account.address.toLowerCase()}&status=LIVE`);
    expect(live.data.map((o) => o.id)).toEqual(expect.arrayContaining([ids[1], ids[2]]));
    expect(live.data.map((o) => o.id)).not.toContain(ids[0]);
    expect((await q(`owner=${t.sim.account.address}&limit=1&offset=1`)).data.length).toBe(1);
    expect(await raw(t.sim, 'GET', '/_sim/orders')).toMatchObject({
      status: 400,
      json: { error: 'missing_field: owner' },
    });
    expect(await raw(t.sim, 'GET', '/_sim/orders?owner=bob')).toMatchObject({ status: 400 });
    expect(await raw(t.sim, 'GET', `/_sim/orders?owner=${t.sim.account.address}&status=OPEN`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: status' },
    });
    expect(await raw(t.sim, 'GET', '/_sim/orders?owner=00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
    });
  });

  it('funds a wallet and shows its balances', async () => {
    const addr = '0x' + '5'.repeat(40);
    expect(await post('/_sim/fund', { address: addr, amount: '250.5' })).toMatchObject({
      status: 200,
      json: { collateral: '250.5' },
    });
    expect(
      ((await raw(t.sim, 'GET', `/_sim/balances?address=${addr}`)).json as { collateral: unknown }).collateral,
    ).toEqual({ available: '250.5', reserved: '0' });
    const acc = (await raw(t.sim, 'GET', `/_sim/balances?address=${t.sim.account.address}`)).json as {
      collateral: { reserved: string };
    };
    expect(Number(acc.collateral.reserved)).toBeGreaterThan(0);
    for (const bad of [
      { address: 'x', amount: '1' },
      { address: addr, amount: 1 },
      { address: addr, amount: '-1' },
      { address: addr, amount: '1e3' },
    ]) {
      expect((await post('/_sim/fund', bad)).status).toBe(400);
    }
  });
});

describe('/_sim/markets/{id}/resolve and /tick', () => {
  it('resolves a market: resting orders cancelled as resolved, market closed with a winner, new orders refused', async () => {
    const m = openMarket(t.sim, 1);
    const r = await t.client.postOrder(submission(t, { market: m, price: 10 * m.state.tick, size: px(20) }));
    const res = await post(`/_sim/markets/${m.conditionId}/resolve`, { winner: m.tokenIds[1] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      closed: true,
      accepting_orders: false,
      tokens: [
        { winner: false, price: 0 },
        { winner: true, price: 1 },
      ],
    });
    expect((await t.client.getOrder(r.orderId as string))?.status).toBe('CANCELED_MARKET_RESOLVED');
    const late = await t.client.postOrder(submission(t, { market: m, price: 10 * m.state.tick, size: px(20) }));
    expect(late.errorMsg).toBe('the market is not yet ready to process new orders');
    const listed = (await raw(t.sim, 'GET', `/markets/${m.conditionId}`)).json as WireMarket;
    expect(listed.closed).toBe(true);
    expect(await post(`/_sim/markets/${m.conditionId}/resolve`, { winner: 0 })).toMatchObject({ status: 400 });
    expect(await post(`/_sim/markets/0x${'0'.repeat(64)}/resolve`, { winner: 0 })).toMatchObject({ status: 404 });
    expect(await post(`/_sim/markets/${openMarket(t.sim, 2).conditionId}/resolve`, { winner: 2 })).toMatchObject({
      status: 400,
    });
  });

  it('changes a tick: the book, /tick-size and order checks follow it; a tick not in use is refused', async () => {
    const m = openMarket(t.sim, 0, 10_000);
    expect(await post(`/_sim/markets/${m.conditionId}/tick`, { tick: '0.001' })).toMatchObject({
      status: 200,
      json: { minimum_tick_size: '0.001' },
    });
    expect(await t.client.getTickSize(m.tokenIds[0])).toBe(1_000);
    expect(((await raw(t.sim, 'GET', `/book?token_id=${m.tokenIds[0]}`)).json as WireBook).tick_size).toBe('0.001');
    const fine = await t.client.postOrder(submission(t, { market: m, price: px(0.123), size: px(20) }));
    expect(fine.accepted).toBe(true);
    expect(await post(`/_sim/markets/${m.conditionId}/tick`, { tick: 0.1 })).toMatchObject({ status: 200 });
    const coarse = await t.client.postOrder(submission(t, { market: m, price: px(0.123), size: px(20), tick: 1_000 }));
    expect(coarse.errorMsg).toMatch(/breaks minimum tick size rule: 0\.1$/);
    expect(await post(`/_sim/markets/${m.conditionId}/tick`, { tick: '0.003' })).toMatchObject({ status: 400 });
    expect(await post(`/_sim/markets/${m.conditionId}/tick`, { tick: true })).toMatchObject({ status: 400 });
  });
});

describe('/_sim/flow and /_sim/sample', () => {
  it('drives the flow state (none)', async () => {
    expect(await post('/_sim/flow', { action: 'freeze' })).toMatchObject({ json: { state: 'frozen' } });
    expect(await post('/_sim/flow', { action: 'unfreeze' })).toMatchObject({ json: { state: 'running' } });
    expect(await post('/_sim/flow', { action: 'advance', ms: 1000 })).toMatchObject({ status: 200 });
    expect(await post('/_sim/flow', { action: 'advance', ms: -1 })).toMatchObject({ status: 400 });
    expect(await post('/_sim/flow', { action: 'jump' })).toMatchObject({ status: 400 });
    expect(await post('/_sim/flow', { action: 'stop' })).toMatchObject({ json: { state: 'stopped' } });
    expect(await post('/_sim/flow', { action: 'start' })).toMatchObject({ json: { state: 'running' } });
  });

  it("advances and freezes engineer K's synthetic traders, who fill the books and trade", async () => {
    const u = await startTestSim({ flow: 'normal', clock: new VirtualClock(T0), markets: 10 });
    try {
      const p = (path: string, body: unknown): ReturnType<typeof raw> =>
        raw(u.sim, 'POST', path, { body: JSON.stringify(body) });
      expect(await p('/_sim/flow', { action: 'freeze' })).toMatchObject({
        json: { intensity: 'normal', state: 'frozen' },
      });
      expect((await p('/_sim/flow', { action: 'advance', ms: 5 * 60_000 })).status).toBe(200);
      const m = openMarket(u.sim);
      const book = (await raw(u.sim, 'GET', `/book?token_id=${m.tokenIds[0]}`)).json as WireBook;
      expect(book.bids.length).toBeGreaterThan(0);
      expect(book.asks.length).toBeGreaterThan(0);
      // Trades since the world's start (the listing also holds the world's past trades).
      const live = async (): Promise<number> =>
        ((await raw(u.sim, 'GET', '/trades?limit=500')).json as { timestamp: number }[]).filter(
          (x) => x.timestamp * 1000 >= u.sim.venue.world.startMs,
        ).length;
      const trades = await live();
      expect(trades).toBeGreaterThan(0);
      // Frozen: clock time passes, the flow does nothing.
      u.clock.advance(5 * 60_000);
      expect(await live()).toBe(trades);
      await p('/_sim/flow', { action: 'unfreeze' });
      u.clock.advance(5 * 60_000);
      expect(await live()).toBeGreaterThan(trades);
    } finally {
      await u.close();
    }
  });

  it('records a midpoint sample on demand', async () => {
    const before = ((await post('/_sim/sample', {})).json as { samples: number }).samples;
    expect(((await post('/_sim/sample', {})).json as { samples: number }).samples).toBe(before + 1);
  });
});

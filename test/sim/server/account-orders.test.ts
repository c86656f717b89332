// The account-lifecycle order routes of the simulator over HTTP (spec dialect; the shapes are the
// public exchange's in both): GET /data/orders (live orders only, filters, cursor paging, the
// caller's own only), the batch cancels DELETE /orders, /cancel-all, /cancel-market-orders
// (answers in DELETE /order's shape, malformed bodies refused before anything is cancelled),
// GET /balance-allowance, L2 authentication on every one of them, and the edge throttling of the
// batch cancels per API key.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WireAccountPage } from '../../../src/exchange/wire-account.js';
import { scaleBudgets, TABLE8 } from '../../../src/ratelimit/index.js';
import type { WirePublicOrderRecord } from '../../../src/exchange/wire-public-orders.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, secondAccount, signedRaw, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let m: MarketRec;
let m2: MarketRec;

beforeEach(async () => {
  t = await startTestSim({ accountPageSize: 2 });
  m = openMarket(t.sim, 0, 10_000);
  m2 = openMarket(t.sim, 1, 10_000);
});
afterEach(async () => {
  await t.close();
});

/** Rests a BUY of the test account; returns its id. */
async function rest(market: MarketRec, price: number, outcome: 0 | 1 = 0): Promise<string> {
  const r = await t.client.postOrder(submission(t, { market, outcome, price: px(price), size: px(10) }));
  expect(r.accepted).toBe(true);
  return r.orderId as string;
}

async function liveIds(): Promise<string[]> {
  const out: string[] = [];
  for await (const o of t.client.iterateOpenOrders()) out.push(o.id);
  return out;
}

describe('GET /data/orders', () => {
  it("lists the caller's live orders, oldest first, in pages of the configured size", async () => {
    const ids = [await rest(m, 0.2), await rest(m, 0.21), await rest(m2, 0.3, 1)];
    const first = await signedRaw(t, 'GET', '/data/orders');
    expect(first.status).toBe(200);
    const page = first.json as WireAccountPage<WirePublicOrderRecord>;
    expect(Object.keys(page)).toEqual(['data', 'next_cursor', 'limit', 'count']);
    expect(page).toMatchObject({ limit: 2, count: 2, next_cursor: 'Mg==' });
    expect(Object.keys(page.data[0] as object)).toEqual([
      'id',
      'status',
      'owner',
      'maker_address',
      'market',
      'asset_id',
      'side',
      'original_size',
      'size_matched',
      'price',
      'associate_trades',
      'outcome',
      'created_at',
      'expiration',
      'order_type',
    ]);
    expect(page.data[0]).toMatchObject({
      id: ids[0],
      status: 'LIVE',
      owner: t.sim.account.apiKey,
      market: m.conditionId,
      asset_id: m.tokenIds[0],
      side: 'BUY',
      original_size: '10',
      size_matched: '0',
      price: '0.2',
      associate_trades: [],
      created_at: Math.floor(t.clock.now() / 1000),
      expiration: '0',
      order_type: 'GTC',
    });
    const last = await t.client.getOpenOrders({}, 'Mg==');
    expect(last.nextCursor).toBeNull();
    expect(last.data.map((o) => o.id)).toEqual([ids[2]]);
    expect(await liveIds()).toEqual(ids);
  });

  it("filters by id, market and asset_id, and never shows cancelled orders or another account's", async () => {
    const a = await rest(m, 0.2);
    const b = await rest(m, 0.3, 1);
    const c = await rest(m2, 0.4);
    await t.client.cancelOrder(c);
    expect(await liveIds()).toEqual([a, b]);
    expect((await t.client.getOpenOrders({ market: m.conditionId })).data.map((o) => o.id)).toEqual([a, b]);
    expect((await t.client.getOpenOrders({ asset_id: m.tokenIds[1] })).data.map((o) => o.id)).toEqual([b]);
    expect((await t.client.getOpenOrders({ id: b })).data.map((o) => o.id)).toEqual([b]);
    expect((await t.client.getOpenOrders({ market: m2.conditionId })).data).toEqual([]);
    const other = await secondAccount(t, '0x' + 'c7'.repeat(32));
    expect((await other.client.getOpenOrders()).data).toEqual([]);
    await other.client.close();
  });

  it('refuses unknown parameters and bad cursors, and unsigned requests', async () => {
    expect((await signedRaw(t, 'GET', '/data/orders?owner=x')).json).toEqual({ error: 'unknown_field: owner' });
    const bad = await signedRaw(t, 'GET', '/data/orders?next_cursor=zz');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'invalid_field: next_cursor' });
    expect((await signedRaw(t, 'GET', '/data/orders?next_cursor=LTE%3D')).json).toMatchObject({
      data: [],
      next_cursor: 'LTE=',
    });
    for (const [method, path] of [
      ['GET', '/data/orders'],
      ['GET', '/data/trades'],
      ['GET', '/balance-allowance?asset_type=COLLATERAL'],
      ['DELETE', '/orders'],
      ['DELETE', '/cancel-all'],
      ['DELETE', '/cancel-market-orders'],
      ['POST', '/v1/heartbeats'],
    ] as const) {
      const r = await raw(t.sim, method, path);
      expect([method, path, r.status, r.json]).toEqual([method, path, 401, { error: 'Unauthorized/Invalid api key' }]);
    }
  });
});

describe('batch cancels', () => {
  it("DELETE /orders cancels the listed orders once each, and reports the others with DELETE /order's reasons", async () => {
    const a = await rest(m, 0.2);
    const b = await rest(m, 0.21);
    const keep = await rest(m, 0.22);
    const other = await secondAccount(t, '0x' + 'c8'.repeat(32));
    const theirs = (
      await other.client.postOrder(
        submission({ ...t, signer: other.signer }, { market: m, price: px(0.1), size: px(10) }, other.creds.apiKey),
      )
    ).orderId as string;
    const body = JSON.stringify([a, b, a, theirs, '0xunknown']);
    const r = await signedRaw(t, 'DELETE', '/orders', body);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      canceled: [a, b],
      not_canceled: {
        [theirs]: 'Order not found or already canceled',
        '0xunknown': 'Order not found or already canceled',
      },
    });
    expect(await liveIds()).toEqual([keep]);
    const again = await t.client.cancelOrders([a]);
    expect(again.canceled).toEqual([]);
    expect(again.notCanceled.get(a)).toBe('Order not found or already canceled');
    expect((await other.client.getOpenOrders()).data.map((o) => o.id)).toEqual([theirs]);
    await other.client.close();
  });

  it('DELETE /orders refuses a body that is not an array of ids, cancelling nothing', async () => {
    const a = await rest(m, 0.2);
    for (const body of ['{"orderIds":["x"]}', '[1]', '[""]', 'not json']) {
      const r = await signedRaw(t, 'DELETE', '/orders', body);
      expect([body, r.status, r.json]).toEqual([body, 400, { error: 'Invalid payload' }]);
    }
    expect(await signedRaw(t, 'DELETE', '/orders', '[]')).toMatchObject({
      status: 200,
      json: { canceled: [], not_canceled: {} },
    });
    expect(await liveIds()).toEqual([a]);
  });

  it('DELETE /cancel-all cancels every live order of the caller only', async () => {
    const a = await rest(m, 0.2);
    const b = await rest(m2, 0.3, 1);
    const other = await secondAccount(t, '0x' + 'c9'.repeat(32));
    await other.client.postOrder(
      submission({ ...t, signer: other.signer }, { market: m, price: px(0.1), size: px(10) }, other.creds.apiKey),
    );
    const r = await t.client.cancelAll();
    expect(r.canceled).toEqual([a, b]);
    expect(r.notCanceled.size).toBe(0);
    expect(await liveIds()).toEqual([]);
    expect((await t.client.cancelAll()).canceled).toEqual([]);
    expect((await other.client.getOpenOrders()).data).toHaveLength(1);
    await other.client.close();
  });

  it('DELETE /cancel-market-orders cancels by market, by asset, or by both', async () => {
    const yes = await rest(m, 0.2);
    const no = await rest(m, 0.3, 1);
    const elsewhere = await rest(m2, 0.3);
    expect((await t.client.cancelMarketOrders({ assetId: m.tokenIds[1] })).canceled).toEqual([no]);
    expect((await t.client.cancelMarketOrders({ market: m.conditionId, assetId: m2.tokenIds[0] })).canceled).toEqual(
      [],
    );
    expect((await t.client.cancelMarketOrders({ market: m.conditionId })).canceled).toEqual([yes]);
    expect(await liveIds()).toEqual([elsewhere]);
    // rs-clob-client sends an unset field as null.
    const r = await signedRaw(
      t,
      'DELETE',
      '/cancel-market-orders',
      JSON.stringify({ market: m2.conditionId, asset_id: null }),
    );
    expect(r.json).toEqual({ canceled: [elsewhere], not_canceled: {} });
    for (const body of ['{}', '{"market":null,"asset_id":null}', '{"market":5}', '[]']) {
      expect((await signedRaw(t, 'DELETE', '/cancel-market-orders', body)).json).toEqual({ error: 'Invalid payload' });
    }
  });
});

describe('GET /balance-allowance', () => {
  it('answers the whole holding in base units, with every exchange contract an unlimited spender', async () => {
    const r = await signedRaw(t, 'GET', '/balance-allowance?asset_type=COLLATERAL&signature_type=0');
    expect(r.status).toBe(200);
    const max = ((1n << 256n) - 1n).toString();
    const d = t.sim.venue.dialect;
    expect(r.json).toEqual({
      balance: '1000000000000',
      allowances: { [d.verifyingContract]: max, [d.negRiskVerifyingContract]: max },
    });
    await rest(m, 0.2); // reserves 2 collateral: the balance stays the holding
    const ba = await t.client.getBalanceAllowance({ asset_type: 'COLLATERAL' });
    expect(ba.balance).toBe(1_000_000 * 1_000_000);
    expect(ba.allowances.get(d.verifyingContract)).toBe((1n << 256n) - 1n);
    const tok = await t.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: m.tokenIds[0] });
    expect(tok.balance).toBe(0);
  });

  it('answers the tokens an account holds, and refuses bad queries', async () => {
    const other = await secondAccount(t, '0x' + 'ca'.repeat(32));
    await other.client.postOrder(
      submission(
        { ...t, signer: other.signer },
        { market: m, outcome: 1, price: px(0.6), size: px(25) },
        other.creds.apiKey,
      ),
    );
    await t.client.postOrder(submission(t, { market: m, price: px(0.4), size: px(25), orderType: 'FOK' }));
    expect((await t.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: m.tokenIds[0] })).balance).toBe(
      px(25),
    );
    expect(
      (await other.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: m.tokenIds[1] })).balance,
    ).toBe(px(25));
    expect((await signedRaw(t, 'GET', '/balance-allowance')).json).toEqual({ error: 'missing_field: asset_type' });
    expect((await signedRaw(t, 'GET', '/balance-allowance?asset_type=CONDITIONAL')).json).toEqual({
      error: 'missing_field: token_id',
    });
    expect((await signedRaw(t, 'GET', '/balance-allowance?asset_type=USDC')).json).toEqual({
      error: 'invalid_field: asset_type',
    });
    expect((await signedRaw(t, 'GET', '/balance-allowance?asset_type=COLLATERAL&x=1')).json).toEqual({
      error: 'unknown_field: x',
    });
    await other.client.close();
  });
});

describe('edge throttling of the batch cancels (scaled-down budgets)', () => {
  it('throttles DELETE /cancel-all per API key at its own budget, with Retry-After', async () => {
    await t.close();
    t = await startTestSim({ limits: 'on', budgets: scaleBudgets(TABLE8, 0.01) }); // DELETE /cancel-all: 2 per 10 s
    const other = await secondAccount(t, '0x' + 'cb'.repeat(32));
    expect((await signedRaw(t, 'DELETE', '/cancel-all')).status).toBe(200);
    expect((await signedRaw(t, 'DELETE', '/cancel-all')).status).toBe(200);
    const r = await signedRaw(t, 'DELETE', '/cancel-all');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('10');
    // Another account's API key, from the same client address, has its own window.
    expect((await other.client.cancelAll()).canceled).toEqual([]);
    t.clock.advance(10_000);
    expect((await signedRaw(t, 'DELETE', '/cancel-all')).status).toBe(200);
    await other.client.close();
  });
});

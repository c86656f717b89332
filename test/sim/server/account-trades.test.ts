// GET /data/trades of the simulator over HTTP (spec dialect; the public exchange's shapes): a
// trade seen by its taker and by its maker (trader_side, maker_orders, owner and maker_address the
// viewer's), its settlement status moving on the virtual clock (MATCHED → MINED → CONFIRMED), a
// failure forced through POST /_sim/settlement (RETRYING → FAILED, undone: balances, GET
// /positions and GET /balance-allowance no longer show it), the filters and the cursor paging.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WireAccountPage, WireAccountTrade } from '../../../src/exchange/wire-account.js';
import type { WirePosition } from '../../../src/exchange/wire.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, secondAccount, signedRaw, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let b: Awaited<ReturnType<typeof secondAccount>>;
let m: MarketRec;

beforeEach(async () => {
  t = await startTestSim({ accountPageSize: 2 });
  b = await secondAccount(t, '0x' + 'd1'.repeat(32));
  m = openMarket(t.sim, 0, 10_000);
});
afterEach(async () => {
  await b.client.close();
  await t.close();
});

/** B rests a NO bid at 1 − p; the test account takes it buying YES at p. Returns B's order id. */
async function tradeYes(p: number, size: number): Promise<string> {
  const maker = await b.client.postOrder(
    submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(1 - p), size: px(size) }, b.creds.apiKey),
  );
  const taker = await t.client.postOrder(submission(t, { market: m, price: px(p), size: px(size), orderType: 'FOK' }));
  expect(taker.status).toBe('matched');
  return maker.orderId as string;
}

async function tradesOf(who: 'a' | 'b'): Promise<WireAccountTrade[]> {
  const r = await signedRaw(
    who === 'a' ? t : { sim: t.sim, clock: t.clock },
    'GET',
    '/data/trades',
    undefined,
    who === 'a' ? {} : { credentials: b.creds, address: b.address },
  );
  expect(r.status).toBe(200);
  return (r.json as WireAccountPage<WireAccountTrade>).data;
}

describe('GET /data/trades', () => {
  it('shows a trade to its taker and to its maker, and settles it on the clock', async () => {
    const makerOrder = await tradeYes(0.4, 25);
    const [mine] = await tradesOf('a');
    const [theirs] = await tradesOf('b');
    expect(Object.keys(mine as object)).toEqual([
      'id',
      'taker_order_id',
      'market',
      'asset_id',
      'side',
      'size',
      'fee_rate_bps',
      'price',
      'status',
      'match_time',
      'last_update',
      'outcome',
      'bucket_index',
      'owner',
      'maker_address',
      'maker_orders',
      'transaction_hash',
      'trader_side',
    ]);
    const sec = String(Math.floor(t.clock.now() / 1000));
    expect(mine).toMatchObject({
      market: m.conditionId,
      asset_id: m.tokenIds[0],
      side: 'BUY',
      size: '25',
      price: '0.4',
      status: 'MATCHED',
      fee_rate_bps: String(m.fee.takerBaseFeeBps),
      match_time: sec,
      last_update: sec,
      outcome: m.outcomes[0],
      bucket_index: 0,
      owner: t.sim.account.apiKey,
      maker_address: t.sim.account.address,
      trader_side: 'TAKER',
      maker_orders: [
        {
          order_id: makerOrder,
          owner: b.creds.apiKey,
          maker_address: b.address,
          matched_amount: '25',
          price: '0.6',
          fee_rate_bps: String(m.fee.makerBaseFeeBps),
          asset_id: m.tokenIds[1],
          outcome: m.outcomes[1],
          side: 'BUY',
        },
      ],
    });
    expect(mine?.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // The maker sees the same match, the taker's side on top, its own key and address.
    expect(theirs).toEqual({ ...mine, owner: b.creds.apiKey, maker_address: b.address, trader_side: 'MAKER' });
    t.clock.advance(2_000);
    expect((await tradesOf('a'))[0]).toMatchObject({ status: 'MINED', last_update: String(Number(sec) + 2) });
    t.clock.advance(8_000);
    const typed = await b.client.getAccountTrades();
    expect(typed.data[0]).toMatchObject({
      status: 'CONFIRMED',
      traderSide: 'MAKER',
      lastUpdateMs: (Number(sec) + 10) * 1000,
    });
    expect(typed.data[0]?.ownLegs).toEqual([
      { orderId: makerOrder, assetId: m.tokenIds[1], side: 'BUY', price: px(0.6), size: px(25) },
    ]);
  });

  it('undoes a trade whose settlement is made to fail: FAILED, and positions and balances without it', async () => {
    const set = await raw(t.sim, 'POST', '/_sim/settlement', {
      body: JSON.stringify({ failNext: 1, minedAfterMs: 1_000, confirmedAfterMs: 4_000 }),
    });
    expect(set.json).toMatchObject({
      config: { minedAfterMs: 1_000, confirmedAfterMs: 4_000, failFraction: 0 },
      pendingForcedFailures: 1,
    });
    const before = (await t.client.getBalanceAllowance({ asset_type: 'COLLATERAL' })).balance;
    await tradeYes(0.4, 30);
    const positions = async (): Promise<WirePosition[]> =>
      (await raw(t.sim, 'GET', `/positions?user=${t.sim.account.address}`)).json as WirePosition[];
    expect((await positions()).map((p) => p.size)).toEqual([30]);
    t.clock.advance(1_000);
    expect((await tradesOf('a'))[0]?.status).toBe('RETRYING');
    t.clock.advance(3_000);
    expect((await tradesOf('a'))[0]?.status).toBe('FAILED');
    expect((await tradesOf('b'))[0]?.status).toBe('FAILED');
    expect(await positions()).toEqual([]);
    expect((await raw(t.sim, 'GET', `/positions?user=${b.address}`)).json).toEqual([]);
    expect((await t.client.getBalanceAllowance({ asset_type: 'COLLATERAL' })).balance).toBe(before);
    expect((await t.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: m.tokenIds[0] })).balance).toBe(
      0,
    );
    expect((await raw(t.sim, 'GET', '/_sim/settlement')).json).toMatchObject({
      pendingForcedFailures: 0,
      stats: { tracked: 1, failed: 1 },
    });
    expect((await raw(t.sim, 'POST', '/_sim/settlement', { body: '{"failFraction":3}' })).status).toBe(400);
    expect((await raw(t.sim, 'POST', '/_sim/settlement', { body: '{"failNext":-1}' })).status).toBe(400);
  });

  it('filters by id, market, asset, time and role, and pages oldest first', async () => {
    await tradeYes(0.4, 20);
    t.clock.advance(5_000);
    await tradeYes(0.41, 20);
    t.clock.advance(5_000);
    await tradeYes(0.42, 20);
    const all: string[] = [];
    for await (const tr of t.client.iterateAccountTrades())
      all.push(tr.price === px(0.4) ? 'a' : tr.price === px(0.41) ? 'b' : 'c');
    expect(all).toEqual(['a', 'b', 'c']);
    const first = await t.client.getAccountTrades();
    expect(first.nextCursor).toBe('Mg==');
    expect(first.limit).toBe(2);
    const ids = [...first.data, ...(await t.client.getAccountTrades({}, 'Mg==')).data].map((x) => x.id);
    expect((await t.client.getAccountTrades({ id: ids[1] as string })).data.map((x) => x.id)).toEqual([ids[1]]);
    const t0 = Math.floor(t.clock.now() / 1000) - 10;
    expect((await t.client.getAccountTrades({ after: t0 + 5 })).data.map((x) => x.id)).toEqual([ids[1], ids[2]]);
    expect((await t.client.getAccountTrades({ before: t0 + 5 })).data.map((x) => x.id)).toEqual([ids[0]]);
    expect((await t.client.getAccountTrades({ market: m.conditionId, asset_id: m.tokenIds[0] })).data).toHaveLength(2);
    expect((await b.client.getAccountTrades({ asset_id: m.tokenIds[1] })).data).toHaveLength(2); // the maker's own token
    expect((await t.client.getAccountTrades({ maker_address: b.address })).data).toEqual([]);
    expect((await t.client.getAccountTrades({ maker_address: t.sim.account.address })).data).toHaveLength(2);
    expect((await signedRaw(t, 'GET', `/data/trades?taker=${t.sim.account.address}`)).json).toMatchObject({ count: 2 });
    expect((await signedRaw(t, 'GET', `/data/trades?maker=${t.sim.account.address}`)).json).toMatchObject({ count: 0 });
    expect((await signedRaw(t, 'GET', '/data/trades?before=soon')).json).toEqual({ error: 'invalid_field: before' });
    expect((await signedRaw(t, 'GET', '/data/trades?maker_address=0x12')).json).toEqual({
      error: 'invalid_field: maker_address',
    });
  });
});

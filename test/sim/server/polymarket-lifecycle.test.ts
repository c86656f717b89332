// Integration test of the account-lifecycle routes with Polymarket's official client
// `@polymarket/clob-client-v2` against the simulator in the polymarket dialect: it lists the
// account's open orders (following next_cursor to `LTE=`), lists its trades (as taker and as maker,
// also the paginated form), cancels several orders (cancelOrders), the orders of one market
// (cancelMarketOrders) and all of them (cancelAll), posts chained heartbeats and reads
// balance-allowance. Each answer must have the JSON types the official client declares
// (node_modules/@polymarket/clob-client-v2/dist/types/clob.d.ts: OpenOrder, Trade, MakerOrder,
// BalanceAllowanceResponse, postHeartbeat's `{heartbeat_id}`), and our strict parsers must read
// what the official client received. Time: the client uses the server's time (GET /time), so the
// simulator runs on a VirtualClock; its HTTP client is axios, over loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers';
import { AssetType, ClobClient, Side, type ApiKeyCreds, type OpenOrder, type Trade } from '@polymarket/clob-client-v2';
import {
  parseAccountTrade,
  parseBalanceAllowance,
  parseHeartbeatId,
  parsePublicCancelResult,
  parsePublicOrderRecord,
} from '../../../src/exchange/parse/index.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, secondAccount, startTestSim, submission, type TestSim } from './helpers.js';

function v5Signer(w: Wallet): {
  _signTypedData: (
    d: Record<string, unknown>,
    t: Record<string, Array<{ name: string; type: string }>>,
    v: Record<string, unknown>,
  ) => Promise<string>;
  getAddress: () => Promise<string>;
} {
  return {
    _signTypedData: (d, t, v) => w.signTypedData(d as TypedDataDomain, t as Record<string, TypedDataField[]>, v),
    getAddress: async () => w.address,
  };
}

/** The JSON type of every key, for comparing with the official client's declarations. */
function types(o: object): Record<string, string> {
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v]),
  );
}

const OPEN_ORDER_TYPES = {
  id: 'string',
  status: 'string',
  owner: 'string',
  maker_address: 'string',
  market: 'string',
  asset_id: 'string',
  side: 'string',
  original_size: 'string',
  size_matched: 'string',
  price: 'string',
  associate_trades: 'array',
  outcome: 'string',
  created_at: 'number',
  expiration: 'string',
  order_type: 'string',
};
const TRADE_TYPES = {
  id: 'string',
  taker_order_id: 'string',
  market: 'string',
  asset_id: 'string',
  side: 'string',
  size: 'string',
  fee_rate_bps: 'string',
  price: 'string',
  status: 'string',
  match_time: 'string',
  last_update: 'string',
  outcome: 'string',
  bucket_index: 'number',
  owner: 'string',
  maker_address: 'string',
  maker_orders: 'array',
  transaction_hash: 'string',
  trader_side: 'string',
};
const MAKER_ORDER_TYPES = {
  order_id: 'string',
  owner: 'string',
  maker_address: 'string',
  matched_amount: 'string',
  price: 'string',
  fee_rate_bps: 'string',
  asset_id: 'string',
  outcome: 'string',
  side: 'string',
};

let t: TestSim;
let c: ClobClient;
let creds: ApiKeyCreds;
let m: MarketRec;
let m2: MarketRec;

beforeAll(async () => {
  t = await startTestSim({
    dialect: 'polymarket',
    accountPageSize: 2,
    settlement: { minedAfterMs: 1_000, confirmedAfterMs: 3_000 },
  });
  const wallet = new Wallet(t.sim.account.privateKey);
  creds = await new ClobClient({
    host: t.sim.url,
    chain: 137,
    signer: v5Signer(wallet),
    useServerTime: true,
    throwOnError: true,
  }).deriveApiKey();
  c = new ClobClient({
    host: t.sim.url,
    chain: 137,
    signer: v5Signer(wallet),
    creds,
    useServerTime: true,
    throwOnError: true,
  });
  m = openMarket(t.sim, 0, 10_000);
  m2 = openMarket(t.sim, 1, 10_000);
});
afterAll(async () => {
  await t.close();
});

async function place(market: MarketRec, price: number, side: Side = Side.BUY, size = 20): Promise<string> {
  const r = await c.createAndPostOrder({ tokenID: market.tokenIds[0], price, size, side });
  expect(r).toMatchObject({ success: true, errorMsg: '' });
  return (r as { orderID: string }).orderID;
}

describe('@polymarket/clob-client-v2 account lifecycle against the simulator (polymarket dialect)', () => {
  it('lists the open orders across pages, in the declared types, and our parser reads them', async () => {
    const ids = [await place(m, 0.2), await place(m, 0.21), await place(m2, 0.22)];
    const orders: OpenOrder[] = await c.getOpenOrders();
    expect(orders.map((o) => o.id)).toEqual(ids); // two pages of 2, followed to LTE=
    for (const o of orders) expect(types(o)).toEqual(OPEN_ORDER_TYPES);
    expect(orders[0]).toMatchObject({
      status: 'LIVE',
      owner: creds.key,
      price: '0.2',
      original_size: '20',
      side: 'BUY',
      order_type: 'GTC',
      expiration: '0',
    });
    expect(parsePublicOrderRecord(orders[2])).toMatchObject({
      id: ids[2],
      market: m2.conditionId,
      price: px(0.22),
      originalSize: px(20),
    });
    expect((await c.getOpenOrders({ market: m2.conditionId })).map((o) => o.id)).toEqual([ids[2]]);
    expect((await c.getOpenOrders({ id: ids[1] as string }, true)).map((o) => o.id)).toEqual([ids[1]]);
  });

  it("cancels several orders, a market's orders, then all of them", async () => {
    const live = (await c.getOpenOrders()).map((o) => o.id);
    const extra = await place(m, 0.23);
    const several = await c.cancelOrders([live[0] as string, '0x' + '9'.repeat(64)]);
    expect(several).toEqual({
      canceled: [live[0]],
      not_canceled: { ['0x' + '9'.repeat(64)]: 'Order not found or already canceled' },
    });
    expect(parsePublicCancelResult(several).canceled).toEqual([live[0]]);
    const market = await c.cancelMarketOrders({ market: m2.conditionId });
    expect(market).toEqual({ canceled: [live[2]], not_canceled: {} });
    const all = await c.cancelAll();
    expect(all).toEqual({ canceled: [live[1], extra], not_canceled: {} });
    expect(await c.getOpenOrders()).toEqual([]);
  });

  it('lists its trades as taker and as maker, with their settlement, in the declared types', async () => {
    const b = await secondAccount(t, '0x' + 'f1'.repeat(32));
    const bs = { ...t, signer: b.signer };
    // B rests a NO bid at 0.6 (a YES ask at 0.4); the official client buys YES through it: a taker trade.
    await b.client.postOrder(submission(bs, { market: m, outcome: 1, price: px(0.6), size: px(20) }, b.creds.apiKey));
    const taker = await place(m, 0.4);
    // The official client rests an ask at 0.45; B buys it: a maker trade.
    const makerOrder = await place(m, 0.45, Side.SELL, 20);
    await b.client.postOrder(
      submission(bs, { market: m, price: px(0.45), size: px(20), orderType: 'FOK' }, b.creds.apiKey),
    );
    const trades: Trade[] = await c.getTrades();
    expect(trades.map((x) => x.trader_side)).toEqual(['TAKER', 'MAKER']);
    for (const x of trades) {
      expect(types(x)).toEqual(TRADE_TYPES);
      for (const mo of x.maker_orders) expect(types(mo)).toEqual(MAKER_ORDER_TYPES);
      expect(x.status).toBe('MATCHED');
    }
    expect(trades[0]).toMatchObject({ taker_order_id: taker, side: 'BUY', price: '0.4', size: '20', owner: creds.key });
    const parsed = trades.map((x) => parseAccountTrade(x));
    expect(parsed[1]?.ownLegs).toEqual([
      { orderId: makerOrder, assetId: m.tokenIds[0], side: 'SELL', price: px(0.45), size: px(20) },
    ]);
    t.clock.advance(3_000);
    const page = await c.getTradesPaginated({ market: m.conditionId });
    expect(page).toMatchObject({ next_cursor: 'LTE=', limit: 2, count: 2 });
    expect(page.trades.map((x) => x.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect((await c.getTrades({ id: trades[1]?.id as string })).map((x) => x.id)).toEqual([trades[1]?.id]);
    await b.client.close();
  });

  it('posts chained heartbeats', async () => {
    const first = await c.postHeartbeat();
    expect(types(first)).toEqual({ heartbeat_id: 'string' });
    const next = await c.postHeartbeat(first.heartbeat_id);
    expect(parseHeartbeatId(next)).not.toBe(first.heartbeat_id);
    // A resting order survives while the heartbeats go on, and is gone once they stop (10 s).
    const id = await place(m2, 0.1);
    t.clock.advance(9_000);
    await c.postHeartbeat(next.heartbeat_id);
    expect((await c.getOpenOrders()).map((o) => o.id)).toEqual([id]);
    t.clock.advance(10_000);
    expect(await c.getOpenOrders()).toEqual([]);
  });

  it('reads balance and allowances', async () => {
    const col = await c.getBalanceAllowance({ asset_type: AssetType.COLLATERAL });
    expect(types(col)).toEqual({ balance: 'string', allowances: 'object' });
    const parsed = parseBalanceAllowance(col);
    expect(parsed.balance).toBe(
      t.sim.venue.balances(t.sim.account.address).collateral.available +
        t.sim.venue.balances(t.sim.account.address).collateral.reserved,
    );
    expect(parsed.allowances.get(t.sim.venue.dialect.verifyingContract)).toBe((1n << 256n) - 1n);
    const tok = await c.getBalanceAllowance({ asset_type: AssetType.CONDITIONAL, token_id: m.tokenIds[0] });
    expect(parseBalanceAllowance(tok).balance).toBe(px(0)); // bought 20 YES, sold 20 YES
  });
});

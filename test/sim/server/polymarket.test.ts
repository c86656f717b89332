// Integration test of the project: Polymarket's official client `@polymarket/clob-client-v2`,
// pointed at the simulator in the polymarket dialect (POLY_ headers, URL-safe base64 HMACs,
// Polymarket's EIP-712 domain, chain 137, numeric salts, no conditionId in the order JSON), derives
// an API key, reads markets, a book, a midpoint and a price, places orders (resting, filling, a
// GTD/post-only batch), looks them up and cancels them; the answers are compared with the real
// payloads' key sets and JSON types (test/fixtures/real/wire/orders/). Our own client in the same
// dialect goes through the same routes. Time: the client is told to use the server's time (GET /time), so the simulator can
// run on a VirtualClock; its HTTP client is axios, over loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers';
import { ClobClient, OrderType, Side, type ApiKeyCreds } from '@polymarket/clob-client-v2';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePublicOrderRecord } from '../../../src/exchange/parse/index.js';
import type { WireBook } from '../../../src/exchange/wire.js';
import { openMarket, px, raw, secondAccount, startTestSim, submission, type TestSim } from './helpers.js';

/** A real order-route payload (test/fixtures/real/wire/orders/SOURCES.md). */
function fixture(name: string): Record<string, unknown> {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../fixtures/real/wire/orders/${name}`, import.meta.url)), 'utf8'),
  ) as Record<string, unknown>;
}

/** The ethers-v5-style signer the client accepts, over an ethers v6 Wallet. */
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

let t: TestSim;
let wallet: Wallet;
let creds: ApiKeyCreds;

beforeAll(async () => {
  t = await startTestSim({ dialect: 'polymarket' });
  wallet = new Wallet(t.sim.account.privateKey);
});
afterAll(async () => {
  await t.close();
});

describe('@polymarket/clob-client-v2 against the simulator (polymarket dialect)', () => {
  it("derives the account's API key over L1", async () => {
    const c = new ClobClient({
      host: t.sim.url,
      chain: 137,
      signer: v5Signer(wallet),
      useServerTime: true,
      throwOnError: true,
    });
    creds = await c.deriveApiKey();
    expect(creds).toEqual({
      key: t.sim.account.apiKey,
      secret: t.sim.account.secret,
      passphrase: t.sim.account.passphrase,
    });
    const created = await c.createApiKey(3);
    expect(created.key).not.toBe(creds.key);
  });

  it('reads markets, a book, a midpoint and prices', async () => {
    const c = new ClobClient({ host: t.sim.url, chain: 137, throwOnError: true });
    const page = await c.getMarkets();
    expect(page.data.length).toBe(30);
    expect(page.next_cursor).toBe('LTE=');
    const m = openMarket(t.sim, 0, 10_000);
    // Our own client (same dialect) rests a bid and an ask first.
    await t.client.postOrder(submission(t, { market: m, price: px(0.3), size: px(20) }));
    await t.client.postOrder(submission(t, { market: m, outcome: 1, price: px(0.6), size: px(20) }));
    const book = (await c.getOrderBook(m.tokenIds[0])) as unknown as WireBook;
    expect(book.bids).toEqual([{ price: '0.3', size: '20' }]);
    expect(book.asks).toEqual([{ price: '0.4', size: '20' }]);
    expect(await c.getMidpoint(m.tokenIds[0])).toEqual({ mid: '0.35' });
    expect(await c.getPrice(m.tokenIds[0], 'BUY')).toEqual({ price: '0.3' });
    expect(await c.getPrice(m.tokenIds[0], 'SELL')).toEqual({ price: '0.4' });
    expect(await c.getTickSize(m.tokenIds[0])).toBe('0.01');
    expect(await c.getNegRisk(m.tokenIds[0])).toBe(m.negRisk);
    expect(await c.getServerTime()).toBe(Math.floor(t.clock.now() / 1000));
  });

  it("places an order, looks it up and cancels it: the answers in the public exchange's shapes", async () => {
    const c = new ClobClient({
      host: t.sim.url,
      chain: 137,
      signer: v5Signer(wallet),
      creds,
      useServerTime: true,
      throwOnError: true,
    });
    const m = openMarket(t.sim, 1, 10_000);
    const placed = await c.createAndPostOrder({ tokenID: m.tokenIds[0], price: 0.21, size: 25, side: Side.BUY });
    // A resting placement: the keys of the captured live/delayed answers, amounts "".
    expect(Object.keys(placed).sort()).toEqual(Object.keys(fixture('order_post_delayed_nautilus.json')).sort());
    expect(placed).toMatchObject({ success: true, errorMsg: '', status: 'live', takingAmount: '', makingAmount: '' });
    const id = (placed as { orderID: string }).orderID;
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);

    // GET /data/order/{id}: the bare snake_case record, with exactly the real record's keys and its
    // JSON types (created_at a number of seconds, expiration a string).
    const looked = (await c.getOrder(id)) as unknown as Record<string, unknown>;
    const real = fixture('order_get_nautilus.json');
    expect(Object.keys(looked).sort()).toEqual(Object.keys(real).sort());
    for (const k of Object.keys(real)) if (real[k] !== null) expect(typeof looked[k], k).toBe(typeof real[k]);
    expect(looked).toEqual({
      id,
      status: 'LIVE',
      owner: creds.key,
      maker_address: wallet.address,
      market: m.conditionId,
      asset_id: m.tokenIds[0],
      side: 'BUY',
      original_size: '25',
      size_matched: '0',
      price: '0.21',
      associate_trades: [],
      outcome: m.outcomes[0],
      created_at: Math.floor(t.clock.now() / 1000),
      expiration: '0',
      order_type: 'GTC',
    });
    // Our parser reads what the official client read.
    expect(parsePublicOrderRecord(looked)).toMatchObject({
      id,
      status: 'LIVE',
      price: 210_000,
      originalSize: 25_000_000,
      sizeMatched: 0,
      type: 'GTC',
    });

    // DELETE /order with the official client's `{orderID}` body.
    expect(await c.cancelOrder({ orderID: id })).toEqual({ canceled: [id], not_canceled: {} });
    const after = (await c.getOrder(id)) as unknown as Record<string, unknown>;
    expect(after['status']).toBe('CANCELED');
    expect(await c.cancelOrder({ orderID: id })).toEqual({
      canceled: [],
      not_canceled: { [id]: 'Order not found or already canceled' },
    });
    // An id the exchange does not know: 200 with a `null` body, which the official client returns.
    expect(await c.getOrder('0x' + '1'.repeat(64))).toBeNull();
  });

  it('a placement that fills answers transactionsHashes and tradeIDs; batches and GTD/post-only bodies are accepted', async () => {
    const c = new ClobClient({
      host: t.sim.url,
      chain: 137,
      signer: v5Signer(wallet),
      creds,
      useServerTime: true,
      throwOnError: true,
    });
    const b = await secondAccount(
      { sim: t.sim, clock: t.clock, client: t.client, signer: t.signer, close: t.close },
      '0x' + 'b9'.repeat(32),
    );
    const m = openMarket(t.sim, 2, 10_000);
    // B rests an ask at 0.40 on the YES token (a NO bid at 0.60).
    const ask = await b.client.postOrder(
      submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(0.6), size: px(20) }, b.creds.apiKey),
    );
    expect(ask.accepted).toBe(true);
    const placed = (await c.createAndPostOrder({
      tokenID: m.tokenIds[0],
      price: 0.45,
      size: 20,
      side: Side.BUY,
    })) as unknown as Record<string, unknown>;
    expect(placed).toMatchObject({
      success: true,
      errorMsg: '',
      status: 'matched',
      makingAmount: '8',
      takingAmount: '20',
    });
    // The captured matched answer's keys, plus the tradeIDs of clob-client-v2's OrderResponse.
    expect(Object.keys(placed).sort()).toEqual(
      [...Object.keys(fixture('order_post_matched_issue217.json')), 'tradeIDs'].sort(),
    );
    expect(placed['transactionsHashes']).toEqual([expect.stringMatching(/^0x[0-9a-f]{64}$/)]);
    expect((placed['tradeIDs'] as unknown[]).length).toBe(1);
    const rec = (await c.getOrder(placed['orderID'] as string)) as unknown as Record<string, unknown>;
    expect(rec).toMatchObject({ status: 'MATCHED', size_matched: '20', associate_trades: placed['tradeIDs'] });

    // POST /orders with a GTD post-only order and a GTC one, as the official client builds them.
    const exp = Math.floor(t.clock.now() / 1000) + 3600;
    const gtd = await c.createOrder({ tokenID: m.tokenIds[0], price: 0.11, size: 20, side: Side.BUY, expiration: exp });
    const gtc = await c.createOrder({ tokenID: m.tokenIds[0], price: 0.12, size: 20, side: Side.BUY });
    const batch = (await c.postOrders(
      [
        { order: gtd, orderType: OrderType.GTD },
        { order: gtc, orderType: OrderType.GTC },
      ],
      true,
    )) as unknown as Array<Record<string, unknown>>;
    expect(batch.map((r) => r['status'])).toEqual(['live', 'live']);
    const g = (await c.getOrder(batch[0]!['orderID'] as string)) as unknown as Record<string, unknown>;
    expect(g).toMatchObject({ order_type: 'GTD', expiration: String(exp) });
    await b.client.close();
  });

  it('our client in the polymarket dialect: orderID cancels, bare records, null for an unknown id, sided /prices items', async () => {
    const m = openMarket(t.sim, 3, 10_000);
    const r = await t.client.postOrder(submission(t, { market: m, price: px(0.3), size: px(20) }));
    expect(r).toMatchObject({ accepted: true, status: 'live', takingAmount: null, makingAmount: null });
    const rec = await t.client.getOrder(r.orderId as string);
    expect(rec).toMatchObject({
      id: r.orderId,
      status: 'LIVE',
      price: px(0.3),
      originalSize: px(20),
      sizeMatched: 0,
      type: 'GTC',
      assetId: m.tokenIds[0],
    });
    expect(rec?.createdAtMs).toBe(Math.floor(t.clock.now() / 1000) * 1000);
    expect(rec?.expiresAtMs).toBeUndefined();
    expect(await t.client.getOrder('0x' + '2'.repeat(64))).toBeNull();
    const prices = await t.client.getPrices([m.tokenIds[0], m.tokenIds[1]]);
    expect(prices.get(m.tokenIds[0])).toEqual({ bid: px(0.3), ask: null });
    expect(prices.get(m.tokenIds[1])).toEqual({ bid: null, ask: px(0.7) });
    expect(await t.client.cancelOrder(r.orderId as string)).toEqual({ canceled: [r.orderId], notCanceled: new Map() });
    // The simulator refuses /prices items without a side in this dialect, as the public docs require.
    const bad = await raw(t.sim, 'POST', '/prices', { body: JSON.stringify([{ token_id: m.tokenIds[0] }]) });
    expect(bad.status).toBe(400);
  });

  it('is refused with bad credentials, as the real exchange would', async () => {
    const bad = new ClobClient({
      host: t.sim.url,
      chain: 137,
      signer: v5Signer(wallet),
      creds: { ...creds, passphrase: 'ab'.repeat(32) },
      useServerTime: true,
      throwOnError: true,
    });
    await expect(bad.getOrder('0x' + '1'.repeat(64))).rejects.toThrow(/Unauthorized\/Invalid api key/);
  });
});

// Integration test of the project: Polymarket's official client `@polymarket/clob-client-v2`,
// pointed at the simulator in the polymarket dialect (POLY_ headers, URL-safe base64 HMACs,
// Polymarket's EIP-712 domain, chain 137, numeric salts, no conditionId in the order JSON), derives
// an API key, reads markets, a book, a midpoint and a price, places an order, looks it up and
// cancels it. Time: the client is told to use the server's time (GET /time), so the simulator can
// run on a VirtualClock; its HTTP client is axios, over loopback only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers';
import { ClobClient, Side, type ApiKeyCreds } from '@polymarket/clob-client-v2';
import type { WireBook, WireOrderLookup } from '../../../src/exchange/wire.js';
import { openMarket, px, startTestSim, submission, type TestSim } from './helpers.js';

/** The ethers-v5-style signer the client accepts, over an ethers v6 Wallet. */
function v5Signer(w: Wallet): { _signTypedData: (d: Record<string, unknown>, t: Record<string, Array<{ name: string; type: string }>>, v: Record<string, unknown>) => Promise<string>; getAddress: () => Promise<string> } {
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
afterAll(async () => { await t.close(); });

describe('@polymarket/clob-client-v2 against the simulator (polymarket dialect)', () => {
  it('derives the account\'s API key over L1', async () => {
    const c = new ClobClient({ host: t.sim.url, chain: 137, signer: v5Signer(wallet), useServerTime: true, throwOnError: true });
    creds = await c.deriveApiKey();
    expect(creds).toEqual({ key: t.sim.account.apiKey, secret: t.sim.account.secret, passphrase: t.sim.account.passphrase });
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
    const book = await c.getOrderBook(m.tokenIds[0]) as unknown as WireBook;
    expect(book.bids).toEqual([{ price: '0.3', size: '20' }]);
    expect(book.asks).toEqual([{ price: '0.4', size: '20' }]);
    expect(await c.getMidpoint(m.tokenIds[0])).toEqual({ mid: '0.35' });
    expect(await c.getPrice(m.tokenIds[0], 'BUY')).toEqual({ price: '0.3' });
    expect(await c.getPrice(m.tokenIds[0], 'SELL')).toEqual({ price: '0.4' });
    expect(await c.getTickSize(m.tokenIds[0])).toBe('0.01');
    expect(await c.getNegRisk(m.tokenIds[0])).toBe(m.negRisk);
    expect(await c.getServerTime()).toBe(Math.floor(t.clock.now() / 1000));
  });

  it('places an order, looks it up and cancels it', async () => {
    const c = new ClobClient({ host: t.sim.url, chain: 137, signer: v5Signer(wallet), creds, useServerTime: true, throwOnError: true });
    const m = openMarket(t.sim, 1, 10_000);
    const placed = await c.createAndPostOrder({ tokenID: m.tokenIds[0], price: 0.21, size: 25, side: Side.BUY });
    expect(placed).toMatchObject({ success: true, errorMsg: '', status: 'live' });
    const id = (placed as { orderID: string }).orderID;
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    const looked = await c.getOrder(id) as unknown as WireOrderLookup;
    expect(looked.order).toMatchObject({ id, status: 'LIVE', price: '0.21', originalSize: '25', side: 'BUY', assetId: m.tokenIds[0], owner: creds.key });
    expect(await c.cancelOrder({ orderID: id })).toEqual({ canceled: [id], not_canceled: {} });
    const after = await c.getOrder(id) as unknown as WireOrderLookup;
    expect(after.order.status).toBe('CANCELED');
  });

  it('is refused with bad credentials, as the real exchange would', async () => {
    const bad = new ClobClient({
      host: t.sim.url, chain: 137, signer: v5Signer(wallet), creds: { ...creds, passphrase: 'ab'.repeat(32) }, useServerTime: true, throwOnError: true,
    });
    await expect(bad.getOrder('0x' + '1'.repeat(64))).rejects.toThrow(/Unauthorized\/Invalid api key/);
  });
});

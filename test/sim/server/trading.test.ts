// Trading routes over HTTP with the project's own client: placement (live, matched, every per-order
// rejection of docs/protocol.md §4 with its exact text), batches and their caps, cancels, order lookup,
// the request-level failures (payload, owner, signer, signature) and every L2 auth failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALE } from '../../../src/core/money.js';
import { ExchangeHttpError } from '../../../src/exchange/errors.js';
import { toWireSubmission } from '../../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../../src/exchange/wire.js';
import { buildL2Headers } from '../../../src/exchange/auth/l2.js';
import { makeCredentials } from '../../../src/exchange/auth/credentials.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import {
  closedMarket,
  openMarket,
  px,
  raw,
  secondAccount,
  signedRaw,
  signOrder,
  startTestSim,
  type TestSim,
} from './helpers.js';

const KEY_B = '0x' + 'b2'.repeat(32);
const KEY_C = '0x' + 'c3'.repeat(32);
const UNAUTHORIZED = { error: 'Unauthorized/Invalid api key' };

let t: TestSim;
let b: Awaited<ReturnType<typeof secondAccount>>;

beforeAll(async () => {
  t = await startTestSim();
  b = await secondAccount(t, KEY_B);
});
afterAll(async () => {
  await b.client.close();
  await t.close();
});

async function httpError(p: Promise<unknown>): Promise<ExchangeHttpError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ExchangeHttpError) return e;
    throw e;
  }
  throw new Error('expected an ExchangeHttpError');
}

describe('POST /order', () => {
  it('accepts a resting order and the lookup shows it with every §2.5 field', async () => {
    const m = openMarket(t.sim, 0, 10_000);
    const s = submission(t, { market: m, price: px(0.2), size: px(20) });
    const r = await t.client.postOrder(s);
    expect(r).toMatchObject({
      accepted: true,
      success: true,
      errorMsg: '',
      status: 'live',
      takingAmount: null,
      makingAmount: null,
    });
    const raw1 = await signedRaw(t, 'GET', `/data/order/${r.orderId}`);
    expect(raw1.status).toBe(200);
    expect(Object.keys((raw1.json as { order: object }).order)).toEqual([
      'associateTrades',
      'id',
      'status',
      'market',
      'originalSize',
      'outcome',
      'makerAddress',
      'owner',
      'price',
      'side',
      'sizeMatched',
      'assetId',
      'type',
      'createdAt',
    ]);
    expect(raw1.json).toEqual({
      order: {
        associateTrades: [],
        id: r.orderId,
        status: 'LIVE',
        market: m.conditionId,
        originalSize: '20',
        outcome: m.outcomes[0],
        makerAddress: t.sim.account.address,
        owner: t.sim.account.apiKey,
        price: '0.2',
        side: 'BUY',
        sizeMatched: '0',
        assetId: m.tokenIds[0],
        type: 'GTC',
        createdAt: new Date(t.clock.now()).toISOString(),
      },
    });
    const rec = await t.client.getOrder(r.orderId as string);
    expect(rec?.status).toBe('LIVE');
    await t.client.cancelOrder(r.orderId as string);
  });

  it("matches against another account at the maker's price and reports the fill", async () => {
    const m = openMarket(t.sim, 1, 10_000);
    // B buys NO at 0.80: an ask at 0.20 on the YES book.
    const maker = await b.client.postOrder(
      submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(0.8), size: px(20) }, b.creds.apiKey),
    );
    expect(maker.accepted).toBe(true);
    const r = await t.client.postOrder(submission(t, { market: m, price: px(0.25), size: px(20) }));
    expect(r).toMatchObject({ accepted: true, status: 'matched', takingAmount: px(20), makingAmount: px(4) });
    const rec = await t.client.getOrder(r.orderId as string);
    expect(rec).toMatchObject({ status: 'MATCHED', sizeMatched: px(20), price: px(0.25) });
    expect(rec?.associateTrades.length).toBe(1);
    const mk = await b.client.getOrder(maker.orderId as string);
    expect(mk).toMatchObject({ status: 'MATCHED', sizeMatched: px(20) });
  });

  it('answers every per-order rejection with status 400 and the exact protocol text', async () => {
    const m = openMarket(t.sim, 2, 10_000);
    const off = submission(t, { market: m, price: px(0.205), size: px(20), tick: 1_000 });
    const id = (s: WireOrderSubmission): string => signOrderId(s);
    const cases: Array<[WireOrderSubmission, string]> = [
      [off, `order ${id(off)} is invalid. Price (0.205) breaks minimum tick size rule: 0.01`],
    ];
    const small = submission(t, { market: m, price: px(0.2), size: px(1) });
    cases.push([
      small,
      `order ${id(small)} is invalid. Size (1) lower than the minimum: ${m.state.minOrderSize / SCALE}`,
    ]);
    for (const [s, msg] of cases) {
      const r = await t.client.postOrder(s);
      expect(r).toMatchObject({ accepted: false, success: false, errorMsg: msg });
      const e = await signedRaw(t, 'POST', '/order', JSON.stringify(s));
      expect(e.status).toBe(400);
      expect(e.json).toEqual({ error: msg });
    }
    const ok = submission(t, { market: m, price: px(0.3), size: px(20) });
    expect((await t.client.postOrder(ok)).accepted).toBe(true);
    expect((await t.client.postOrder(ok)).errorMsg).toBe(`order ${id(ok)} is invalid. Duplicated.`);
    // Post-only crossing, FOK and FAK against an empty opposite side.
    const bid = submission(t, { market: m, price: px(0.4), size: px(20) });
    expect((await t.client.postOrder(bid)).accepted).toBe(true);
    const cross = submission(t, { market: m, outcome: 1, price: px(0.65), size: px(20), postOnly: true });
    expect((await t.client.postOrder(cross)).errorMsg).toBe('invalid post-only order: order crosses book');
    const fok = submission(t, { market: m, price: px(0.9), size: px(20), orderType: 'FOK' });
    expect((await t.client.postOrder(fok)).errorMsg).toBe(
      "order couldn't be fully filled. FOK orders are fully filled or killed.",
    );
    const fak = submission(t, { market: m, price: px(0.9), size: px(20), orderType: 'FAK' });
    expect((await t.client.postOrder(fak)).errorMsg).toBe(
      'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
    );
    // A wallet with a key but no collateral.
    const c = await secondAccount(t, KEY_C, null);
    const poor = submission({ ...t, signer: c.signer }, { market: m, price: px(0.2), size: px(20) }, c.creds.apiKey);
    expect((await c.client.postOrder(poor)).errorMsg).toBe('not enough balance / allowance');
    await c.client.close();
    // A closed market.
    const closed = closedMarket(t.sim);
    expect(closed).toBeDefined();
    if (closed !== undefined) {
      const s = submission(t, { market: closed, price: 50 * closed.state.tick, size: px(20) });
      expect((await t.client.postOrder(s)).errorMsg).toBe('the market is not yet ready to process new orders');
    }
  });

  it('accepts the salt as a JSON number in the spec dialect too (a server accepts both)', async () => {
    const m = openMarket(t.sim, 3);
    const s = submission(t, { market: m, price: 12 * m.state.tick, size: px(20), salt: 987_654_321 });
    const numeric = { ...s, order: { ...s.order, salt: 987_654_321 } };
    const r = await signedRaw(t, 'POST', '/order', JSON.stringify(numeric));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ success: true, orderID: signOrderId(s), status: 'live' });
  });

  it('rests a GTD order until its expiration, and refuses one already expired', async () => {
    const m = openMarket(t.sim, 3);
    const exp = Math.floor(t.clock.now() / 1000) + 120;
    const r = await t.client.postOrder(
      submission(t, { market: m, price: 10 * m.state.tick, size: px(20), orderType: 'GTD', expirationSec: exp }),
    );
    expect(r.status).toBe('live');
    t.clock.advance(121_000);
    expect((await t.client.getOrder(r.orderId as string))?.status).toBe('CANCELED');
    const late = submission(t, {
      market: m,
      price: 10 * m.state.tick,
      size: px(20),
      orderType: 'GTD',
      expirationSec: Math.floor(t.clock.now() / 1000) - 1,
    });
    const e = await httpError(t.client.postOrder(late));
    expect(e.status).toBe(400);
    expect(e.exchangeMessage).toBe('Invalid order payload');
  });
});

// Every submission built here remembers its order id (the EIP-712 digest the server computes).
const ids = new Map<WireOrderSubmission, string>();
function signOrderId(s: WireOrderSubmission): string {
  const id = ids.get(s);
  if (id === undefined) throw new Error('unknown submission');
  return id;
}
function submission(
  tt: Parameters<typeof signOrder>[0],
  o: Parameters<typeof signOrder>[1],
  owner?: string,
): WireOrderSubmission {
  const signed = signOrder(tt, o);
  const s = toWireSubmission(signed, {
    orderType: o.orderType ?? 'GTC',
    owner: owner ?? t.sim.account.apiKey,
    dialect: t.sim.venue.dialect,
    ...(o.expirationSec === undefined ? {} : { expirationSec: o.expirationSec }),
    ...(o.postOnly === undefined ? {} : { postOnly: o.postOnly }),
  });
  ids.set(s, signed.id);
  return s;
}

describe('POST /orders', () => {
  it('places up to 15 in order, with per-order rejections inside a 200 answer', async () => {
    const m = openMarket(t.sim, 4, 10_000);
    const batch: WireOrderSubmission[] = [];
    for (let i = 0; i < 14; i++) batch.push(submission(t, { market: m, price: px(0.01 * (i + 1)), size: px(20) }));
    batch.push(batch[0] as WireOrderSubmission); // a duplicate inside the batch
    const r = await t.client.postOrders(batch);
    expect(r.length).toBe(15);
    expect(r.slice(0, 14).every((x) => x.accepted && x.status === 'live')).toBe(true);
    expect(r[14]).toMatchObject({
      accepted: false,
      errorMsg: `order ${signOrderId(batch[0] as WireOrderSubmission)} is invalid. Duplicated.`,
    });
    expect(r.map((x) => x.orderId)).toEqual(batch.map((s) => signOrderId(s)));
  });

  it('refuses 16 orders, an empty array and a non-array with 400', async () => {
    const m = openMarket(t.sim, 5);
    const batch = Array.from({ length: 16 }, () =>
      submission(t, { market: m, price: 10 * m.state.tick, size: px(20) }),
    );
    const r16 = await signedRaw(t, 'POST', '/orders', JSON.stringify(batch));
    expect(r16.status).toBe(400);
    expect(r16.json).toEqual({ error: 'Too many orders in payload: 16, max allowed: 15' });
    for (const body of ['[]', '{}', '"x"', '[1,2', '']) {
      const r = await signedRaw(t, 'POST', '/orders', body);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: 'Invalid order payload' });
    }
    const listed = await raw(t.sim, 'GET', `/_sim/orders?owner=${t.sim.account.address}&status=LIVE&limit=1000`);
    const ids16 = new Set(batch.map((s) => signOrderId(s)));
    expect((listed.json as { data: { id: string }[] }).data.some((o) => ids16.has(o.id))).toBe(false);
  });

  it('fails the whole batch on one bad submission, placing none of it', async () => {
    const m = openMarket(t.sim, 5);
    const good = submission(t, { market: m, price: 11 * m.state.tick, size: px(20) });
    const bad = submission(t, { market: m, price: 12 * m.state.tick, size: px(20) });
    const tampered = { ...bad, order: { ...bad.order, makerAmount: String(Number(bad.order.makerAmount) + 10_000) } };
    const r = await signedRaw(t, 'POST', '/orders', JSON.stringify([good, tampered]));
    expect(r.status).toBe(401);
    expect(r.json).toEqual({ error: 'invalid order signature: it was not made by the order signer' });
    const e = await httpError(t.client.getOrder(signOrderId(good)));
    expect(e.status).toBe(404);
  });
});

describe('request-level failures', () => {
  const m = (): ReturnType<typeof openMarket> => openMarket(t.sim, 6);

  it('owner not the API key → 400 with the protocol text', async () => {
    const s = submission(t, { market: m(), price: 10 * m().state.tick, size: px(20) }, b.creds.apiKey);
    const e = await httpError(t.client.postOrder(s));
    expect(e.status).toBe(400);
    expect(e.exchangeMessage).toBe('the order owner has to be the owner of the API KEY');
  });

  it('an order signed by another wallet → 401 signer mismatch; a forged signer field → 401 bad signature', async () => {
    const byB = submission({ ...t, signer: b.signer }, { market: m(), price: 10 * m().state.tick, size: px(20) });
    const e = await httpError(t.client.postOrder(byB));
    expect(e.status).toBe(401);
    expect(e.exchangeMessage).toBe('the order signer address has to be the address of the API KEY');
    const forged = {
      ...byB,
      order: { ...byB.order, signer: t.sim.account.address, maker: t.sim.account.address },
    } as WireOrderSubmission;
    const f = await httpError(t.client.postOrder(forged));
    expect(f.status).toBe(401);
    expect(f.exchangeMessage).toBe('invalid order signature: it was not made by the order signer');
  });

  it("verifies in the market's EIP-712 domain: neg-risk markets sign for the neg-risk contract", async () => {
    for (const negRisk of [true, false]) {
      const mk = t.sim.venue.world.markets.find(
        (x) => x.negRisk === negRisk && x.state.acceptingOrders && !x.state.closed,
      );
      if (mk === undefined) throw new Error(`no open market with negRisk ${String(negRisk)}`);
      const good = submission(t, { market: mk, price: 10 * mk.state.tick, size: px(20) });
      expect((await t.client.postOrder(good)).accepted).toBe(true);
      const wrongDomain = submission(t, { market: mk, price: 10 * mk.state.tick, size: px(20), negRisk: !negRisk });
      const e = await httpError(t.client.postOrder(wrongDomain));
      expect(e.status).toBe(401);
      expect(e.exchangeMessage).toBe('invalid order signature: it was not made by the order signer');
    }
  });

  it('malformed submissions → 400 Invalid order payload', async () => {
    const s = submission(t, { market: m(), price: 10 * m().state.tick, size: px(20) });
    const other = openMarket(t.sim, 7);
    const variants: unknown[] = [
      { ...s, order: { ...s.order, conditionId: other.conditionId } },
      { ...s, orderType: 'IOC' },
      { ...s, order: { ...s.order, side: 'HOLD' } },
      { ...s, order: { ...s.order, signatureType: 7 } },
      { ...s, order: { ...s.order, makerAmount: '1.5' } },
      { ...s, postOnly: 'yes' },
      { order: s.order, orderType: 'GTC' },
      { ...s, order: 'x' },
    ];
    const { signature: _drop, ...noSig } = s.order;
    variants.push({ ...s, order: noSig });
    for (const v of variants) {
      const r = await signedRaw(t, 'POST', '/order', JSON.stringify(v));
      expect(r.status, JSON.stringify(v).slice(0, 80)).toBe(400);
      expect(r.json).toEqual({ error: 'Invalid order payload' });
    }
    const notJson = await signedRaw(t, 'POST', '/order', '{"order":');
    expect(notJson.status).toBe(400);
    expect(notJson.json).toEqual({ error: 'Invalid order payload' });
  });

  it('an unknown token is rejected as an invalid payload', async () => {
    const s = submission(t, { market: m(), price: 10 * m().state.tick, size: px(20) });
    const r = await signedRaw(
      t,
      'POST',
      '/order',
      JSON.stringify({ ...s, order: { ...s.order, tokenId: '12345', conditionId: undefined } }),
    );
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'Invalid order payload' });
  });
});

describe('L2 authentication (401 Unauthorized/Invalid api key)', () => {
  const body = (): string =>
    JSON.stringify(
      submission(t, { market: openMarket(t.sim, 8), price: 10 * openMarket(t.sim, 8).state.tick, size: px(20) }),
    );

  it('missing headers, each one', async () => {
    for (const h of ['SVC_ADDRESS', 'SVC_API_KEY', 'SVC_PASSPHRASE', 'SVC_TIMESTAMP', 'SVC_SIGNATURE']) {
      const r = await signedRaw(t, 'POST', '/order', body(), { headers: { [h]: '' } });
      expect(r.status, h).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    }
    const none = await raw(t.sim, 'POST', '/order', { body: body() });
    expect(none.status).toBe(401);
    expect(none.json).toEqual(UNAUTHORIZED);
  });

  it('malformed timestamp, wrong signature, unknown key, wrong passphrase, wrong address, other dialect prefix', async () => {
    const bad: Array<Record<string, string>> = [
      { SVC_TIMESTAMP: 'yesterday' },
      { SVC_SIGNATURE: 'ab'.repeat(32) },
      { SVC_SIGNATURE: 'not-hex' },
      { SVC_API_KEY: '00000000-0000-4000-8000-000000000000' },
      { SVC_PASSPHRASE: 'ab'.repeat(32) },
      { SVC_ADDRESS: b.address },
    ];
    for (const h of bad) {
      const r = await signedRaw(t, 'POST', '/order', body(), { headers: h });
      expect(r.status, JSON.stringify(h)).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    }
    // The public exchange's header names are not this dialect's.
    const text = body();
    const a = t.sim.account;
    const poly = buildL2Headers({
      dialect: DIALECTS.polymarket,
      credentials: makeCredentials(a),
      address: a.address,
      method: 'POST',
      path: '/order',
      body: text,
      timestampSec: Math.floor(t.clock.now() / 1000),
    });
    const r = await raw(t.sim, 'POST', '/order', { body: text, headers: poly });
    expect(r.status).toBe(401);
    expect(r.json).toEqual(UNAUTHORIZED);
    expect((await signedRaw(t, 'POST', '/order', body())).status).toBe(200);
  });

  it('a timestamp more than 30 s from the server clock, either way; 30 s is still fresh', async () => {
    const now = Math.floor(t.clock.now() / 1000);
    for (const ts of [now - 31, now + 31]) {
      const r = await signedRaw(t, 'POST', '/order', body(), { timestampSec: ts });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    }
    const ok = await signedRaw(t, 'POST', '/order', body(), { timestampSec: now - 30 });
    expect(ok.status).toBe(200);
  });

  it('the body signed must be the body sent', async () => {
    const a = body();
    const other = body();
    const headersFor = await signedRawHeaders(a);
    const r = await raw(t.sim, 'POST', '/order', { body: other, headers: headersFor });
    expect(r.status).toBe(401);
  });

  it('order lookup and cancel need L2 too', async () => {
    expect((await raw(t.sim, 'GET', '/data/order/0x' + '1'.repeat(64))).status).toBe(401);
    expect((await raw(t.sim, 'DELETE', '/order', { body: JSON.stringify({ orderId: '0x1' }) })).status).toBe(401);
  });
});

async function signedRawHeaders(body: string): Promise<Record<string, string>> {
  const a = t.sim.account;
  return buildL2Headers({
    dialect: t.sim.venue.dialect,
    credentials: makeCredentials(a),
    address: a.address,
    method: 'POST',
    path: '/order',
    body,
    timestampSec: Math.floor(t.clock.now() / 1000),
  });
}

describe('DELETE /order and GET /data/order/{id}', () => {
  it("cancels own orders; reports not found, already matched and other owners' orders", async () => {
    const m = openMarket(t.sim, 9, 10_000);
    const r = await t.client.postOrder(submission(t, { market: m, price: px(0.1), size: px(20) }));
    const id = r.orderId as string;
    expect(await b.client.cancelOrder(id)).toEqual({
      canceled: [],
      notCanceled: new Map([[id, 'Order not found or already canceled']]),
    });
    expect((await httpError(b.client.getOrder(id))).exchangeMessage).toBe('Order not found');
    expect(await t.client.cancelOrder(id)).toEqual({ canceled: [id], notCanceled: new Map() });
    expect(await t.client.cancelOrder(id)).toEqual({
      canceled: [],
      notCanceled: new Map([[id, 'Order not found or already canceled']]),
    });
    // Matched: B rests, A takes all of it.
    const mk = await b.client.postOrder(
      submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(0.7), size: px(20) }, b.creds.apiKey),
    );
    await t.client.postOrder(submission(t, { market: m, price: px(0.3), size: px(20) }));
    expect(await b.client.cancelOrder(mk.orderId as string)).toEqual({
      canceled: [],
      notCanceled: new Map([[mk.orderId, 'Order already matched']]),
    });
    expect((await httpError(t.client.getOrder('0x' + 'ee'.repeat(32)))).status).toBe(404);
  });

  it("accepts Polymarket's `orderID` spelling and refuses other bodies", async () => {
    const m = openMarket(t.sim, 9, 10_000);
    const r = await t.client.postOrder(submission(t, { market: m, price: px(0.11), size: px(20) }));
    const c = await signedRaw(t, 'DELETE', '/order', JSON.stringify({ orderID: r.orderId }));
    expect(c.json).toEqual({ canceled: [r.orderId], not_canceled: {} });
    for (const body of ['{}', '[]', '{"orderId":5}', 'nope']) {
      const e = await signedRaw(t, 'DELETE', '/order', body);
      expect(e.status).toBe(400);
      expect(e.json).toEqual({ error: 'Invalid payload' });
    }
  });
});

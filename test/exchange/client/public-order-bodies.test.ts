// Request bodies of the order routes in the polymarket dialect, checked against Polymarket's
// official client (@polymarket/clob-client-v2, a dev dependency) by its OWN builders:
// - the submission: its OrderBuilder signs the same order (same key, salt and timestamp, pinned
//   as in test/exchange/signing/polymarket-crosscheck.test.ts) and its orderToJsonV2 serialises
//   it; ours must be byte-identical (same keys, key order, JSON types and values) for GTC, GTD
//   with an expiration, and post-only;
// - then both clients send to one local server: POST /order, POST /orders, DELETE /order (its
//   cancelOrder({orderID})), POST /prices (its getPrices with BookParams {token_id, side}) and GET
//   /data/order/{id} must arrive with the same method, path and body bytes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Wallet as WalletV5 } from '@ethersproject/wallet';
import {
  Chain,
  ClobClient,
  OrderBuilder,
  orderToJsonV2,
  OrderType,
  Side as PolySide,
  SignatureTypeV2,
  type SignedOrder as PolySignedOrder,
} from '@polymarket/clob-client-v2';
import type { Price, Shares } from '../../../src/core/money.js';
import type { OrderType as OurOrderType } from '../../../src/core/order.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { buildOrder } from '../../../src/exchange/signing/order.js';
import { OrderSigner } from '../../../src/exchange/signing/signer.js';
import { toWireSubmission } from '../../../src/exchange/signing/wire-order.js';
import type { SignedOrder } from '../../../src/exchange/signing/types.js';
import { KEY_A, TOKEN } from '../signing/arbitraries.js';
import { run, type Recorded } from '../http/test-server.js';
import { setup, type Harness } from './harness.js';
import * as P from './payloads.js';

const dialect = DIALECTS.polymarket;
const walletV5 = new WalletV5(KEY_A);
const ours = new OrderSigner(KEY_A, dialect);
const NOW_MS = 1_781_289_172_123;
const RANDOM = 0.37;
const OWNER = P.CREDS.apiKey;

interface Case {
  side: 'BUY' | 'SELL';
  price: number;
  size: number;
  orderType: OurOrderType;
  expirationSec?: number;
  postOnly?: boolean;
  negRisk: boolean;
}

const CASES: Case[] = [
  { side: 'BUY', price: 0.52, size: 21.04, orderType: 'GTC', negRisk: false },
  { side: 'SELL', price: 0.123, size: 33.337, orderType: 'GTD', expirationSec: 1_781_300_000, negRisk: true },
  { side: 'BUY', price: 0.07, size: 100, orderType: 'GTC', postOnly: true, negRisk: false },
];

const tickOf = (c: Case): '0.01' | '0.001' => ((c.price * 1000) % 10 === 0 ? '0.01' : '0.001');

/** The official builder's signed order, its salt and timestamp pinned. */
async function theirs(c: Case): Promise<PolySignedOrder> {
  vi.spyOn(Date, 'now').mockReturnValue(NOW_MS);
  vi.spyOn(Math, 'random').mockReturnValue(RANDOM);
  try {
    const b = new OrderBuilder(walletV5 as never, 137, SignatureTypeV2.EOA);
    return (await b.buildOrder(
      {
        tokenID: TOKEN,
        price: c.price,
        size: c.size,
        side: c.side === 'BUY' ? PolySide.BUY : PolySide.SELL,
        ...(c.expirationSec === undefined ? {} : { expiration: c.expirationSec }),
      },
      { tickSize: tickOf(c), negRisk: c.negRisk },
      2,
    )) as PolySignedOrder;
  } finally {
    vi.restoreAllMocks();
  }
}

/** Our signed order for the same case, salt and timestamp. */
function mine(c: Case): SignedOrder {
  return ours.sign(
    buildOrder(
      {
        tokenId: TOKEN,
        conditionId: P.CONDITION,
        side: c.side,
        price: Math.round(c.price * 1e6) as Price,
        size: Math.round(c.size * 1e6) as Shares,
        orderType: c.orderType,
        tick: (tickOf(c) === '0.01' ? 10_000 : 1_000) as Price,
        negRisk: c.negRisk,
        ...(c.expirationSec === undefined ? {} : { expirationSec: c.expirationSec }),
        ...(c.postOnly === undefined ? {} : { postOnly: c.postOnly }),
      },
      {
        maker: ours.address,
        signer: ours.address,
        signatureType: 0,
        salt: String(Math.round(RANDOM * NOW_MS)),
        timestampMs: NOW_MS,
      },
    ),
  );
}

function ourBody(c: Case): ReturnType<typeof toWireSubmission> {
  return toWireSubmission(mine(c), {
    orderType: c.orderType,
    owner: OWNER,
    dialect,
    ...(c.expirationSec === undefined ? {} : { expirationSec: c.expirationSec }),
    ...(c.postOnly === undefined ? {} : { postOnly: c.postOnly }),
  });
}

describe('the submission body is the official orderToJsonV2 output, byte for byte', () => {
  for (const c of CASES) {
    it(`${c.side} ${c.orderType}${c.postOnly === true ? ' post-only' : ''}${c.negRisk ? ' neg-risk' : ''}`, async () => {
      const t = await theirs(c);
      const official = orderToJsonV2(t as never, OWNER, c.orderType as OrderType, c.postOnly === true, false);
      const body = ourBody(c);
      expect(JSON.stringify(body)).toBe(JSON.stringify(official));
      // Spelled out, for the record: the keys, and the JSON types that differ from the interface's.
      expect(Object.keys(body)).toEqual(Object.keys(official));
      expect(Object.keys(body.order)).toEqual(Object.keys(JSON.parse(JSON.stringify(official.order)) as object));
      expect(typeof body.order.salt).toBe('number');
      expect(body.order.expiration).toBe(String(c.expirationSec ?? 0));
      expect('conditionId' in body.order).toBe(false);
      expect(body).toMatchObject({ deferExec: false, postOnly: c.postOnly === true });
    });
  }
});

describe('the same requests as the official client on the order routes', () => {
  let h: Harness;
  let official: ClobClient;

  beforeEach(async () => {
    h = await setup({ dialect });
    official = new ClobClient({
      host: `${h.server.url}/clob`,
      chain: Chain.POLYGON,
      signer: walletV5 as never,
      creds: { key: P.CREDS.apiKey, secret: P.CREDS.secret, passphrase: P.CREDS.passphrase },
    });
    h.on('POST /clob/order', {
      errorMsg: '',
      orderID: P.ORDER_ID,
      takingAmount: '',
      makingAmount: '',
      status: 'live',
      success: true,
    });
    h.on('POST /clob/orders', [
      { errorMsg: '', orderID: P.ORDER_ID, takingAmount: '', makingAmount: '', status: 'live', success: true },
      {
        errorMsg: '',
        orderID: `0x${'2'.repeat(64)}`,
        takingAmount: '',
        makingAmount: '',
        status: 'live',
        success: true,
      },
    ]);
    h.on('DELETE /clob/order', { canceled: [P.ORDER_ID], not_canceled: {} });
    h.on('POST /clob/prices', { 1: { BUY: '0.5', SELL: '0.52' }, 2: { BUY: '0.1' } });
    h.on(`GET /clob/data/order/${P.ORDER_ID}`, P.orderRecordPublic);
  });
  afterEach(async () => {
    await h.close();
  });

  function shape(r: Recorded): { method: string; path: string; query: string; body: string } {
    return { method: r.method, path: r.path, query: [...r.query.entries()].sort().join('&'), body: r.body };
  }

  async function both(oursCall: () => Promise<unknown>, theirsCall: () => Promise<unknown>): Promise<Recorded> {
    h.server.requests.length = 0;
    await run(h.clock, oursCall());
    await theirsCall();
    expect(h.server.requests).toHaveLength(2);
    expect(shape(h.server.requests[0]!)).toEqual(shape(h.server.requests[1]!));
    return h.server.requests[0]!;
  }

  it('POST /order and POST /orders', async () => {
    const [a, b] = [CASES[0]!, CASES[1]!];
    const ta = await theirs(a);
    const tb = await theirs(b);
    const r = await both(
      () => h.client.postOrder(ourBody(a)),
      () => official.postOrder(ta, OrderType.GTC),
    );
    expect(JSON.parse(r.body)).toMatchObject({ deferExec: false, postOnly: false, owner: OWNER, orderType: 'GTC' });
    await both(
      () => h.client.postOrders([ourBody(a), ourBody({ ...b, orderType: 'GTD' })]),
      () =>
        official.postOrders([
          { order: ta, orderType: OrderType.GTC },
          { order: tb, orderType: OrderType.GTD },
        ]),
    );
  });

  it('DELETE /order sends {"orderID": …}', async () => {
    const r = await both(
      () => h.client.cancelOrder(P.ORDER_ID),
      () => official.cancelOrder({ orderID: P.ORDER_ID }),
    );
    expect(r.body).toBe(JSON.stringify({ orderID: P.ORDER_ID }));
  });

  it('POST /prices sends {token_id, side} items, one a side', async () => {
    const r = await both(
      () => h.client.getPrices(['1', '2']),
      () =>
        official.getPrices([
          { token_id: '1', side: PolySide.BUY },
          { token_id: '1', side: PolySide.SELL },
          { token_id: '2', side: PolySide.BUY },
          { token_id: '2', side: PolySide.SELL },
        ]),
    );
    expect(JSON.parse(r.body)).toEqual([
      { token_id: '1', side: 'BUY' },
      { token_id: '1', side: 'SELL' },
      { token_id: '2', side: 'BUY' },
      { token_id: '2', side: 'SELL' },
    ]);
  });

  it('GET /data/order/{id}', async () => {
    await both(
      () => h.client.getOrder(P.ORDER_ID),
      () => official.getOrder(P.ORDER_ID),
    );
  });
});

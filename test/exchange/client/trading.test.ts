// Signed routes through the client: the exact body is signed and sent (verified server-side with
// engineer C's verifyL2Headers, both dialects, base path included in the signed path), 1..15
// orders checked before sending, per-order rejections returned as values, request-level errors
// thrown, writes never retried and ambiguous failures flagged, signed reads retried with a fresh
// timestamp, and missing credentials refused before sending.
import { afterEach, describe, expect, it } from 'vitest';
import { verifyL2Headers } from '../../../src/exchange/auth/l2.js';
import { DIALECTS, type Dialect } from '../../../src/exchange/dialect.js';
import { ClientValidationError, ExchangeError } from '../../../src/exchange/errors.js';
import { ExchangeClient } from '../../../src/exchange/client/index.js';
import { failure, json, run, type Recorded } from '../http/test-server.js';
import { setup, START_MS, type Harness } from './harness.js';
import * as P from './payloads.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

function verify(req: Recorded, dialect: Dialect, nowSec: number): ReturnType<typeof verifyL2Headers> {
  return verifyL2Headers({
    dialect,
    headers: req.headers,
    method: req.method,
    path: req.path,
    body: req.body === '' ? undefined : req.body,
    nowSec,
    maxSkewSec: 30,
    lookupCredentials: (k) => (k === P.CREDS.apiKey ? { credentials: P.CREDS, address: P.ADDRESS } : undefined),
  });
}

describe('L2 signing', () => {
  for (const dialect of [DIALECTS.spec, DIALECTS.polymarket]) {
    it(`signs the exact bytes sent (${dialect.name} dialect)`, async () => {
      h = await setup({ dialect });
      h.on('POST /clob/order', P.placementLive);
      h.on('DELETE /clob/order', P.cancelReal);
      h.on(`GET /clob/data/order/${P.ORDER_ID}`, dialect.orderWire === 'public' ? P.orderRecordPublic : P.orderLookup);
      await run(h.clock, h.client.postOrder(P.submission()));
      await run(h.clock, h.client.cancelOrder(P.ORDER_ID));
      await run(h.clock, h.client.getOrder(P.ORDER_ID));
      const nowSec = Math.floor(START_MS / 1000);
      for (const req of h.server.requests) {
        expect(verify(req, dialect, nowSec), `${req.method} ${req.path}`).toMatchObject({
          ok: true,
          apiKey: P.CREDS.apiKey,
        });
        expect(req.headers[`${dialect.headerPrefix}timestamp`.toLowerCase()]).toBe(String(nowSec));
      }
      // A byte changed in transit would not verify: the signature covers the body.
      const tampered = { ...h.server.requests[0]!, body: h.server.requests[0]!.body.replace('"GTC"', '"FOK"') };
      expect(verify(tampered, dialect, nowSec).ok).toBe(false);
    });
  }

  it("the timestamp is the clock's, in whole seconds", async () => {
    h = await setup();
    h.on('POST /clob/order', P.placementLive);
    h.clock.advance(123_999);
    await run(h.clock, h.client.postOrder(P.submission()));
    expect(h.server.requests[0]!.headers['svc_timestamp']).toBe(String(Math.floor((START_MS + 123_999) / 1000)));
  });

  it('public routes carry no credential headers', async () => {
    h = await setup();
    h.on('GET /clob/book', P.bookReal);
    await run(h.clock, h.client.getBook(P.TOKEN));
    expect(Object.keys(h.server.requests[0]!.headers).filter((k) => k.startsWith('svc_'))).toEqual([]);
  });

  it('a retried signed read is signed again at the time of each attempt', async () => {
    h = await setup({ backoff: { baseDelayMs: 4000, maxDelayMs: 60_000 }, random: () => 0.99 });
    let n = 0;
    h.on(`GET /clob/data/order/${P.ORDER_ID}`, (_req, res) => {
      n++;
      if (n < 3) json(res, 503, { error: 'paused' });
      else json(res, 200, P.orderLookup);
    });
    await run(h.clock, h.client.getOrder(P.ORDER_ID));
    const stamps = h.server.requests.map((r) => Number(r.headers['svc_timestamp']));
    expect(stamps).toHaveLength(3);
    // Waits of 0.99 × 4000 ms then 0.99 × 8000 ms: 3.96 s and 11.88 s after the first attempt.
    expect(stamps[1]! - stamps[0]!).toBe(3);
    expect(stamps[2]! - stamps[0]!).toBe(11);
    for (const [i, req] of h.server.requests.entries()) expect(verify(req, DIALECTS.spec, stamps[i]!).ok).toBe(true);
  });

  it('without credentials a signed route throws before sending; public routes still work', async () => {
    h = await setup({ credentials: undefined as never });
    const bare = new ExchangeClient({ clobUrl: `${h.server.url}/clob`, dialect: DIALECTS.spec, clock: h.clock });
    for (const call of [
      () => bare.postOrder(P.submission()),
      () => bare.postOrders([P.submission()]),
      () => bare.cancelOrder(P.ORDER_ID),
      () => bare.getOrder(P.ORDER_ID),
    ]) {
      const e = (await failure(h.clock, call())) as { code: string };
      expect(e.code).toBe('CLIENT_NO_CREDENTIALS');
    }
    const noAddress = new ExchangeClient({
      clobUrl: `${h.server.url}/clob`,
      dialect: DIALECTS.spec,
      clock: h.clock,
      credentials: P.CREDS,
    });
    expect(((await failure(h.clock, noAddress.postOrder(P.submission()))) as { code: string }).code).toBe(
      'CLIENT_NO_CREDENTIALS',
    );
    expect(h.server.requests).toHaveLength(0);
    h.on('GET /clob/book', P.bookReal);
    await run(h.clock, bare.getBook(P.TOKEN));
    expect(h.server.requests).toHaveLength(1);
    await bare.close();
    await noAddress.close();
  });

  it("an unusable address fails signing with the signer's error, nothing sent", async () => {
    h = await setup({ address: '0xnot-an-address' });
    const e = (await failure(h.clock, h.client.postOrder(P.submission()))) as { code: string; message: string };
    expect(e.code).toBe('CONFIG_CREDENTIALS');
    expect(e.message).not.toContain(P.CREDS.secret);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('POST /orders bounds', () => {
  it('0 and 16 submissions are refused before sending; 1 and 15 are sent', async () => {
    h = await setup();
    h.on('POST /clob/orders', (req, res) =>
      json(
        res,
        200,
        (JSON.parse(req.body) as unknown[]).map(() => P.placementLive),
      ),
    );
    for (const n of [0, 16, 40]) {
      const e = await failure(
        h.clock,
        h.client.postOrders(Array.from({ length: n }, (_, i) => P.submission(String(i)))),
      );
      expect(e).toBeInstanceOf(ClientValidationError);
      expect((e as ClientValidationError).param).toBe('orders');
      expect((e as Error).message).toContain(`got ${n}`);
    }
    expect(h.server.requests).toHaveLength(0);
    for (const n of [1, 15]) {
      const subs = Array.from({ length: n }, (_, i) => P.submission(String(i)));
      const res = await run(h.clock, h.client.postOrders(subs));
      expect(res).toHaveLength(n);
      expect(h.server.requests.at(-1)!.body).toBe(JSON.stringify(subs));
    }
    expect(h.server.requests).toHaveLength(2);
  });

  it('per-order rejections inside a 200 array are values', async () => {
    h = await setup();
    h.on('POST /clob/orders', [
      P.placementLive,
      {
        success: false,
        errorMsg: 'not enough balance / allowance',
        orderID: '',
        takingAmount: '',
        makingAmount: '',
        status: '',
      },
    ]);
    const res = await run(h.clock, h.client.postOrders([P.submission('1'), P.submission('2')]));
    expect(res.map((r) => r.accepted)).toEqual([true, false]);
    expect(res[1]!.errorMsg).toBe('not enough balance / allowance');
  });

  it('a result count that does not match is EXCHANGE_BAD_RESPONSE, ambiguous', async () => {
    h = await setup();
    h.on('POST /clob/orders', [P.placementLive]);
    const e = (await failure(h.clock, h.client.postOrders([P.submission('1'), P.submission('2')]))) as ExchangeError;
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.ambiguous).toBe(true);
  });
});

describe('POST /order answers', () => {
  const REJECTIONS = [
    'order 0xab is invalid. Price (0.505) breaks minimum tick size rule: 0.01',
    'order 0xab is invalid. Size (1) lower than the minimum: 5',
    'order 0xab is invalid. Duplicated.',
    'not enough balance / allowance',
    'invalid post-only order: order crosses book',
    "order couldn't be fully filled. FOK orders are fully filled or killed.",
    'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
    'the market is not yet ready to process new orders',
  ];
  for (const msg of REJECTIONS) {
    it(`400 "${msg.slice(0, 40)}…" is a rejected placement, not an error`, async () => {
      h = await setup();
      h.on('POST /clob/order', (_req, res) => json(res, 400, { error: msg }));
      const r = await run(h.clock, h.client.postOrder(P.submission()));
      expect(r).toMatchObject({ success: false, accepted: false, errorMsg: msg, orderId: null });
    });
  }

  it('a 400 carrying a placement result keeps its errorMsg', async () => {
    h = await setup();
    h.on('POST /clob/order', (_req, res) =>
      json(res, 400, { success: false, errorMsg: 'not enough balance / allowance', orderID: '', status: '' }),
    );
    expect(await run(h.clock, h.client.postOrder(P.submission()))).toMatchObject({
      accepted: false,
      errorMsg: 'not enough balance / allowance',
    });
  });

  for (const msg of ['Invalid order payload', 'the order owner has to be the owner of the API KEY']) {
    it(`request-level 400 "${msg}" throws EXCHANGE_BAD_REQUEST`, async () => {
      h = await setup();
      h.on('POST /clob/order', (_req, res) => json(res, 400, { error: msg }));
      const e = (await failure(h.clock, h.client.postOrder(P.submission()))) as ExchangeError;
      expect(e.code).toBe('EXCHANGE_BAD_REQUEST');
      expect(e.exchangeMessage).toBe(msg);
    });
  }

  it('401 throws EXCHANGE_UNAUTHORIZED', async () => {
    h = await setup();
    h.on('POST /clob/order', (_req, res) => json(res, 401, { error: 'Unauthorized/Invalid api key' }));
    expect(((await failure(h.clock, h.client.postOrder(P.submission()))) as ExchangeError).code).toBe(
      'EXCHANGE_UNAUTHORIZED',
    );
  });

  it('writes are sent once whatever the failure; 500 and resets are ambiguous, 425/429/503 are not', async () => {
    const cases: Array<[string, (res: import('node:http').ServerResponse) => void, string, boolean]> = [
      ['425', (res) => json(res, 425, { error: 'restarting' }), 'EXCHANGE_RESTARTING', false],
      [
        '429',
        (res) => json(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '1' }),
        'EXCHANGE_THROTTLED',
        false,
      ],
      ['500', (res) => json(res, 500, { error: 'internal' }), 'EXCHANGE_INTERNAL', true],
      ['503', (res) => json(res, 503, { error: 'cancel-only' }), 'EXCHANGE_UNAVAILABLE', false],
      ['reset', (res) => res.socket?.destroy(), 'EXCHANGE_NETWORK', true],
    ];
    h = await setup();
    for (const [name, answer, code, ambiguous] of cases) {
      h.server.requests.length = 0;
      h.on('POST /clob/order', (_req, res) => answer(res));
      h.on('POST /clob/orders', (_req, res) => answer(res));
      h.on('DELETE /clob/order', (_req, res) => answer(res));
      for (const call of [
        () => h.client.postOrder(P.submission()),
        () => h.client.postOrders([P.submission()]),
        () => h.client.cancelOrder(P.ORDER_ID),
      ]) {
        const e = (await failure(h.clock, call())) as ExchangeError;
        expect([name, e.code, e.ambiguous]).toEqual([name, code, ambiguous]);
      }
      expect(h.server.requests, name).toHaveLength(3);
    }
  });

  it('a 200 that is not a placement result is EXCHANGE_BAD_RESPONSE, ambiguous, naming the field', async () => {
    h = await setup();
    h.on('POST /clob/order', { success: 'yes' });
    const e = (await failure(h.clock, h.client.postOrder(P.submission()))) as ExchangeError;
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.ambiguous).toBe(true);
    expect(e.message).toContain('success');
  });
});

describe('cancel', () => {
  it('refuses an empty id before sending', async () => {
    h = await setup();
    const e = await failure(h.clock, h.client.cancelOrder(''));
    expect(e).toBeInstanceOf(ClientValidationError);
    expect(h.server.requests).toHaveLength(0);
  });

  it('returns not_canceled reasons', async () => {
    h = await setup();
    h.on('DELETE /clob/order', { canceled: [], not_canceled: { [P.ORDER_ID]: 'Order already matched' } });
    const r = await run(h.clock, h.client.cancelOrder(P.ORDER_ID));
    expect(r.canceled).toEqual([]);
    expect(r.notCanceled.get(P.ORDER_ID)).toBe('Order already matched');
  });
});

describe('L1 key routes', () => {
  it('send the given L1 headers; create is not retried, derive is', async () => {
    h = await setup();
    let n = 0;
    const flaky = (_req: Recorded, res: import('node:http').ServerResponse): void => {
      n++;
      if (n % 2 === 1) json(res, 503, { error: 'x' });
      else json(res, 200, P.apiKeyCreds);
    };
    h.on('POST /clob/auth/api-key', flaky);
    h.on('GET /clob/auth/derive-api-key', flaky);
    const l1 = { SVC_ADDRESS: P.ADDRESS, SVC_SIGNATURE: '0xsig', SVC_TIMESTAMP: '1781289172', SVC_NONCE: '0' };
    expect(((await failure(h.clock, h.client.createApiKey(l1))) as ExchangeError).code).toBe('EXCHANGE_UNAVAILABLE');
    expect(h.server.requests).toHaveLength(1);
    n = 0;
    expect(await run(h.clock, h.client.deriveApiKey(l1))).toEqual(P.apiKeyCreds);
    expect(h.server.requests).toHaveLength(3);
    for (const r of h.server.requests) {
      expect(r.headers['svc_nonce']).toBe('0');
      expect(r.headers['svc_signature']).toBe('0xsig');
    }
  });

  it('a malformed credentials answer never quotes the secret', async () => {
    h = await setup();
    h.on('GET /clob/auth/derive-api-key', { apiKey: P.CREDS.apiKey, secret: P.CREDS.secret, passphrase: 42 });
    const e = (await failure(h.clock, h.client.deriveApiKey({ SVC_NONCE: '0' }))) as ExchangeError;
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.message).not.toContain(P.CREDS.secret);
    expect(e.cause).toBeUndefined();
    h.on('GET /clob/auth/derive-api-key', (_req, res) => {
      res.writeHead(200);
      res.end(`{"secret":"${P.CREDS.secret}"`);
    });
    const e2 = (await failure(h.clock, h.client.deriveApiKey({ SVC_NONCE: '0' }))) as ExchangeError;
    expect(e2.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(`${e2.message} ${String(e2.exchangeMessage)}`).not.toContain(P.CREDS.secret);
  });
});

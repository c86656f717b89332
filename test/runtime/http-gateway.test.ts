// HttpGateway against a local HTTP server on 127.0.0.1, with the real limiter on a VirtualClock:
// each call reaches the limiter with its priority and API group, cancels overtake placements and
// reads when the budget is short, a 429 pauses the route for its Retry-After and is not refunded,
// permits are released (an in-flight cap never deadlocks), not-found lookups are null, paging.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { DIALECTS } from '../../src/exchange/dialect.js';
import { ExchangeHttpError } from '../../src/exchange/errors.js';
import type { WireCancelResult, WirePlacementResult } from '../../src/exchange/wire.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/config.js';
import type { AcquireOptions, Permit, RateLimiter } from '../../src/ratelimit/types.js';
import { HttpGateway, defaultPriority, isNotFound } from '../../src/runtime/http-gateway.js';
import {
  ADDRESS,
  CREDS,
  ORDER_ID,
  clobMarket,
  orderLookup,
  position,
  samplingPageFromReal,
  submission,
} from '../exchange/client/payloads.js';
import { json, run, startServer, type Recorded, type TestServer } from '../exchange/http/test-server.js';
import type { ServerResponse } from 'node:http';
import { realJson } from '../support/fixtures.js';

const real = realJson('clob_rest_order_responses.json') as {
  post_order_live: WirePlacementResult;
  cancel_order: WireCancelResult;
};

/** The real limiter, recording what each acquire asked for and when it was admitted. */
class SpyLimiter implements RateLimiter {
  readonly acquired: { route: string; priority: string; api: string | undefined; at: number }[] = [];
  readonly throttled: { route: string; retryAfterMs: number | null | undefined }[] = [];
  constructor(
    readonly inner: MemoryRateLimiter,
    private readonly clock: VirtualClock,
  ) {}
  async acquire(route: string, opts: AcquireOptions): Promise<Permit> {
    const p = await this.inner.acquire(route, opts);
    this.acquired.push({ route, priority: opts.priority, api: opts.api, at: this.clock.now() });
    return p;
  }
  onThrottled(route: string, retryAfterMs?: number | null, api?: Parameters<RateLimiter['onThrottled']>[2]): void {
    this.throttled.push({ route, retryAfterMs });
    this.inner.onThrottled(route, retryAfterMs, api);
  }
  wouldWaitMs: RateLimiter['wouldWaitMs'] = (r, q) => this.inner.wouldWaitMs(r, q);
  nextFreeAt: RateLimiter['nextFreeAt'] = (r, q) => this.inner.nextFreeAt(r, q);
  queueDepth: RateLimiter['queueDepth'] = () => this.inner.queueDepth();
  utilisation: RateLimiter['utilisation'] = (r, a) => this.inner.utilisation(r, a);
  close: RateLimiter['close'] = () => this.inner.close();
}

type Answer = (req: Recorded, res: ServerResponse) => void;

interface H {
  server: TestServer;
  clock: VirtualClock;
  limiter: SpyLimiter;
  gw: HttpGateway;
  on: (key: string, a: Answer | object) => void;
}

const open: H[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.gw.close();
    await h.limiter.close();
    await h.server.close();
  }
});

async function setup(config: RateLimitConfigInput = {}, positionsPageSize?: number): Promise<H> {
  const answers = new Map<string, Answer>();
  const server = await startServer((req, res) => {
    const a = answers.get(`${req.method} ${req.path}`);
    if (a === undefined) json(res, 404, { error: `no route ${req.method} ${req.path}` });
    else a(req, res);
  });
  const clock = new VirtualClock(Date.UTC(2026, 5, 12, 18, 0, 0));
  const limiter = new SpyLimiter(new MemoryRateLimiter({ clock, config }), clock);
  const gw = new HttpGateway({
    client: {
      clobUrl: `${server.url}/clob`,
      dataUrl: `${server.url}/data`,
      dialect: DIALECTS.spec,
      credentials: CREDS,
      address: ADDRESS,
      clock,
      random: () => 0,
      backoff: { baseDelayMs: 100, maxDelayMs: 100 },
    },
    limiter,
    ...(positionsPageSize !== undefined ? { positionsPageSize } : {}),
  });
  const h: H = {
    server,
    clock,
    limiter,
    gw,
    on: (key, a) => answers.set(key, typeof a === 'function' ? (a as Answer) : (_req, res) => json(res, 200, a)),
  };
  open.push(h);
  return h;
}

/** One bucket of `limit` per second shared by every CLOB route, no margin. */
const TIGHT = (limit: number, extra: Partial<RateLimitConfigInput> = {}): RateLimitConfigInput => ({
  marginMs: 0,
  budgets: {
    replace: true,
    buckets: { general: [{ limit, windowMs: 1000 }] },
    general: { clob: 'general' },
    routes: {},
  },
  ...extra,
});

describe('HttpGateway and the limiter', () => {
  it('every call reaches the limiter with its priority and API group, once per attempt', async () => {
    const h = await setup();
    h.on('POST /clob/orders', [real.post_order_live]);
    h.on('DELETE /clob/order', real.cancel_order);
    h.on(`GET /clob/data/order/${ORDER_ID}`, orderLookup);
    h.on('GET /clob/clob-markets/0xabc', clobMarket);
    const placed = await run(h.clock, h.gw.postOrders([submission()], 'replace'));
    expect(placed).toEqual([expect.objectContaining({ accepted: true, orderId: ORDER_ID, status: 'live' })]);
    await run(h.clock, h.gw.postOrders([submission('2')], 'new'));
    const cancel = await run(h.clock, h.gw.cancelOrder(ORDER_ID));
    expect(cancel.canceled).toEqual([ORDER_ID]);
    const rec = await run(h.clock, h.gw.getOrder(ORDER_ID));
    expect(rec).toMatchObject({ id: ORDER_ID, status: 'LIVE', originalSize: 21_040_000 });
    await run(h.clock, h.gw.getMarketSettings('0xabc'));
    expect(h.limiter.acquired.map(({ route, priority, api }) => [route, priority, api])).toEqual([
      ['POST /orders', 'replace', 'clob'],
      ['POST /orders', 'new', 'clob'],
      ['DELETE /order', 'cancel', 'clob'],
      ['GET /data/order/{id}', 'read', 'clob'],
      ['GET /clob-markets/{condition_id}', 'read', 'clob'],
    ]);
    expect(h.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /clob/orders',
      'POST /clob/orders',
      'DELETE /clob/order',
      `GET /clob/data/order/${ORDER_ID}`,
      'GET /clob/clob-markets/0xabc',
    ]);
    // Signed routes carry the L2 headers.
    expect(h.server.requests[0]!.headers['svc_api_key']).toBe(CREDS.apiKey);
  });

  it('when the budget is short, a cancel goes before replacements, replacements before new quotes, reads last', async () => {
    const h = await setup(TIGHT(1));
    h.on('POST /clob/orders', [real.post_order_live]);
    h.on('DELETE /clob/order', real.cancel_order);
    h.on(`GET /clob/data/order/${ORDER_ID}`, orderLookup);
    await run(h.clock, h.gw.getOrder(ORDER_ID)); // spends the window
    const t0 = h.clock.now();
    const all = Promise.all([
      h.gw.getOrder(ORDER_ID),
      h.gw.postOrders([submission('10')], 'new'),
      h.gw.postOrders([submission('11')], 'replace'),
      h.gw.cancelOrder(ORDER_ID),
    ]);
    await run(h.clock, all);
    const order = h.server.requests
      .slice(1)
      .map((r) =>
        r.method === 'POST'
          ? `POST ${String((JSON.parse(r.body) as Array<{ order: { salt: string } }>)[0]!.order.salt)}`
          : r.method,
      );
    expect(order).toEqual(['DELETE', 'POST 11', 'POST 10', 'GET']);
    // Admission is the send time: one a second, as the window allows.
    expect(h.limiter.acquired.slice(1).map((a) => a.at - t0)).toEqual([1000, 2000, 3000, 4000]);
  });

  it('a 429 pauses the route for its Retry-After; the write is not retried and its send is not refunded', async () => {
    const h = await setup({ marginMs: 0 });
    h.on('POST /clob/orders', (_req, res) => json(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '3' }));
    const err = await run(h.clock, h.gw.postOrders([submission()], 'new')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExchangeHttpError);
    expect(err).toMatchObject({ code: 'EXCHANGE_THROTTLED', retryAfterMs: 3000, ambiguous: false });
    expect(h.server.requests).toHaveLength(1);
    expect(h.limiter.throttled).toEqual([{ route: 'POST /orders', retryAfterMs: 3000 }]);
    const u = await h.limiter.utilisation('POST /orders');
    expect(u.pausedForMs).toBe(3000);
    expect(u.windows.every((w) => w.used === 1)).toBe(true);
    expect(await h.limiter.wouldWaitMs('POST /orders', { priority: 'new' })).toBe(3000);
  });

  it('a retried read passes the gate once per attempt and holds one in-flight slot at a time', async () => {
    const h = await setup({ maxInFlight: 1 });
    let n = 0;
    h.on(`GET /clob/data/order/${ORDER_ID}`, (_req, res) => {
      n++;
      if (n === 1) json(res, 500, { error: 'internal' });
      else json(res, 200, orderLookup);
    });
    const rec = await run(h.clock, h.gw.getOrder(ORDER_ID));
    expect(rec?.id).toBe(ORDER_ID);
    expect(h.limiter.acquired.map((a) => a.route)).toEqual(['GET /data/order/{id}', 'GET /data/order/{id}']);
    expect(h.limiter.inner.inFlightCount()).toBe(0);
    // With one slot, concurrent calls take turns and all complete.
    const many = await run(
      h.clock,
      Promise.all([h.gw.getOrder(ORDER_ID), h.gw.getOrder(ORDER_ID), h.gw.getOrder(ORDER_ID)]),
    );
    expect(many.every((r) => r?.id === ORDER_ID)).toBe(true);
    expect(h.limiter.inner.inFlightCount()).toBe(0);
  });
});

describe('HttpGateway routes', () => {
  it('getOrder: 404 (and a 400 saying "not found") is null; other errors are thrown', async () => {
    const h = await setup();
    h.on('GET /clob/data/order/0x01', (_req, res) => json(res, 404, { error: 'order not found' }));
    h.on('GET /clob/data/order/0x02', (_req, res) => json(res, 400, { error: 'Order not found' }));
    h.on('GET /clob/data/order/0x03', (_req, res) => json(res, 401, { error: 'Unauthorized/Invalid api key' }));
    expect(await run(h.clock, h.gw.getOrder('0x01'))).toBeNull();
    expect(await run(h.clock, h.gw.getOrder('0x02'))).toBeNull();
    const e = await run(h.clock, h.gw.getOrder('0x03')).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ code: 'EXCHANGE_UNAUTHORIZED' });
    expect(isNotFound(e)).toBe(false);
  });

  it('getPositions walks every page with sizeThreshold 0', async () => {
    const h = await setup({}, 2);
    h.on('GET /data/positions', (req, res) => {
      const offset = Number(req.query.get('offset'));
      json(res, 200, offset < 4 ? [position, position] : [position]);
    });
    const all = await run(h.clock, h.gw.getPositions(ADDRESS));
    expect(all).toHaveLength(5);
    expect(
      h.server.requests.map((r) => [r.query.get('offset'), r.query.get('limit'), r.query.get('sizeThreshold')]),
    ).toEqual([
      ['0', '2', '0'],
      ['2', '2', '0'],
      ['4', '2', '0'],
    ]);
    expect(h.limiter.acquired.map((a) => [a.route, a.api])).toEqual(
      Array.from({ length: 3 }, () => ['GET /positions', 'data']),
    );
  });

  it('samplingMarkets follows the cursor through every page, each page through the gate', async () => {
    const h = await setup();
    h.on('GET /clob/sampling-markets', (req, res) => {
      json(res, 200, samplingPageFromReal(req.query.get('next_cursor') === 'MTAw' ? 'LTE=' : 'MTAw'));
    });
    const got = await run(
      h.clock,
      (async () => {
        let n = 0;
        for await (const _m of h.gw.samplingMarkets()) n++;
        return n;
      })(),
    );
    expect(got).toBeGreaterThan(100);
    expect(h.server.requests).toHaveLength(2);
    expect(h.limiter.acquired.map((a) => [a.route, a.priority])).toEqual([
      ['GET /sampling-markets', 'read'],
      ['GET /sampling-markets', 'read'],
    ]);
  });

  it('empty batches send nothing; close() closes the client', async () => {
    const h = await setup();
    expect(await h.gw.getBooks([])).toEqual([]);
    expect((await h.gw.getMidpoints([])).size).toBe(0);
    expect(h.server.requests).toHaveLength(0);
    await h.gw.close();
    const e = await run(h.clock, h.gw.getOrder(ORDER_ID)).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ code: 'EXCHANGE_CLOSED' });
  });

  it('requests made outside a gateway call get a priority from their route', () => {
    expect(defaultPriority('DELETE /order')).toBe('cancel');
    expect(defaultPriority('POST /orders')).toBe('new');
    expect(defaultPriority('POST /order')).toBe('new');
    expect(defaultPriority('GET /book')).toBe('read');
    expect(defaultPriority('POST /books')).toBe('read');
  });
});

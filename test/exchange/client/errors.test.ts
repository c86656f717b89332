// Error answers of interface §7 through the client's routes: the `{error}` and `{type, error}`
// shapes with their statuses, the portfolio and leaderboard conditions, HTML error pages,
// malformed 2xx answers (EXCHANGE_BAD_RESPONSE naming the route and field), timeouts, refused
// connections, the caller's AbortSignal and timeout, and the rate-limiter hooks.
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { ExchangeError } from '../../../src/exchange/errors.js';
import { ExchangeClient } from '../../../src/exchange/client/index.js';
import { closedPort, failure, json, run } from '../http/test-server.js';
import { setup, type Harness } from './harness.js';
import * as P from './payloads.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

async function errorOf(p: Promise<unknown>): Promise<ExchangeError> {
  const e = await failure(h.clock, p);
  expect(e).toBeInstanceOf(ExchangeError);
  return e as ExchangeError;
}

describe('interface §7 conditions', () => {
  it('portfolio: missing_field, unknown_field, ip_not_allowlisted, internal_error', async () => {
    h = await setup({ backoff: { maxAttempts: 1 } });
    const answers: Array<[number, string, string, string | null]> = [
      [400, 'missing_field: user', 'missing_field', 'user'],
      [400, 'unknown_field: foo', 'unknown_field', 'foo'],
      [401, 'unauthorized: ip_not_allowlisted', 'unauthorized', 'ip_not_allowlisted'],
      [500, 'internal_error: storage unavailable', 'internal_error', 'storage unavailable'],
    ];
    for (const [status, error, reason, detail] of answers) {
      h.on('GET /data/positions', (_req, res) => json(res, status, { error }));
      const e = await errorOf(h.client.getPositions({ user: P.USER }));
      expect([e.status, e.reason, e.detail, e.exchangeMessage, e.errorType]).toEqual([
        status,
        reason,
        detail,
        error,
        null,
      ]);
      expect(e.route).toBe('GET /positions');
    }
  });

  it('leaderboard internal_error without detail', async () => {
    h = await setup({ backoff: { maxAttempts: 1 } });
    h.on('GET /data/v1/leaderboard', (_req, res) => json(res, 500, { error: 'internal_error' }));
    const e = await errorOf(h.client.getLeaderboard());
    expect([e.code, e.reason, e.detail]).toEqual(['EXCHANGE_INTERNAL', 'internal_error', null]);
  });

  it('catalog: {type: "bad request"} 400 and {type: "not found error"} 404 keep their type', async () => {
    h = await setup();
    h.on('GET /gamma/events', (_req, res) => json(res, 400, { type: 'bad request', error: 'invalid order column' }));
    h.on('GET /gamma/events/slug/nope', (_req, res) =>
      json(res, 404, { type: 'not found error', error: 'event slug nope not found' }),
    );
    h.on('GET /gamma/comments/9', (_req, res) =>
      json(res, 404, { type: 'not found error', error: 'comment id 9 not found' }),
    );
    h.on('GET /gamma/markets/9/tags', (_req, res) =>
      json(res, 404, { type: 'not found error', error: 'market id 9 not found' }),
    );
    const bad = await errorOf(h.client.getEvents({ order: 'nonsense' }));
    expect([bad.code, bad.errorType, bad.exchangeMessage]).toEqual([
      'EXCHANGE_BAD_REQUEST',
      'bad request',
      'invalid order column',
    ]);
    for (const call of [
      () => h.client.getEventBySlug('nope'),
      () => h.client.getCommentReplies('9'),
      () => h.client.getMarketTags('9'),
    ]) {
      const e = await errorOf(call());
      expect([e.code, e.errorType, e.retryable]).toEqual(['EXCHANGE_NOT_FOUND', 'not found error', false]);
    }
    expect(h.server.requests).toHaveLength(4); // not retried
  });

  it('order lookup 404 with the {error} shape', async () => {
    h = await setup();
    h.on(`GET /clob/data/order/${P.ORDER_ID}`, (_req, res) => json(res, 404, { error: 'order not found' }));
    const e = await errorOf(h.client.getOrder(P.ORDER_ID));
    expect([e.code, e.errorType, e.exchangeMessage]).toEqual(['EXCHANGE_NOT_FOUND', null, 'order not found']);
  });

  it('market data 400 Payload exceeds the limit', async () => {
    h = await setup();
    h.on('POST /clob/books', (_req, res) => json(res, 400, { error: 'Payload exceeds the limit' }));
    const e = await errorOf(h.client.getBooks(['1']));
    expect([e.code, e.exchangeMessage, e.route]).toEqual([
      'EXCHANGE_BAD_REQUEST',
      'Payload exceeds the limit',
      'POST /books',
    ]);
  });
});

describe('statuses on a read: retried when retryable, then surfaced', () => {
  for (const [status, code] of [
    [425, 'EXCHANGE_RESTARTING'],
    [429, 'EXCHANGE_THROTTLED'],
    [500, 'EXCHANGE_INTERNAL'],
    [503, 'EXCHANGE_UNAVAILABLE'],
  ] as const) {
    it(`${status} → ${code} after ${3} attempts`, async () => {
      h = await setup({ backoff: { maxAttempts: 3 } });
      h.on('GET /clob/book', (_req, res) =>
        json(res, status, { error: 'e' }, status === 429 ? { 'retry-after': '2' } : {}),
      );
      const start = h.clock.now();
      const e = await errorOf(h.client.getBook(P.TOKEN));
      expect(e.code).toBe(code);
      expect(h.server.requests).toHaveLength(3);
      if (status === 429) {
        expect(e.retryAfterMs).toBe(2000);
        expect(h.clock.now() - start).toBe(4000);
      }
    });
  }
});

describe('malformed answers', () => {
  it('an HTML page with status 200 on a read is EXCHANGE_BAD_RESPONSE with a short snippet', async () => {
    h = await setup();
    h.on('GET /clob/book', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><title>Just a moment...</title>${'x'.repeat(50_000)}</html>`);
    });
    const e = await errorOf(h.client.getBook(P.TOKEN));
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.exchangeMessage).toBe('Just a moment...');
    expect(e.message.length).toBeLessThan(300);
  });

  it('an HTML 502 from a proxy on a read is retried, then EXCHANGE_BAD_GATEWAY', async () => {
    h = await setup({ backoff: { maxAttempts: 2 } });
    h.on('GET /data/positions', (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    });
    const e = await errorOf(h.client.getPositions({ user: P.USER }));
    expect([e.code, e.exchangeMessage, e.status]).toEqual(['EXCHANGE_BAD_GATEWAY', '502 Bad Gateway', 502]);
    expect(h.server.requests).toHaveLength(2);
  });

  it('a JSON answer of the wrong shape names the route and the field path', async () => {
    h = await setup();
    h.on('GET /clob/book', { ...P.bookReal, bids: [{ price: '0.5e0', size: '1' }] });
    const e = await errorOf(h.client.getBook(P.TOKEN));
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.message).toMatch(/^GET \/book: bids\[0\]\.price/);
    expect(e.ambiguous).toBe(false);
    expect(h.server.requests).toHaveLength(1);
  });

  it('an unhealthy GET / answer is an error', async () => {
    h = await setup();
    h.on('GET /clob/', (_req, res) => {
      res.writeHead(200);
      res.end('DEGRADED');
    });
    expect((await errorOf(h.client.healthCheck())).code).toBe('EXCHANGE_BAD_RESPONSE');
    h.on('GET /clob/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });
    expect(await run(h.clock, h.client.healthCheck())).toBe('OK');
  });

  it('a tick size outside the ticks in use is refused', async () => {
    h = await setup();
    h.on('GET /clob/tick-size', { minimum_tick_size: 0.03 });
    expect((await errorOf(h.client.getTickSize('1'))).code).toBe('EXCHANGE_BAD_RESPONSE');
  });
});

describe('no response', () => {
  it('connection refused on every API, not ambiguous, after the read retries', async () => {
    h = await setup();
    const url = await closedPort();
    const c = new ExchangeClient({
      clobUrl: url,
      dialect: DIALECTS.spec,
      clock: h.clock,
      credentials: P.CREDS,
      address: P.ADDRESS,
      random: () => 0,
      backoff: { maxAttempts: 2 },
    });
    for (const call of [
      () => c.getBook('1'),
      () => c.getPositions({ user: P.USER }),
      () => c.getTags(),
      () => c.postOrder(P.submission()),
    ]) {
      const e = await errorOf(call());
      expect([e.code, e.ambiguous, e.status]).toEqual(['EXCHANGE_NETWORK', false, null]);
    }
    await c.close();
  });

  it('a per-call timeout on a write is EXCHANGE_TIMEOUT, ambiguous, sent once', async () => {
    h = await setup();
    h.on('POST /clob/order', () => {
      /* never answers */
    });
    const e = await errorOf(h.client.postOrder(P.submission(), { timeoutMs: 80 }));
    expect([e.code, e.ambiguous]).toEqual(['EXCHANGE_TIMEOUT', true]);
    expect(h.server.requests).toHaveLength(1);
  });

  it("the caller's AbortSignal reaches the request", async () => {
    h = await setup();
    h.on('GET /data/positions', () => {
      /* hangs */
    });
    const ac = new AbortController();
    const p = h.client.getPositions({ user: P.USER }, { signal: ac.signal });
    while (h.server.requests.length === 0) await new Promise<void>((r) => setImmediate(r));
    ac.abort();
    expect((await errorOf(p)).code).toBe('EXCHANGE_ABORTED');
  });
});

describe('rate-limiter hooks through the client', () => {
  it('beforeSend sees every route key, POST /orders as its own key, in send order', async () => {
    const seen: string[] = [];
    h = await setup({
      beforeSend: async (route) => {
        seen.push(route);
      },
    });
    h.on('POST /clob/orders', [P.placementLive]);
    h.on('POST /clob/order', P.placementLive);
    h.on('DELETE /clob/order', P.cancelReal);
    h.on('POST /clob/books', (req, res) =>
      json(
        res,
        200,
        (JSON.parse(req.body) as Array<{ token_id: string }>).map((t) => P.bookFor(t.token_id)),
      ),
    );
    h.on(`GET /clob/data/order/${P.ORDER_ID}`, P.orderLookup);
    h.on('GET /gamma/events/slug/x', P.eventFull);
    await run(h.clock, h.client.postOrders([P.submission()]));
    await run(h.clock, h.client.postOrder(P.submission()));
    await run(h.clock, h.client.cancelOrder(P.ORDER_ID));
    await run(h.clock, h.client.getBooks(Array.from({ length: 600 }, (_, i) => String(i))));
    await run(h.clock, h.client.getOrder(P.ORDER_ID));
    await run(h.clock, h.client.getEventBySlug('x'));
    expect(seen).toEqual([
      'POST /orders',
      'POST /order',
      'DELETE /order',
      'POST /books',
      'POST /books',
      'GET /data/order/{id}',
      'GET /events/slug/{slug}',
    ]);
  });

  it('onThrottled hears every 429 with its Retry-After', async () => {
    const throttled: Array<[string, number | null]> = [];
    h = await setup({ onThrottled: (route, ms) => throttled.push([route, ms]), backoff: { maxAttempts: 2 } });
    h.on('POST /clob/order', (_req, res) => json(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '5' }));
    h.on('GET /clob/midpoint', (_req, res) => json(res, 429, { error: 'Too Many Requests' }));
    await errorOf(h.client.postOrder(P.submission()));
    await errorOf(h.client.getMidpoint('1'));
    expect(throttled).toEqual([
      ['POST /order', 5000],
      ['GET /midpoint', null],
      ['GET /midpoint', null],
    ]);
  });

  it('a shared transport is not closed by the client', async () => {
    h = await setup();
    const c2 = new ExchangeClient({
      clobUrl: `${h.server.url}/clob`,
      dialect: DIALECTS.spec,
      clock: h.clock,
      transport: h.client.transport,
    });
    await c2.close();
    h.on('GET /clob/book', P.bookReal);
    await run(h.clock, h.client.getBook('1'));
    expect(h.server.requests).toHaveLength(1);
  });
});

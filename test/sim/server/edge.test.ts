// The edge of the simulator: table-8 throttling (429 + Retry-After, per API key for trading writes,
// per client address otherwise), fault injection as a client sees it (500/503/425, HTML bodies,
// delays; retried reads succeed), and hostile requests (bad bodies, oversized bodies, unknown
// routes), which always get the interface's JSON error shapes, never a framework page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttpError } from '../../../src/exchange/errors.js';
import { scaleBudgets, TABLE8 } from '../../../src/ratelimit/index.js';
import {
  clientFor,
  openMarket,
  px,
  raw,
  secondAccount,
  settle,
  startTestSim,
  submission,
  type TestSim,
} from './helpers.js';

async function caught(p: Promise<unknown>): Promise<ExchangeHttpError> {
  const e = await p.catch((x: unknown) => x);
  if (!(e instanceof ExchangeHttpError)) throw new Error(`expected an ExchangeHttpError, got ${String(e)}`);
  return e;
}

describe('edge throttling (table 8, scaled down to 0.1%)', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim({ limits: 'on', budgets: scaleBudgets(TABLE8, 0.001) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 {"error": "Too Many Requests"} with Retry-After once a route\'s window is full', async () => {
    const token = openMarket(t.sim).tokenIds[0];
    expect((await raw(t.sim, 'GET', `/book?token_id=${token}`)).status).toBe(200); // GET /book: 1 per 10 s
    const r = await raw(t.sim, 'GET', `/book?token_id=${token}`);
    expect(r.status).toBe(429);
    expect(r.json).toEqual({ error: 'Too Many Requests' });
    expect(r.headers.get('retry-after')).toBe('10');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const c = clientFor(t.sim, t.clock, { backoff: { maxAttempts: 1 } });
    const e = await caught(c.getBook(token));
    expect(e.code).toBe('EXCHANGE_THROTTLED');
    expect(e.retryAfterMs).toBe(10_000);
    await c.close();
    t.clock.advance(10_000);
    expect((await raw(t.sim, 'GET', `/book?token_id=${token}`)).status).toBe(200);
    // A throttled request is not counted: the window holds only the admitted one.
    t.clock.advance(10_000);
    expect((await raw(t.sim, 'GET', `/book?token_id=${token}`)).status).toBe(200);
  });

  it('counts trading writes per API key, in both windows, POST /orders as one POST /order', async () => {
    const b = await secondAccount(t, '0x' + 'b7'.repeat(32));
    t.clock.advance(10_000);
    const m = openMarket(t.sim, 2);
    const mk = (): ReturnType<typeof submission> =>
      submission(t, { market: m, price: 10 * m.state.tick, size: px(20) });
    expect((await t.client.postOrder(mk())).accepted).toBe(true); // POST /order: 2 per 10 s, 24 per 10 min
    expect((await t.client.postOrders([mk(), mk()])).every((x) => x.accepted)).toBe(true);
    const e = await caught(t.client.postOrder(mk()));
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(10_000);
    // Another key has its own budget, from the same address.
    const other = await b.client.postOrder(
      submission({ ...t, signer: b.signer }, { market: m, price: 10 * m.state.tick, size: px(20) }, b.creds.apiKey),
    );
    expect(other.accepted).toBe(true);
    // The 10-minute window: 24 sends, 2 every 10 s.
    let sent = 2;
    while (sent < 24) {
      t.clock.advance(10_000);
      await t.client.postOrder(mk());
      await t.client.postOrder(mk());
      sent += 2;
    }
    t.clock.advance(10_000);
    const long = await caught(t.client.postOrder(mk()));
    expect(long.status).toBe(429);
    expect(long.retryAfterMs).toBeGreaterThan(10_000);
    await b.client.close();
  });

  it('never throttles the /_sim/ routes', async () => {
    for (let i = 0; i < 30; i++) expect((await raw(t.sim, 'GET', '/_sim/state')).status).toBe(200);
  });
});

describe('fault injection', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim({ faults: { error503: 1 } });
  });
  afterAll(async () => {
    await t.close();
  });
  const setFaults = async (f: object): Promise<void> => {
    const r = await raw(t.sim, 'POST', '/_sim/faults', { body: JSON.stringify(f) });
    expect(r.status).toBe(200);
  };

  it('answers 503, 500 and 425 in the {error} shape, and HTML pages, for the chosen fraction', async () => {
    const token = openMarket(t.sim).tokenIds[0];
    const r503 = await raw(t.sim, 'GET', `/book?token_id=${token}`);
    expect(r503.status).toBe(503);
    expect(typeof (r503.json as { error: string }).error).toBe('string');
    expect((await raw(t.sim, 'GET', '/_sim/state')).status).toBe(200);
    await setFaults({ error500: 1 });
    expect((await raw(t.sim, 'GET', '/tags')).status).toBe(500);
    await setFaults({ error425: 1 });
    const c = clientFor(t.sim, t.clock, { backoff: { maxAttempts: 1 } });
    expect((await caught(c.getBook(token))).code).toBe('EXCHANGE_RESTARTING');
    await setFaults({ html: 1 });
    const h = await raw(t.sim, 'GET', `/book?token_id=${token}`);
    expect(h.status).toBe(503);
    expect(h.headers.get('content-type')).toMatch(/^text\/html/);
    expect(h.text).toMatch(/^<!DOCTYPE html>/);
    const e = await caught(c.getBook(token));
    expect(e.code).toBe('EXCHANGE_UNAVAILABLE');
    expect(e.exchangeMessage).toBe('503 Service Temporarily Unavailable');
    await c.close();
  });

  it("lets a client's retries of reads get through a 50% fault rate; writes are never retried", async () => {
    await setFaults({ error503: 0.25, error500: 0.25 });
    const c = clientFor(t.sim, t.clock, { backoff: { maxAttempts: 12, baseDelayMs: 100 } });
    const token = openMarket(t.sim).tokenIds[0];
    for (let i = 0; i < 12; i++) {
      const book = await settle(t.clock, c.getBook(token));
      expect(book.assetId).toBe(token);
    }
    const state = (await raw(t.sim, 'GET', '/_sim/state')).json as { faultCounts: Record<string, number> };
    expect((state.faultCounts['503'] ?? 0) + (state.faultCounts['500'] ?? 0)).toBeGreaterThan(0);
    await setFaults({ error500: 1 });
    const m = openMarket(t.sim, 1);
    const e = await caught(c.postOrder(submission(t, { market: m, price: 10 * m.state.tick, size: px(20) })));
    expect(e).toMatchObject({ status: 500, ambiguous: true });
    await c.close();
  });

  it('delays requests on the injected clock', async () => {
    await setFaults({ delay: 1, delayMs: 5_000 });
    const start = t.clock.now();
    let done = false;
    const p = raw(t.sim, 'GET', '/version').then((r) => {
      done = true;
      return r;
    });
    for (let i = 0; i < 20; i++) await new Promise<void>((res) => setImmediate(res));
    expect(done).toBe(false);
    const r = await settle(t.clock, p, 500);
    expect(r.status).toBe(200);
    expect(t.clock.now() - start).toBeGreaterThanOrEqual(5_000);
    await setFaults({});
  });

  it('validates fault settings', async () => {
    expect(
      await raw(t.sim, 'POST', '/_sim/faults', { body: JSON.stringify({ error503: 0.7, html: 0.7 }) }),
    ).toMatchObject({ status: 400 });
    expect(await raw(t.sim, 'POST', '/_sim/faults', { body: JSON.stringify({ error502: 0.1 }) })).toMatchObject({
      status: 400,
    });
    expect(await raw(t.sim, 'POST', '/_sim/faults', { body: JSON.stringify({ delay: 'often' }) })).toMatchObject({
      status: 400,
    });
  });
});

describe('hostile and malformed requests', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers unknown routes and methods with JSON 404s, in the catalog shape on catalog paths', async () => {
    const r = await raw(t.sim, 'GET', '/nope');
    expect(r).toMatchObject({ status: 404, json: { error: 'not found: GET /nope' } });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await raw(t.sim, 'PUT', '/order', { body: '{}' })).toMatchObject({
      status: 404,
      json: { error: 'not found: PUT /order' },
    });
    expect(await raw(t.sim, 'GET', '/events/x/y/z')).toMatchObject({ status: 404, json: { type: 'not found error' } });
  });

  it('refuses an oversized body with a JSON 400', async () => {
    const big = '[' + Array.from({ length: 60_000 }, () => '{"token_id":"123456789"}').join(',') + ']';
    const r = await raw(t.sim, 'POST', '/books', { body: big });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'request body exceeds 1048576 bytes' });
  });

  it("reads JSON whatever the content type says, and wrong JSON types get the route's error", async () => {
    const token = openMarket(t.sim).tokenIds[0];
    const r = await raw(t.sim, 'POST', '/midpoints', {
      body: JSON.stringify([{ token_id: token }]),
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(200);
    expect(await raw(t.sim, 'POST', '/books', { body: JSON.stringify([{ token_id: 5 }]) })).toMatchObject({
      status: 400,
      json: { error: 'Invalid payload' },
    });
    expect(await raw(t.sim, 'POST', '/batch-prices-history', { body: 'nope' })).toMatchObject({
      status: 400,
      json: { error: 'Invalid payload' },
    });
    expect(await raw(t.sim, 'POST', '/batch-prices-history', { body: '{"markets":"x"}' })).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: markets' },
    });
    expect(await raw(t.sim, 'GET', '/book?token_id=1&token_id=2')).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: token_id' },
    });
  });

  it('answers unexpected failures 500 with the §7 texts: `internal_error: <detail>` (portfolio), `internal_error`', async () => {
    const book = t.sim.venue.positions as unknown as { current: (user: string) => unknown };
    const world = t.sim.venue.world as unknown as { leaderboardFigures: () => unknown };
    const keepCurrent = book.current;
    const keepFigures = world.leaderboardFigures;
    book.current = () => {
      throw new Error('position store unavailable');
    };
    world.leaderboardFigures = () => {
      throw new Error('ranking failed');
    };
    try {
      expect(await raw(t.sim, 'GET', `/positions?user=${t.sim.account.address}`)).toMatchObject({
        status: 500,
        json: { error: 'internal_error: position store unavailable' },
      });
      expect(await raw(t.sim, 'GET', '/v1/leaderboard')).toMatchObject({
        status: 500,
        json: { error: 'internal_error' },
      });
    } finally {
      book.current = keepCurrent;
      world.leaderboardFigures = keepFigures;
    }
    expect((await raw(t.sim, 'GET', `/positions?user=${t.sim.account.address}`)).status).toBe(200);
  });
});

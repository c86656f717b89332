// HttpTransport against a real socket on 127.0.0.1: exact bytes sent, keep-alive, every error
// shape and status of docs/protocol.md §4 and interface §7, timeouts, refused and reset connections,
// retries of idempotent requests only (counted on the server), backoff on the VirtualClock,
// Retry-After, the rate-limiter hooks, AbortSignal and close().
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { ExchangeError, ExchangeHttpError, ExchangeTransportError } from '../../../src/exchange/errors.js';
import { HttpTransport, type TransportOptions, type TransportRequest } from '../../../src/exchange/http/transport.js';
import { closedPort, drive, failure, json, run, startServer, type TestServer } from './test-server.js';

let server: TestServer;
let clock: VirtualClock;
let transport: HttpTransport;

function make(opts: Partial<TransportOptions> = {}): HttpTransport {
  transport = new HttpTransport({ clock, random: () => 0, ...opts });
  return transport;
}

function get(path = '/book', extra: Partial<TransportRequest> = {}): TransportRequest {
  return { origin: server.url, method: 'GET', path, route: `GET ${path}`, idempotent: true, ...extra };
}

function post(path = '/order', body = '{}', extra: Partial<TransportRequest> = {}): TransportRequest {
  return { origin: server.url, method: 'POST', path, body, route: `POST ${path}`, idempotent: false, ...extra };
}

beforeEach(async () => {
  clock = new VirtualClock(Date.UTC(2026, 5, 1));
  server = await startServer((_req, res) => json(res, 200, { ok: true }));
});

afterEach(async () => {
  await transport?.close();
  await server.close();
});

describe('sending', () => {
  it('sends the exact body string, method, path, query and headers', async () => {
    make();
    const body = '{"b":1,  "a":"x"}'; // odd spacing: must arrive byte for byte
    await run(clock, make().request(post('/order', body, { query: 'x=1&y=%20', headers: { SVC_API_KEY: 'k' } })));
    const r = server.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/order');
    expect(r.rawQuery).toBe('x=1&y=%20');
    expect(r.body).toBe(body);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['svc_api_key']).toBe('k');
  });

  it('sends no content-type and no body on a GET', async () => {
    await run(clock, make().request(get()));
    expect(server.requests[0]!.headers['content-type']).toBeUndefined();
    expect(server.requests[0]!.body).toBe('');
  });

  it('decodes JSON and reports the attempt count', async () => {
    const t = make();
    expect(await run(clock, t.requestJson(get()))).toEqual({ ok: true });
    const res = await run(clock, t.request(get()));
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(1);
  });

  it('keeps connections alive: sequential requests reuse their sockets', async () => {
    const t = make({ connections: 8 });
    for (let i = 0; i < 20; i++) await run(clock, t.request(get()));
    expect(server.requests).toHaveLength(20);
    // undici may open a second socket when the next request is dispatched in the same turn the
    // first response completes, before that socket is released; never one per request.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('never opens more sockets than `connections`', async () => {
    const pending: Array<() => void> = [];
    server.setHandler((_req, res) => {
      pending.push(() => json(res, 200, {}));
    });
    const t = make({ connections: 2 });
    const all = Promise.all(Array.from({ length: 6 }, () => t.request(get())));
    while (server.requests.length < 2) await new Promise<void>((r) => setImmediate(r));
    expect(server.connections()).toBe(2);
    // Answer as requests arrive until all six are done.
    const done = drive(clock, all);
    for (let answered = 0; answered < 6;) {
      const next = pending.shift();
      if (next !== undefined) {
        next();
        answered++;
      } else await new Promise<void>((r) => setImmediate(r));
    }
    expect((await done).status).toBe('fulfilled');
    expect(server.connections()).toBe(2);
  });
});

interface Case {
  name: string;
  status: number;
  body: string;
  headers?: Record<string, string>;
  code: string;
  retryable: boolean;
  ambiguous: boolean;
  message: string | null;
  errorType?: string | null;
  retryAfterMs?: number | null;
}

const CASES: Case[] = [
  {
    name: '400 {error}',
    status: 400,
    body: '{"error":"Invalid order payload"}',
    code: 'EXCHANGE_BAD_REQUEST',
    retryable: false,
    ambiguous: false,
    message: 'Invalid order payload',
  },
  {
    name: '400 catalog {type,error}',
    status: 400,
    body: '{"type":"bad request","error":"invalid limit"}',
    code: 'EXCHANGE_BAD_REQUEST',
    retryable: false,
    ambiguous: false,
    message: 'invalid limit',
    errorType: 'bad request',
  },
  {
    name: '401',
    status: 401,
    body: '{"error":"Unauthorized/Invalid api key"}',
    code: 'EXCHANGE_UNAUTHORIZED',
    retryable: false,
    ambiguous: false,
    message: 'Unauthorized/Invalid api key',
  },
  {
    name: '403',
    status: 403,
    body: '{"error":"unauthorized: ip_not_allowlisted"}',
    code: 'EXCHANGE_FORBIDDEN',
    retryable: false,
    ambiguous: false,
    message: 'unauthorized: ip_not_allowlisted',
  },
  {
    name: '404 {error}',
    status: 404,
    body: '{"error":"order not found"}',
    code: 'EXCHANGE_NOT_FOUND',
    retryable: false,
    ambiguous: false,
    message: 'order not found',
    errorType: null,
  },
  {
    name: '404 {type,error}',
    status: 404,
    body: '{"type":"not found error","error":"event slug nope not found"}',
    code: 'EXCHANGE_NOT_FOUND',
    retryable: false,
    ambiguous: false,
    message: 'event slug nope not found',
    errorType: 'not found error',
  },
  {
    name: '425',
    status: 425,
    body: '{"error":"matching engine restarting"}',
    code: 'EXCHANGE_RESTARTING',
    retryable: true,
    ambiguous: false,
    message: 'matching engine restarting',
  },
  {
    name: '429 Retry-After seconds',
    status: 429,
    body: '{"error":"Too Many Requests"}',
    headers: { 'retry-after': '7' },
    code: 'EXCHANGE_THROTTLED',
    retryable: true,
    ambiguous: false,
    message: 'Too Many Requests',
    retryAfterMs: 7000,
  },
  {
    name: '429 Retry-After HTTP date',
    status: 429,
    body: '{"error":"Too Many Requests"}',
    headers: { 'retry-after': new Date(Date.UTC(2026, 5, 1) + 12_000).toUTCString() },
    code: 'EXCHANGE_THROTTLED',
    retryable: true,
    ambiguous: false,
    message: 'Too Many Requests',
    retryAfterMs: 12_000,
  },
  {
    name: '429 without Retry-After',
    status: 429,
    body: '{"error":"Too Many Requests"}',
    code: 'EXCHANGE_THROTTLED',
    retryable: true,
    ambiguous: false,
    message: 'Too Many Requests',
    retryAfterMs: null,
  },
  {
    name: '500',
    status: 500,
    body: '{"error":"internal_error: db down"}',
    code: 'EXCHANGE_INTERNAL',
    retryable: true,
    ambiguous: true,
    message: 'internal_error: db down',
  },
  {
    name: '502 HTML',
    status: 502,
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>',
    code: 'EXCHANGE_BAD_GATEWAY',
    retryable: true,
    ambiguous: true,
    message: '502 Bad Gateway',
  },
  {
    name: '503',
    status: 503,
    body: '{"error":"trading paused: cancel-only"}',
    code: 'EXCHANGE_UNAVAILABLE',
    retryable: true,
    ambiguous: false,
    message: 'trading paused: cancel-only',
  },
  {
    name: '503 empty body',
    status: 503,
    body: '',
    code: 'EXCHANGE_UNAVAILABLE',
    retryable: true,
    ambiguous: false,
    message: null,
  },
  {
    name: '418 plain text',
    status: 418,
    body: "I'm a teapot",
    code: 'EXCHANGE_HTTP_ERROR',
    retryable: false,
    ambiguous: false,
    message: "I'm a teapot",
  },
];

describe('error decoding', () => {
  for (const c of CASES) {
    it(`maps ${c.name}`, async () => {
      server.setHandler((_req, res) => {
        res.writeHead(c.status, {
          'content-type': c.body.startsWith('<') ? 'text/html' : 'application/json',
          ...c.headers,
        });
        res.end(c.body);
      });
      const e = await failure(clock, make().request(post()));
      expect(e).toBeInstanceOf(ExchangeHttpError);
      const err = e as ExchangeHttpError;
      expect(err.code).toBe(c.code);
      expect(err.status).toBe(c.status);
      expect(err.retryable).toBe(c.retryable);
      expect(err.ambiguous).toBe(c.ambiguous);
      expect(err.exchangeMessage).toBe(c.message);
      expect(err.errorType).toBe(c.errorType ?? null);
      expect(err.retryAfterMs).toBe(c.retryAfterMs ?? null);
      expect(err.route).toBe('POST /order');
      expect(err.message).toContain('POST /order');
      expect(err.message).toContain(String(c.status));
      expect(server.requests).toHaveLength(1); // a write is never retried
    });
  }

  it('splits `reason: detail` error texts of interface §7', async () => {
    server.setHandler((_req, res) => json(res, 400, { error: 'missing_field: user' }));
    const err = (await failure(clock, make().request(post()))) as ExchangeError;
    expect(err.reason).toBe('missing_field');
    expect(err.detail).toBe('user');
  });

  it('keeps only a short snippet of a huge HTML page', async () => {
    const page = `<!DOCTYPE html><html><body><div>${'Cloudflare error page '.repeat(5000)}</div></body></html>`;
    server.setHandler((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end(page);
    });
    const err = (await failure(clock, make().request(post()))) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_UNAVAILABLE');
    expect(err.exchangeMessage!.length).toBeLessThanOrEqual(200);
    expect(err.exchangeMessage).toMatch(/^Cloudflare error page/);
    expect(err.message.length).toBeLessThan(300);
    expect(err.message).not.toContain('<');
  });

  it('a 2xx body that is not JSON is EXCHANGE_BAD_RESPONSE, ambiguous for a write', async () => {
    server.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const w = (await failure(clock, make().requestJson(post()))) as ExchangeError;
    expect(w.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(w.ambiguous).toBe(true);
    const r = (await failure(clock, transport.requestJson(get()))) as ExchangeError;
    expect(r.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(r.ambiguous).toBe(false);
  });

  it('never puts request headers or bodies in the message', async () => {
    server.setHandler((_req, res) => json(res, 401, { error: 'Unauthorized/Invalid api key' }));
    const secret = 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=';
    const err = (await failure(
      clock,
      make().request(post('/order', `{"secret":"${secret}"}`, { headers: { SVC_PASSPHRASE: secret } })),
    )) as Error;
    expect(err.message).not.toContain(secret);
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain(secret);
  });
});

describe('failures without a response', () => {
  it('headers timeout: EXCHANGE_TIMEOUT, ambiguous', async () => {
    server.setHandler(() => {
      /* never answers */
    });
    const err = (await failure(clock, make({ headersTimeoutMs: 100 }).request(post()))) as ExchangeError;
    expect(err).toBeInstanceOf(ExchangeTransportError);
    expect(err.code).toBe('EXCHANGE_TIMEOUT');
    expect(err.ambiguous).toBe(true);
    expect(err.retryable).toBe(true);
    expect(err.status).toBeNull();
    expect(server.requests).toHaveLength(1);
  });

  it('per-request timeoutMs overrides the default', async () => {
    server.setHandler(() => {
      /* never answers */
    });
    const err = (await failure(
      clock,
      make({ headersTimeoutMs: 60_000 }).request(post('/order', '{}', { timeoutMs: 80 })),
    )) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_TIMEOUT');
  });

  it('connection refused: EXCHANGE_NETWORK, not ambiguous', async () => {
    const url = await closedPort();
    const err = (await failure(clock, make().request({ ...post(), origin: url }))) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_NETWORK');
    expect(err.ambiguous).toBe(false);
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('connection reset mid-request: EXCHANGE_NETWORK, ambiguous', async () => {
    server.setHandler((_req, res) => {
      res.socket?.destroy();
    });
    const err = (await failure(clock, make().request(post()))) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_NETWORK');
    expect(err.ambiguous).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  function failTimes(n: number, status: number, headers: Record<string, string> = {}): void {
    let seen = 0;
    server.setHandler((_req, res) => {
      seen++;
      if (seen <= n) json(res, status, { error: `fail ${seen}` }, headers);
      else json(res, 200, { ok: seen });
    });
  }

  it('retries an idempotent read on 503 until it succeeds, waiting on the clock', async () => {
    failTimes(2, 503);
    const t = make({ random: () => 0.5, backoff: { baseDelayMs: 100, maxDelayMs: 10_000, maxAttempts: 4 } });
    const start = clock.now();
    const res = await run(clock, t.request(get()));
    expect(res.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    // Full jitter at r = 0.5: 50 ms then 100 ms of virtual time.
    expect(clock.now() - start).toBe(150);
  });

  it('retries on 425, 429, 500, 502, 504, timeouts and resets', async () => {
    for (const status of [425, 429, 500, 502, 504]) {
      server.requests.length = 0;
      failTimes(1, status);
      const res = await run(clock, make().request(get()));
      expect(res.attempts, String(status)).toBe(2);
      await transport.close();
    }
    let n = 0;
    server.setHandler((_req, res) => {
      n++;
      if (n === 1) res.socket?.destroy();
      else json(res, 200, {});
    });
    expect((await run(clock, make().request(get()))).attempts).toBe(2);
  });

  it('never retries a write, whatever the error', async () => {
    for (const status of [425, 429, 500, 503]) {
      server.requests.length = 0;
      failTimes(5, status);
      const err = (await failure(clock, make().request(post()))) as ExchangeError;
      expect(err.status).toBe(status);
      expect(server.requests, String(status)).toHaveLength(1);
      await transport.close();
    }
  });

  it('a POST market-data batch flagged idempotent is retried', async () => {
    failTimes(1, 500);
    const res = await run(clock, make().request(post('/books', '[]', { idempotent: true })));
    expect(res.attempts).toBe(2);
    expect(server.requests.map((r) => r.body)).toEqual(['[]', '[]']);
  });

  it('does not retry a non-retryable status', async () => {
    failTimes(5, 400);
    await failure(clock, make().request(get()));
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last error', async () => {
    failTimes(10, 503);
    const err = (await failure(clock, make({ backoff: { maxAttempts: 3 } }).request(get()))) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_UNAVAILABLE');
    expect(err.exchangeMessage).toBe('fail 3');
    expect(server.requests).toHaveLength(3);
  });

  it('honours Retry-After and reports every 429 to onThrottled', async () => {
    failTimes(2, 429, { 'retry-after': '3' });
    const throttled: Array<[string, number | null]> = [];
    const t = make({ onThrottled: (route, ms) => throttled.push([route, ms]) });
    const start = clock.now();
    await run(clock, t.request(get('/book')));
    expect(throttled).toEqual([
      ['GET /book', 3000],
      ['GET /book', 3000],
    ]);
    expect(clock.now() - start).toBe(6000); // random() = 0 → no extra jitter
  });

  it('hands a Retry-After longer than maxRetryAfterMs to the caller at once', async () => {
    failTimes(5, 429, { 'retry-after': '120' });
    const start = clock.now();
    const err = (await failure(clock, make({ backoff: { maxRetryAfterMs: 60_000 } }).request(get()))) as ExchangeError;
    expect(err.retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
    expect(clock.now()).toBe(start);
  });

  it('calls the headers function once per attempt (fresh signature timestamps)', async () => {
    failTimes(1, 503);
    let calls = 0;
    await run(
      clock,
      make().request(
        get('/data/order/x', { headers: () => ({ SVC_TIMESTAMP: String(Math.floor(clock.now() / 1000) + ++calls) }) }),
      ),
    );
    expect(calls).toBe(2);
    expect(server.requests.map((r) => r.headers['svc_timestamp'])).toEqual([
      String(Math.floor(Date.UTC(2026, 5, 1) / 1000) + 1),
      String(Math.floor(clock.now() / 1000) + 2),
    ]);
  });
});

describe('rate-limiter hooks', () => {
  it('awaits beforeSend(route) before every attempt', async () => {
    let n = 0;
    server.setHandler((_req, res) => {
      n++;
      json(res, n === 1 ? 503 : 200, {});
    });
    const gate = vi.fn(async (_route: string) => {
      expect(server.requests).toHaveLength(gate.mock.calls.length - 1);
    });
    await run(
      clock,
      make({ beforeSend: gate }).request(post('/orders', '[]', { route: 'POST /orders', idempotent: true })),
    );
    expect(gate.mock.calls.map((c) => c[0])).toEqual(['POST /orders', 'POST /orders']);
  });

  it('hands the gate the exact body, and onResponse every answer (any status) before it is decoded', async () => {
    let n = 0;
    server.setHandler((_req, res) => {
      n++;
      res.setHeader('Poly-RateLimit-Remaining', String(10 - n));
      json(res, n === 1 ? 503 : 200, {});
    });
    const bodies: (string | undefined)[] = [];
    const seen: [string, number, unknown][] = [];
    const t = make({
      beforeSend: async (_route, _signal, body) => {
        bodies.push(body);
      },
      onResponse: (route, status, headers) => {
        seen.push([route, status, headers['poly-ratelimit-remaining']]);
      },
    });
    await run(clock, t.request(post('/orders', '[1,2,3]', { route: 'POST /orders', idempotent: true })));
    expect(bodies).toEqual(['[1,2,3]', '[1,2,3]']);
    expect(seen).toEqual([
      ['POST /orders', 503, '9'],
      ['POST /orders', 200, '8'],
    ]);
  });

  it('an onResponse that throws does not turn an answered request into a failure', async () => {
    server.setHandler((_req, res) => {
      json(res, 200, { ok: true });
    });
    const t = make({
      onResponse: () => {
        throw new Error('metering broke');
      },
    });
    await expect(run(clock, t.requestJson(get()))).resolves.toEqual({ ok: true });
  });

  it('passes a gate error through unchanged and sends nothing', async () => {
    const boom = new Error('queue full');
    const err = await failure(clock, make({ beforeSend: () => Promise.reject(boom) }).request(get()));
    expect(err).toBe(boom);
    expect(server.requests).toHaveLength(0);
  });

  it('an error building the headers (signing) passes through unchanged and sends nothing', async () => {
    const boom = new Error('cannot sign');
    const err = await failure(
      clock,
      make().request(
        get('/data/order/x', {
          headers: () => {
            throw boom;
          },
        }),
      ),
    );
    expect(err).toBe(boom);
    expect(server.requests).toHaveLength(0);
  });

  it("a gate that gives up on the caller's abort is reported as EXCHANGE_ABORTED, nothing sent", async () => {
    const ac = new AbortController();
    const t = make({ beforeSend: (_route, signal) => clock.sleep(10_000, signal) });
    const p = t.request(get('/book', { signal: ac.signal }));
    while (clock.pending() === 0) await new Promise<void>((r) => setImmediate(r));
    ac.abort();
    const err = (await failure(clock, p)) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_ABORTED');
    expect(err.ambiguous).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('a gate that waits on the clock delays the send in virtual time', async () => {
    const t = make({ beforeSend: () => clock.sleep(250) });
    const start = clock.now();
    await run(clock, t.request(get()));
    expect(clock.now() - start).toBe(250);
    expect(server.requests).toHaveLength(1);
  });
});

describe('abort and close', () => {
  it('an already aborted signal sends nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = (await failure(clock, make().request(get('/book', { signal: ac.signal })))) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_ABORTED');
    expect(err.ambiguous).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('aborting an in-flight write is EXCHANGE_ABORTED, ambiguous', async () => {
    server.setHandler(() => {
      /* hangs */
    });
    const ac = new AbortController();
    const p = make().request(post('/order', '{}', { signal: ac.signal }));
    while (server.requests.length === 0) await new Promise<void>((r) => setImmediate(r));
    ac.abort();
    const err = (await failure(clock, p)) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_ABORTED');
    expect(err.ambiguous).toBe(true);
    expect(err.retryable).toBe(false);
  });

  it('aborting during a backoff wait stops the retries', async () => {
    server.setHandler((_req, res) => json(res, 503, { error: 'paused' }));
    const ac = new AbortController();
    const p = make({ backoff: { baseDelayMs: 1000 }, random: () => 0.9 }).request(get('/book', { signal: ac.signal }));
    while (clock.pending() === 0) await new Promise<void>((r) => setImmediate(r));
    ac.abort();
    const err = (await failure(clock, p)) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_ABORTED');
    expect(server.requests).toHaveLength(1);
  });

  it('after close() requests fail with EXCHANGE_CLOSED and send nothing', async () => {
    const t = make();
    await run(clock, t.request(get()));
    await t.close();
    const err = (await failure(clock, t.request(get()))) as ExchangeError;
    expect(err.code).toBe('EXCHANGE_CLOSED');
    expect(err.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('reports open connections per origin', async () => {
    const t = make();
    await run(clock, t.request(get()));
    const stats = t.stats();
    expect(Object.keys(stats)).toEqual([server.url]);
    expect(stats[server.url]!.connected).toBe(1);
  });
});

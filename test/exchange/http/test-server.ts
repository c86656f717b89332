// Test helpers for the exchange HTTP layer: a node:http server on 127.0.0.1:0 that records every
// request (method, path, query, headers, exact body) and answers through a handler, and a driver
// that runs a promise to completion while firing the VirtualClock's timers (backoff sleeps) as
// soon as they are the only thing left to wait for. No test sleeps on wall time.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { VirtualClock } from '../../../src/core/clock.js';

export interface Recorded {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  /** The raw query string after `?` ('' when none). */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  /** TCP connections accepted so far. */
  connections: () => number;
  setHandler: (h: Handler) => void;
  close: () => Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  let current = handler;
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const rec: Recorded = {
        method: req.method ?? '',
        path: q < 0 ? url : url.slice(0, q),
        rawQuery: q < 0 ? '' : url.slice(q + 1),
        query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(rec);
      void Promise.resolve(current(rec, res)).catch((e: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  server.on('connection', (s: Socket) => {
    accepted++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => accepted,
    setHandler: (h) => {
      current = h;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** A port on 127.0.0.1 where nothing listens (a server opened and closed). */
export async function closedPort(): Promise<string> {
  const s = await startServer(() => undefined);
  const url = s.url;
  await s.close();
  return url;
}

/**
 * Awaits `p`, firing the VirtualClock's next timer whenever one is waiting and otherwise letting
 * real I/O progress (setImmediate turns, never timers). Returns the outcome as a settled result.
 */
export async function drive<T>(clock: VirtualClock, p: Promise<T>): Promise<PromiseSettledResult<T>> {
  const box: { r: PromiseSettledResult<T> | null } = { r: null };
  p.then(
    (value) => {
      box.r = { status: 'fulfilled', value };
    },
    (reason: unknown) => {
      box.r = { status: 'rejected', reason };
    },
  );
  for (;;) {
    if (box.r !== null) return box.r;
    const at = clock.nextTimerAt();
    if (at !== null) await clock.advanceAsync(Math.max(0, at - clock.now()));
    else await new Promise<void>((r) => setImmediate(r));
  }
}

/** Like drive, then returns the value or throws the reason. */
export async function run<T>(clock: VirtualClock, p: Promise<T>): Promise<T> {
  const r = await drive(clock, p);
  if (r.status === 'fulfilled') return r.value;
  throw r.reason;
}

/** The rejection reason of `p` driven to completion; fails the test if it resolved. */
export async function failure(clock: VirtualClock, p: Promise<unknown>): Promise<unknown> {
  const r = await drive(clock, p);
  if (r.status === 'fulfilled') throw new Error(`expected a failure, got ${JSON.stringify(r.value)}`);
  return r.reason;
}

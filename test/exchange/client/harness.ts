// Test harness of the exchange client: one node:http server on 127.0.0.1:0 serving the three
// APIs under distinct path prefixes (/clob, /data, /gamma), so every test also checks which base
// URL a route goes to; a VirtualClock; an ExchangeClient with test credentials. Routes answer
// from a table keyed `METHOD /path`; anything else is a 404 the test will notice.
import type { ServerResponse } from 'node:http';
import { VirtualClock } from '../../../src/core/clock.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { ExchangeClient, type ExchangeClientOptions } from '../../../src/exchange/client/index.js';
import { json, startServer, type Recorded, type TestServer } from '../http/test-server.js';
import { ADDRESS, CREDS } from './payloads.js';

export type Answer = (req: Recorded, res: ServerResponse) => void;
/** A JSON value answered with status 200. */
export type Payload = object | string | number | boolean | null;

export interface Harness {
  server: TestServer;
  clock: VirtualClock;
  client: ExchangeClient;
  /** Sets the answer of `METHOD /full/path` (prefix included). */
  on: (key: string, answer: Answer | Payload) => void;
  close: () => Promise<void>;
}

export const START_MS = Date.UTC(2026, 5, 12, 18, 0, 0);

export async function setup(overrides: Partial<ExchangeClientOptions> = {}): Promise<Harness> {
  const answers = new Map<string, Answer>();
  const server = await startServer((req, res) => {
    const a = answers.get(`${req.method} ${req.path}`);
    if (a === undefined) json(res, 404, { error: `test server: no route ${req.method} ${req.path}` });
    else a(req, res);
  });
  const clock = new VirtualClock(START_MS);
  const client = new ExchangeClient({
    clobUrl: `${server.url}/clob`,
    dataUrl: `${server.url}/data`,
    catalogUrl: `${server.url}/gamma/`,
    dialect: DIALECTS.spec,
    credentials: CREDS,
    address: ADDRESS,
    clock,
    random: () => 0,
    ...overrides,
  });
  return {
    server,
    clock,
    client,
    on: (key, answer) => {
      answers.set(key, typeof answer === 'function' ? (answer as Answer) : (_req, res) => json(res, 200, answer));
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

// End-to-end harness: the exchange simulator in the test process (system clock, synthetic flow on)
// and the daemon as a real child process (`dist/src/cli/main.js run`, live mode against the
// simulator's URL with its throwaway account in the environment, or paper mode with no credentials
// at all), run by the one child harness (test/support/child.ts). Waits are driven by the daemon's own
// log lines (JSON on stdout) with a bound, never by sleeping. `recordRequests` sees every HTTP
// request that reaches the simulator.
import { afterEach, beforeAll } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SystemClock } from '../../src/core/clock.js';
import { parseShares } from '../../src/core/money.js';
import { ROUTES, type RouteDef } from '../../src/exchange/client/routes.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import { assertBuilt, CLI, NodeChild, type Line } from '../support/child.js';

export { assertBuilt, CLI };

export async function startSim(seed: number): Promise<RunningSimulator> {
  return startSimulator({
    host: '127.0.0.1',
    port: 0,
    seed,
    markets: 6,
    flow: 'high',
    limits: 'on',
    clock: new SystemClock(),
  });
}

export function writeConfig(dir: string, sim: RunningSimulator): string {
  const path = join(dir, 'config.json');
  writeFileSync(
    path,
    JSON.stringify({
      mode: 'live',
      exchange: { clobUrl: sim.url },
      markets: { selector: { max: 3 } },
      poll: { intervalMs: 250, maxBookAgeMs: 5000, orderLookupIntervalMs: 500 },
      strategy: { name: 'bands', params: {} },
      ledger: { path: join(dir, 'ledger.sqlite') },
      orders: { shutdownTimeoutMs: 15000 },
      log: { level: 'info' },
      health: { enabled: false },
    }),
  );
  return path;
}

/**
 * The shipped paper config (config/paper.json) pointed at the simulator: its market data from
 * `sim.url`, its ledger in `dir`, faster polling, and `overrides` merged one level deep.
 */
export function writePaperConfig(
  dir: string,
  sim: RunningSimulator,
  overrides: Record<string, Record<string, unknown>> = {},
): string {
  const shipped = JSON.parse(readFileSync(resolve('config/paper.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  const cfg: Record<string, unknown> = { ...shipped };
  const merge = (key: string, v: Record<string, unknown>): void => {
    cfg[key] = { ...((cfg[key] as Record<string, unknown> | undefined) ?? {}), ...v };
  };
  merge('exchange', { clobUrl: sim.url });
  merge('markets', { selector: { max: 3 } });
  merge('poll', { intervalMs: 250, maxBookAgeMs: 5000, orderLookupIntervalMs: 500 });
  merge('ledger', { path: join(dir, 'paper-ledger.sqlite') });
  merge('orders', { shutdownTimeoutMs: 15000 });
  merge('health', { enabled: false });
  for (const [k, v] of Object.entries(overrides)) merge(k, v);
  const path = join(dir, 'paper.json');
  writeFileSync(path, JSON.stringify(cfg));
  return path;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'oddsmaker-e2e-'));
}

export type LogLine = Line;

export interface DaemonProcessOptions {
  /** Arguments after `run --config <file>` (e.g. `--mode paper`). */
  readonly args?: readonly string[];
  /** Put the simulator account's key and API credentials in the environment (default true). */
  readonly credentials?: boolean;
}

/** A running daemon child (`run --config <file>`) against the simulator, with its JSON log. */
export class DaemonProcess extends NodeChild {
  constructor(configPath: string, sim: RunningSimulator, opts: DaemonProcessOptions = {}) {
    const a = sim.account;
    const credentials =
      opts.credentials === false
        ? {}
        : {
            ODDSMAKER_PRIVATE_KEY: a.privateKey,
            ODDSMAKER_ADDRESS: a.address,
            ODDSMAKER_API_KEY: a.apiKey,
            ODDSMAKER_API_SECRET: a.secret,
            ODDSMAKER_API_PASSPHRASE: a.passphrase,
          };
    super(CLI, ['run', '--config', configPath, ...(opts.args ?? [])], { env: credentials });
  }
}

export interface SimOrder {
  id: string;
  status: string;
  sizeMatched: number;
}

/** Every order of the account as the simulator knows it (all statuses). */
export async function simOrders(sim: RunningSimulator): Promise<SimOrder[]> {
  const out: SimOrder[] = [];
  for (let offset = 0; ; offset += 1000) {
    const res = await fetch(`${sim.url}/_sim/orders?owner=${sim.account.address}&limit=1000&offset=${offset}`);
    const body = (await res.json()) as {
      count: number;
      data: Array<{ id: string; status: string; sizeMatched: string }>;
    };
    for (const o of body.data) out.push({ id: o.id, status: o.status, sizeMatched: parseShares(o.sizeMatched) });
    if (offset + 1000 >= body.count) return out;
  }
}

export interface SimRequest {
  readonly method: string;
  readonly path: string;
  /** The client route it is (`POST /books`), or null when the client has no such route. */
  readonly route: RouteDef | null;
  /** Header names, lower case. */
  readonly headers: readonly string[];
}

const ROUTE_PATTERNS = Object.values(ROUTES).map((r) => {
  const [method, path] = r.key.split(' ') as [string, string];
  return { def: r, method, re: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) };
});

/** The client route a request is, by method and path. */
export function routeOf(method: string, path: string): RouteDef | null {
  return ROUTE_PATTERNS.find((p) => p.method === method && p.re.test(path))?.def ?? null;
}

/**
 * Records every HTTP request reaching the simulator from now on (listening on its HTTP server
 * beside Fastify's handler: nothing is changed, and requests Fastify refuses are seen too).
 */
export function recordRequests(sim: RunningSimulator): SimRequest[] {
  const seen: SimRequest[] = [];
  sim.app.server.on('request', (req: IncomingMessage) => {
    const method = req.method ?? '';
    const path = (req.url ?? '').split('?')[0] ?? '';
    seen.push({ method, path, route: routeOf(method, path), headers: Object.keys(req.headers) });
  });
  return seen;
}

/**
 * The bookkeeping every end-to-end file repeats: the CLI is built (checked once), and after each
 * test every daemon it launched is killed and its simulator closed. `session.sim` holds the
 * test's simulator; `launch` starts a daemon on it.
 */
export interface E2eSession {
  sim: RunningSimulator | null;
  launch(configPath: string, opts?: DaemonProcessOptions): DaemonProcess;
}

export function useE2eSession(): E2eSession {
  const daemons: DaemonProcess[] = [];
  const session: E2eSession = {
    sim: null,
    launch(configPath, opts) {
      if (session.sim === null) throw new Error('start the simulator (session.sim) before launching a daemon');
      const d = new DaemonProcess(configPath, session.sim, opts);
      daemons.push(d);
      return d;
    },
  };
  beforeAll(() => {
    assertBuilt();
  });
  afterEach(async () => {
    await Promise.all(daemons.splice(0).map((d) => d.kill()));
    await session.sim?.close();
    session.sim = null;
  });
  return session;
}

/** Polls `check` until it returns a value, at most `timeoutMs` (a bounded wait on observable state, never a sleep). */
export async function pollUntil<T>(what: string, timeoutMs: number, check: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => {
      setTimeout(r, 50);
    });
  }
}

/** Ids of the account's orders the simulator holds LIVE. */
export async function liveOrderIds(sim: RunningSimulator): Promise<string[]> {
  return (await simOrders(sim)).filter((o) => o.status === 'LIVE').map((o) => o.id);
}

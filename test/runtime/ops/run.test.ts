// The ops server as `oddsmaker run` wires it (the compiled CLI as a child process, sandbox mode:
// the simulator in-process): it listens before the daemon starts (before startup reconciliation),
// answers /healthz 200 with fresh data, /status and /metrics with the running daemon's figures,
// takes an operator action with the token from the environment, and is closed after the daemon
// stopped on SIGTERM (exit 0, nothing left live, the token in no log line). A port already taken
// fails the command (exit 1) with a message naming health.port, before the exchange sees a single
// request (live mode against an in-process simulator that counts them), and the ledger's lock is
// released. Waits are bounded and driven by the daemon's own log lines.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, recordRequests, startSim } from '../../e2e/harness.js';
import { NodeChild, reapChildren, startCli, type Line } from '../../support/child.js';
import { sample } from './ops-harness.js';
import { stopLine } from '../../support/stop-line.js';

const TOKEN = 'run-test-token-5e1f0c2a9b7d';

/** `oddsmaker run --config <file>` with only `env` (and PATH) in its environment. */
const run = (configPath: string, env: Record<string, string>): NodeChild =>
  startCli(['run', '--config', configPath], { env });

let blockers: Server[] = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  await reapChildren();
  for (const b of blockers) await new Promise<void>((r) => b.close(() => r()));
  blockers = [];
});

function config(port: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-ops-'));
  const path = join(dir, 'config.json');
  writeFileSync(
    path,
    JSON.stringify({
      mode: 'sandbox',
      sandbox: { seed: 42, markets: 8, flow: 'normal' },
      markets: { selector: { max: 2 } },
      poll: { intervalMs: 250, maxBookAgeMs: 5_000, orderLookupIntervalMs: 500 },
      ledger: { path: join(dir, 'ledger.sqlite') },
      orders: { shutdownTimeoutMs: 15_000 },
      health: { enabled: true, host: '127.0.0.1', port },
    }),
  );
  return path;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const r = await request(url);
  return { status: r.statusCode, text: await r.body.text() };
}

const isCycle = (l: Line): boolean => l.msg === 'cycle';

describe('oddsmaker run with the ops server', () => {
  it('serves health, status, metrics and actions once started, and closes after the daemon stopped', async () => {
    const p = run(config(0), { ODDSMAKER_OPERATOR_TOKEN: TOKEN });
    const listening = await p.waitFor((l) => l.msg === 'ops server listening', 'the ops server');
    expect(listening).toMatchObject({ operatorActions: true });
    const url = String(listening['url']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Listening before the daemon starts: before the universe is read and the ledger reconciled.
    await p.waitFor((l) => l.msg === 'startup reconciliation done', 'startup reconciliation');
    const order = p.lines.map((l) => l.msg);
    expect(order.indexOf('ops server listening')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('ops server listening')).toBeLessThan(order.indexOf('universe resolved'));

    await p.waitFor((l) => isCycle(l) && Number(l['openOrders']) > 0, 'resting quotes');
    const health = await get(`${url}/healthz`);
    expect(health.status, health.text).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', state: 'running' });
    const status = JSON.parse((await get(`${url}/status`)).text) as {
      mode: string;
      openOrders: number;
      markets: unknown[];
    };
    expect(status.mode).toBe('sandbox');
    expect(status.markets).toHaveLength(2);
    expect(status.openOrders).toBeGreaterThan(0);
    const metrics = (await get(`${url}/metrics`)).text;
    expect(sample(metrics, 'oddsmaker_orders_placed_total')).toBeGreaterThan(0);
    expect(
      sample(metrics, 'oddsmaker_ratelimit_utilisation', {
        route: 'POST /orders',
        api: 'clob',
        bucket: 'clob POST /order',
        window: '10s',
      }),
    ).toBeGreaterThan(0);
    expect(sample(metrics, 'oddsmaker_cycles_total')).toBeGreaterThan(0);

    const denied = await request(`${url}/actions/cancel-all`, { method: 'POST' });
    expect(denied.statusCode).toBe(401);
    await denied.body.dump();
    const cancel = await request(`${url}/actions/cancel-all`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const body = (await cancel.body.json()) as { cancelAll: { cancelled: number; remaining: number } };
    expect(cancel.statusCode).toBe(200);
    expect(body.cancelAll.cancelled).toBeGreaterThan(0);
    expect(body.cancelAll.remaining).toBe(0);
    const seen = p.lines.length;
    await p.waitFor(
      (l) => isCycle(l) && p.lines.indexOf(l) >= seen && Number(l['openOrders']) === 0,
      'a cycle with nothing open',
    );

    p.child.kill('SIGTERM');
    expect((await p.exited).code).toBe(0);
    expect(stopLine(p.lines)).toMatchObject({ remaining: 0, timedOut: false });
    await expect(request(`${url}/healthz`)).rejects.toThrow(); // closed with the daemon
    expect(p.stdout.join('\n')).not.toContain(TOKEN);
  }, 90_000);

  it('fails (exit 1) when the ops port is taken, naming health.port, before any request to the exchange', async () => {
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const addr = blocker.address();
    const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
    const sim = await startSim(9);
    try {
      const requests = recordRequests(sim);
      const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-ops-busy-'));
      const ledger = join(dir, 'ledger.sqlite');
      const cfg = join(dir, 'config.json');
      writeFileSync(
        cfg,
        JSON.stringify({
          mode: 'live',
          exchange: { clobUrl: sim.url },
          markets: { selector: { max: 1 } },
          ledger: { path: ledger },
          health: { enabled: true, host: '127.0.0.1', port },
        }),
      );
      const a = sim.account;
      const p = run(cfg, {
        ODDSMAKER_PRIVATE_KEY: a.privateKey,
        ODDSMAKER_ADDRESS: a.address,
        ODDSMAKER_API_KEY: a.apiKey,
        ODDSMAKER_API_SECRET: a.secret,
        ODDSMAKER_API_PASSPHRASE: a.passphrase,
      });
      expect((await p.exited).code).toBe(1);
      expect(p.stderr).toEqual([
        `oddsmaker: ops server: cannot listen on 127.0.0.1:${port} (health.host, health.port): the port is in use (another daemon, or another program) [EADDRINUSE]; ` +
          'set health.port to a free port (0 picks one) or health.enabled to false. Nothing was traded',
      ]);
      // Nothing reached the exchange: no universe, no reconciliation, no order.
      expect(requests).toEqual([]);
      expect(p.lines.map((l) => l.msg)).not.toContain('universe resolved');
      expect(existsSync(`${ledger}.lock`)).toBe(false);
    } finally {
      await sim.close();
    }
  }, 90_000);
});

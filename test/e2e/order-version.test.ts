// Issue 16, end to end: the exchange's order version. A daemon (`oddsmaker run`, a child process,
// live mode) quotes against the simulator (in this process, loopback). (1) The simulator moves to
// order version 3 while the daemon quotes: its next placement is answered 400
// `order_version_mismatch`; the daemon stops quoting (one log line saying why), pulls its quotes,
// places nothing more, and /healthz answers 503 with the reason. (2) A simulator already on
// version 3 at start: GET /version is read at start and the daemon never quotes. Waits are bounded
// polls of the daemon's log, /healthz or the simulator's state, never sleeps.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import { accountEnv, reap, RunChild, writeJson } from '../cli/run-child.js';
import { assertBuilt, liveOrderIds, pollUntil, recordRequests } from './harness.js';

const STOP_MSG = 'order version mismatch: quoting stopped, quotes pulled (not retried)';
let sim: RunningSimulator | null = null;

beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  await reap();
  await sim?.close();
  sim = null;
});

function launch(s: RunningSimulator): RunChild {
  const dir = mkdtempSync(join(tmpdir(), 'om-version-'));
  const cfg = writeJson(dir, 'config.json', {
    mode: 'live',
    exchange: { clobUrl: s.url },
    markets: { selector: { max: 3 } },
    poll: { intervalMs: 250, maxBookAgeMs: 5000, orderLookupIntervalMs: 500 },
    strategy: { name: 'bands', params: {} },
    ledger: { path: join(dir, 'ledger.sqlite') },
    orders: { shutdownTimeoutMs: 15000 },
    log: { level: 'info' },
    health: { enabled: true, host: '127.0.0.1', port: 0 },
  });
  return new RunChild(['--config', cfg], { cwd: dir, env: accountEnv(s) });
}

async function health(url: string): Promise<{ status: number; body: { status: string; reasons?: string[] } }> {
  const r = await fetch(`${url}/healthz`);
  return { status: r.status, body: (await r.json()) as { status: string; reasons?: string[] } };
}

describe('order version end to end', () => {
  it('stops quoting on an order_version_mismatch answer and says why in /healthz', async () => {
    const s = (sim = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 16,
      markets: 6,
      flow: 'high',
      limits: 'on',
      clock: new SystemClock(),
    }));
    const d = launch(s);
    const url = String((await d.waitFor((l) => l.msg === 'ops server listening', 'the ops server'))['url']);
    await d.waitFor((l) => l.msg === 'cycle' && Number(l['openOrders']) > 0, 'resting quotes', 60_000);
    expect((await health(url)).status).toBe(200);

    s.ctx.exchange.update({ orderVersion: 3 });
    const line = await d.waitFor((l) => l.msg === STOP_MSG, 'the version stop', 60_000);
    expect(String(line['reason'])).toContain('order_version_mismatch');
    const h = await pollUntil('/healthz 503', 10_000, async () => {
      const x = await health(url);
      return x.status === 503 ? x : null;
    });
    expect(
      h.body.reasons?.some((r) => r.startsWith('order version mismatch: ') && r.includes('order_version_mismatch')),
    ).toBe(true);
    // Quotes pulled (cancels still work on the new version), and nothing placed any more.
    await pollUntil('no live order of ours', 20_000, async () => ((await liveOrderIds(s)).length === 0 ? true : null));
    await d.waitFor(
      (l) => l.msg === 'cycle' && Number(l['placed']) === 0 && Number(l['openOrders']) === 0,
      'a quiet cycle',
      20_000,
    );
    // No order reaches the exchange any more: several cycles later, not one POST /order(s).
    const seen = recordRequests(s);
    const after = d.lines.length;
    await d.waitFor((l) => l.msg === 'cycle' && d.lines.indexOf(l) > after + 3, 'more cycles', 20_000);
    expect(seen.filter((r) => r.method === 'POST' && (r.path === '/order' || r.path === '/orders'))).toEqual([]);
    // One line says why, once.
    expect(d.lines.filter((l) => l.msg === STOP_MSG)).toHaveLength(1);
  });

  it('reads GET /version at start and never quotes on a version it does not sign', async () => {
    const s = (sim = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 16,
      markets: 6,
      flow: 'high',
      limits: 'on',
      clock: new SystemClock(),
      exchange: { orderVersion: 3 },
    }));
    const seen = recordRequests(s);
    const d = launch(s);
    const url = String((await d.waitFor((l) => l.msg === 'ops server listening', 'the ops server'))['url']);
    const line = await d.waitFor((l) => l.msg === STOP_MSG, 'the version stop', 60_000);
    expect(String(line['reason'])).toContain('order version 3');
    expect(seen.some((r) => r.method === 'GET' && r.path === '/version')).toBe(true);
    await d.waitFor((l) => l.msg === 'cycle', 'a cycle', 60_000);
    const h = await pollUntil('/healthz 503', 10_000, async () => {
      const x = await health(url);
      return x.status === 503 && x.body.reasons?.some((r) => r.startsWith('order version mismatch')) ? x : null;
    });
    expect(h.body.reasons).toContain(
      'order version mismatch: the exchange accepts order version 3, we sign version 2: upgrade oddsmaker',
    );
    expect(seen.filter((r) => r.method === 'POST' && (r.path === '/order' || r.path === '/orders'))).toEqual([]);
    expect(await liveOrderIds(s)).toEqual([]);
  });
});

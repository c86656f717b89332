// The order lifecycle of the public exchange end to end, polymarket dialect: `oddsmaker run` (a
// child process) against the bundled simulator speaking the real exchange's shapes. A daemon that
// lost its ledger finds its live orders through the open-orders route (GET /data/orders) and
// cancels them before it quotes; a SIGTERM with 100 live orders cancels them in DELETE /orders
// batches (the figures: requests and time, printed for the closing note).
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import type { Micros } from '../../src/core/money.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import { liveOrderIds, recordRequests, simOrders, tempDir, useE2eSession, type LogLine } from './harness.js';
import { stopLine } from '../support/stop-line.js';

const session = useE2eSession();

async function polymarketSim(seed: number): Promise<RunningSimulator> {
  // Low synthetic flow: liquidity providers make the books (and mids) our quotes need; few takers.
  return startSimulator({
    host: '127.0.0.1',
    port: 0,
    seed,
    markets: 12,
    flow: 'low',
    limits: 'on',
    dialect: 'polymarket',
    clock: new SystemClock(),
    accountCollateral: 100_000_000_000 as Micros,
  });
}

/** A live-mode config in the polymarket dialect: `markets` explicit markets, a ladder of `levels`. */
function writeConfig(dir: string, s: RunningSimulator, markets: number, levels: number): string {
  const conditions = s.venue.world.markets
    .filter((m) => m.state.active && m.state.acceptingOrders && !m.state.closed)
    .slice(0, markets)
    .map((m) => m.conditionId);
  // 20 shares a level: at or above every simulated market's minimum order size.
  const ladder = Array.from({ length: levels }, (_, i) => ({ margin: Number(((i + 1) / 100).toFixed(2)), size: 20 }));
  const path = join(dir, 'config.json');
  writeFileSync(
    path,
    JSON.stringify({
      mode: 'live',
      exchange: { dialect: 'polymarket', clobUrl: s.url },
      markets: { conditions, selector: { max: markets } },
      poll: { intervalMs: 250, maxBookAgeMs: 5_000, orderLookupIntervalMs: 500 },
      strategy: { name: 'bands', params: { levels: ladder, maxPosition: 10_000 } },
      risk: {
        maxPositionShares: '100000',
        maxMarketNotional: '100000',
        maxTotalExposure: '1000000',
        dailyLossLimit: '100000',
        capital: '100000',
      },
      ledger: { path: join(dir, 'ledger.sqlite') },
      orders: { shutdownTimeoutMs: 15_000 },
      log: { level: 'info' },
      health: { enabled: false },
    }),
  );
  return path;
}

const isCycle = (l: LogLine): boolean => l.msg === 'cycle';

describe('polymarket dialect: the order lifecycle end to end', () => {
  it('restarted with an empty ledger, it finds its live orders through GET /data/orders and cancels them before quoting', async () => {
    const sim = (session.sim = await polymarketSim(21));
    const dir = tempDir();
    const cfg = writeConfig(dir, sim, 2, 3);
    const first = session.launch(cfg);
    await first.waitFor((l) => isCycle(l) && Number(l.openOrders) >= 12, 'resting quotes');
    first.child.kill('SIGKILL');
    await first.exited;
    const left = await liveOrderIds(sim);
    expect(left.length).toBeGreaterThanOrEqual(12);
    // The disk is lost: the new process starts with no ledger at all.
    for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm']) rmSync(join(dir, f), { force: true });

    const requests = recordRequests(sim);
    const second = session.launch(cfg);
    const rec = await second.waitFor((l) => l.msg === 'startup reconciliation done', 'startup reconciliation');
    expect(rec).toMatchObject({ lookedUp: 0, foreign: left.length, cancelled: left.length, listed: true });
    // Every order of the first process was cancelled, and before the first new placement.
    const listedAt = requests.findIndex((r) => r.method === 'GET' && r.path.startsWith('/data/orders'));
    const firstPlace = requests.findIndex((r) => r.method === 'POST' && (r.path === '/orders' || r.path === '/order'));
    const firstCancel = requests.findIndex((r) => r.method === 'DELETE');
    expect(listedAt).toBeGreaterThanOrEqual(0);
    expect(firstCancel).toBeGreaterThan(listedAt);
    expect(firstPlace === -1 || firstPlace > firstCancel).toBe(true);
    const statuses = new Map((await simOrders(sim)).map((o) => [o.id, o.status]));
    for (const id of left) expect(statuses.get(id)).not.toBe('LIVE');

    await second.waitFor((l) => isCycle(l) && Number(l.openOrders) >= 12, 'quotes again');
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    expect(await liveOrderIds(sim)).toEqual([]);
  }, 180_000);

  it('SIGTERM with 100 live orders cancels them in DELETE /orders batches', async () => {
    const sim = (session.sim = await polymarketSim(22));
    const dir = tempDir();
    const cfg = writeConfig(dir, sim, 5, 10); // 5 markets × 10 levels × 2 sides
    const d = session.launch(cfg);
    await d.waitFor((l) => isCycle(l) && Number(l.openOrders) >= 100, '100 resting quotes');
    const requests = recordRequests(sim);
    const t0 = Date.now();
    d.child.kill('SIGTERM');
    const exit = await d.exited;
    const stopMs = Date.now() - t0;
    expect(exit.code).toBe(0);
    expect(await liveOrderIds(sim)).toEqual([]);
    const cancels = requests.filter((r) => r.method === 'DELETE');
    expect(cancels.every((r) => r.path === '/orders')).toBe(true);
    expect(cancels.length).toBeLessThanOrEqual(2);
    const stop = stopLine(d.lines);
    expect(stop).toMatchObject({ remaining: 0, timedOut: false });
    expect(Number(stop?.cancelled)).toBeGreaterThanOrEqual(95); // 100 rested; a taker may fill one meanwhile
    // For the closing note: how many requests and how long the stop took.
    console.log(
      `FIGURE sigterm_100_orders cancel_requests=${cancels.length} stop_ms=${stopMs} daemon_elapsed_ms=${String(stop?.elapsedMs)}`,
    );
  }, 180_000);
});

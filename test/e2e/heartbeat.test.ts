// Issue 13, end to end (1): the exchange's dead-man switch. A daemon (`oddsmaker run`, a child
// process, live mode, polymarket dialect) quotes against the simulator (in this process, loopback,
// polymarket dialect, heartbeat expiry 3 s) and keeps its heartbeat alive; it is SIGKILLed while
// quoting; its quotes rest until the expiry passes, then the simulator has no live order of ours
// left. Waits are bounded polls of the simulator's state or the daemon's log, never sleeps.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SystemClock } from '../../src/core/clock.js';
import { startSimulator } from '../../src/sim/server/start.js';
import { liveOrderIds, pollUntil, tempDir, useE2eSession } from './harness.js';

const EXPIRY_MS = 3_000;

const session = useE2eSession();

describe('heartbeat end to end (polymarket dialect)', () => {
  it('a SIGKILLed daemon leaves no live order once the heartbeat expiry has passed', async () => {
    const sim = (session.sim = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 13,
      markets: 6,
      flow: 'normal',
      limits: 'on',
      dialect: 'polymarket',
      heartbeatExpiryMs: EXPIRY_MS,
      clock: new SystemClock(),
    }));
    const s = sim;
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        mode: 'live',
        exchange: { dialect: 'polymarket', clobUrl: s.url, heartbeatExpiryMs: EXPIRY_MS, heartbeatIntervalMs: 500 },
        markets: { selector: { max: 3 } },
        poll: { intervalMs: 250, maxBookAgeMs: 5000, orderLookupIntervalMs: 500 },
        strategy: { name: 'bands', params: {} },
        ledger: { path: join(dir, 'ledger.sqlite') },
        orders: { shutdownTimeoutMs: 15000 },
        log: { level: 'info' },
        health: { enabled: false },
      }),
    );
    const d = session.launch(cfg);
    await d.waitFor((l) => l.msg === 'startup reconciliation done', 'startup reconciliation', 60_000);
    await d.waitFor((l) => l.msg === 'cycle' && Number(l.openOrders) > 0, 'resting quotes', 60_000);
    // The daemon keeps the dead-man switch alive: beats keep coming, nothing has expired.
    const beatsBefore = s.venue.heartbeats.stats.beats;
    await pollUntil('two more heartbeats', 5_000, () =>
      Promise.resolve(s.venue.heartbeats.stats.beats >= beatsBefore + 2 ? true : null),
    );
    expect(s.venue.heartbeats.stats.expired).toBe(0);
    const resting = await pollUntil('our quotes resting at the simulator', 10_000, async () => {
      const ids = await liveOrderIds(s);
      return ids.length > 0 ? ids : null;
    });

    d.child.kill('SIGKILL');
    const killedAt = Date.now();
    await d.exited;
    // Right after the kill the quotes still rest: nothing but the dead-man switch will take them.
    const justAfter = await liveOrderIds(s);
    expect(justAfter.length).toBeGreaterThan(0);
    expect(s.venue.heartbeats.stats.expired).toBe(0);

    // Within the expiry (plus the last beat's interval and some slack) every one is gone.
    await pollUntil('no live order of ours', EXPIRY_MS + 5_000, async () =>
      (await liveOrderIds(s)).length === 0 ? true : null,
    );
    const goneAfterMs = Date.now() - killedAt;
    expect(goneAfterMs).toBeGreaterThan(EXPIRY_MS - 600); // not before the expiry (the last beat was ≤ 500 ms before the kill)
    expect(s.venue.heartbeats.stats.expired).toBe(1);
    expect(s.venue.heartbeats.stats.canceledOrders).toBeGreaterThanOrEqual(justAfter.length);
    for (const id of resting) expect(s.venue.engine.getOrder(id)?.status).not.toBe('LIVE');
    expect(d.allText()).not.toContain('heartbeat failed');
  }, 120_000);
});

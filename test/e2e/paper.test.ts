// Paper mode end to end, as a user runs it: `oddsmaker run --mode paper` (a child process, with NO
// credentials in its environment) on the shipped config/paper.json, its configured exchange being
// the bundled simulator started here. Asserts: the daemon quotes (resting paper orders in its cycle
// line) on the simulator's market data, yet nothing it sends the exchange is a trading or
// authenticated request, so no paper order ever reaches it; paper quotes get filled and the
// positions check, answered by the paper venue, agrees with the ledger on the position; SIGTERM
// exits 0 after 'shutdown complete'.
import { describe, expect, it } from 'vitest';
import {
  recordRequests,
  simOrders,
  startSim,
  tempDir,
  useE2eSession,
  writePaperConfig,
  type LogLine,
} from './harness.js';
import { stopLine } from '../support/stop-line.js';

const isCycle = (l: LogLine): boolean => l.msg === 'cycle';

const session = useE2eSession();

describe('paper mode end to end', () => {
  it("quotes and fills on the exchange's market data, sends it no order, and stops cleanly on SIGTERM", async () => {
    const sim = (session.sim = await startSim(5));
    const requests = recordRequests(sim);
    const verified0 = { ...sim.ctx.verifier.counts };
    const apiKeys0 = sim.venue.stats().apiKeys;
    const dir = tempDir();
    // The positions check every second (node-cron's seconds field), so that it runs in the test.
    const cfg = writePaperConfig(dir, sim, { ledger: { positionsCheckCron: '* * * * * *' } });
    const d = session.launch(cfg, { args: ['--mode', 'paper'], credentials: false });

    const started = await d.waitFor((l) => l.msg === 'daemon started', 'daemon started');
    expect(started.mode).toBe('paper');
    await d.waitFor((l) => isCycle(l) && Number(l.openOrders) > 0, 'resting paper quotes');
    // A paper fill (the venue matches our quotes against the polled books), then a positions
    // check, answered by the paper venue for its own account, agreeing with the ledger on it.
    await d.waitFor((l) => l.msg === 'fill', 'a paper fill', 90_000);
    await d.waitFor(
      (l) => l.msg === 'positions agree with the exchange' && Number(l.positions) > 0,
      'an agreeing positions check with a position',
      30_000,
    );
    const seen = d.lines.filter(isCycle).length;
    await d.waitFor(() => d.lines.filter(isCycle).length >= seen + 4, 'four more cycles');

    d.child.kill('SIGTERM');
    const exit = await d.exited;
    expect(exit.code, d.stderr.join('\n')).toBe(0);
    expect(d.lines.some((l) => l.msg === 'positions check failed')).toBe(false);
    const placed = d.lines.filter(isCycle).reduce((n, l) => n + Number(l.placed), 0);
    expect(placed).toBeGreaterThan(0);
    // The paper quotes were cancelled at shutdown, in the paper venue.
    expect(stopLine(d.lines)).toMatchObject({ remaining: 0, timedOut: false });

    // The simulator was the daemon's exchange: it served the universe and the books...
    const routes = requests.map((r) => r.route?.key ?? `${r.method} ${r.path} (unknown)`);
    expect(routes).toContain('GET /sampling-markets');
    expect(routes).toContain('POST /books');
    // ...and nothing else: every request is a public market-data read, none carries auth headers,
    // none is a trading route; positions were answered by the paper venue, not GET /positions.
    const notPublic = requests.filter((r) => r.route === null || r.route.auth !== 'none');
    expect(notPublic).toEqual([]);
    expect(requests.filter((r) => r.headers.some((h) => h.startsWith('svc_') || h.startsWith('poly_')))).toEqual([]);
    for (const trading of ['POST /order', 'POST /orders', 'DELETE /order', 'GET /positions'])
      expect(routes).not.toContain(trading);
    // The exchange's own books agree: no order signature was ever checked, no API key minted, and
    // the funded account (whose credentials the daemon never had) has no order.
    expect(sim.ctx.verifier.counts).toEqual(verified0);
    expect(sim.venue.stats().apiKeys).toBe(apiKeys0);
    expect(await simOrders(sim)).toEqual([]);
  }, 120_000);
});

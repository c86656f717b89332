// Webhooks and human-unit fill lines in a whole sandbox daemon, in process on the virtual clock
// (buildRuntime: the simulator on loopback, the HTTP gateway, the real order manager and ledger),
// told to a local receiver (node:http on 127.0.0.1): "started" once the daemon runs; one of our
// bids filled by another trader gives a fill log line in human units with the market's short name
// (question · outcome) and, a summary period later, a fills summary naming the same market; the
// stop sends "stopped". Real loopback I/O and virtual time advance together (`drive`), never a
// real sleep.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Ledger } from '../../src/ledger/index.js';
import { driveUntil as drive } from '../support/drive.js';
import { sellInto, startQuoting, startSandboxRuntime } from '../support/sandbox-runtime.js';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);
const SH = 1_000_000;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('notifications and fill lines in a sandbox daemon', () => {
  it('started, a fill (human units, market name in the log line and the summary), stopped', async () => {
    const got: Array<Record<string, unknown>> = [];
    const server = createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => {
        data += c.toString('utf8');
      });
      req.on('end', () => {
        got.push(JSON.parse(data) as Record<string, unknown>);
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
        }),
    );
    const addr = server.address();
    const hook = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}/hooks/secret-token`;

    const clock = new VirtualClock(T0);
    const config = validateConfig({
      mode: 'sandbox',
      sandbox: { seed: 5, markets: 6, flow: 'low', limits: 'off' },
      markets: { selector: { max: 2 } },
      poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
      ledger: { path: join(mkdtempSync(join(tmpdir(), 'oddsmaker-notify-')), 'ledger.sqlite') },
      strategy: { name: 'bands', params: {} },
      record: { enabled: true, path: join(mkdtempSync(join(tmpdir(), 'oddsmaker-notify-rec-')), 'daemon.omrc') },
      log: { level: 'info' },
      health: { enabled: false },
      notify: { webhooks: [{ url: hook, format: 'json' }], fillsSummaryMs: 60_000 },
    });
    const sandbox = await startSandboxRuntime(config, clock);
    const { rt, sim, lines, raw } = sandbox;
    let closed = false;
    cleanups.push(async () => {
      if (!closed) {
        await rt.daemon.stop().catch(() => undefined);
        await rt.close();
      }
    });
    const bid = await startQuoting(sandbox, clock);
    await drive(clock, () => got.some((b) => b.kind === 'daemon-started'), 'the "started" message');
    expect(got.find((b) => b.kind === 'daemon-started')).toMatchObject({
      mode: 'sandbox',
      text: '[oddsmaker sandbox] started (sandbox, strategy bands).',
    });

    const { tokenId, conditionId, price } = bid.record;
    sellInto(sim, bid, '0x00000000000000000000000000000000000000bb', `0x${'ab'.repeat(32)}`);
    const ledger = rt.ops.ledger as Ledger;
    await drive(clock, () => (ledger.position(tokenId)?.size ?? 0) > 0, 'the fill in the ledger');

    // The fill line: human units and the market's short name, no raw millionths.
    const fill = lines.find((l) => l.msg === 'fill')!;
    const question = rt.daemon.status().markets.find((m) => m.conditionId === conditionId)?.question ?? '';
    expect(question).not.toBe('');
    expect(fill).toMatchObject({ tokenId, side: 'BUY', price: (price / SH).toString() });
    expect(fill.size).toMatch(/^\d+(\.\d+)?$/);
    expect(String(fill.market)).toMatch(/ · \S/);
    expect(String(fill.market).startsWith(question.slice(0, 20))).toBe(true);

    await drive(clock, () => got.some((b) => b.kind === 'fills-summary'), 'the fills summary');
    const summary = got.find((b) => b.kind === 'fills-summary')!;
    expect(summary.markets).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ market: fill.market, bought: expect.stringMatching(/^\d+(\.\d+)?$/) }),
      ]),
    );
    expect(summary.notional).toMatch(/^\d+(\.\d+)?$/);

    let stopped = false;
    void rt.daemon.stop().then(() => {
      stopped = true;
    });
    await drive(clock, () => stopped, 'stop');
    let done = false;
    let closeError: unknown = null;
    void rt.close().then(
      () => {
        done = true;
      },
      (e: unknown) => {
        closeError = e;
        done = true;
      },
    );
    // "stopped" goes out first of the closers; the clock stands still until it has arrived, so the
    // close's bound (virtual time) cannot pass before a slow loopback answer.
    await drive(clock, () => got.some((b) => b.kind === 'daemon-stopped'), 'the "stopped" message', { stepMs: 0 });
    await drive(clock, () => done, 'close');
    closed = true;
    expect(closeError).toBe(null);
    expect(got.at(-1)).toMatchObject({ kind: 'daemon-stopped', mode: 'sandbox' });
    // The webhook's token never reaches the log.
    expect(raw.join('\n')).not.toContain('secret-token');
  }, 120_000);
});

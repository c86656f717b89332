// `oddsmaker status`: against a daemon's ops server on 127.0.0.1 (the virtual-clock daemon of the
// ops tests), the readable table (header, health, kill switch, circuit, PnL, markets, open orders,
// positions), what the daemon is doing (a tripped kill switch says "halted (kill switch)"), --json,
// --orders; the command as commander parses it; errors: nothing listening, an error status, a
// document that is not a status, usage errors; --watch: one block per refresh (the screen cleared
// only on a terminal), an unreachable daemon a line of the refresh, and the CLI in a child process
// printing two refreshes and exiting 0 on SIGINT.
import { createServer } from 'node:net';
import { Command } from 'commander';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import {
  activityOf,
  register,
  renderStatus,
  runStatus,
  shortId,
  StatusFetchError,
  table,
} from '../../src/cli/status.js';
import { statusViewSchema } from '../../src/runtime/ops/status-view.js';
import { opsHarness, type OpsHarness } from '../runtime/ops/ops-harness.js';
import { NodeChild, reapChildren, TS_LOADER } from '../support/child.js';

let h: OpsHarness | null = null;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await reapChildren();
  await h?.close();
  h = null;
  for (const c of cleanups.splice(0)) await c();
  vi.restoreAllMocks();
});

async function printed(opts: Parameters<typeof runStatus>[0]): Promise<string> {
  let out = '';
  await runStatus(opts, {
    write: (t) => {
      out += t;
    },
  });
  return out;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((res) => s.listen(0, '127.0.0.1', res));
  const addr = s.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  await new Promise<void>((res) => s.close(() => res()));
  return port;
}

async function fakeServer(code: number, body: unknown): Promise<string> {
  const app = Fastify();
  app.get('/status', async (_req, reply) => reply.code(code).send(body));
  await app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => app.close());
  const addr = app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
}

describe('oddsmaker status', () => {
  it('prints the status as a table', async () => {
    h = await opsHarness();
    await h.start();
    const text = await printed({ url: h.server.url });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^oddsmaker {4}sandbox · daemon running · strategy traced-bands · quoting {3}\(2026-01-05T12:00:00\.000Z\)$/,
    );
    expect(lines).toContain('health       ok');
    expect(lines).toContain('kill switch  armed');
    expect(lines).toContain('circuit      closed (order entry closed, market data closed; 0 failed polls in a row)');
    expect(lines).toContain(
      'pnl          daily 0 · realized 0 · unrealized 0 · fees 0 · total 0 · free collateral 1000',
    );
    const markets = lines.indexOf('MARKETS (2)');
    expect(lines[markets + 1]).toMatch(
      /^MARKET\s+QUESTION\s+DATA\s+QUOTES\s+ORDERS\s+MIDS\s+POSITION\s+REALIZED\s+UNREALIZED\s+FEES$/,
    );
    expect(lines[markets + 2]).toMatch(/^m1\s+.*fresh\s+6\s+6\s+0\.5 \/ 0\.5\s+0 \/ 0\s+0\s+0\s+0$/);
    expect(lines[markets + 3]).toMatch(/^m2\s/);
    const orders = lines.indexOf('OPEN ORDERS (12)');
    expect(orders).toBeGreaterThan(markets);
    const rows = lines.slice(orders + 2, orders + 14);
    expect(
      rows.every((r) =>
        /^0x0000…[0-9a-f]{4}\s+m[12]\s+m[12]-(yes|no)\s+BUY\s+0\.\d+\s+\d+(\.\d+)?\s+0\s+live\s+0ms$/.test(r),
      ),
      rows.join('\n'),
    ).toBe(true);
    // Columns line up: every row of the orders table has its PRICE column at the same place.
    const priceAt = (lines[orders + 1] as string).indexOf('PRICE');
    expect(rows.every((r) => /\d/.test(r.slice(priceAt - 1, priceAt + 5)))).toBe(true);
    expect(lines).toContain('POSITIONS (0)');
  });

  it('shows an unhealthy daemon and its reasons; positions after a fill; --orders caps the list', async () => {
    h = await opsHarness();
    await h.start();
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.side === 'BUY')!;
    h.executor.fill(bid.id, 10_000_000);
    await h.daemon.tripKillSwitch('daily loss');
    const text = await printed({ url: `${h.server.url}/`, orders: '3' });
    expect(text).toContain('health       UNHEALTHY: kill switch tripped: daily loss');
    expect(text).toMatch(/kill switch {2}TRIPPED at 2026-01-05T12:00:00\.000Z: daily loss/);
    // The header says what the daemon is doing: halted by the kill switch, not "quoting".
    expect(text.split('\n')[0]).toMatch(/ · halted \(kill switch\) {3}\(/);
    expect(text.split('\n')[0]).not.toMatch(/ · quoting /);
    expect(statusViewSchema.parse((await h.get('/status')).json()).quoting).toBe(false);
    expect(text).toContain('POSITIONS (1)');
    expect(text).toMatch(/\nm1-yes\s+m1\s+10\s+10\s+0\.\d+\s+0\.5\s/); // size, pending (no trades route here), avg price, mark
    // The kill switch pulled every quote: no orders to list. Fill a fresh daemon to test --orders.
    await h.close();
    h = await opsHarness();
    await h.start();
    const capped = await printed({ url: h.server.url, orders: '3' });
    expect(capped).toContain('… and 9 more (--orders N to list more, --json for all)');
  });

  it('--json prints the document itself', async () => {
    h = await opsHarness();
    await h.start();
    const text = await printed({ url: h.server.url, json: true });
    const doc = statusViewSchema.parse(JSON.parse(text));
    expect(doc.openOrders).toBe(12);
    expect(doc.markets.map((m) => m.conditionId)).toEqual(['m1', 'm2']);
  });

  it('runs through commander with --url, and the default URL is the config default', async () => {
    h = await opsHarness();
    await h.start();
    const program = new Command().exitOverride();
    register(program);
    const cmd = program.commands.find((c) => c.name() === 'status');
    expect(cmd?.options.find((o) => o.long === '--url')?.defaultValue).toBe('http://127.0.0.1:9464');
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    await program.parseAsync(['node', 'oddsmaker', 'status', '--url', h.server.url]);
    expect(out).toContain('OPEN ORDERS (12)');
  });

  it('fails clearly when nothing listens, on an error status, or on a document that is not a status', async () => {
    const port = await freePort();
    await expect(printed({ url: `http://127.0.0.1:${port}` })).rejects.toThrow(StatusFetchError);
    await expect(printed({ url: `http://127.0.0.1:${port}` })).rejects.toThrow(
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/status/,
    );
    const down = await fakeServer(503, { error: 'down' });
    await expect(printed({ url: down })).rejects.toThrow(/answered 503/);
    const other = await fakeServer(200, { hello: 'world' });
    await expect(printed({ url: other })).rejects.toThrow(/unexpected status document \(time: /);
  });

  it('usage errors: a URL that is not one, --orders that is not a number', async () => {
    await expect(printed({ url: 'localhost:9464' })).rejects.toThrow(UsageError);
    await expect(printed({ url: 'not a url' })).rejects.toThrow(UsageError);
    await expect(printed({ url: 'http://127.0.0.1:1', orders: 'ten' })).rejects.toThrow(
      /--orders must be a whole number/,
    );
  });
});

describe('rendering helpers', () => {
  it('names what the daemon is doing: the kill switch first, then a strategy halt, a pause, an open circuit', async () => {
    h = await opsHarness();
    await h.start();
    const v = statusViewSchema.parse((await h.get('/status')).json());
    expect(activityOf(v)).toBe('quoting');
    const tripped = { ...v, killSwitch: { tripped: true, reason: 'x', trippedAt: v.time } };
    // Even a daemon that still reports quoting: true is shown halted while its kill switch is tripped.
    expect(activityOf(tripped)).toBe('halted (kill switch)');
    expect(activityOf({ ...tripped, paused: true, halted: 'boom' })).toBe('halted (kill switch)');
    expect(activityOf({ ...v, quoting: false, halted: 'boom' })).toBe('halted (strategy error)');
    expect(activityOf({ ...v, quoting: false, paused: true })).toBe('paused');
    expect(activityOf({ ...v, quoting: false, circuitBreaker: { ...v.circuitBreaker, state: 'open' } })).toBe(
      'halted (circuit breaker)',
    );
    expect(activityOf({ ...v, state: 'stopped' })).toBe('not quoting');
  });

  it('shortens long ids and aligns columns (numbers right)', () => {
    expect(shortId(`0x${'ab'.repeat(32)}`)).toBe('0xabab…abab');
    expect(shortId('m1-yes')).toBe('m1-yes');
    expect(
      table(
        ['A', 'NUM'],
        [
          ['x', '1'],
          ['long', '100'],
        ],
        [false, true],
      ),
    ).toEqual(['A     NUM', 'x       1', 'long  100']);
  });

  it('renders a stopped daemon (unknown PnL as -)', async () => {
    h = await opsHarness();
    await h.start();
    await h.daemon.stop();
    const view = statusViewSchema.parse((await h.get('/status')).json());
    const text = renderStatus(view);
    expect(text).toContain('daemon stopped');
    expect(text).toContain(
      'pnl          daily 0 · realized - · unrealized - · fees - · total - · free collateral 1000',
    );
    // Markets awaiting their resolution get a line only when there are some.
    expect(text).not.toContain('resolution   awaiting');
    const waiting = renderStatus({ ...view, awaitingResolution: [`0x${'cd'.repeat(32)}`, 'm7'] });
    expect(waiting).toContain('resolution   awaiting 2: 0xcdcd…cdcd, m7');
  });
});

describe('oddsmaker status --watch', () => {
  it('re-renders on each refresh (one block each on a pipe, the screen cleared on a terminal) until the signal ends it', async () => {
    h = await opsHarness();
    await h.start();
    const stop = new AbortController();
    const writes: string[] = [];
    const waits: number[] = [];
    // The sleep is the seam: the daemon moves (a pause) between the first and second refresh.
    const sleep = async (ms: number): Promise<void> => {
      waits.push(ms);
      if (waits.length === 1) h!.daemon.pause();
      if (waits.length === 3) stop.abort();
    };
    await runStatus(
      { url: h.server.url, watch: true, intervalMs: '250' },
      {
        write: (t) => {
          writes.push(t);
        },
        signal: stop.signal,
        sleep,
      },
    );
    expect(waits).toEqual([250, 250, 250]);
    expect(writes.length).toBe(3);
    expect(writes[0]).toMatch(/^oddsmaker .* · quoting /);
    expect(writes[1]).toMatch(/^\noddsmaker .* · paused /);
    expect(writes.every((w) => !w.includes('\x1b['))).toBe(true);

    const tty: string[] = [];
    const stop2 = new AbortController();
    await runStatus(
      { url: h.server.url, watch: true, intervalMs: '100' },
      {
        write: (t) => {
          tty.push(t);
        },
        tty: true,
        signal: stop2.signal,
        sleep: async () => {
          if (tty.length === 2) stop2.abort();
        },
      },
    );
    expect(tty.length).toBe(2);
    expect(tty.every((w) => w.startsWith('\x1b[2J\x1b[Hoddsmaker '))).toBe(true);
  });

  it('a daemon that cannot be read is a line of the refresh, and the watch goes on', async () => {
    const port = await freePort();
    const stop = new AbortController();
    const writes: string[] = [];
    await runStatus(
      { url: `http://127.0.0.1:${port}`, watch: true, intervalMs: '100' },
      {
        write: (t) => {
          writes.push(t);
        },
        signal: stop.signal,
        sleep: async () => {
          if (writes.length === 2) stop.abort();
        },
      },
    );
    expect(writes.length).toBe(2);
    expect(writes[0]).toMatch(/^status unavailable: cannot reach http:\/\/127\.0\.0\.1:\d+\/status/);
  });

  it('usage errors: --interval-ms not a number, too small, or without --watch', async () => {
    await expect(printed({ url: 'http://127.0.0.1:1', watch: true, intervalMs: 'soon' })).rejects.toThrow(
      /--interval-ms must be a whole number/,
    );
    await expect(printed({ url: 'http://127.0.0.1:1', watch: true, intervalMs: '5' })).rejects.toThrow(/at least 100/);
    await expect(printed({ url: 'http://127.0.0.1:1', intervalMs: '500' })).rejects.toThrow(
      /--interval-ms goes with --watch/,
    );
  });

  it('the CLI prints at least two refreshes and exits 0 on SIGINT', async () => {
    h = await opsHarness();
    await h.start();
    const child = new NodeChild(
      'src/cli/main.ts',
      ['status', '--watch', '--interval-ms', '200', '--url', h.server.url],
      { nodeArgs: ['--import', TS_LOADER] },
    );
    let headers = 0;
    await child.waitFor(
      (l) => {
        if (typeof l.msg === 'string' && l.msg.startsWith('oddsmaker    sandbox · daemon running')) headers += 1;
        return headers >= 2;
      },
      'two status refreshes',
      30_000,
    );
    const r = await child.stop(10_000, 'SIGINT');
    expect(r.killedAfterBound).toBe(false);
    expect(r.exit).toEqual({ code: 0, signal: null });
    expect(child.allText()).not.toContain('\x1b[2J'); // a pipe, not a terminal: no screen clearing
  }, 60_000);
});

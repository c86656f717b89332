// The ops console's server side, against the daemon on the virtual clock (ops-harness): the page
// and its static files answer with their types, caching and security headers (fastify's inject);
// the snapshot has every field the page reads, built from the daemon's own state (markets by
// question, tokens by outcome, book levels with our resting size, positions, PnL, fills, limiter
// windows); GET /events streams the series then a snapshot on connect and one per second of the
// clock, over real HTTP, and ends when the server closes; the series ring is bounded and sampled
// on the clock. The browser side is test/e2e/console.test.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { formatMicros } from '../../../src/core/money.js';
import type { ConsoleView } from '../../../src/runtime/ops/console-view.js';
import { CONSOLE_CSP, MAX_STREAMS } from '../../../src/runtime/ops/console-routes.js';
import { SeriesRing } from '../../../src/runtime/ops/series.js';
import { T0 } from '../../marketdata/helpers.js';
import { opsHarness, type OpsHarness } from './ops-harness.js';

let h: OpsHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const uplotFile = (name: string): Buffer => readFileSync(createRequire(import.meta.url).resolve(`uplot/dist/${name}`));

async function snapshot(x: OpsHarness): Promise<ConsoleView> {
  const r = await x.server.app.inject({ method: 'GET', url: '/console/snapshot' });
  expect(r.statusCode).toBe(200);
  expect(r.headers['cache-control']).toBe('no-store');
  return r.json<ConsoleView>();
}

/** Reads server-sent events off a real HTTP stream, one at a time. */
async function events(url: string) {
  const res = await request(url);
  const decoder = new TextDecoder();
  const it = res.body[Symbol.asyncIterator]();
  let buf = '';
  return {
    res,
    async next(): Promise<{ event: string; data: string } | null> {
      for (;;) {
        const cut = buf.indexOf('\n\n');
        if (cut >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) return { event, data };
          continue; // the retry line
        }
        const r = await it.next();
        if (r.done === true) return null;
        buf += decoder.decode(r.value as Uint8Array, { stream: true });
      }
    },
  };
}

describe('the console page and its static files', () => {
  it('GET / is the page: HTML, never cached, under a same-origin Content-Security-Policy, loading its script and uPlot from this server', async () => {
    h = await opsHarness();
    const r = await h.server.app.inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.body).toContain('<script src="/console/uplot.js" defer></script>');
    expect(r.body).toContain('<script src="/console/app.js" defer></script>');
    expect(r.body).toContain('href="/console/uplot.css"');
    // Nothing from another host: no CDN, the page works offline.
    expect(r.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(r.body).not.toMatch(/<script>/);
  });

  it('the script, the style and uPlot (from the installed package) answer with their types, no-cache and an ETag that revalidates', async () => {
    h = await opsHarness();
    const cases: Array<[string, string, Buffer | null]> = [
      ['/console/app.js', 'text/javascript; charset=utf-8', null],
      ['/console/app.css', 'text/css; charset=utf-8', null],
      ['/console/uplot.js', 'text/javascript; charset=utf-8', uplotFile('uPlot.iife.min.js')],
      ['/console/uplot.css', 'text/css; charset=utf-8', uplotFile('uPlot.min.css')],
    ];
    for (const [url, type, bytes] of cases) {
      const r = await h.server.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type'], url).toBe(type);
      expect(r.headers['cache-control'], url).toBe('no-cache');
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
      const etag = r.headers['etag'];
      expect(etag, url).toMatch(/^"[A-Za-z0-9_-]+"$/);
      if (bytes !== null) expect(r.rawPayload.equals(bytes), url).toBe(true);
      else expect(r.body.length, url).toBeGreaterThan(100);
      const again = await h.server.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(etag) } });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
      const stale = await h.server.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"other"' } });
      expect(stale.statusCode, url).toBe(200);
    }
  });

  it('the other routes keep no-store (a live value is never cached)', async () => {
    h = await opsHarness();
    for (const url of ['/healthz', '/status', '/metrics', '/console/series']) {
      const r = await h.server.app.inject({ method: 'GET', url });
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('the console snapshot', () => {
  it('has every field the page reads: status, markets by question with outcomes, books and our quotes in them, positions, PnL, fills, limiter, the chart sample', async () => {
    h = await opsHarness();
    await h.start();
    (await h.limiter.acquire('POST /order', { priority: 'new', api: 'clob' })).release();
    const v = await snapshot(h);
    expect(v.time).toBe(new Date(T0).toISOString());
    // The daemon-wide part, as /status has it.
    expect(v.status).toMatchObject({
      mode: 'sandbox',
      state: 'running',
      strategy: 'traced-bands',
      paused: false,
      halted: null,
      quoting: true,
      health: { healthy: true, reasons: [] },
      killSwitch: { tripped: false, reason: null },
      circuitBreaker: { orderEntry: 'closed', marketData: 'closed', consecutivePollFailures: 0 },
      pnl: { total: '0', realized: '0', unrealized: '0', fees: '0', daily: '0', freeCollateral: '1000' },
      cycles: 1,
      openOrders: 12,
    });
    expect(v.status).not.toHaveProperty('orders');
    // (The fake venue's settings carry no question; the end-to-end test sees the simulator's.)
    expect(v.markets.map((m) => m.question)).toEqual(
      h.daemon
        .marketData()
        .markets()
        .map((m) => m.settings.question),
    );
    const m1 = v.markets[0]!;
    expect(m1).toMatchObject({
      conditionId: 'm1',
      stale: false,
      quotes: 6,
      openOrders: 6,
      pnl: { realized: '0', unrealized: '0', fees: '0' },
    });
    expect(m1.tokens.map((t) => t.outcome)).toEqual(['Yes', 'No']);
    const yes = m1.tokens[0]!;
    expect(yes).toMatchObject({
      tokenId: 'm1-yes',
      mid: '0.5',
      position: '0',
      avgPrice: null,
      bookAt: new Date(T0).toISOString(),
    });
    expect(yes.bids.length).toBeGreaterThan(0);
    expect(yes.bids.length).toBeLessThanOrEqual(5);
    // Best first on each side.
    const bidPrices = yes.bids.map((l) => Number(l.price));
    expect([...bidPrices].sort((a, b) => b - a)).toEqual(bidPrices);
    const askPrices = yes.asks.map((l) => Number(l.price));
    expect([...askPrices].sort((a, b) => a - b)).toEqual(askPrices);
    // Our quotes: each live order of the token listed, and its size shown at its level when the level is shown.
    const mine = h.executor.liveOrders().filter((o) => o.tokenId === 'm1-yes');
    expect(yes.orders.map((o) => o.id).sort()).toEqual(mine.map((o) => o.id).sort());
    for (const o of mine) {
      const side = o.side === 'BUY' ? yes.bids : yes.asks;
      const at = side.find((l) => l.price === formatMicros(o.price));
      if (at !== undefined)
        expect(Number(at.ours)).toBeGreaterThanOrEqual(Number(formatMicros(o.originalSize - o.sizeMatched)));
    }
    const shownOurs = [...yes.bids, ...yes.asks].filter((l) => l.ours !== '0');
    expect(shownOurs.length).toBeGreaterThan(0);
    for (const l of shownOurs) {
      const resting = mine
        .filter((o) => formatMicros(o.price) === l.price)
        .reduce((n, o) => n + o.originalSize - o.sizeMatched, 0);
      expect(l.ours).toBe(formatMicros(resting));
    }
    expect(v.fills).toEqual([]);
    expect(v.limiter?.up).toBe(true);
    expect(v.limiter?.routes).toEqual([
      expect.objectContaining({ route: 'POST /order', api: 'clob', queued: 0, pausedForMs: 0 }),
    ]);
    const route = v.limiter!.routes[0]!;
    expect(route.windows.length).toBeGreaterThan(0);
    expect(route.utilisation).toBe(Math.max(...route.windows.map((w) => w.utilisation)));
    expect(route.utilisation).toBeGreaterThan(0);
    expect(v.point).toEqual({ t: T0 / 1000, equity: 0, inventory: 0 });
  });

  it('a fill shows in the fills (newest first, by question and outcome), the position and the chart sample of the next second', async () => {
    h = await opsHarness();
    await h.start();
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.side === 'BUY')!;
    h.executor.fill(bid.id, 10_000_000, 20_000);
    await h.clock.advanceAsync(1_000);
    const v = await snapshot(h);
    expect(v.fills).toHaveLength(1);
    expect(v.fills[0]).toMatchObject({
      conditionId: 'm1',
      tokenId: 'm1-yes',
      question: v.markets[0]!.question,
      outcome: 'Yes',
      side: 'BUY',
      price: formatMicros(bid.price),
      size: '10',
      fee: '0.02',
    });
    expect(v.markets[0]!.tokens[0]!.position).toBe('10');
    expect(v.status.pnl.fees).toBe('0.02');
    expect(v.point).toMatchObject({ t: (T0 + 1_000) / 1000, inventory: 10 });
    expect(v.point!.equity).toBeCloseTo(Number(v.status.pnl.total), 6);

    const bid2 = h.executor.ordersOf('m2-no').find((o) => o.side === 'BUY')!;
    h.executor.fill(bid2.id, 5_000_000, 0);
    await h.clock.advanceAsync(1_000);
    const w = await snapshot(h);
    expect(w.fills.map((f) => f.tokenId)).toEqual(['m2-no', 'm1-yes']);
    expect(w.fills[0]!.seq).toBeGreaterThan(w.fills[1]!.seq);
    expect(w.fills[0]).toMatchObject({ outcome: 'No', question: w.markets[1]!.question });
  });

  it('the series is sampled every second of the clock, PnL and shares held, in GET /console/series', async () => {
    h = await opsHarness();
    await h.start();
    await h.clock.advanceAsync(3_000);
    const r = await h.server.app.inject({ method: 'GET', url: '/console/series' });
    const cols = r.json<{ t: number[]; equity: number[]; inventory: number[] }>();
    expect(cols.t).toEqual([0, 1, 2, 3].map((s) => T0 / 1000 + s));
    expect(cols.equity).toEqual([0, 0, 0, 0]);
    expect(cols.inventory).toEqual([0, 0, 0, 0]);
  });
});

describe('after the daemon stopped', () => {
  it('the snapshot still answers (PnL unknown: null, not zero) and the series takes no made-up sample', async () => {
    h = await opsHarness();
    await h.start();
    await h.clock.advanceAsync(1_000);
    await h.daemon.stop();
    const before = (await h.server.app.inject({ method: 'GET', url: '/console/series' })).json<{ t: number[] }>().t;
    await h.clock.advanceAsync(3_000);
    const after = (await h.server.app.inject({ method: 'GET', url: '/console/series' })).json<{ t: number[] }>().t;
    expect(after).toEqual(before);
    const v = await snapshot(h);
    expect(v.status.state).toBe('stopped');
    expect(v.status.pnl.total).toBeNull();
    expect(v.markets.every((m) => m.pnl === null)).toBe(true);
  });
});

describe('GET /events', () => {
  it('streams the series and a snapshot at once, then a snapshot every second; ends when the server closes', async () => {
    h = await opsHarness();
    await h.start();
    const s = await events(`${h.server.url}/events`);
    expect(s.res.statusCode).toBe(200);
    expect(s.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(s.res.headers['cache-control']).toBe('no-store');
    const first = await s.next();
    expect(first?.event).toBe('series');
    expect(JSON.parse(first!.data)).toEqual({ t: [T0 / 1000], equity: [0], inventory: [0] });
    const now = await s.next();
    expect(now?.event).toBe('snapshot');
    expect((JSON.parse(now!.data) as ConsoleView).time).toBe(new Date(T0).toISOString());

    const bid = h.executor.ordersOf('m1-yes').find((o) => o.side === 'BUY')!;
    h.executor.fill(bid.id, 10_000_000, 0);
    await h.clock.advanceAsync(1_000);
    const next = await s.next();
    expect(next?.event).toBe('snapshot');
    const v = JSON.parse(next!.data) as ConsoleView;
    expect(v.time).toBe(new Date(T0 + 1_000).toISOString());
    expect(v.fills).toHaveLength(1);
    expect(v.point).toMatchObject({ t: (T0 + 1_000) / 1000, inventory: 10 });

    await h.server.close(); // does not wait for the page to go away
    expect(await s.next()).toBeNull();
  });

  it(`holds at most ${MAX_STREAMS} streams: one more is refused (503) until a page goes away`, async () => {
    h = await opsHarness();
    await h.start();
    const open = [];
    for (let i = 0; i < MAX_STREAMS; i++) {
      const s = await events(`${h.server.url}/events`);
      expect((await s.next())?.event).toBe('series');
      open.push(s);
    }
    const refused = await h.server.app.inject({ method: 'GET', url: '/events' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ error: expect.stringContaining('too many console streams') });
    open[0]!.res.body.destroy();
    const deadline = Date.now() + 5_000;
    let again = await events(`${h.server.url}/events`);
    while (again.res.statusCode === 503 && Date.now() < deadline) {
      again.res.body.destroy();
      await new Promise((r) => setImmediate(r));
      again = await events(`${h.server.url}/events`);
    }
    expect(again.res.statusCode).toBe(200);
  });

  it('no stream, no snapshot work: the ticker only samples the series', async () => {
    h = await opsHarness();
    await h.start();
    const built: number[] = [];
    const spy = h.daemon.marketData.bind(h.daemon);
    h.daemon.marketData = () => {
      built.push(h!.clock.now());
      return spy();
    };
    await h.clock.advanceAsync(5_000);
    expect(built).toEqual([]);
  });
});

describe('SeriesRing', () => {
  it('keeps the newest `capacity` samples, oldest first, and refuses one older than the newest', () => {
    const r = new SeriesRing(3);
    for (let i = 0; i < 5; i++) expect(r.push({ t: i * 1000, equity: i, inventory: -i })).toBe(true);
    expect(r.size).toBe(3);
    expect(r.points().map((p) => p.t)).toEqual([2000, 3000, 4000]);
    expect(r.push({ t: 3500, equity: 9, inventory: 9 })).toBe(false);
    expect(r.push({ t: 4000, equity: 7, inventory: 7 })).toBe(true);
    expect(r.columns()).toEqual({ t: [3, 4, 4], equity: [3, 4, 7], inventory: [-3, -4, 7] });
    expect(r.last()).toEqual({ t: 4000, equity: 7, inventory: 7 });
    expect(() => new SeriesRing(0)).toThrow(/positive integer/);
  });
});

// Webhook notifications against a local receiver (node:http on 127.0.0.1): each format's body
// (json, slack, discord, telegram), the events a webhook asks for, the kill switch and circuit
// breaker transitions told once, start and stop, the fills summary in human units (only when
// there were fills), retries with backoff on the virtual clock, final answers not retried, the
// bounded queue dropping the oldest (counted in the metric), the URL never logged with its
// token, and the config's validation naming the path.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { redactUrlPath } from '../../src/core/redact-url.js';
import type { FillEvent } from '../../src/execution/fill-tracker.js';
import { Notifier, type NotifierOptions, type WatchedStatus } from '../../src/runtime/notify/notifier.js';
import { postJson, type PostJson } from '../../src/runtime/notify/post.js';

interface Received {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A receiver answering each request with the next planned status (then 200). */
class Receiver {
  readonly got: Received[] = [];
  plan: number[] = [];
  private waiters: Array<{ n: number; resolve: () => void }> = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let data = '';
      req.on('data', (c: Buffer) => {
        data += c.toString('utf8');
      });
      req.on('end', () => {
        this.got.push({ path: req.url ?? '', body: JSON.parse(data) as Record<string, unknown> });
        res.statusCode = this.plan.shift() ?? 200;
        res.end('{}');
        for (const w of this.waiters.filter((x) => this.got.length >= x.n)) w.resolve();
        this.waiters = this.waiters.filter((x) => this.got.length < x.n);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const a = this.server.address();
    this.url = `http://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}`;
  }

  /** Resolves once n requests have arrived (bounded, so a missing one fails the test). */
  received(n: number): Promise<void> {
    if (this.got.length >= n) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        reject(new Error(`only ${this.got.length} of ${n} requests arrived`));
      }, 5_000);
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => {
      this.server?.close(() => r());
    });
  }
}

const T0 = Date.UTC(2026, 0, 5, 12);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiver(): Promise<Receiver> {
  const r = new Receiver();
  await r.start();
  cleanups.push(() => r.close());
  return r;
}

function state(over: Partial<WatchedStatus> = {}): WatchedStatus {
  return {
    mode: 'sandbox',
    strategy: 'bands',
    state: 'running',
    killSwitch: { tripped: false, reason: null },
    circuitBreaker: { orderEntry: 'closed', marketData: 'closed' },
    ...over,
  };
}

interface Setup {
  clock: VirtualClock;
  n: Notifier;
  logs: Array<{ msg: string; obj: object }>;
  status: { s: WatchedStatus };
  registry: Registry;
  answers: Answers;
}

/** The real POST, and a way to wait until the sink has its nth answer (then it decides: retry or not). */
class Answers {
  readonly statuses: number[] = [];
  private waiters: Array<{ n: number; resolve: () => void }> = [];
  readonly post: PostJson = async (url, body, timeoutMs) => {
    const a = await postJson(url, body, timeoutMs);
    this.statuses.push(a.status);
    for (const w of this.waiters.filter((x) => this.statuses.length >= x.n)) w.resolve();
    return a;
  };

  answered(n: number): Promise<void> {
    if (this.statuses.length >= n) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        reject(new Error(`only ${this.statuses.length} of ${n} answers`));
      }, 5_000);
      this.waiters.push({
        n,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      });
    });
  }
}

function notifier(
  webhooks: unknown[],
  over: Partial<NotifierOptions> & { notify?: Record<string, unknown> } = {},
): Setup {
  const clock = new VirtualClock(T0);
  const logs: Array<{ msg: string; obj: object }> = [];
  const status = { s: state() };
  const registry = new Registry();
  const answers = new Answers();
  const config = configSchema.parse({ notify: { webhooks, ...over.notify } }).notify;
  const n = new Notifier({
    config,
    clock,
    log: {
      info: (obj, msg) => {
        logs.push({ msg, obj });
      },
      warn: (obj, msg) => {
        logs.push({ msg, obj });
      },
    },
    status: () => status.s,
    name: 'oddsmaker sandbox',
    random: () => 0.5,
    registry,
    post: answers.post,
    marketName: (t) => (t === 'tok-yes' ? 'Will it rain? · Yes' : undefined),
    ...over,
  });
  // Closing waits (bounded) on the virtual clock: the bound is passed by moving it.
  cleanups.push(async () => {
    const p = n.close(0);
    await clock.advanceAsync(0);
    await p;
  });
  return { clock, n, logs, status, registry, answers };
}

/** A fill; amounts in millionths (0.83 is 830_000). */
function fill(
  over: { tokenId?: string; side?: 'BUY' | 'SELL'; price?: number; size?: number; feeMicros?: number } = {},
): FillEvent {
  const size = (over.size ?? 1_520_000) as Shares;
  return {
    orderId: 'o1',
    tokenId: over.tokenId ?? 'tok-yes',
    conditionId: 'c1',
    side: over.side ?? 'BUY',
    price: (over.price ?? 830_000) as Price,
    size,
    cumulative: size,
    feeMicros: (over.feeMicros ?? 0) as Micros,
    feeKnown: true,
    liquidity: 'maker',
    source: 'lookup',
    timeMs: T0,
  };
}

describe('webhook notifications', () => {
  it("posts each format's body: json the event, slack {text}, discord {content}, telegram {chat_id, text}", async () => {
    const r = await receiver();
    const { clock, n, status } = notifier([
      { url: `${r.url}/json`, format: 'json' },
      { url: `${r.url}/services/T0/B0/slacktoken`, format: 'slack' },
      { url: `${r.url}/api/webhooks/1/discordtoken`, format: 'discord' },
      { url: `${r.url}/bot123:telegramtoken/sendMessage`, format: 'telegram', chatId: -100_42 },
    ]);
    n.start(); // the daemon runs: "started", once
    await r.received(4);
    status.s = state({ killSwitch: { tripped: true, reason: 'daily loss limit' } });
    await clock.advanceAsync(1_000);
    await r.received(8);
    await clock.advanceAsync(5_000); // no change: nothing more
    expect(r.got).toHaveLength(8);

    const trip = r.got.slice(4);
    const by = (p: string): Record<string, unknown> => trip.find((x) => x.path.startsWith(p))!.body;
    expect(by('/json')).toMatchObject({
      source: 'oddsmaker',
      daemon: 'oddsmaker sandbox',
      kind: 'kill-switch-tripped',
      reason: 'daily loss limit',
      at: '2026-01-05T12:00:01.000Z',
    });
    const text =
      '[oddsmaker sandbox] KILL SWITCH TRIPPED: daily loss limit. Every quote is pulled; clear it with `oddsmaker action clear`.';
    expect(by('/json').text).toBe(text);
    expect(by('/services')).toEqual({ text });
    expect(by('/api/webhooks')).toEqual({ content: text });
    expect(by('/bot123')).toEqual({ chat_id: -100_42, text });
    expect(r.got[0]!.body).toMatchObject({ kind: 'daemon-started', mode: 'sandbox', strategy: 'bands' });
  });

  it('tells each transition once (kill switch cleared, breakers opened and closed), only the events a webhook asks for, and "stopped" at close', async () => {
    const r = await receiver();
    const { clock, n, status } = notifier([
      { url: `${r.url}/all`, format: 'json' },
      { url: `${r.url}/breakers`, format: 'slack', events: ['circuit-opened', 'circuit-closed'] },
    ]);
    status.s = state({ state: 'starting' });
    n.start();
    await clock.advanceAsync(1_000);
    expect(r.got).toEqual([]); // not running yet: nothing to say
    status.s = state({ circuitBreaker: { orderEntry: 'closed', marketData: 'open' } });
    await clock.advanceAsync(1_000);
    status.s = state({ killSwitch: { tripped: true, reason: 'operator' } });
    await clock.advanceAsync(1_000);
    status.s = state();
    await clock.advanceAsync(3_000);
    await n.close(1_000);
    const all = r.got
      .filter((x) => x.path === '/all')
      .map((x) => [x.body.kind, x.body.breaker ?? x.body.reason ?? null]);
    expect(all).toEqual([
      // One read saw the switch trip and the breaker close: the switch is told first.
      ['daemon-started', null],
      ['circuit-opened', 'market data'],
      ['kill-switch-tripped', 'operator'],
      ['circuit-closed', 'market data'],
      ['kill-switch-cleared', null],
      ['daemon-stopped', null],
    ]);
    expect(r.got.filter((x) => x.path === '/breakers').map((x) => x.body.text)).toEqual([
      '[oddsmaker sandbox] market data circuit breaker OPEN: quoting stopped until the exchange answers again.',
      '[oddsmaker sandbox] market data circuit breaker closed: quoting resumes.',
    ]);
  });

  it('sends a fills summary every period in human units with market names, only when there were fills', async () => {
    const r = await receiver();
    const { clock, n } = notifier([{ url: `${r.url}/fills`, format: 'json', events: ['fills-summary'] }], {
      notify: { fillsSummaryMs: 60_000 },
    });
    n.start();
    n.onFill(fill());
    n.onFill(fill({ side: 'SELL', price: 840_000, size: 1_000_000, feeMicros: 1_234 }));
    n.onFill(fill({ tokenId: 'tok-other', size: 5_000_000 }));
    await clock.advanceAsync(60_000);
    await r.received(1);
    expect(r.got[0]!.body).toMatchObject({
      kind: 'fills-summary',
      fills: 3,
      fromAt: '2026-01-05T12:00:00.000Z',
      at: '2026-01-05T12:01:00.000Z',
      notional: '6.2516',
      fees: '0.001234',
      markets: [
        { market: 'Will it rain? · Yes', fills: 2, bought: '1.52', sold: '1' },
        { market: 'tok-other', fills: 1, bought: '5', sold: '0' },
      ],
    });
    expect(String(r.got[0]!.body.text)).toContain('• Will it rain? · Yes: 2 fills, bought 1.52, sold 1');
    await clock.advanceAsync(120_000); // two periods without fills: no summary
    await n.close(1_000);
    expect(r.got).toHaveLength(1);
  });

  it('retries a 5xx or 429 with backoff on the clock, and does not retry a 400', async () => {
    const r = await receiver();
    r.plan = [500, 429, 200];
    const { clock, n, logs, registry, answers } = notifier([{ url: `${r.url}/hook/secret-token`, format: 'slack' }], {
      notify: { maxAttempts: 3 },
    });
    n.start();
    await answers.answered(1);
    // Backoff with random 0.5: retry 1 waits 0.5 × 1 s; nothing is sent before the clock moves.
    await clock.advanceAsync(499);
    expect(r.got).toHaveLength(1);
    await clock.advanceAsync(1);
    await answers.answered(2);
    await clock.advanceAsync(999); // retry 2: 0.5 × 2 s
    expect(r.got).toHaveLength(2);
    await clock.advanceAsync(1);
    await answers.answered(3);
    expect(answers.statuses).toEqual([500, 429, 200]);
    expect(r.got.map((x) => x.body.text)).toEqual(
      Array(3).fill('[oddsmaker sandbox] started (sandbox, strategy bands).'),
    );
    const sink = n.sinks[0]!;
    await clock.advanceAsync(0);
    expect([sink.sent, sink.failed]).toEqual([1, 0]);

    r.plan = [400];
    n.onFill(fill());
    await clock.advanceAsync(900_000); // the summary period: answered 400, final
    await answers.answered(4);
    await clock.advanceAsync(60_000);
    expect(r.got).toHaveLength(4);
    expect([sink.sent, sink.failed]).toEqual([1, 1]);
    const failed = logs.filter((l) => l.msg === 'webhook message not delivered');
    expect(failed.map((l) => l.obj)).toEqual([
      { webhook: `${r.url}/***`, event: 'fills-summary', error: 'answered 400' },
    ]);
    expect((await registry.getSingleMetric('oddsmaker_notify_sent_total')!.get()).values[0]!.value).toBe(1);
    expect((await registry.getSingleMetric('oddsmaker_notify_failed_total')!.get()).values[0]!.value).toBe(1);
  });

  it("gives up after maxAttempts on a receiver that keeps failing, and never logs the URL's token", async () => {
    const r = await receiver();
    r.plan = [503, 503, 503];
    const { clock, n, logs, answers } = notifier(
      [{ url: `${r.url}/bot999:very-secret/sendMessage?token=abc`, format: 'telegram', chatId: '42' }],
      { notify: { maxAttempts: 2 } },
    );
    n.start();
    await answers.answered(1);
    await clock.advanceAsync(500);
    await answers.answered(2);
    await clock.advanceAsync(60_000);
    expect(r.got).toHaveLength(2);
    expect(r.got[0]!.path).toBe('/bot999:very-secret/sendMessage?token=abc');
    expect(n.sinks[0]!.failed).toBe(1);
    const text = JSON.stringify(logs);
    expect(text).toContain('webhook message not delivered');
    expect(text).toContain(`${r.url}/***`);
    expect(text).not.toContain('very-secret');
    expect(text).not.toContain('abc');
  });

  it('never blocks: a hung webhook keeps at most queueCap messages, dropping the oldest, counted', async () => {
    const posted: string[] = [];
    const hung: PostJson = async (_url, body) => {
      posted.push(body);
      return new Promise(() => undefined);
    };
    const { n, logs, registry } = notifier([{ url: 'https://hooks.example.com/services/X/Y/Z', format: 'json' }], {
      post: hung,
      notify: { queueCap: 2 },
    });
    n.start(); // "started" is being sent (and hangs)
    for (let i = 0; i < 5; i++) n.onFill(fill());
    const sink = n.sinks[0]!;
    // Five more events while the first hangs: the queue stays at its cap.
    for (const s of [true, false, true, false, true]) {
      sink.offer({
        kind: s ? 'kill-switch-tripped' : 'kill-switch-cleared',
        at: 'x',
        ...(s ? { reason: null } : {}),
      } as never);
    }
    expect(sink.pending).toBe(2);
    expect(sink.dropped).toBe(4);
    expect(posted).toHaveLength(1);
    expect((await registry.getSingleMetric('oddsmaker_notify_dropped_total')!.get()).values[0]!.value).toBe(4);
    expect(logs.filter((l) => l.msg.startsWith('webhook queue full'))).toHaveLength(1);
    expect(JSON.stringify(logs)).not.toContain('/services/X/Y/Z');
  });
});

describe('notify config', () => {
  it('validates webhooks, naming the path; a bad URL is shown without its token', () => {
    expect(configSchema.parse({}).notify).toMatchObject({ webhooks: [], fillsSummaryMs: 900_000 });
    expect(() =>
      validateConfig({
        notify: { webhooks: [{ url: 'https://api.telegram.org/botX/sendMessage', format: 'telegram' }] },
      }),
    ).toThrow(/notify\.webhooks\[0\]\.chatId: required with format "telegram"/);
    expect(() => validateConfig({ notify: { webhooks: [{ url: 'https://x.example', format: 'teams' }] } })).toThrow(
      /notify\.webhooks\[0\]\.format/,
    );
    expect(() => validateConfig({ notify: { webhooks: [{ url: 'https://x.example', events: ['lunch'] }] } })).toThrow(
      /notify\.webhooks\[0\]\.events\[0\]/,
    );
    let msg = '';
    try {
      validateConfig({ notify: { webhooks: [{ url: 'ftp://hooks.slack.com/services/T0/B0/sekrit' }] } });
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/notify\.webhooks\[0\]\.url: expected an http or https URL/);
    expect(msg).not.toContain('sekrit');
  });

  it('redactUrlPath keeps scheme, host and port only', () => {
    expect(redactUrlPath('https://hooks.slack.com/services/T0/B0/tok')).toBe('https://hooks.slack.com/***');
    expect(redactUrlPath('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/');
    expect(redactUrlPath('https://u:p@example.com/')).toBe('https://example.com/***');
    expect(redactUrlPath('nope')).toBe('(not a URL)');
  });
});

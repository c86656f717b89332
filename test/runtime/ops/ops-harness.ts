// The daemon of the runtime tests (fake venue, in-memory executor, real in-memory ledger, virtual
// clock) wired to the ops layer as modes.ts wires it: metrics hooked into the cycle, the executor
// (metered) and a real in-memory rate limiter (metered), and the ops server listening on
// 127.0.0.1:0. Requests are real HTTP over loopback; the daemon only moves when the test advances
// the virtual clock, so every check is deterministic.
import { request } from 'undici';
import { validateConfig } from '../../../src/config/load.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { Ledger } from '../../../src/ledger/index.js';
import { ClockRefreshScheduler } from '../../../src/marketdata/refresh-scheduler.js';
import { MemoryRateLimiter, resolveRateLimitConfig, type RateLimiter } from '../../../src/ratelimit/index.js';
import type { CycleReport } from '../../../src/runtime/cycle.js';
import { Daemon } from '../../../src/runtime/daemon.js';
import { createLogger } from '../../../src/runtime/logger.js';
import { OpsMetrics } from '../../../src/runtime/ops/metrics.js';
import { startOpsServer, type OpsServer } from '../../../src/runtime/ops/server.js';
import type { StrategyModule } from '../../../src/strategy/sdk.js';
import { T0 } from '../../marketdata/helpers.js';
import { FakeAccountGateway } from '../fake-account.js';
import { FakeExecutor } from '../fake-executor.js';
import { tracedBands, type LogLine } from '../harness.js';

export interface OpsHarnessOptions {
  /** The operator token the server is given (default none: actions disabled). */
  readonly token?: string | null;
  readonly markets?: readonly string[];
  readonly strategy?: StrategyModule;
  readonly rateLimit?: Record<string, unknown>;
  readonly config?: Record<string, unknown>;
  /** Also told every cycle report, after the metrics (tests of the daemon's hook). */
  readonly onCycle?: (r: CycleReport) => void;
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json(): Record<string, unknown>;
}

export async function opsHarness(opts: OpsHarnessOptions = {}) {
  const clock = new VirtualClock(T0);
  const markets = opts.markets ?? ['m1', 'm2'];
  const gw = new FakeAccountGateway(clock);
  for (const id of markets) gw.addMarket({ conditionId: id });
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const trace: string[] = [];
  const executor = new FakeExecutor(clock, ledger, trace);
  const lines: LogLine[] = [];
  const rawLines: string[] = [];
  const logger = createLogger({
    clock,
    pretty: false,
    base: null,
    level: 'debug',
    destination: {
      write: (l) => {
        rawLines.push(l);
        lines.push(JSON.parse(l) as LogLine);
      },
    },
  });
  const config = validateConfig({
    markets: { conditions: markets },
    poll: { intervalMs: 1_000, maxBookAgeMs: 3_000, orderLookupIntervalMs: 2_000 },
    risk: { dailyLossLimit: '10' },
    orders: { circuitBreakerFailures: 3, shutdownTimeoutMs: 5_000 },
    ...opts.config,
  });
  const metrics = new OpsMetrics();
  const limiter: RateLimiter = metrics.meterLimiter(
    new MemoryRateLimiter({ clock, config: resolveRateLimitConfig(opts.rateLimit ?? {}) }),
  );
  const metered = metrics.meterExecutor(executor);
  const daemon = new Daemon({
    config,
    clock,
    logger,
    gateway: gw,
    executor: metered,
    ledger,
    strategy: opts.strategy ?? tracedBands(trace),
    refreshScheduler: new ClockRefreshScheduler(clock, 600_000),
    onCycle: (r) => {
      metrics.onCycle(r);
      opts.onCycle?.(r);
    },
    limiter,
  });
  const server: OpsServer = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    clock,
    logger,
    daemon,
    executor: metered,
    ledger,
    metrics,
    operatorToken: opts.token ?? null,
    cancelTimeoutMs: config.orders.shutdownTimeoutMs,
  });

  async function call(
    method: 'GET' | 'POST' | 'HEAD',
    path: string,
    o: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    const res = await request(`${server.url}${path}`, {
      method,
      ...(o.headers !== undefined ? { headers: o.headers } : {}),
      ...(o.body !== undefined ? { body: o.body } : {}),
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: res.headers,
      text,
      json: () => JSON.parse(text) as Record<string, unknown>,
    };
  }
  const get = (path: string): Promise<Answer> => call('GET', path);
  /** POST /actions/<action>, with `Authorization: Bearer <token>` when a token is given. */
  const action = (name: string, token?: string, body?: Record<string, unknown>): Promise<Answer> =>
    call('POST', `/actions/${name}`, {
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  /** Starts the daemon and runs its first cycle. */
  async function start(): Promise<void> {
    await daemon.start();
    await clock.advanceAsync(0);
  }

  async function close(): Promise<void> {
    await server.close();
    await daemon.stop();
    await limiter.close();
  }

  return {
    clock,
    gw,
    ledger,
    executor,
    metered,
    daemon,
    metrics,
    limiter,
    server,
    lines,
    rawLines,
    config,
    trace,
    call,
    get,
    action,
    start,
    close,
  };
}

export type OpsHarness = Awaited<ReturnType<typeof opsHarness>>;

/** The value of one sample of a Prometheus text exposition (labels matched exactly), or undefined. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const got: Array<[string, string]> = [];
    for (const lm of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      got.push([lm[1] as string, lm[2] as string]);
    got.sort(([a], [b]) => a.localeCompare(b));
    if (JSON.stringify(got) === JSON.stringify(want)) return Number(m[3]);
  }
  return undefined;
}

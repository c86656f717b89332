// The quoting cycle's own cost and the daemon's memory over a long run. Prints:
// - `cycle_internal_p99_ms`: 500 tokens (250 binary markets), books and mids received → book
//   cache → strategy input → the real bands strategy → risk → reconcile → plan and market map
//   ready for the order manager. Only that internal part is timed (not the fetch, not the order
//   manager's sends). Each cycle moves the mids of 10% of the markets by a tick, so the plans
//   carry a realistic churn of cancels and placements. Target ≤ 5 ms.
// - `rss_growth_10k_cycles`: the whole Daemon (poller, cache, strategy, risk, reconcile, an
//   in-memory order executor, a file ledger, per-cycle log line to a silent logger) run for 10k
//   cycles on a virtual clock against the fake venue; RSS after 10k cycles over RSS after 1k,
//   each measured after a full GC (global.gc, exposed at run time through v8 flags when the runner
//   did not pass --expose-gc; without either, after a settle period). Target ≤ 1.05.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { validateConfig } from '../src/config/load.js';
import { VirtualClock } from '../src/core/clock.js';
import { KILL_SWITCH_ARMED } from '../src/execution/risk.js';
import { Ledger } from '../src/ledger/index.js';
import { BookCache } from '../src/marketdata/book-cache.js';
import { ClockRefreshScheduler } from '../src/marketdata/refresh-scheduler.js';
import { resolveUniverse } from '../src/marketdata/universe.js';
import {
  buildStrategyInput,
  marketsByToken,
  planCycle,
  type CycleContext,
  type CycleControl,
} from '../src/runtime/cycle.js';
import { Daemon } from '../src/runtime/daemon.js';
import { IncrementalReconciler } from '../src/runtime/incremental-reconcile.js';
import { capitalFromConfig, reconcileOptionsFromConfig, riskLimitsFromConfig } from '../src/runtime/limits.js';
import { createLogger } from '../src/runtime/logger.js';
import { silentLogger } from '../src/strategy/context.js';
import { bands } from '../strategies/bands/index.js';
import { FakeGateway } from '../test/support/fake-gateway.js';
import { FakeExecutor } from '../test/runtime/fake-executor.js';

const MARKETS = 250;
const T0 = Date.UTC(2026, 0, 5, 12);

function out(name: string, value: number, unit: string): void {
  process.stdout.write(`BENCH ${name} ${value.toFixed(3)} ${unit}\n`);
}

/** Deterministic LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

function venue(
  clock: VirtualClock,
  random: () => number,
): { gw: FakeGateway; mids: number[]; move: (share: number) => void } {
  const gw = new FakeGateway(clock);
  gw.recordCalls = false;
  const mids: number[] = [];
  for (let i = 0; i < MARKETS; i++) {
    gw.addMarket({ conditionId: `0x${i.toString(16).padStart(64, '0')}` });
    const mid = (20 + Math.floor(random() * 60)) * 10_000;
    mids.push(mid);
    gw.setMarketMid(`0x${i.toString(16).padStart(64, '0')}`, mid);
  }
  const move = (share: number): void => {
    const n = Math.round(MARKETS * share);
    for (let k = 0; k < n; k++) {
      const i = Math.floor(random() * MARKETS);
      const cur = mids[i] as number;
      const next = Math.min(900_000, Math.max(100_000, cur + (random() < 0.5 ? -10_000 : 10_000)));
      mids[i] = next;
      gw.setMarketMid(`0x${i.toString(16).padStart(64, '0')}`, next);
    }
  };
  return { gw, mids, move };
}

const benchConfig = (dir: string) =>
  validateConfig({
    markets: { selector: { max: MARKETS } },
    poll: { intervalMs: 1_000, maxBookAgeMs: 10_000, orderLookupIntervalMs: 2_000 },
    // Enough capital and exposure room for every bid of every token to pass risk.
    risk: { capital: '50000', maxTotalExposure: '50000' },
    ledger: { path: join(dir, 'ledger.sqlite') },
    log: { level: 'silent' },
  });

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

export async function internalLatency(dir: string): Promise<void> {
  const clock = new VirtualClock(T0);
  const random = rng(7);
  const { gw, move } = venue(clock, random);
  const config = benchConfig(dir);
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const cache = new BookCache({ maxBookAgeMs: config.poll.maxBookAgeMs });
  cache.setUniverse(await resolveUniverse(gw, config.markets));
  const executor = new FakeExecutor(clock, ledger);
  executor.recordInLedger = false;
  executor.keepHistory = false;
  const ctx: CycleContext = {
    clock,
    cache,
    executor,
    ledger,
    limits: riskLimitsFromConfig(config),
    capital: capitalFromConfig(config),
    reconciler: new IncrementalReconciler(reconcileOptionsFromConfig(config)),
    runner: bands.create({}, { clock, log: silentLogger }),
  };
  ctx.runner.start(buildStrategyInput(cache, clock.now(), new Map(), [], ctx.capital));
  const control: CycleControl = { quoting: true, killSwitch: KILL_SWITCH_ARMED, pollFills: false, fillSeq: 0 };
  const tokens = cache.tokenIds();
  const WARMUP = 200;
  const RUNS = 2_000;
  const times: number[] = [];
  let quotes = 0;
  let placements = 0;
  let cancels = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    move(0.1);
    clock.advance(1_000);
    const [books, mids] = await Promise.all([gw.getBooks(tokens), gw.getMidpoints(tokens)]);
    const t0 = performance.now();
    cache.apply({ receivedAtMs: clock.now(), books, mids });
    const planned = planCycle(ctx, control, clock.now());
    const markets = marketsByToken(cache);
    const dt = performance.now() - t0;
    await executor.apply(planned.plan, markets);
    if (i >= WARMUP) {
      times.push(dt);
      quotes += planned.risk.accepted.length;
      placements += planned.plan.placements.length;
      cancels += planned.plan.cancels.length;
    }
  }
  ledger.close();
  times.sort((a, b) => a - b);
  process.stdout.write(
    `# ${tokens.length} tokens, ${RUNS} cycles after ${WARMUP} warm-up; per cycle: ${(quotes / RUNS).toFixed(0)} quotes accepted, ${(placements / RUNS).toFixed(1)} placements, ${(cancels / RUNS).toFixed(1)} cancels\n`,
  );
  process.stdout.write(
    `# internal ms: p50 ${quantile(times, 0.5).toFixed(3)}, p90 ${quantile(times, 0.9).toFixed(3)}, p99 ${quantile(times, 0.99).toFixed(3)}, max ${(times[times.length - 1] as number).toFixed(3)}\n`,
  );
  out('cycle_internal_p99_ms', quantile(times, 0.99), 'ms');
}

/** A full GC: --expose-gc's, or one exposed now through v8 flags; null when neither works. */
function gcFunction(): (() => void) | null {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    setFlagsFromString('--expose-gc');
    const f = runInNewContext('gc') as unknown;
    return typeof f === 'function' ? (f as () => void) : null;
  } catch {
    return null;
  }
}

async function settledRss(gc: (() => void) | null): Promise<number> {
  if (gc !== null) {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
  } else {
    await new Promise((r) => setTimeout(r, 1_000)); // let the collector run on its own
  }
  return process.memoryUsage().rss;
}

export async function rssGrowth(dir: string): Promise<void> {
  const gc = gcFunction();
  const clock = new VirtualClock(T0);
  const random = rng(11);
  const { gw, move } = venue(clock, random);
  const config = benchConfig(dir);
  const ledger = Ledger.open(join(dir, 'ledger.sqlite'), { clock, synchronous: 'NORMAL' });
  const executor = new FakeExecutor(clock, ledger);
  executor.recordInLedger = false;
  executor.keepHistory = false;
  const logger = createLogger({ clock, level: 'silent', pretty: false, destination: { write: () => undefined } });
  const daemon = new Daemon({
    config,
    clock,
    logger,
    gateway: gw,
    executor,
    ledger,
    strategy: bands,
    refreshScheduler: new ClockRefreshScheduler(clock, 600_000),
  });
  await daemon.start();
  const t0 = performance.now();
  let rss1 = 0;
  for (let cycle = 1; cycle <= 10_000; cycle++) {
    move(0.1);
    await clock.advanceAsync(1_000);
    if (cycle === 1_000) rss1 = await settledRss(gc);
  }
  const rss10 = await settledRss(gc);
  const seconds = (performance.now() - t0) / 1000;
  const st = daemon.status();
  await daemon.stop();
  process.stdout.write(
    `# ${st.cycles} daemon cycles in ${seconds.toFixed(1)} s (${((seconds * 1000) / st.cycles).toFixed(2)} ms each, fetch by the fake venue included); ${st.openOrders} open orders at the end\n`,
  );
  process.stdout.write(
    `# RSS after 1k cycles ${(rss1 / 2 ** 20).toFixed(1)} MiB, after 10k ${(rss10 / 2 ** 20).toFixed(1)} MiB; GC ${gc === null ? 'not available: measured after a 1 s settle' : 'forced before each reading'}\n`,
  );
  out('rss_growth_10k_cycles', rss10 / rss1, 'ratio');
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oddsmaker-cycle-bench-'));
  try {
    await internalLatency(dir);
    await rssGrowth(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

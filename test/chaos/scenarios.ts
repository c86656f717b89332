// Chaos scenarios of issue 12, parameterised by size so that one module serves the scaled runs of
// the suite (chaos.test.ts) and the full-size `npm run chaos` (bench/chaos.ts). Owns the run of each
// scenario and the figures it returns; assertions live with the callers.
//   (a) kills: N SIGKILLs at seeded random moments, a restart after each, then a final SIGTERM;
//   (b) churn: M markets × L levels for T seconds with the ledger lag sampled, then SIGTERM;
//   (c) churn with a short maximum order age and (optionally) scaled trading-write budgets on both
//       the daemon's limiter and the simulator's edge, then SIGTERM.
// Every wait is on a log line or a process exit, with a bound. The only timers that are not bounds
// are the chaos itself (the scenario's running time, the seeded delay before a kill) and the lag
// sampler's cadence.
import { join } from 'node:path';
import { resolveRateLimitConfig } from '../../src/ratelimit/config.js';
import type { FlowIntensity } from '../../src/sim/venue/index.js';
import { LagSampler, orphansOf, reconcile, shares, type Reconciliation } from './compare.js';
import { tradingBudgets, writeDaemonConfig, type DaemonConfig, type TradingWindows } from './daemon-config.js';
import { prng, reconciliationFigures, stopFigures, type Figure, type RunResult } from './figures.js';
import { DaemonProcess, SimProcess, tempDir, type LogLine } from './harness.js';
import { exchangeOrders, exchangePositions, LedgerReader, readLedger, simState } from './truth.js';

const isStarted = (l: LogLine): boolean => l.msg === 'daemon started';

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Both sides, once the daemon is down. */
async function finalReconciliation(sim: SimProcess, cfg: DaemonConfig): Promise<Reconciliation> {
  const orders = await exchangeOrders(sim);
  const positions = await exchangePositions(sim);
  return reconcile(orders, readLedger(cfg.ledgerPath), positions);
}

function addProblems(into: Record<string, number>, d: DaemonProcess): void {
  for (const [k, v] of Object.entries(d.problems())) into[k] = (into[k] ?? 0) + v;
}

// ------------------------------------------------------------------------------------ (a) kills

export interface KillParams {
  readonly seed: number;
  readonly kills: number;
  readonly markets: number;
  readonly levels: number;
  /** Markets of the simulated world (more than `markets`: some do not accept orders). */
  readonly simMarkets?: number;
  readonly flow?: FlowIntensity;
  readonly pollIntervalMs?: number;
  readonly orderLookupIntervalMs?: number;
  readonly maxOrderAgeMs?: number;
  /** Cycles of the daemon before a kill is armed: from 1 to this (seeded). */
  readonly maxCyclesBeforeKill?: number;
  /** Cycles of the last run before its SIGTERM. */
  readonly finalCycles?: number;
  readonly shutdownTimeoutMs?: number;
  /** Bound of every wait for a log line. */
  readonly waitMs?: number;
}

/**
 * Cancelled orders of ours on the exchange that matched more than the ledger has recorded: each is
 * a final read the daemon still owes. With `seen`, only ids not in it (which are then added).
 */
async function owedReads(sim: SimProcess, ledgerPath: string, seen?: Set<string>): Promise<string[]> {
  const cancelled = await exchangeOrders(sim, 'CANCELED');
  const reader = new LedgerReader(ledgerPath);
  try {
    const out: string[] = [];
    for (const o of cancelled) {
      if (seen !== undefined) {
        if (seen.has(o.id)) continue;
        seen.add(o.id);
      }
      if (o.sizeMatched > reader.filledOf(o.id)) out.push(o.id);
    }
    return out;
  } finally {
    reader.close();
  }
}

/**
 * (a): each run is killed at a seeded moment of one of three kinds:
 * - start-up (15 %): a delay under 300 ms after the universe is resolved, while reconciliation runs;
 * - random (30 %): 1 to maxCyclesBeforeKill cycles in, plus a delay under one poll interval;
 * - targeted (55 %): after that, at once after the first cycle that cancelled something and after
 *   which the exchange shows a freshly cancelled order of ours that matched more than the ledger
 *   recorded (issue 12's window: a cancel answered, its final read not yet done); if none shows
 *   within 10 cycles, a delay under 500 ms after the tenth.
 * At every kill (process dead, ledger read) orphans and owed final reads are counted. After the
 * last kill a run is stopped with SIGTERM and the sides compared.
 */
export async function runKills(p: KillParams): Promise<RunResult> {
  const waitMs = p.waitMs ?? 60_000;
  const poll = p.pollIntervalMs ?? 500;
  const sim = await SimProcess.start({
    seed: p.seed,
    markets: p.simMarkets ?? Math.ceil(p.markets * 1.6) + 8,
    flow: p.flow ?? 'high',
  });
  const dir = tempDir();
  try {
    const cfg = writeDaemonConfig({
      dir,
      simUrl: sim.url,
      conditions: sim.openMarkets(p.markets),
      levels: p.levels,
      pollIntervalMs: poll,
      ...(p.orderLookupIntervalMs === undefined ? {} : { orderLookupIntervalMs: p.orderLookupIntervalMs }),
      ...(p.maxOrderAgeMs === undefined ? {} : { maxOrderAgeMs: p.maxOrderAgeMs }),
      ...(p.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: p.shutdownTimeoutMs }),
    });
    const rnd = prng(p.seed);
    const problems: Record<string, number> = {};
    const seenCancelled = new Set<string>();
    const kinds = { startup: 0, random: 0, targeted: 0, targetedHit: 0 };
    let orphansAtKills = 0;
    const owedAtKills = new Set<string>();
    let startupLookups = 0;
    for (let i = 0; i < p.kills; i++) {
      const d = new DaemonProcess(cfg.path, sim.account);
      const kind = rnd();
      const pause = rnd();
      if (kind < 0.15) {
        kinds.startup++;
        await d.waitFor((l) => l.msg === 'universe resolved', `run ${i}: universe resolved`, waitMs);
        await delay(Math.floor(pause * 300));
      } else {
        await d.waitFor(isStarted, `run ${i}: daemon started`, waitMs);
        await d.waitCycles(
          1 + Math.floor(rnd() * (p.maxCyclesBeforeKill ?? 6)),
          `run ${i}: cycles before the kill`,
          waitMs,
        );
        if (kind < 0.45) {
          kinds.random++;
          await delay(Math.floor(pause * poll));
        } else {
          kinds.targeted++;
          let hit = false;
          for (let c = 0; c < 10 && !hit && d.running; c++) {
            const cycle = await d.waitForNext((l) => l.msg === 'cycle', `run ${i}: a cycle`, waitMs).catch(() => null);
            if (cycle !== null && Number(cycle['cancelled']) > 0 && d.running)
              hit = (await owedReads(sim, cfg.ledgerPath, seenCancelled)).length > 0;
          }
          if (hit) kinds.targetedHit++;
          else await delay(Math.floor(pause * 500));
        }
      }
      if (!d.running)
        throw new Error(
          `run ${i}: the daemon exited by itself before its kill: ${d.stderr.slice(-5).join(' | ')}; ${JSON.stringify(d.lines.slice(-3))}`,
        );
      await d.kill();
      d.saveLog(join(dir, `daemon-${i}.log`));
      const rec = d.lines.find((l) => l.msg === 'startup reconciliation done');
      startupLookups += Number(rec?.['lookedUp'] ?? 0);
      addProblems(problems, d);
      orphansAtKills += orphansOf(await exchangeOrders(sim, 'LIVE'), readLedger(cfg.ledgerPath)).length;
      for (const id of await owedReads(sim, cfg.ledgerPath)) owedAtKills.add(id);
    }
    const last = new DaemonProcess(cfg.path, sim.account);
    await last.waitFor(isStarted, 'last run: daemon started', waitMs);
    await last.waitCycles(p.finalCycles ?? 6, 'last run: cycles before SIGTERM', waitMs);
    const stop = await last.stopDaemon(cfg.shutdownTimeoutMs + 30_000);
    last.saveLog(join(dir, `daemon-${p.kills}.log`));
    addProblems(problems, last);
    const r = await finalReconciliation(sim, cfg);
    const figures: Figure[] = [
      { name: 'kills', value: p.kills, unit: 'kills' },
      { name: 'kills_during_startup', value: kinds.startup, unit: 'kills' },
      { name: 'kills_random', value: kinds.random, unit: 'kills' },
      { name: 'kills_targeted', value: kinds.targeted, unit: 'kills' },
      { name: 'kills_targeted_in_window', value: kinds.targetedHit, unit: 'kills' },
      // Distinct cancelled orders whose matched size a killed daemon had not read yet (owed after
      // the kill: a restart must read them, or their fills are lost).
      { name: 'owed_final_reads_at_kills', value: owedAtKills.size, unit: 'orders' },
      { name: 'startup_lookups', value: startupLookups, unit: 'orders' },
      { name: 'orphans_at_kills', value: orphansAtKills, unit: 'orders' },
      ...reconciliationFigures(r),
      ...stopFigures(stop),
    ];
    return { figures, reconciliation: r, stop, problems, dir };
  } finally {
    await sim.stop();
  }
}

// ------------------------------------------------------------------------------------ (b), (c) churn

export interface ChurnParams {
  readonly seed: number;
  readonly markets: number;
  readonly levels: number;
  readonly durationMs: number;
  readonly simMarkets?: number;
  readonly flow?: FlowIntensity;
  readonly pollIntervalMs?: number;
  readonly orderLookupIntervalMs?: number;
  /** bands maxOrderAgeMs: a short one makes the daemon renew every order that often. */
  readonly maxOrderAgeMs?: number;
  /** Scaled trading-write budgets, the same on the daemon's limiter and the simulator's edge (omit: table 8). */
  readonly trading?: TradingWindows;
  readonly shutdownTimeoutMs?: number;
  /** Ledger lag sampling interval (0: no sampling). */
  readonly sampleIntervalMs?: number;
  readonly waitMs?: number;
}

/** (b) and (c): quote, churn for durationMs with the lag sampled, SIGTERM, compare. */
export async function runChurn(p: ChurnParams): Promise<RunResult> {
  const waitMs = p.waitMs ?? 90_000;
  const edge =
    p.trading === undefined ? undefined : resolveRateLimitConfig({ budgets: tradingBudgets(p.trading) }).budgets;
  const sim = await SimProcess.start({
    seed: p.seed,
    markets: p.simMarkets ?? Math.ceil(p.markets * 1.6) + 8,
    flow: p.flow ?? 'high',
    ...(edge === undefined ? {} : { budgets: edge }),
  });
  const dir = tempDir();
  try {
    const cfg = writeDaemonConfig({
      dir,
      simUrl: sim.url,
      conditions: sim.openMarkets(p.markets),
      levels: p.levels,
      ...(p.pollIntervalMs === undefined ? {} : { pollIntervalMs: p.pollIntervalMs }),
      ...(p.orderLookupIntervalMs === undefined ? {} : { orderLookupIntervalMs: p.orderLookupIntervalMs }),
      ...(p.maxOrderAgeMs === undefined ? {} : { maxOrderAgeMs: p.maxOrderAgeMs }),
      ...(p.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: p.shutdownTimeoutMs }),
      ...(p.trading === undefined ? {} : { trading: p.trading }),
    });
    const d = new DaemonProcess(cfg.path, sim.account);
    await d.waitFor(isStarted, 'daemon started', waitMs);
    await d.waitFor((l) => l.msg === 'cycle' && Number(l['openOrders']) > 0, 'resting quotes', waitMs);
    const sampler =
      (p.sampleIntervalMs ?? 500) > 0 ? new LagSampler(sim, cfg.ledgerPath, p.sampleIntervalMs ?? 500) : null;
    sampler?.start();
    const t0 = performance.now();
    // The churn itself: the run lasts durationMs unless the daemon dies first.
    let failure: unknown = null;
    let timer: NodeJS.Timeout | null = null;
    try {
      await Promise.race([
        new Promise<void>((r) => {
          timer = setTimeout(r, p.durationMs);
        }),
        d.exited.then((e) => {
          throw new Error(
            `the daemon exited during the churn (${String(e.code ?? e.signal)}): ${d.stderr.slice(-5).join(' | ')} ${JSON.stringify(d.lines.slice(-3))}`,
          );
        }),
      ]);
    } catch (e) {
      failure = e;
    }
    if (timer !== null) clearTimeout(timer);
    // Sampling stops before the SIGTERM: the lag figures are those of the running daemon.
    const lag = sampler === null ? null : await sampler.stop();
    if (failure !== null) throw failure;
    const churnSeconds = (performance.now() - t0) / 1000;
    const cyclesRun = d.cycles;
    const placed = d.lines.filter((l) => l.msg === 'cycle').reduce((s, l) => s + Number(l['placed'] ?? 0), 0);
    const cancelled = d.lines.filter((l) => l.msg === 'cycle').reduce((s, l) => s + Number(l['cancelled'] ?? 0), 0);
    const stop = await d.stopDaemon(cfg.shutdownTimeoutMs + 30_000);
    d.saveLog(join(dir, 'daemon.log'));
    const problems: Record<string, number> = {};
    addProblems(problems, d);
    const state = await simState(sim);
    const r = await finalReconciliation(sim, cfg);
    const figures: Figure[] = [
      { name: 'markets', value: p.markets, unit: 'markets' },
      { name: 'levels', value: p.levels, unit: 'levels' },
      { name: 'churn_seconds', value: churnSeconds, unit: 's' },
      { name: 'cycles', value: cyclesRun, unit: 'cycles' },
      { name: 'placed', value: placed, unit: 'orders' },
      { name: 'cancelled', value: cancelled, unit: 'orders' },
      ...(lag === null
        ? []
        : [
            { name: 'lag_samples', value: lag.samples, unit: 'samples' },
            { name: 'lag_sample_errors', value: lag.errors, unit: 'samples' },
            { name: 'max_ledger_lag_shares', value: shares(lag.maxShares), unit: 'shares' },
            { name: 'max_ledger_lag_seconds', value: lag.maxSeconds, unit: 's' },
          ]),
      { name: 'throttled_responses', value: state.throttled, unit: 'responses' },
      { name: 'rate_limit_closed_failures', value: countMatching(d, /RATE_LIMIT_CLOSED/), unit: 'lines' },
      ...reconciliationFigures(r),
      ...stopFigures(stop),
    ];
    return { figures, reconciliation: r, stop, problems, dir };
  } finally {
    await sim.stop();
  }
}

function countMatching(d: DaemonProcess, re: RegExp): number {
  return d.lines.filter((l) => re.test(JSON.stringify(l))).length;
}

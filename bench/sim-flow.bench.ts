// Benchmark of the synthetic order flow's cost to the simulator: what one 250 ms tick of flow
// costs in CPU (the flow's own work plus the engine work it causes: every requote, cancel and
// taker order) with 8, 100 and 500 markets at the `normal` intensity and 500 at `high`, and how
// many engine operations per second of flow time it sends per market. The HTTP venue must serve
// its own orders besides, so this is the budget the flow takes away from it.
// Markets alternate between ticks 0.01 and 0.001 with latents spread over (0.1, 0.9). Flow time
// moves with step() (no clock timers); one simulated minute warms up (funding, first ladders),
// then ten simulated minutes are timed, in 250 ms steps. Time is process CPU time (user +
// system), as in sim-engine.bench.ts, because wall time on the shared machine counts other people.
import { VirtualClock } from '../src/core/clock.js';
import type { Price, Shares } from '../src/core/money.js';
import { MatchingEngine } from '../src/sim/engine/engine.js';
import { FlowDriver } from '../src/sim/flow/driver.js';
import type { FlowIntensity } from '../src/sim/flow/params.js';

const TICK_MS = 250;
const WARMUP_MS = 60_000;
const TIMED_MS = 600_000;

interface Result {
  readonly markets: number;
  readonly intensity: FlowIntensity;
  readonly usPerTick: number;
  readonly speedup: number;
  readonly opsPerMarketSec: number;
  readonly submitted: number;
  readonly canceled: number;
  readonly trades: number;
  readonly events: number;
}

function measure(markets: number, intensity: FlowIntensity): Result {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const engine = new MatchingEngine({ clock, retainFinishedMs: 60_000 });
  const list = [];
  for (let i = 0; i < markets; i++) {
    const id = `bench-${i}`;
    engine.addMarket({
      conditionId: id,
      tokens: [`${id}-y`, `${id}-n`],
      tick: (i % 2 === 0 ? 10_000 : 1_000) as Price,
      minSize: 5_000_000 as Shares,
      makerFeeBps: 0,
      takerFeeBps: i % 5 === 0 ? 100 : 0,
      negRisk: false,
      acceptingOrders: true,
    });
    list.push({ conditionId: id, probability: 100_000 + ((i * 137_000) % 800_000) });
  }
  let trades = 0;
  engine.onTrade(() => {
    trades++;
  });
  const flow = new FlowDriver({ engine, clock, seed: 'bench', intensity, markets: list });
  for (let t = 0; t < WARMUP_MS; t += TICK_MS) flow.step(TICK_MS);
  const s0 = flow.stats();
  const tr0 = trades;
  const c0 = process.cpuUsage();
  for (let t = 0; t < TIMED_MS; t += TICK_MS) {
    flow.step(TICK_MS);
    // The venue's clock moves too, so GTD sweeps, pruning and order times behave as in service.
    clock.advance(TICK_MS);
  }
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const s1 = flow.stats();
  const submitted = s1.submitted - s0.submitted;
  const canceled = s1.canceled - s0.canceled;
  return {
    markets,
    intensity,
    usPerTick: (cpuMs * 1000) / (TIMED_MS / TICK_MS),
    speedup: TIMED_MS / cpuMs,
    opsPerMarketSec: (submitted + canceled) / markets / (TIMED_MS / 1000),
    submitted,
    canceled,
    trades: trades - tr0,
    events: s1.events - s0.events,
  };
}

export async function run(): Promise<void> {
  measure(20, 'normal'); // warm the JIT
  const cases: [number, FlowIntensity][] = [
    [8, 'normal'],
    [100, 'normal'],
    [500, 'normal'],
    [500, 'high'],
  ];
  const results = cases.map(([n, i]) => measure(n, i));
  for (const r of results) {
    process.stdout.write(
      `# ${r.markets} markets, ${r.intensity}: ${r.usPerTick.toFixed(0)} µs CPU per ${TICK_MS} ms tick (${(r.usPerTick / r.markets).toFixed(1)} µs per market), ` +
        `${r.speedup.toFixed(0)}× real time; per simulated minute ${Math.round(r.submitted / 10)} orders, ${Math.round(r.canceled / 10)} cancels, ` +
        `${Math.round(r.trades / 10)} trades, ${Math.round(r.events / 10)} tasks; ${r.opsPerMarketSec.toFixed(2)} engine ops per market per second\n`,
    );
  }
  const by = (n: number, i: FlowIntensity): Result =>
    results.find((r) => r.markets === n && r.intensity === i) as Result;
  process.stdout.write(`BENCH sim_flow_tick_cpu_8_markets ${by(8, 'normal').usPerTick.toFixed(0)} us\n`);
  process.stdout.write(`BENCH sim_flow_tick_cpu_500_markets ${by(500, 'normal').usPerTick.toFixed(0)} us\n`);
  process.stdout.write(`BENCH sim_flow_tick_cpu_500_markets_high ${by(500, 'high').usPerTick.toFixed(0)} us\n`);
  process.stdout.write(
    `BENCH sim_flow_cpu_share_500_markets ${((by(500, 'normal').usPerTick / (TICK_MS * 1000)) * 100).toFixed(2)} %\n`,
  );
  process.stdout.write(`BENCH sim_flow_engine_ops_per_market ${by(100, 'normal').opsPerMarketSec.toFixed(2)} ops/s\n`);
}

// The backtester's speed on the workload the anchors publish (issue #15), one core unless stated:
// - `backtest_replay_rate`: recorded events replayed per second (an event = one record the reader
//   yields: a token's book or delta, a trade, a setting). Recording (synthesized, seeded): one
//   binary market for 1 h, an update every 10 ms on average (a YES delta and the mirrored NO delta
//   at each instant), 20-level books where 3 levels change per update, a trade every 10 updates.
//   The daemon's strategy (the real bands strategy, 2 levels a side) steps every 100 ms of recorded
//   time (cadence poll, poll.intervalMs 100), fill model `queue-probabilistic`, order-entry latency
//   on (50 ms place, 30 ms cancel), rate limiter on. Target ≥ 1,000,000 events/s.
// - `backtest_cycle_rate`: the same recording with cadence `update`: a daemon cycle after every
//   recorded update instant; daemon cycles per second. Target ≥ 100,000.
// - `backtest_sweep_rate`: combinations per minute of a 16-combination grid of the bands strategy
//   on a day-long recording of 4 markets (an update every 2 s per market), worker threads on both
//   cores.
// Detail lines: the cursor's decode rate alone on the same file (the ceiling of the replay; the
// replay's share of it is printed as a ratio measured in the same run), the counts of each run.
// The replay and cycle rates are medians of three timed runs, interleaved with the decode-only
// runs (a single run moved by up to 20 % with this VM's drift). Every timed run is on one worker
// thread with the young generation `oddsmaker backtest` gives a run (backtest-thread.ts).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { combinations, runSweepPool } from '../src/backtest/sweep/index.js';
import { BACKTEST_YOUNG_GENERATION_MB } from '../src/backtest/thread/young-generation.js';
import type { BacktestOptions } from '../src/backtest/types.js';
import { validateConfig } from '../src/config/load.js';
import type { BenchAnswer, BenchJob } from './backtest-thread.js';
import { synthesizeRecording } from '../src/marketdata/recording/synthesize.js';

const START = Date.UTC(2026, 5, 1);

/** The replay-rate recording's shape: one market, an update every ~10 ms, 20 levels, 3 changes, a trade every 10. */
const DENSE = { markets: 1, startMs: START, updateEveryMs: 10, levels: 20, changesPerUpdate: 3, tradeEvery: 10 };

function config(pollMs: number): ReturnType<typeof validateConfig> {
  return validateConfig({
    poll: {
      intervalMs: pollMs,
      maxBookAgeMs: Math.max(5_000, pollMs * 3),
      orderLookupIntervalMs: Math.max(1_000, pollMs),
    },
    risk: {
      capital: '100000',
      dailyLossLimit: '100000',
      maxPositionShares: '100000',
      maxMarketNotional: '100000',
      maxTotalExposure: '100000',
    },
    strategy: {
      name: 'bands',
      params: {
        levels: [
          { margin: 0.01, size: 10 },
          { margin: 0.02, size: 10 },
        ],
        maxPosition: 10_000,
      },
    },
  });
}

/** One worker thread running the bench's jobs in turn (backtest-thread.ts). */
class BenchThread {
  private readonly worker = new Worker(new URL('./backtest-thread.js', import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: BACKTEST_YOUNG_GENERATION_MB },
  });

  run(job: BenchJob): Promise<BenchAnswer> {
    return new Promise((resolve, reject) => {
      const fail = (err: Error): void => {
        this.worker.off('message', done);
        reject(err);
      };
      const done = (a: BenchAnswer): void => {
        this.worker.off('error', fail);
        resolve(a);
      };
      this.worker.once('message', done);
      this.worker.once('error', fail);
      this.worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] as number;
}

function line(name: string, value: number, unit: string): void {
  process.stdout.write(`BENCH ${name} ${value} ${unit}\n`);
}

function note(text: string): void {
  process.stdout.write(`# ${text}\n`);
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'om-backtest-bench-'));
  try {
    const path = join(dir, 'hour.omrc');
    const synth = await synthesizeRecording(path, { ...DENSE, durationMs: 3_600_000, seed: 7 });
    const bytes = statSync(path).size;
    let replayRate = 0;
    let cycleRate = 0;

    const workload: Omit<BacktestOptions, 'recording' | 'config'> = {
      seed: 1,
      fillModel: 'queue-probabilistic',
      latency: { placeMs: 50, cancelMs: 30 },
      recordMids: false,
    };
    const thread = new BenchThread();
    try {
      // Warm-up on another hour of the same shape, twice per cadence, untimed: a fresh thread's
      // first hour ran at about three quarters of the settled rate and its second at nine tenths
      // (the JIT and the old generation's sizing settling), and a backtest worth timing runs far
      // longer than that in the settled state.
      const warm = join(dir, 'warm.omrc');
      await synthesizeRecording(warm, { ...DENSE, durationMs: 3_600_000, seed: 8 });
      for (let i = 0; i < 2; i++) {
        await thread.run({ kind: 'run', options: { recording: warm, config: config(100), ...workload } });
        await thread.run({
          kind: 'run',
          options: { recording: warm, config: config(100), ...workload, cadence: 'update' },
        });
      }

      // Three rounds of the three timed runs, interleaved so the machine's drift falls on each
      // alike; each figure is its median, and the replay's share of the decode-only rate is taken
      // from the same rounds.
      const decoded: BenchAnswer[] = [];
      const polled: BenchAnswer[] = [];
      const updated: BenchAnswer[] = [];
      for (let round = 0; round < 3; round++) {
        // The ceiling: the cursor alone over the same file.
        decoded.push(await thread.run({ kind: 'decode', path }));
        polled.push(
          await thread.run({
            kind: 'run',
            options: { recording: path, config: config(100), ...workload, cadence: 'poll' },
          }),
        );
        updated.push(
          await thread.run({
            kind: 'run',
            options: { recording: path, config: config(100), ...workload, cadence: 'update' },
          }),
        );
      }
      const sec = (xs: readonly BenchAnswer[]): number => median(xs.map((x) => x.sec));
      const p = polled[0] as BenchAnswer;
      const u = updated[0] as BenchAnswer;
      const decodeRate = (decoded[0] as BenchAnswer).events / sec(decoded);
      replayRate = p.events / sec(polled);
      cycleRate = u.cycles / sec(updated);

      note(
        `recording: 1 market, 1 h, ${synth.events} events (${synth.deltaEvents} deltas, ${synth.bookEvents} books, ${synth.trades} trades), 20 levels, 3 changes per update, ${(bytes / 1e6).toFixed(1)} MB`,
      );
      note(
        `each run on a worker thread with the young generation a backtest runs with (${BACKTEST_YOUNG_GENERATION_MB} MB, as oddsmaker backtest)`,
      );
      note(`decode only (RecordingCursor): ${Math.round(decodeRate)} events/s`);
      note(
        `cadence poll (100 ms), queue-probabilistic, latency 50/30 ms: ${p.events} events, ${p.cycles} cycles, ${p.orders} orders, ${p.fills} fills in ${sec(polled).toFixed(2)} s (median of 3); ${(replayRate / decodeRate).toFixed(3)} of the decode-only rate`,
      );
      note(
        `cadence update: ${u.cycles} cycles, ${u.orders} orders, ${u.fills} fills in ${sec(updated).toFixed(2)} s (median of 3), ${((sec(updated) * 1e6) / u.cycles).toFixed(2)} µs per cycle (events included)`,
      );
    } finally {
      await thread.close();
    }
    line('backtest_replay_rate', Math.round(replayRate), 'events/s');
    line('backtest_cycle_rate', Math.round(cycleRate), 'cycles/s');

    // A 16-combination grid on a day-long recording, on worker threads over both cores.
    const day = join(dir, 'day.omrc');
    const daySynth = await synthesizeRecording(day, {
      markets: 4,
      durationMs: 86_400_000,
      startMs: START,
      seed: 9,
      updateEveryMs: 2_000,
      levels: 20,
      changesPerUpdate: 3,
      tradeEvery: 10,
    });
    const combos = combinations({
      keys: ['levels.0.margin', 'levels.0.size', 'levels.1.margin', 'maxPosition'],
      values: [
        [0.01, 0.02],
        [10, 20],
        [0.03, 0.04],
        [100, 1_000],
      ],
    });
    const workers = Math.min(2, cpus().length);
    const sweepStart = performance.now();
    const rows = await runSweepPool({
      setup: { recording: day, config: config(1_000), fillModel: 'queue-probabilistic', seed: 1 },
      combinations: combos,
      workers,
    });
    const sweepMin = (performance.now() - sweepStart) / 60_000;
    note(
      `sweep: ${rows.length} combinations (bands: 2 first margins × 2 first sizes × 2 second margins × 2 max positions) on a day of 4 markets (${daySynth.events} events, an update every 2 s per market, poll 1 s, queue-probabilistic), ${workers} worker threads, ${(sweepMin * 60).toFixed(1)} s`,
    );
    line('backtest_sweep_rate', Math.round((rows.length / sweepMin) * 10) / 10, 'combinations/min');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

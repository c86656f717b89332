// backtest_replay_rate: recorded book updates replayed per second by runBacktest with the real
// bands strategy quoting on every update: cadence `update`, so every recorded update instant (a
// YES and a mirrored NO book of one binary market, 20 levels a side) is followed by a full daemon
// cycle (strategy, risk, reconcile, order manager, ledger) on one core. Detail lines split the
// cost: the same through the poller (poll interval = update interval), decoding the recording
// alone, decoding plus feeding the paper venue (no daemon), and the daemon polling at 1 s over
// 10 ms updates (many updates per cycle).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBacktest } from '../src/backtest/engine.js';
import { validateConfig } from '../src/config/load.js';
import type { Level } from '../src/core/book.js';
import { VirtualClock } from '../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../src/core/money.js';
import { mulberry32 } from '../src/core/random.js';
import { RecordingReader } from '../src/marketdata/recording/reader.js';
import { RecordingWriter } from '../src/marketdata/recording/writer.js';
import { PaperVenue } from '../src/sim/paper/index.js';

const COND = `0x${'cd'.repeat(32)}`;
const YES = '1000000000000000000000000000000000000000000000000000000000000000000000000001';
const NO = '1000000000000000000000000000000000000000000000000000000000000000000000000002';
const TICK = 10_000;

export async function writeRecording(path: string, steps: number, stepMs: number): Promise<number> {
  const w = await RecordingWriter.open(path);
  const clock = new VirtualClock(Date.UTC(2026, 5, 1));
  for (const tokenId of [YES, NO]) {
    w.settings(
      {
        tokenId,
        conditionId: COND,
        tickSize: TICK as Price,
        minOrderSize: (5 * SCALE) as Shares,
        negRisk: false,
        makerFeeBps: 0,
        takerFeeBps: 0,
        rewards: null,
      },
      clock.now(),
      clock.now(),
    );
  }
  const rnd = mulberry32(99);
  let mid = 50; // in ticks
  const sizes = Array.from({ length: 40 }, () => 50 + Math.floor(rnd() * 200));
  let updates = 0;
  for (let i = 0; i < steps; i++) {
    const r = rnd();
    if (r < 0.05 && mid > 25) mid--;
    else if (r > 0.95 && mid < 75) mid++;
    for (let k = 0; k < 3; k++) sizes[Math.floor(rnd() * 40)] = 10 + Math.floor(rnd() * 300);
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let j = 0; j < 20; j++) {
      bids.push({ price: ((mid - 1 - j) * TICK) as Price, size: ((sizes[j] as number) * SCALE) as Shares });
      asks.push({ price: ((mid + 1 + j) * TICK) as Price, size: ((sizes[20 + j] as number) * SCALE) as Shares });
    }
    const t = clock.now();
    w.book(YES, t, t, { bids, asks });
    w.book(NO, t, t, {
      bids: asks.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size })),
      asks: bids.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size })),
    });
    updates += 2;
    clock.advance(stepMs);
  }
  await w.close();
  return updates;
}

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

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'om-backtest-bench-'));
  try {
    // Every update followed by a daemon cycle.
    const steps = 20_000;
    const path = join(dir, 'every.omrc');
    const updates = await writeRecording(path, steps, 100);

    let t0 = performance.now();
    let n = 0;
    const reader = RecordingReader.fromFile(path);
    for await (const ev of reader)
      if (ev.kind === 'book' || ev.kind === 'delta') {
        ev.book();
        n++;
      }
    const decodeRate = n / ((performance.now() - t0) / 1000);

    const clock = new VirtualClock(Date.UTC(2026, 5, 1));
    const venue = new PaperVenue({ clock, capital: (1_000 * SCALE) as Micros });
    venue.addMarket({
      conditionId: COND,
      tokens: [YES, NO],
      outcomes: ['Yes', 'No'],
      tick: TICK as Price,
      minSize: 0 as Shares,
      makerFeeBps: 0,
      takerFeeBps: 0,
      negRisk: false,
    });
    t0 = performance.now();
    n = 0;
    for await (const ev of RecordingReader.fromFile(path)) {
      if (ev.kind !== 'book' && ev.kind !== 'delta') continue;
      clock.advanceTo(ev.localTs);
      venue.applyBook(ev.book());
      n++;
    }
    const venueRate = n / ((performance.now() - t0) / 1000);

    // Warm-up (JIT) on a short recording, untimed.
    const warm = join(dir, 'warm.omrc');
    await writeRecording(warm, 2_000, 100);
    await runBacktest({ recording: warm, config: config(100), seed: 1, recordMids: false, cadence: 'update' });

    // Cadence `update`: a daemon cycle on every recorded update instant (a YES and a NO book).
    t0 = performance.now();
    const r = await runBacktest({
      recording: path,
      config: config(100),
      seed: 1,
      recordMids: false,
      cadence: 'update',
    });
    const fullMs = performance.now() - t0;
    const rate = updates / (fullMs / 1000);

    // The same through the poller: the update interval is 100 ms a step, so a 100 ms poll cycles once per step.
    t0 = performance.now();
    const rp = await runBacktest({ recording: path, config: config(100), seed: 1, recordMids: false });
    const pollMs = performance.now() - t0;

    const path2 = join(dir, 'dense.omrc');
    const updates2 = await writeRecording(path2, 50_000, 10);
    t0 = performance.now();
    const r2 = await runBacktest({ recording: path2, config: config(1_000), seed: 1, recordMids: false });
    const denseRate = updates2 / ((performance.now() - t0) / 1000);

    process.stdout.write(
      `# cadence update: ${updates} book updates (20 levels a side), ${r.cycles} daemon cycles (one per update instant: a YES and a NO book), ${r.orders.length} orders, ${r.fills.length} fills, ${(fullMs / 1000).toFixed(2)} s, ${((fullMs * 1000) / r.cycles).toFixed(0)} µs per cycle (strategy → risk → reconcile → order manager → ledger)\n`,
    );
    process.stdout.write(
      `# cadence poll (100 ms poll over 100 ms steps): ${rp.cycles} cycles, ${rp.orders.length} orders, ${((pollMs * 1000) / rp.cycles).toFixed(0)} µs per cycle, ${Math.round(updates / (pollMs / 1000))} updates/s\n`,
    );
    process.stdout.write(
      `# decode only (reader + book()): ${Math.round(decodeRate)} updates/s; decode + paper venue feed (cross, no daemon): ${Math.round(venueRate)} updates/s\n`,
    );
    process.stdout.write(
      `# daemon at a 1 s cadence over 10 ms updates (${updates2} updates, ${r2.cycles} cycles): ${Math.round(denseRate)} updates/s\n`,
    );
    process.stdout.write(`BENCH backtest_replay_rate ${Math.round(rate)} updates/s\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

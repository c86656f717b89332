// A resolution reaches a recording end to end, in process on the virtual clock: the simulator
// (loopback, flow off) serves `oddsmaker record` (runRecord with a clock-driven universe refresh);
// a recorded market is resolved through POST /_sim/markets/{id}/resolve; GET /markets then shows
// it closed with its winner; the refresh drops it from the universe, the resolution watch finds it
// on the listing, the recording gets a RESOLVED record, and a backtest of the recording lists the
// resolution. Real loopback I/O and virtual time advance together (`drive`), never a real sleep.
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { ExchangeClient } from '../../src/exchange/client/index.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { ClockRefreshScheduler } from '../../src/marketdata/refresh-scheduler.js';
import { runRecord } from '../../src/cli/record.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import { tempDir } from '../e2e/harness.js';

const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);

/** Lets loopback I/O and virtual-clock timers progress together until `done()` (bounded). */
async function drive(clock: VirtualClock, done: () => boolean, stepMs = 100, maxSteps = 20_000): Promise<void> {
  for (let i = 0; i < maxSteps && !done(); i++) {
    await new Promise<void>((r) => setImmediate(r));
    if (i % 4 === 3) clock.advance(stepMs);
  }
  if (!done()) throw new Error('drive: condition not reached');
}

describe('record: a market resolved on the exchange becomes a RESOLVED record', () => {
  let sim: RunningSimulator;
  const clock = new VirtualClock(T0);
  beforeAll(async () => {
    sim = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 5,
      markets: 6,
      flow: 'none',
      limits: 'off',
      clock,
      verifier: { workers: 1, windowBits: 8 },
    });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('GET /markets shows closed and the winner; the watch finds it; the backtest lists it', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    const out = join(dir, 'rec.omrc');
    writeFileSync(
      config,
      JSON.stringify({
        mode: 'live',
        exchange: { clobUrl: sim.url },
        markets: { selector: { max: 2 } },
        poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
        strategy: { name: 'bands', params: {} },
        health: { enabled: false },
      }),
    );
    const lines: Array<Record<string, unknown> & { msg: string }> = [];
    const signals = new EventEmitter();
    let finished = false;
    const run = runRecord(
      { config, out, flushMs: '2000' },
      {
        clock,
        signals: { once: (sig, fn) => signals.once(sig, fn), off: (sig, fn) => signals.off(sig, fn) },
        exit: (code) => {
          throw new Error(`exit ${code}`);
        },
        log: (l) => {
          lines.push(JSON.parse(l) as Record<string, unknown> & { msg: string });
        },
        refreshScheduler: new ClockRefreshScheduler(clock, 30_000),
        resolutionWatch: { intervalMs: 60_000 },
      },
    ).finally(() => {
      finished = true;
    });

    await drive(
      clock,
      () => lines.some((l) => l.msg === 'flushed') && lines.filter((l) => l.msg === 'flushed').length >= 2,
    );
    const started = lines.find((l) => l.msg === 'recording');
    expect(started?.markets).toBe(2);

    // The first recorded market (the first sampling market) resolves to its first token.
    let cid = '';
    for (const m of sim.venue.world.markets) {
      if (m.rewards !== null && !m.state.closed && m.state.acceptingOrders) {
        cid = m.conditionId;
        break;
      }
    }
    const market = sim.venue.market(cid);
    const winner = market?.tokenIds[0] as string;
    const res = await fetch(`${sim.url}/_sim/markets/${cid}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 0 }),
    });
    expect(res.status).toBe(200);

    // What the watch reads: the listing shows the market closed, with exactly that winner.
    const client = new ExchangeClient({ clobUrl: sim.url, dialect: sim.venue.dialect, clock });
    try {
      const listed = [];
      for await (const m of client.iterateMarkets()) listed.push(m);
      const rec = listed.find((m) => m.conditionId === cid);
      expect(rec?.closed).toBe(true);
      expect(rec?.tokens.filter((t) => t.winner).map((t) => t.tokenId)).toEqual([winner]);
    } finally {
      await client.close();
    }

    await drive(clock, () => lines.some((l) => l.msg === 'market resolved'));
    expect(lines.find((l) => l.msg === 'market resolved')).toMatchObject({ market: cid, winner });
    await drive(clock, () => lines.filter((l) => l.msg === 'flushed').length >= 4);
    signals.emit('SIGTERM');
    await drive(clock, () => finished);
    await run;
    expect(lines.find((l) => l.msg === 'recording stopped')).toMatchObject({ resolved: 1 });

    const resolved = [];
    const reader = RecordingReader.fromFile(out);
    for await (const e of reader) if (e.kind === 'resolved') resolved.push(e);
    expect(reader.tail?.status).toBe('complete');
    expect(resolved.map((e) => [e.conditionId, e.tokenId])).toEqual([[cid, winner]]);

    const result = await runBacktest({
      recording: out,
      seed: 1,
      config: validateConfig({
        markets: { selector: { max: 2 } },
        poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
        strategy: { name: 'bands', params: {} },
      }),
    });
    expect(result.resolutions.map((r) => [r.conditionId, r.winnerTokenId])).toEqual([[cid, winner]]);
  }, 60_000);
});

// The poll loop on a virtual clock: books and mids for every token in batches of ≤ 500, sent
// together; cycles never overlap (late ticks are skipped and counted, not queued); failures are
// counted without stopping the loop; stop() aborts in-flight requests.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { Poller, type PollerStats, type PollStage } from '../../src/marketdata/poller.js';
import type { MarketSnapshot } from '../../src/marketdata/types.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { T0 } from './helpers.js';

function setup(opts: { markets?: number; latencyMs?: number; intervalMs?: number; handlerMs?: number } = {}) {
  const clock = new VirtualClock(T0);
  const gw = new FakeGateway(clock);
  const tokens: string[] = [];
  for (let i = 0; i < (opts.markets ?? 2); i++) {
    gw.addMarket({ conditionId: `c${i}` });
    tokens.push(`c${i}-yes`, `c${i}-no`);
  }
  gw.latencyMs = opts.latencyMs ?? 0;
  const snapshots: MarketSnapshot[] = [];
  const errors: Array<{ stage: PollStage; stats: PollerStats }> = [];
  const poller = new Poller({
    clock,
    gateway: gw,
    intervalMs: opts.intervalMs ?? 1_000,
    tokens: () => tokens,
    onSnapshot: async (s, signal) => {
      snapshots.push(s);
      if (opts.handlerMs !== undefined) await clock.sleep(opts.handlerMs, signal);
    },
    onError: (_e, stage, stats) => {
      errors.push({ stage, stats });
    },
  });
  return { clock, gw, poller, snapshots, errors, tokens };
}

describe('Poller cycles', () => {
  it('runs a cycle at start and then every interval, with every token', async () => {
    const { clock, gw, poller, snapshots, tokens } = setup();
    poller.start();
    await clock.advanceAsync(0);
    expect(snapshots).toHaveLength(1);
    await clock.advanceAsync(3_000);
    expect(snapshots).toHaveLength(4);
    expect(snapshots.map((s) => s.receivedAtMs)).toEqual([T0, T0 + 1_000, T0 + 2_000, T0 + 3_000]);
    expect(snapshots[0]?.books.map((b) => b.assetId)).toEqual(tokens);
    expect([...(snapshots[0]?.mids.keys() ?? [])]).toEqual(tokens);
    expect(poller.stats()).toMatchObject({ cycles: 4, completed: 4, skipped: 0, failures: 0 });
    await poller.stop();
    expect(gw.calls.books).toHaveLength(4);
  });

  it('asks for at most 500 tokens a request, books and mids alike', async () => {
    const { clock, gw, poller, snapshots } = setup({ markets: 600 });
    poller.start();
    await clock.advanceAsync(0);
    await poller.stop();
    expect(gw.calls.books.map((c) => c.length)).toEqual([500, 500, 200]);
    expect(gw.calls.mids.map((c) => c.length)).toEqual([500, 500, 200]);
    expect(snapshots[0]?.books).toHaveLength(1_200);
  });

  it('sends books and mids together: a cycle lasts one latency, not two', async () => {
    const { clock, poller, snapshots } = setup({ latencyMs: 300 });
    poller.start();
    await clock.advanceAsync(299);
    expect(snapshots).toHaveLength(0);
    await clock.advanceAsync(1);
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]?.receivedAtMs).toBe(T0 + 300);
    await poller.stop();
  });
});

describe('Poller never overlaps', () => {
  it('skips and counts ticks that fall due while a slow fetch is running', async () => {
    const { clock, gw, poller, snapshots } = setup({ latencyMs: 2_500, intervalMs: 1_000 });
    poller.start();
    await clock.advanceAsync(10_000);
    // cycles start at 0, 3000, 6000, 9000 (the first tick after each 2.5 s fetch); the ticks at
    // 1000, 2000, 4000, 5000, 7000, 8000 and 10000 find a cycle running and are skipped
    expect(snapshots.map((s) => s.receivedAtMs - T0)).toEqual([2_500, 5_500, 8_500]);
    const st = poller.stats();
    expect(st.cycles).toBe(4);
    expect(st.skipped).toBe(7);
    expect(st.running).toBe(true);
    expect(gw.calls.books).toHaveLength(4);
    await poller.stop();
  });

  it('counts the handler as part of the cycle (a slow order manager also skips ticks)', async () => {
    const { clock, poller, snapshots } = setup({ handlerMs: 1_500, intervalMs: 1_000 });
    let concurrent = 0;
    let maxConcurrent = 0;
    const wrapped = new Poller({
      clock,
      gateway: new FakeGateway(clock),
      intervalMs: 1_000,
      tokens: () => [],
      onSnapshot: async (_s, signal) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        try {
          await clock.sleep(1_500, signal);
        } finally {
          concurrent--;
        }
      },
    });
    poller.start();
    wrapped.start();
    await clock.advanceAsync(6_000);
    expect(snapshots.map((s) => s.receivedAtMs - T0)).toEqual([0, 2_000, 4_000, 6_000]);
    expect(poller.stats().skipped).toBe(3);
    expect(maxConcurrent).toBe(1);
    await poller.stop();
    await wrapped.stop();
  });

  it('runOnce refuses to start a second cycle while one runs', async () => {
    const { clock, poller } = setup({ latencyMs: 100 });
    const first = poller.runOnce();
    expect(await poller.runOnce()).toBe(false);
    await clock.advanceAsync(100);
    expect(await first).toBe(true);
    expect(poller.stats()).toMatchObject({ cycles: 1, skipped: 1, completed: 1 });
  });
});

describe('Poller failures', () => {
  it('counts a failed books call, still hands an empty incomplete snapshot on, and keeps going', async () => {
    const { clock, gw, poller, snapshots, errors } = setup();
    gw.failNext('books', 3);
    poller.start();
    await clock.advanceAsync(2_000);
    expect(snapshots.map((s) => [s.complete, s.books.length])).toEqual([
      [false, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(poller.stats()).toMatchObject({ failures: 3, consecutiveFailures: 3, completed: 0 });
    expect(errors.map((e) => [e.stage, e.stats.consecutiveFailures])).toEqual([
      ['books', 1],
      ['books', 2],
      ['books', 3],
    ]);
    await clock.advanceAsync(1_000);
    expect(snapshots[3]?.complete).toBe(true);
    expect(snapshots[3]?.books).toHaveLength(4);
    expect(poller.stats()).toMatchObject({ cycles: 4, completed: 1, failures: 3, consecutiveFailures: 0 });
    await poller.stop();
  });

  it('goes on with the books when only /midpoints fails (counted, streak untouched)', async () => {
    const { clock, gw, poller, snapshots, errors } = setup();
    gw.failNext('mids');
    poller.start();
    await clock.advanceAsync(0);
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]?.books).toHaveLength(4);
    expect(snapshots[0]?.mids.size).toBe(0);
    expect(snapshots[0]?.complete).toBe(true);
    expect(errors.map((e) => e.stage)).toEqual(['midpoints']);
    expect(poller.stats()).toMatchObject({ failures: 1, midpointFailures: 1, consecutiveFailures: 0, completed: 1 });
    await poller.stop();
  });

  it('counts a throwing handler as a failed cycle', async () => {
    const clock = new VirtualClock(T0);
    const stages: PollStage[] = [];
    let n = 0;
    const p = new Poller({
      clock,
      gateway: new FakeGateway(clock),
      intervalMs: 1_000,
      tokens: () => [],
      onSnapshot: () => {
        n++;
        if (n === 1) throw new Error('order manager down');
      },
      onError: (_e, stage) => {
        stages.push(stage);
      },
    });
    p.start();
    await clock.advanceAsync(1_000);
    expect(stages).toEqual(['handler']);
    expect(p.stats()).toMatchObject({ cycles: 2, completed: 1, failures: 1, consecutiveFailures: 0 });
    await p.stop();
  });
});

describe('Poller stop', () => {
  it('aborts the in-flight requests, waits for the cycle and schedules nothing more', async () => {
    const { clock, gw, poller, snapshots, errors } = setup({ latencyMs: 5_000 });
    poller.start();
    await clock.advanceAsync(100);
    expect(poller.stats().running).toBe(true);
    await poller.stop();
    expect(poller.stats().running).toBe(false);
    await clock.advanceAsync(20_000);
    expect(snapshots).toHaveLength(0);
    expect(errors).toHaveLength(0); // an abort is not an exchange failure
    expect(gw.calls.books).toHaveLength(1);
    expect(clock.pending()).toBe(0);
    await poller.stop(); // idempotent
  });

  it('aborts a running handler through its signal', async () => {
    const { clock, poller, snapshots } = setup({ handlerMs: 10_000 });
    poller.start();
    await clock.advanceAsync(10);
    expect(snapshots).toHaveLength(1);
    await poller.stop();
    expect(poller.stats()).toMatchObject({ completed: 0, failures: 0 });
  });
});

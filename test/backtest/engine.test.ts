// The backtest engine on a synthetic recording (helpers.ts): the real daemon quotes on the
// recorded books; a recorded ask reaching our resting 0.49 bid fills it under `cross`; the `queue`
// model (our bid behind the 100 shares recorded at 0.49) does not fill on that touch, so it fills
// less, while it does fill once more size left our level than stood ahead of us (where cross does
// not); entry latency moves the fill later; fees and ticks come from the recording; equal inputs
// give byte-identical JSON.
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/engine.js';
import type { BacktestResult } from '../../src/backtest/types.js';
import { COND, T0, testConfig, writeSynthetic, YES } from './helpers.js';

const filled = (r: BacktestResult): number => r.fills.reduce((s, f) => s + f.size, 0);

describe('runBacktest on a synthetic recording', () => {
  it('quotes through the daemon and fills a resting bid when the recorded ask reaches it (cross)', async () => {
    const path = await writeSynthetic({ makerFeeBps: 100, takerFeeBps: 200 });
    const r = await runBacktest({ recording: path, config: testConfig(), seed: 1 });
    expect(r.startMs).toBe(T0);
    expect(r.cycles).toBeGreaterThan(20);
    expect(r.equity.length).toBe(r.cycles);
    expect(r.orders.length).toBeGreaterThan(0);
    // The bid at 0.49 (mid 0.50 − 0.01) was placed in YES terms.
    expect(r.orders.some((o) => o.tokenId === YES && o.side === 'BUY' && o.price === 490_000)).toBe(true);
    // Ticks from the recording: every order on the 0.01 grid; fees from the recording.
    expect(r.markets).toEqual([
      {
        conditionId: COND,
        tokens: expect.any(Array),
        tickSize: 10_000,
        minOrderSize: 5_000_000,
        makerFeeBps: 100,
        takerFeeBps: 200,
      },
    ]);
    for (const o of r.orders) expect(o.price % 10_000).toBe(0);
    const f = r.fills.find((x) => x.tokenId === YES && x.side === 'BUY');
    expect(f).toMatchObject({ price: 490_000, size: 10_000_000, liquidity: 'maker' });
    expect(f!.venueTimeMs).toBe(T0 + 10_000);
    // The ledger learns of the maker fill at the order manager's next lookup.
    expect(f!.timeMs).toBeGreaterThanOrEqual(f!.venueTimeMs);
    expect(r.venueFills.map((v) => [v.orderId, v.size, v.timeMs])).toContainEqual([f!.orderId, f!.size, T0 + 10_000]);
    expect(f!.feeMicros).toBeGreaterThan(0);
    expect(f!.midAtFill).toBe(490_000);
    // The equity series moved by the fill: inventory 10 YES after it.
    const after = r.equity.filter((e) => e.t > T0 + 10_000);
    expect(after[0]!.inventory).toEqual([[YES, 10_000_000]]);
    expect(r.pnl.fees).toBe(f!.feeMicros);
    // Every order ended (the daemon's stop cancelled what rested).
    expect(r.orders.every((o) => o.state !== 'live')).toBe(true);
  }, 60_000);

  it('the queue model fills later or less than cross on the same data', async () => {
    const path = await writeSynthetic();
    const cross = await runBacktest({ recording: path, config: testConfig(), seed: 2, fillModel: 'cross' });
    const queue = await runBacktest({ recording: path, config: testConfig(), seed: 2, fillModel: 'queue' });
    expect(queue.fillModel).toBe('queue');
    expect(filled(cross)).toBeGreaterThan(0);
    expect(filled(queue)).toBeLessThan(filled(cross));
    const firstCross = cross.fills[0]!.venueTimeMs;
    for (const f of queue.fills) expect(f.venueTimeMs).toBeGreaterThanOrEqual(firstCross);
  }, 60_000);

  it('the queue model fills a bid once more size left its level than stood ahead of it; cross does not', async () => {
    const path = await writeSynthetic({ drain: true });
    const cross = await runBacktest({ recording: path, config: testConfig(), seed: 4, fillModel: 'cross' });
    const queue = await runBacktest({ recording: path, config: testConfig(), seed: 4, fillModel: 'queue' });
    expect(cross.fills).toEqual([]);
    // Joined behind 100; 150 left the level at T0 + 12 s: 100 ahead of us, the excess fills our 10.
    expect(queue.venueFills.map((f) => [f.tokenId, f.side, f.price, f.size, f.liquidity, f.timeMs])).toEqual([
      [YES, 'BUY', 490_000, 10_000_000, 'maker', T0 + 12_000],
    ]);
    expect(queue.fills.map((f) => [f.size, f.venueTimeMs])).toEqual([[10_000_000, T0 + 12_000]]);
    // Probabilistic with p = 0: every decrease is a cancel behind us, nothing fills.
    const never = await runBacktest({
      recording: path,
      config: testConfig(),
      seed: 4,
      fillModel: 'queue-probabilistic',
      queueTradeProbability: 0,
    });
    expect(never.fills).toEqual([]);
  }, 60_000);

  it('placement latency delays the fill', async () => {
    const path = await writeSynthetic();
    // Quotes that may take liquidity (postOnly off): a late order trades at arrival.
    const taking = testConfig({ orders: { postOnly: false } });
    const fast = await runBacktest({ recording: path, config: taking, seed: 3 });
    const slow = await runBacktest({
      recording: path,
      config: taking,
      seed: 3,
      latency: { placeMs: 12_000, cancelMs: 0 },
    });
    expect(fast.fills[0]!.venueTimeMs).toBe(T0 + 10_000);
    expect(slow.fills.length).toBeGreaterThan(0);
    expect(slow.fills[0]!.venueTimeMs).toBeGreaterThan(fast.fills[0]!.venueTimeMs);
    // The first order reached the venue 12 s after the first cycle sent it.
    expect(Math.min(...slow.orders.map((o) => o.stateAtMs))).toBeGreaterThanOrEqual(T0 + 12_000);
    // Post-only (the default): the same late quotes that would now cross are refused, never taken.
    const postOnly = await runBacktest({
      recording: path,
      config: testConfig(),
      seed: 3,
      latency: { placeMs: 12_000, cancelMs: 0 },
    });
    expect(postOnly.orders.some((o) => o.state === 'rejected')).toBe(true);
    expect(postOnly.fills.filter((f) => f.venueTimeMs === slow.fills[0]!.venueTimeMs)).toEqual([]);
  }, 60_000);

  it('is deterministic: the same inputs give byte-identical JSON', async () => {
    const path = await writeSynthetic();
    const opts = {
      recording: path,
      config: testConfig(),
      seed: 42,
      fillModel: 'queue-probabilistic' as const,
      latency: { distribution: 'uniform' as const, place: { minMs: 10, maxMs: 300 }, cancel: { minMs: 5, maxMs: 100 } },
    };
    const a = JSON.stringify(await runBacktest(opts));
    const b = JSON.stringify(await runBacktest(opts));
    expect(a).toBe(b);
    const c = JSON.stringify(await runBacktest({ ...opts, seed: 43 }));
    // Another seed signs with another key: other order ids.
    expect(c).not.toBe(a);
  }, 60_000);

  it('cadence update runs one daemon cycle per recorded update instant, and repeats exactly', async () => {
    const path = await writeSynthetic();
    const polled = await runBacktest({ recording: path, config: testConfig(), seed: 5 });
    const r = await runBacktest({ recording: path, config: testConfig(), seed: 5, cadence: 'update' });
    // Updates every 500 ms (a YES and a NO book at each instant) over 30 s; the poll is 1 s.
    const instants = new Set<number>();
    for (let t = r.startMs; t <= T0 + 30_000; t += 500) instants.add(t);
    // The daemon starts on the first instant (start() takes its own first look), then cycles on each later one.
    const cycleTimes = r.equity.map((e) => e.t);
    expect(new Set(cycleTimes).size).toBe(cycleTimes.length);
    for (const t of cycleTimes) expect(instants.has(t)).toBe(true);
    expect(r.cycles).toBeGreaterThanOrEqual(instants.size - 1);
    expect(r.cycles).toBeGreaterThan(polled.cycles * 1.8);
    // The same quotes and the same fill as the polled run: the bid at 0.49 fills when the ask locks at T0 + 10 s.
    expect(r.orders.some((o) => o.tokenId === YES && o.side === 'BUY' && o.price === 490_000)).toBe(true);
    expect(r.fills.map((f) => [f.tokenId, f.side, f.price, f.size, f.venueTimeMs])).toEqual(
      polled.fills.map((f) => [f.tokenId, f.side, f.price, f.size, f.venueTimeMs]),
    );
    expect(
      JSON.stringify(await runBacktest({ recording: path, config: testConfig(), seed: 5, cadence: 'update' })),
    ).toBe(JSON.stringify(r));
  }, 60_000);
});

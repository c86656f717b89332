// The latency sampler (constant, seeded uniform within its bounds, repeatable; bad bounds refused)
// and the recorded market-data port (settings assembled from the recording with stated defaults
// for unknown values, books stamped with the virtual time they are served at, mids from books,
// unknown markets a 404). (The latency and the limiter in virtual time: test/backtest/replay/executor.test.ts.)
import { describe, expect, it } from 'vitest';
import { latencySampler } from '../../src/backtest/latency.js';
import { RecordedMarketData } from '../../src/backtest/market-data.js';
import { makeBook } from '../../src/core/book.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Price, Shares } from '../../src/core/money.js';
import { mulberry32 } from '../../src/core/random.js';
import { OptionError } from '../../src/core/errors.js';

describe('latencySampler', () => {
  it('constant, seeded uniform within bounds and repeatable; rejects bad bounds', () => {
    expect(latencySampler(undefined, Math.random).place()).toBe(0);
    const c = latencySampler({ placeMs: 30, cancelMs: 7 }, mulberry32(1));
    expect([c.place(), c.cancel()]).toEqual([30, 7]);
    const spec = { distribution: 'uniform' as const, place: { minMs: 10, maxMs: 20 }, cancel: { minMs: 0, maxMs: 3 } };
    const a = latencySampler(spec, mulberry32(5));
    const b = latencySampler(spec, mulberry32(5));
    const da = Array.from({ length: 200 }, () => [a.place(), a.cancel()]);
    const db = Array.from({ length: 200 }, () => [b.place(), b.cancel()]);
    expect(da).toEqual(db);
    for (const [p, q] of da) {
      expect(p).toBeGreaterThanOrEqual(10);
      expect(p).toBeLessThanOrEqual(20);
      expect(q).toBeLessThanOrEqual(3);
    }
    expect(new Set(da.map((x) => x[0])).size).toBeGreaterThan(5);
    expect(() => latencySampler({ placeMs: -1, cancelMs: 0 }, Math.random)).toThrow(OptionError);
    expect(() =>
      latencySampler(
        { distribution: 'uniform', place: { minMs: 5, maxMs: 4 }, cancel: { minMs: 0, maxMs: 0 } },
        Math.random,
      ),
    ).toThrow(OptionError);
  });
});

describe('RecordedMarketData', () => {
  it('serves settings with defaults, books stamped at the virtual time, mids from books', async () => {
    const md = new RecordedMarketData({ makerFeeBps: 5 });
    const base = { conditionId: 'c1', negRisk: null, rewards: null, takerFeeBps: 20 };
    md.applySettings({ ...base, tokenId: 'a', tickSize: 1_000 as Price, minOrderSize: null, makerFeeBps: null });
    expect(md.settingsOf('c1')).toBeNull(); // one token: not a binary market yet
    await expect(md.getMarketSettings('c1')).rejects.toMatchObject({ status: 404 });
    md.applySettings({ ...base, tokenId: 'b', tickSize: null, minOrderSize: null, makerFeeBps: null });
    expect(md.settingsOf('c1')).toMatchObject({
      tokens: [
        { tokenId: 'a', outcome: 'Yes' },
        { tokenId: 'b', outcome: 'No' },
      ],
      tickSize: 1_000,
      minOrderSize: 0,
      makerBaseFeeBps: 5,
      takerBaseFeeBps: 20,
      negRisk: false,
    });
    const clock = new VirtualClock(1_000);
    md.clock = clock;
    md.applyBook(
      makeBook({
        market: 'c1',
        assetId: 'a',
        timestampMs: 900,
        hash: '',
        bids: [{ price: 400_000 as Price, size: 1 as Shares }],
        asks: [{ price: 431_000 as Price, size: 1 as Shares }],
      }),
    );
    clock.advance(5_000);
    const [b] = await md.getBooks(['a', 'b']);
    expect(b?.timestampMs).toBe(6_000);
    expect(md.book('a')?.timestampMs).toBe(900);
    expect(await md.getMidpoints(['a', 'b'])).toEqual(new Map([['a', 415_500]]));
  });
});

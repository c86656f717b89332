// The backtest's universe and its venue:
// - the daemon starts at the end of the recording's opening instant, so every market the
//   recorder's opening snapshot completed is in the universe (not only the first one read), and
//   its books are at the venue before the first cycle's orders arrive (no latency: at once);
// - a market outside the universe never changes what the daemon trades: the replay feeds the
//   venue the universe's markets only (replay.ts), so a recording of three markets backtested on
//   one of them gives the very orders, fills, equity and cycles of the same recording with the
//   other two markets' records taken out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/engine.js';
import type { Book } from '../../src/core/book.js';
import { RecordingReader, type RecordingEvent } from '../../src/marketdata/recording/reader.js';
import { synthesizeRecording, synthMarket } from '../../src/marketdata/recording/synthesize.js';
import { testConfig } from './helpers.js';

const SEED = 3;
const dir = mkdtempSync(join(tmpdir(), 'om-universe-venue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every event of the file, its book built while reading (a reader's book() is good until the next change). */
async function eventsOf(path: string): Promise<RecordingEvent[]> {
  const out: RecordingEvent[] = [];
  for await (const ev of RecordingReader.fromFile(path)) {
    if (ev.kind === 'book' || ev.kind === 'delta') {
      const b: Book = ev.book();
      out.push({ ...ev, book: () => b });
    } else out.push(ev);
  }
  return out;
}

describe('the universe of a recording whose opening instant holds several markets', () => {
  it('is every market complete at the end of that instant, each at the venue before the first orders', async () => {
    const path = join(dir, 'opening.omrc');
    const startMs = Date.UTC(2026, 5, 1);
    await synthesizeRecording(path, {
      markets: 3,
      durationMs: 60_000,
      startMs,
      seed: SEED,
      updateEveryMs: 500,
      levels: 20,
      changesPerUpdate: 3,
      tradeEvery: 5,
    });
    const config = testConfig();
    const r = await runBacktest({ recording: path, config, seed: 1, fillModel: 'queue-probabilistic' });
    const ids = [0, 1, 2].map((i) => synthMarket(SEED, i).conditionId);
    expect(r.startMs).toBe(startMs);
    expect(r.markets.map((m) => m.conditionId).sort()).toEqual([...ids].sort());
    // The first cycle quotes every market, and the venue takes each order (none rejected, none
    // left unknown): it already holds the books recorded at the opening instant.
    const first = r.orders.filter((o) => o.createdAtMs === startMs);
    expect([...new Set(first.map((o) => o.conditionId))].sort()).toEqual([...ids].sort());
    expect(r.orders.filter((o) => o.state === 'rejected' || o.state === 'unknown')).toEqual([]);
  });
});

describe('markets outside the universe', () => {
  it('change no order, fill, equity sample or cycle of the universe (cadences poll and update)', async () => {
    const path = join(dir, 'three.omrc');
    await synthesizeRecording(path, {
      markets: 3,
      durationMs: 10 * 60_000,
      startMs: Date.UTC(2026, 5, 1),
      seed: SEED,
      updateEveryMs: 50,
      levels: 20,
      changesPerUpdate: 3,
      tradeEvery: 5,
    });
    const first = synthMarket(SEED, 0);
    const all = await eventsOf(path);
    const mine = new Set([first.yesTokenId, first.noTokenId]);
    const alone = all.filter((ev) => mine.has(ev.tokenId));
    expect(alone.length).toBeGreaterThan(0);
    expect(alone.length).toBeLessThan(all.length / 2);

    const config = testConfig({
      markets: { conditions: [first.conditionId] },
      poll: { intervalMs: 500, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
    });
    for (const cadence of ['poll', 'update'] as const) {
      const run = (recording: RecordingEvent[]) =>
        runBacktest({
          recording,
          config,
          seed: 1,
          fillModel: 'queue-probabilistic',
          latency: { placeMs: 50, cancelMs: 30 },
          recordMids: false,
          cadence,
        });
      const withOthers = await run(all);
      const withoutOthers = await run(alone);
      expect(withOthers.markets.map((m) => m.conditionId)).toEqual([first.conditionId]);
      expect(withOthers.fills.length).toBeGreaterThan(0);
      expect(withOthers.cycles).toBe(withoutOthers.cycles);
      expect(withOthers.orders).toEqual(withoutOthers.orders);
      expect(withOthers.fills).toEqual(withoutOthers.fills);
      expect(withOthers.equity).toEqual(withoutOthers.equity);
    }
  });
});

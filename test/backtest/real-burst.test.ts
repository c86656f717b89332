// End to end on real data: the recorded market-channel burst (test/fixtures/real, 51 real
// messages over 166 s) imported with the project's importer into a recording file, then replayed
// by the backtest engine with the bands strategy. Asserts the run covers every recorded update,
// the daemon cycled on the poll cadence and quoted on the market's own tick, and a second run
// gives the same bytes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/engine.js';
import { importMarketStreamFile } from '../../src/marketdata/recording/importers/market-stream.js';
import { RecordingWriter } from '../../src/marketdata/recording/writer.js';
import { testConfig } from './helpers.js';
import { realFixturePath } from '../support/fixtures.js';

const burst = realFixturePath('clob_ws_market_burst_2tokens.jsonl');

describe('backtest on the real imported ws burst', () => {
  it('replays every recorded update through the daemon, quotes on the recorded tick, and repeats exactly', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'om-backtest-real-')), 'burst.omrc');
    const w = await RecordingWriter.open(path);
    const stats = await importMarketStreamFile(burst, w);
    await w.close();
    const config = testConfig({ poll: { intervalMs: 2_000, maxBookAgeMs: 10_000, orderLookupIntervalMs: 2_000 } });
    const r = await runBacktest({ recording: path, config, seed: 7, fillModel: 'queue' });
    expect(r.bookUpdates).toBe(stats.books + stats.deltas);
    expect(r.markets).toHaveLength(1);
    expect(r.markets[0]!.tokens).toHaveLength(2);
    const span = r.endMs - r.startMs;
    expect(span).toBeGreaterThan(150_000);
    // One cycle per poll interval over the span (the first at the start).
    expect(r.cycles).toBeGreaterThanOrEqual(Math.floor(span / 2_000) - 1);
    expect(r.cycles).toBeLessThanOrEqual(Math.floor(span / 2_000) + 1);
    expect(r.orders.length).toBeGreaterThan(0);
    const tick = r.markets[0]!.tickSize;
    for (const o of r.orders) expect(o.price % tick).toBe(0);
    expect(Object.keys(r.mids).length).toBe(2);
    const again = await runBacktest({ recording: path, config, seed: 7, fillModel: 'queue' });
    expect(JSON.stringify(again)).toBe(JSON.stringify(r));
  }, 60_000);
});

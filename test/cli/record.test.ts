// `oddsmaker record` end to end: the compiled CLI as a child process records the simulator's
// market data (simulator in this process, flow normal) for a few flushes, stops on SIGTERM with
// exit 0, and the file reads back with books of the simulator's markets. Needs `npx tsc` first
// (like test/e2e). Waits are driven by the recorder's own progress lines, with a bound.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { readSidecar } from '../../src/marketdata/recording/importers/sidecar.js';
import { RecordingReader } from '../../src/marketdata/recording/reader.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import { assertBuilt, DaemonProcess, tempDir, writePaperConfig } from '../e2e/harness.js';
import { reapChildren, startCli } from '../support/child.js';

interface Line {
  msg?: string;
  books?: number;
  deltas?: number;
  mids?: number;
  tokens?: number;
  [k: string]: unknown;
}

describe('oddsmaker record', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    assertBuilt();
    sim = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 11,
      markets: 4,
      flow: 'normal',
      limits: 'on',
      clock: new SystemClock(),
    });
  });
  afterAll(async () => {
    await reapChildren();
    await sim.close();
  });

  it("records until SIGTERM, exits 0, and the file holds the simulator's books", async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    const out = join(dir, 'rec.omrc');
    writeFileSync(
      config,
      JSON.stringify({
        mode: 'live',
        exchange: { clobUrl: sim.url },
        markets: { selector: { max: 3 } },
        poll: { intervalMs: 200, maxBookAgeMs: 5000, orderLookupIntervalMs: 500 },
        strategy: { name: 'bands', params: {} },
        ledger: { path: join(dir, 'ledger.sqlite') },
        health: { enabled: false },
      }),
    );
    // No credentials in the environment: recording must not need any. Its log is on stderr.
    const rec = startCli(['record', '--config', config, '--out', out, '--flush-ms', '400'], { logStream: 'stderr' });
    const lines = rec.lines as Line[];
    // Three flushes that hold deltas: several polls of every token are on disk.
    await rec.waitFor(
      () => {
        const flushed = lines.filter((l) => l.msg === 'flushed');
        return flushed.length >= 3 && (flushed.at(-1)?.deltas ?? 0) > 0;
      },
      'three flushes with deltas',
      30_000,
    );
    const stop = await rec.stop(30_000);
    expect(stop.exit.code, rec.allText()).toBe(0);
    const started = lines.find((l) => l.msg === 'recording');
    expect(started?.tokens).toBeGreaterThanOrEqual(2);
    const final = lines.find((l) => l.msg === 'recording stopped');
    expect(final).toBeDefined();

    const reader = RecordingReader.fromFile(out);
    const books = new Map<string, number>();
    const conditions = new Map<string, string>();
    let mids = 0;
    for await (const e of reader) {
      if (e.kind === 'settings') conditions.set(e.tokenId, e.settings.conditionId);
      else if (e.kind === 'book' || e.kind === 'delta') {
        const b = e.book();
        expect(b.bids.length + b.asks.length).toBeGreaterThan(0);
        books.set(e.tokenId, (books.get(e.tokenId) ?? 0) + 1);
      } else mids++;
    }
    expect(reader.tail?.status).toBe('complete');
    expect(books.size).toBe(started?.tokens);
    expect(mids).toBeGreaterThan(0);
    for (const [token, n] of books) {
      expect(n).toBeGreaterThanOrEqual(2);
      const ref = sim.venue.token(token);
      expect(ref).toBeDefined();
      expect(conditions.get(token)?.toLowerCase()).toBe(ref?.market.conditionId.toLowerCase());
    }
    // The report's names: every recorded token labelled by its market's question, in the sidecar.
    const labels = readSidecar(out)?.labels ?? {};
    for (const token of books.keys()) {
      expect(labels[token]?.question).toBe(sim.venue.token(token)?.market.question);
      expect(labels[token]?.outcome).not.toBe('');
    }
    // Everything the recorder counted is in the file (nothing lost at shutdown).
    expect([...books.values()].reduce((a, b) => a + b, 0)).toBe((final?.books ?? 0) + (final?.deltas ?? 0));
  }, 60_000);

  it('the daemon records what it polls when record.enabled is on', async () => {
    const dir = tempDir();
    const path = join(dir, 'sub', 'daemon.omrc');
    const cfg = writePaperConfig(dir, sim, { record: { enabled: true, path } });
    const d = new DaemonProcess(cfg, sim, { args: ['--mode', 'paper'], credentials: false });
    await d.waitFor((l) => l.msg === 'recording market data', 'recording market data');
    await d.waitFor(() => d.lines.filter((l) => typeof l.cycle === 'number').length >= 4, 'four cycles');
    d.child.kill('SIGTERM');
    expect((await d.exited).code, d.stderr.join('\n')).toBe(0);
    const cycles = d.lines.filter((l) => typeof l.cycle === 'number' && Number(l.books) > 0);
    const reader = RecordingReader.fromFile(path);
    const tokens = new Set<string>();
    let updates = 0;
    for await (const e of reader) {
      if (e.kind === 'book' || e.kind === 'delta') {
        tokens.add(e.tokenId);
        updates++;
        expect(sim.venue.token(e.tokenId)).toBeDefined();
      }
    }
    expect(reader.tail?.status).toBe('complete');
    expect(tokens.size).toBeGreaterThanOrEqual(2);
    // One book or delta per token per cycle that had books.
    expect(updates).toBe(cycles.reduce((n, l) => n + Number(l.books), 0));
    // And the report's names: every recorded token labelled by its market's question.
    const labels = readSidecar(path)?.labels ?? {};
    for (const token of tokens) expect(labels[token]?.question).toBe(sim.venue.token(token)?.market.question);
  }, 60_000);
});

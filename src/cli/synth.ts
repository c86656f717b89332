// `oddsmaker synth --out FILE --markets N --hours H --seed S`: writes a synthetic recording
// (src/marketdata/recording/synthesize.ts: binary markets, full books moving by deltas, trades at
// the touch) for backtest benchmarks, plus its labels sidecar `<FILE>.meta.json` (source `synth`,
// full depth, backtestable). Invariants kept:
// - equal flags give byte-identical files (the generator is seeded; its times come from --start-ms,
//   never from the clock); the wall time is measured only for the summary line;
// - an existing --out is a usage error (exit 2) unless --force, as for `import`;
// - every flag is checked here and a bad one exits 2 naming it; stdout holds one summary line.
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Command } from 'commander';
import { writeSidecar, type TokenLabel } from '../marketdata/recording/importers/sidecar.js';
import { synthesizeRecording, synthMarket, type SynthStats } from '../marketdata/recording/synthesize.js';
import { UsageError } from './exit-codes.js';
import { checkOutFile } from './out-file.js';

export interface SynthCliOptions {
  out: string;
  markets: string;
  hours: string;
  seed: string;
  updateMs: string;
  levels: string;
  tradeEvery: string;
  startMs: string;
  chunkKb: string;
  force?: boolean;
}

/** 2026-01-01T00:00:00Z: a fixed default start, so equal flags give equal files. */
export const SYNTH_DEFAULT_START_MS = 1_767_225_600_000;

function num(flag: string, raw: string, ok: (v: number) => boolean, what: string): number {
  const v = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(v) || !ok(v)) throw new UsageError(`${flag} must be ${what}, got ${JSON.stringify(raw)}`);
  return v;
}

const positiveInt = (v: number): boolean => Number.isSafeInteger(v) && v >= 1;

export async function runSynthCommand(o: SynthCliOptions, stdout: (line: string) => void): Promise<SynthStats> {
  if (o.out === '') throw new UsageError('--out must name a file');
  const markets = num('--markets', o.markets, (v) => positiveInt(v) && v <= 100_000, 'an integer in [1, 100000]');
  const hours = num('--hours', o.hours, (v) => v > 0 && v <= 24 * 366, 'a number of hours in (0, 8784]');
  const seed = num(
    '--seed',
    o.seed,
    (v) => Number.isSafeInteger(v) && v >= 0 && v <= 0xffffffff,
    'an integer in [0, 2^32)',
  );
  const updateEveryMs = num(
    '--update-ms',
    o.updateMs,
    (v) => v >= 1 && v <= 86_400_000,
    'a number of ms in [1, 86400000]',
  );
  const levels = num('--levels', o.levels, (v) => positiveInt(v) && v <= 1000, 'an integer in [1, 1000]');
  const tradeEvery = num('--trade-every', o.tradeEvery, (v) => v >= 0 && v <= 1e9, 'a number ≥ 0 (0: no trades)');
  const startMs = num('--start-ms', o.startMs, (v) => Number.isSafeInteger(v) && v >= 1000, 'an epoch time in ms');
  const chunkKb = num('--chunk-kb', o.chunkKb, (v) => positiveInt(v) && v <= 16 * 1024, 'an integer in [1, 16384]');
  checkOutFile(o.out, o.force);
  await rm(`${o.out}.meta.json`, { force: true });

  const t0 = performance.now();
  const stats = await synthesizeRecording(o.out, {
    markets,
    durationMs: Math.round(hours * 3_600_000),
    startMs,
    seed,
    updateEveryMs,
    levels,
    tradeEvery,
    chunkBytes: chunkKb * 1024,
  });
  const seconds = (performance.now() - t0) / 1000;
  const labels: Record<string, TokenLabel> = {};
  for (let i = 0; i < markets; i++) {
    const m = synthMarket(seed, i);
    labels[m.yesTokenId] = { question: m.question, outcome: 'Yes' };
    labels[m.noTokenId] = { question: m.question, outcome: 'No' };
  }
  await writeSidecar(o.out, { version: 1, source: 'synth', depth: 'full', backtestable: true, note: '', labels });
  const bytes = statSync(o.out).size;
  stdout(
    `synth: ${stats.events} events (${stats.bookEvents} books, ${stats.deltaEvents} deltas, ${stats.trades} trades), ` +
      `${stats.markets} markets, ${stats.tokens} tokens, ${bytes} bytes, ${seconds.toFixed(1)} s → ${o.out}`,
  );
  return stats;
}

export function register(program: Command): void {
  program
    .command('synth')
    .description('write a synthetic recording (binary markets, full books moving by deltas, trades) for backtests')
    .requiredOption('--out <file>', 'recording to write (also writes <file>.meta.json)')
    .requiredOption('--markets <n>', 'number of binary markets (two tokens each)')
    .requiredOption('--hours <h>', 'recorded duration, hours')
    .requiredOption('--seed <s>', 'seed: equal flags give byte-identical files')
    .option('--update-ms <ms>', 'mean gap between two updates of one market, ms', '2000')
    .option('--levels <l>', 'levels per side of each book', '20')
    .option('--trade-every <k>', 'mean number of updates between two trades of a market (0: none)', '10')
    .option('--start-ms <ms>', 'local time of the first record, epoch ms', String(SYNTH_DEFAULT_START_MS))
    .option('--chunk-kb <kb>', 'chunk size of the recording, KiB (uncompressed)', '1024')
    .option('--force', 'replace an existing --out')
    .action(async (o: SynthCliOptions) => {
      await runSynthCommand(o, (l) => {
        process.stdout.write(`${l}\n`);
      });
    });
}

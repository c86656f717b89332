// `oddsmaker backtest` and `oddsmaker backtest sweep` end to end: the compiled CLI (needs `npx tsc`
// first, like test/e2e) as a child process on a synthetic recording written with RecordingWriter
// (test/backtest/helpers.ts). What is checked: the report files and their fields, that report.json
// is byte-identical across runs and equal to the in-process runBacktest's report, that the HTML
// names nothing on a network, the progress bar on a TTY only, exit codes (bad config / flag / grid
// → 2, missing recording → 2: a wrong argument caught before any work), and the sweep: one row per
// combination from 2 workers, sorted with ties in grid order, each row equal to the in-process run.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { reportInputFromBacktest } from '../../src/backtest/report/from-backtest.js';
import { computeReport, reportJson } from '../../src/backtest/report/index.js';
import type { ReportSettings } from '../../src/backtest/report/input.js';
import { runCombination, type SweepRow } from '../../src/backtest/sweep/index.js';
import { runBacktestCommand } from '../../src/cli/backtest.js';
import { testConfig, writeSynthetic } from '../backtest/helpers.js';
import { assertBuilt, CLI, tempDir } from '../e2e/harness.js';
import { SystemClock } from '../../src/core/clock.js';
import { Ledger } from '../../src/ledger/index.js';

const RAW_CONFIG = {
  poll: { intervalMs: 1_000, maxBookAgeMs: 5_000, orderLookupIntervalMs: 1_000 },
  risk: { capital: '1000', dailyLossLimit: '100' },
  strategy: { name: 'bands', params: { levels: [{ margin: 0.01, size: 10 }] } },
};

/** `oddsmaker backtest` on the test's config and recording, its report in `out`, with more flags. */
function backtestRun(out: string, ...flags: string[]): ReturnType<typeof cli> {
  return cli('backtest', '--config', config, '--recording', recording, '--out', out, ...flags);
}

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The compiled worker the command runs its backtest on (the sources here are TypeScript). */
const RUN_WORKER = pathToFileURL(resolve('dist/src/backtest/thread/run-worker.js'));

let recording: string;
let dir: string;
let config: string;

beforeAll(async () => {
  assertBuilt([CLI, fileURLToPath(RUN_WORKER)]);
  recording = await writeSynthetic({ durationMs: 30_000, lockAtMs: 10_000 });
  dir = tempDir();
  config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify(RAW_CONFIG));
});

describe('oddsmaker backtest', () => {
  it('writes report.json and a self-contained report.html, prints one summary line, and is byte-for-byte deterministic', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    const r1 = backtestRun(a, '--seed', '3', '--fill-model', 'cross');
    expect(r1.stderr).toBe('');
    expect(r1.status).toBe(0);
    const r2 = backtestRun(b, '--seed', '3', '--fill-model', 'cross');
    expect(r2.status).toBe(0);
    const lines = r1.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^backtest: pnl -?[\d.]+ .*\b1 fills, volume 4\.9\b.*report in /);

    const json = readFileSync(join(a, 'report.json'));
    expect(json.equals(readFileSync(join(b, 'report.json')))).toBe(true);
    expect(readFileSync(join(a, 'report.html')).equals(readFileSync(join(b, 'report.html')))).toBe(true);
    const report = JSON.parse(json.toString('utf8')) as Record<string, unknown>;
    for (const k of ['pnl', 'fills', 'volume', 'drawdown', 'sharpe', 'inventory', 'uptime', 'fillRatio', 'markouts'])
      expect(report).toHaveProperty(k);
    expect(report).toMatchObject({ fills: { count: 1, buys: 1, sells: 0 }, volume: { notionalMicros: 4_900_000 } });
    expect((report.markouts as Array<{ horizonMs: number }>).map((m) => m.horizonMs)).toEqual([1_000, 10_000, 60_000]);

    // The CLI's file is exactly the report of the same replay in this process.
    const inProcess = await runBacktest({ recording, config: testConfig(), seed: 3, fillModel: 'cross' });
    expect(report['settings']).toEqual({
      config,
      recording,
      strategy: 'bands',
      params: RAW_CONFIG.strategy.params,
      fillModel: 'cross',
      latency: '0 ms',
      cadence: 'poll',
      pollIntervalMs: 1_000,
      seed: 3,
      depth: 'full',
    });
    const settings = report['settings'] as ReportSettings;
    expect(json.toString('utf8')).toBe(reportJson(computeReport(reportInputFromBacktest(inProcess, { settings }))));

    const html = readFileSync(join(a, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<link\b|<script[^>]*\bsrc=|<img\b|@import|url\(/i);
  }, 60_000);

  it('accepts the fill model, latency and seed flags; different seeds or models still give a complete report', () => {
    const out = join(dir, 'queue');
    const r = backtestRun(out, '--fill-model', 'queue', '--latency-ms', '50', '--seed', '9');
    expect(r.status).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { fills: { count: number } };
    // The lock at 0.49 never trades size at the bid: the conservative queue model gets no fill where cross got one.
    expect(report.fills.count).toBe(0);
  }, 60_000);

  it('draws a progress bar on a TTY stderr only, and the report is the same either way', async () => {
    const writes: string[] = [];
    const lines: string[] = [];
    const tty = {
      isTTY: true,
      columns: 80,
      write: (s: string) => {
        writes.push(s);
        return true;
      },
    } as unknown as NodeJS.WritableStream & { isTTY: boolean };
    const piped = {
      isTTY: false,
      write: (s: string) => {
        writes.push(`piped:${s}`);
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    const withBar = await runBacktestCommand(
      { config, recording, out: join(dir, 'tty') },
      { stdout: (l) => lines.push(l), stderr: tty },
      RUN_WORKER,
    );
    expect(writes.length).toBeGreaterThan(1);
    // The share of the file read, the replay's pace and the time left at it.
    expect(writes.at(-2)).toMatch(/backtest \[#+\] 100% [\d.]+[kM]? events\/s, 0 s left/);
    expect(writes.at(-1)).toBe('\n');
    const n = writes.length;
    const without = await runBacktestCommand(
      { config, recording, out: join(dir, 'piped') },
      { stdout: (l) => lines.push(l), stderr: piped },
      RUN_WORKER,
    );
    expect(writes.length).toBe(n);
    expect(reportJson(withBar)).toBe(reportJson(without));
    expect(readFileSync(join(dir, 'tty', 'report.json')).equals(readFileSync(join(dir, 'piped', 'report.json')))).toBe(
      true,
    );
    expect(lines).toHaveLength(2);
  }, 60_000);

  it('--ledger writes the run ledger once to a new SQLite file, equal to the report; an existing file is refused', () => {
    const out = join(dir, 'with-ledger');
    const ledgerFile = join(dir, 'run-ledger.sqlite');
    const r = backtestRun(out, '--fill-model', 'cross', '--ledger', ledgerFile);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      fills: { count: number };
      pnl: { realizedMicros: number; feesMicros: number };
    };
    const ledger = Ledger.open(ledgerFile, { clock: new SystemClock() });
    try {
      const fills = ledger.fills(0, 100_000);
      expect(fills).toHaveLength(report.fills.count);
      expect(report.fills.count).toBeGreaterThan(0);
      expect(ledger.openOrders()).toEqual([]);
      const pnl = ledger.markToMarket(new Map());
      expect(pnl.realized).toBe(report.pnl.realizedMicros);
      expect(pnl.fees).toBe(report.pnl.feesMicros);
    } finally {
      ledger.close();
    }
    const again = backtestRun(out, '--fill-model', 'cross', '--ledger', ledgerFile);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('--ledger');
  });

  it('exits 2 on a bad config, naming the path and the value', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...RAW_CONFIG, risk: { capital: '-5', dailyLossLimit: '100' } }));
    const r = cli('backtest', '--config', bad, '--recording', recording, '--out', join(dir, 'never'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('risk.capital');
    expect(r.stderr).toContain('"-5"');
  });

  it('exits 2 on a missing recording and on a bad flag value, naming them', () => {
    const missing = join(dir, 'nope.omrc');
    const r = cli('backtest', '--config', config, '--recording', missing, '--out', join(dir, 'never'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(missing);
    // Each bad value exits 2 and is named in the message.
    for (const [flag, value, says] of [
      ['--fill-model', 'magic', '"magic"'],
      ['--latency-ms', '-1', '--latency-ms'],
      ['--cadence', 'sometimes', '"sometimes"'],
      ['--max-heap-mb', '10', '--max-heap-mb must be an integer ≥ 256, got "10"'],
    ] as const) {
      const bad = backtestRun(join(dir, 'never'), flag, value);
      expect(bad.status, flag).toBe(2);
      expect(bad.stderr).toContain(says);
    }
  });

  it("--max-heap-mb sets the run thread's heap limit: a small one is enough for a small run, with the same report", () => {
    const limited = backtestRun(join(dir, 'small-heap'), '--fill-model', 'cross', '--max-heap-mb', '256');
    expect(limited.stderr).toBe('');
    expect(limited.status).toBe(0);
    expect(backtestRun(join(dir, 'default-heap'), '--fill-model', 'cross').status).toBe(0);
    expect(readFileSync(join(dir, 'small-heap', 'report.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'default-heap', 'report.json'), 'utf8'),
    );
  });

  it("--cadence update quotes on every recorded update and finds the polled run's fill", () => {
    const polled = backtestRun(join(dir, 'cad-poll'), '--seed', '4', '--fill-model', 'cross');
    const every = backtestRun(join(dir, 'cad-update'), '--seed', '4', '--cadence', 'update', '--fill-model', 'cross');
    expect([polled.status, every.status]).toEqual([0, 0]);
    type R = { fills: { count: number } };
    const read = (d: string): R => JSON.parse(readFileSync(join(dir, d, 'report.json'), 'utf8')) as R;
    expect(read('cad-update').fills.count).toBe(read('cad-poll').fills.count);
    expect(read('cad-update').fills.count).toBeGreaterThan(0);
  }, 60_000);

  it('exits 1 on a file that is not a recording', () => {
    const junk = join(dir, 'junk.omrc');
    writeFileSync(junk, 'not a recording at all');
    const r = cli('backtest', '--config', config, '--recording', junk, '--out', join(dir, 'never'));
    expect(r.status).toBe(1);
  });
});

interface SweepDoc {
  sort: string;
  keys: string[];
  rows: SweepRow[];
}

describe('oddsmaker backtest sweep', () => {
  const GRID = { maxPosition: [5, 100], refreshTolerance: [0, 0.005] };

  it('runs a 2×2 grid on 2 workers: 4 rows, each equal to the in-process run, sorted with ties in grid order', async () => {
    const grid = join(dir, 'grid.json');
    writeFileSync(grid, JSON.stringify(GRID));
    const out = join(dir, 'sweep', 'rows.json');
    const r = cli(
      'backtest',
      'sweep',
      '--config',
      config,
      '--recording',
      recording,
      '--grid',
      grid,
      '--out',
      out,
      '--workers',
      '2',
      '--fill-model',
      'cross',
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const text = readFileSync(out, 'utf8');
    const doc = JSON.parse(text) as SweepDoc;
    expect(doc.sort).toBe('pnl');
    expect(doc.keys).toEqual(['maxPosition', 'refreshTolerance']);
    expect(doc.rows).toHaveLength(4);
    // Indexes follow the grid's expansion order (sorted keys, the last varying fastest).
    expect(Object.fromEntries(doc.rows.map((x) => [x.index, x.params]))).toEqual({
      0: { maxPosition: 5, refreshTolerance: 0 },
      1: { maxPosition: 5, refreshTolerance: 0.005 },
      2: { maxPosition: 100, refreshTolerance: 0 },
      3: { maxPosition: 100, refreshTolerance: 0.005 },
    });
    for (let i = 1; i < doc.rows.length; i++) {
      const [p, q] = [doc.rows[i - 1] as SweepRow, doc.rows[i] as SweepRow];
      expect(p.pnlTotalMicros > q.pnlTotalMicros || (p.pnlTotalMicros === q.pnlTotalMicros && p.index < q.index)).toBe(
        true,
      );
    }
    const setup = { recording, config: testConfig(), fillModel: 'cross' as const, seed: 1 };
    for (const row of doc.rows)
      expect(row).toEqual(await runCombination(setup, { index: row.index, params: row.params }));
    // maxPosition caps the bid: 5 shares at 0.49 instead of 10.
    expect(doc.rows.filter((x) => x.params.maxPosition === 5).map((x) => x.volumeMicros)).toEqual([
      2_450_000, 2_450_000,
    ]);
    // The HTML table beside the JSON: one row per combination, in the same order.
    const html = readFileSync(join(dir, 'sweep', 'rows.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    const htmlRows = [...(/<table id="rows">(.*?)<\/table>/s.exec(html)?.[1] ?? '').matchAll(/<tr>/g)];
    expect(htmlRows).toHaveLength(5);
    expect(html).toContain('<th>maxPosition</th><th>refreshTolerance</th><th>PnL (USDC)</th>');
    // The table: a header and one line per row.
    const table = r.stdout.trimEnd().split('\n');
    expect(table).toHaveLength(5);
    expect(table[0]).toMatch(/^#\s+maxPosition\s+refreshTolerance\s+pnl\s+fills\s+volume/);

    // Same rows, byte for byte, from one worker, and sorted by another metric.
    const one = join(dir, 'sweep', 'one.json');
    expect(
      cli(
        'backtest',
        'sweep',
        '--config',
        config,
        '--recording',
        recording,
        '--grid',
        grid,
        '--out',
        one,
        '--workers',
        '1',
        '--fill-model',
        'cross',
      ).status,
    ).toBe(0);
    expect(readFileSync(one, 'utf8')).toBe(text);
    const byVolume = join(dir, 'sweep', 'volume.json');
    expect(
      cli(
        'backtest',
        'sweep',
        '--config',
        config,
        '--recording',
        recording,
        '--grid',
        grid,
        '--out',
        byVolume,
        '--workers',
        '2',
        '--sort',
        'volume',
        '--fill-model',
        'cross',
      ).status,
    ).toBe(0);
    const v = JSON.parse(readFileSync(byVolume, 'utf8')) as SweepDoc;
    expect(v.rows.map((x) => x.index)).toEqual([2, 3, 0, 1]);
  }, 120_000);

  it('sweeps a nested strategy parameter by its dotted key', () => {
    const grid = join(dir, 'dotted-grid.json');
    writeFileSync(grid, JSON.stringify({ 'levels.0.size': [5, 10] }));
    const out = join(dir, 'sweep', 'dotted.json');
    const r = cli(
      'backtest',
      'sweep',
      '--config',
      config,
      '--recording',
      recording,
      '--grid',
      grid,
      '--out',
      out,
      '--workers',
      '1',
      '--fill-model',
      'cross',
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as SweepDoc;
    expect(doc.keys).toEqual(['levels.0.size']);
    // The bid's size follows the swept leaf: 5 or 10 shares at 0.49.
    expect(Object.fromEntries(doc.rows.map((x) => [String(x.params['levels.0.size']), x.volumeMicros]))).toEqual({
      5: 2_450_000,
      10: 4_900_000,
    });
    expect(readFileSync(join(dir, 'sweep', 'dotted.html'), 'utf8')).toContain('<th>levels.0.size</th>');
  }, 120_000);

  it('exits 2 on an invalid grid, naming the key and the value', () => {
    const cases: Array<[unknown, string[]]> = [
      [{ maxPosition: [5, -3] }, ['"maxPosition"', '-3']],
      [{ maxPosition: 5 }, ['"maxPosition"', '5']],
      [{ refreshTolerance: [] }, ['"refreshTolerance"', '[]']],
      [{ noSuchParam: [1] }, ['"noSuchParam"', '1']],
      [[1, 2], ['[1,2]']],
    ];
    for (const [g, needles] of cases) {
      const grid = join(dir, 'bad-grid.json');
      writeFileSync(grid, JSON.stringify(g));
      const r = cli(
        'backtest',
        'sweep',
        '--config',
        config,
        '--recording',
        recording,
        '--grid',
        grid,
        '--out',
        join(dir, 'never.json'),
        '--workers',
        '2',
      );
      expect(r.status, JSON.stringify(g)).toBe(2);
      for (const n of needles) expect(r.stderr, JSON.stringify(g)).toContain(n);
    }
    const r = cli(
      'backtest',
      'sweep',
      '--config',
      config,
      '--recording',
      recording,
      '--grid',
      join(dir, 'grid.json'),
      '--out',
      join(dir, 'never.json'),
      '--sort',
      'luck',
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('"luck"');
  });
});

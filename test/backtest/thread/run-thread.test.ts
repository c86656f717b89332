// A backtest on a thread of its own (src/backtest/thread): its report is the one the same run
// gives in this thread, progress reaches the caller, a failure crosses with the code it was thrown
// with (so the CLI's exit code does not change), and a thread that dies rejects instead of hanging.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/backtest/index.js';
import { reportInputFromBacktest } from '../../../src/backtest/report/from-backtest.js';
import { computeReport, reportJson } from '../../../src/backtest/report/index.js';
import type { ReportSettings } from '../../../src/backtest/report/input.js';
import type { ThreadRunSetup } from '../../../src/backtest/thread/protocol.js';
import { runBacktestOnThread } from '../../../src/backtest/thread/run-thread.js';
import type { BacktestProgress } from '../../../src/backtest/types.js';
import { OddsmakerError } from '../../../src/core/errors.js';
import { assertBuilt } from '../../support/child.js';
import { tempDir } from '../../e2e/harness.js';
import { testConfig, writeSynthetic } from '../helpers.js';

/** The compiled worker (the sources here are TypeScript). */
const RUN_WORKER = pathToFileURL(resolve('dist/src/backtest/thread/run-worker.js'));

const SETTINGS: ReportSettings = {
  config: 'test',
  recording: 'synthetic',
  strategy: 'bands',
  params: {},
  fillModel: 'cross',
  latency: '0 ms',
  cadence: 'poll',
  pollIntervalMs: 1_000,
  seed: 3,
  depth: 'full',
};

let recording: string;

beforeAll(async () => {
  assertBuilt([fileURLToPath(RUN_WORKER)]);
  recording = await writeSynthetic({ durationMs: 30_000, lockAtMs: 10_000 });
});

function setup(out: string, over: Partial<ThreadRunSetup> = {}): ThreadRunSetup {
  return {
    recording,
    config: testConfig(),
    fillModel: 'cross',
    seed: 3,
    cadence: 'poll',
    out,
    settings: SETTINGS,
    ...over,
  };
}

describe('runBacktestOnThread', () => {
  it('writes and returns the report the same run gives in this thread, with progress to the end', async () => {
    const out = join(tempDir(), 'report');
    const seen: BacktestProgress[] = [];
    const report = await runBacktestOnThread(setup(out), { workerUrl: RUN_WORKER, onProgress: (p) => seen.push(p) });
    const here = await runBacktest({ recording, config: testConfig(), fillModel: 'cross', seed: 3, cadence: 'poll' });
    const expected = computeReport(reportInputFromBacktest(here, { settings: SETTINGS }));
    expect(expected.fills.count).toBeGreaterThan(0);
    expect(reportJson(report)).toBe(reportJson(expected));
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(reportJson(expected));
    const last = seen.at(-1);
    expect(last?.bytesRead).toBe(last?.bytesTotal);
    expect(last?.records).toBe(here.events);
  }, 60_000);

  it("rejects with the code and message of the thread's failure", async () => {
    const bad = join(tempDir(), 'not-a-recording.omrc');
    writeFileSync(bad, 'this is not a recording\n');
    const inThread = await runBacktest({ recording: bad, config: testConfig(), fillModel: 'cross', seed: 3 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(inThread).toBeInstanceOf(OddsmakerError);
    const err = await runBacktestOnThread(setup(join(tempDir(), 'r'), { recording: bad }), {
      workerUrl: RUN_WORKER,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OddsmakerError);
    expect(err).toMatchObject({
      code: (inThread as OddsmakerError).code,
      message: (inThread as OddsmakerError).message,
    });
  }, 60_000);

  it('rejects when the thread exits before its report', async () => {
    const err = await runBacktestOnThread(setup(join(tempDir(), 'r')), {
      workerUrl: new URL('./exits-early-worker.mjs', import.meta.url),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'BACKTEST_THREAD_FAILED', message: expect.stringMatching(/exited \(code 3\)/) });
  }, 60_000);

  it('rejects a thread out of heap with BACKTEST_OUT_OF_HEAP, naming the flag that gives it more', async () => {
    const err = await runBacktestOnThread(setup(join(tempDir(), 'r')), {
      workerUrl: new URL('./runs-out-of-heap-worker.mjs', import.meta.url),
      maxHeapMb: 64,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'BACKTEST_OUT_OF_HEAP', message: expect.stringContaining('--max-heap-mb') });
  }, 60_000);
});

// Test runner settings: every test file under test/ but the timing-sensitive ones (run after, by
// vitest.timing.config.ts), in forked workers (better-sqlite3 and
// worker-thread signing need real processes), with generous timeouts for integration tests that
// start child processes. Tests never assert wall-clock speed; benchmarks do that.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Node options of every test process: the hooks that let a worker thread started by URL as
 * `./x-worker.js` run its TypeScript source (test/support/ts-loader/register.mjs says why).
 * Worker threads inherit them.
 */
export const EXEC_ARGV = ['--import', fileURLToPath(new URL('./test/support/ts-loader/register.mjs', import.meta.url))];

/** Run apart, after this suite, one file at a time (vitest.timing.config.ts says why). */
export const TIMING_SENSITIVE = [
  'test/chaos/**/*.test.ts',
  'test/ratelimit/redis-simulator.test.ts',
  'test/e2e/parity.test.ts',
  // In-process sandbox daemons that step the virtual clock while real loopback I/O completes: on a
  // loaded machine the clock outruns the I/O and a bounded drive ends before the fill it waits for.
  'test/runtime/resolution-sandbox.test.ts',
  'test/runtime/notify-sandbox.test.ts',
  // A real headless Chromium beside a sandbox daemon: the heaviest process of the suite.
  'test/e2e/console.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...TIMING_SENSITIVE],
    pool: 'forks',
    execArgv: EXEC_ARGV,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain 'N passed, N failed' closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results.json' },
  },
});

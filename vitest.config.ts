// Test runner settings: every test file under test/ but the timing-sensitive ones (run after, by
// vitest.timing.config.ts), in forked workers (better-sqlite3 and
// worker-thread signing need real processes), with generous timeouts for integration tests that
// start child processes. Tests never assert wall-clock speed; benchmarks do that.
import { defineConfig } from 'vitest/config';

/** Run apart, after this suite, one file at a time (vitest.timing.config.ts says why). */
export const TIMING_SENSITIVE = ['test/chaos/**/*.test.ts', 'test/ratelimit/redis-simulator.test.ts', 'test/e2e/parity.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...TIMING_SENSITIVE],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain 'N passed, N failed' closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results.json' },
  },
});

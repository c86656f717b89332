// Test runner settings: every test file under test/, run in forked workers (better-sqlite3 and
// worker-thread signing need real processes), with generous timeouts for integration tests that
// start child processes. Tests never assert wall-clock speed; benchmarks do that.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain 'N passed, N failed' closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results.json' },
  },
});

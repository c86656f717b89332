// The timing-sensitive tests, run after the main suite, one file at a time: the chaos tests (child
// daemons killed and churned against a simulator child), the two-process shared Redis budget, and
// the live-versus-backtest parity session. Their verdicts depend on wall time (0 throttled
// responses are judged by a server that times requests on arrival; the parity session's fill
// counts depend on how many polls a busy machine fits in its minute), so they must not share the
// 2 cores with the rest of the suite.
import { defineConfig } from 'vitest/config';
import { TIMING_SENSITIVE } from './vitest.config.ts';

export default defineConfig({
  test: {
    include: [...TIMING_SENSITIVE],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results-timing.json' },
  },
});

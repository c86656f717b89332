// The timing-sensitive tests, run after the main suite, one file at a time: the chaos tests (child
// daemons killed and churned against a simulator child), the two-process shared Redis budget, the
// live-versus-backtest parity session, the in-process sandbox daemons driven on the virtual clock,
// and the browser test of the console. Their verdicts depend on wall time (0 throttled
// responses are judged by a server that times requests on arrival; the parity session's fill
// counts depend on how many polls a busy machine fits in its minute), so they must not share the
// 2 cores with the rest of the suite.
import { defineConfig } from 'vitest/config';
import { EXEC_ARGV, TIMING_SENSITIVE } from './vitest.config.ts';

export default defineConfig({
  test: {
    include: [...TIMING_SENSITIVE],
    pool: 'forks',
    execArgv: EXEC_ARGV,
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results-timing.json' },
  },
});

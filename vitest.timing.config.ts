// The timing-sensitive tests, run after the main suite, one file at a time: the chaos tests (child
// daemons killed and churned against a simulator child) and the two-process shared Redis budget.
// Their properties (0 throttled responses, every fill recorded) are judged by a server that times
// requests on arrival, so they must not share the 2 cores with the rest of the suite: a request
// delayed by a busy machine arrives in a later window than the limiter admitted it in.
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

// Registers hooks.mjs in every process and thread the tests start with `--import` (vitest.config.ts
// and vitest.timing.config.ts pass it to their forks; worker threads inherit the flag). It exists
// for one reason: the worker-thread modules of src/ (the signing pool's sign-worker, the
// simulator's verify-worker) are started by URL as `./x-worker.js` beside their pool, which is the
// compiled file in dist/ but a TypeScript source under vitest. Plain JavaScript, so Node loads it
// without help.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);

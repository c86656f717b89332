// A signing worker for pool.test.ts that cannot start: the pool must not respawn it in a loop.
throw new Error('cannot start');

// Steps Redis-backed limiters on the virtual clock: lets real I/O (Redis replies) and the
// continuations it triggers finish before each timer, so a test sees the same admissions whatever
// the machine's load.
import type { VirtualClock } from '../../../src/core/clock.js';
import type { RedisRateLimiter } from '../../../src/ratelimit/redis-limiter.js';

/** Lets real I/O (Redis replies) and the continuations it triggers finish. */
export async function settle(lims: readonly RedisRateLimiter[]): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    await Promise.all(lims.map((l) => l.settled()));
    await new Promise<void>((r) => setImmediate(r));
    if (lims.every((l) => !l.busy)) {
      await new Promise<void>((r) => setImmediate(r));
      if (lims.every((l) => !l.busy)) return;
    }
  }
  throw new Error('limiters never settled');
}

/** Advances the virtual clock timer by timer up to `until`, settling Redis I/O at each step. */
export async function drive(clock: VirtualClock, lims: readonly RedisRateLimiter[], until: number): Promise<void> {
  for (;;) {
    await settle(lims);
    const next = clock.nextTimerAt();
    if (next === null || next > until) break;
    clock.advanceTo(next);
  }
  clock.advanceTo(until);
  await settle(lims);
}

// Drives an in-process daemon on the virtual clock while its real loopback I/O completes: between
// real event-loop turns the clock moves on by `stepMs`, with a real millisecond now and then so
// that work off the loop (sockets, the signing pool's worker threads) keeps pace. Bounded by real
// time, so a loaded machine slows the drive down instead of letting the clock outrun the I/O and
// end it before the awaited state; a state never reached fails with its name.
import type { VirtualClock } from '../../src/core/clock.js';

export interface DriveOptions {
  /** Virtual milliseconds the clock moves every fourth turn (50). */
  readonly stepMs?: number;
  /** Real milliseconds before giving up (60 000). */
  readonly maxRealMs?: number;
}

export async function driveUntil(
  clock: VirtualClock,
  done: () => boolean,
  what: string,
  opts: DriveOptions = {},
): Promise<void> {
  const stepMs = opts.stepMs ?? 50;
  const maxRealMs = opts.maxRealMs ?? 60_000;
  const t0 = Date.now();
  for (let i = 0; !done() && Date.now() - t0 < maxRealMs; i++) {
    await new Promise<void>((r) => setImmediate(r));
    if (i % 4 === 3) {
      await new Promise<void>((r) => setTimeout(r, 1));
      clock.advance(stepMs);
    }
  }
  if (!done()) throw new Error(`drive: ${what} not reached`);
}

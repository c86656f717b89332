// What the rate-limiter benchmarks share: the `BENCH <name> <value> <unit>` and `# note` lines they
// print, and a driver that moves a virtual clock timer by timer while the callers' async loops run
// to quiescence at each instant (advanceAsync's bounded microtask flush can cut a burst short).
import type { VirtualClock } from '../src/core/clock.js';

export function line(name: string, value: number, unit: string): void {
  process.stdout.write(`BENCH ${name} ${Number.isInteger(value) ? value : value.toFixed(4)} ${unit}\n`);
}

export function note(s: string): void {
  process.stdout.write(`# ${s}\n`);
}

/** Lets every promise continuation run (setImmediate comes after the whole microtask queue). */
function drain(): Promise<void> {
  return new Promise<void>((r) => setImmediate(r));
}

/** Moves the virtual clock timer by timer for `ms`, draining at each instant. */
export async function drive(clock: VirtualClock, ms: number): Promise<void> {
  const end = clock.now() + ms;
  for (;;) {
    await drain();
    const next = clock.nextTimerAt();
    if (next === null || next > end) break;
    clock.advanceTo(next);
  }
  clock.advanceTo(end);
  await drain();
}

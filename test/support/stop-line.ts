// The daemon's stop line (src/runtime/daemon.ts `stop()`): the one log line an operator reads after
// a stop, so its fields are a contract the tests check. It is told apart by those fields, not by
// its message text (which differs when orders may still be live).
import type { Line } from './child.js';

export function isStopLine(l: Readonly<Record<string, unknown>>): boolean {
  return (
    typeof l.remaining === 'number' &&
    typeof l.timedOut === 'boolean' &&
    typeof l.finalReadsOwed === 'number' &&
    typeof l.elapsedMs === 'number'
  );
}

/** The stop line among `lines`, or null. */
export function stopLine<L extends Line>(lines: readonly L[]): L | null {
  return lines.find((l) => isStopLine(l)) ?? null;
}

// Order-entry latency of a backtest: how long a placement (POST /orders) or a cancel (DELETE
// /order) takes to reach the venue, constant or drawn uniformly from the seeded generator. The
// backtest's executor (replay/executor.ts) schedules each request's arrival this long after the
// rate limiter admits it, so an order meets the book as it is `placeMs` after the daemon sent it,
// and a cancel leaves our order exposed to fills for `cancelMs`. Invariants kept: draws only from
// the seeded generator, one per request in request order, so a replay repeats exactly; market
// data and lookups are not delayed (the recording is the market data; lookups cost nothing, stated).
import type { LatencySpec } from './types.js';
import { OptionError } from '../core/errors.js';

export interface LatencySampler {
  place(): number;
  cancel(): number;
}

function checkMs(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new OptionError('BACKTEST_OPTION', `latency ${name} must be a non-negative integer of ms, got ${String(v)}`);
}

/** Constant or seeded-uniform latencies (whole ms). */
export function latencySampler(spec: LatencySpec | undefined, random: () => number): LatencySampler {
  if (spec === undefined) return { place: () => 0, cancel: () => 0 };
  if ('placeMs' in spec) {
    checkMs('placeMs', spec.placeMs);
    checkMs('cancelMs', spec.cancelMs);
    return { place: () => spec.placeMs, cancel: () => spec.cancelMs };
  }
  for (const [k, r] of [
    ['place', spec.place],
    ['cancel', spec.cancel],
  ] as const) {
    checkMs(`${k}.minMs`, r.minMs);
    checkMs(`${k}.maxMs`, r.maxMs);
    if (r.maxMs < r.minMs) throw new OptionError('BACKTEST_OPTION', `latency ${k}: maxMs < minMs`);
  }
  const draw = (r: { minMs: number; maxMs: number }): number =>
    r.minMs + Math.floor(random() * (r.maxMs - r.minMs + 1));
  return { place: () => draw(spec.place), cancel: () => draw(spec.cancel) };
}

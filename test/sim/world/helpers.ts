// Shared test helpers for the synthetic world: a fixed start time and small seeded worlds.
import { generateWorld } from '../../../src/sim/world/generate.js';
import type { World } from '../../../src/sim/world/world.js';
import type { QueryResult } from '../../../src/sim/world/query.js';

export const START = Date.UTC(2026, 5, 1, 12, 0, 0);

export function makeWorld(markets = 300, seed: number | string = 1): World {
  return generateWorld({ seed, markets, startMs: START });
}

/** The body of a successful result; fails the test with the error body otherwise. */
export function body<T>(r: QueryResult<T>): T {
  if (!r.ok) throw new Error(`expected success, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The failure of a result; fails the test on success. */
export function failure<T>(r: QueryResult<T>): { status: number; body: unknown } {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.body).slice(0, 200)}`);
  return { status: r.status, body: r.body };
}

// Parameter grids for `oddsmaker backtest sweep`: a JSON object mapping strategy param names to
// non-empty arrays of values. Invariants kept:
// - every problem is a GridError naming the key and the offending value (the CLI exits 2 on it);
// - each value is checked by the strategy's own param parser, merged over the config's params, and
//   so is every whole combination (cross-field rules such as priceCeiling > priceFloor);
// - a key may be a dotted path into nested params (`levels.0.margin`: the first level's margin;
//   a numeric segment indexes an array): the combination sets that one leaf over a deep copy of
//   the config's params, creating missing objects or arrays on the way (the strategy's parser then
//   judges the result); a plain key replaces the top-level param as before;
// - the expansion order is fixed: keys in sorted order, the last key varying fastest, values in the
//   order the grid lists them; a combination's `index` is its position in that order, which makes
//   the sweep's tie-break deterministic whatever the JSON key order or the workers' timing.
import { OddsmakerError } from '../../core/errors.js';
import type { StrategyModule } from '../../strategy/define.js';

export class GridError extends OddsmakerError {
  constructor(message: string) {
    super('GRID_INVALID', message, false);
  }
}

export interface Grid {
  /** Param names, sorted. */
  readonly keys: readonly string[];
  /** Values per key, in the grid's order. */
  readonly values: ReadonlyArray<readonly unknown[]>;
}

export interface Combination {
  readonly index: number;
  /** Only the swept params, keys sorted. */
  readonly params: Readonly<Record<string, unknown>>;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

const MAX_COMBINATIONS = 100_000;

/** Checks the grid's shape (not the values): an object of non-empty arrays. */
export function parseGridShape(raw: unknown, source = 'grid'): Grid {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new GridError(`${source}: expected a JSON object mapping param names to arrays of values (got ${show(raw)})`);
  const obj = raw as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  if (keys.length === 0) throw new GridError(`${source}: the grid names no param`);
  let count = 1;
  const values = keys.map((k) => {
    const v = obj[k];
    if (!Array.isArray(v))
      throw new GridError(`${source}: key ${JSON.stringify(k)}: expected an array of values (got ${show(v)})`);
    if (v.length === 0)
      throw new GridError(`${source}: key ${JSON.stringify(k)}: expected at least one value (got [])`);
    count *= v.length;
    return v as unknown[];
  });
  if (count > MAX_COMBINATIONS) throw new GridError(`${source}: ${count} combinations, more than ${MAX_COMBINATIONS}`);
  return { keys, values };
}

/** Every combination, in the fixed order stated in the header. */
export function combinations(grid: Grid): Combination[] {
  const out: Combination[] = [];
  const idx = grid.keys.map(() => 0);
  const total = grid.values.reduce((n, vs) => n * vs.length, 1);
  for (let i = 0; i < total; i++) {
    const params: Record<string, unknown> = {};
    grid.keys.forEach((k, j) => {
      params[k] = (grid.values[j] as readonly unknown[])[idx[j] as number];
    });
    out.push({ index: i, params });
    for (let j = idx.length - 1; j >= 0; j--) {
      idx[j] = (idx[j] as number) + 1;
      if ((idx[j] as number) < (grid.values[j] as readonly unknown[]).length) break;
      idx[j] = 0;
    }
  }
  return out;
}

function baseObject(base: unknown): Record<string, unknown> {
  return base !== null && typeof base === 'object' && !Array.isArray(base)
    ? { ...(base as Record<string, unknown>) }
    : {};
}

/** The segments of a dotted key; a plain key is one segment. Empty segments are an error. */
export function keyPath(key: string): string[] {
  const segs = key.split('.');
  if (segs.some((s) => s === '')) throw new GridError(`key ${JSON.stringify(key)}: empty segment in a dotted path`);
  return segs;
}

/** Sets `value` at `path` inside `root` (mutated; containers on the path are copies already). */
function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown, key: string): void {
  let node: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i] as string;
    const nextIsIndex = /^\d+$/.test(path[i + 1] as string);
    const cur: unknown = Array.isArray(node) ? node[indexOf(seg, key)] : node[seg];
    let child: Record<string, unknown> | unknown[];
    if (Array.isArray(cur)) child = [...(cur as unknown[])];
    else if (cur !== null && typeof cur === 'object') child = { ...(cur as Record<string, unknown>) };
    else if (cur === undefined) child = nextIsIndex ? [] : {};
    else
      throw new GridError(
        `key ${JSON.stringify(key)}: ${path.slice(0, i + 1).join('.')} is ${show(cur)}, not an object or array`,
      );
    if (Array.isArray(node)) node[indexOf(seg, key)] = child;
    else node[seg] = child;
    node = child;
  }
  const leaf = path[path.length - 1] as string;
  if (Array.isArray(node)) node[indexOf(leaf, key)] = value;
  else node[leaf] = value;
}

function indexOf(seg: string, key: string): number {
  if (!/^\d+$/.test(seg))
    throw new GridError(
      `key ${JSON.stringify(key)}: segment ${JSON.stringify(seg)} indexes an array, expected a number`,
    );
  return Number(seg);
}

/** The config's params with a combination's values over them (dotted keys set nested leaves). */
export function mergeParams(base: unknown, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = baseObject(base);
  for (const [k, v] of Object.entries(params)) {
    if (!k.includes('.')) {
      out[k] = v;
      continue;
    }
    setPath(out, keyPath(k), v, k);
  }
  return out;
}

/**
 * Validates every value of the grid (each alone, over the base params) and every combination with
 * the strategy's parser; throws GridError naming the key and value (or the combination).
 */
export function validateGrid(
  grid: Grid,
  strategy: StrategyModule,
  baseParams: unknown,
  source = 'grid',
): Combination[] {
  grid.keys.forEach((k, j) => {
    for (const v of grid.values[j] as readonly unknown[]) {
      try {
        strategy.parseParams(mergeParams(baseParams, { [k]: v }), 'strategy.params');
      } catch (err) {
        throw new GridError(
          `${source}: key ${JSON.stringify(k)}: value ${show(v)} is invalid for strategy ${strategy.name}: ${(err as Error).message}`,
        );
      }
    }
  });
  const combos = combinations(grid);
  for (const c of combos) {
    try {
      strategy.parseParams(mergeParams(baseParams, c.params), 'strategy.params');
    } catch (err) {
      throw new GridError(
        `${source}: combination ${show(c.params)} is invalid for strategy ${strategy.name}: ${(err as Error).message}`,
      );
    }
  }
  return combos;
}

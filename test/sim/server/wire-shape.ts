// Key paths and JSON types of JSON values, and their comparison, for wire-shapes.test.ts. A shape
// maps each path to the JSON types seen there: `a.b` for an object key, `a[]` for the elements of
// an array (all elements merged), `a.*` for the values of an object whose keys are ids (token ids
// of POST /midpoints: the `maps` of a row), `` for the root. Shapes of several values are merged
// (union of paths, union of types), so optional keys and nullable values of real payloads show.
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';
export type Shape = Map<string, Set<JsonType>>;

export function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  if (t === 'object') return 'object';
  throw new Error(`not a JSON value: ${t}`);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Adds the shape of `v` to `into`. `maps`: paths whose object keys are ids. */
export function addShape(into: Shape, v: unknown, maps: ReadonlySet<string> = new Set(), path = ''): Shape {
  const t = jsonType(v);
  let set = into.get(path);
  if (set === undefined) into.set(path, (set = new Set()));
  set.add(t);
  if (t === 'array') for (const x of v as unknown[]) addShape(into, x, maps, `${path}[]`);
  else if (t === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      addShape(into, x, maps, join(path, maps.has(path) ? '*' : k));
  }
  return into;
}

export function shapeOf(values: readonly unknown[], maps: readonly string[] = []): Shape {
  const s: Shape = new Map();
  const m = new Set(maps);
  for (const v of values) addShape(s, v, m);
  return s;
}

export interface ShapeDiff {
  /** Paths a real payload has that the simulator never sent. */
  readonly missing: string[];
  /** Paths the simulator sent that no real payload has. */
  readonly extra: string[];
  /** Paths where the simulator sent a JSON type no real payload has there: `path: sent vs real`. */
  readonly types: string[];
}

export interface Allowances {
  readonly missing?: Readonly<Record<string, string>>;
  /** An allowed extra path also allows everything below it. */
  readonly extra?: Readonly<Record<string, string>>;
  /** Extra JSON types allowed at a path, with the reason. */
  readonly types?: Readonly<Record<string, { readonly add: readonly JsonType[]; readonly why: string }>>;
}

function under(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
}

/**
 * Compares the simulator's shape with the real one. `realKeysOnly`: paths known from payloads
 * whose JSON types are not trusted (their keys count, their types do not).
 */
export function compareShapes(
  sim: Shape,
  real: Shape,
  realKeysOnly: ReadonlySet<string>,
  allow: Allowances = {},
): ShapeDiff {
  const allowMissing = Object.keys(allow.missing ?? {});
  const allowExtra = Object.keys(allow.extra ?? {});
  const known = new Set([...real.keys(), ...realKeysOnly]);
  const missing = [...known].filter((p) => !sim.has(p) && !under(p, allowMissing)).sort();
  const extra = [...sim.keys()].filter((p) => !known.has(p) && !under(p, allowExtra)).sort();
  const types: string[] = [];
  for (const [p, sent] of sim) {
    const want = real.get(p);
    if (want === undefined) continue; // extra, or known by key only
    const ok = new Set<JsonType>([...want, ...(allow.types?.[p]?.add ?? [])]);
    const bad = [...sent].filter((t) => !ok.has(t));
    if (bad.length > 0) types.push(`${p === '' ? '(root)' : p}: sent ${bad.join('|')} vs real ${[...want].join('|')}`);
  }
  return { missing, extra, types: types.sort() };
}

// Route → plan resolution: which buckets a request of (api, route) counts in, built once per
// route and cached. Generic over what a backend builds from a spec (ring buffers in memory, key
// lists in Redis). Invariants: a route the table names gets its own buckets plus its group's
// general cap, deduplicated, own first; an unnamed route gets the general cap only and is never
// cached under its own string (so arbitrary paths cannot grow the cache); a route whose group
// cannot be implied is refused.
import { AMBIGUOUS_ROUTES, API_GROUPS, ROUTE_API, routeId, type ApiGroup, type BudgetTable } from './budgets.js';
import { RateLimitRouteError } from './errors.js';

export interface RouteSpec {
  readonly api: ApiGroup;
  /** Key used for the cache and in messages: the table's route id, or `<api> *` for unnamed routes. */
  readonly id: string;
  /** Every bucket the request counts in. */
  readonly buckets: readonly string[];
  /** Buckets a 429 on this route pauses: its own, or the general cap when it has none. */
  readonly pauseBuckets: readonly string[];
}

export class RouteResolver<P> {
  private readonly table: BudgetTable;
  private readonly build: (spec: RouteSpec) => P;
  private readonly known = new Map<ApiGroup, Map<string, P>>();
  private readonly generalPlans = new Map<ApiGroup, P>();

  constructor(table: BudgetTable, build: (spec: RouteSpec) => P) {
    this.table = table;
    this.build = build;
    for (const api of API_GROUPS) this.known.set(api, new Map());
  }

  /** The plan of `route` in group `api` (implied from the route when omitted). */
  resolve(route: string, api?: ApiGroup): P {
    const group = api ?? impliedApi(route);
    const m = this.known.get(group);
    if (m === undefined) throw new RateLimitRouteError(`unknown API group "${String(group)}" for ${route}`);
    const hit = m.get(route);
    if (hit !== undefined) return hit;
    const own = this.table.routes[routeId(group, route)];
    if (own === undefined) return this.general(group);
    const plan = this.build(this.spec(group, routeId(group, route), own));
    m.set(route, plan);
    return plan;
  }

  private general(api: ApiGroup): P {
    let p = this.generalPlans.get(api);
    if (p === undefined) {
      p = this.build(this.spec(api, `${api} *`, []));
      this.generalPlans.set(api, p);
    }
    return p;
  }

  private spec(api: ApiGroup, id: string, own: readonly string[]): RouteSpec {
    const g = this.table.general[api];
    const buckets = [...new Set(g === undefined ? own : [...own, g])];
    const pauseBuckets = own.length > 0 ? [...new Set(own)] : g === undefined ? [] : [g];
    return { api, id, buckets, pauseBuckets };
  }
}

export function impliedApi(route: string): ApiGroup {
  const api = ROUTE_API[route];
  if (api !== undefined) return api;
  if (AMBIGUOUS_ROUTES.has(route)) {
    throw new RateLimitRouteError(
      `${route} exists in the clob and catalog groups: pass api ('catalog' for the catalog listing of table 8, 'clob' for the CLOB cursor listing)`,
    );
  }
  throw new RateLimitRouteError(`${route} is not a route of the interface: pass its api group`);
}

/** The cost of a request: 1 by default; refused when it could never fit the route's windows. */
export function checkCost(cost: number | undefined, maxCost: number, route: string): number {
  if (cost === undefined) return 1;
  if (!Number.isSafeInteger(cost) || cost < 1)
    throw new RateLimitRouteError(`${route}: cost must be a positive integer, got ${String(cost)}`);
  if (cost > maxCost)
    throw new RateLimitRouteError(
      `${route}: cost ${cost} exceeds the smallest window limit ${maxCost}, it could never be admitted`,
    );
  return cost;
}

// Edge throttling for the exchange simulator: the server's side of table 8. Each client (API key
// or client address) gets its own exact sliding windows, built from the same budget table as the
// client limiter, with no margin (the server counts exactly). A refused request is not counted
// (it never reached the exchange) and gets the Retry-After a 429 carries.
//
// Invariants: per client, no window ever holds more than its limit; a request is counted in every
// window of its route or in none; windows are created on a client's first use of a bucket.
import { TABLE8, routeId, type ApiGroup, type BudgetTable } from './budgets.js';
import { RateLimitRouteError } from './errors.js';
import { SlidingWindowLog } from './window.js';

export type EdgeDecision =
  { readonly admitted: true } | { readonly admitted: false; readonly retryAfterMs: number; readonly bucket: string };

interface ClientState {
  readonly buckets: Map<string, SlidingWindowLog[]>;
}

export class EdgeThrottle {
  private readonly table: BudgetTable;
  private readonly clients = new Map<string, ClientState>();
  private readonly routeBuckets = new Map<string, readonly string[]>();

  constructor(table: BudgetTable = TABLE8) {
    this.table = table;
  }

  /**
   * Decides one request of `client` on (api, route) at `nowMs`. Route keys as in budgets.ts
   * (`POST /order`, templated paths); a route the table does not name counts in its group's
   * general cap only.
   */
  check(client: string, api: ApiGroup, route: string, nowMs: number, cost = 1): EdgeDecision {
    const names = this.bucketsOf(api, route);
    let state = this.clients.get(client);
    if (state === undefined) {
      state = { buckets: new Map() };
      this.clients.set(client, state);
    }
    const logs: SlidingWindowLog[] = [];
    let worst = 0;
    let worstBucket = '';
    for (const name of names) {
      for (const log of this.logs(state, name)) {
        logs.push(log);
        if (!log.hasRoom(nowMs, cost)) {
          const w = log.retryAfterMs(nowMs, cost);
          if (w > worst || worstBucket === '') {
            worst = w;
            worstBucket = name;
          }
        }
      }
    }
    if (worstBucket !== '') return { admitted: false, retryAfterMs: worst, bucket: worstBucket };
    for (const log of logs) log.record(nowMs, cost);
    return { admitted: true };
  }

  /** Forgets every client (simulator reset). */
  reset(): void {
    this.clients.clear();
  }

  private bucketsOf(api: ApiGroup, route: string): readonly string[] {
    const id = routeId(api, route);
    const hit = this.routeBuckets.get(id);
    if (hit !== undefined) return hit;
    const own = this.table.routes[id];
    const g = this.table.general[api];
    const names = [...new Set([...(own ?? []), ...(g === undefined ? [] : [g])])];
    // Cache only named routes so arbitrary paths cannot grow the map.
    if (own !== undefined) this.routeBuckets.set(id, names);
    return names;
  }

  private logs(state: ClientState, name: string): SlidingWindowLog[] {
    let logs = state.buckets.get(name);
    if (logs === undefined) {
      const specs = this.table.buckets[name];
      if (specs === undefined) throw new RateLimitRouteError(`unknown bucket "${name}"`);
      logs = specs.map((s) => new SlidingWindowLog(s.limit, s.windowMs, 0));
      state.buckets.set(name, logs);
    }
    return logs;
  }
}

// Edge throttling of the simulator (interface table 8, docs/protocol.md §7), with the rate limiter's own
// exact sliding windows (src/ratelimit EdgeThrottle): per API key for the trading writes (POST
// /order, POST /orders, DELETE /order, and the public exchange's batch cancels DELETE /orders,
// /cancel-all, /cancel-market-orders; the key is read from the API_KEY header, as an edge would,
// before authentication), per client address for everything else. Invariants kept here:
// - a throttled request answers 429 `{"error": "Too Many Requests"}` with `Retry-After` in whole
//   seconds (rounded up, at least 1) and is not counted (it never reached the exchange);
// - POST /orders counts once in POST /order's budget; a route the table does not name counts in its
//   API group's general cap; GET /markets is the CLOB's cursor listing here (one origin serves all
//   three APIs, and the catalog's market listing is not part of the interface);
// - `/_sim/` routes are never throttled; `--limits off` installs no throttle at all.
import type { Clock } from '../../core/clock.js';
import type { Dialect } from '../../exchange/dialect.js';
import { EdgeThrottle, ROUTE_API, routeKey, TABLE8, type ApiGroup, type BudgetTable } from '../../ratelimit/index.js';

const TRADING_WRITES: ReadonlySet<string> = new Set([
  'POST /order',
  'POST /orders',
  'DELETE /order',
  'DELETE /orders',
  'DELETE /cancel-all',
  'DELETE /cancel-market-orders',
]);

export interface ThrottleDecision {
  readonly admitted: boolean;
  /** Whole seconds for the Retry-After header (throttled only). */
  readonly retryAfterSec: number;
}

export class EdgeGate {
  private readonly edge: EdgeThrottle;
  private readonly apiKeyHeader: string;
  throttled = 0;

  constructor(
    private readonly clock: Clock,
    dialect: Dialect,
    table: BudgetTable = TABLE8,
  ) {
    this.edge = new EdgeThrottle(table);
    this.apiKeyHeader = `${dialect.headerPrefix}API_KEY`.toLowerCase();
  }

  check(method: string, path: string, ip: string, headers: Readonly<Record<string, unknown>>): ThrottleDecision {
    const route = routeKey(method, path);
    const api: ApiGroup = ROUTE_API[route] ?? 'clob';
    let client = `ip:${ip}`;
    if (TRADING_WRITES.has(route)) {
      const key = headers[this.apiKeyHeader];
      if (typeof key === 'string' && key !== '') client = `key:${key}`;
    }
    const d = this.edge.check(client, api, route, this.clock.monotonic());
    if (d.admitted) return { admitted: true, retryAfterSec: 0 };
    this.throttled++;
    return { admitted: false, retryAfterSec: Math.max(1, Math.ceil(d.retryAfterMs / 1000)) };
  }
}

// Table 8 of the interface as data: which budgets ("buckets" of one or more sliding windows) each
// route counts in, per API group. The limiter and the simulator's edge both read this one table.
//
// Decisions kept here (see README.md in this folder):
// - Route keys are `<METHOD> <path template>` (`POST /order`, `GET /data/order/{id}`), and every
//   route belongs to an API group: `clob`, `catalog` or `data`. The group is part of the route's
//   identity because `GET /markets` names two routes: the catalog's markets listing (table 8's
//   300 / 10 s and the combined /events + /markets cap) and the CLOB's cursor listing (only the
//   CLOB general cap). The caller passes the group; for every other route of the interface the
//   group is implied by ROUTE_API, and `GET /markets` without a group is refused.
// - A request counts in its route's own buckets AND its group's general cap. A route the table
//   does not name counts in the general cap only.
// - POST /orders counts in POST /order's budget, one request per call (docs/protocol.md §7).
// - The combined cap covers the two listings `GET /events` and catalog `GET /markets` only, not
//   `/events/slug/{slug}` or `/markets/{id}/tags`.
// - The data group (positions, closed positions, trades, leaderboard) has no general cap in
//   table 8. Unbounded traffic to it would still be throttled by the exchange, so the default
//   gives it the public exchange's documented Data API general cap, 1000 / 10 s; config may
//   change or remove it. `GET /trades` (150 / 10 s) is the only data route table 8 names.
// - The account-lifecycle routes (open orders, account trades, batch cancels, heartbeat,
//   balance/allowance) are not in table 8: their budgets are the public exchange's documented
//   limits (https://docs.polymarket.com/api-reference/rate-limits, "Ledger", "Trading" and the CLOB
//   general section, as the page read when these were added): GET /data/orders and GET /data/trades 500 / 10 s each,
//   GET /balance-allowance 200 / 10 s, DELETE /orders 1000 / 10 s and 15000 / 10 min, DELETE
//   /cancel-all 250 / 10 s and 6000 / 10 min, DELETE /cancel-market-orders 1000 / 10 s and
//   1500 / 10 min (both windows as published, although the long one is the tighter); the heartbeat
//   has no published limit of its own and counts in the CLOB general cap only. The same page's
//   "/trades, /orders, /notifications, /order 900 / 10 s" ledger row is not modelled (it does not
//   say which methods it covers). The page's trading limits have moved since table 8 was taken
//   (POST /order 3500 / 10 s today); table 8 stays the interface's truth for its own routes.
import { RateLimitConfigError } from './errors.js';

export type ApiGroup = 'clob' | 'catalog' | 'data';
export const API_GROUPS: readonly ApiGroup[] = ['clob', 'catalog', 'data'];

export interface WindowSpec {
  readonly limit: number;
  readonly windowMs: number;
}

export interface BudgetTable {
  /** Named budgets; each holds one or more windows enforced together. */
  readonly buckets: Readonly<Record<string, readonly WindowSpec[]>>;
  /** The general-cap bucket of each API group; a group absent here has no general cap. */
  readonly general: Readonly<Partial<Record<ApiGroup, string>>>;
  /** `<api> <METHOD> <path>` → the buckets the route counts in besides its group's general cap. */
  readonly routes: Readonly<Record<string, readonly string[]>>;
}

const S10 = 10_000;
const MIN10 = 600_000;
const w10 = (limit: number): readonly WindowSpec[] => [{ limit, windowMs: S10 }];
const TRADING: readonly WindowSpec[] = [
  { limit: 2400, windowMs: S10 },
  { limit: 24_000, windowMs: MIN10 },
];

/** Table 8, verbatim, plus the data group's general cap decided above. */
export const TABLE8: BudgetTable = {
  buckets: {
    'clob general': w10(5000),
    'catalog general': w10(4000),
    'data general': w10(1000),
    'catalog GET /events': w10(500),
    'catalog GET /markets': w10(300),
    'catalog listings (/events + /markets)': w10(900),
    'catalog GET /tags': w10(200),
    'catalog GET /public-search': w10(350),
    'clob GET /': w10(50),
    'clob GET /book': w10(200),
    'clob POST /books': w10(80),
    'clob GET /price': w10(200),
    'clob POST /prices': w10(80),
    'clob GET /midpoint': w10(200),
    'clob GET /prices-history': w10(100),
    'clob POST /batch-prices-history': w10(80),
    'data GET /trades': w10(150),
    'clob POST /order': TRADING,
    'clob DELETE /order': TRADING,
    // Account lifecycle (docs.polymarket.com/api-reference/rate-limits; see the header).
    'clob GET /data/orders': w10(500),
    'clob GET /data/trades': w10(500),
    'clob GET /balance-allowance': w10(200),
    'clob DELETE /orders': [
      { limit: 1000, windowMs: S10 },
      { limit: 15_000, windowMs: MIN10 },
    ],
    'clob DELETE /cancel-all': [
      { limit: 250, windowMs: S10 },
      { limit: 6000, windowMs: MIN10 },
    ],
    'clob DELETE /cancel-market-orders': [
      { limit: 1000, windowMs: S10 },
      { limit: 1500, windowMs: MIN10 },
    ],
  },
  general: { clob: 'clob general', catalog: 'catalog general', data: 'data general' },
  routes: {
    'catalog GET /events': ['catalog GET /events', 'catalog listings (/events + /markets)'],
    'catalog GET /markets': ['catalog GET /markets', 'catalog listings (/events + /markets)'],
    'catalog GET /tags': ['catalog GET /tags'],
    'catalog GET /public-search': ['catalog GET /public-search'],
    'clob GET /': ['clob GET /'],
    'clob GET /book': ['clob GET /book'],
    'clob POST /books': ['clob POST /books'],
    'clob GET /price': ['clob GET /price'],
    'clob POST /prices': ['clob POST /prices'],
    'clob GET /midpoint': ['clob GET /midpoint'],
    'clob GET /prices-history': ['clob GET /prices-history'],
    'clob POST /batch-prices-history': ['clob POST /batch-prices-history'],
    'data GET /trades': ['data GET /trades'],
    'clob POST /order': ['clob POST /order'],
    'clob POST /orders': ['clob POST /order'],
    'clob DELETE /order': ['clob DELETE /order'],
    'clob GET /data/orders': ['clob GET /data/orders'],
    'clob GET /data/trades': ['clob GET /data/trades'],
    'clob GET /balance-allowance': ['clob GET /balance-allowance'],
    'clob DELETE /orders': ['clob DELETE /orders'],
    'clob DELETE /cancel-all': ['clob DELETE /cancel-all'],
    'clob DELETE /cancel-market-orders': ['clob DELETE /cancel-market-orders'],
  },
};

/**
 * The API group of every route the interface and docs/protocol.md name, so callers may omit it.
 * `GET /markets` is absent on purpose: it exists in two groups (see the header).
 */
export const ROUTE_API: Readonly<Record<string, ApiGroup>> = {
  'GET /': 'clob',
  'POST /order': 'clob',
  'POST /orders': 'clob',
  'DELETE /order': 'clob',
  'GET /data/order/{id}': 'clob',
  'GET /book': 'clob',
  'POST /books': 'clob',
  'GET /price': 'clob',
  'POST /prices': 'clob',
  'GET /midpoint': 'clob',
  'POST /midpoints': 'clob',
  'POST /last-trades-prices': 'clob',
  'GET /prices-history': 'clob',
  'POST /batch-prices-history': 'clob',
  'GET /sampling-markets': 'clob',
  'GET /sampling-simplified-markets': 'clob',
  'GET /clob-markets/{condition_id}': 'clob',
  'GET /time': 'clob',
  'GET /version': 'clob',
  'GET /tick-size': 'clob',
  'GET /neg-risk': 'clob',
  'POST /auth/api-key': 'clob',
  'GET /auth/derive-api-key': 'clob',
  // Account lifecycle (the public exchange's routes; see the header). `POST /heartbeats` is the
  // path the API reference shows, `POST /v1/heartbeats` the one the official clients call.
  'GET /data/orders': 'clob',
  'GET /data/trades': 'clob',
  'DELETE /orders': 'clob',
  'DELETE /cancel-all': 'clob',
  'DELETE /cancel-market-orders': 'clob',
  'POST /v1/heartbeats': 'clob',
  'POST /heartbeats': 'clob',
  'GET /balance-allowance': 'clob',
  'GET /v1/user/rate-limit-tier': 'clob',
  'GET /events': 'catalog',
  'GET /events/slug/{slug}': 'catalog',
  'GET /markets/{id}/tags': 'catalog',
  'GET /tags': 'catalog',
  'GET /public-search': 'catalog',
  'GET /comments/{id}': 'catalog',
  'GET /comments/user_address/{user_address}': 'catalog',
  'GET /positions': 'data',
  'GET /closed-positions': 'data',
  'GET /trades': 'data',
  'GET /v1/leaderboard': 'data',
};

/** Routes whose group cannot be implied. */
export const AMBIGUOUS_ROUTES: ReadonlySet<string> = new Set(['GET /markets']);

/** Path patterns with an identifier segment, mapped to their template. */
const TEMPLATES: readonly (readonly [RegExp, string])[] = [
  [/^\/data\/order\/[^/]+$/, '/data/order/{id}'],
  [/^\/clob-markets\/[^/]+$/, '/clob-markets/{condition_id}'],
  [/^\/events\/slug\/[^/]+$/, '/events/slug/{slug}'],
  [/^\/markets\/[^/]+\/tags$/, '/markets/{id}/tags'],
  [/^\/comments\/user_address\/[^/]+$/, '/comments/user_address/{user_address}'],
  [/^\/comments\/[^/]+$/, '/comments/{id}'],
];

/**
 * The route key of a request: upper-case method, path without query string or trailing slash,
 * identifier segments replaced by their template (`/data/order/0xab…` → `/data/order/{id}`),
 * so that concrete identifiers never become budget keys.
 */
export function routeKey(method: string, path: string): string {
  let p = path;
  const q = p.search(/[?#]/);
  if (q >= 0) p = p.slice(0, q);
  if (p === '') p = '/';
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  for (const [re, template] of TEMPLATES) {
    if (re.test(p)) {
      p = template;
      break;
    }
  }
  return `${method.toUpperCase()} ${p}`;
}

/** `POST /order` in group `clob` → `clob POST /order`, the key of BudgetTable.routes. */
export function routeId(api: ApiGroup, route: string): string {
  return `${api} ${route}`;
}

/**
 * The table with every limit multiplied by `factor` (0 < factor ≤ 1) and rounded down, never
 * below 1: a safety factor for when the exchange's counting is suspected to differ from ours.
 */
export function scaleBudgets(table: BudgetTable, factor: number): BudgetTable {
  if (!(factor > 0 && factor <= 1))
    throw new RateLimitConfigError(`safety factor must be in (0, 1], got ${String(factor)}`);
  if (factor === 1) return table;
  const buckets: Record<string, readonly WindowSpec[]> = {};
  for (const [name, windows] of Object.entries(table.buckets)) {
    buckets[name] = windows.map((w) => ({ limit: Math.max(1, Math.floor(w.limit * factor)), windowMs: w.windowMs }));
  }
  return { buckets, general: table.general, routes: table.routes };
}

/** Problems with a table (unknown bucket names, empty or invalid windows), as path: message. */
export function budgetTableProblems(table: BudgetTable): string[] {
  const problems: string[] = [];
  for (const [name, windows] of Object.entries(table.buckets)) {
    if (windows.length === 0) problems.push(`buckets.${name}: has no window`);
    windows.forEach((w, i) => {
      if (!Number.isSafeInteger(w.limit) || w.limit < 1)
        problems.push(`buckets.${name}[${i}].limit: must be a positive integer, got ${String(w.limit)}`);
      if (!Number.isFinite(w.windowMs) || w.windowMs <= 0)
        problems.push(`buckets.${name}[${i}].windowMs: must be positive, got ${String(w.windowMs)}`);
    });
  }
  for (const [api, name] of Object.entries(table.general)) {
    if (name !== undefined && table.buckets[name] === undefined)
      problems.push(`general.${api}: unknown bucket "${name}"`);
  }
  for (const [id, names] of Object.entries(table.routes)) {
    const api = id.split(' ', 1)[0];
    if (!API_GROUPS.includes(api as ApiGroup))
      problems.push(`routes.${id}: must start with an API group (${API_GROUPS.join(', ')})`);
    for (const n of names) if (table.buckets[n] === undefined) problems.push(`routes.${id}: unknown bucket "${n}"`);
  }
  return problems;
}

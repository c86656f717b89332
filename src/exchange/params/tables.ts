// The parameter tables of docs/exchange-interface.md §4.4 (portfolio), §4.5 (catalog, comments,
// leaderboard) and of the routes docs/protocol.md §8 adds, as data. Invariants: every bound, default
// and value set here is the one the spec's table states (cited per table); where the spec names a
// parameter without a bound, none is invented beyond its type (an offset is >= 0).
import { ClientValidationError } from '../errors.js';
import { ADDRESS, type ParamSpec, type ParamTable } from './spec.js';

const SORT_DIRECTION = ['ASC', 'DESC'] as const;

export const POSITIONS_SORT_BY = [
  'CURRENT',
  'INITIAL',
  'TOKENS',
  'CASHPNL',
  'PERCENTPNL',
  'TITLE',
  'RESOLVING',
  'PRICE',
  'AVGPRICE',
] as const;
export const CLOSED_POSITIONS_SORT_BY = ['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP'] as const;
export const LEADERBOARD_CATEGORIES = [
  'OVERALL',
  'POLITICS',
  'SPORTS',
  'CRYPTO',
  'FINANCE',
  'CULTURE',
  'MENTIONS',
  'WEATHER',
  'ECONOMICS',
  'TECH',
] as const;
export const LEADERBOARD_PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
export const LEADERBOARD_ORDER_BY = ['PNL', 'VOL'] as const;
export const PRICE_HISTORY_INTERVALS = ['max', 'all', '1m', '1w', '1d', '6h', '1h'] as const;

const creator: ParamSpec = { name: 'creator', kind: 'string' };

/** §4.4 GET /positions. */
export const POSITIONS: ParamTable = {
  route: 'GET /positions',
  params: [
    { name: 'user', kind: 'string', required: true, format: ADDRESS },
    { name: 'market', kind: 'list' },
    { name: 'sizeThreshold', kind: 'number', min: 0, default: 1 },
    { name: 'redeemable', kind: 'boolean', default: false },
    { name: 'mergeable', kind: 'boolean', default: false },
    { name: 'limit', kind: 'integer', min: 0, max: 500, default: 100 },
    { name: 'offset', kind: 'integer', min: 0, max: 10_000, default: 0 },
    { name: 'sortBy', kind: 'enum', values: POSITIONS_SORT_BY, default: 'TOKENS' },
    { name: 'sortDirection', kind: 'enum', values: SORT_DIRECTION, default: 'DESC' },
    { name: 'title', kind: 'string', maxLength: 100 },
  ],
};

/** §4.4 GET /closed-positions. */
export const CLOSED_POSITIONS: ParamTable = {
  route: 'GET /closed-positions',
  params: [
    { name: 'user', kind: 'string', required: true, format: ADDRESS },
    { name: 'market', kind: 'list' },
    { name: 'title', kind: 'string', maxLength: 100 },
    { name: 'limit', kind: 'integer', min: 0, max: 50, default: 10 },
    { name: 'offset', kind: 'integer', min: 0, max: 100_000, default: 0 },
    { name: 'sortBy', kind: 'enum', values: CLOSED_POSITIONS_SORT_BY, default: 'REALIZEDPNL' },
    { name: 'sortDirection', kind: 'enum', values: SORT_DIRECTION, default: 'DESC' },
  ],
};

/** §4.5 GET /events. */
export const EVENTS: ParamTable = {
  route: 'GET /events',
  params: [
    { name: 'limit', kind: 'integer', min: 1, max: 100, default: 20 },
    { name: 'offset', kind: 'integer', min: 0, default: 0 },
    { name: 'active', kind: 'boolean' },
    { name: 'closed', kind: 'boolean' },
    { name: 'archived', kind: 'boolean' },
    { name: 'tag', kind: 'string' },
    { name: 'tag_id', kind: 'integer', min: 0 },
    { name: 'tag_slug', kind: 'string' },
    { name: 'series_slug', kind: 'string' },
    { name: 'slug', kind: 'string' },
    { name: 'order', kind: 'string' },
    { name: 'ascending', kind: 'boolean', default: false },
    creator,
  ],
  check: (v) => {
    // `tag` is an alias of `tag_slug`: two different slugs in one query cannot both hold.
    const tag = v.get('tag');
    const slug = v.get('tag_slug');
    if (tag !== undefined && slug !== undefined && tag !== slug) {
      throw new ClientValidationError('tag', tag, `is an alias of tag_slug, which is ${JSON.stringify(slug)}`);
    }
  },
};

/** §4.5 GET /events/slug/{slug} and GET /markets/{id}/tags (query part). */
export const CREATOR_ONLY = (route: string): ParamTable => ({ route, params: [creator] });

/** §4.5 GET /comments/{id} and GET /comments/user_address/{user_address}. */
export const COMMENTS = (route: string): ParamTable => ({
  route,
  params: [
    { name: 'limit', kind: 'integer', min: 1, max: 100, default: 20 },
    { name: 'offset', kind: 'integer', min: 0, default: 0 },
  ],
});

/** §4.5 GET /v1/leaderboard. */
export const LEADERBOARD: ParamTable = {
  route: 'GET /v1/leaderboard',
  params: [
    { name: 'category', kind: 'enum', values: LEADERBOARD_CATEGORIES, default: 'OVERALL' },
    { name: 'timePeriod', kind: 'enum', values: LEADERBOARD_PERIODS, default: 'DAY' },
    { name: 'orderBy', kind: 'enum', values: LEADERBOARD_ORDER_BY, default: 'PNL' },
    { name: 'limit', kind: 'integer', min: 1, max: 50, default: 25 },
    { name: 'offset', kind: 'integer', min: 0, max: 1000, default: 0 },
    { name: 'user', kind: 'string', format: ADDRESS },
    { name: 'userName', kind: 'string' },
  ],
};

/** docs/protocol.md §8 GET /trades: offset paging, `limit` 1–500, default 100. */
export const TRADES: ParamTable = {
  route: 'GET /trades',
  params: [
    { name: 'user', kind: 'string', format: ADDRESS },
    { name: 'market', kind: 'list' },
    { name: 'limit', kind: 'integer', min: 1, max: 500, default: 100 },
    { name: 'offset', kind: 'integer', min: 0, default: 0 },
    // The public Data API's filter (its default there is true: each match once, on its taker
    // row); sent only when given, so existing queries are unchanged.
    { name: 'takerOnly', kind: 'boolean' },
  ],
};

/** docs/protocol.md §8 GET /tags; catalog limit bounds of interface §8 (1 to 100, default 20). */
export const TAGS: ParamTable = {
  route: 'GET /tags',
  params: [
    { name: 'limit', kind: 'integer', min: 1, max: 100, default: 20 },
    { name: 'offset', kind: 'integer', min: 0, default: 0 },
  ],
};

/** docs/protocol.md §8 GET /public-search. */
export const PUBLIC_SEARCH: ParamTable = {
  route: 'GET /public-search',
  params: [
    { name: 'q', kind: 'string', required: true },
    { name: 'limit_per_type', kind: 'integer', min: 1 },
  ],
};

function historyCheck(start: string, end: string) {
  return (v: ReadonlyMap<string, unknown>): void => {
    const s = v.get(start);
    const e = v.get(end);
    const interval = v.get('interval');
    if (interval !== undefined && (s !== undefined || e !== undefined)) {
      throw new ClientValidationError('interval', interval, `cannot be combined with ${start}/${end}`);
    }
    if (typeof s === 'number' && typeof e === 'number' && s > e) {
      throw new ClientValidationError(start, s, `must be <= ${end} (${e})`);
    }
  };
}

/** docs/protocol.md §8 GET /prices-history: `startTs`/`endTs` (Unix seconds) or `interval`, plus `fidelity`. */
export const PRICES_HISTORY: ParamTable = {
  route: 'GET /prices-history',
  params: [
    { name: 'market', kind: 'string', required: true },
    { name: 'startTs', kind: 'integer', min: 0 },
    { name: 'endTs', kind: 'integer', min: 0 },
    { name: 'interval', kind: 'enum', values: PRICE_HISTORY_INTERVALS },
    { name: 'fidelity', kind: 'integer', min: 1 },
  ],
  check: historyCheck('startTs', 'endTs'),
};

/** docs/protocol.md §5 body of POST /batch-prices-history besides `markets` (which the client chunks). */
export const BATCH_PRICES_HISTORY_OPTIONS: ParamTable = {
  route: 'POST /batch-prices-history',
  params: [
    { name: 'start_ts', kind: 'integer', min: 0 },
    { name: 'end_ts', kind: 'integer', min: 0 },
    { name: 'interval', kind: 'enum', values: PRICE_HISTORY_INTERVALS },
    { name: 'fidelity', kind: 'integer', min: 1 },
  ],
  check: historyCheck('start_ts', 'end_ts'),
};

/** A single required `token_id` (GET /book, /midpoint, /tick-size, /neg-risk). */
export const TOKEN_ONLY = (route: string): ParamTable => ({
  route,
  params: [{ name: 'token_id', kind: 'string', required: true }],
});

/** docs/protocol.md §8 GET /price: `side` BUY = best bid, SELL = best ask. */
export const PRICE: ParamTable = {
  route: 'GET /price',
  params: [
    { name: 'token_id', kind: 'string', required: true },
    { name: 'side', kind: 'enum', values: ['BUY', 'SELL'], required: true },
  ],
};

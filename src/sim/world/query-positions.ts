// GET /positions and GET /closed-positions (interface §4.4) over a PositionBook. Each function takes
// the raw query record and returns the wire array or a §7 data error, ready to send. Invariants:
// - parameters, defaults and bounds exactly as the tables: user required (`missing_field: user`);
//   anything not in the table → `unknown_field: <name>`; a bad value → `invalid_field: <name>`
//   (user not 0x + 40 hex, market items not condition ids, sizeThreshold not a decimal >= 0,
//   redeemable/mergeable not true/false, limit/offset not integers within bounds, sortBy or
//   sortDirection not an allowed value, title longer than 100 characters); all status 400;
// - /positions: size >= sizeThreshold (default 1; a position of size 0 is never current);
//   redeemable=true keeps only redeemable ones, mergeable=true only mergeable ones (false, the
//   default, filters nothing); market keeps the listed condition ids; title is a case-insensitive
//   substring of the market title; limit 0–500 (100), offset 0–10000 (0);
// - /closed-positions: market, title as above; limit 0–50 (10), offset 0–100000 (0);
// - sorting on exact millionths; RESOLVING sorts by the market's end date (soonest first in ASC);
//   ties always by condition id then outcome index ascending, so pages are stable and disjoint.
import type {
  ClosedPositionsSortBy,
  PositionsSortBy,
  SortDirection,
  WireClosedPosition,
  WirePosition,
} from '../../exchange/wire.js';
import { toWireClosedPosition, toWirePosition, type PositionBook, type PositionView } from './portfolio.js';
import {
  DATA_STYLE,
  fail,
  isAddress,
  isConditionId,
  page,
  Params,
  runQuery,
  type QueryResult,
  type RawQuery,
} from './query.js';

export const POSITIONS_SORT: readonly PositionsSortBy[] = [
  'CURRENT',
  'INITIAL',
  'TOKENS',
  'CASHPNL',
  'PERCENTPNL',
  'TITLE',
  'RESOLVING',
  'PRICE',
  'AVGPRICE',
];
export const CLOSED_POSITIONS_SORT: readonly ClosedPositionsSortBy[] = [
  'REALIZEDPNL',
  'TITLE',
  'PRICE',
  'AVGPRICE',
  'TIMESTAMP',
];
const DIRECTIONS: readonly SortDirection[] = ['ASC', 'DESC'];

function sortValue(v: PositionView, by: PositionsSortBy | ClosedPositionsSortBy): number | string {
  switch (by) {
    case 'CURRENT':
      return v.currentValue;
    case 'INITIAL':
      return v.initialValue;
    case 'TOKENS':
      return v.size;
    case 'CASHPNL':
      return v.cashPnl;
    case 'PERCENTPNL':
      return v.percentPnl;
    case 'TITLE':
      return v.market.question;
    case 'RESOLVING':
      return v.market.endDateMs;
    case 'PRICE':
      return v.curPrice;
    case 'AVGPRICE':
      return v.avgPrice;
    case 'REALIZEDPNL':
      return v.realizedPnl;
    case 'TIMESTAMP':
      return v.timestampSec;
  }
}

function sorted(
  views: PositionView[],
  by: PositionsSortBy | ClosedPositionsSortBy,
  dir: SortDirection,
): PositionView[] {
  const sign = dir === 'ASC' ? 1 : -1;
  return views
    .map((v) => ({ v, k: sortValue(v, by) }))
    .sort((a, b) => {
      if (a.k !== b.k) return (a.k < b.k ? -1 : 1) * sign;
      const ca = a.v.market.conditionId;
      const cb = b.v.market.conditionId;
      if (ca !== cb) return ca < cb ? -1 : 1;
      return a.v.outcomeIndex - b.v.outcomeIndex;
    })
    .map((x) => x.v);
}

interface Common {
  user: string;
  markets: Set<string> | undefined;
  title: string | undefined;
}

function common(p: Params): Common {
  const user = p.required('user');
  if (!isAddress(user)) fail(DATA_STYLE.invalid('user', 'must be a wallet address'));
  const list = p.list('market');
  if (list !== undefined && !list.every(isConditionId)) fail(DATA_STYLE.invalid('market', 'must be condition ids'));
  const title = p.text('title', 100);
  return {
    user,
    markets: list === undefined ? undefined : new Set(list.map((s) => s.toLowerCase())),
    title: title?.toLowerCase(),
  };
}

function keep(v: PositionView, c: Common): boolean {
  if (c.markets !== undefined && !c.markets.has(v.market.conditionId)) return false;
  if (c.title !== undefined && !v.market.question.toLowerCase().includes(c.title)) return false;
  return true;
}

export function getPositions(book: PositionBook, q: RawQuery): QueryResult<WirePosition[]> {
  return runQuery(() => {
    const p = new Params(q, DATA_STYLE).only([
      'user',
      'market',
      'sizeThreshold',
      'redeemable',
      'mergeable',
      'limit',
      'offset',
      'sortBy',
      'sortDirection',
      'title',
    ]);
    const c = common(p);
    const threshold = p.decimalMicros('sizeThreshold', 1_000_000);
    const redeemable = p.bool('redeemable', false);
    const mergeable = p.bool('mergeable', false);
    const limit = p.int('limit', { min: 0, max: 500 }, 100);
    const offset = p.int('offset', { min: 0, max: 10_000 }, 0);
    const sortBy = p.oneOf('sortBy', POSITIONS_SORT, 'TOKENS');
    const dir = p.oneOf('sortDirection', DIRECTIONS, 'DESC');
    const views = book
      .current(c.user)
      .filter((v) => keep(v, c) && v.size >= threshold && (!redeemable || v.redeemable) && (!mergeable || v.mergeable));
    return page(sorted(views, sortBy, dir), offset, limit).map(toWirePosition);
  });
}

export function getClosedPositions(book: PositionBook, q: RawQuery): QueryResult<WireClosedPosition[]> {
  return runQuery(() => {
    const p = new Params(q, DATA_STYLE).only(['user', 'market', 'title', 'limit', 'offset', 'sortBy', 'sortDirection']);
    const c = common(p);
    const limit = p.int('limit', { min: 0, max: 50 }, 10);
    const offset = p.int('offset', { min: 0, max: 100_000 }, 0);
    const sortBy = p.oneOf('sortBy', CLOSED_POSITIONS_SORT, 'REALIZEDPNL');
    const dir = p.oneOf('sortDirection', DIRECTIONS, 'DESC');
    const views = book.closed(c.user).filter((v) => keep(v, c));
    return page(sorted(views, sortBy, dir), offset, limit).map(toWireClosedPosition);
  });
}

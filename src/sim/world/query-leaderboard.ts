// GET /v1/leaderboard (interface §4.5). Invariants kept here:
// - parameters exactly as the table: category (default OVERALL), timePeriod (DAY), orderBy (PNL),
//   limit 1–50 (25), offset 0–1000 (0), user (a wallet, any case), userName; values are the
//   table's upper-case names; data error shape: `unknown_field: <name>`, `invalid_field: <name>`;
// - ranks are positions in the whole (category, period) board ordered by `orderBy` descending
//   (ties: the other figure descending, then wallet ascending), computed before the user/userName
//   filters, so a filtered row keeps its board rank; paging applies after the filters.
import type { WireLeaderboardEntry } from '../../exchange/wire.js';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS, type LeaderboardFigure } from './model.js';
import { DATA_STYLE, fail, isAddress, page, Params, runQuery, type QueryResult, type RawQuery } from './query.js';
import { toWireLeaderboardEntry } from './render-catalog.js';
import type { World } from './world.js';

export const LEADERBOARD_ORDER = ['PNL', 'VOL'] as const;

export function getLeaderboard(world: World, q: RawQuery): QueryResult<WireLeaderboardEntry[]> {
  return runQuery(() => {
    const p = new Params(q, DATA_STYLE).only([
      'category',
      'timePeriod',
      'orderBy',
      'limit',
      'offset',
      'user',
      'userName',
    ]);
    const category = p.oneOf('category', LEADERBOARD_CATEGORIES, 'OVERALL');
    const period = p.oneOf('timePeriod', LEADERBOARD_PERIODS, 'DAY');
    const orderBy = p.oneOf('orderBy', LEADERBOARD_ORDER, 'PNL');
    const limit = p.int('limit', { min: 1, max: 50 }, 25);
    const offset = p.int('offset', { min: 0, max: 1000 }, 0);
    const user = p.text('user', 42);
    if (user !== undefined && !isAddress(user)) fail(DATA_STYLE.invalid('user', 'must be a wallet address'));
    const userName = p.text('userName', 100);

    const first = (f: LeaderboardFigure): number => (orderBy === 'PNL' ? f.pnl : f.vol);
    const second = (f: LeaderboardFigure): number => (orderBy === 'PNL' ? f.vol : f.pnl);
    const ranked = [...world.leaderboardFigures(category, period)]
      .sort((a, b) => {
        const d = first(b) - first(a) || second(b) - second(a);
        if (d !== 0) return d;
        const wa = world.user(a.userIndex).proxyWallet;
        const wb = world.user(b.userIndex).proxyWallet;
        return wa < wb ? -1 : wa > wb ? 1 : 0;
      })
      .map((f, i) => ({ f, rank: i + 1 }));
    const wallet = user?.toLowerCase();
    const filtered = ranked.filter(({ f }) => {
      const u = world.user(f.userIndex);
      if (wallet !== undefined && u.proxyWallet !== wallet) return false;
      if (userName !== undefined && u.name !== userName) return false;
      return true;
    });
    return page(filtered, offset, limit).map(({ f, rank }) => toWireLeaderboardEntry(world, f, rank));
  });
}

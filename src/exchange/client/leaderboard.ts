// GET /v1/leaderboard (interface §4.5, the only versioned path), served by the Data API.
// Invariant: category, timePeriod, orderBy, limit (1–50), offset (0–1000), user, userName are
// checked against the table, defaults sent explicitly, before anything is sent.
import type { LeaderboardEntry } from '../../core/market.js';
import { encodeQuery } from '../params/spec.js';
import { LEADERBOARD } from '../params/tables.js';
import type { LeaderboardParams } from '../params/types.js';
import type { CallOptions, ClientCore } from './core.js';
import { readParsers } from './read-parsers.js';
import { ROUTES } from './routes.js';

export async function getLeaderboard(
  core: ClientCore,
  params: LeaderboardParams = {},
  options?: CallOptions,
): Promise<LeaderboardEntry[]> {
  const query = encodeQuery(LEADERBOARD, params);
  return core.call({
    route: ROUTES.leaderboard,
    path: '/v1/leaderboard',
    query,
    parse: readParsers(core.signing.dialect).leaderboard,
    options,
  });
}

// GET /v1/leaderboard (interface §4.5): the world's figures ranked per category and period, with
// the table's parameters, defaults and bounds; `{error}` shape (`unknown_field: <name>`,
// `invalid_field: <name>`).
import type { FastifyInstance } from 'fastify';
import { getLeaderboard } from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { mapBody, publicLeaderboardEntry } from '../render-public-reads.js';

export function registerLeaderboardRoutes(app: FastifyInstance, ctx: ServerContext): void {
  // Public read shapes (Dialect.readWire 'public'): `verifiedBadge` a boolean (render-public-reads.ts).
  const pub = ctx.dialect.readWire === 'public';
  app.get('/v1/leaderboard', async (req, reply) => {
    const r = getLeaderboard(ctx.venue.world, rawQuery(req.query));
    return sendResult<unknown>(reply, pub ? mapBody(r, (es) => es.map(publicLeaderboardEntry)) : r);
  });
}

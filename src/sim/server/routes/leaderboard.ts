// GET /v1/leaderboard (interface §4.5): the world's figures ranked per category and period, with
// the table's parameters, defaults and bounds; `{error}` shape (`unknown_field: <name>`,
// `invalid_field: <name>`).
import type { FastifyInstance } from 'fastify';
import { getLeaderboard } from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';

export function registerLeaderboardRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/v1/leaderboard', async (req, reply) => sendResult(reply, getLeaderboard(ctx.venue.world, rawQuery(req.query))));
}

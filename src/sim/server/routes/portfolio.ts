// Portfolio routes of interface §4.4 and the public trade history of protocol.md §8: GET
// /positions, /closed-positions (behind the IP allowlist) and GET /trades. Positions come from the
// fills of the engine (src/sim/venue/fills.ts) with the world's query functions doing parameters,
// defaults, bounds, sorting, paging and the §7 errors (`missing_field: user`, `unknown_field: <name>`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getClosedPositions, getPositions } from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { MSG_IP_NOT_ALLOWLISTED, sendError } from '../errors.js';

export function registerPortfolioRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue, allowlist } = ctx;
  const preHandler = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!allowlist.allows(req.ip)) await sendError(reply, 401, MSG_IP_NOT_ALLOWLISTED);
  };
  app.get('/positions', { preHandler }, async (req, reply) => sendResult(reply, getPositions(venue.positions, rawQuery(req.query))));
  app.get('/closed-positions', { preHandler }, async (req, reply) => sendResult(reply, getClosedPositions(venue.positions, rawQuery(req.query))));
  app.get('/trades', async (req, reply) => sendResult(reply, venue.trades.query(rawQuery(req.query))));
}

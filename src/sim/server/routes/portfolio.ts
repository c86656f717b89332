// Portfolio routes of interface §4.4 and the public trade history of docs/protocol.md §8: GET
// /positions, /closed-positions (behind the IP allowlist) and GET /trades. Positions come from the
// fills of the engine (src/sim/venue/fills.ts) with the world's query functions doing parameters,
// defaults, bounds, sorting, paging and the §7 errors (`missing_field: user`, `unknown_field: <name>`).
// In the public read shapes (Dialect.readWire 'public') records are reshaped by render-public-reads.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getClosedPositions, getPositions } from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { MSG_IP_NOT_ALLOWLISTED, sendError } from '../errors.js';
import { mapBody, publicClosedPosition, publicPosition, publicTrade } from '../render-public-reads.js';

export function registerPortfolioRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue, allowlist } = ctx;
  const preHandler = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!allowlist.allows(req.ip)) await sendError(reply, 401, MSG_IP_NOT_ALLOWLISTED);
  };
  // Public read shapes (Dialect.readWire 'public'): the same records reshaped (render-public-reads.ts).
  const world = venue.world;
  const pub = ctx.dialect.readWire === 'public';
  app.get('/positions', { preHandler }, async (req, reply) => {
    const r = getPositions(venue.positions, rawQuery(req.query));
    return sendResult<unknown>(reply, pub ? mapBody(r, (ps) => ps.map((p) => publicPosition(world, p))) : r);
  });
  app.get('/closed-positions', { preHandler }, async (req, reply) => {
    const r = getClosedPositions(venue.positions, rawQuery(req.query));
    return sendResult<unknown>(reply, pub ? mapBody(r, (ps) => ps.map((p) => publicClosedPosition(world, p))) : r);
  });
  app.get('/trades', async (req, reply) => {
    const r = venue.trades.query(rawQuery(req.query));
    return sendResult<unknown>(reply, pub ? mapBody(r, (ts) => ts.map((t) => publicTrade(world, t))) : r);
  });
}

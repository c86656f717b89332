// Order data of interface §4.2: GET /data/order/{id}, L2-signed. Answers `{order}` (§2.5) for an
// order of the caller's wallet; any other id (unknown, pruned, or another wallet's) is 404
// `{"error": "Order not found"}`, so one key cannot probe another's orders.
import type { FastifyInstance } from 'fastify';
import type { WireOrderLookup } from '../../../exchange/wire.js';
import type { ServerContext } from '../context.js';
import { MSG_ORDER_NOT_FOUND, MSG_UNAUTHORIZED, sendError } from '../errors.js';
import { orderRecord } from '../render.js';

export function registerOrderRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue } = ctx;
  app.get<{ Params: { id: string } }>('/data/order/:id', { preHandler: ctx.auth.l2PreHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const v = venue.order(req.params.id);
    if (v === undefined || v.record.owner !== who.owner) return sendError(reply, 404, MSG_ORDER_NOT_FOUND);
    const body: WireOrderLookup = { order: orderRecord(v, venue.wallets) };
    return body;
  });
}

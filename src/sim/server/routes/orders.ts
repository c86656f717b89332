// Order data of interface §4.2: GET /data/order/{id}, L2-signed, for an order of the caller's
// wallet; any other id (unknown, pruned, or another wallet's) is "not known", so one key cannot
// probe another's orders. Shapes per the dialect's order wire (Dialect.orderWire):
// - 'interface': `{order}` (§2.5), an unknown id 404 `{"error": "Order not found"}`;
// - 'public': the bare snake_case record (render-public-orders.ts), an unknown id 200 with a
//   `null` body, as the public exchange answers (nautilus_trader http/clob.rs@03ce53d5
//   `get_order_optional`; py-clob-client issue #217: get_order returns None).
import type { FastifyInstance } from 'fastify';
import type { WireOrderLookup } from '../../../exchange/wire.js';
import type { ServerContext } from '../context.js';
import { MSG_ORDER_NOT_FOUND, MSG_UNAUTHORIZED, sendError } from '../errors.js';
import { orderRecord } from '../render.js';
import { publicOrderRecord } from '../render-public-orders.js';

export function registerOrderRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue } = ctx;
  const isPublic = ctx.dialect.orderWire === 'public';
  app.get<{ Params: { id: string } }>('/data/order/:id', { preHandler: ctx.auth.l2PreHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const v = venue.order(req.params.id);
    const known = v !== undefined && v.record.owner === who.owner;
    if (isPublic) {
      // A JSON `null` body, sent as text so that no serializer turns it into an empty body.
      if (!known) return reply.code(200).type('application/json; charset=utf-8').send('null');
      return publicOrderRecord(v, venue.wallets);
    }
    if (!known) return sendError(reply, 404, MSG_ORDER_NOT_FOUND);
    const body: WireOrderLookup = { order: orderRecord(v, venue.wallets) };
    return body;
  });
}

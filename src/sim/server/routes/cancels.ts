// Batch cancels of the public exchange, L2-signed, served in both dialects (the interface lists
// only DELETE /order; docs/protocol.md leaves these open), each answering DELETE /order's shape
// `{canceled: [...], not_canceled: {id: reason}}` (reasons as DELETE /order's, engine messages.ts):
//   DELETE /orders                body: a JSON array of order ids (clob-client-v2 cancelOrders sends
//                                 `JSON.stringify(ordersHashes)`); duplicates are acted on once;
//   DELETE /cancel-all            no body: every live order of the caller;
//   DELETE /cancel-market-orders  body `{market?, asset_id?}` (a null value is absent, as
//                                 rs-clob-client serialises an unset field); at least one of them.
// Invariants: only the caller's own orders are ever cancelled (another's id is "not found"); a
// malformed body is 400 `Invalid payload` before anything is cancelled.
import type { FastifyInstance } from 'fastify';
import { isBadJson } from '../body.js';
import type { ServerContext } from '../context.js';
import { MSG_INVALID_PAYLOAD, MSG_UNAUTHORIZED, sendError } from '../errors.js';
import { cancelManyResult } from '../render-account.js';

/** The ids of a DELETE /orders body, deduplicated in order, or null when it is not an array of ids. */
function orderIds(body: unknown): string[] | null {
  if (isBadJson(body) || !Array.isArray(body)) return null;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const x of body as unknown[]) {
    if (typeof x !== 'string' || x === '') return null;
    if (!seen.has(x)) {
      seen.add(x);
      out.push(x);
    }
  }
  return out;
}

/** `{market?, asset_id?}` with at least one non-empty string; null when malformed. */
function marketFilter(body: unknown): { conditionId?: string; tokenId?: string } | null {
  if (isBadJson(body) || typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const o = body as Record<string, unknown>;
  const out: { conditionId?: string; tokenId?: string } = {};
  for (const [key, field] of [
    ['market', 'conditionId'],
    ['asset_id', 'tokenId'],
  ] as const) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v === '') return null;
    out[field] = v;
  }
  return out.conditionId === undefined && out.tokenId === undefined ? null : out;
}

export function registerCancelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue } = ctx;
  const engine = venue.engine;
  const preHandler = ctx.auth.l2PreHandler;

  app.delete('/orders', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const ids = orderIds(req.body);
    if (ids === null) return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    // One token per submitted id (duplicates included: the exchange counts what was sent).
    if (
      ctx.signer !== null &&
      !ctx.signer.admit(reply, who.address, 'DELETE /orders', Math.max(1, (req.body as unknown[]).length))
    )
      return reply;
    return cancelManyResult(engine.cancelMany(ids, who.owner));
  });

  app.delete('/cancel-all', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    if (ctx.signer !== null && !ctx.signer.admit(reply, who.address, 'DELETE /cancel-all', 1)) return reply;
    const canceled = engine.cancelAll(who.owner);
    ctx.signer?.chargeReply(reply, who.address, 'DELETE /cancel-all', canceled.length);
    return cancelManyResult({ canceled, notCanceled: {} });
  });

  app.delete('/cancel-market-orders', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const filter = marketFilter(req.body);
    if (filter === null) return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    if (ctx.signer !== null && !ctx.signer.admit(reply, who.address, 'DELETE /cancel-market-orders', 1)) return reply;
    const ids = engine.openOrders(who.owner, filter).map((o) => o.id);
    const r = engine.cancelMany(ids, who.owner);
    ctx.signer?.chargeReply(reply, who.address, 'DELETE /cancel-market-orders', r.canceled.length);
    return cancelManyResult(r);
  });
}

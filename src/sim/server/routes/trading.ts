// Trading routes of interface §4.1 (L2-signed): POST /order, POST /orders (1 to 15), DELETE
// /order. Answers per docs/protocol.md §4:
// - POST /order: 200 with the placement result when the order is accepted; a per-order rejection
//   (engine rules, unknown token) is 400 `{error: <errorMsg>}`;
// - POST /orders: 200 with one placement result per submission, in order (rejections inside, with
//   `success: false` and `errorMsg`); more than 15 → 400 `Too many orders in payload: N, max
//   allowed: 15`; not a non-empty array → 400 `Invalid order payload`;
// - request-level failures (order-verify.ts) fail the whole call before any order is placed; so
//   does an exchange on another order version: 400 `order_version_mismatch` (exchange-state.ts);
// - DELETE /order: body `{orderId}` (or `{orderID}`, the public exchange's spelling, which its
//   official clients send); only the caller's own orders can be cancelled (another's is "not found");
// - the answers' shapes are the dialect's order wire (Dialect.orderWire): the interface's
//   (render.ts) or the public exchange's (render-public-orders.ts: key order, `transactionsHashes`
//   and `tradeIDs` on a fill); the rejection bodies and status codes are the same in both.
// Invariant: in a batch every submission is checked before the first is placed, so a request-level
// failure never leaves half a batch in the book.
import type { FastifyInstance } from 'fastify';
import { isBadJson } from '../body.js';
import type { ServerContext } from '../context.js';
import {
  MAX_ORDERS_PER_CALL,
  MSG_INVALID_ORDER_PAYLOAD,
  MSG_INVALID_PAYLOAD,
  MSG_ORDER_VERSION_MISMATCH,
  MSG_UNAUTHORIZED,
  sendError,
  tooManyOrders,
} from '../errors.js';
import { checkSubmission, verifySubmissions, type CheckedSubmission } from '../order-verify.js';
import { cancelResult, placementResult, rejectedPlacement } from '../render.js';
import { publicPlacementResult, publicRejectedPlacement } from '../render-public-orders.js';

export function registerTradingRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue, dialect, verifier } = ctx;
  const preHandler = ctx.auth.l2PreHandler;
  const isPublic = dialect.orderWire === 'public';
  const placed = isPublic ? publicPlacementResult : placementResult;
  const rejected = isPublic ? publicRejectedPlacement : rejectedPlacement;

  app.post('/order', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    if (isBadJson(req.body)) return sendError(reply, 400, MSG_INVALID_ORDER_PAYLOAD);
    if (ctx.exchange.versionMismatch) return sendError(reply, 400, MSG_ORDER_VERSION_MISMATCH);
    const c = checkSubmission(req.body, who, venue, dialect, ctx.exchange.wallets);
    if (c.kind === 'fail') return sendError(reply, c.status, c.message);
    if (c.kind === 'reject') return sendError(reply, 400, c.message);
    if (ctx.signer !== null && !ctx.signer.admit(reply, who.address, 'POST /order', 1)) return reply;
    const bad = await verifySubmissions([c], verifier);
    if (bad !== null) return sendError(reply, bad.status, bad.message);
    const r = venue.place(c.request);
    if (!r.ok) return sendError(reply, 400, r.message);
    return placed(r);
  });

  app.post('/orders', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const body = req.body;
    if (isBadJson(body) || !Array.isArray(body) || body.length === 0)
      return sendError(reply, 400, MSG_INVALID_ORDER_PAYLOAD);
    if (body.length > MAX_ORDERS_PER_CALL) return sendError(reply, 400, tooManyOrders(body.length));
    if (ctx.exchange.versionMismatch) return sendError(reply, 400, MSG_ORDER_VERSION_MISMATCH);
    const checked: Exclude<CheckedSubmission, { kind: 'fail' }>[] = [];
    for (const item of body as unknown[]) {
      const c = checkSubmission(item, who, venue, dialect, ctx.exchange.wallets);
      if (c.kind === 'fail') return sendError(reply, c.status, c.message);
      checked.push(c);
    }
    // One token per order, the whole batch or nothing of it (signer-gate.ts).
    if (ctx.signer !== null && !ctx.signer.admit(reply, who.address, 'POST /orders', body.length)) return reply;
    const bad = await verifySubmissions(checked, verifier);
    if (bad !== null) return sendError(reply, bad.status, bad.message);
    return checked.map((c) => (c.kind === 'place' ? placed(venue.place(c.request)) : rejected(c.orderId, c.message)));
  });

  app.delete('/order', { preHandler }, async (req, reply) => {
    const who = req.l2;
    if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    const body = req.body;
    if (isBadJson(body) || typeof body !== 'object' || body === null || Array.isArray(body))
      return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    const o = body as Record<string, unknown>;
    const id = o['orderId'] ?? o['orderID'];
    if (typeof id !== 'string' || id === '') return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    if (ctx.signer !== null && !ctx.signer.admit(reply, who.address, 'DELETE /order', 1)) return reply;
    return cancelResult(id, venue.cancel(id, who.owner));
  });
}

// The heartbeat (dead-man switch) of the public exchange, L2-signed, served in both dialects:
//   POST /v1/heartbeats   the path the official clients call (clob-client-v2 src/endpoints.ts
//                         HEARTBEAT @ f3e1a05; py-clob-client-v2 endpoints.py POST_HEARTBEAT
//                         @ b0a97fa; rs-clob-client src/clob/client.rs post_heartbeat
//                         @ 59830d43ff7dad77e3b0f6df71e7676b0fc21188);
//   POST /heartbeats      the path the API reference shows (docs.polymarket.com/api-reference/
//                         trade/send-heartbeat), the same handler.
// Body `{"heartbeat_id": "<id>"}` ("" or null to start; an empty body starts too, as the
// reference's example sends none). Answers: 200 `{"heartbeat_id": "<next id>"}`; a stale id while
// a session runs is 400 `{"heartbeat_id": "<current id>", "error_msg": "Invalid Heartbeat ID"}`
// (clob-client-v2 types the answer `{heartbeat_id, error_msg?}`; nautilus_trader's client,
// crates/adapters/polymarket/src/http/clob.rs @ 03ce53d5, reads the current id from such a 400).
// That 400 body is this server's one error answer outside the `{error}` shape, on purpose: it is
// the exchange's. The session rules and the expiry (cancel every live order of the account) are
// src/sim/venue/heartbeat.ts's.
import type { FastifyInstance } from 'fastify';
import type { WireHeartbeatResponse } from '../../../exchange/wire-account.js';
import { isBadJson } from '../body.js';
import type { ServerContext } from '../context.js';
import { MSG_INVALID_PAYLOAD, MSG_UNAUTHORIZED, sendError } from '../errors.js';

/** The id a heartbeat body carries ("" when none), or undefined when the body is malformed. */
function givenId(body: unknown): string | undefined {
  if (body === undefined) return '';
  if (isBadJson(body) || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const v = (body as Record<string, unknown>)['heartbeat_id'];
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : undefined;
}

export function registerHeartbeatRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue } = ctx;
  for (const path of ['/v1/heartbeats', '/heartbeats']) {
    app.post(path, { preHandler: ctx.auth.l2PreHandler }, async (req, reply) => {
      const who = req.l2;
      if (who === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
      const id = givenId(req.body);
      if (id === undefined) return sendError(reply, 400, MSG_INVALID_PAYLOAD);
      const r = venue.heartbeats.beat(who.owner, id);
      if (r.ok) return { heartbeat_id: r.heartbeatId } satisfies WireHeartbeatResponse;
      const body: WireHeartbeatResponse = { heartbeat_id: r.heartbeatId, error_msg: r.error };
      return reply.code(400).type('application/json; charset=utf-8').send(body);
    });
  }
}

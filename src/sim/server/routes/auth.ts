// L1 key routes of docs/protocol.md §2: POST /auth/api-key (create) and GET /auth/derive-api-key
// (derive), both answering `{apiKey, secret, passphrase}` for the wallet that signed the ClobAuth
// message, deterministic for (address, nonce); both register the key for L2 use. Bad or stale L1
// headers → 401 `{"error": "Invalid L1 Request headers"}`.
// Invariant: the credentials are copied into a plain object for the answer (the credentials
// object redacts itself when serialised) and never logged.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WireApiKeyCreds } from '../../../exchange/wire.js';
import type { ServerContext } from '../context.js';
import { MSG_L1_INVALID, sendError } from '../errors.js';

export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | WireApiKeyCreds> => {
    const r = ctx.auth.verifyL1(req);
    if (!r.ok) {
      req.authFailure = r.reason;
      return sendError(reply, 401, MSG_L1_INVALID);
    }
    const c = ctx.venue.keys.issue(r.address, r.nonce);
    return { apiKey: c.apiKey, secret: c.secret, passphrase: c.passphrase };
  };
  app.post('/auth/api-key', handler);
  app.get('/auth/derive-api-key', handler);
}

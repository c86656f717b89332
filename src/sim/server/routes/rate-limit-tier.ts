// GET /v1/user/rate-limit-tier, L2-signed: the per-signer trading tier of the credentials' signer
// (https://docs.polymarket.com/api-reference/account/get-rate-limit-tier). Answers 200
// `{"tier": "<name>"}` with the lower-case name the Poly-RateLimit-Tier header uses, and that header
// too; the response schema is not in the reference material we have, so this body is our decision
// (src/ratelimit/signer-tiers.ts, docs/rate-limits.md). Served when the per-signer buckets are on
// (polymarket dialect, limits on); otherwise the route is absent (404), as a venue without them.
import type { FastifyInstance } from 'fastify';
import { HDR_TIER, SIGNER_TIER_ROUTE } from '../../../ratelimit/signer-tiers.js';
import type { ServerContext } from '../context.js';
import { MSG_UNAUTHORIZED, sendError } from '../errors.js';

export function registerSignerTierRoute(app: FastifyInstance, ctx: ServerContext): void {
  const gate = ctx.signer;
  if (gate === null) return;
  app.get(SIGNER_TIER_ROUTE, { preHandler: ctx.auth.l2PreHandler }, async (req, reply) => {
    if (req.l2 === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    reply.header(HDR_TIER, gate.tier);
    return { tier: gate.tier };
  });
}

// Routes a trader's preflight (`oddsmaker doctor`) reads besides the service routes, and the
// simulator-only switch that plants their faults (exchange-state.ts):
//   GET  /api/geoblock                 {blocked, ip, country, region}: the public exchange serves it
//        on polymarket.com, not the API host (https://docs.polymarket.com/api-reference/geoblock);
//        the simulator serves it on its own origin, so a client's geoblock URL is configurable;
//   GET  /auth/ban-status/closed-only  L2: {closed_only} (clob-client-v2 dist/endpoints.js
//        CLOSED_ONLY, types BanStatus);
//   POST /_sim/exchange                {orderVersion?, clockSkewMs?, geoblocked?, closedOnly?,
//        noAllowance?, requireDepositWallet?}: changes only the fields given, answers the settings;
//   GET  /_sim/wallet?address=&signature_type=1|2|3
//                                      the simulator's wallet of that kind for that owner (what
//                                      exchange.funder must name; wallets.ts).
import type { FastifyInstance } from 'fastify';
import { isAddress } from '../../world/query.js';
import { isBadJson } from '../body.js';
import type { ServerContext } from '../context.js';
import { MSG_UNAUTHORIZED, sendError, SimRequestError } from '../errors.js';
import { simWalletAddress } from '../wallets.js';

export function registerPreflightRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const state = ctx.exchange;

  app.get('/api/geoblock', async (req) =>
    state.geoblocked
      ? { blocked: true, ip: req.ip, country: 'US', region: 'NY' }
      : { blocked: false, ip: req.ip, country: 'IE', region: 'L' },
  );

  app.get('/auth/ban-status/closed-only', { preHandler: ctx.auth.l2PreHandler }, async (req, reply) => {
    if (req.l2 === undefined) return sendError(reply, 401, MSG_UNAUTHORIZED);
    return { closed_only: state.closedOnly };
  });

  app.post('/_sim/exchange', async (req, reply) => {
    const body = req.body;
    if (isBadJson(body) || typeof body !== 'object' || body === null || Array.isArray(body))
      return sendError(reply, 400, 'expected a JSON object');
    try {
      state.update(body as Record<string, unknown>);
    } catch (e) {
      if (e instanceof SimRequestError) return sendError(reply, 400, e.message);
      throw e;
    }
    return state.snapshot();
  });

  app.get('/_sim/wallet', async (req, reply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const address = q['address'];
    const kind = Number(q['signature_type']);
    if (typeof address !== 'string' || !isAddress(address)) return sendError(reply, 400, 'invalid_field: address');
    if (kind !== 1 && kind !== 2 && kind !== 3)
      return sendError(reply, 400, 'invalid_field: signature_type (1, 2 or 3)');
    return { address, signature_type: kind, wallet: simWalletAddress(address, kind) };
  });
}

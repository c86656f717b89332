// Simulator-only knobs of the account lifecycle, under /_sim/ (NOT part of the exchange
// interface; unauthenticated, never throttled or faulted, like routes/sim.ts):
//   GET  /_sim/settlement   {config, pendingForcedFailures, stats}
//   POST /_sim/settlement   {minedAfterMs?, confirmedAfterMs?, failFraction?, failNext?}
//                           changes the given settings (later trades use them) and makes the next
//                           `failNext` trades of HTTP users fail their settlement; answers the state
//   GET  /_sim/heartbeat    {expiryMs, stats}
//   POST /_sim/heartbeat    {expiryMs}: the heartbeat window from the next heartbeat on
// Errors: 400 `{error}` naming the setting.
import type { FastifyInstance } from 'fastify';
import { SettlementConfigError, type SettlementConfig } from '../../venue/index.js';
import { isBadJson } from '../body.js';
import type { ServerContext } from '../context.js';
import { sendError } from '../errors.js';

function objectBody(body: unknown): Record<string, unknown> | null {
  if (isBadJson(body) || typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return body as Record<string, unknown>;
}

export function registerSimLifecycleRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { settlement, heartbeats } = ctx.venue;
  const settlementState = (): object => ({
    config: settlement.config,
    pendingForcedFailures: settlement.pendingForcedFailures,
    stats: settlement.stats,
  });

  app.get('/_sim/settlement', async () => settlementState());

  app.post('/_sim/settlement', async (req, reply) => {
    const b = objectBody(req.body);
    if (b === null) return sendError(reply, 400, 'invalid payload: an object of settlement settings');
    const { failNext, ...rest } = b;
    if (failNext !== undefined && (typeof failNext !== 'number' || !Number.isSafeInteger(failNext) || failNext < 0)) {
      return sendError(reply, 400, 'invalid_field: failNext (a non-negative integer)');
    }
    try {
      settlement.configure(rest as Partial<SettlementConfig>);
    } catch (e) {
      if (e instanceof SettlementConfigError) return sendError(reply, 400, e.message);
      throw e;
    }
    if (typeof failNext === 'number') settlement.failNext(failNext);
    return settlementState();
  });

  app.get('/_sim/heartbeat', async () => ({ expiryMs: heartbeats.expiryMs, stats: heartbeats.stats }));

  app.post('/_sim/heartbeat', async (req, reply) => {
    const ms = objectBody(req.body)?.['expiryMs'];
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 1)
      return sendError(reply, 400, 'invalid_field: expiryMs (a positive integer of ms)');
    heartbeats.expiryMs = ms;
    return { expiryMs: heartbeats.expiryMs, stats: heartbeats.stats };
  });
}

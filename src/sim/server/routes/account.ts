// Registration of the account-lifecycle routes the public exchange has and the interface does not
// list (open orders, account trades, balance/allowance, batch cancels, heartbeat) and of their
// /_sim/ knobs, all from their own files; app.ts calls this once. Served in both dialects, in the
// public exchange's shapes.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerAccountReadRoutes } from './account-reads.js';
import { registerCancelRoutes } from './cancels.js';
import { registerHeartbeatRoutes } from './heartbeat.js';
import { registerSimLifecycleRoutes } from './sim-lifecycle.js';
import { OptionError } from '../../../core/errors.js';

/** Records per page of GET /data/orders and GET /data/trades unless configured. */
export const DEFAULT_ACCOUNT_PAGE_SIZE = 500;

export function registerAccountRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  pageSize: number = DEFAULT_ACCOUNT_PAGE_SIZE,
): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new OptionError('SIM_OPTION', `account page size must be a positive integer, got ${String(pageSize)}`);
  registerAccountReadRoutes(app, ctx, pageSize);
  registerCancelRoutes(app, ctx);
  registerHeartbeatRoutes(app, ctx);
  registerSimLifecycleRoutes(app, ctx);
}

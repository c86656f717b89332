// Starting the ops server for a built runtime (src/runtime/modes.ts): `oddsmaker run` calls this
// once the daemon has started, when config `health.enabled` is true, and closes the server after
// the daemon stopped (so /healthz says "stopping" while the cancel-all runs). The runtime hands
// over the pieces the server reads: the metrics (already hooked into the limiter, the order
// manager and the cycle), the metered order manager and the ledger. The operator token is read
// from the environment here and nowhere else.
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../config/schema.js';
import type { Env } from '../../exchange/auth/credentials.js';
import type { OrderExecutor } from '../executor.js';
import type { Runtime } from '../modes.js';
import type { OpsMetrics } from './metrics.js';
import { operatorTokenFromEnv } from './operator.js';
import type { PnlSource } from './pnl.js';
import { startOpsServer, type OpsServer } from './server.js';

/** What a runtime hands to its ops server. */
export interface OpsHandles {
  readonly metrics: OpsMetrics;
  /** The order manager as the daemon uses it (metered). */
  readonly executor: OrderExecutor;
  readonly ledger: PnlSource;
}

export async function startRuntimeOps(rt: Runtime, config: Readonly<Config>, env: Env, clock: Clock): Promise<OpsServer> {
  return startOpsServer({
    host: config.health.host,
    port: config.health.port,
    clock,
    logger: rt.logger,
    daemon: rt.daemon,
    executor: rt.ops.executor,
    ledger: rt.ops.ledger,
    metrics: rt.ops.metrics,
    operatorToken: operatorTokenFromEnv(env),
    cancelTimeoutMs: config.orders.shutdownTimeoutMs,
  });
}

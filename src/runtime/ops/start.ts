// Starting the ops server for a built runtime (src/runtime/modes.ts): `oddsmaker run` calls this
// before the daemon starts (before startup reconciliation and the first order), when config
// `health.enabled` is true, so /healthz says "starting" meanwhile and a port that cannot be bound
// fails the start before anything is traded, with a message naming health.host and health.port
// (OpsListenError, exit 1); the server is closed after the daemon stopped (so /healthz says
// "stopping" while the cancel-all runs). The runtime hands
// over the pieces the server reads: the metrics (already hooked into the limiter, the order
// manager and the cycle), the metered order manager and the ledger. The operator token is read
// from the environment here and nowhere else.
import type { Clock } from '../../core/clock.js';
import { OddsmakerError } from '../../core/errors.js';
import type { Config } from '../../config/schema.js';
import type { Env } from '../../exchange/auth/credentials.js';
import type { OrderExecutor } from '../executor.js';
import type { Runtime } from '../modes.js';
import type { OpsMetrics } from './metrics.js';
import { operatorTokenFromEnv } from './operator.js';
import type { ConsoleLedger } from './console-hub.js';
import { startOpsServer, type OpsServer } from './server.js';

/** What a runtime hands to its ops server. */
export interface OpsHandles {
  readonly metrics: OpsMetrics;
  /** The order manager as the daemon uses it (metered). */
  readonly executor: OrderExecutor;
  /** PnL, and the recent fills for the console. */
  readonly ledger: ConsoleLedger;
}

/** The ops server could not listen: a failure (exit 1) whose message names the settings. */
export class OpsListenError extends OddsmakerError {
  constructor(message: string, cause: unknown) {
    super('OPS_LISTEN', message, false, { cause });
  }
}

const WHY: Record<string, string> = {
  EADDRINUSE: 'the port is in use (another daemon, or another program)',
  EACCES: 'not permitted (a port below 1024 needs privileges)',
  EADDRNOTAVAIL: 'no such local address',
};

export function opsListenError(config: Readonly<Config>, err: unknown): OpsListenError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const where = `${config.health.host}:${config.health.port}`;
  return new OpsListenError(
    `ops server: cannot listen on ${where} (health.host, health.port): ${WHY[code] ?? (err as Error).message}${code !== '' ? ` [${code}]` : ''}; ` +
      'set health.port to a free port (0 picks one) or health.enabled to false. Nothing was traded',
    err,
  );
}

export async function startRuntimeOps(
  rt: Runtime,
  config: Readonly<Config>,
  env: Env,
  clock: Clock,
): Promise<OpsServer> {
  try {
    return await listen(rt, config, env, clock);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('E')) throw opsListenError(config, err);
    throw err;
  }
}

function listen(rt: Runtime, config: Readonly<Config>, env: Env, clock: Clock): Promise<OpsServer> {
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

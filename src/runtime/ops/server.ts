// The operator's HTTP endpoint (fastify), loopback by default (config `health.host`/`health.port`):
//   GET  /healthz            200 {status:"ok"} or 503 {status:"unhealthy", reasons:[...]} (health.ts)
//   GET  /metrics            Prometheus text format (metrics.ts)
//   GET  /status             JSON (status-view.ts)
//   POST /actions/<action>   pause | resume | cancel-all | clear-kill-switch | trip-kill-switch
//   GET  /, /console/*, /events  the live web console (console-routes.ts: read-only; its buttons
//                            call the actions above with the token the operator types in)
// Operator actions need `Authorization: Bearer <ODDSMAKER_OPERATOR_TOKEN>`. With no token in the
// environment they are disabled: 403 for every action, whatever is sent. A missing or malformed
// header is 401 (with WWW-Authenticate), a wrong token 401; both are checked before the action's
// name, so an unauthenticated caller learns nothing. An action on a daemon that is not running
// is 409. Invariants kept: the reads (healthz, metrics, status) never change the daemon; nothing
// here logs a request header (fastify's own logger is off; the operator's actions and refusals are
// logged by our redacting logger with the action and the remote address only); every answer is
// `Cache-Control: no-store` (health and status are live values) unless the route set its own (the
// console's static files: no-cache with an ETag).
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Price } from '../../core/money.js';
import type { Daemon } from '../daemon.js';
import { ConsoleHub, type ConsoleLedger } from './console-hub.js';
import { registerConsoleRoutes } from './console-routes.js';
import type { OrderExecutor } from '../executor.js';
import type { Logger } from '../logger.js';
import { healthOf } from './health.js';
import type { OpsMetrics } from './metrics.js';
import {
  ActionConflictError,
  checkOperator,
  OPERATOR_ACTIONS,
  OPERATOR_TOKEN_ENV,
  runAction,
  type OperatorAction,
} from './operator.js';
import { pnlReport } from './pnl.js';
import { buildStatusView } from './status-view.js';

export interface OpsDaemon extends Pick<
  Daemon,
  'status' | 'pause' | 'resume' | 'clearKillSwitch' | 'tripKillSwitch' | 'marketData'
> {
  /** The book cache's current mids (marks for unrealized PnL). */
  mids(): ReadonlyMap<string, Price>;
}

export interface OpsAppOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly daemon: OpsDaemon;
  /** The order manager the daemon uses (the metered one, so operator cancels are counted). */
  readonly executor: Pick<OrderExecutor, 'liveOrders' | 'cancelAll' | 'resume'>;
  /** PnL and the recent fills (the console). */
  readonly ledger: ConsoleLedger;
  readonly metrics: OpsMetrics;
  /** null: operator actions disabled. */
  readonly operatorToken: string | null;
  /** Bound of the operator's cancel-all (orders.shutdownTimeoutMs). */
  readonly cancelTimeoutMs: number;
}

export interface OpsServerOptions extends OpsAppOptions {
  readonly host: string;
  readonly port: number;
}

export interface OpsServer {
  /** Base URL with the port actually bound. */
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

const isAction = (s: string): s is OperatorAction => (OPERATOR_ACTIONS as readonly string[]).includes(s);

export function buildOpsApp(o: OpsAppOptions): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: 'idle', bodyLimit: 16 * 1024 });
  const log = o.logger.child({ component: 'ops' });
  o.metrics.attach({
    status: () => o.daemon.status(),
    mids: () => o.daemon.mids(),
    pnl: () => pnlReport(o.ledger, o.daemon.mids()),
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  registerConsoleRoutes(
    app,
    new ConsoleHub({
      clock: o.clock,
      logger: o.logger,
      daemon: o.daemon,
      executor: o.executor,
      ledger: o.ledger,
      limiter: () => o.metrics.limiterView(),
    }),
  );

  app.get('/healthz', async (_req, reply) => {
    const s = o.daemon.status();
    const h = healthOf(s);
    return reply.code(h.healthy ? 200 : 503).send({
      status: h.healthy ? 'ok' : 'unhealthy',
      reasons: h.reasons,
      state: s.state,
      paused: s.paused,
    });
  });

  app.get('/metrics', async (_req, reply) => {
    const text = await o.metrics.scrape();
    return reply.type(o.metrics.contentType).send(text);
  });

  app.get('/status', async () => {
    const mids = o.daemon.mids();
    return buildStatusView({
      nowMs: o.clock.now(),
      status: o.daemon.status(),
      orders: o.executor.liveOrders(),
      mids,
      pnl: pnlReport(o.ledger, mids),
    });
  });

  app.post<{ Params: { action: string }; Body: unknown }>('/actions/:action', async (req, reply) => {
    const name = req.params.action;
    const auth = checkOperator(o.operatorToken, req.headers.authorization);
    if (auth === 'disabled') {
      return deny(reply, 403, `operator actions are disabled: set ${OPERATOR_TOKEN_ENV} in the daemon's environment`);
    }
    if (auth !== 'ok') {
      log.warn({ action: name, remote: req.ip, outcome: auth }, 'operator action refused');
      reply.header('www-authenticate', 'Bearer realm="oddsmaker"');
      return deny(
        reply,
        401,
        auth === 'missing' ? 'operator token required (Authorization: Bearer <token>)' : 'wrong operator token',
      );
    }
    if (!isAction(name)) return deny(reply, 404, `no such action; one of: ${OPERATOR_ACTIONS.join(', ')}`);
    const reason = reasonOf(req.body);
    try {
      const r = await runAction(
        { daemon: o.daemon, executor: o.executor, cancelTimeoutMs: o.cancelTimeoutMs },
        name,
        reason,
      );
      log.warn({ action: name, remote: req.ip, result: r }, 'operator action');
      return reply.code(200).send(r);
    } catch (err) {
      if (err instanceof ActionConflictError) return deny(reply, 409, err.message);
      log.error({ err, action: name }, 'operator action failed');
      return deny(reply, 500, `action ${name} failed`);
    }
  });

  return app;
}

function deny(reply: FastifyReply, code: number, error: string): FastifyReply {
  return reply.code(code).send({ error });
}

/** An optional `{"reason": "..."}` body (trip-kill-switch), capped to a log-friendly length. */
function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const r = (body as Record<string, unknown>)['reason'];
  return typeof r === 'string' ? r.slice(0, 200) : undefined;
}

/** Builds the app and listens; the URL names the port actually bound (port 0: any free one). */
export async function startOpsServer(o: OpsServerOptions): Promise<OpsServer> {
  const app = buildOpsApp(o);
  try {
    await app.listen({ host: o.host, port: o.port });
  } catch (err) {
    // The listen error is the one to report; closing an app that never listened has nothing to lose.
    await app.close().catch(() => undefined);
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : o.port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  const url = `http://${host}:${port}`;
  o.logger.info({ url, console: `${url}/`, operatorActions: o.operatorToken !== null }, 'ops server listening');
  let closing: Promise<void> | null = null;
  return {
    url,
    app,
    close: () => {
      closing ??= app.close();
      return closing;
    },
  };
}

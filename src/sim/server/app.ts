// The simulator's fastify application: body parsing that keeps the exact bytes, the edge (throttle,
// then fault injection) on every interface route, one registration per route group, and error
// handling that always answers in the interface's shapes. Invariants kept here:
// - no fastify default error page ever leaves the server: unknown routes, bad or oversized bodies
//   and unexpected exceptions all answer JSON `{error}` (or `{type, error}` on catalog paths) with a
//   docs/protocol.md §4 status;
// - the edge runs in onRequest, before the body is read: a throttled or faulted request costs no
//   parsing and is never authenticated; /_sim/ routes bypass the edge;
// - logging is off (requests carry credentials in headers; nothing here prints them).
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { BudgetTable } from '../../ratelimit/index.js';
import type { Venue } from '../venue/index.js';
import { MARKETS_PAGE_SIZE } from '../world/index.js';
import { IpAllowlist } from './allowlist.js';
import { Authenticator, requestPath } from './auth.js';
import { installBodyParser } from './body.js';
import type { ServerContext } from './context.js';
import { internalErrorText, isCatalogPath, MSG_THROTTLED, sendCatalogError, sendError } from './errors.js';
import { FaultInjector, HTML_FAULT_PAGE, NO_FAULTS, type FaultConfig } from './faults.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerCatalogRoutes } from './routes/catalog.js';
import { registerLeaderboardRoutes } from './routes/leaderboard.js';
import { registerMarketDataRoutes } from './routes/market-data.js';
import { registerMarketRoutes } from './routes/markets.js';
import { registerOrderRoutes } from './routes/orders.js';
import { registerPortfolioRoutes } from './routes/portfolio.js';
import { registerServiceRoutes } from './routes/service.js';
import { registerSimRoutes } from './routes/sim.js';
import { registerTradingRoutes } from './routes/trading.js';
import { OrderSignatureVerifier, type VerifierOptions } from './sig-verify.js';
import { EdgeGate } from './throttle.js';
import { SignerGate } from './signer-gate.js';
import { ExchangeState, type ExchangeStateOptions } from './exchange-state.js';
import { registerPreflightRoutes } from './routes/preflight.js';
import { registerSignerTierRoute } from './routes/rate-limit-tier.js';
import type { SignerTier } from '../../ratelimit/signer-tiers.js';

/** Largest request body accepted: 15 orders are ~15 KB, 500 token items ~50 KB. */
export const DEFAULT_BODY_LIMIT = 1 << 20;

export interface AppOptions {
  venue: Venue;
  clock: Clock;
  /** Edge throttling per table 8 (default on). */
  limits?: boolean;
  /** Budgets of the edge (default table 8); tests pass a scaled-down table. */
  budgets?: BudgetTable;
  /** Per-signer trading buckets' tier (polymarket dialect, limits on; default standard); 'off': none. */
  signerTier?: SignerTier | 'off';
  faults?: Partial<FaultConfig>;
  /** Portfolio IP allowlist; empty or absent: everyone. */
  allowIps?: readonly string[];
  bodyLimit?: number;
  /** Page size of the cursor-paged market listings (default 100, the public exchange's). */
  marketsPageSize?: number;
  /** Page size of GET /data/orders and GET /data/trades (default 500). */
  accountPageSize?: number;
  /** Signature verification: worker threads (default: cores, at most 4), table width, cache size. */
  verifier?: VerifierOptions;
  /** Order version, clock skew, geoblock, close-only, allowances, deposit-wallet rule (default healthy). */
  exchange?: ExchangeStateOptions;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: ServerContext;
}

export function buildApp(opts: AppOptions): BuiltApp {
  const { venue, clock } = opts;
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const dialect = venue.dialect;
  // Everything that validates options comes before the verifier, whose worker threads must not
  // be started for an app that is never built.
  const allowlist = new IpAllowlist(opts.allowIps ?? []);
  const faults = new FaultInjector({ ...NO_FAULTS, ...opts.faults }, venue.seed, clock);
  const throttle = opts.limits === false ? null : new EdgeGate(clock, dialect, opts.budgets);
  const exchange = new ExchangeState(opts.exchange ?? {});
  const signerTier = opts.signerTier ?? 'standard';
  const signer =
    opts.limits === false || dialect.name !== 'polymarket' || signerTier === 'off'
      ? null
      : new SignerGate(clock, signerTier);
  const ctx: ServerContext = {
    venue,
    clock,
    dialect,
    auth: new Authenticator(venue, clock, dialect),
    verifier: new OrderSignatureVerifier(opts.verifier ?? {}),
    allowlist,
    faults,
    throttle,
    signer,
    exchange,
    marketsPageSize: opts.marketsPageSize ?? MARKETS_PAGE_SIZE,
  };

  // On close, idle keep-alive sockets are dropped at once; requests in flight finish first.
  const app = Fastify({ logger: false, bodyLimit, forceCloseConnections: 'idle' });
  installBodyParser(app);
  app.addHook('onClose', async () => {
    await ctx.verifier.close();
  });
  app.decorateRequest('l2', undefined);
  app.decorateRequest('authFailure', undefined);

  app.addHook('onRequest', async (req, reply) => {
    const path = requestPath(req);
    if (path.startsWith('/_sim/')) return;
    if (ctx.throttle !== null) {
      const d = ctx.throttle.check(req.method, path, req.ip, req.headers);
      if (!d.admitted) {
        reply.header('Retry-After', String(d.retryAfterSec));
        return sendError(reply, 429, MSG_THROTTLED);
      }
    }
    switch (ctx.faults.decide()) {
      case 'none':
        return;
      case '500':
        return sendError(reply, 500, 'internal_error: injected fault');
      case '503':
        return sendError(reply, 503, 'service unavailable: injected fault');
      case '425':
        return sendError(reply, 425, 'matching engine restarting: injected fault');
      case 'html':
        return reply.code(503).type('text/html; charset=utf-8').send(HTML_FAULT_PAGE);
      case 'delay':
        await ctx.faults.sleep();
        return;
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const path = requestPath(req);
    const catalog = isCatalogPath(path);
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(reply, 400, `request body exceeds ${bodyLimit} bytes`);
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = status === 404 ? 404 : 400;
      return catalog ? sendCatalogError(reply, code, err.message) : sendError(reply, code, err.message);
    }
    return sendError(reply, 500, internalErrorText(path, err.message));
  });

  app.setNotFoundHandler((req, reply) => {
    const text = `not found: ${req.method} ${requestPath(req)}`;
    return isCatalogPath(requestPath(req)) ? sendCatalogError(reply, 404, text) : sendError(reply, 404, text);
  });

  registerServiceRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerTradingRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerMarketDataRoutes(app, ctx);
  registerMarketRoutes(app, ctx);
  registerPortfolioRoutes(app, ctx);
  registerCatalogRoutes(app, ctx);
  registerLeaderboardRoutes(app, ctx);
  registerSimRoutes(app, ctx);
  registerAccountRoutes(app, ctx, opts.accountPageSize);
  registerSignerTierRoute(app, ctx);
  registerPreflightRoutes(app, ctx);
  return { app, ctx };
}

// Wires the daemon for each mode of one config key, `mode` (docs/ARCHITECTURE.md §4). Only what the daemon is
// handed differs; the strategy, risk, reconcile, order manager and ledger code is the same:
// - sandbox: the bundled simulator starts in-process on a loopback port with its funded throwaway
//   account, and the daemon trades against it over HTTP, signed, through the rate limiter;
// - live: the exchange's URLs from config, credentials and key from the environment (or keystore);
// - paper: market data over HTTP from the configured exchange (no credentials), orders to an
//   in-process simulated venue that fills them against the polled books (src/sim/paper).
// Every mode hands the daemon the account address whose positions its scheduled check compares
// with the ledger (the sandbox's throwaway account, the live wallet or funder, paper's own).
// The ledger is opened as soon as the account is known (after the sandbox's simulator started or
// the wallet loaded), before the rate limiter's backend or any exchange request, and bound to
// this run's exchange and account (ledger-guard.ts): a ledger of another is refused
// (CONFIG_LEDGER_IDENTITY, exit 2). Its path is config `ledger.path`, else the mode's default
// (src/config/ledger-path.ts: a new file per sandbox run); `oddsmaker run` has chosen and locked
// it before calling buildRuntime.
// Everything opened here is closed by `Runtime.close()` in reverse order, after the daemon stopped.
// Secrets are handed to the logger's value filter, so no log line can carry them (the Redis URL's
// password too).
// A shared limiter backend (Redis) must be ready within its connect timeout or the build fails
// (RateLimitBackendError, the CLI exits 1); `signal` aborts that wait. While running, each loss and
// recovery of it is logged once (warn, info), and the daemon stops quoting while it is down.
// With `record.enabled`, every mode also records the polled market data to `record.path`
// (src/marketdata/recorder.ts); the recording is flushed and closed before the ledger's closer.
// Every mode hands the daemon the GET /markets listing over the HTTP client (through the limiter),
// the only place the interface shows a market's winner: the daemon's resolution watch reads it.
// The daemon gets the gateway itself: where it has the heartbeat and balance routes (the HTTP
// gateway: live and sandbox modes) the daemon keeps the exchange's dead-man switch alive and reads
// its collateral balance (exchange.heartbeat, ledger.balanceCheckIntervalMs).
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Wallet } from 'ethers';
import type { Clock } from '../core/clock.js';
import { OddsmakerError } from '../core/errors.js';
import { chooseLedgerPath } from '../config/ledger-path.js';
import type { Config } from '../config/schema.js';
import type { StrategyModule } from '../strategy/define.js';
import {
  addressFromEnv,
  credentialsFromEnv,
  loadWallet,
  type ApiCredentials,
  type Env,
} from '../exchange/auth/credentials.js';
import { dialectOfConfig } from '../config/dialect.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import { SigningPool } from '../exchange/signing/index.js';
import { Ledger } from '../ledger/index.js';
import { MarketRecorder } from '../marketdata/recorder.js';
import { writeUniverseLabels } from '../marketdata/recording/universe-labels.js';
import type { RefreshScheduler } from '../marketdata/refresh-scheduler.js';
import type { MarketsPageLister } from '../marketdata/resolution-watch.js';
import { RecordingWriter } from '../marketdata/recording/writer.js';
import { urlPassword } from '../core/redact-url.js';
import { createRateLimiter, type BackendHealth, type RateLimiter } from '../ratelimit/index.js';
import { PaperGateway } from '../sim/paper/index.js';
import { startSimulator, type RunningSimulator } from '../sim/server/start.js';
import { createDaemon } from './create-daemon.js';
import type { Daemon } from './daemon.js';
import { HttpGateway } from './http-gateway.js';
import { capitalFromConfig, rateLimitFromConfig } from './limits.js';
import { RuntimeCloseError } from './errors.js';
import { guardLedger, runIdentity } from './ledger-guard.js';
import { createLogger, type Logger } from './logger.js';
import { Notifier } from './notify/notifier.js';
import { OpsMetrics } from './ops/metrics.js';
import { OPERATOR_TOKEN_ENV } from './ops/operator.js';
import type { OpsHandles } from './ops/start.js';

/** Default URL of a spec-dialect exchange in live mode: `oddsmaker sim`'s default listener. */
export const DEFAULT_SPEC_URL = 'http://127.0.0.1:8080';

export class ModeError extends OddsmakerError {
  constructor(message: string) {
    super('CONFIG_MODE', message, false);
  }
}

export interface Runtime {
  readonly daemon: Daemon;
  readonly logger: Logger;
  /** The in-process simulator (sandbox mode only). */
  readonly simulator: RunningSimulator | null;
  readonly gateway: ExchangeGateway;
  /** The metrics (hooked into the limiter, order manager and cycle) and what the ops server reads. */
  readonly ops: OpsHandles;
  /** Closes everything the mode opened (after daemon.stop()). */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  readonly config: Readonly<Config>;
  readonly clock: Clock;
  readonly env: Env;
  /** Where log lines go (default stdout). */
  readonly logDestination?: { write(line: string): unknown };
  readonly prettyLogs?: boolean;
  /** The universe refresh schedule (default: node-cron on markets.refreshCron; tests pass a ClockRefreshScheduler). */
  readonly refreshScheduler?: RefreshScheduler;
  /** Aborts the build while it waits for a dependency (the Redis connect): SIGTERM during start-up. */
  readonly signal?: AbortSignal;
  /** The strategy that runs, resolved by the config loader (user modules included); default: the built-in named in config. */
  readonly strategy?: StrategyModule;
}

/** One page of GET /markets through the gateway's limiter gate (the resolution watch's source). */
export function marketsListing(http: HttpGateway): MarketsPageLister {
  return (cursor, signal) => http.gate.run('read', () => http.client.getMarkets(cursor, { signal }));
}

interface Identity {
  readonly privateKey: string;
  readonly address: string;
  readonly credentials: ApiCredentials;
}

function urls(
  config: Readonly<Config>,
  clobOverride?: string,
): { clobUrl: string; dataUrl: string; catalogUrl: string } {
  const ex = config.exchange;
  const clobUrl = clobOverride ?? ex.clobUrl;
  if (clobUrl === undefined) {
    if (ex.dialect === 'polymarket')
      throw new ModeError('exchange.clobUrl is required with the polymarket dialect (see config/live.example.json)');
    return {
      clobUrl: DEFAULT_SPEC_URL,
      dataUrl: ex.dataUrl ?? DEFAULT_SPEC_URL,
      catalogUrl: ex.catalogUrl ?? DEFAULT_SPEC_URL,
    };
  }
  return {
    clobUrl,
    dataUrl: clobOverride ?? ex.dataUrl ?? clobUrl,
    catalogUrl: clobOverride ?? ex.catalogUrl ?? clobUrl,
  };
}

async function liveIdentity(env: Env): Promise<Identity> {
  const wallet = await loadWallet(env);
  const credentials = credentialsFromEnv(env);
  const address =
    env.ODDSMAKER_ADDRESS !== undefined && env.ODDSMAKER_ADDRESS !== '' ? addressFromEnv(env) : wallet.address;
  return { privateKey: wallet.privateKey, address, credentials };
}

/** Builds every part of the daemon for the configured mode; nothing runs until daemon.start(). */
export async function buildRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const { config, clock } = opts;
  const dialect = dialectOfConfig(config);
  const closers: Array<() => Promise<void> | void> = [];
  /** Closes every part (one failure must not leak the rest); returns the failures. */
  const closeAll = async (): Promise<unknown[]> => {
    const failures: unknown[] = [];
    for (const c of closers.reverse()) {
      try {
        await c();
      } catch (err) {
        failures.push(err);
      }
    }
    return failures;
  };
  // Runtime.close(): a part that failed to close (a ledger not flushed) is an error the caller reports.
  const close = async (): Promise<void> => {
    const failures = await closeAll();
    if (failures.length > 0) throw new RuntimeCloseError(failures);
  };
  try {
    let simulator: RunningSimulator | null = null;
    let identity: Identity;
    let clobOverride: string | undefined;
    if (config.mode === 'sandbox') {
      simulator = await startSimulator({
        host: '127.0.0.1',
        port: config.sandbox.port,
        seed: config.sandbox.seed,
        markets: config.sandbox.markets,
        flow: config.sandbox.flow,
        limits: config.sandbox.limits,
        dialect,
        clock,
        // The in-process exchange enforces the expiry the daemon's heartbeat is configured for.
        heartbeatExpiryMs: config.exchange.heartbeatExpiryMs,
      });
      const sim = simulator;
      closers.push(() => sim.close());
      identity = { privateKey: sim.account.privateKey, address: sim.account.address, credentials: sim.account };
      clobOverride = sim.url;
    } else if (config.mode === 'live') {
      identity = await liveIdentity(opts.env);
    } else {
      // Paper: nothing is signed for an exchange; a throwaway key gives orders their ids.
      const w = Wallet.createRandom();
      identity = {
        privateKey: w.privateKey,
        address: w.address,
        credentials: { apiKey: 'paper', secret: '', passphrase: '' },
      };
    }

    const logger = createLogger({
      clock,
      level: config.log.level,
      secrets: [
        identity.privateKey,
        identity.credentials.secret,
        identity.credentials.passphrase,
        opts.env[OPERATOR_TOKEN_ENV] ?? '',
        config.rateLimit.backend.kind === 'redis' ? urlPassword(config.rateLimit.backend.url) : '',
        // Webhook URLs hold their tokens: no log line may carry one whole.
        ...config.notify.webhooks.map((w) => w.url),
      ].filter((s) => s !== ''),
      ...(opts.logDestination !== undefined ? { destination: opts.logDestination } : {}),
      ...(opts.prettyLogs !== undefined ? { pretty: opts.prettyLogs } : {}),
    });

    // Positions are held by the maker: the funder when it differs from the signer (proxy or safe
    // wallets), else the signer. The paper venue answers for its own account whatever the address.
    const address = config.exchange.funder ?? identity.address;
    const endpoints = urls(config, clobOverride);
    const ledgerPath = config.ledger.path ?? chooseLedgerPath(config, clock.now()).path;
    const ledger = Ledger.open(ledgerPath, { clock, synchronous: config.mode === 'live' ? 'FULL' : 'NORMAL' });
    // The daemon closes the ledger as the last step of its stop; this covers a failed start.
    closers.push(() => {
      if (ledger.isOpen) ledger.close();
    });
    const bound = guardLedger(
      ledger,
      ledgerPath,
      runIdentity(config, {
        clobUrl: endpoints.clobUrl,
        account: address,
        ...(simulator !== null ? { simRun: simulator.runId } : {}),
      }),
    );
    const id = bound.identity;
    logger.info(
      {
        path: ledgerPath,
        exchange: id.exchange,
        account: id.account,
        ...(id.simRun !== null ? { simRun: id.simRun } : {}),
      },
      bound.status === 'bound'
        ? 'ledger bound to this exchange and account'
        : 'ledger opened: same exchange and account',
    );

    const metrics = new OpsMetrics();
    const limiterLog = logger.child({ component: 'ratelimit' });
    const onHealth = (h: BackendHealth): void => {
      if (h.ok) limiterLog.info({}, 'rate limiter backend recovered: requests are admitted again, quoting resumes');
      else
        limiterLog.warn(
          { reason: h.reason },
          'rate limiter backend lost: nothing is sent (fail closed), quoting stopped',
        );
    };
    // Counted by the limiter (oddsmaker_ratelimit_pause_failures_total); each one logged here.
    const onPauseFailed = (err: unknown, route: string): void => {
      limiterLog.error(
        { err, route },
        'rate limiter: a 429 pause could not be shared through Redis: other processes keep sending',
      );
    };
    const limiter: RateLimiter = metrics.meterLimiter(
      await createRateLimiter({
        clock,
        config: rateLimitFromConfig(config),
        onHealth,
        onPauseFailed,
        ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
      }),
    );
    closers.push(() => limiter.close());
    const http = new HttpGateway({
      client: {
        ...endpoints,
        dialect,
        clock,
        connections: config.exchange.connections,
        headersTimeoutMs: config.exchange.timeoutMs,
        bodyTimeoutMs: config.exchange.timeoutMs,
        ...(config.mode === 'paper' ? {} : { credentials: identity.credentials, address: identity.address }),
      },
      limiter,
      signatureType: config.exchange.signatureType,
    });
    closers.push(() => http.close());
    // The signer's tier as the exchange has it (polymarket dialect, signed: not in paper mode),
    // once; without it the configured tier stands until a trading answer's header reports one.
    if (config.mode !== 'paper' && config.exchange.dialect === 'polymarket') {
      let missing = false;
      const tier = await http.adoptSignerTier((why) => {
        missing = true;
        limiterLog.info(
          { why, tier: limiter.signerTier?.() ?? null },
          'rate-limit tier not read from the exchange: keeping the configured tier',
        );
      }, opts.signal);
      if (!missing && tier !== null) limiterLog.info({ tier }, 'per-signer rate-limit tier');
    }

    let gateway: ExchangeGateway = http;
    if (config.mode === 'paper') {
      // The paper gateway owns the HTTP market-data port from here on (it closes it).
      closers.pop();
      const paper = new PaperGateway({ marketData: http, clock, dialect, capital: capitalFromConfig(config) });
      closers.push(() => paper.close());
      gateway = paper;
    }

    const signer = new SigningPool({ privateKey: identity.privateKey, dialect });
    closers.push(() => signer.close());

    let recorder: MarketRecorder | undefined;
    if (config.record.enabled) {
      await mkdir(dirname(config.record.path), { recursive: true });
      const writer = await RecordingWriter.open(config.record.path);
      const rec = new MarketRecorder({
        clock,
        sink: writer,
        onError: (err) => {
          logger.warn({ err }, 'market-data recording failed');
        },
        // The report's market names (question and outcome); a failed write loses labels, never data.
        onMarkets: (markets) => {
          writeUniverseLabels(config.record.path, markets).catch((err: unknown) => {
            logger.warn({ err }, 'writing the recording labels failed');
          });
        },
        // Public trades of the recorded markets (taker rows), through the limiter like every request.
        trades: {
          fetch: (q) =>
            http.client.getTrades({ market: [q.market], limit: q.limit, offset: q.offset, takerOnly: true }),
        },
      });
      // Closers run in reverse: this one (pushed last) runs first, after the daemon has stopped.
      closers.push(async () => {
        await rec.stop();
        await writer.close();
      });
      rec.start();
      recorder = rec;
      logger.info({ path: config.record.path }, 'recording market data');
    }
    // The order manager, the trade feed (the HTTP gateway has the trades route) and the daemon,
    // wired as the backtest and the comparison wire them (create-daemon.ts).
    // Webhooks (notify.webhooks): told of the kill switch, circuit breakers, fills and start/stop.
    let notifier: Notifier | null = null;
    const {
      daemon,
      executor: metered,
      manager,
    } = createDaemon({
      config,
      clock,
      logger,
      gateway,
      ledger,
      signer,
      owner: identity.credentials.apiKey,
      limiter,
      address,
      // Resolutions of markets that left the universe: settled in the ledger, RESOLVED when recording.
      marketsListing: marketsListing(http),
      ...(recorder !== undefined ? { recorder } : {}),
      ...(opts.refreshScheduler !== undefined ? { refreshScheduler: opts.refreshScheduler } : {}),
      ...(opts.strategy !== undefined ? { strategy: opts.strategy } : {}),
      hooks: {
        onFill: (f) => {
          metrics.onFill(f);
          notifier?.onFill(f);
        },
        onCycle: (r) => {
          metrics.onCycle(r);
        },
        wrapExecutor: (manager) => metrics.meterExecutor(manager),
      },
    });
    if (config.notify.webhooks.length > 0) {
      const n = (notifier = new Notifier({
        config: config.notify,
        clock,
        log: logger.child({ component: 'notify' }),
        status: () => daemon.status(),
        marketName: (tokenId) => manager.marketInfo(tokenId)?.label,
        name: `oddsmaker ${config.mode}`,
        registry: metrics.registry,
      }));
      n.start();
      // Pushed last, so it runs first of the closers (after daemon.stop()): "stopped" goes out, bounded.
      closers.push(() => n.close());
    }
    return { daemon, logger, simulator, gateway, ops: { metrics, executor: metered, ledger }, close };
  } catch (err) {
    // The build's own error is the one reported; a part that also fails to close is secondary.
    await closeAll();
    throw err;
  }
}

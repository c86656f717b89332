// startSimulator: builds the venue and its HTTP server and listens; the `oddsmaker sim` command and
// the daemon's sandbox mode (in-process) both start the simulator through this function.
// Invariants kept here:
// - defaults: 127.0.0.1, an ephemeral port (0), seed 1, 50 markets, spec dialect, `normal` flow,
//   limits on, no faults, no allowlist, the system clock;
// - the returned `url` is the base URL every API of the interface is served on (CLOB, Data and
//   Catalog share one origin), with the port actually bound;
// - close() stops the flow and the sampler, then closes the server (in-flight requests finish,
//   idle keep-alive sockets are dropped); calling it twice is harmless;
// - every start is a new world with a new `runId` (random), even with the same seed: the sandbox
//   records it in the ledger it writes, so no later run takes that ledger for its own.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SystemClock, type Clock } from '../../core/clock.js';
import type { Micros } from '../../core/money.js';
import type { SettlementConfig } from '../venue/settlement.js';
import { getDialect, type Dialect, type DialectName } from '../../exchange/dialect.js';
import type { BudgetTable } from '../../ratelimit/index.js';
import { Venue, type FlowFactory, type FlowIntensity } from '../venue/index.js';
import type { Seed } from '../world/index.js';
import type { SignerTier } from '../../ratelimit/signer-tiers.js';
import { buildApp } from './app.js';
import type { ServerContext } from './context.js';
import type { FaultConfig } from './faults.js';
import type { VerifierOptions } from './sig-verify.js';
import type { ExchangeStateOptions } from './exchange-state.js';

export interface SimulatorOptions {
  host?: string;
  port?: number;
  seed?: Seed;
  markets?: number;
  dialect?: DialectName | Dialect;
  flow?: FlowIntensity;
  /** Replaces engineer K's FlowDriver (tests). */
  flowFactory?: FlowFactory;
  /** Edge throttling per table 8: 'on' (default) or 'off' (load tests). */
  limits?: 'on' | 'off' | boolean;
  /** Budgets of the edge when limits are on (default table 8). */
  budgets?: BudgetTable;
  /** Per-signer trading buckets' tier (polymarket dialect, limits on; default standard); 'off': none. */
  signerTier?: SignerTier | 'off';
  faults?: Partial<FaultConfig>;
  allowIps?: readonly string[];
  clock?: Clock;
  /** "Now" of the generated world (default: the clock's day). */
  worldStartMs?: number;
  sampleIntervalMs?: number;
  marketsPageSize?: number;
  /** Page size of GET /data/orders and GET /data/trades (default 500). */
  accountPageSize?: number;
  /** Trade settlement: `minedAfterMs` (default 2000), `confirmedAfterMs` (10000), `failFraction` (0). */
  settlement?: Partial<SettlementConfig>;
  /** Heartbeat window before an account's live orders are cancelled (default 10000 ms). */
  heartbeatExpiryMs?: number;
  bodyLimit?: number;
  accountCollateral?: Micros;
  /** Signature verification: worker threads (default: cores, at most 4), table width, cache size. */
  verifier?: VerifierOptions;
  /** Order version, clock skew, geoblock, close-only, allowances, deposit-wallet rule (exchange-state.ts). */
  exchange?: ExchangeStateOptions;
}

export interface SimulatorAccount {
  readonly privateKey: string;
  readonly address: string;
  readonly apiKey: string;
  readonly secret: string;
  readonly passphrase: string;
}

export interface RunningSimulator {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly account: SimulatorAccount;
  /** This start's world (random): two starts with one seed are two worlds. */
  readonly runId: string;
  readonly venue: Venue;
  readonly app: FastifyInstance;
  readonly ctx: ServerContext;
  close(): Promise<void>;
}

export const DEFAULT_SIM_MARKETS = 50;

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = opts.clock ?? new SystemClock();
  const dialect = typeof opts.dialect === 'object' ? opts.dialect : getDialect(opts.dialect ?? 'spec');
  const venue = new Venue({
    clock,
    seed: opts.seed ?? 1,
    markets: opts.markets ?? DEFAULT_SIM_MARKETS,
    dialect,
    flow: opts.flow ?? 'normal',
    ...(opts.flowFactory === undefined ? {} : { flowFactory: opts.flowFactory }),
    ...(opts.worldStartMs === undefined ? {} : { worldStartMs: opts.worldStartMs }),
    ...(opts.sampleIntervalMs === undefined ? {} : { sampleIntervalMs: opts.sampleIntervalMs }),
    ...(opts.accountCollateral === undefined ? {} : { accountCollateral: opts.accountCollateral }),
    ...(opts.settlement === undefined ? {} : { settlement: opts.settlement }),
    ...(opts.heartbeatExpiryMs === undefined ? {} : { heartbeatExpiryMs: opts.heartbeatExpiryMs }),
  });
  const limits = opts.limits === undefined ? true : opts.limits === true || opts.limits === 'on';
  let built: ReturnType<typeof buildApp>;
  try {
    built = buildApp({
      venue,
      clock,
      limits,
      ...(opts.budgets === undefined ? {} : { budgets: opts.budgets }),
      ...(opts.signerTier === undefined ? {} : { signerTier: opts.signerTier }),
      ...(opts.faults === undefined ? {} : { faults: opts.faults }),
      ...(opts.allowIps === undefined ? {} : { allowIps: opts.allowIps }),
      ...(opts.bodyLimit === undefined ? {} : { bodyLimit: opts.bodyLimit }),
      ...(opts.marketsPageSize === undefined ? {} : { marketsPageSize: opts.marketsPageSize }),
      ...(opts.accountPageSize === undefined ? {} : { accountPageSize: opts.accountPageSize }),
      ...(opts.verifier === undefined ? {} : { verifier: opts.verifier }),
      ...(opts.exchange === undefined ? {} : { exchange: opts.exchange }),
    });
  } catch (e) {
    venue.close();
    throw e;
  }
  const { app, ctx } = built;
  const host = opts.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: opts.port ?? 0 });
  } catch (e) {
    venue.close();
    await app.close();
    throw e;
  }
  venue.start();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : (opts.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const c = venue.account.credentials;
  let closed: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    account: {
      privateKey: venue.account.privateKey,
      address: venue.account.address,
      apiKey: c.apiKey,
      secret: c.secret,
      passphrase: c.passphrase,
    },
    runId: randomUUID(),
    venue,
    app,
    ctx,
    close(): Promise<void> {
      if (closed === null) {
        venue.close();
        closed = app.close();
      }
      return closed;
    },
  };
}

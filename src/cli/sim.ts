// `oddsmaker sim`: starts the bundled exchange simulator (src/sim/server/start.ts) in the
// foreground, prints its base URL and a funded throwaway test account as shell `export` lines, and
// stops cleanly on SIGTERM or SIGINT (flow and sampler stopped, server closed, in-flight requests
// finished). Invariants:
// - every flag is validated before anything starts; a bad value is a UsageError (exit 2);
// - the printed credentials are the simulator's own throwaway account (derived from the seed), the
//   only secrets this project ever prints on purpose: they unlock nothing outside this simulator;
// - `--seed 42` (digits) is the number 42, any other text a string seed; the world, the account
//   and the flow are functions of it.
import type { Command } from 'commander';
import { SystemClock, type Clock } from '../core/clock.js';
import { DIALECT_NAMES, isDialectName, type DialectName } from '../exchange/dialect.js';
import { FaultConfigError, parseFaultSpec, type FaultConfig } from '../sim/server/faults.js';
import type { ExchangeStateOptions } from '../sim/server/exchange-state.js';
import { startSimulator, type RunningSimulator } from '../sim/server/start.js';
import {
  FLOW_INTENSITIES,
  isFlowIntensity,
  parseSettlementSpec,
  SettlementConfigError,
  type FlowIntensity,
  type SettlementConfig,
} from '../sim/venue/index.js';
import { UsageError } from './exit-codes.js';
import { OptionError } from '../core/errors.js';

export interface SimCliOptions {
  port?: string;
  host?: string;
  seed?: string;
  markets?: string;
  dialect?: string;
  flow?: string;
  limits?: string;
  allowIp?: string[];
  faults?: string;
  settlement?: string;
  heartbeatExpiryMs?: string;
  // The exchange's self-description and its faults (sim/server/exchange-state.ts), for `doctor`.
  orderVersion?: string;
  clockSkewMs?: string;
  geoblocked?: boolean;
  closedOnly?: boolean;
  zeroAllowance?: boolean;
  requireDepositWallet?: boolean;
}

export interface SimSettings {
  port: number;
  host: string;
  seed: number | string;
  markets: number;
  dialect: DialectName;
  flow: FlowIntensity;
  limits: boolean;
  allowIps: string[];
  faults: FaultConfig | null;
  /** Trade settlement (GET /data/trades); null: the simulator's defaults. */
  settlement: SettlementConfig | null;
  /** Heartbeat window; null: the simulator's default (10 s). */
  heartbeatExpiryMs: number | null;
  /** Order version, clock skew, geoblock, close-only, allowances, deposit-wallet rule: only those given. */
  exchange: ExchangeStateOptions;
}

/** A source of termination signals (process, or a test's emitter). */
export interface SignalSource {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  off(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

export interface SimDeps {
  out: { write(text: string): unknown };
  clock: Clock;
  signals: SignalSource;
  /** Called once the simulator listens (tests use it to talk to it). */
  onReady?: (sim: RunningSimulator) => void;
}

/** A signed whole number of ms within a day either way (an exchange clock behind or ahead). */
function signedMs(name: string, text: string): number {
  if (!/^-?\d{1,8}$/.test(text) || Math.abs(Number(text)) > 86_400_000)
    throw new UsageError(`${name} must be an integer from -86400000 to 86400000, got ${JSON.stringify(text)}`);
  return Number(text);
}

function intIn(name: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text))
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got ${n}`);
  return n;
}

/** Validates the flags into settings (defaults: 127.0.0.1:8080, seed 1, 50 markets, spec, normal flow, limits on). */
export function simSettings(o: SimCliOptions): SimSettings {
  const dialect = o.dialect ?? 'spec';
  if (!isDialectName(dialect))
    throw new UsageError(`--dialect must be one of ${DIALECT_NAMES.join(', ')}, got ${JSON.stringify(dialect)}`);
  const flow = o.flow ?? 'normal';
  if (!isFlowIntensity(flow))
    throw new UsageError(`--flow must be one of ${FLOW_INTENSITIES.join(', ')}, got ${JSON.stringify(flow)}`);
  const limits = o.limits ?? 'on';
  if (limits !== 'on' && limits !== 'off')
    throw new UsageError(`--limits must be on or off, got ${JSON.stringify(limits)}`);
  const seedText = o.seed ?? '1';
  if (seedText === '') throw new UsageError('--seed must not be empty');
  const seed = /^\d{1,15}$/.test(seedText) ? Number(seedText) : seedText;
  let faults: FaultConfig | null = null;
  if (o.faults !== undefined) {
    try {
      faults = parseFaultSpec(o.faults);
    } catch (e) {
      if (e instanceof FaultConfigError) throw new UsageError(`--faults: ${e.message}`);
      throw e;
    }
  }
  let settlement: SettlementConfig | null = null;
  if (o.settlement !== undefined) {
    try {
      settlement = parseSettlementSpec(o.settlement);
    } catch (e) {
      if (e instanceof SettlementConfigError) throw new UsageError(`--settlement: ${e.message}`);
      throw e;
    }
  }
  const exchange: ExchangeStateOptions = {
    ...(o.orderVersion === undefined ? {} : { orderVersion: intIn('--order-version', o.orderVersion, 1, 1_000_000) }),
    ...(o.clockSkewMs === undefined ? {} : { clockSkewMs: signedMs('--clock-skew-ms', o.clockSkewMs) }),
    ...(o.geoblocked === true ? { geoblocked: true } : {}),
    ...(o.closedOnly === true ? { closedOnly: true } : {}),
    ...(o.zeroAllowance === true ? { noAllowance: true } : {}),
    ...(o.requireDepositWallet === true ? { requireDepositWallet: true } : {}),
  };
  return {
    exchange,
    port: intIn('--port', o.port ?? '8080', 0, 65535),
    host: o.host ?? '127.0.0.1',
    seed,
    markets: intIn('--markets', o.markets ?? '50', 1, 100_000),
    dialect,
    flow,
    limits: limits === 'on',
    allowIps: o.allowIp ?? [],
    faults,
    settlement,
    heartbeatExpiryMs:
      o.heartbeatExpiryMs === undefined ? null : intIn('--heartbeat-expiry-ms', o.heartbeatExpiryMs, 1, 86_400_000),
  };
}

/** The lines printed once the simulator listens. */
export function readyLines(sim: RunningSimulator): string {
  const a = sim.account;
  return [
    `# oddsmaker simulator listening on ${sim.url}`,
    '# throwaway test account of this simulator (funded; valid nowhere else):',
    `export ODDSMAKER_PRIVATE_KEY=${a.privateKey}`,
    `export ODDSMAKER_ADDRESS=${a.address}`,
    `export ODDSMAKER_API_KEY=${a.apiKey}`,
    `export ODDSMAKER_API_SECRET=${a.secret}`,
    `export ODDSMAKER_API_PASSPHRASE=${a.passphrase}`,
    '',
  ].join('\n');
}

/** Runs the simulator until SIGTERM or SIGINT; resolves once it has stopped. */
export async function runSim(o: SimCliOptions, deps: SimDeps): Promise<void> {
  const s = simSettings(o);
  let sim: RunningSimulator;
  try {
    sim = await startSimulator({
      host: s.host,
      port: s.port,
      seed: s.seed,
      markets: s.markets,
      dialect: s.dialect,
      flow: s.flow,
      limits: s.limits,
      allowIps: s.allowIps,
      clock: deps.clock,
      ...(s.faults === null ? {} : { faults: s.faults }),
      ...(s.settlement === null ? {} : { settlement: s.settlement }),
      ...(s.heartbeatExpiryMs === null ? {} : { heartbeatExpiryMs: s.heartbeatExpiryMs }),
      exchange: s.exchange,
    });
  } catch (e) {
    // A bad option (--allow-ip, --markets, a fault or settlement setting): a usage error, exit 2.
    if (e instanceof OptionError) throw new UsageError(e.message);
    throw e;
  }
  deps.out.write(readyLines(sim));
  deps.onReady?.(sim);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      deps.signals.off('SIGTERM', stop);
      deps.signals.off('SIGINT', stop);
      resolve();
    };
    deps.signals.once('SIGTERM', stop);
    deps.signals.once('SIGINT', stop);
  });
  await sim.close();
  deps.out.write('# oddsmaker simulator stopped\n');
}

export function register(program: Command, deps?: Partial<SimDeps>): void {
  program
    .command('sim')
    .description('Run the bundled exchange simulator (prints its URL and a funded test account as export lines)')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <seed>', 'seed of the synthetic world, accounts and flow', '1')
    .option('--markets <n>', 'number of markets', '50')
    .option('--dialect <name>', 'spec or polymarket', 'spec')
    .option('--flow <intensity>', `synthetic order flow: ${FLOW_INTENSITIES.join(', ')}`, 'normal')
    .option('--limits <on|off>', 'edge throttling per table 8 of the interface', 'on')
    .option('--allow-ip <ip...>', 'portfolio IP allowlist (others get unauthorized: ip_not_allowlisted)')
    .option('--faults <spec>', 'fault injection, e.g. 500=0.01,503=0.01,425=0.005,html=0.01,delay=0.02,delay_ms=1500')
    .option(
      '--settlement <spec>',
      'trade settlement, e.g. mined_ms=2000,confirmed_ms=10000,fail=0.01 (fail: fraction of trades whose settlement fails and is undone)',
    )
    .option(
      '--heartbeat-expiry-ms <ms>',
      "heartbeat window before an account's live orders are cancelled (default 10000)",
    )
    .option(
      '--order-version <n>',
      'order version GET /version reports (default 2); another one refuses every order with order_version_mismatch',
    )
    .option('--clock-skew-ms <ms>', 'skew of the exchange clock GET /time reports, ms (default 0)')
    .option('--geoblocked', 'GET /api/geoblock answers blocked')
    .option('--closed-only', 'GET /auth/ban-status/closed-only answers true')
    .option('--zero-allowance', 'GET /balance-allowance answers zero allowances')
    .option(
      '--require-deposit-wallet',
      'refuse orders of every kind but the deposit wallet (type 3), as for new API accounts',
    )
    .action(async (opts: SimCliOptions) => {
      await runSim(opts, {
        out: deps?.out ?? process.stdout,
        clock: deps?.clock ?? new SystemClock(),
        signals: deps?.signals ?? process,
        ...(deps?.onReady === undefined ? {} : { onReady: deps.onReady }),
      });
    });
}

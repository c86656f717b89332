// `oddsmaker run`: the daemon. Loads and validates the config (every bad path and value in one
// message, the strategy's name and parameters included: exit 2), chooses the ledger (config
// `ledger.path`, else the mode's default: a new file per sandbox run, src/config/ledger-path.ts)
// and locks it before anything else (one daemon per ledger: a second fails at once naming the
// holder's pid, exit 1, before the simulator, the rate limiter's backend or the exchange is
// touched; src/ledger/lock.ts), builds the mode's runtime (src/runtime/modes.ts: it refuses a
// ledger of another exchange or account, exit 2), binds the ops server (/healthz, /metrics,
// /status, operator actions: src/runtime/ops) when config `health.enabled`, and only then starts
// the daemon: a port that cannot be bound fails the command (exit 1, naming health.port) before
// startup reconciliation and before any order. On SIGTERM or SIGINT it stops the daemon in the
// fixed order (stop quoting, cancel every live order through the limiter, drain in-flight
// requests, flush the ledger), closes the ops server, and exits 0; a second signal exits at once.
// A shutdown step that fails is logged, the later ones still run, and the exit code is 1
// (src/cli/shutdown.ts); nothing on that path can become an unhandled rejection.
// The lock is released on every way out: a stop, a failed start, a second signal (process exit).
// A dependency the config names (the shared limiter's Redis) that is not ready within its connect
// timeout fails the command (exit 1, one message naming the setting and the address); a SIGTERM or
// SIGINT while the runtime is being built (waiting for it) aborts the wait, closes what was opened
// and exits 0 at once: nothing was started, nothing can be live.
import type { Command } from 'commander';
import { SystemClock, type Clock } from '../core/clock.js';
import { chooseLedgerPath, withLedgerPath } from '../config/ledger-path.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { Env } from '../exchange/auth/credentials.js';
import type { StrategyModule } from '../strategy/define.js';
import { lockLedger, type LedgerLock } from '../ledger/index.js';
import { isAbortedConnect } from '../ratelimit/index.js';
import { buildRuntime, type Runtime } from '../runtime/modes.js';
import type { OpsServer } from '../runtime/ops/server.js';
import { startRuntimeOps } from '../runtime/ops/start.js';
import { EXIT_FAILURE, UsageError } from './exit-codes.js';
import { failedStart, shutdown, type ShutdownParts } from './shutdown.js';

export interface RunCliOptions {
  config: string;
  mode?: string;
  ledger?: string;
}

export interface RunDeps {
  clock: Clock;
  env: Env;
  signals: {
    once(sig: 'SIGTERM' | 'SIGINT', fn: () => void): unknown;
    off(sig: 'SIGTERM' | 'SIGINT', fn: () => void): unknown;
  };
  exit: (code: number) => void;
  /** Sets the exit code without exiting (default: process.exitCode). */
  setExitCode?: (code: number) => void;
  onReady?: (rt: Runtime) => void;
}

const MODES = ['sandbox', 'live', 'paper'];

/** Runs until a signal stops the daemon; resolves once everything is closed. */
export async function runDaemon(opts: RunCliOptions, deps: RunDeps): Promise<void> {
  if (opts.mode !== undefined && !MODES.includes(opts.mode)) {
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(opts.mode)}`);
  }
  // The user's strategy modules are imported and checked here, with the rest of the config.
  const { config: loaded, strategy } = await loadConfig(opts.config, { mode: opts.mode, ledger: opts.ledger });
  const ledgerPath = chooseLedgerPath(loaded, deps.clock.now()).path;
  const config = withLedgerPath(loaded, ledgerPath);
  // One daemon per ledger: locked before anything is started or sent.
  const lock = lockLedger(ledgerPath);
  try {
    await runLocked(config, strategy, deps, lock);
  } finally {
    lock.release();
  }
}

async function runLocked(
  config: Readonly<Config>,
  strategy: StrategyModule,
  deps: RunDeps,
  lock: LedgerLock,
): Promise<void> {
  const building = new AbortController();
  const abortOn = (sig: 'SIGTERM' | 'SIGINT') => (): void => {
    building.abort(sig);
  };
  const abortTerm = abortOn('SIGTERM');
  const abortInt = abortOn('SIGINT');
  deps.signals.once('SIGTERM', abortTerm);
  deps.signals.once('SIGINT', abortInt);
  let rt: Runtime;
  try {
    rt = await buildRuntime({ config, strategy, clock: deps.clock, env: deps.env, signal: building.signal });
  } catch (err) {
    if (building.signal.aborted && isAbortedConnect(err)) {
      process.stderr.write(
        `oddsmaker: ${(err as Error).message} by ${String(building.signal.reason)}; nothing was started\n`,
      );
      return;
    }
    throw err;
  } finally {
    deps.signals.off('SIGTERM', abortTerm);
    deps.signals.off('SIGINT', abortInt);
  }
  if (building.signal.aborted) {
    await rt.close();
    return;
  }
  const log = rt.logger;
  if (lock.staleFrom !== null)
    log.warn({ lock: lock.path, pid: lock.staleFrom }, 'took over a stale ledger lock: its daemon is gone');
  if (rt.simulator !== null)
    log.info({ url: rt.simulator.url, address: rt.simulator.account.address }, 'sandbox: simulator started in-process');

  let resolveStopped: () => void = () => undefined;
  const stopped = new Promise<void>((r) => {
    resolveStopped = r;
  });
  let stopping = false;
  let ops: Promise<OpsServer | null> = Promise.resolve(null);
  const setExitCode =
    deps.setExitCode ??
    ((code: number): void => {
      process.exitCode = code;
    });
  const parts = (): ShutdownParts => ({ stop: () => rt.daemon.stop(), ops, close: () => rt.close(), log, setExitCode });
  const onSignal = (sig: string) => (): void => {
    if (stopping) {
      log.warn({ signal: sig }, 'second signal: exiting at once');
      deps.exit(EXIT_FAILURE);
      return;
    }
    stopping = true;
    log.info({ signal: sig }, 'stopping: cancelling every live order');
    // Re-arm for a second signal.
    deps.signals.once('SIGTERM', onSignal('SIGTERM'));
    deps.signals.once('SIGINT', onSignal('SIGINT'));
    // shutdown() never rejects (each step's failure is logged and sets the exit code); the
    // catch is the last guard, so no failure here can become an unhandled rejection.
    void shutdown(parts())
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        setExitCode(EXIT_FAILURE);
      })
      .finally(resolveStopped);
  };
  const term = onSignal('SIGTERM');
  const int = onSignal('SIGINT');
  deps.signals.once('SIGTERM', term);
  deps.signals.once('SIGINT', int);
  let started = false;
  try {
    // The ops port before trading: a port we cannot have fails here, before any order.
    if (config.health.enabled) {
      ops = startRuntimeOps(rt, config, deps.env, deps.clock);
      await ops;
    }
    if (!stopping) {
      started = true;
      await rt.daemon.start();
    }
  } catch (err) {
    deps.signals.off('SIGTERM', term);
    deps.signals.off('SIGINT', int);
    return failedStart(parts(), started, err);
  }
  deps.onReady?.(rt);
  await stopped;
}

export function register(program: Command): void {
  program
    .command('run')
    .description('run the market-making daemon (sandbox mode by default: against the bundled simulator)')
    .option('--config <file>', 'config file (JSON)', 'config/default.json')
    .option('--mode <mode>', 'override the config mode: sandbox, live or paper')
    .option('--ledger <file>', 'override the ledger path')
    .action(async (o: RunCliOptions) => {
      await runDaemon(o, {
        clock: new SystemClock(),
        env: process.env,
        signals: process,
        exit: (code) => process.exit(code),
      });
    });
}

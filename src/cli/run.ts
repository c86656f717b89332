// `oddsmaker run`: the daemon. Loads and validates the config (every bad path and value in one
// message, exit 2), builds the mode's runtime (src/runtime/modes.ts), starts the daemon, and on
// SIGTERM or SIGINT stops it in the fixed order (stop quoting, cancel every live order through the
// limiter, drain in-flight requests, flush the ledger) and exits 0; a second signal exits at once.
// With config `health.enabled`, the ops server (/healthz, /metrics, /status, operator actions:
// src/runtime/ops) starts once the daemon runs and closes after it stopped; failing to listen
// stops the daemon and fails the command.
// A dependency the config names (the shared limiter's Redis) that is not ready within its connect
// timeout fails the command (exit 1, one message naming the setting and the address); a SIGTERM or
// SIGINT while the runtime is being built (waiting for it) aborts the wait, closes what was opened
// and exits 0 at once: nothing was started, nothing can be live.
import type { Command } from 'commander';
import { SystemClock, type Clock } from '../core/clock.js';
import { loadConfigFile } from '../config/load.js';
import type { Env } from '../exchange/auth/credentials.js';
import { isAbortedConnect } from '../ratelimit/index.js';
import { buildRuntime, type Runtime } from '../runtime/modes.js';
import type { OpsServer } from '../runtime/ops/server.js';
import { startRuntimeOps } from '../runtime/ops/start.js';
import { EXIT_FAILURE, UsageError } from './exit-codes.js';

export interface RunCliOptions {
  config: string;
  mode?: string;
  ledger?: string;
}

export interface RunDeps {
  clock: Clock;
  env: Env;
  signals: { once(sig: 'SIGTERM' | 'SIGINT', fn: () => void): unknown; off(sig: 'SIGTERM' | 'SIGINT', fn: () => void): unknown };
  exit: (code: number) => void;
  onReady?: (rt: Runtime) => void;
}

const MODES = ['sandbox', 'live', 'paper'];

/** Runs until a signal stops the daemon; resolves once everything is closed. */
export async function runDaemon(opts: RunCliOptions, deps: RunDeps): Promise<void> {
  if (opts.mode !== undefined && !MODES.includes(opts.mode)) {
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(opts.mode)}`);
  }
  const config = loadConfigFile(opts.config, { mode: opts.mode, ledger: opts.ledger });
  const building = new AbortController();
  const abortOn = (sig: 'SIGTERM' | 'SIGINT') => (): void => { building.abort(sig); };
  const abortTerm = abortOn('SIGTERM');
  const abortInt = abortOn('SIGINT');
  deps.signals.once('SIGTERM', abortTerm);
  deps.signals.once('SIGINT', abortInt);
  let rt: Runtime;
  try {
    rt = await buildRuntime({ config, clock: deps.clock, env: deps.env, signal: building.signal });
  } catch (err) {
    if (building.signal.aborted && isAbortedConnect(err)) {
      process.stderr.write(`oddsmaker: ${(err as Error).message} by ${String(building.signal.reason)}; nothing was started\n`);
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
  if (rt.simulator !== null) log.info({ url: rt.simulator.url, address: rt.simulator.account.address }, 'sandbox: simulator started in-process');

  let resolveStopped: () => void = () => undefined;
  const stopped = new Promise<void>((r) => { resolveStopped = r; });
  let stopping = false;
  let ops: Promise<OpsServer | null> = Promise.resolve(null);
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
    void (async () => {
      try {
        const rep = await rt.daemon.stop();
        // 0 only when nothing of ours is left live (the stop line names what is, and where).
        if (rep.timedOut || rep.remainingLive.length > 0) process.exitCode = EXIT_FAILURE;
      } catch (err) {
        log.error({ err }, 'stop failed');
        process.exitCode = EXIT_FAILURE;
      } finally {
        await ops.then((s) => s?.close()).catch(() => undefined);
        await rt.close();
        log.info({}, 'shutdown complete');
        resolveStopped();
      }
    })();
  };
  const term = onSignal('SIGTERM');
  const int = onSignal('SIGINT');
  deps.signals.once('SIGTERM', term);
  deps.signals.once('SIGINT', int);
  try {
    await rt.daemon.start();
    if (!stopping && config.health.enabled) { ops = startRuntimeOps(rt, config, deps.env, deps.clock); await ops; }
  } catch (err) {
    deps.signals.off('SIGTERM', term);
    deps.signals.off('SIGINT', int);
    await rt.daemon.stop().catch(() => undefined);
    await rt.close();
    throw err;
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

// `oddsmaker run` as a child process for the start-up safety tests (ledger identity, lock, sandbox
// ledger per run, ops port): the one child harness (test/support/child.ts) with `run` and its
// arguments, an optional working directory and only the environment given. Plus the configs and
// environments those tests write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSimulator } from '../../src/sim/server/start.js';
import { CLI, NodeChild, reapChildren, type ChildExit, type ChildOptions, type Line } from '../support/child.js';

export type { Line };
export type Exit = ChildExit;

/** `oddsmaker run <args…>`. */
export class RunChild extends NodeChild {
  constructor(args: readonly string[], opts: ChildOptions = {}) {
    super(CLI, ['run', ...args], opts);
  }
}

/** Kills every child still running (afterEach). */
export const reap = reapChildren;

/** The simulator's throwaway account as the live-mode environment. */
export function accountEnv(sim: RunningSimulator): Record<string, string> {
  const a = sim.account;
  return {
    ODDSMAKER_PRIVATE_KEY: a.privateKey,
    ODDSMAKER_ADDRESS: a.address,
    ODDSMAKER_API_KEY: a.apiKey,
    ODDSMAKER_API_SECRET: a.secret,
    ODDSMAKER_API_PASSPHRASE: a.passphrase,
  };
}

/** Writes `cfg` as `name` in dir; returns the path. */
export function writeJson(dir: string, name: string, cfg: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(cfg));
  return path;
}

/**
 * A live-mode config against `url` that goes quiet once started: one market, and every periodic
 * request (polls, lookups, heartbeat, balance, schedules) a minute or more apart, so that a test
 * can tell this daemon's requests from another's by time.
 */
export function quietLiveConfig(
  url: string,
  ledgerPath: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    mode: 'live',
    exchange: { clobUrl: url, heartbeat: false },
    markets: { selector: { max: 1 }, refreshCron: '0 0 1 1 *' },
    poll: { intervalMs: 120_000, maxBookAgeMs: 240_000, orderLookupIntervalMs: 120_000 },
    ledger: { path: ledgerPath, positionsCheckCron: '0 0 1 1 *', balanceCheckIntervalMs: 0 },
    orders: { shutdownTimeoutMs: 15_000 },
    health: { enabled: false },
    ...extra,
  };
}

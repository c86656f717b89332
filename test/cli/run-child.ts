// `oddsmaker run` as a child process for the start-up safety tests (ledger identity, lock, sandbox
// ledger per run, ops port): the compiled CLI with only the environment given (and PATH), an
// optional working directory, its JSON log lines and stderr lines collected. Waits are driven by
// the child's own log lines and exit, each bounded by a timer; nothing sleeps. `reap()` kills
// what a failed test left running.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunningSimulator } from '../../src/sim/server/start.js';
import { CLI } from '../e2e/harness.js';

export interface Line { msg?: string; [k: string]: unknown }
export interface Exit { code: number | null; signal: NodeJS.Signals | null }

const running = new Set<RunChild>();

export class RunChild {
  readonly child: ChildProcess;
  readonly lines: Line[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<Exit>;
  private waiters: Array<{ pred: (l: Line) => boolean; resolve: (l: Line) => void }> = [];

  constructor(args: readonly string[], opts: { env?: Record<string, string>; cwd?: string } = {}) {
    this.child = spawn(process.execPath, [CLI, 'run', ...args], {
      env: { PATH: process.env.PATH ?? '', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    });
    running.add(this);
    const stdoutDone = new Promise<void>((r) => createInterface({ input: this.child.stdout! }).on('line', (text) => {
      let l: Line;
      try { l = JSON.parse(text) as Line; } catch { l = { msg: text }; }
      this.lines.push(l);
      this.waiters = this.waiters.filter((w) => { if (w.pred(l)) { w.resolve(l); return false; } return true; });
    }).on('close', r));
    const stderrDone = new Promise<void>((r) => createInterface({ input: this.child.stderr! }).on('line', (t) => this.stderr.push(t)).on('close', r));
    // Resolved once the process is gone and both streams are read to their end.
    this.exited = new Promise<Exit>((res) => this.child.once('exit', (code, signal) => res({ code, signal })))
      .then(async (e) => { await Promise.all([stdoutDone, stderrDone]); running.delete(this); return e; });
  }

  get pid(): number { return this.child.pid ?? -1; }

  /** The first log line (past or future) matching pred; rejects on exit or after timeoutMs. */
  waitFor(pred: (l: Line) => boolean, what: string, timeoutMs = 60_000): Promise<Line> {
    const seen = this.lines.find(pred);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`timed out waiting for ${what}; stderr: ${this.stderr.join(' | ')}`)), timeoutMs);
      const onExit = (): void => { clearTimeout(timer); rej(new Error(`exited while waiting for ${what}; stderr: ${this.stderr.join(' | ')}`)); };
      this.child.once('exit', onExit);
      this.waiters.push({ pred, resolve: (l) => { clearTimeout(timer); this.child.off('exit', onExit); res(l); } });
    });
  }

  /** The exit, or a rejection (and SIGKILL) after boundMs. */
  exit(boundMs: number): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, rej) => {
      timer = setTimeout(() => { this.child.kill('SIGKILL'); rej(new Error(`still running after ${boundMs} ms; stderr: ${this.stderr.join(' | ')}`)); }, boundMs);
    });
    return Promise.race([this.exited, bound]).finally(() => clearTimeout(timer));
  }

  msgs(): string[] { return this.lines.map((l) => String(l.msg)); }
}

/** Kills every child still running (afterEach). */
export async function reap(): Promise<void> {
  for (const c of [...running]) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await c.exited;
  }
}

/** The simulator's throwaway account as the live-mode environment. */
export function accountEnv(sim: RunningSimulator): Record<string, string> {
  const a = sim.account;
  return {
    ODDSMAKER_PRIVATE_KEY: a.privateKey, ODDSMAKER_ADDRESS: a.address,
    ODDSMAKER_API_KEY: a.apiKey, ODDSMAKER_API_SECRET: a.secret, ODDSMAKER_API_PASSPHRASE: a.passphrase,
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
export function quietLiveConfig(url: string, ledgerPath: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
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

// Chaos harness: the processes of a chaos run and bounded waits on them. Owns starting and stopping
// the simulator child (sim-process.ts, compiled) and the daemon child (`dist/src/cli/main.js run`,
// live mode against the simulator's URL, its throwaway account in the environment; its config:
// daemon-config.ts), and waits driven by the daemon's JSON log lines, each with a bound (never a
// sleep).
//
// Why the simulator is a child process here, unlike test/e2e/harness.ts which starts it in-process:
// the chaos runs read the daemon's SQLite ledger synchronously while it runs (the lag sampler) and
// churn up to 100 markets at `high` flow; in the test process both would stall the exchange's event
// loop and distort the very timings under test (lookups, cancels, the shutdown deadline). A child
// also lets the edge's budgets be scaled (sim-process.ts takes a budget table) and survives every
// daemon kill untouched. Everything listens on 127.0.0.1 only; every process started here is
// tracked and ended by its own handle (`killAll`), never by name.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  assertBuilt as assertFiles,
  CLI,
  NodeChild,
  reapChildren,
  within,
  type ChildExit,
  type Line,
} from '../support/child.js';
import type { SimProcessOptions } from './sim-process.js';
import { stopLine } from '../support/stop-line.js';

export { CLI, within };
export const SIM_ENTRY = resolve('dist/test/chaos/sim-process.js');

export function assertBuilt(): void {
  assertFiles([CLI, SIM_ENTRY]);
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'oddsmaker-chaos-'));
}

/** SIGKILLs every child still running (test clean-up): the simulator and the daemons. */
export const killAll = reapChildren;

export type ExitInfo = ChildExit;

// ------------------------------------------------------------------------------------ simulator

export interface SimAccount {
  readonly privateKey: string;
  readonly address: string;
  readonly apiKey: string;
  readonly secret: string;
  readonly passphrase: string;
}

export interface SimMarket {
  readonly conditionId: string;
  readonly tokenIds: readonly string[];
  /** Active, not closed, accepting orders. */
  readonly open: boolean;
}

/** The simulator child: its URL, its account and its markets' token ids. */
export class SimProcess {
  private constructor(
    readonly proc: NodeChild,
    readonly url: string,
    readonly account: SimAccount,
    readonly markets: readonly SimMarket[],
  ) {}

  get stderr(): string[] {
    return this.proc.stderr;
  }

  /**
   * Starts the simulator child (stdin a pipe: it stops when the pipe closes, i.e. when this process
   * dies) and resolves once it listens: its first line is `{"ready":true,…}` (bounded by timeoutMs).
   */
  static async start(opts: SimProcessOptions, timeoutMs = 30_000): Promise<SimProcess> {
    const proc = new NodeChild(SIM_ENTRY, [JSON.stringify(opts)], { stdin: 'pipe' });
    try {
      const first = await proc.waitFor(() => true, 'the simulator child listening', timeoutMs);
      const r = first as unknown as { ready?: boolean; url: string; account: SimAccount; markets: SimMarket[] };
      if (r.ready !== true) throw new Error(`simulator child: unexpected first line ${JSON.stringify(first)}`);
      return new SimProcess(proc, r.url, r.account, r.markets);
    } catch (e) {
      await proc.kill();
      throw e;
    }
  }

  /** SIGTERM, bounded; SIGKILL past the bound. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.proc.stop(timeoutMs);
  }

  /**
   * The first n open markets, in the world's (seeded) order. The daemon is given them as explicit
   * condition ids: its default selector reads /sampling-markets, which lists only the markets
   * eligible for rewards (a few of the world's).
   */
  openMarkets(n: number): string[] {
    const open = this.markets.filter((m) => m.open).map((m) => m.conditionId);
    if (open.length < n)
      throw new Error(`the simulated world has ${open.length} open markets, ${n} wanted: start it with more`);
    return open.slice(0, n);
  }

  /** GET on the simulator, JSON answer; throws on a non-2xx status. */
  async get<T>(path: string): Promise<T> {
    const res = await fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
}

// ------------------------------------------------------------------------------------ daemon

export type LogLine = Line;

export interface StopResult {
  readonly exit: ExitInfo;
  /** SIGTERM to exit, seconds. */
  readonly stopSeconds: number;
  /** The daemon did not exit within the bound and was SIGKILLed by the harness. */
  readonly killedAfterBound: boolean;
  /** The `daemon stopped` line, when written. */
  readonly stoppedLine: LogLine | null;
}

/** A running daemon child (`run --config <file>`, the simulator's account in its environment). */
export class DaemonProcess extends NodeChild {
  private cycleCount = 0;

  constructor(configPath: string, account: SimAccount) {
    super(CLI, ['run', '--config', configPath], {
      env: {
        ODDSMAKER_PRIVATE_KEY: account.privateKey,
        ODDSMAKER_ADDRESS: account.address,
        ODDSMAKER_API_KEY: account.apiKey,
        ODDSMAKER_API_SECRET: account.secret,
        ODDSMAKER_API_PASSPHRASE: account.passphrase,
      },
    });
  }

  protected override onLine(l: LogLine): void {
    if (l.msg === 'cycle') this.cycleCount++;
  }

  get cycles(): number {
    return this.cycleCount;
  }

  /** Resolves once n more `cycle` lines than now have been written. */
  waitCycles(n: number, what: string, timeoutMs = 60_000): Promise<LogLine> {
    const target = this.cycleCount + n;
    return this.waitForNext(() => this.cycleCount >= target, `${what} (${n} cycles)`, timeoutMs);
  }

  /** SIGTERM; waits up to boundMs for the exit, then SIGKILLs (reported as killedAfterBound). */
  async stopDaemon(boundMs: number): Promise<StopResult> {
    const r = await this.stop(boundMs);
    return {
      exit: r.exit,
      stopSeconds: r.seconds,
      killedAfterBound: r.killedAfterBound,
      stoppedLine: stopLine(this.lines),
    };
  }

  /** Log lines at warn (40) or above, counted by message. */
  problems(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const l of this.lines) if ((l.level ?? 0) >= 40) out[l.msg ?? '?'] = (out[l.msg ?? '?'] ?? 0) + 1;
    return out;
  }

  /** Writes the log (JSON lines, then stderr) to a file, for a look after a run. */
  saveLog(path: string): void {
    writeFileSync(path, this.allText());
  }
}

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
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { SimProcessOptions } from './sim-process.js';

export const CLI = resolve('dist/src/cli/main.js');
export const SIM_ENTRY = resolve('dist/test/chaos/sim-process.js');

export function assertBuilt(): void {
  for (const f of [CLI, SIM_ENTRY]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: the chaos tests run compiled code; run \`npm run build\` first (npm test does)`);
  }
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'oddsmaker-chaos-'));
}

/** Every child started by this module that may still run; killAll() ends them (by handle). */
const running = new Set<ChildProcess>();

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** SIGKILLs every child this module started that is still running (test clean-up). */
export async function killAll(): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const c of running) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    waits.push(new Promise<void>((r) => c.once('exit', () => r())));
    c.kill('SIGKILL');
  }
  await Promise.all(waits);
}

/** Rejects with `what` unless p settles within ms. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`${what}: not done within ${ms} ms`)), ms);
    p.then((v) => { clearTimeout(t); res(v); }, (e: unknown) => { clearTimeout(t); rej(e); });
  });
}

export interface ExitInfo { readonly code: number | null; readonly signal: NodeJS.Signals | null }

function exitOf(child: ChildProcess): Promise<ExitInfo> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
}

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
    readonly child: ChildProcess,
    readonly url: string,
    readonly account: SimAccount,
    readonly markets: readonly SimMarket[],
    readonly stderr: string[],
  ) {}

  /** Starts the simulator child and resolves once it listens (bounded by timeoutMs). */
  static async start(opts: SimProcessOptions, timeoutMs = 30_000): Promise<SimProcess> {
    const child = spawn(process.execPath, [SIM_ENTRY, JSON.stringify(opts)], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    track(child);
    const stderr: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (t) => { stderr.push(t); });
    const ready = new Promise<SimProcess>((res, rej) => {
      const rl = createInterface({ input: child.stdout! });
      rl.once('line', (text) => {
        try {
          const r = JSON.parse(text) as { ready: boolean; url: string; account: SimAccount; markets: SimMarket[] };
          if (!r.ready) throw new Error('not ready');
          res(new SimProcess(child, r.url, r.account, r.markets, stderr));
        } catch (e) {
          rej(new Error(`simulator child: unexpected first line (${String(e)})`));
        }
      });
      child.once('exit', (code, signal) => rej(new Error(`simulator child exited (${String(code ?? signal)}) before listening: ${stderr.slice(-5).join(' | ')}`)));
    });
    try {
      return await within(ready, timeoutMs, 'simulator child start');
    } catch (e) {
      child.kill('SIGKILL');
      throw e;
    }
  }

  /** SIGTERM, bounded; SIGKILL past the bound. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    try {
      await within(exitOf(this.child), timeoutMs, 'simulator child stop');
    } catch {
      this.child.kill('SIGKILL');
      await exitOf(this.child);
    }
  }

  /**
   * The first n open markets, in the world's (seeded) order. The daemon is given them as explicit
   * condition ids: its default selector reads /sampling-markets, which lists only the markets
   * eligible for rewards (a few of the world's).
   */
  openMarkets(n: number): string[] {
    const open = this.markets.filter((m) => m.open).map((m) => m.conditionId);
    if (open.length < n) throw new Error(`the simulated world has ${open.length} open markets, ${n} wanted: start it with more`);
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

export interface LogLine { msg?: string; level?: number; [k: string]: unknown }

export interface StopResult {
  readonly exit: ExitInfo;
  /** SIGTERM to exit, seconds. */
  readonly stopSeconds: number;
  /** The daemon did not exit within the bound and was SIGKILLed by the harness. */
  readonly killedAfterBound: boolean;
  /** The `daemon stopped` line, when written. */
  readonly stoppedLine: LogLine | null;
}

/** A running daemon child with a line-by-line view of its JSON log. */
export class DaemonProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<ExitInfo>;
  private waiters: Array<{ pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];
  private cycleCount = 0;

  constructor(configPath: string, account: SimAccount) {
    this.child = spawn(process.execPath, [CLI, 'run', '--config', configPath], {
      env: {
        PATH: process.env.PATH ?? '',
        ODDSMAKER_PRIVATE_KEY: account.privateKey,
        ODDSMAKER_ADDRESS: account.address,
        ODDSMAKER_API_KEY: account.apiKey,
        ODDSMAKER_API_SECRET: account.secret,
        ODDSMAKER_API_PASSPHRASE: account.passphrase,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    track(this.child);
    this.exited = exitOf(this.child);
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      let l: LogLine;
      try { l = JSON.parse(text) as LogLine; } catch { l = { msg: text }; }
      if (l.msg === 'cycle') this.cycleCount++;
      this.lines.push(l);
      this.waiters = this.waiters.filter((w) => { if (w.pred(l)) { w.resolve(l); return false; } return true; });
    });
    createInterface({ input: this.child.stderr! }).on('line', (t) => this.stderr.push(t));
  }

  get cycles(): number { return this.cycleCount; }

  get running(): boolean { return this.child.exitCode === null && this.child.signalCode === null; }

  /** Resolves with the first log line (past or future) matching pred; rejects after timeoutMs or on exit. */
  waitFor(pred: (l: LogLine) => boolean, what: string, timeoutMs = 60_000): Promise<LogLine> {
    const seen = this.lines.find(pred);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.waitForNext(pred, what, timeoutMs);
  }

  /** Like waitFor, but only a line written from now on. */
  waitForNext(pred: (l: LogLine) => boolean, what: string, timeoutMs = 60_000): Promise<LogLine> {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => { cleanup(); rej(new Error(`timed out (${timeoutMs} ms) waiting for ${what}; stderr: ${this.stderr.slice(-5).join(' | ')}; last log: ${JSON.stringify(this.lines.slice(-3))}`)); }, timeoutMs);
      const onExit = (): void => { cleanup(); rej(new Error(`daemon exited while waiting for ${what}; stderr: ${this.stderr.slice(-10).join(' | ')}; last log: ${JSON.stringify(this.lines.slice(-3))}`)); };
      const waiter = { pred, resolve: (l: LogLine): void => { cleanup(); res(l); } };
      const cleanup = (): void => { clearTimeout(timer); this.child.off('exit', onExit); this.waiters = this.waiters.filter((w) => w !== waiter); };
      if (!this.running) { onExit(); return; }
      this.child.once('exit', onExit);
      this.waiters.push(waiter);
    });
  }

  /** Resolves once n more `cycle` lines than now have been written. */
  waitCycles(n: number, what: string, timeoutMs = 60_000): Promise<LogLine> {
    const target = this.cycleCount + n;
    return this.waitForNext(() => this.cycleCount >= target, `${what} (${n} cycles)`, timeoutMs);
  }

  /** SIGKILL, and the exit. */
  async kill(): Promise<ExitInfo> {
    if (this.running) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM; waits up to boundMs for the exit, then SIGKILLs (reported as killedAfterBound). */
  async stop(boundMs: number): Promise<StopResult> {
    const t0 = performance.now();
    this.child.kill('SIGTERM');
    let killedAfterBound = false;
    let exit: ExitInfo;
    try {
      exit = await within(this.exited, boundMs, 'daemon stop');
    } catch {
      killedAfterBound = true;
      exit = await this.kill();
    }
    const stopSeconds = (performance.now() - t0) / 1000;
    return { exit, stopSeconds, killedAfterBound, stoppedLine: this.lines.find((l) => l.msg === 'daemon stopped') ?? null };
  }

  /** Log lines at warn (40) or above, counted by message. */
  problems(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const l of this.lines) if ((l.level ?? 0) >= 40) out[l.msg ?? '?'] = (out[l.msg ?? '?'] ?? 0) + 1;
    return out;
  }

  allText(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n' + this.stderr.join('\n');
  }

  /** Writes the log (JSON lines, then stderr) to a file, for a look after a run. */
  saveLog(path: string): void {
    writeFileSync(path, this.allText());
  }
}

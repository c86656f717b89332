// The one child-process harness of the tests: a Node process (the compiled CLI, a simulator entry,
// a ledger crash child) started with only the environment given (and PATH), its output read line
// by line (the log stream's lines parsed: JSON, other text kept as { msg: text }), waits driven by
// its own output and exit, each bounded by a timer (nothing sleeps), and bounded stops: SIGTERM,
// then SIGKILL past the bound. Every child started here is tracked and `reapChildren()` (afterEach)
// SIGKILLs those still running, by their own handle, never by name.
// Invariants: `exited` resolves once the process is gone AND both streams are read to their end, so
// a test that awaited it sees every line; a wait rejects, naming what it waited for and the last
// stderr lines, when the child exits first or the bound passes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The compiled CLI (npm run build). */
export const CLI = resolve('dist/src/cli/main.js');

/** The test loader's registration: lets a child run a TypeScript module of the sources directly. */
export const TS_LOADER = fileURLToPath(new URL('./ts-loader/register.mjs', import.meta.url));

/** Throws unless every compiled file the caller runs exists (default: the CLI). */
export function assertBuilt(files: readonly string[] = [CLI]): void {
  for (const f of files) {
    if (!existsSync(f))
      throw new Error(`${f} is missing: these tests run compiled code; run \`npm run build\` first (npm test does)`);
  }
}

export interface Line {
  msg?: string;
  level?: number;
  [k: string]: unknown;
}
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface StopResult {
  readonly exit: ChildExit;
  /** Signal to exit, seconds. */
  readonly seconds: number;
  /** The child did not exit within the bound and was SIGKILLed. */
  readonly killedAfterBound: boolean;
}

export interface ChildOptions {
  /** The environment, besides PATH (nothing else of the test process leaks in). */
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /** 'pipe' keeps stdin open (a child that stops when its parent dies reads it); default 'ignore'. */
  readonly stdin?: 'ignore' | 'pipe';
  /** Node options before the script (e.g. ['--import', TS_LOADER]). */
  readonly nodeArgs?: readonly string[];
  /** The stream whose lines are the log (`lines`, waits): stdout by default; `oddsmaker record` logs on stderr. */
  readonly logStream?: 'stdout' | 'stderr';
}

/** Rejects with `what` unless p settles within ms. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`${what}: not done within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        res(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        rej(e);
      },
    );
  });
}

const running = new Set<NodeChild>();

/** SIGKILLs every child started here that still runs, and waits for them (test clean-up). */
export async function reapChildren(): Promise<void> {
  await Promise.all([...running].map((c) => c.kill()));
}

/** `node <script> <args…>` as a child process, with its output. */
export class NodeChild {
  readonly child: ChildProcess;
  /** The log stream's lines, parsed. */
  readonly lines: Line[] = [];
  /** Stdout and stderr lines as written. */
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<ChildExit>;
  private waiters: Array<{ pred: (l: Line) => boolean; resolve: (l: Line) => void }> = [];

  constructor(script: string, args: readonly string[] = [], opts: ChildOptions = {}) {
    this.child = spawn(process.execPath, [...(opts.nodeArgs ?? []), script, ...args], {
      env: { PATH: process.env.PATH ?? '', ...opts.env },
      stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'],
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    });
    running.add(this);
    const logStream = opts.logStream ?? 'stdout';
    const onLog = (text: string): void => {
      let l: Line;
      try {
        const v: unknown = JSON.parse(text);
        l = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Line) : { msg: text };
      } catch {
        l = { msg: text };
      }
      this.lines.push(l);
      this.onLine(l);
      this.waiters = this.waiters.filter((w) => {
        if (w.pred(l)) {
          w.resolve(l);
          return false;
        }
        return true;
      });
    };
    const read = (stream: 'stdout' | 'stderr'): Promise<void> =>
      new Promise<void>((r) =>
        createInterface({ input: this.child[stream]! })
          .on('line', (text) => {
            this[stream].push(text);
            if (stream === logStream) onLog(text);
          })
          .on('close', r),
      );
    const stdoutDone = read('stdout');
    const stderrDone = read('stderr');
    const gone = new Promise<ChildExit>((res) => {
      this.child.once('exit', (code, signal) => res({ code, signal }));
      this.child.once('error', () => res({ code: null, signal: null })); // could not be spawned
    });
    this.exited = gone.then(async (e) => {
      await Promise.all([stdoutDone, stderrDone]);
      running.delete(this);
      return e;
    });
  }

  /** Called with each stdout line before waiters see it (subclasses count lines here). */
  protected onLine(_line: Line): void {
    /* nothing by default */
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first line (past or future) matching pred; rejects on exit or after timeoutMs. */
  waitFor(pred: (l: Line) => boolean, what: string, timeoutMs = 60_000): Promise<Line> {
    const seen = this.lines.find(pred);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.waitForNext(pred, what, timeoutMs);
  }

  /** Like waitFor, but only a line written from now on. */
  waitForNext(pred: (l: Line) => boolean, what: string, timeoutMs = 60_000): Promise<Line> {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => {
        cleanup();
        rej(new Error(`timed out (${timeoutMs} ms) waiting for ${what}; ${this.tail()}`));
      }, timeoutMs);
      const onExit = (): void => {
        cleanup();
        rej(new Error(`child exited while waiting for ${what}; ${this.tail()}`));
      };
      const waiter = {
        pred,
        resolve: (l: Line): void => {
          cleanup();
          res(l);
        },
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        this.child.off('exit', onExit);
        this.waiters = this.waiters.filter((w) => w !== waiter);
      };
      if (!this.running) {
        onExit();
        return;
      }
      this.child.once('exit', onExit);
      this.waiters.push(waiter);
    });
  }

  /** The exit, or a rejection (and SIGKILL) after boundMs. */
  async exit(boundMs: number): Promise<ChildExit> {
    try {
      return await within(this.exited, boundMs, 'child exit');
    } catch {
      this.child.kill('SIGKILL');
      throw new Error(`still running after ${boundMs} ms; ${this.tail()}`);
    }
  }

  /** Sends `signal` (default SIGTERM); waits up to boundMs for the exit, then SIGKILLs (reported). */
  async stop(boundMs: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<StopResult> {
    const t0 = performance.now();
    if (this.running) this.child.kill(signal);
    let killedAfterBound = false;
    let exit: ChildExit;
    try {
      exit = await within(this.exited, boundMs, 'child stop');
    } catch {
      killedAfterBound = true;
      exit = await this.kill();
    }
    return { exit, seconds: (performance.now() - t0) / 1000, killedAfterBound };
  }

  /** SIGKILL (if still running), and the exit. */
  async kill(): Promise<ChildExit> {
    if (this.running) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** Every line's msg, in order. */
  msgs(): string[] {
    return this.lines.map((l) => String(l.msg));
  }

  /** Stdout as written, then stderr: for failure messages and log files. */
  allText(): string {
    return `${this.stdout.join('\n')}\n${this.stderr.join('\n')}`;
  }

  private tail(): string {
    return `stderr: ${this.stderr.slice(-10).join(' | ')}; last stdout lines: ${this.stdout.slice(-3).join(' | ')}`;
  }
}

/** `node dist/src/cli/main.js <args…>`. */
export function startCli(args: readonly string[], opts: ChildOptions = {}): NodeChild {
  return new NodeChild(CLI, args, opts);
}

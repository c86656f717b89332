// When the market universe is refreshed (and the daemon's other cron jobs run: the positions
// check, config `ledger.positionsCheckCron`). The daemon refreshes on a cron expression (config
// `markets.refreshCron`) through node-cron, but node-cron reads the wall clock and sets its own
// real timers, which the house rule (one injected Clock) and virtual-time tests cannot drive. So
// the universe depends only on the small RefreshScheduler interface: the real runtime uses
// CronRefreshScheduler (node-cron), tests and backtests use ClockRefreshScheduler (a fixed period
// on the injected Clock). Invariants of both: runs of the job never overlap (a run due while the
// previous one is still going is skipped), a job's rejection is reported and never stops the
// schedule, and stop() is final and idempotent.
import cron, { type ScheduledTask } from 'node-cron';
import type { Clock, TimerId } from '../core/clock.js';
import { OddsmakerError, OptionError } from '../core/errors.js';

export type RefreshJob = () => Promise<void>;

export interface RefreshScheduler {
  /** Starts calling `job` on the schedule (never at once: the caller runs the first refresh). */
  start(job: RefreshJob, onError: (err: unknown) => void): void;
  stop(): void;
  /** Human-readable schedule, for logs. */
  describe(): string;
}

/** A cron expression that node-cron rejects (a config error: the CLI exits 2). */
export class CronExpressionError extends OddsmakerError {
  /** `path`: the config key the expression came from. */
  constructor(expr: string, path = 'markets.refreshCron') {
    super('CONFIG_CRON', `${path}: not a valid cron expression: ${JSON.stringify(expr)}`, false);
  }
}

/** Guards a job so that a run due while the previous one is still going is skipped. */
function nonOverlapping(job: RefreshJob, onError: (err: unknown) => void): () => void {
  let running = false;
  return () => {
    if (running) return;
    running = true;
    job()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  };
}

/** The real runtime's schedule: node-cron on the system clock. */
export interface CronJobOptions {
  /** The task's name in node-cron (default 'universe-refresh'). */
  readonly name?: string;
  /** The config key of the expression, for the error (default 'markets.refreshCron'). */
  readonly path?: string;
}

export class CronRefreshScheduler implements RefreshScheduler {
  private task: ScheduledTask | null = null;
  private stopped = false;
  private readonly name: string;

  constructor(
    private readonly expression: string,
    private readonly timezone = 'UTC',
    opts: CronJobOptions = {},
  ) {
    if (!cron.validate(expression)) throw new CronExpressionError(expression, opts.path);
    this.name = opts.name ?? 'universe-refresh';
  }

  start(job: RefreshJob, onError: (err: unknown) => void): void {
    if (this.stopped || this.task !== null) return;
    const run = nonOverlapping(job, onError);
    // noOverlap would only cover node-cron's own awaiting; our guard covers both, and returning
    // nothing keeps node-cron from logging our errors through its own logger.
    this.task = cron.schedule(
      this.expression,
      () => {
        run();
      },
      { name: this.name, timezone: this.timezone, noOverlap: true },
    );
  }

  stop(): void {
    this.stopped = true;
    if (this.task !== null) {
      void this.task.destroy();
      this.task = null;
    }
  }

  describe(): string {
    return `cron ${this.expression} (${this.timezone})`;
  }
}

/** A fixed period on the injected Clock: tests, backtests, and a virtual-time daemon. */
export class ClockRefreshScheduler implements RefreshScheduler {
  private timer: TimerId | null = null;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly periodMs: number,
  ) {
    if (!Number.isSafeInteger(periodMs) || periodMs <= 0)
      throw new OptionError('MARKETDATA_OPTION', `refresh period must be a positive integer, got ${String(periodMs)}`);
  }

  start(job: RefreshJob, onError: (err: unknown) => void): void {
    if (this.stopped || this.timer !== null) return;
    const run = nonOverlapping(job, onError);
    this.timer = this.clock.setInterval(run, this.periodMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) {
      this.clock.clearInterval(this.timer);
      this.timer = null;
    }
  }

  describe(): string {
    return `every ${this.periodMs} ms`;
  }
}

// The exchange's word on our collateral: GET /balance-allowance (asset COLLATERAL) read when the
// daemon starts (before its first quote) and every `ledger.balanceCheckIntervalMs` after, on the
// injected clock. The daemon's free collateral takes the exchange's balance into account while a
// reading is recent (cycle.ts `collateral`): free = min(ledger-derived, balance) − what our open
// bids reserve, so risk drops the BUY quotes the exchange would refuse for want of balance.
// Invariants kept:
// - a reading is recent for RECENT_INTERVALS intervals after it was taken (monotonic clock); an
//   older one, or none, gives `balance()` null (the ledger's figure alone then);
// - the balance is the wallet's collateral, which on the public exchange does not shrink while
//   orders rest (they are off chain until matched): the caller subtracts our bids' reservation;
// - an allowance of 0 to one of the exchange's contracts means every order we sign for it is
//   refused: `zeroAllowances` names those spenders (the single `allowance` of older answers is
//   the spender "") for /healthz and the status; an answer without allowances says nothing;
// - runs never overlap (a run asked for while one is in flight joins it); a failure (exchange
//   unreachable, malformed answer) is logged once per outage (warn) and its end once (info),
//   never thrown; a change in the zero allowances is logged once (warn when some, info when none);
// - stop() is final: the schedule ends, the request in flight is aborted and awaited.
import type { BalanceAllowance } from '../core/account.js';
import type { Clock, TimerId } from '../core/clock.js';
import { InvariantError, StoppedError } from '../core/errors.js';
import { formatMicros, type Micros } from '../core/money.js';
import type { Logger } from './logger.js';

/** How many intervals a reading counts as recent. */
export const RECENT_INTERVALS = 3;

export interface BalancePort {
  collateralBalance(signal?: AbortSignal): Promise<BalanceAllowance>;
}

export interface BalanceCheckOptions {
  readonly port: BalancePort;
  readonly clock: Clock;
  readonly log: Logger;
  /** Time between readings, ms. */
  readonly intervalMs: number;
}

export interface BalanceCheckStatus {
  readonly intervalMs: number;
  /** Readings made (failed ones included). */
  readonly runs: number;
  /** Wall time (epoch ms) of the last successful reading; null before the first. */
  readonly atMs: number | null;
  /** The last reading's collateral balance (millionths); null before the first. */
  readonly balance: Micros | null;
  /** Whether that reading is recent enough to limit free collateral. */
  readonly recent: boolean;
  /** Allowances of the last reading, spender → base units (decimal string: they reach 2^256 − 1). */
  readonly allowances: Readonly<Record<string, string>>;
  /** Spenders whose allowance is 0 (orders signed for them are refused). */
  readonly zeroAllowances: readonly string[];
  /** Why the last reading failed; null when it succeeded. */
  readonly error: string | null;
}

export class BalanceCheck {
  private readonly opts: BalanceCheckOptions;
  private readonly clock: Clock;
  private timer: TimerId | null = null;
  private inFlight: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private started = false;
  private stopped = false;
  private runs = 0;
  private last: { readonly atMs: number; readonly atMono: number; readonly reading: BalanceAllowance } | null = null;
  private error: string | null = null;
  private zero: readonly string[] = [];

  constructor(opts: BalanceCheckOptions) {
    if (!Number.isSafeInteger(opts.intervalMs) || opts.intervalMs < 1)
      throw new InvariantError(
        `balance check interval must be a positive integer of ms, got ${String(opts.intervalMs)}`,
      );
    this.opts = opts;
    this.clock = opts.clock;
  }

  /** Reads the balance now (awaited: the first quote sees it), then every interval. */
  async start(): Promise<void> {
    if (this.stopped) throw new InvariantError('balance check: start after stop');
    if (this.started) return;
    this.started = true;
    await this.run();
    this.schedule();
  }

  /** One reading now (joins one in flight). */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.inFlight !== null) return this.inFlight;
    const ac = new AbortController();
    this.abort = ac;
    const p = this.read(ac.signal).finally(() => {
      if (this.abort === ac) this.abort = null;
      this.inFlight = null;
    });
    this.inFlight = p;
    return p;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) {
      this.clock.clearInterval(this.timer);
      this.timer = null;
    }
    this.abort?.abort(new StoppedError('balance check stopped'));
    await this.inFlight;
  }

  /** The exchange's collateral balance when the last reading is recent; else null. */
  balance(): Micros | null {
    return this.isRecent() ? (this.last?.reading.balance ?? null) : null;
  }

  status(): BalanceCheckStatus {
    const allowances: Record<string, string> = {};
    for (const [k, v] of this.last?.reading.allowances ?? []) allowances[k] = v.toString();
    return {
      intervalMs: this.opts.intervalMs,
      runs: this.runs,
      atMs: this.last?.atMs ?? null,
      balance: this.last?.reading.balance ?? null,
      recent: this.isRecent(),
      allowances,
      zeroAllowances: [...this.zero],
      error: this.error,
    };
  }

  private isRecent(): boolean {
    return this.last !== null && this.clock.monotonic() - this.last.atMono <= RECENT_INTERVALS * this.opts.intervalMs;
  }

  private schedule(): void {
    if (this.stopped || this.timer !== null) return;
    this.timer = this.clock.setInterval(() => {
      void this.run();
    }, this.opts.intervalMs);
  }

  private async read(signal: AbortSignal): Promise<void> {
    let reading: BalanceAllowance;
    try {
      reading = await this.opts.port.collateralBalance(signal);
    } catch (err) {
      if (this.stopped) return;
      const first = this.error === null;
      this.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      this.runs++;
      if (first)
        this.opts.log.warn(
          { err },
          "collateral balance read failed (GET /balance-allowance): free collateral falls back to the ledger's once the last reading is old",
        );
      return;
    }
    if (this.stopped) return;
    const firstReading = this.last === null;
    const recovered = this.error !== null;
    this.runs++;
    this.error = null;
    this.last = { atMs: this.clock.now(), atMono: this.clock.monotonic(), reading };
    if (firstReading || recovered) {
      this.opts.log.info(
        { balance: formatMicros(reading.balance), allowances: reading.allowances.size },
        recovered ? 'collateral balance read again' : 'collateral balance read from the exchange',
      );
    }
    const zero = [...reading.allowances]
      .filter(([, v]) => v === 0n)
      .map(([k]) => k)
      .sort();
    if (zero.join(',') !== this.zero.join(',')) {
      if (zero.length > 0) {
        this.opts.log.warn(
          { spenders: zero.map((z) => (z === '' ? '(exchange)' : z)) },
          'zero collateral allowance for the exchange contract(s): every order signed for them will be refused until the allowance is set',
        );
      } else {
        this.opts.log.info({}, 'collateral allowances are set again');
      }
    }
    this.zero = zero;
  }
}

// The daemon's side of the exchange's dead-man switch (POST /v1/heartbeats): while the daemon runs,
// from the end of startup reconciliation until the end of its stop's cancel-all, it sends a
// heartbeat every `exchange.heartbeatIntervalMs`, so that if it dies or hangs the exchange cancels
// every order of ours once `exchange.heartbeatExpiryMs` pass without one (src/sim/venue/heartbeat.ts
// is the simulator's side; the route and its sources are src/exchange/client/account.ts).
// Invariants kept:
// - beats never overlap and chain their ids: the first sends null (a new chain, or joining the
//   running one), each later one the id of the last answer; an answer that refuses our id and
//   names the current one (a 400 with `heartbeat_id`, HeartbeatAck.resynchronized) did not count:
//   the next beat goes at once with that id (once; after that, at the next interval);
// - a beat still unanswered when the next is due is aborted (the next one then resynchronises if
//   the lost one was accepted after all);
// - time and timers only from the injected Clock (monotonic for deadlines, wall time for status);
// - an outage (beats failing or refused) is logged once when it starts (warn) and once when a
//   beat is accepted again (info), never once per beat;
// - lapse: when no beat has been accepted for longer than the expiry, counted from the SENDING of
//   the last accepted one (the exchange counts from its receipt, which is later: we never call it
//   late), the exchange has cancelled our orders: `lapsed` turns true (status, /healthz), one
//   error line is logged, and `onLapse` is called once per outage (the daemon re-reads its orders
//   so that the order manager's view is no longer stale). The first accepted beat clears it.
//   Before the first accepted beat the clock runs from start();
// - stop() is final: timers cleared, the beat in flight aborted and awaited; nothing is logged or
//   called after it.
import type { HeartbeatAck } from '../core/account.js';
import type { Clock, TimerId } from '../core/clock.js';
import { InvariantError, StoppedError, DeadlineError } from '../core/errors.js';
import type { OrderExecutor } from './executor.js';
import type { Logger } from './logger.js';

/** Default expiry of the public exchange's heartbeat (src/sim/venue/heartbeat.ts states its source). */
export const DEFAULT_HEARTBEAT_EXPIRY_MS = 10_000;

export interface HeartbeatPort {
  heartbeat(heartbeatId: string | null, signal?: AbortSignal): Promise<HeartbeatAck>;
}

export interface HeartbeatOptions {
  readonly port: HeartbeatPort;
  readonly clock: Clock;
  readonly log: Logger;
  /** Time between beats (sent to sent), ms; less than expiryMs. */
  readonly intervalMs: number;
  /** The exchange's expiry, ms: no accepted beat for this long and our orders are cancelled. */
  readonly expiryMs: number;
  /** Called once per outage when it passes the expiry (errors are logged, never thrown). */
  readonly onLapse?: () => Promise<void> | void;
}

export interface HeartbeatStatus {
  readonly intervalMs: number;
  readonly expiryMs: number;
  readonly running: boolean;
  /** Beats the exchange accepted. */
  readonly beats: number;
  /** Beats that failed or were refused (resynchronised), all outages. */
  readonly failures: number;
  /** Wall time (epoch ms) of the last accepted beat's answer; null before the first. */
  readonly lastAcceptedAtMs: number | null;
  /** Wall time the current outage started; null while beats are accepted. */
  readonly failingSinceMs: number | null;
  /** No beat accepted for longer than the expiry: the exchange has cancelled our orders. */
  readonly lapsed: boolean;
  /** Outages that passed the expiry, since start. */
  readonly lapses: number;
  /** Why the last failed beat failed; null while beats are accepted. */
  readonly lastError: string | null;
}

export class Heartbeat {
  private readonly opts: HeartbeatOptions;
  private readonly clock: Clock;
  private running = false;
  private stopped = false;
  private id: string | null = null;
  private beatTimer: TimerId | null = null;
  private lapseTimer: TimerId | null = null;
  private inFlight: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private beats = 0;
  private failures = 0;
  private lapses = 0;
  private lastAcceptedAtMs: number | null = null;
  private failingSinceMs: number | null = null;
  private failingSinceMono = 0;
  private outageFailures = 0;
  private lapsed = false;
  private lastError: string | null = null;
  private lapseWork: Promise<void> | null = null;
  /** The last answer resynchronised: the next beat goes at once. */
  private resendAfterResync = false;

  constructor(opts: HeartbeatOptions) {
    if (!Number.isSafeInteger(opts.expiryMs) || opts.expiryMs < 1)
      throw new InvariantError(`heartbeat expiry must be a positive integer of ms, got ${String(opts.expiryMs)}`);
    if (!Number.isSafeInteger(opts.intervalMs) || opts.intervalMs < 1 || opts.intervalMs >= opts.expiryMs) {
      throw new InvariantError(
        `heartbeat interval must be a positive integer of ms below the expiry (${opts.expiryMs}), got ${String(opts.intervalMs)}`,
      );
    }
    this.opts = opts;
    this.clock = opts.clock;
  }

  /** Sends the first beat now, then one every interval. */
  start(): void {
    if (this.stopped) throw new InvariantError('heartbeat: start after stop');
    if (this.running) return;
    this.running = true;
    this.armLapse(this.clock.monotonic());
    this.beatNow(false);
  }

  /** Stops for good: timers cleared, the beat in flight aborted and awaited (and a lapse's re-read). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running = false;
    if (this.beatTimer !== null) {
      this.clock.clearTimeout(this.beatTimer);
      this.beatTimer = null;
    }
    if (this.lapseTimer !== null) {
      this.clock.clearTimeout(this.lapseTimer);
      this.lapseTimer = null;
    }
    this.abort?.abort(new StoppedError('heartbeat stopped'));
    await this.inFlight;
    await this.lapseWork;
  }

  status(): HeartbeatStatus {
    return {
      intervalMs: this.opts.intervalMs,
      expiryMs: this.opts.expiryMs,
      running: this.running,
      beats: this.beats,
      failures: this.failures,
      lastAcceptedAtMs: this.lastAcceptedAtMs,
      failingSinceMs: this.failingSinceMs,
      lapsed: this.lapsed,
      lapses: this.lapses,
      lastError: this.lastError,
    };
  }

  /** One beat now (nothing when one is in flight); `retry`: the immediate resend after a resync. */
  private beatNow(retry: boolean): void {
    if (!this.running || this.inFlight !== null) return;
    this.beatTimer = null;
    const sentAt = this.clock.monotonic();
    const ac = new AbortController();
    this.abort = ac;
    // An answer later than the next beat's time is given up on (the next beat resynchronises).
    const giveUp = this.clock.setTimeout(() => {
      ac.abort(new DeadlineError(`heartbeat unanswered after ${this.opts.intervalMs} ms`));
    }, this.opts.intervalMs);
    const p = this.opts.port
      .heartbeat(this.id, ac.signal)
      .then(
        (ack) => {
          this.onAnswer(ack, sentAt, retry);
        },
        (err: unknown) => {
          this.onFailure(errorText(err));
        },
      )
      .catch((err: unknown) => {
        this.opts.log.error({ err }, 'heartbeat bookkeeping failed');
      })
      .finally(() => {
        this.clock.clearTimeout(giveUp);
        if (this.abort === ac) this.abort = null;
        this.inFlight = null;
        this.scheduleNext(sentAt);
      });
    this.inFlight = p;
  }

  private onAnswer(ack: HeartbeatAck, sentAt: number, retry: boolean): void {
    if (!this.running) return;
    this.id = ack.heartbeatId;
    if (ack.resynchronized) {
      this.onFailure('the exchange refused our heartbeat id and answered its current one (resynchronised)');
      // The next beat carries the current id: send it at once, once.
      if (!retry) this.resendAfterResync = true;
      return;
    }
    this.beats++;
    this.lastAcceptedAtMs = this.clock.now();
    if (this.failingSinceMs !== null) {
      this.opts.log.info(
        {
          failures: this.outageFailures,
          outageMs: Math.round(this.clock.monotonic() - this.failingSinceMono),
          lapsed: this.lapsed,
        },
        this.lapsed
          ? 'heartbeat accepted again: the dead-man switch is armed again (orders the exchange cancelled meanwhile were re-read)'
          : 'heartbeat accepted again',
      );
      this.failingSinceMs = null;
      this.outageFailures = 0;
      this.lastError = null;
    }
    this.lapsed = false;
    this.armLapse(sentAt);
  }

  private onFailure(reason: string): void {
    if (!this.running) return;
    this.failures++;
    this.outageFailures++;
    this.lastError = reason;
    if (this.failingSinceMs === null) {
      this.failingSinceMs = this.clock.now();
      this.failingSinceMono = this.clock.monotonic();
      this.opts.log.warn(
        { reason, expiryMs: this.opts.expiryMs },
        `heartbeat failed: the exchange cancels every order of ours if no heartbeat is accepted within ${this.opts.expiryMs} ms`,
      );
    }
  }

  private scheduleNext(sentAt: number): void {
    if (!this.running) return;
    if (this.resendAfterResync) {
      this.resendAfterResync = false;
      this.beatNow(true);
      return;
    }
    const wait = Math.max(0, sentAt + this.opts.intervalMs - this.clock.monotonic());
    this.beatTimer = this.clock.setTimeout(() => {
      this.beatNow(false);
    }, wait);
  }

  /** The lapse deadline: `expiryMs` after `fromMono` (the sending of the last accepted beat). */
  private armLapse(fromMono: number): void {
    if (this.lapseTimer !== null) this.clock.clearTimeout(this.lapseTimer);
    const wait = Math.max(0, fromMono + this.opts.expiryMs - this.clock.monotonic());
    this.lapseTimer = this.clock.setTimeout(() => {
      this.lapseTimer = null;
      this.onLapse();
    }, wait);
  }

  private onLapse(): void {
    if (!this.running || this.lapsed) return;
    this.lapsed = true;
    this.lapses++;
    this.opts.log.error(
      { expiryMs: this.opts.expiryMs, lastAcceptedAtMs: this.lastAcceptedAtMs, reason: this.lastError },
      `no heartbeat accepted for ${this.opts.expiryMs} ms: the exchange has cancelled our orders; re-reading them`,
    );
    const hook = this.opts.onLapse;
    if (hook === undefined) return;
    const work = (async (): Promise<void> => {
      try {
        await hook();
      } catch (err) {
        if (!this.stopped) this.opts.log.warn({ err }, 're-reading orders after a heartbeat lapse failed');
      }
    })();
    this.lapseWork = work.finally(() => {
      if (this.lapseWork === work) this.lapseWork = null;
    });
  }
}

/**
 * What the daemon does on a lapse: the order manager's view is stale (the exchange cancelled our
 * orders), so every open order is looked up now through its public methods (their lookups find
 * them cancelled and record any fill): orders whose outcome was lost, then every live order and
 * every final read owed. A pollFills already in flight is joined, so it is asked twice.
 */
export async function rereadOrders(
  executor: Pick<OrderExecutor, 'pollFills' | 'resolveUnknown' | 'liveOrders' | 'fillReads'>,
  signal?: AbortSignal,
): Promise<void> {
  await executor.resolveUnknown({ all: true, ...(signal !== undefined ? { signal } : {}) });
  for (let i = 0; i < 2; i++) {
    const limit = executor.liveOrders().length + (executor.fillReads?.().pendingSettlements ?? 0);
    if (limit === 0) return;
    await executor.pollFills({ limit, ...(signal !== undefined ? { signal } : {}) });
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

// The market-data poll loop. One cycle = POST /books and POST /midpoints for every token of the
// universe, sent concurrently (the gateway splits each into batches of at most 500), then the
// cycle handler (the daemon: quote → risk → reconcile → order manager), awaited; when the books
// request fails, the handler still runs, on an empty and `complete: false` snapshot, so that
// quotes on data that has gone stale are pulled while the exchange fails us. Invariants kept:
// - cycles never overlap: a tick that comes due while a cycle (fetch + handler) still runs is
//   skipped and counted, never queued, so a slow exchange cannot build a backlog of stale work;
// - all timing goes through the injected Clock (a backtest or test drives it virtually);
// - a failed fetch or handler is counted (total and consecutive, which feeds the circuit breaker)
//   and reported, never thrown out of the loop: the next tick runs as usual;
// - a /midpoints failure alone does not fail the cycle: books are what quoting needs, and the
//   book cache falls back to each book's own mid; it is counted, but does not extend the streak
//   of consecutive failed cycles;
// - requests cut off by stop() are not failures;
// - stop() aborts the in-flight requests through an AbortSignal and resolves once the running
//   cycle has settled; no tick fires after it.
import { setMaxListeners } from 'node:events';
import type { Book } from '../core/book.js';
import type { Clock, TimerId } from '../core/clock.js';
import type { Price } from '../core/money.js';
import type { MarketDataPort } from '../exchange/gateway.js';
import type { MarketSnapshot } from './types.js';
import { InvariantError, OptionError, OddsmakerError } from '../core/errors.js';

export interface PollerStats {
  /** Cycles started. */
  readonly cycles: number;
  /** Cycles whose fetch and handler both succeeded. */
  readonly completed: number;
  /** Ticks skipped because the previous cycle was still running. */
  readonly skipped: number;
  /** Failed cycles plus failed /midpoints calls. */
  readonly failures: number;
  /** Failed /midpoints calls (the cycle went on with the books' own mids). */
  readonly midpointFailures: number;
  /** Failed cycles since the last successful one (circuit-breaker input). */
  readonly consecutiveFailures: number;
  readonly running: boolean;
  /** Our clock (epoch ms) when the last cycle started; null before the first. */
  readonly lastStartedAtMs: number | null;
  /** Monotonic duration of the last finished cycle, ms. */
  readonly lastDurationMs: number | null;
}

export type PollStage = 'books' | 'midpoints' | 'handler';

export interface PollerOptions {
  readonly clock: Clock;
  readonly gateway: Pick<MarketDataPort, 'getBooks' | 'getMidpoints'>;
  readonly intervalMs: number;
  /** Tokens to poll, read at the start of every cycle (the universe can change between cycles). */
  readonly tokens: () => readonly string[];
  /** The rest of the cycle; awaited before the cycle counts as finished. */
  readonly onSnapshot: (snapshot: MarketSnapshot, signal: AbortSignal) => Promise<void> | void;
  /** A failure, with the stats after counting it. Must not throw. */
  readonly onError?: (err: unknown, stage: PollStage, stats: PollerStats) => void;
  /** A skipped tick, with the stats after counting it. */
  readonly onSkip?: (stats: PollerStats) => void;
}

export class Poller {
  private readonly opts: PollerOptions;
  private timer: TimerId | null = null;
  private inFlight: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private stopped = false;
  private s = {
    cycles: 0,
    completed: 0,
    skipped: 0,
    failures: 0,
    midpointFailures: 0,
    consecutiveFailures: 0,
    lastStartedAtMs: null as number | null,
    lastDurationMs: null as number | null,
  };

  constructor(opts: PollerOptions) {
    if (!Number.isSafeInteger(opts.intervalMs) || opts.intervalMs <= 0)
      throw new OptionError(
        'MARKETDATA_OPTION',
        `poll interval must be a positive integer, got ${String(opts.intervalMs)}`,
      );
    this.opts = opts;
  }

  /** Starts polling: the first cycle at once, then one every intervalMs. */
  start(): void {
    if (this.stopped) throw new InvariantError('poller: start after stop');
    if (this.timer !== null) return;
    this.timer = this.opts.clock.setInterval(() => {
      this.tick();
    }, this.opts.intervalMs);
    this.tick();
  }

  /** Stops the schedule, aborts in-flight requests and waits for the running cycle. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) {
      this.opts.clock.clearInterval(this.timer);
      this.timer = null;
    }
    this.abort?.abort(new PollerStoppedError());
    await this.inFlight;
  }

  stats(): PollerStats {
    return { ...this.s, running: this.inFlight !== null };
  }

  /**
   * Runs one cycle now unless one is running (then counts a skip and returns false). Resolves
   * when that cycle has finished. The scheduled loop uses this; tests and benchmarks may too.
   */
  async runOnce(): Promise<boolean> {
    if (this.stopped) return false;
    if (this.inFlight !== null) {
      this.skip();
      return false;
    }
    const p = this.cycle();
    this.inFlight = p;
    try {
      await p;
    } finally {
      this.inFlight = null;
    }
    return true;
  }

  private tick(): void {
    if (this.stopped) return;
    void this.runOnce();
  }

  private skip(): void {
    this.s.skipped++;
    this.opts.onSkip?.(this.stats());
  }

  private async cycle(): Promise<void> {
    const { clock, gateway } = this.opts;
    const ac = new AbortController();
    // One signal guards every concurrent request of the batch; each adds an abort listener.
    setMaxListeners(0, ac.signal);
    this.abort = ac;
    this.s.cycles++;
    this.s.lastStartedAtMs = clock.now();
    const t0 = clock.monotonic();
    try {
      const tokens = this.opts.tokens();
      let books: readonly Book[] = [];
      let mids: ReadonlyMap<string, Price> = new Map();
      let complete = true;
      if (tokens.length > 0) {
        // Both requests go out together; the books decide whether the cycle is complete.
        const [b, m] = await Promise.allSettled([
          gateway.getBooks(tokens, ac.signal),
          gateway.getMidpoints(tokens, ac.signal),
        ]);
        if (ac.signal.aborted) return;
        if (b.status === 'fulfilled') books = b.value;
        else {
          complete = false;
          this.fail(b.reason, 'books', true);
        }
        if (m.status === 'fulfilled') mids = m.value;
        else if (complete) this.fail(m.reason, 'midpoints', false);
      }
      try {
        // An incomplete cycle still runs the handler on the data already held: staleness is
        // judged there, and stale quotes must be pulled even while the exchange fails us.
        await this.opts.onSnapshot({ receivedAtMs: clock.now(), books, mids, complete }, ac.signal);
      } catch (err) {
        if (!ac.signal.aborted) this.fail(err, 'handler', complete);
        return;
      }
      if (!complete) return;
      this.s.completed++;
      this.s.consecutiveFailures = 0;
    } catch (err) {
      // Only the token list can throw here (the requests and the handler are caught above): a
      // bug, but the loop must outlive it like any other failure.
      this.fail(err, 'books', true);
    } finally {
      this.s.lastDurationMs = clock.monotonic() - t0;
      if (this.abort === ac) this.abort = null;
    }
  }

  /** Counts a failure; `breaksCycle` failures also extend the consecutive streak. */
  private fail(err: unknown, stage: PollStage, breaksCycle: boolean): void {
    this.s.failures++;
    if (stage === 'midpoints') this.s.midpointFailures++;
    if (breaksCycle) this.s.consecutiveFailures++;
    try {
      this.opts.onError?.(err, stage, this.stats());
    } catch {
      /* a reporting hook must not break the loop */
    }
  }
}

/** The abort reason of requests cut off by stop(). */
export class PollerStoppedError extends OddsmakerError {
  constructor() {
    super('POLLER_STOPPED', 'poller stopped', false);
  }
}

// TradeTape: the public trades of the recorded markets, polled from GET /trades?market=<condition
// id>&takerOnly=true (docs/protocol.md §8; the Data API lists each match once, on its taker's row, so
// `side` is the aggressor's) and handed on oldest first, each once. Invariants kept:
// - rate: one market per turn, round-robin, a turn every intervalMs at most and never overlapping
//   the previous one; every request (first page or a later one) first takes a slot of a sliding
//   window of `budget.requests` per `budget.windowMs` on the injected clock (default 100 per 10 s,
//   two thirds of the route's 150 / 10 s, leaving room for other users of the route);
// - paging: a scan reads offset 0, then the next page while the page is full and every row on it
//   is new; the first row already seen (or older than the market's horizon, or, on the first scan,
//   from before the tape started) completes it, as does a short page. A scan cut short (no request
//   slot free, or a failed request) keeps what it read and resumes at the next turn of its market
//   at the offset where it stopped: new trades only push older rows to higher offsets, so resuming
//   there re-reads rows (skipped as duplicates) but never skips one. Rows are handed on only when
//   the scan completes, so nothing between what was read and what was seen before is lost unless
//   a scan must go past offset 10 000 (the route's limit; counted in `gaps`);
// - dedup key: transactionHash, asset, price, size, side, timestamp (the Data API has no trade id;
//   a hash may hold several fills). Keys are kept for `horizonSec` behind the newest timestamp seen
//   of the market; rows older than that horizon count as seen (memory stays bounded);
// - the first turn of a market records only trades stamped at or after the tape's start (floored
//   to the second, the resolution of `timestamp`): earlier ones are history, marked seen;
// - rows are handed on in time order: oldest first by timestamp; rows of one timestamp in the
//   reverse of the order they were read (the listing is newest first, ties latest first). A
//   resumed scan can read rows newer than those read before it (the listing shifted by more than
//   the resume offset), so the order within one second is exact only for a scan done in one turn;
//   the timestamp order always holds;
// - time only from the injected clock; a failed request is reported (onError), never thrown into
//   the timer, and the market is tried again at its next turn.
import type { Clock, TimerId } from '../core/clock.js';
import type { Trade } from '../core/market.js';
import { OptionError } from '../core/errors.js';

export interface TradesQuery {
  readonly market: string;
  readonly limit: number;
  readonly offset: number;
}

/** GET /trades for one market, taker rows only, newest first. */
export type TradesFetch = (q: TradesQuery) => Promise<readonly Trade[]>;

export interface TradeTapeOptions {
  readonly clock: Clock;
  readonly fetch: TradesFetch;
  /** Receives each new trade once, oldest first, with our receive time. */
  readonly onTrade: (t: Trade, localTs: number) => void;
  readonly onError?: (err: unknown) => void;
  /**
   * Milliseconds between turns (one market per turn). Default 150: about 67 first pages per 10 s,
   * leaving a third of the default budget for paging through bursts. A backtest applies a trade
   * when we received it, so this (times the number of markets) is the trades' added latency.
   */
  readonly intervalMs?: number;
  /** Request budget of this tape. Default 100 per 10 000 ms. */
  readonly budget?: { readonly requests: number; readonly windowMs: number };
  /** Rows per page, 1–500. Default 100. */
  readonly pageSize?: number;
  /** How long dedup keys are kept behind the newest trade of a market, seconds. Default 120. */
  readonly horizonSec?: number;
}

export interface TradeTapeStats {
  requests: number;
  trades: number;
  /** Turns that ended early for want of a request slot. */
  deferred: number;
  errors: number;
  /** Scans that hit the route's offset limit before reaching known rows (trades may be missing). */
  gaps: number;
}

interface MarketTape {
  started: boolean;
  newestSec: number;
  readonly seen: Map<string, number>; // key → timestamp (s)
  /** Rows read by an unfinished scan, newest first, and their keys. */
  pending: Trade[];
  readonly pendingKeys: Set<string>;
  /** Offset where the unfinished scan resumes (0: a new scan). */
  resumeAt: number;
}

const MAX_OFFSET = 10_000;

export function tradeKey(t: Trade): string {
  return `${t.transactionHash}|${t.asset}|${t.price}|${t.size}|${t.side}|${t.timestamp}`;
}

export class TradeTape {
  readonly stats: TradeTapeStats = { requests: 0, trades: 0, deferred: 0, errors: 0, gaps: 0 };
  private markets: string[] = [];
  private next = 0;
  private readonly tapes = new Map<string, MarketTape>();
  private readonly sent: number[] = [];
  private timer: TimerId | null = null;
  private running: Promise<void> | null = null;
  private readonly startSec: number;
  private readonly intervalMs: number;
  private readonly budget: { readonly requests: number; readonly windowMs: number };
  private readonly pageSize: number;
  private readonly horizonSec: number;

  constructor(private readonly opts: TradeTapeOptions) {
    this.intervalMs = opts.intervalMs ?? 150;
    this.budget = opts.budget ?? { requests: 100, windowMs: 10_000 };
    this.pageSize = opts.pageSize ?? 100;
    this.horizonSec = opts.horizonSec ?? 120;
    if (!Number.isSafeInteger(this.intervalMs) || this.intervalMs <= 0)
      throw new OptionError(
        'MARKETDATA_OPTION',
        `trade poll interval must be a positive integer, got ${String(this.intervalMs)}`,
      );
    if (
      !Number.isSafeInteger(this.budget.requests) ||
      this.budget.requests < 1 ||
      !Number.isSafeInteger(this.budget.windowMs) ||
      this.budget.windowMs < 1
    ) {
      throw new OptionError('MARKETDATA_OPTION', 'trade request budget must be positive integers');
    }
    if (!Number.isSafeInteger(this.pageSize) || this.pageSize < 1 || this.pageSize > 500)
      throw new OptionError('MARKETDATA_OPTION', `trade page size must be in [1, 500], got ${String(this.pageSize)}`);
    this.startSec = Math.floor(opts.clock.now() / 1000);
  }

  /** The markets to follow (condition ids); a market's tape state survives leaving and coming back. */
  setMarkets(conditionIds: readonly string[]): void {
    this.markets = [...new Set(conditionIds)];
    if (this.next >= this.markets.length) this.next = 0;
  }

  start(): void {
    if (this.timer !== null) return;
    this.timer = this.opts.clock.setInterval(() => {
      if (this.running !== null) return; // never overlap a slow turn
      this.running = this.turn().finally(() => {
        this.running = null;
      });
    }, this.intervalMs);
  }

  /** Stops the turns and waits for the one in flight. */
  async stop(): Promise<void> {
    if (this.timer !== null) {
      this.opts.clock.clearInterval(this.timer);
      this.timer = null;
    }
    await this.running;
  }

  /** One turn: the next market's new trades. Resolves once they are handed on (errors reported). */
  async turn(): Promise<void> {
    const market = this.markets[this.next];
    if (market === undefined) return;
    this.next = (this.next + 1) % this.markets.length;
    let tape = this.tapes.get(market);
    if (tape === undefined) {
      tape = { started: false, newestSec: 0, seen: new Map(), pending: [], pendingKeys: new Set(), resumeAt: 0 };
      this.tapes.set(market, tape);
    }
    let offset = tape.resumeAt;
    let complete = false;
    try {
      while (!complete) {
        if (offset > MAX_OFFSET) {
          this.stats.gaps++;
          complete = true;
          break;
        }
        if (!this.takeSlot()) {
          this.stats.deferred++;
          break;
        }
        const page = await this.opts.fetch({ market, limit: this.pageSize, offset });
        for (const t of page) {
          if (this.isSeen(tape, t)) {
            complete = true;
            break;
          }
          const key = tradeKey(t);
          if (tape.pendingKeys.has(key)) continue; // re-read after the listing shifted
          tape.pending.push(t);
          tape.pendingKeys.add(key);
          // First scan: history from before the tape completes it (kept only to be marked seen).
          if (!tape.started && t.timestamp < this.startSec) {
            complete = true;
            break;
          }
        }
        if (page.length < this.pageSize) complete = true;
        offset += this.pageSize;
      }
    } catch (err) {
      this.stats.errors++;
      this.report(err);
    }
    if (!complete) {
      tape.resumeAt = offset;
      return;
    }
    // Oldest first: by timestamp, then the reverse of the reading order.
    const fresh = tape.pending
      .map((t, i) => ({ t, i }))
      .sort((a, b) => b.t.timestamp - a.t.timestamp || a.i - b.i)
      .map((x) => x.t);
    tape.pending = [];
    tape.pendingKeys.clear();
    tape.resumeAt = 0;
    this.deliver(tape, fresh);
  }

  private isSeen(tape: MarketTape, t: Trade): boolean {
    if (tape.seen.has(tradeKey(t))) return true;
    return tape.started && t.timestamp < tape.newestSec - this.horizonSec;
  }

  private deliver(tape: MarketTape, fresh: readonly Trade[]): void {
    const localTs = this.opts.clock.now();
    for (let i = fresh.length - 1; i >= 0; i--) {
      const t = fresh[i] as Trade;
      const key = tradeKey(t);
      if (tape.seen.has(key)) continue; // a row repeated across pages that shifted meanwhile
      tape.seen.set(key, t.timestamp);
      if (t.timestamp > tape.newestSec) tape.newestSec = t.timestamp;
      if (!tape.started && t.timestamp < this.startSec) continue; // history from before the tape
      this.stats.trades++;
      try {
        this.opts.onTrade(t, localTs);
      } catch (err) {
        this.report(err);
      }
    }
    tape.started = true;
    const floor = tape.newestSec - this.horizonSec;
    for (const [k, ts] of tape.seen) if (ts < floor) tape.seen.delete(k);
  }

  private takeSlot(): boolean {
    const now = this.opts.clock.now();
    while (this.sent.length > 0 && (this.sent[0] as number) <= now - this.budget.windowMs) this.sent.shift();
    if (this.sent.length >= this.budget.requests) return false;
    this.sent.push(now);
    this.stats.requests++;
    return true;
  }

  private report(err: unknown): void {
    try {
      this.opts.onError?.(err);
    } catch {
      /* a reporting hook must not break the tape */
    }
  }
}

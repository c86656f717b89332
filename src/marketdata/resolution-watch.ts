// ResolutionWatch: learns that watched markets resolved, from the cursor-paged market listing
// GET /markets (interface §2.8: `closed`, `tokens[].winner`; the CLOB has no single-market lookup
// by condition id). The daemon watches the markets that leave its universe (and those it still
// holds a position in); `oddsmaker record` watches the markets it stops recording. A resolution
// settles the ledger and becomes a RESOLVED record of a recording.
//
// How it looks (all timing on the injected Clock):
// - while the watched set is non-empty, one turn runs every `intervalMs` (first one
//   `firstCheckDelayMs` after a watch() found it idle); turns never overlap;
// - a turn first fetches the remembered pages: a market once found on a page but not resolved
//   is looked for on that page only (the listing is append-only, so positions are stable), one
//   request per distinct page whatever the number of markets on it;
// - markets whose page is unknown are looked for by a scan of the whole listing from `MA==`,
//   following `next_cursor`; a scan cut short (page cap, budget, error) resumes where it stopped
//   at the next turn; a scan that reaches the end without finding a market starts again from the
//   first page at the next turn (a market watched in the middle of a scan may sit before it);
// - every page seen settles every watched market on it: closed with exactly one winning token →
//   onResolved once, and it leaves the set; closed with several winners → given up (this watch
//   reports a single winner only); otherwise its page is remembered. A market missing from its
//   remembered page forgets the page (back to the scan);
// - remembered pages are fetched least recently checked first, and while markets wait for the
//   scan they take at most half of a turn's pages, so neither starves the other; a cursor that
//   fails FORGET_AFTER_FAILURES times in a row is forgotten (its markets and the scan start over
//   from the top), so a listing that changed under us cannot wedge the watch.
// Invariants kept:
// - requests are budgeted: at most `budget.requests` in any `budget.windowMs` (a sliding log of
//   send times, waited on with the clock), and at most `maxPagesPerTurn` pages per turn; a page
//   is fetched at most once per turn;
// - a market is reported at most once (a resolved id is never watched again) and is dropped after
//   `maxWatchMs` without a resolution, through onGiveUp;
// - nothing throws into the timer: a failed request (or a throwing hook) goes to onError and the
//   work left is retried at the next turn;
// - stop() is final: it clears the timer, aborts the request or budget wait in flight, and
//   resolves once the turn in flight has ended; no hook is called after it resolves.
import type { Clock, TimerId } from '../core/clock.js';
import type { MarketsPage } from '../core/market.js';
import { OptionError, StoppedError, OddsmakerError } from '../core/errors.js';

/** The first page of a listing (docs/protocol.md §5: base64 of offset 0). */
export const FIRST_PAGE_CURSOR = 'MA==';

/** What the watch reads of a GET /markets record. */
export interface ListedMarket {
  readonly conditionId: string;
  readonly closed: boolean;
  readonly tokens: ReadonlyArray<{ readonly tokenId: string | null; readonly winner: boolean }>;
}

/** Fetches one page of GET /markets at `cursor` (`MA==` is the first); nextCursor null on the last. */
export type MarketsPageLister = (cursor: string, signal: AbortSignal) => Promise<MarketsPage<ListedMarket>>;

export interface MarketResolved {
  readonly conditionId: string;
  readonly winnerTokenId: string;
  /** The market's tokens as listed (the one winner among them). */
  readonly tokens: ReadonlyArray<{ readonly tokenId: string; readonly winner: boolean }>;
}

export interface GiveUp {
  readonly conditionId: string;
  readonly reason: 'timeout' | 'several-winners';
  /** How long the market was watched. */
  readonly watchedMs: number;
}

export interface ResolutionBudget {
  readonly requests: number;
  readonly windowMs: number;
}

export interface ResolutionWatchOptions {
  readonly clock: Clock;
  readonly listPage: MarketsPageLister;
  readonly onResolved: (r: MarketResolved) => void;
  /** A failed turn's error (retried at the next turn) or a hook that threw. */
  readonly onError?: (err: unknown) => void;
  readonly onGiveUp?: (g: GiveUp) => void;
  /** Between turns (default 10 minutes). */
  readonly intervalMs?: number;
  /** From an idle watch() to the first turn (default 0: a market that just left may be resolved already). */
  readonly firstCheckDelayMs?: number;
  /** Give up on a market after this long (default 14 days). */
  readonly maxWatchMs?: number;
  /** Default 30 requests per 10 s (a tenth of the listing's 300 / 10 s). */
  readonly budget?: ResolutionBudget;
  /** Pages fetched per turn at most (default 100). */
  readonly maxPagesPerTurn?: number;
}

export interface ResolutionWatchStats {
  requests: number;
  turns: number;
  resolved: number;
  givenUp: number;
  errors: number;
  /** Times a turn waited for the request budget. */
  budgetWaits: number;
}

interface Watched {
  readonly sinceMs: number;
  /** The page the market was last seen on (not resolved then), or null: unknown, to scan for. */
  cursor: string | null;
}

const DEFAULTS = {
  intervalMs: 600_000,
  firstCheckDelayMs: 0,
  maxWatchMs: 14 * 86_400_000,
  budget: { requests: 30, windowMs: 10_000 },
  maxPagesPerTurn: 100,
} as const;

/** Internal: ends a turn at its page cap (caught in the turn, never escapes the watch). */
class TurnCapReached extends OddsmakerError {
  constructor() {
    super('MARKETDATA_TURN_CAP', 'resolution watch: page cap of the turn reached', false);
  }
}

/** Consecutive failures of one cursor after which it is forgotten. */
export const FORGET_AFTER_FAILURES = 3;

function positiveInt(name: string, v: number, zeroOk = false): number {
  if (!Number.isSafeInteger(v) || v < (zeroOk ? 0 : 1))
    throw new OptionError(
      'MARKETDATA_OPTION',
      `${name} must be a ${zeroOk ? 'non-negative' : 'positive'} integer, got ${String(v)}`,
    );
  return v;
}

export class ResolutionWatch {
  private readonly watched = new Map<string, Watched>();
  /** Reported or given up: never watched again. */
  private readonly done = new Set<string>();
  private readonly sends: number[] = [];
  private readonly intervalMs: number;
  private readonly firstCheckDelayMs: number;
  private readonly maxWatchMs: number;
  private readonly budget: ResolutionBudget;
  private readonly maxPagesPerTurn: number;
  /** Where the unfinished scan resumes, or null: the next scan starts at the first page. */
  private scanCursor: string | null = null;
  /** Turn number at which each remembered page was last fetched (least recent goes first). */
  private readonly pageTurn = new Map<string, number>();
  /** Consecutive failures per cursor. */
  private readonly failures = new Map<string, number>();
  private timer: TimerId | null = null;
  private timerDueMs = 0;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  private readonly s: ResolutionWatchStats = {
    requests: 0,
    turns: 0,
    resolved: 0,
    givenUp: 0,
    errors: 0,
    budgetWaits: 0,
  };

  constructor(private readonly opts: ResolutionWatchOptions) {
    this.intervalMs = positiveInt('intervalMs', opts.intervalMs ?? DEFAULTS.intervalMs);
    this.firstCheckDelayMs = positiveInt(
      'firstCheckDelayMs',
      opts.firstCheckDelayMs ?? DEFAULTS.firstCheckDelayMs,
      true,
    );
    this.maxWatchMs = positiveInt('maxWatchMs', opts.maxWatchMs ?? DEFAULTS.maxWatchMs);
    const b = opts.budget ?? DEFAULTS.budget;
    this.budget = {
      requests: positiveInt('budget.requests', b.requests),
      windowMs: positiveInt('budget.windowMs', b.windowMs),
    };
    this.maxPagesPerTurn = positiveInt('maxPagesPerTurn', opts.maxPagesPerTurn ?? DEFAULTS.maxPagesPerTurn);
  }

  /** Starts watching a market (no-op if watched already, reported, given up, or stopped). */
  watch(conditionId: string): void {
    if (this.stopped || conditionId === '' || this.done.has(conditionId) || this.watched.has(conditionId)) return;
    this.watched.set(conditionId, { sinceMs: this.opts.clock.now(), cursor: null });
    if (this.running === null) this.schedule(this.firstCheckDelayMs);
  }

  /** Stops watching a market (it came back into the universe); it may be watched again later. */
  unwatch(conditionId: string): void {
    this.watched.delete(conditionId);
  }

  isWatching(conditionId: string): boolean {
    return this.watched.has(conditionId);
  }

  /** The watched condition ids, in watch order. */
  watching(): string[] {
    return [...this.watched.keys()];
  }

  stats(): Readonly<ResolutionWatchStats> {
    return { ...this.s };
  }

  /** Final: no turn starts after it, the one in flight is aborted and awaited. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) {
      this.opts.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    this.abort.abort(new StoppedError('resolution watch stopped'));
    await this.running;
  }

  /** Runs one turn now (joins the one in flight); for callers that know a check is due. */
  check(): Promise<void> {
    if (this.running !== null) return this.running;
    if (this.stopped) return Promise.resolve();
    if (this.timer !== null) {
      this.opts.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.turn().finally(() => {
      this.running = null;
      if (!this.stopped && this.watched.size > 0) this.schedule(this.intervalMs);
    });
    return this.running;
  }

  // ---------------------------------------------------------------------------------------------

  /** Arms the timer `delayMs` from now, unless an earlier one is armed already. */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const due = this.opts.clock.now() + delayMs;
    if (this.timer !== null) {
      if (this.timerDueMs <= due) return;
      this.opts.clock.clearTimeout(this.timer);
    }
    this.timerDueMs = due;
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = null;
      void this.check();
    }, delayMs);
  }

  private async turn(): Promise<void> {
    this.s.turns++;
    const turnNo = this.s.turns;
    const fetched = new Map<string, MarketsPage<ListedMarket>>();
    let pages = 0;
    let asking: string | null = null;
    /** One page, at most once per turn, within the page cap and the request budget. */
    const page = async (cursor: string): Promise<MarketsPage<ListedMarket>> => {
      const seen = fetched.get(cursor);
      if (seen !== undefined) return seen;
      if (pages >= this.maxPagesPerTurn) throw new TurnCapReached();
      pages++;
      await this.admit();
      this.s.requests++;
      asking = cursor;
      const p = await this.opts.listPage(cursor, this.abort.signal);
      asking = null;
      this.failures.delete(cursor);
      this.pageTurn.set(cursor, turnNo);
      fetched.set(cursor, p);
      if (!this.stopped) this.settle(p, cursor);
      return p;
    };
    try {
      this.giveUpExpired();
      // Remembered pages first (least recently checked first): one request finds every market there.
      const knownSet = new Set<string>();
      for (const w of this.watched.values()) if (w.cursor !== null) knownSet.add(w.cursor);
      const known = [...knownSet].sort((a, b) => (this.pageTurn.get(a) ?? -1) - (this.pageTurn.get(b) ?? -1));
      for (const c of this.pageTurn.keys()) if (!knownSet.has(c)) this.pageTurn.delete(c);
      // Markets waiting for the scan keep half of the turn's pages.
      const knownCap = this.unplaced() > 0 ? Math.ceil(this.maxPagesPerTurn / 2) : this.maxPagesPerTurn;
      for (const cursor of known) {
        if (this.stopped) return;
        if (pages >= knownCap) break;
        const p = await page(cursor);
        const here = new Set(p.data.map((m) => m.conditionId));
        for (const [id, w] of this.watched) if (w.cursor === cursor && !here.has(id)) w.cursor = null; // moved: scan again
      }
      // Then the scan, for the markets whose page is unknown.
      while (!this.stopped && this.unplaced() > 0) {
        const cursor = this.scanCursor ?? FIRST_PAGE_CURSOR;
        const p = await page(cursor);
        this.scanCursor = p.nextCursor;
        // The end of the listing: whoever is still unplaced is looked for from the top next turn.
        if (p.nextCursor === null) break;
      }
      // Nothing left to look for: a later watch() scans from the top, not from a stale position.
      if (this.unplaced() === 0) this.scanCursor = null;
    } catch (err) {
      if (err instanceof TurnCapReached || this.stopped) return;
      this.s.errors++;
      if (asking !== null) this.failed(asking);
      this.report(err);
    }
  }

  /** One more failure of `cursor`; past the limit it is forgotten (its markets go back to the scan). */
  private failed(cursor: string): void {
    const n = (this.failures.get(cursor) ?? 0) + 1;
    if (n < FORGET_AFTER_FAILURES) {
      this.failures.set(cursor, n);
      return;
    }
    this.failures.delete(cursor);
    this.pageTurn.delete(cursor);
    for (const w of this.watched.values()) if (w.cursor === cursor) w.cursor = null;
    if (this.scanCursor === cursor) this.scanCursor = null;
  }

  /** Watched markets whose page is not known. */
  private unplaced(): number {
    let n = 0;
    for (const w of this.watched.values()) if (w.cursor === null) n++;
    return n;
  }

  /** Applies one listing page to the watched markets on it. */
  private settle(p: MarketsPage<ListedMarket>, cursor: string): void {
    for (const m of p.data) {
      const w = this.watched.get(m.conditionId);
      if (w === undefined) continue;
      const winners = m.tokens.filter((t) => t.winner && t.tokenId !== null && t.tokenId !== '');
      if (!m.closed || winners.length === 0) {
        w.cursor = cursor;
        continue;
      }
      this.watched.delete(m.conditionId);
      this.done.add(m.conditionId);
      if (winners.length > 1) {
        this.giveUp({
          conditionId: m.conditionId,
          reason: 'several-winners',
          watchedMs: this.opts.clock.now() - w.sinceMs,
        });
        continue;
      }
      this.s.resolved++;
      const tokens = m.tokens
        .filter((t): t is { tokenId: string; winner: boolean } => t.tokenId !== null && t.tokenId !== '')
        .map((t) => ({ tokenId: t.tokenId, winner: t.winner }));
      try {
        this.opts.onResolved({
          conditionId: m.conditionId,
          winnerTokenId: (winners[0] as { tokenId: string }).tokenId,
          tokens,
        });
      } catch (err) {
        this.report(err);
      }
    }
  }

  private giveUpExpired(): void {
    const now = this.opts.clock.now();
    for (const [id, w] of this.watched) {
      if (now - w.sinceMs < this.maxWatchMs) continue;
      this.watched.delete(id);
      this.done.add(id);
      this.giveUp({ conditionId: id, reason: 'timeout', watchedMs: now - w.sinceMs });
    }
  }

  private giveUp(g: GiveUp): void {
    this.s.givenUp++;
    try {
      this.opts.onGiveUp?.(g);
    } catch (err) {
      this.report(err);
    }
  }

  /** Waits until one more request fits the sliding window, then records its send time. */
  private async admit(): Promise<void> {
    const { requests, windowMs } = this.budget;
    for (;;) {
      const now = this.opts.clock.now();
      while (this.sends.length > 0 && (this.sends[0] as number) <= now - windowMs) this.sends.shift();
      if (this.sends.length < requests) {
        this.sends.push(now);
        return;
      }
      this.s.budgetWaits++;
      await this.opts.clock.sleep((this.sends[0] as number) + windowMs - now, this.abort.signal);
    }
  }

  private report(err: unknown): void {
    try {
      this.opts.onError?.(err);
    } catch {
      /* a reporting hook must not break the watch */
    }
  }
}

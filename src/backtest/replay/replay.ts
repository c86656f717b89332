// One backtest run's state and its synchronous loop body. The virtual clock's timer queue is the
// event queue of everything the run schedules (the strategy's poll ticks, latency-delayed order
// arrivals and answers, limiter waits), ordered by (time, insertion); the recording is the other,
// already ordered stream. For each record at local time t: a pending `update` cycle runs first
// (updates stamped with one instant are one observation), then every scheduled event due by t
// fires, in order, synchronously (clock.advanceTo), then the record is applied at t. No promise
// is created per record or per cycle.
// What a record does (as in paper mode, with the recording as the exchange):
// - SETTINGS: the market's settings (RecordedMarketData); the daemon starts at the end of the
//   first instant after which a book exists and some market has both tokens' settings (engine.ts);
//   the books recorded until then reach the venue as it starts (started());
// - BOOK / DELTA: the token's served book changes (materialized only when a cycle asks: the
//   board); the venue gets it when the token is in the universe (a delta as a delta when the
//   venue takes them); the token's mid is noted for the report's marks; with cadence `update` a
//   universe token's update makes a cycle due;
// - TRADE: to the venue's fill model (universe tokens); RESOLVED: resolution.ts (venue, ledger, marks).
// A resolved market's later books are neither fed nor served; before the daemon runs, records
// only build the market data.
import { restamped, type Book } from '../../core/book.js';
import { InvariantError } from '../../core/errors.js';
import type { VirtualClock } from '../../core/clock.js';
import type { Price } from '../../core/money.js';
import type { MarketSnapshot } from '../../marketdata/types.js';
import { PaperError, paperMarketFromSettings } from '../../sim/paper/index.js';
import type { FeeSchedule } from '../../core/fees.js';
import { bookMid, midOf, type RecordedMarketData } from '../market-data.js';
import type { BacktestResolutions } from '../resolution.js';
import type { EquitySample } from '../types.js';
import type { CycleDriver } from './driver.js';
import { KIND, type BookBuilder, type ReplayRecord } from './records.js';
import type { ReplayLedger } from './ledger.js';
import type { ReplayVenuePort } from './venue-port.js';

/** What a started run holds (built by session.ts). */
export interface Running {
  readonly clock: VirtualClock;
  readonly venue: ReplayVenuePort;
  readonly ledger: ReplayLedger;
  readonly driver: CycleDriver;
  /** The universe's tokens, in universe order. */
  readonly tokens: readonly string[];
  /** Clears the poll schedule (cadence poll; set by the engine once the ticks run). */
  stopTicks: () => void;
}

/** A token's book as served to the daemon: built at the first poll after a change. */
/** What the replay keeps of one token. */
class TokenSlot {
  /** Builds the token's book as of its last update (until a poll asks); null before any. */
  later: BookBuilder | null = null;
  /** The book served since the last update, once built, and the time it is stamped with. */
  book: Book | null = null;
  stampedMs = Number.NaN;
  /** The last book built (its levels are reused where a delta left them alone). */
  built: Book | null = null;
  conditionId: string | undefined = undefined;
  /** The venue holds the token's market (added once; a venue never drops one). */
  inVenue = false;
  venueHasBook = false;
  /** The last mid noted: -1 one-sided, NaN never. */
  mid = Number.NaN;
  constructor(
    readonly tokenId: string,
    public inUniverse: boolean,
    public resolved = false,
  ) {}
}

export interface ReplayOptions {
  readonly md: RecordedMarketData;
  readonly resolutions: BacktestResolutions;
  readonly cadence: 'poll' | 'update';
  readonly feeSchedule: FeeSchedule;
  readonly recordMids: boolean;
}

export class Replay {
  rt: Running | null = null;
  events = 0;
  bookUpdates = 0;
  startMs = 0;
  /** Mid changes by token (the report's mids). */
  readonly mids = new Map<string, { readonly t: number[]; readonly mid: number[] }>();
  /** Each token's latest mid (null: one-sided). */
  readonly lastMid = new Map<string, number | null>();
  readonly equity: EquitySample[] = [];
  /** Per-token state by the record's dense token number, and by token id (polls, resolutions). */
  private readonly slots: Array<TokenSlot | undefined> = [];
  private readonly slotById = new Map<string, TokenSlot>();
  private universe: ReadonlySet<string> = new Set();
  private pushDue = false;
  /** The daemon's poll of the started run (snapshot), as a function the driver calls when a cycle runs. */
  takeSnapshot: () => MarketSnapshot = () => {
    throw new InvariantError('the replay has not started');
  };

  constructor(private readonly o: ReplayOptions) {}

  /** Whether the daemon may start now (a book and some complete market exist). */
  canStart(): boolean {
    return this.o.md.conditionIds().length > 0 && this.o.md.hasBooks();
  }

  started(rt: Running, t: number): void {
    this.rt = rt;
    this.takeSnapshot = () => this.snapshot(rt);
    this.startMs = t;
    this.universe = new Set(rt.tokens);
    for (const slot of this.slotById.values()) slot.inUniverse = this.universe.has(slot.tokenId);
    // The books recorded before the start (the opening instant) reach the venue now, as recorded,
    // in universe order: an order of the first cycle finds its market there.
    for (const tokenId of rt.tokens) {
      const slot = this.slotById.get(tokenId);
      if (slot === undefined || slot.resolved || slot.later === null || !this.inVenue(rt, slot)) continue;
      this.feedBook(rt, slot, slot.later(null, Number.NEGATIVE_INFINITY));
    }
  }

  private slotOf(r: ReplayRecord): TokenSlot {
    const no = r.tokenNo();
    let slot = this.slots[no];
    if (slot === undefined) {
      const tokenId = r.tokenId();
      slot = new TokenSlot(tokenId, this.universe.has(tokenId), this.o.resolutions.isTokenResolved(tokenId));
      this.slots[no] = slot;
      this.slotById.set(tokenId, slot);
    }
    return slot;
  }

  /** One record (see the header). */
  record(r: ReplayRecord): void {
    this.events++;
    const rt = this.rt;
    const t = r.localTs;
    if (rt !== null) {
      if (this.pushDue && t > rt.clock.now()) {
        this.pushDue = false;
        rt.driver.cycle(this.takeSnapshot);
      }
      rt.clock.advanceTo(t);
    }
    r.commit();
    const now = rt === null ? t : rt.clock.now();
    switch (r.kind) {
      case KIND.SETTINGS:
        this.o.md.applySettings(r.settings());
        return;
      case KIND.BOOK:
      case KIND.DELTA:
        this.bookUpdates++;
        this.onBook(r, now);
        return;
      case KIND.TRADE: {
        if (rt === null) return;
        const slot = this.slotOf(r);
        // The venue holds the universe's markets only (feedVenue).
        if (slot.resolved || !slot.inUniverse) return;
        rt.venue.applyTrade({
          tokenId: r.tokenId(),
          price: r.price as Price,
          size: r.size as never,
          side: r.tradeSide(),
          timestampMs: r.exchangeTs,
        });
        return;
      }
      case KIND.RESOLVED: {
        const ev = { conditionId: r.conditionId, tokenId: r.tokenId(), exchangeTs: r.exchangeTs };
        for (const [token, mark] of this.o.resolutions.apply(
          ev,
          now,
          this.o.md,
          rt?.venue ?? null,
          rt?.ledger ?? null,
        )) {
          const slot = this.slotById.get(token);
          if (slot !== undefined) slot.resolved = true;
          this.noteMid(token, now, mark);
        }
        return;
      }
      default:
      // MID records: the backtest's mids come from the books (the same rule for every recording).
    }
  }

  private onBook(r: ReplayRecord, now: number): void {
    const slot = this.slotOf(r);
    // An update of the universe is an observation whatever it holds: with cadence `update` a
    // cycle follows (a resolved market's books are not served to it: its quotes go stale).
    if (slot.inUniverse && this.rt !== null && this.o.cadence === 'update') this.pushDue = true;
    // A resolved market's book is no market any more: its marks stay at the payouts.
    if (slot.resolved) return;
    // The universe resolves from the data's books, before the daemon starts.
    if (slot.later === null && this.rt === null) this.o.md.applyBook(r.book());
    slot.later = r.bookLater();
    slot.book = null;
    this.noteMidOf(slot, now, midOf(r.bestBid(), r.bestAsk()));
    // The venue simulates the markets the daemon can trade. The universe is fixed for the run
    // (session.ts), so a market outside it never holds an order of ours: its books are data (the
    // report's mids) and feeding them would change no fill, only cost (a quarter of a 50-market
    // day where the daemon quotes one).
    const rt = this.rt;
    if (rt !== null && slot.inUniverse) this.feedVenue(rt, r, slot);
  }

  /** Whether the venue holds the token's market, adding it at the token's first feed (false: it cannot). */
  private inVenue(rt: Running, slot: TokenSlot): boolean {
    if (slot.inVenue) return true;
    const venue = rt.venue;
    if (slot.conditionId === undefined) slot.conditionId = this.o.md.conditionOf(slot.tokenId);
    const cid = slot.conditionId;
    if (cid === undefined) return false;
    if (!venue.hasMarket(cid)) {
      const s = this.o.md.settingsOf(cid);
      if (s === null) return false;
      try {
        venue.addMarket(paperMarketFromSettings(s, this.o.feeSchedule));
      } catch (e) {
        if (e instanceof PaperError) return false; // a market the venue cannot simulate: data only
        throw e;
      }
    }
    slot.inVenue = true;
    return true;
  }

  private feedVenue(rt: Running, r: ReplayRecord, slot: TokenSlot): void {
    if (!this.inVenue(rt, slot)) return;
    // Every token's book, as recorded: the venue keeps one book per market in YES terms and takes
    // each token's as its latest word (a NO book mirrored). Recorded NO books are not always the
    // YES book's mirror, so both are fed; the venue itself finds when a NO delta leaves the books
    // mirrored and nothing changed since the last feed, and then does no work (delta-venue.ts).
    const venue = rt.venue;
    if (r.kind === KIND.DELTA && venue.applyDelta !== undefined && slot.venueHasBook) {
      venue.applyDelta(slot.tokenId, r.changeCount, r.changePrice, r.changeSize, r.changeIsAsk, r.exchangeTs);
      return;
    }
    this.feedBook(rt, slot, r.book());
  }

  /** A whole book of the token to the venue, which holds its market (inVenue). */
  private feedBook(rt: Running, slot: TokenSlot, book: Book): void {
    rt.venue.applyBook(book);
    slot.venueHasBook = true;
  }

  /** The daemon's poll: the universe's books as of now (resolved markets have none), mids from them. */
  private snapshot(rt: Running): MarketSnapshot {
    const now = rt.clock.now();
    const books: Book[] = [];
    const mids = new Map<string, Price>();
    for (const tokenId of rt.tokens) {
      const s = this.slotById.get(tokenId);
      if (s === undefined || s.resolved || s.later === null) continue;
      // Served as the paper gateway serves a recorded book: stamped no older than now.
      if (s.book === null) {
        s.book = s.later(s.built, now);
        s.built = s.book;
      } else if (s.stampedMs !== now && (s.book.timestampMs === null || s.book.timestampMs < now)) {
        s.book = restamped(s.book, now);
      }
      s.stampedMs = now;
      const b = s.book;
      books.push(b);
      const m = bookMid(b);
      if (m !== null) mids.set(tokenId, m);
    }
    return { receivedAtMs: now, books, mids, complete: true };
  }

  /** Runs a pending `update` cycle (the last instant of the recording). */
  flushPush(): void {
    if (this.rt !== null && this.pushDue) {
      this.pushDue = false;
      this.rt.driver.cycle(this.takeSnapshot);
    }
  }

  /** A token's mark changed to `m` at `t` (the resolution's payouts too). */
  noteMid(tokenId: string, t: number, m: number | null): void {
    const slot = this.slotById.get(tokenId);
    if (slot !== undefined) {
      this.noteMidOf(slot, t, m);
      return;
    }
    if (this.lastMid.get(tokenId) === m) return;
    this.noteChange(tokenId, t, m);
  }

  private noteMidOf(slot: TokenSlot, t: number, m: number | null): void {
    const v = m === null ? -1 : m;
    if (slot.mid === v) return;
    slot.mid = v;
    this.noteChange(slot.tokenId, t, m);
  }

  private noteChange(tokenId: string, t: number, m: number | null): void {
    this.lastMid.set(tokenId, m);
    if (m === null || !this.o.recordMids) return;
    let s = this.mids.get(tokenId);
    if (s === undefined) {
      s = { t: [], mid: [] };
      this.mids.set(tokenId, s);
    }
    s.t.push(t);
    s.mid.push(m);
  }
}

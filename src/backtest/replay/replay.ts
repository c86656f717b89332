// One backtest run's state and its synchronous loop body. The virtual clock's timer queue is the
// event queue of everything the run schedules (the strategy's poll ticks, latency-delayed order
// arrivals and answers, limiter waits), ordered by (time, insertion); the recording is the other,
// already ordered stream. For each record at local time t: a pending `update` cycle runs first
// (updates stamped with one instant are one observation), then every scheduled event due by t
// fires, in order, synchronously (clock.advanceTo), then the record is applied at t. No promise
// is created per record or per cycle.
// What a record does (as in paper mode, with the recording as the exchange):
// - SETTINGS: the market's settings (RecordedMarketData); the daemon starts at the first record
//   after which a book exists and some market has both tokens' settings (start());
// - BOOK / DELTA: the token's served book changes (materialized only when a cycle asks: the
//   board); the venue gets it (a delta as a delta when the venue takes them); the token's mid is
//   noted for the report's marks; with cadence `update` a universe token's update makes a cycle due;
// - TRADE: to the venue's fill model; RESOLVED: resolution.ts (venue, ledger, marks).
// A resolved market's later books are neither fed nor served; before the daemon runs, records
// only build the market data.
import type { Book } from '../../core/book.js';
import type { VirtualClock } from '../../core/clock.js';
import type { Price } from '../../core/money.js';
import type { Config } from '../../config/schema.js';
import type { MarketSnapshot } from '../../marketdata/types.js';
import { PaperError, paperMarketFromSettings } from '../../sim/paper/index.js';
import type { FeeSchedule } from '../../core/fees.js';
import type { RecordedMarketData } from '../market-data.js';
import type { BacktestResolutions } from '../resolution.js';
import type { EquitySample } from '../types.js';
import type { CycleDriver } from './driver.js';
import { KIND, type ReplayRecord } from './records.js';
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

/** The half-sum of best bid and ask, floored to a millionth; null when a side is empty. */
export function midOf(bid: number, ask: number): Price | null {
  return bid < 0 || ask < 0 ? null : (Math.floor((bid + ask) / 2) as Price);
}

/** A token's book as served to the daemon: built at the first poll after a change. */
interface Served {
  later: (() => Book) | null;
  book: Book | null;
}

export interface ReplayOptions {
  readonly md: RecordedMarketData;
  readonly resolutions: BacktestResolutions;
  readonly cadence: 'poll' | 'update';
  readonly feeSchedule: FeeSchedule;
  readonly recordMids: boolean;
  readonly config: () => Readonly<Config>;
}

export class Replay {
  rt: Running | null = null;
  events = 0;
  bookUpdates = 0;
  startMs = 0;
  /** Mid changes by token, [t, mid] (the report's mids). */
  readonly mids = new Map<string, Array<readonly [number, number]>>();
  /** Each token's latest mid (null: one-sided). */
  readonly lastMid = new Map<string, number | null>();
  readonly equity: EquitySample[] = [];
  private readonly served = new Map<string, Served>();
  private readonly venueHasBook = new Set<string>();
  /** Each market's YES token (its first), the one whose book the venue takes. */
  private readonly yesOf = new Map<string, string>();
  private universe: ReadonlySet<string> = new Set();
  private pushDue = false;

  constructor(private readonly o: ReplayOptions) {}

  /** Whether the daemon may start now (a book and some complete market exist). */
  canStart(): boolean {
    return this.o.md.conditionIds().length > 0 && this.o.md.hasBooks();
  }

  started(rt: Running, t: number): void {
    this.rt = rt;
    this.startMs = t;
    this.universe = new Set(rt.tokens);
  }

  /** One record (see the header). */
  record(r: ReplayRecord): void {
    this.events++;
    const rt = this.rt;
    const t = r.localTs;
    if (rt !== null) {
      if (this.pushDue && t > rt.clock.now()) {
        this.pushDue = false;
        rt.driver.cycle(this.snapshot(rt));
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
      case KIND.TRADE:
        if (rt === null) return;
        if (this.o.resolutions.isTokenResolved(r.tokenId())) return;
        rt.venue.applyTrade({
          tokenId: r.tokenId(),
          price: r.price as Price,
          size: r.size as never,
          side: r.tradeSide(),
          timestampMs: r.exchangeTs,
        });
        return;
      case KIND.RESOLVED: {
        const ev = { conditionId: r.conditionId, tokenId: r.tokenId(), exchangeTs: r.exchangeTs };
        for (const [token, mark] of this.o.resolutions.apply(ev, now, this.o.md, rt?.venue ?? null, rt?.ledger ?? null))
          this.noteMid(token, now, mark);
        return;
      }
      default:
      // MID records: the backtest's mids come from the books (the same rule for every recording).
    }
  }

  private onBook(r: ReplayRecord, now: number): void {
    const tokenId = r.tokenId();
    // An update of the universe is an observation whatever it holds: with cadence `update` a
    // cycle follows (a resolved market's books are not served to it: its quotes go stale).
    if (this.rt !== null && this.o.cadence === 'update' && this.universe.has(tokenId)) this.pushDue = true;
    // A resolved market's book is no market any more: its marks stay at the payouts.
    if (this.o.resolutions.isTokenResolved(tokenId)) return;
    let s = this.served.get(tokenId);
    if (s === undefined) {
      s = { later: null, book: null };
      this.served.set(tokenId, s);
      if (this.rt === null) this.o.md.applyBook(r.book()); // the universe resolves from the data's books
    }
    s.later = r.bookLater();
    s.book = null;
    this.noteMid(tokenId, now, midOf(r.bestBid(), r.bestAsk()));
    const rt = this.rt;
    if (rt === null) return;
    this.feedVenue(rt, r, tokenId);
  }

  private feedVenue(rt: Running, r: ReplayRecord, tokenId: string): void {
    const venue = rt.venue;
    const cid = this.o.md.conditionOf(tokenId);
    if (cid === undefined) return;
    if (!venue.hasMarket(cid)) {
      const s = this.o.md.settingsOf(cid);
      if (s === null) return;
      try {
        venue.addMarket(paperMarketFromSettings(s, this.o.feeSchedule));
      } catch (e) {
        if (e instanceof PaperError) return; // a market the venue cannot simulate: data only
        throw e;
      }
    }
    // One book per market, as the exchange keeps one (the NO book is the YES book mirrored): the
    // venue takes the YES token's, and the NO token's only while it has had no YES book.
    if (!this.feedsVenue(cid, tokenId)) return;
    if (r.kind === KIND.DELTA && venue.applyDelta !== undefined && this.venueHasBook.has(tokenId)) {
      venue.applyDelta(tokenId, r.changeCount, r.changePrice, r.changeSize, r.changeIsAsk, r.exchangeTs);
      return;
    }
    venue.applyBook(r.book());
    this.venueHasBook.add(tokenId);
  }

  private feedsVenue(cid: string, tokenId: string): boolean {
    let yes = this.yesOf.get(cid);
    if (yes === undefined) {
      yes = this.o.md.settingsOf(cid)?.tokens[0]?.tokenId ?? tokenId;
      this.yesOf.set(cid, yes);
    }
    return tokenId === yes || !this.venueHasBook.has(yes);
  }

  /** The daemon's poll: the universe's books as of now (resolved markets have none), mids from them. */
  snapshot(rt: Running): MarketSnapshot {
    const now = rt.clock.now();
    const books: Book[] = [];
    const mids = new Map<string, Price>();
    for (const tokenId of rt.tokens) {
      if (this.o.resolutions.isTokenResolved(tokenId)) continue;
      const s = this.served.get(tokenId);
      if (s === undefined) continue;
      if (s.book === null) s.book = (s.later as () => Book)();
      const b = s.book;
      // Served as the paper gateway serves a recorded book: stamped no older than now.
      books.push(b.timestampMs !== null && b.timestampMs >= now ? b : { ...b, timestampMs: now });
      const bid = b.bids[0];
      const ask = b.asks[0];
      const m = bid === undefined || ask === undefined ? null : midOf(bid.price, ask.price);
      if (m !== null) mids.set(tokenId, m);
    }
    return { receivedAtMs: now, books, mids, complete: true };
  }

  /** Runs a pending `update` cycle (the last instant of the recording). */
  flushPush(): void {
    if (this.rt !== null && this.pushDue) {
      this.pushDue = false;
      this.rt.driver.cycle(this.snapshot(this.rt));
    }
  }

  noteMid(tokenId: string, t: number, m: number | null): void {
    if (this.lastMid.get(tokenId) === m) return;
    this.lastMid.set(tokenId, m);
    if (m === null || !this.o.recordMids) return;
    let s = this.mids.get(tokenId);
    if (s === undefined) {
      s = [];
      this.mids.set(tokenId, s);
    }
    s.push([t, m]);
  }
}

// The latest market data per token: the book with its receive time (our clock) and the exchange's
// timestamp, the mid, and a ring of recent mids for strategies; per market, the trading settings
// kept as current as the last book. Invariants kept:
// - only tokens of the current universe are held: a book for any other token is counted and
//   ignored, and a token leaving the universe takes its data with it;
// - staleness is judged on the receive time by our injected clock (the exchange's clock may be
//   skewed from ours, and a backtest replays old exchange times): a token is stale when it has no
//   book or its book is older than `maxBookAgeMs`; a market is stale when either token is (both
//   outcomes are quoted off one order book, so half of it cannot be trusted alone);
// - the book's `tick_size` is current (docs/protocol.md §3: a market's tick can change while it
//   trades), so a book whose tick differs from the market's settings updates them and is
//   reported as a tick change; likewise `min_order_size`;
// - the mid is the exchange's /midpoints value when it sent one, else the book's own mid (exact,
//   half-even), else null (one-sided book);
// - recent mids are oldest first and at most `midHistory` long. They live in append-only columns
//   of times and mids (compacted by copying into new ones), so a window (a MidSeries) taken once
//   names the same samples forever, a push costs O(1) amortised and allocates nothing, and a
//   window costs no copy: samples as objects are made only for a strategy that reads them.
import { mid as bookMid, midSamples, type Book, type MidSample, type MidSeries } from '../core/book.js';
import { InvariantError } from '../core/errors.js';
import type { MarketSettings } from '../core/market-settings.js';
import type { Price, Shares } from '../core/money.js';
import type { MarketSnapshot, UniverseMarket, UniverseToken } from './types.js';

export interface TokenEntry {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly book: Book | null;
  /** When the book was received, our clock (epoch ms); null before the first book. */
  readonly bookAtMs: number | null;
  /** The book's own `timestamp` (exchange clock, epoch ms); null before the first book. */
  readonly exchangeTsMs: number | null;
  readonly mid: Price | null;
}

export interface CachedMarket {
  readonly conditionId: string;
  /** Settings with tick and minimum order size as the latest book has them. */
  readonly settings: MarketSettings;
  readonly tokens: readonly UniverseToken[];
}

export interface TickChange {
  readonly conditionId: string;
  readonly tokenId: string;
  readonly from: Price;
  readonly to: Price;
  readonly atMs: number;
}

export interface ApplyResult {
  /** Books stored. */
  readonly books: number;
  /** Books of tokens outside the universe (ignored). */
  readonly ignored: number;
  readonly tickChanges: readonly TickChange[];
}

export interface BookCacheOptions {
  readonly maxBookAgeMs: number;
  /** Recent mids kept per token (default 120: two minutes at one poll a second). */
  readonly midHistory?: number;
}

interface MutableToken {
  readonly tokenId: string;
  readonly conditionId: string;
  book: Book | null;
  bookAtMs: number | null;
  exchangeTsMs: number | null;
  mid: Price | null;
  /**
   * The recent mids, samples midStart … midEnd − 1: append-only columns (an entry is never
   * written twice; a full column is copied into a new one), so windows over them stay valid.
   */
  midAt: Float64Array;
  midVal: Float64Array;
  midStart: number;
  midEnd: number;
}

interface MutableMarket {
  readonly conditionId: string;
  /** Tick and minimum as the latest book sent them; null until a book carries them. */
  bookTick: Price | null;
  bookMin: Shares | null;
  /** The universe's settings with the book's tick and minimum laid over them. */
  settings: MarketSettings;
  tokens: readonly UniverseToken[];
}

/** The columns of a token with no mid yet (full: the first push makes its own). */
const NO_COLUMN = new Float64Array(0);

export class BookCache {
  readonly maxBookAgeMs: number;
  private readonly midHistory: number;
  private readonly tokens = new Map<string, MutableToken>();
  private readonly marketsById = new Map<string, MutableMarket>();
  private marketList: CachedMarket[] = [];
  private tokenList: string[] = [];
  /** mids() until a mid changes or the universe does; null: to build. */
  private midMap: ReadonlyMap<string, Price> | null = null;

  constructor(opts: BookCacheOptions) {
    if (!Number.isSafeInteger(opts.maxBookAgeMs) || opts.maxBookAgeMs <= 0)
      throw new InvariantError(`maxBookAgeMs must be a positive integer, got ${String(opts.maxBookAgeMs)}`);
    const h = opts.midHistory ?? 120;
    if (!Number.isSafeInteger(h) || h < 1)
      throw new InvariantError(`midHistory must be a positive integer, got ${String(h)}`);
    this.maxBookAgeMs = opts.maxBookAgeMs;
    this.midHistory = h;
  }

  /**
   * Replaces the universe. Markets and tokens that stay keep their data (books, mids, the tick
   * learned from books); new ones start empty; the rest are dropped.
   */
  setUniverse(markets: readonly UniverseMarket[]): void {
    const keepTokens = new Set<string>();
    const keepMarkets = new Set<string>();
    for (const m of markets) {
      if (keepMarkets.has(m.conditionId))
        throw new InvariantError(`market ${m.conditionId} appears twice in the universe`);
      keepMarkets.add(m.conditionId);
      for (const t of m.tokens) {
        if (keepTokens.has(t.tokenId)) throw new InvariantError(`token ${t.tokenId} appears twice in the universe`);
        keepTokens.add(t.tokenId);
      }
    }
    this.midMap = null;
    for (const id of [...this.tokens.keys()]) if (!keepTokens.has(id)) this.tokens.delete(id);
    for (const id of [...this.marketsById.keys()]) if (!keepMarkets.has(id)) this.marketsById.delete(id);

    for (const m of markets) {
      const old = this.marketsById.get(m.conditionId);
      if (old === undefined) {
        this.marketsById.set(m.conditionId, {
          conditionId: m.conditionId,
          bookTick: null,
          bookMin: null,
          settings: m.settings,
          tokens: m.tokens,
        });
      } else {
        // Fresh settings from the exchange, but the tick and minimum a book showed stay until
        // the next book says otherwise (a book is the most current source).
        old.settings = overlay(m.settings, old.bookTick, old.bookMin);
        old.tokens = m.tokens;
      }
      for (const t of m.tokens) {
        const e = this.tokens.get(t.tokenId);
        if (e === undefined || e.conditionId !== m.conditionId) {
          this.tokens.set(t.tokenId, {
            tokenId: t.tokenId,
            conditionId: m.conditionId,
            book: null,
            bookAtMs: null,
            exchangeTsMs: null,
            mid: null,
            midAt: NO_COLUMN,
            midVal: NO_COLUMN,
            midStart: 0,
            midEnd: 0,
          });
        }
      }
    }
    this.rebuildLists(markets.map((m) => m.conditionId));
  }

  /** Stores one poll's books and mids. */
  apply(snapshot: Pick<MarketSnapshot, 'receivedAtMs' | 'books' | 'mids'>): ApplyResult {
    const at = snapshot.receivedAtMs;
    let stored = 0;
    let ignored = 0;
    const tickChanges: TickChange[] = [];
    let settingsChanged = false;
    const seen = new Set<string>();
    for (const book of snapshot.books) {
      const e = this.tokens.get(book.assetId);
      if (e === undefined) {
        ignored++;
        continue;
      }
      e.book = book;
      e.bookAtMs = at;
      e.exchangeTsMs = book.timestampMs;
      stored++;
      seen.add(e.tokenId);
      const m = this.marketsById.get(e.conditionId);
      if (m !== undefined) {
        const tick = book.tickSize;
        const min = book.minOrderSize;
        if (tick !== null) m.bookTick = tick;
        if (min !== null) m.bookMin = min;
        if ((tick !== null && tick !== m.settings.tickSize) || (min !== null && min !== m.settings.minOrderSize)) {
          if (tick !== null && tick !== m.settings.tickSize) {
            tickChanges.push({
              conditionId: m.conditionId,
              tokenId: e.tokenId,
              from: m.settings.tickSize,
              to: tick,
              atMs: at,
            });
          }
          m.settings = overlay(m.settings, tick, min);
          settingsChanged = true;
        }
      }
    }
    for (const e of this.tokens.values()) {
      const exchangeMid = snapshot.mids.get(e.tokenId);
      let mid: Price | null;
      if (exchangeMid !== undefined) mid = exchangeMid;
      else if (seen.has(e.tokenId)) mid = e.book === null ? null : bookMid(e.book, 'half-even');
      else continue;
      if (mid !== e.mid) {
        e.mid = mid;
        this.midMap = null;
      }
      if (mid !== null) this.pushMid(e, at, mid);
    }
    if (settingsChanged) this.rebuildLists(this.marketList.map((m) => m.conditionId));
    return { books: stored, ignored, tickChanges };
  }

  /** Markets of the universe, in universe order, with their current settings. */
  markets(): readonly CachedMarket[] {
    return this.marketList;
  }

  market(conditionId: string): CachedMarket | undefined {
    const m = this.marketsById.get(conditionId);
    return m === undefined ? undefined : { conditionId: m.conditionId, settings: m.settings, tokens: m.tokens };
  }

  /** Every token to poll, in universe order. */
  tokenIds(): readonly string[] {
    return this.tokenList;
  }

  token(tokenId: string): TokenEntry | undefined {
    return this.tokens.get(tokenId);
  }

  /** The token's recent mids, oldest first (a fresh array). */
  recentMids(tokenId: string): readonly MidSample[] {
    const w = this.midWindow(tokenId);
    return w === null ? [] : midSamples(w);
  }

  /** The token's recent mids as a window that later polls never change; null for an unknown token. */
  midWindow(tokenId: string): MidSeries | null {
    const e = this.tokens.get(tokenId);
    return e === undefined ? null : { atMs: e.midAt, mid: e.midVal, start: e.midStart, end: e.midEnd };
  }

  isTokenStale(tokenId: string, nowMs: number): boolean {
    const e = this.tokens.get(tokenId);
    return e === undefined || e.bookAtMs === null || nowMs - e.bookAtMs > this.maxBookAgeMs;
  }

  isMarketStale(conditionId: string, nowMs: number): boolean {
    const m = this.marketsById.get(conditionId);
    if (m === undefined) return true;
    for (const t of m.tokens) if (this.isTokenStale(t.tokenId, nowMs)) return true;
    return false;
  }

  /**
   * When the market's data was last complete: the older receive time of its tokens' books, null
   * if one has none. Quotes on either token are judged by this time, so either token going stale
   * pulls the quotes of both.
   */
  marketDataAtMs(conditionId: string): number | null {
    const m = this.marketsById.get(conditionId);
    if (m === undefined) return null;
    let oldest: number | null = null;
    for (const t of m.tokens) {
      const at = this.tokens.get(t.tokenId)?.bookAtMs ?? null;
      if (at === null) return null;
      oldest = oldest === null ? at : Math.min(oldest, at);
    }
    return oldest;
  }

  staleMarkets(nowMs: number): string[] {
    return this.marketList.filter((m) => this.isMarketStale(m.conditionId, nowMs)).map((m) => m.conditionId);
  }

  /**
   * Current mids of every token that has one (marks for PnL). One map while no mid changes (a
   * cycle asks for it at least once): it is never written after it is handed out, so a caller
   * may keep it.
   */
  mids(): ReadonlyMap<string, Price> {
    if (this.midMap !== null) return this.midMap;
    const out = new Map<string, Price>();
    for (const e of this.tokens.values()) if (e.mid !== null) out.set(e.tokenId, e.mid);
    this.midMap = out;
    return out;
  }

  /**
   * Appends a sample and drops the oldest beyond midHistory. A full column is copied (its live
   * part) into new ones twice the history long, never written in place: a copy every
   * midHistory pushes once the history is full.
   */
  private pushMid(e: MutableToken, atMs: number, mid: Price): void {
    if (e.midEnd === e.midAt.length) {
      const n = e.midEnd - e.midStart;
      const size = Math.min(2 * this.midHistory, Math.max(16, 2 * e.midAt.length));
      const at = new Float64Array(Math.max(size, n + 1));
      const val = new Float64Array(at.length);
      at.set(e.midAt.subarray(e.midStart, e.midEnd));
      val.set(e.midVal.subarray(e.midStart, e.midEnd));
      e.midAt = at;
      e.midVal = val;
      e.midStart = 0;
      e.midEnd = n;
    }
    e.midAt[e.midEnd] = atMs;
    e.midVal[e.midEnd] = mid;
    e.midEnd++;
    if (e.midEnd - e.midStart > this.midHistory) e.midStart++;
  }

  private rebuildLists(order: readonly string[]): void {
    const list: CachedMarket[] = [];
    const ids: string[] = [];
    for (const id of order) {
      const m = this.marketsById.get(id);
      if (m === undefined) continue;
      list.push({ conditionId: m.conditionId, settings: m.settings, tokens: m.tokens });
      for (const t of m.tokens) ids.push(t.tokenId);
    }
    this.marketList = list;
    this.tokenList = ids;
  }
}

function overlay(s: MarketSettings, tick: Price | null, min: Shares | null): MarketSettings {
  if ((tick === null || tick === s.tickSize) && (min === null || min === s.minOrderSize)) return s;
  return { ...s, tickSize: tick ?? s.tickSize, minOrderSize: min ?? s.minOrderSize };
}

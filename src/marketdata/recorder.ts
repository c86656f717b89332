// The daemon-side recorder: turns what the poller brings back (MarketSnapshot: books and mids with
// our receive time and the exchange's book timestamps) and the universe's market settings into
// records of a RecordingWriter (FORMAT.md). Invariants kept:
// - a token's settings are recorded before its first book, and again whenever they change (the
//   universe's settings, or a book reporting a new tick, minimum size or neg-risk flag);
// - the first book of a token (and any book whose last-trade price moved, which a DELTA cannot
//   carry) is a full BOOK; every later poll of it is a DELTA of the levels that changed since the
//   previous poll, an empty one when nothing did, so every poll's timestamps are kept; the writer
//   restates full books at each chunk start, so the file stays seekable and crash-safe;
// - every polled midpoint is a MID, stamped with its token's book timestamp from the same poll
//   (the /midpoints answer has none of its own), else our receive time;
// - timing only through the injected clock: start() seals a chunk every flushIntervalMs, stop()
//   seals the last one; a write failure is reported (onError), never thrown into the poll loop.
// - public trades (with a `trades` source): the recorded markets' trades from GET /trades, taker
//   rows only (trade-tape.ts: round-robin, rate-budgeted, deduplicated, oldest first), as TRADE
//   records stamped with the trade's second-resolution exchange time and our receive time; a
//   trade of a token without settings is skipped (counted);
// - the daemon's OWN trades are recorded like any other (they happened). With taker rows a
//   trade that hit one of our resting quotes shows the external taker, and it is exactly the flow
//   a backtest's equivalent resting quote must meet (parity); a trade we took shows our wallet as
//   taker: it can only reach resting orders on the other side at or through the price we took at,
//   which the strategy that took them does not hold, so the backtest does not count it twice (a
//   different strategy replayed on this recording does see that flow, as it saw the books);
// - RESOLVED: once per market, when told a recorded market closed with a winning token.
// - our own quotes are not market data: when the daemon records while it quotes, it hands each
//   snapshot with its resting orders (acknowledged `live`, remaining size), and their size is taken
//   out of the recorded books, at their price on their token's book and mirrored (1 − p, the other
//   side) on the complement's, which shows them too; a level left empty is dropped. A backtest of
//   the recording then puts its own orders into the book the others made, instead of finding its
//   twin already queued ahead of it. A book changed so records no hash (it would not match).
// Not recorded: a snapshot marked incomplete brings no books; its mids (if any) are kept.
import type { Book, Level } from '../core/book.js';
import type { Clock, TimerId } from '../core/clock.js';
import type { Trade } from '../core/market.js';
import { SCALE, type Price, type Shares } from '../core/money.js';
import type { LiveOrder } from '../core/order.js';
import type { LevelChange, RecordedMarketSettings, TradeObservation } from './recording/format.js';
import type { RecordSink } from './recording/writer.js';
import { TradeTape, type TradeTapeOptions, type TradesFetch } from './trade-tape.js';
import type { MarketSnapshot, UniverseMarket } from './types.js';
import { OptionError } from '../core/errors.js';

export interface FlushableSink extends RecordSink {
  flush(): Promise<void>;
  trade(tokenId: string, exchangeTs: number, localTs: number, trade: TradeObservation): void;
  resolved(conditionId: string, winnerTokenId: string, exchangeTs: number, localTs: number): void;
}

/** Where public trades come from (GET /trades, taker rows) and how fast to poll them. */
export interface RecorderTradesOptions extends Pick<
  TradeTapeOptions,
  'intervalMs' | 'budget' | 'pageSize' | 'horizonSec'
> {
  readonly fetch: TradesFetch;
}

/** A market's resolution as market listings show it (`closed`, `tokens[].winner`). */
export interface MarketResolution {
  readonly conditionId: string;
  readonly closed: boolean;
  readonly tokens: ReadonlyArray<{ readonly tokenId: string | null; readonly winner: boolean }>;
}

export interface RecorderOptions {
  readonly clock: Clock;
  readonly sink: FlushableSink;
  /** How often the open chunk is sealed and written (default 5000 ms). */
  readonly flushIntervalMs?: number;
  readonly onError?: (err: unknown) => void;
  /** After each successful flush, with the stats then. */
  readonly onFlush?: (stats: Readonly<RecorderStats>) => void;
  /** Record the recorded markets' public trades from this source (started by start()). */
  readonly trades?: RecorderTradesOptions;
  /** Told the universe each time it is recorded (the labels sidecar: recording/universe-labels.ts). */
  readonly onMarkets?: (markets: readonly UniverseMarket[]) => void;
}

export interface RecorderStats {
  books: number;
  deltas: number;
  mids: number;
  settings: number;
  flushes: number;
  trades: number;
  /** Trades not recordable: token without settings, or price/size out of range. */
  tradesSkipped: number;
  resolved: number;
}

interface Held {
  readonly bids: ReadonlyMap<number, number>;
  readonly asks: ReadonlyMap<number, number>;
  readonly lastTradePrice: Price | null;
}

/** One of the recording daemon's orders, as its order manager lists it. */
export type OwnResting = Pick<LiveOrder, 'tokenId' | 'side' | 'price' | 'originalSize' | 'sizeMatched' | 'state'>;

interface OwnLevels {
  readonly bids: Map<number, number>;
  readonly asks: Map<number, number>;
}

/** `b` less our resting sizes (levels emptied are dropped; the hash goes, as it no longer matches). */
function withoutOwn(b: Book, mine: OwnLevels): Book {
  const less = (levels: readonly Level[], ours: ReadonlyMap<number, number>): Level[] | null => {
    if (ours.size === 0) return null;
    let changed = false;
    const out: Level[] = [];
    for (const l of levels) {
      const o = ours.get(l.price);
      if (o === undefined) {
        out.push(l);
        continue;
      }
      changed = true;
      const left = l.size - o;
      if (left > 0) out.push({ price: l.price, size: left as Shares });
    }
    return changed ? out : null;
  };
  const bids = less(b.bids, mine.bids);
  const asks = less(b.asks, mine.asks);
  if (bids === null && asks === null) return b;
  return { ...b, hash: '', bids: bids ?? b.bids, asks: asks ?? b.asks };
}

function levelMap(levels: readonly Level[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const l of levels) m.set(l.price, l.size);
  return m;
}

/** The changes that turn `before` into `after`, removals (size 0) included, in price order. */
export function sideChanges(
  side: 'bids' | 'asks',
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
): LevelChange[] {
  const out: LevelChange[] = [];
  for (const [price, size] of after)
    if (before.get(price) !== size) out.push({ side, price: price as Price, size: size as Shares });
  for (const price of before.keys())
    if (!after.has(price)) out.push({ side, price: price as Price, size: 0 as Shares });
  return out.sort((a, b) => a.price - b.price);
}

function sameSettings(a: RecordedMarketSettings, b: RecordedMarketSettings): boolean {
  return (
    a.tokenId === b.tokenId &&
    a.conditionId === b.conditionId &&
    a.tickSize === b.tickSize &&
    a.minOrderSize === b.minOrderSize &&
    a.negRisk === b.negRisk &&
    a.makerFeeBps === b.makerFeeBps &&
    a.takerFeeBps === b.takerFeeBps &&
    (a.rewards === null
      ? b.rewards === null
      : b.rewards !== null &&
        a.rewards.dailyRate === b.rewards.dailyRate &&
        a.rewards.minSize === b.rewards.minSize &&
        a.rewards.maxSpread === b.rewards.maxSpread)
  );
}

/** The recorded settings of every token of a universe market. */
export function recordedSettings(m: UniverseMarket): RecordedMarketSettings[] {
  const s = m.settings;
  return m.tokens.map((t) => ({
    tokenId: t.tokenId,
    conditionId: m.conditionId,
    tickSize: s.tickSize,
    minOrderSize: s.minOrderSize,
    negRisk: s.negRisk,
    makerFeeBps: s.makerBaseFeeBps,
    takerFeeBps: s.takerBaseFeeBps,
    rewards:
      s.rewards === null
        ? null
        : { dailyRate: s.rewards.dailyRate, minSize: s.rewards.minSize, maxSpread: s.rewards.maxSpread },
  }));
}

export class MarketRecorder {
  private readonly held = new Map<string, Held>();
  private timer: TimerId | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly s: RecorderStats = {
    books: 0,
    deltas: 0,
    mids: 0,
    settings: 0,
    flushes: 0,
    trades: 0,
    tradesSkipped: 0,
    resolved: 0,
  };
  private readonly tape: TradeTape | null;
  private readonly resolvedMarkets = new Set<string>();
  /** Token → its complement (from the universe), to mirror our orders onto the other book. */
  private readonly complements = new Map<string, string>();

  constructor(private readonly opts: RecorderOptions) {
    const iv = opts.flushIntervalMs ?? 5000;
    if (!Number.isSafeInteger(iv) || iv <= 0)
      throw new OptionError('MARKETDATA_OPTION', `flush interval must be a positive integer, got ${String(iv)}`);
    const t = opts.trades;
    this.tape =
      t === undefined
        ? null
        : new TradeTape({
            clock: opts.clock,
            fetch: t.fetch,
            onTrade: (tr, local) => {
              this.trade(tr, local);
            },
            onError: (err) => {
              this.report(err);
            },
            ...(t.intervalMs !== undefined ? { intervalMs: t.intervalMs } : {}),
            ...(t.budget !== undefined ? { budget: t.budget } : {}),
            ...(t.pageSize !== undefined ? { pageSize: t.pageSize } : {}),
            ...(t.horizonSec !== undefined ? { horizonSec: t.horizonSec } : {}),
          });
  }

  /** The trade tape's counters (requests, deferred turns, errors), when trades are recorded. */
  tapeStats(): Readonly<TradeTape['stats']> | null {
    return this.tape === null ? null : { ...this.tape.stats };
  }

  stats(): Readonly<RecorderStats> {
    return { ...this.s };
  }

  /** Starts the periodic flush (and the trade polling, with a trades source). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = this.opts.clock.setInterval(() => {
      void this.flush();
    }, this.opts.flushIntervalMs ?? 5000);
    this.tape?.start();
  }

  /** Stops the periodic flush and the trade polling and writes everything recorded so far. */
  async stop(): Promise<void> {
    if (this.timer !== null) {
      this.opts.clock.clearInterval(this.timer);
      this.timer = null;
    }
    await this.tape?.stop();
    await this.flush();
  }

  /** Seals the open chunk and waits for the write; failures go to onError. Flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      try {
        await this.opts.sink.flush();
        this.s.flushes++;
        this.opts.onFlush?.(this.stats());
      } catch (err) {
        this.report(err);
      }
    });
    return this.flushing;
  }

  /** Resolves once every flush started so far has finished. */
  settled(): Promise<void> {
    return this.flushing;
  }

  /** Records the settings of the universe's markets (only those new or changed). */
  markets(markets: readonly UniverseMarket[], atMs: number = this.opts.clock.now()): void {
    for (const m of markets) for (const s of recordedSettings(m)) this.putSettings(s, atMs, atMs);
    for (const m of markets)
      for (const t of m.tokens) if (t.complementTokenId !== null) this.complements.set(t.tokenId, t.complementTokenId);
    this.tape?.setMarkets(markets.map((m) => m.conditionId));
    this.opts.onMarkets?.(markets);
  }

  /**
   * Records RESOLVED for each market that is closed with exactly one winning token whose settings
   * are recorded (a market never recorded is not ours to report), once per market.
   */
  resolutions(markets: readonly MarketResolution[], atMs: number = this.opts.clock.now()): void {
    try {
      for (const m of markets) {
        if (!m.closed || this.resolvedMarkets.has(m.conditionId)) continue;
        const winners = m.tokens.filter((t) => t.winner && t.tokenId !== null);
        if (winners.length !== 1) continue;
        const winner = (winners[0] as { tokenId: string }).tokenId;
        const s = this.opts.sink.settingsOf(winner);
        if (s === undefined || s.conditionId !== m.conditionId) continue;
        this.opts.sink.resolved(m.conditionId, winner, atMs, atMs);
        this.resolvedMarkets.add(m.conditionId);
        this.s.resolved++;
      }
    } catch (err) {
      this.report(err);
    }
  }

  /** One public trade (from the tape), as a TRADE record. */
  private trade(t: Trade, localTs: number): void {
    if (this.opts.sink.settingsOf(t.asset) === undefined || !(t.price > 0 && t.price < SCALE) || !(t.size > 0)) {
      this.s.tradesSkipped++;
      return;
    }
    try {
      this.opts.sink.trade(t.asset, t.timestamp * 1000, localTs, { price: t.price, size: t.size, side: t.side });
      this.s.trades++;
    } catch (err) {
      this.report(err);
    }
  }

  /**
   * Records one poll: its books (as books or deltas) and its mids. `own`: the recording daemon's
   * resting orders at the time, taken out of the books (see the header).
   */
  snapshot(snap: MarketSnapshot, own: readonly OwnResting[] = []): void {
    try {
      const local = snap.receivedAtMs;
      const exTs = new Map<string, number>();
      const ours = own.length === 0 ? null : this.ownByBook(own);
      for (const b of snap.books) {
        // A book the exchange sent without a time is stamped with its receive time.
        exTs.set(b.assetId, b.timestampMs ?? local);
        const mine = ours?.get(b.assetId);
        this.book(mine === undefined ? b : withoutOwn(b, mine), local);
      }
      for (const [token, mid] of snap.mids) {
        // A mid of a token never described (no settings) cannot be recorded: the format needs them.
        if (this.opts.sink.settingsOf(token) === undefined) continue;
        this.opts.sink.mid(token, exTs.get(token) ?? local, local, mid);
        this.s.mids++;
      }
    } catch (err) {
      this.report(err);
    }
  }

  /** Our resting sizes per token book, by side and price, mirrored onto complements. */
  private ownByBook(own: readonly OwnResting[]): Map<string, OwnLevels> {
    const out = new Map<string, OwnLevels>();
    const add = (token: string, side: 'bids' | 'asks', price: number, size: number): void => {
      let m = out.get(token);
      if (m === undefined) {
        m = { bids: new Map(), asks: new Map() };
        out.set(token, m);
      }
      m[side].set(price, (m[side].get(price) ?? 0) + size);
    };
    for (const o of own) {
      const left = o.originalSize - o.sizeMatched;
      if (o.state !== 'live' || left <= 0) continue;
      add(o.tokenId, o.side === 'BUY' ? 'bids' : 'asks', o.price, left);
      const c = this.complements.get(o.tokenId);
      if (c !== undefined) add(c, o.side === 'BUY' ? 'asks' : 'bids', SCALE - o.price, left);
    }
    return out;
  }

  private book(b: Book, local: number): void {
    const known = this.opts.sink.settingsOf(b.assetId);
    // The book's own tick, minimum and neg-risk flag are the freshest values; fees and rewards
    // come from the universe's settings when the token has them.
    const next: RecordedMarketSettings = {
      tokenId: b.assetId,
      conditionId: b.market !== '' ? b.market : (known?.conditionId ?? ''),
      tickSize: b.tickSize ?? known?.tickSize ?? null,
      minOrderSize: b.minOrderSize ?? known?.minOrderSize ?? null,
      negRisk: b.negRisk ?? known?.negRisk ?? null,
      makerFeeBps: known?.makerFeeBps ?? null,
      takerFeeBps: known?.takerFeeBps ?? null,
      rewards: known?.rewards ?? null,
    };
    const exTs = b.timestampMs ?? local;
    this.putSettings(next, exTs, local);
    const bids = levelMap(b.bids);
    const asks = levelMap(b.asks);
    const prev = this.held.get(b.assetId);
    if (prev === undefined || prev.lastTradePrice !== b.lastTradePrice) {
      this.opts.sink.book(b.assetId, exTs, local, {
        bids: b.bids,
        asks: b.asks,
        hash: b.hash,
        lastTradePrice: b.lastTradePrice,
      });
      this.s.books++;
    } else {
      const changes = [...sideChanges('bids', prev.bids, bids), ...sideChanges('asks', prev.asks, asks)];
      this.opts.sink.delta(b.assetId, exTs, local, changes);
      this.s.deltas++;
    }
    this.held.set(b.assetId, { bids, asks, lastTradePrice: b.lastTradePrice });
  }

  private putSettings(s: RecordedMarketSettings, exchangeTs: number, localTs: number): void {
    const cur = this.opts.sink.settingsOf(s.tokenId);
    if (cur !== undefined && sameSettings(cur, s)) return;
    this.opts.sink.settings(s, exchangeTs, localTs);
    this.s.settings++;
  }

  private report(err: unknown): void {
    try {
      this.opts.onError?.(err);
    } catch {
      /* a reporting hook must not break recording */
    }
  }
}

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
// Not recorded: a snapshot marked incomplete brings no books; its mids (if any) are kept.
import type { Book, Level } from '../core/book.js';
import type { Clock, TimerId } from '../core/clock.js';
import type { Price, Shares } from '../core/money.js';
import type { LevelChange, MarketSettings as RecordedSettings } from './recording/format.js';
import type { RecordSink } from './recording/writer.js';
import type { MarketSnapshot, UniverseMarket } from './types.js';

export interface FlushableSink extends RecordSink {
  flush(): Promise<void>;
}

export interface RecorderOptions {
  readonly clock: Clock;
  readonly sink: FlushableSink;
  /** How often the open chunk is sealed and written (default 5000 ms). */
  readonly flushIntervalMs?: number;
  readonly onError?: (err: unknown) => void;
  /** After each successful flush, with the stats then. */
  readonly onFlush?: (stats: Readonly<RecorderStats>) => void;
}

export interface RecorderStats {
  books: number;
  deltas: number;
  mids: number;
  settings: number;
  flushes: number;
}

interface Held {
  readonly bids: ReadonlyMap<number, number>;
  readonly asks: ReadonlyMap<number, number>;
  readonly lastTradePrice: Price | null;
}

function levelMap(levels: readonly Level[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const l of levels) m.set(l.price, l.size);
  return m;
}

/** The changes that turn `before` into `after`, removals (size 0) included, in price order. */
export function sideChanges(side: 'bids' | 'asks', before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): LevelChange[] {
  const out: LevelChange[] = [];
  for (const [price, size] of after) if (before.get(price) !== size) out.push({ side, price: price as Price, size: size as Shares });
  for (const price of before.keys()) if (!after.has(price)) out.push({ side, price: price as Price, size: 0 as Shares });
  return out.sort((a, b) => a.price - b.price);
}

function sameSettings(a: RecordedSettings, b: RecordedSettings): boolean {
  return a.tokenId === b.tokenId && a.conditionId === b.conditionId && a.tickSize === b.tickSize && a.minOrderSize === b.minOrderSize
    && a.negRisk === b.negRisk && a.makerFeeBps === b.makerFeeBps && a.takerFeeBps === b.takerFeeBps
    && (a.rewards === null ? b.rewards === null
      : b.rewards !== null && a.rewards.dailyRate === b.rewards.dailyRate && a.rewards.minSize === b.rewards.minSize && a.rewards.maxSpread === b.rewards.maxSpread);
}

/** The recorded settings of every token of a universe market. */
export function recordedSettings(m: UniverseMarket): RecordedSettings[] {
  const s = m.settings;
  return m.tokens.map((t) => ({
    tokenId: t.tokenId,
    conditionId: m.conditionId,
    tickSize: s.tickSize,
    minOrderSize: s.minOrderSize,
    negRisk: s.negRisk,
    makerFeeBps: s.makerBaseFeeBps,
    takerFeeBps: s.takerBaseFeeBps,
    rewards: s.rewards === null ? null : { dailyRate: s.rewards.dailyRate, minSize: s.rewards.minSize, maxSpread: s.rewards.maxSpread },
  }));
}

export class MarketRecorder {
  private readonly held = new Map<string, Held>();
  private timer: TimerId | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly s: RecorderStats = { books: 0, deltas: 0, mids: 0, settings: 0, flushes: 0 };

  constructor(private readonly opts: RecorderOptions) {
    const iv = opts.flushIntervalMs ?? 5000;
    if (!Number.isSafeInteger(iv) || iv <= 0) throw new RangeError(`flush interval must be a positive integer, got ${String(iv)}`);
  }

  stats(): Readonly<RecorderStats> {
    return { ...this.s };
  }

  /** Starts the periodic flush. */
  start(): void {
    if (this.timer !== null) return;
    this.timer = this.opts.clock.setInterval(() => { void this.flush(); }, this.opts.flushIntervalMs ?? 5000);
  }

  /** Stops the periodic flush and writes everything recorded so far. */
  async stop(): Promise<void> {
    if (this.timer !== null) { this.opts.clock.clearInterval(this.timer); this.timer = null; }
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
  }

  /** Records one poll: its books (as books or deltas) and its mids. */
  snapshot(snap: MarketSnapshot): void {
    try {
      const local = snap.receivedAtMs;
      const exTs = new Map<string, number>();
      for (const b of snap.books) {
        exTs.set(b.assetId, b.timestampMs);
        this.book(b, local);
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

  private book(b: Book, local: number): void {
    const known = this.opts.sink.settingsOf(b.assetId);
    // The book's own tick, minimum and neg-risk flag are the freshest values; fees and rewards
    // come from the universe's settings when the token has them.
    const next: RecordedSettings = {
      tokenId: b.assetId,
      conditionId: b.market !== '' ? b.market : known?.conditionId ?? '',
      tickSize: b.tickSize ?? known?.tickSize ?? null,
      minOrderSize: b.minOrderSize ?? known?.minOrderSize ?? null,
      negRisk: b.negRisk ?? known?.negRisk ?? null,
      makerFeeBps: known?.makerFeeBps ?? null,
      takerFeeBps: known?.takerFeeBps ?? null,
      rewards: known?.rewards ?? null,
    };
    this.putSettings(next, b.timestampMs, local);
    const bids = levelMap(b.bids);
    const asks = levelMap(b.asks);
    const prev = this.held.get(b.assetId);
    if (prev === undefined || prev.lastTradePrice !== b.lastTradePrice) {
      this.opts.sink.book(b.assetId, b.timestampMs, local, { bids: b.bids, asks: b.asks, hash: b.hash, lastTradePrice: b.lastTradePrice });
      this.s.books++;
    } else {
      const changes = [...sideChanges('bids', prev.bids, bids), ...sideChanges('asks', prev.asks, asks)];
      this.opts.sink.delta(b.assetId, b.timestampMs, local, changes);
      this.s.deltas++;
    }
    this.held.set(b.assetId, { bids, asks, lastTradePrice: b.lastTradePrice });
  }

  private putSettings(s: RecordedSettings, exchangeTs: number, localTs: number): void {
    const cur = this.opts.sink.settingsOf(s.tokenId);
    if (cur !== undefined && sameSettings(cur, s)) return;
    this.opts.sink.settings(s, exchangeTs, localTs);
    this.s.settings++;
  }

  private report(err: unknown): void {
    try { this.opts.onError?.(err); } catch { /* a reporting hook must not break recording */ }
  }
}

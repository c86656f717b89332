// Imports the CLOB market channel (one JSON message per line: `book`, `price_change`,
// `tick_size_change`, …) into a recording. Invariants:
// - wire values enter only through the exchange parsers (parseBook, readPrice, readShares), so a
//   malformed message throws ParseError naming its line and field, never records a guess;
// - a token's settings are recorded before its first book or delta: from its `book` message when
//   it has one, otherwise (a complement token first seen in a price_change) with the tick its
//   market's other token announced, or null;
// - the feed carries no local timestamps: localTs is the exchange timestamp unless the caller
//   supplies a function (the live recorder passes its own clock's reading);
// - `last_trade_price` is a TRADE (price, size, the taker's side, ms timestamp) when the sink takes
//   trades (a book-only sink skips it, counted); its fee rate is not kept;
// - messages of other kinds are counted in `skipped`, not recorded.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Book, TimedBook } from '../../../core/book.js';
import { ParseError } from '../../../core/errors.js';
import { SCALE, type Price } from '../../../core/money.js';
import { isKnownTick } from '../../../core/tick.js';
import { parseBook } from '../../../exchange/parse/book.js';
import { readPrice, readShares } from '../../../exchange/parse/decimal.js';
import { arr, at, idx, nonEmpty, obj, oneOf, uintString } from '../../../exchange/parse/read.js';
import { sameSettings, type LevelChange, type RecordedMarketSettings } from '../format.js';
import type { RecordSink } from '../writer.js';

export interface StreamImportOptions {
  /** localTs for a message with this exchange timestamp; default: the exchange timestamp. */
  readonly localTs?: (exchangeTs: number) => number;
}

export interface StreamImportStats {
  messages: number;
  books: number;
  priceChanges: number;
  /** Delta records written (one per token per price_change message). */
  deltas: number;
  levelChanges: number;
  tickChanges: number;
  trades: number;
  skipped: Record<string, number>;
}

/** Imports messages one by one; keeps the per-market tick it learnt across calls. */
export class MarketStreamImporter {
  readonly stats: StreamImportStats = {
    messages: 0,
    books: 0,
    priceChanges: 0,
    deltas: 0,
    levelChanges: 0,
    tickChanges: 0,
    trades: 0,
    skipped: {},
  };
  private readonly marketTick = new Map<string, Price>();

  constructor(
    private readonly sink: RecordSink,
    private readonly opts: StreamImportOptions = {},
  ) {}

  /** One parsed JSON message (an object, or an array of them as the channel sometimes sends). */
  message(json: unknown, path = ''): void {
    if (Array.isArray(json)) {
      json.forEach((m, i) => this.message(m, idx(path, i)));
      return;
    }
    const o = obj(json, path);
    this.stats.messages++;
    const type = o['event_type'];
    if (type === 'book' || (type === undefined && 'bids' in o)) this.book(parseBook(o, path));
    else if (type === 'price_change') this.priceChange(o, path);
    else if (type === 'tick_size_change') this.tickChange(o, path);
    else if (type === 'last_trade_price' && this.sink.trade !== undefined) this.trade(o, path);
    else {
      const k = typeof type === 'string' ? type : '(none)';
      this.stats.skipped[k] = (this.stats.skipped[k] ?? 0) + 1;
    }
  }

  private local(ts: number): number {
    return this.opts.localTs === undefined ? ts : this.opts.localTs(ts);
  }

  private ensureSettings(tokenId: string, conditionId: string, ts: number, fromBook: Book | null): void {
    const prev = this.sink.settingsOf(tokenId);
    const tick = fromBook?.tickSize ?? prev?.tickSize ?? this.marketTick.get(conditionId) ?? null;
    if (tick !== null) this.marketTick.set(conditionId, tick);
    const next: RecordedMarketSettings = {
      tokenId,
      conditionId,
      tickSize: tick,
      minOrderSize: fromBook?.minOrderSize ?? prev?.minOrderSize ?? null,
      negRisk: fromBook?.negRisk ?? prev?.negRisk ?? null,
      makerFeeBps: prev?.makerFeeBps ?? null,
      takerFeeBps: prev?.takerFeeBps ?? null,
      rewards: prev?.rewards ?? null,
    };
    if (prev !== undefined && sameSettings(prev, next)) return;
    this.sink.settings(next, ts, this.local(ts));
  }

  private book(b: TimedBook): void {
    this.stats.books++;
    this.ensureSettings(b.assetId, b.market, b.timestampMs, b);
    this.sink.book(b.assetId, b.timestampMs, this.local(b.timestampMs), {
      bids: b.bids,
      asks: b.asks,
      hash: b.hash,
      lastTradePrice: b.lastTradePrice,
    });
  }

  private priceChange(o: Record<string, unknown>, path: string): void {
    this.stats.priceChanges++;
    const market = nonEmpty(o['market'], at(path, 'market'));
    const ts = uintString(o['timestamp'], at(path, 'timestamp'));
    const list = arr(o['price_changes'], at(path, 'price_changes'));
    // Group by token, keeping the message's order within each token.
    const byToken = new Map<string, LevelChange[]>();
    list.forEach((c, i) => {
      const p = idx(at(path, 'price_changes'), i);
      const co = obj(c, p);
      const tokenId = nonEmpty(co['asset_id'], at(p, 'asset_id'));
      const side = oneOf(co['side'], at(p, 'side'), ['BUY', 'SELL'] as const) === 'BUY' ? 'bids' : 'asks';
      const change: LevelChange = {
        side,
        price: readPrice(co['price'], at(p, 'price')),
        size: readShares(co['size'], at(p, 'size')),
      };
      const l = byToken.get(tokenId);
      if (l === undefined) byToken.set(tokenId, [change]);
      else l.push(change);
    });
    for (const [tokenId, changes] of byToken) {
      this.ensureSettings(tokenId, market, ts, null);
      this.sink.delta(tokenId, ts, this.local(ts), changes);
      this.stats.deltas++;
      this.stats.levelChanges += changes.length;
    }
  }

  private trade(o: Record<string, unknown>, path: string): void {
    const tokenId = nonEmpty(o['asset_id'], at(path, 'asset_id'));
    const market = nonEmpty(o['market'], at(path, 'market'));
    const ts = uintString(o['timestamp'], at(path, 'timestamp'));
    const side = oneOf(o['side'], at(path, 'side'), ['BUY', 'SELL'] as const);
    const price = readPrice(o['price'], at(path, 'price'));
    const size = readShares(o['size'], at(path, 'size'));
    if (!(price > 0 && price < SCALE))
      throw new ParseError(at(path, 'price'), `trade price out of (0, 1): ${JSON.stringify(o['price'])}`);
    if (!(size > 0))
      throw new ParseError(at(path, 'size'), `trade size must be positive: ${JSON.stringify(o['size'])}`);
    this.ensureSettings(tokenId, market, ts, null);
    this.sink.trade?.(tokenId, ts, this.local(ts), { price, size, side });
    this.stats.trades++;
  }

  private tickChange(o: Record<string, unknown>, path: string): void {
    this.stats.tickChanges++;
    const tokenId = nonEmpty(o['asset_id'], at(path, 'asset_id'));
    const market = nonEmpty(o['market'], at(path, 'market'));
    const ts = uintString(o['timestamp'], at(path, 'timestamp'));
    const tick = readPrice(o['new_tick_size'], at(path, 'new_tick_size'));
    if (!isKnownTick(tick))
      throw new ParseError(at(path, 'new_tick_size'), `unknown tick size ${JSON.stringify(o['new_tick_size'])}`);
    this.marketTick.set(market, tick);
    const prev = this.sink.settingsOf(tokenId);
    const next: RecordedMarketSettings =
      prev === undefined
        ? {
            tokenId,
            conditionId: market,
            tickSize: tick,
            minOrderSize: null,
            negRisk: null,
            makerFeeBps: null,
            takerFeeBps: null,
            rewards: null,
          }
        : { ...prev, tickSize: tick };
    this.sink.settings(next, ts, this.local(ts));
  }
}

/** Imports a JSONL file of market-channel messages (blank lines ignored), streaming it by line. */
export async function importMarketStreamFile(
  path: string,
  sink: RecordSink,
  opts: StreamImportOptions = {},
): Promise<StreamImportStats> {
  const importer = new MarketStreamImporter(sink, opts);
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new ParseError(`line ${n}`, 'not valid JSON');
    }
    importer.message(json, `line ${n}`);
  }
  return importer.stats;
}

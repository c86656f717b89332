// Imports CLOB REST book answers (GET /book: one object; POST /books: an array) into a recording,
// each as the token's settings (when new or changed) and a full book. Invariants: wire values go
// through parseBook only; settings already recorded for a token are kept where the answer says
// nothing (the 2024 shape has no tick or minimum size); localTs defaults to the book's timestamp.
import type { Book } from '../../../core/book.js';
import { parseBook, parseBooks } from '../../../exchange/parse/book.js';
import { sameSettings, type RecordedMarketSettings } from '../format.js';
import type { RecordSink } from '../writer.js';

/** Records one REST answer; returns the books recorded. */
export function importRestBooks(json: unknown, sink: RecordSink, localTs?: number): Book[] {
  const books = Array.isArray(json) ? parseBooks(json) : [parseBook(json)];
  for (const b of books) {
    const local = localTs ?? b.timestampMs;
    const prev = sink.settingsOf(b.assetId);
    const next: RecordedMarketSettings = {
      tokenId: b.assetId,
      conditionId: b.market,
      tickSize: b.tickSize ?? prev?.tickSize ?? null,
      minOrderSize: b.minOrderSize ?? prev?.minOrderSize ?? null,
      negRisk: b.negRisk ?? prev?.negRisk ?? null,
      makerFeeBps: prev?.makerFeeBps ?? null,
      takerFeeBps: prev?.takerFeeBps ?? null,
      rewards: prev?.rewards ?? null,
    };
    if (prev === undefined || !sameSettings(prev, next)) sink.settings(next, b.timestampMs, local);
    sink.book(b.assetId, b.timestampMs, local, {
      bids: b.bids,
      asks: b.asks,
      hash: b.hash,
      lastTradePrice: b.lastTradePrice,
    });
  }
  return books;
}

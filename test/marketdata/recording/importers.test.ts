// Importers of the real data (fixtures in test/fixtures/real, see SOURCES.md there): the
// market-channel burst rebuilds the closing snapshot exactly, REST books read back field for
// field, the L1 CSV's row counts and every row's top of book survive the trip.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ladder } from '../../../src/marketdata/recording/ladder.js';
import { parsePrice, parseShares, type Price } from '../../../src/core/money.js';
import { parseBook } from '../../../src/exchange/parse/book.js';
import {
  importL1CsvFile,
  l1ComplementTokenId,
  l1TokenId,
  SYNTHETIC_L1_SIZE,
} from '../../../src/marketdata/recording/importers/l1-csv.js';
import {
  importMarketStreamFile,
  MarketStreamImporter,
} from '../../../src/marketdata/recording/importers/market-stream.js';
import { importRestBooks } from '../../../src/marketdata/recording/importers/rest-book.js';
import { readAll, RecordingReader } from '../../../src/marketdata/recording/reader.js';
import { RecordingWriter } from '../../../src/marketdata/recording/writer.js';
import { memoryEncoder, readerOf } from './support.js';
import { REAL_FIXTURES } from '../../support/fixtures.js';

const FIX = REAL_FIXTURES;
const BURST = join(FIX, 'clob_ws_market_burst_2tokens.jsonl');
const TOKEN_A = '76670567130917723816490572615540605537878462672464291990940067659127658071111';
const TOKEN_B = '54179564009642723353355316176091991063553046330768303687769988635499280029688';
const MARKET = '0x285746de0e4f751fd4dc8f9dc2cecd0101ba9ad0096a43145ed9643b09514f01';

describe('market-channel importer (ws burst)', () => {
  it('rebuilds the closing book of token A exactly from the opening book and the deltas', async () => {
    const lines = readFileSync(BURST, 'utf8').trim().split('\n');
    const closing = parseBook(JSON.parse(lines[lines.length - 1]!));
    const mem = memoryEncoder({ chunkBytes: 256 }); // small chunks: restatements on real data
    const importer = new MarketStreamImporter(mem.enc, { localTs: (ts) => ts + 42 });
    for (const l of lines) importer.message(JSON.parse(l));
    mem.enc.flush();
    expect(importer.stats).toMatchObject({ messages: 51, books: 2, priceChanges: 49, deltas: 98, levelChanges: 98 });
    expect(mem.chunkEnds.length).toBeGreaterThan(3);

    const reader = readerOf(mem.bytes());
    let lastA: ReturnType<RecordingReader['bookOf']> = null;
    let closingEvent = null;
    const settings = new Map<string, unknown>();
    for await (const e of reader) {
      expect(e.localTs).toBe(e.exchangeTs + 42);
      if (e.kind === 'settings') settings.set(e.tokenId, e.settings);
      if (e.tokenId !== TOKEN_A) continue;
      if (e.kind === 'delta') lastA = e.book();
      if (e.kind === 'book' && e.exchangeTs === closing.timestampMs) closingEvent = e.book();
    }
    expect(reader.tail?.status).toBe('complete');
    expect(lastA).not.toBeNull();
    expect(lastA!.bids).toEqual(closing.bids);
    expect(lastA!.asks).toEqual(closing.asks);
    expect(closingEvent).toMatchObject({
      bids: closing.bids,
      asks: closing.asks,
      hash: closing.hash,
      timestampMs: closing.timestampMs,
      market: MARKET,
      assetId: TOKEN_A,
      tickSize: 1_000,
    });
    // Token B never had a snapshot: it gets its market's tick from A's book.
    expect(settings.get(TOKEN_B)).toMatchObject({ conditionId: MARKET, tickSize: 1_000 });
  });

  it("rebuilds token B's book as the replay of its own price_change entries", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'omrec-'));
    try {
      const path = join(dir, 'burst.omrec');
      const w = await RecordingWriter.open(path);
      await importMarketStreamFile(BURST, w);
      await w.close();
      const model = new Ladder();
      for (const l of readFileSync(BURST, 'utf8').trim().split('\n')) {
        const m = JSON.parse(l) as {
          price_changes?: Array<{ asset_id: string; price: string; size: string; side: string }>;
        };
        for (const c of m.price_changes ?? []) {
          if (c.asset_id === TOKEN_B)
            model.set(c.side === 'BUY' ? 'bids' : 'asks', parsePrice(c.price), parseShares(c.size));
        }
      }
      const reader = RecordingReader.fromFile(path);
      await readAll(reader);
      const b = reader.bookOf(TOKEN_B);
      expect(b?.bids).toEqual(model.bids);
      expect(b?.asks).toEqual(model.asks);
      expect(b!.asks.length + b!.bids.length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('REST book importer', () => {
  it('reads back each book field for field, empty side and 2024 shape included', async () => {
    const files = [
      'wire/markets/book_get_ccxt_2026-06-12.json',
      'clob_rest_book_2024-10-13.json',
      'wire/markets/book_get_empty_ask_nautilus_2026-08-03.json',
    ];
    const mem = memoryEncoder();
    const expected = files.map((f) => {
      const json: unknown = JSON.parse(readFileSync(join(FIX, f), 'utf8'));
      const [b] = importRestBooks(json, mem.enc, 5);
      return b!;
    });
    mem.enc.flush();
    const events = await readAll(readerOf(mem.bytes()));
    const books = events.flatMap((e) => (e.kind === 'book' ? [e.book()] : []));
    expect(books).toEqual(expected);
    expect(events.every((e) => e.localTs === 5)).toBe(true);
    expect(expected[0]).toMatchObject({
      tickSize: 1_000,
      minOrderSize: 5_000_000,
      negRisk: true,
      lastTradePrice: 152_000,
    });
    expect(expected[2]!.asks).toEqual([]);
  });
});

describe('L1 quotes CSV importer', () => {
  it('imports every row (707 per market, 12 empty ones); each row reads back as the top of book and its complement as the mirror', async () => {
    const path = join(FIX, 'l1_quotes_5markets_2026-07-13.csv');
    const mem = memoryEncoder();
    const stats = await importL1CsvFile(path, mem.enc);
    mem.enc.flush();
    const rows = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(stats.rows).toBe(3535);
    expect(rows.length).toBe(3535);
    expect(Object.values(stats.rowsBySlug)).toEqual([707, 707, 707, 707, 707]);
    expect(stats.oneSided).toBe(12);
    expect(stats.books).toBe(5);
    expect(stats.mids).toBe(rows.filter((r) => r[6] !== '').length);
    expect(stats.books + stats.deltas + stats.unchanged).toBe(3535);

    // After every event, the token's (ts → best bid, best ask); the last entry at a row's ts must match it.
    const tops = new Map<string, Map<number, [Price | null, Price | null]>>();
    let mids = 0;
    for await (const e of readerOf(mem.bytes())) {
      if (e.kind === 'mid') mids++;
      if (e.kind !== 'book' && e.kind !== 'delta') continue;
      const b = e.book();
      expect(b.bids.length).toBeLessThanOrEqual(1);
      expect(b.asks.length).toBeLessThanOrEqual(1);
      for (const l of [...b.bids, ...b.asks]) expect(l.size).toBe(SYNTHETIC_L1_SIZE);
      let m = tops.get(e.tokenId);
      if (m === undefined) tops.set(e.tokenId, (m = new Map()));
      m.set(e.exchangeTs, [b.bids[0]?.price ?? null, b.asks[0]?.price ?? null]);
    }
    // Each mid is recorded for the quoted token and its mirrored complement.
    expect(mids).toBe(2 * stats.mids);
    const current = new Map<string, [Price | null, Price | null]>();
    for (const r of rows) {
      const token = l1TokenId(r[2]!);
      const at = tops.get(token)?.get(Number(r[1]));
      if (at !== undefined) current.set(token, at);
      const want = [r[4] === '' ? null : parsePrice(r[4]!), r[5] === '' ? null : parsePrice(r[5]!)];
      expect(current.get(token)).toEqual(want);
      // The complement's book is the mirror: bid' = 1 − ask, ask' = 1 − bid.
      const comp = l1ComplementTokenId(r[2]!);
      const cat = tops.get(comp)?.get(Number(r[1]));
      if (cat !== undefined) current.set(comp, cat);
      expect(current.get(comp)).toEqual([
        want[1] === null ? null : 1_000_000 - want[1]!,
        want[0] === null ? null : 1_000_000 - want[0]!,
      ]);
    }
  });
});

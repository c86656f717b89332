// The recorder round trip: polls fed on a VirtualClock → RecordingWriter → RecordingReader gives
// back the same books (levels, timestamps), mids and settings; deltas are used between polls;
// the periodic flush puts data on disk without stop().
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBook, type Book, type Level } from '../../src/core/book.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { MarketRecorder, sideChanges } from '../../src/marketdata/recorder.js';
import { readAll, RecordingReader } from '../../src/marketdata/recording/reader.js';
import { RecordingWriter } from '../../src/marketdata/recording/writer.js';
import type { UniverseMarket } from '../../src/marketdata/types.js';
import { mulberry32 as rng } from '../../src/core/random.js';

const TOKENS = ['111', '222'];

function market(): UniverseMarket {
  return {
    conditionId: '0xc0nd',
    settings: {
      conditionId: '0xc0nd', question: 'Q?', tickSize: 10_000 as Price, minOrderSize: 5_000_000 as Shares, negRisk: false,
      acceptingOrders: true, endDateMs: null, makerBaseFeeBps: 0, takerBaseFeeBps: 200,
      rewards: { rates: [], dailyRate: 50_000_000 as Micros, minSize: 20_000_000 as Shares, maxSpreadCents: 3, maxSpread: 30_000 as Price },
    },
    tokens: [{ tokenId: '111', outcome: 'Yes', complementTokenId: '222' }, { tokenId: '222', outcome: 'No', complementTokenId: '111' }],
  };
}


function randomBook(r: () => number, token: string, ts: number, ltp: Price | null): Book {
  const mid = 30 + Math.floor(r() * 40);
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 1; i <= 6; i++) {
    if (r() < 0.8) bids.push({ price: ((mid - i) * 10_000) as Price, size: (Math.floor(r() * 500 + 1) * 10_000) as Shares });
    if (r() < 0.8) asks.push({ price: ((mid + i) * 10_000) as Price, size: (Math.floor(r() * 500 + 1) * 10_000 + (r() < 0.1 ? 7 : 0)) as Shares });
  }
  return makeBook({ market: '0xc0nd', assetId: token, timestampMs: ts, hash: `h${ts}`, bids, asks, tickSize: 10_000 as Price, minOrderSize: 5_000_000 as Shares, negRisk: false, lastTradePrice: ltp });
}

describe('sideChanges', () => {
  it('lists changed, new and removed levels in price order', () => {
    const before = new Map([[10, 1], [20, 2], [30, 3]]);
    const after = new Map([[20, 2], [30, 4], [5, 9]]);
    expect(sideChanges('bids', before, after)).toEqual([
      { side: 'bids', price: 5, size: 9 }, { side: 'bids', price: 10, size: 0 }, { side: 'bids', price: 30, size: 4 },
    ]);
  });
});

describe('MarketRecorder', () => {
  it('round trip: the reader gives back every polled book, mid and the settings', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'om-rec-')), 'r.omrc');
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const writer = await RecordingWriter.open(path, { chunkBytes: 600 });
    const rec = new MarketRecorder({ clock, sink: writer, flushIntervalMs: 3000 });
    rec.markets([market()]);
    rec.start();
    const r = rng(7);
    const polled: Book[] = [];
    const mids: Array<[string, number, number]> = [];
    for (let i = 0; i < 60; i++) {
      const books: Book[] = [];
      const m = new Map<string, Price>();
      for (const t of TOKENS) {
        // Some polls repeat the previous book (an empty delta); the last trade changes rarely.
        const prev = polled.filter((b) => b.assetId === t).at(-1);
        const ex = clock.now() - 40;
        const b = prev !== undefined && r() < 0.3
          ? { ...prev, timestampMs: ex }
          : randomBook(r, t, ex, i % 20 === 0 ? ((40 + i) * 10_000) as Price : (prev?.lastTradePrice ?? null));
        books.push(b);
        const mid = (50 + (i % 7)) * 10_000;
        m.set(t, mid as Price);
        mids.push([t, mid, ex]);
      }
      polled.push(...books);
      rec.snapshot({ receivedAtMs: clock.now(), books, mids: m, complete: true });
      await clock.advanceAsync(500);
    }
    await rec.stop();
    await writer.close();
    const st = rec.stats();
    expect(st.deltas).toBeGreaterThan(st.books);
    expect(st.flushes).toBeGreaterThanOrEqual(10);

    const reader = RecordingReader.fromFile(path);
    const got: Array<{ token: string; ex: number; local: number; bids: readonly Level[]; asks: readonly Level[] }> = [];
    const gotMids: Array<[string, number, number]> = [];
    for await (const e of reader) {
      if (e.kind === 'book' || e.kind === 'delta') {
        const b = e.book();
        got.push({ token: e.tokenId, ex: e.exchangeTs, local: e.localTs, bids: b.bids, asks: b.asks });
      } else if (e.kind === 'mid') gotMids.push([e.tokenId, e.mid, e.exchangeTs]);
      else if (e.tokenId === '111' && !e.restated) {
        expect(e.settings).toMatchObject({ conditionId: '0xc0nd', tickSize: 10_000, minOrderSize: 5_000_000, takerFeeBps: 200, rewards: { dailyRate: 50_000_000, minSize: 20_000_000, maxSpread: 30_000 } });
      }
    }
    expect(reader.tail?.status).toBe('complete');
    expect(got.map((g) => ({ token: g.token, ex: g.ex, bids: g.bids, asks: g.asks }))).toEqual(
      polled.map((b) => ({ token: b.assetId, ex: b.timestampMs, bids: b.bids, asks: b.asks })));
    expect(got.every((g) => g.local - g.ex === 40)).toBe(true);
    expect(gotMids).toEqual(mids);
  });

  it('the periodic flush writes to disk before stop()', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'om-rec-')), 'r.omrc');
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const writer = await RecordingWriter.open(path);
    const rec = new MarketRecorder({ clock, sink: writer, flushIntervalMs: 2000 });
    rec.markets([market()]);
    rec.start();
    const r = rng(1);
    rec.snapshot({ receivedAtMs: clock.now(), books: [randomBook(r, '111', clock.now(), null)], mids: new Map(), complete: true });
    const count = async (): Promise<number> => (await readAll(RecordingReader.fromFile(path))).filter((e) => e.kind === 'book').length;
    await rec.settled();
    expect(await count()).toBe(0);
    await clock.advanceAsync(2000);
    await rec.settled();
    expect(await count()).toBe(1);
    await rec.stop();
    await writer.close();
  });

  it('reports a failing sink instead of throwing into the poll loop', async () => {
    const clock = new VirtualClock();
    const errors: unknown[] = [];
    const sink = {
      settingsOf: () => undefined,
      settings: () => { throw new Error('disk full'); },
      book: () => undefined, delta: () => undefined, mid: () => undefined,
      flush: () => Promise.reject(new Error('flush failed')),
    };
    const rec = new MarketRecorder({ clock, sink, onError: (e) => errors.push(e) });
    const r = rng(2);
    expect(() => { rec.snapshot({ receivedAtMs: 0, books: [randomBook(r, '111', 0, null)], mids: new Map(), complete: true }); }).not.toThrow();
    await rec.stop();
    expect(errors.map((e) => (e as Error).message)).toEqual(['disk full', 'flush failed']);
  });
});

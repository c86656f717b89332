// The recorder round trip: polls fed on a VirtualClock → RecordingWriter → RecordingReader gives
// back the same books (levels, timestamps), mids and settings; deltas are used between polls;
// the periodic flush puts data on disk without stop(). Public trades: polled round-robin from a
// fake GET /trades (newest first, offset paging) on the VirtualClock, each recorded once, oldest
// first, with second-resolution exchange time and receive time, history from before the start
// left out, paging through bursts, never more requests than the budget in any window; RESOLVED
// once per recorded market with a single winner.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBook, type Book, type Level } from '../../src/core/book.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { Trade } from '../../src/core/market.js';
import { MarketRecorder, sideChanges, type OwnResting } from '../../src/marketdata/recorder.js';
import type { TradesQuery } from '../../src/marketdata/trade-tape.js';
import { readAll, RecordingReader } from '../../src/marketdata/recording/reader.js';
import { RecordingWriter } from '../../src/marketdata/recording/writer.js';
import type { UniverseMarket } from '../../src/marketdata/types.js';
import { mulberry32 as rng } from '../../src/core/random.js';

const TOKENS = ['111', '222'];

function market(): UniverseMarket {
  return {
    conditionId: '0xc0nd',
    settings: {
      conditionId: '0xc0nd',
      question: 'Q?',
      tickSize: 10_000 as Price,
      minOrderSize: 5_000_000 as Shares,
      negRisk: false,
      acceptingOrders: true,
      endDateMs: null,
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 200,
      rewards: {
        rates: [],
        dailyRate: 50_000_000 as Micros,
        minSize: 20_000_000 as Shares,
        maxSpreadCents: 3,
        maxSpread: 30_000 as Price,
      },
    },
    tokens: [
      { tokenId: '111', outcome: 'Yes', complementTokenId: '222' },
      { tokenId: '222', outcome: 'No', complementTokenId: '111' },
    ],
  };
}

function randomBook(r: () => number, token: string, ts: number, ltp: Price | null): Book {
  const mid = 30 + Math.floor(r() * 40);
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 1; i <= 6; i++) {
    if (r() < 0.8)
      bids.push({ price: ((mid - i) * 10_000) as Price, size: (Math.floor(r() * 500 + 1) * 10_000) as Shares });
    if (r() < 0.8)
      asks.push({
        price: ((mid + i) * 10_000) as Price,
        size: (Math.floor(r() * 500 + 1) * 10_000 + (r() < 0.1 ? 7 : 0)) as Shares,
      });
  }
  return makeBook({
    market: '0xc0nd',
    assetId: token,
    timestampMs: ts,
    hash: `h${ts}`,
    bids,
    asks,
    tickSize: 10_000 as Price,
    minOrderSize: 5_000_000 as Shares,
    negRisk: false,
    lastTradePrice: ltp,
  });
}

describe('sideChanges', () => {
  it('lists changed, new and removed levels in price order', () => {
    const before = new Map([
      [10, 1],
      [20, 2],
      [30, 3],
    ]);
    const after = new Map([
      [20, 2],
      [30, 4],
      [5, 9],
    ]);
    expect(sideChanges('bids', before, after)).toEqual([
      { side: 'bids', price: 5, size: 9 },
      { side: 'bids', price: 10, size: 0 },
      { side: 'bids', price: 30, size: 4 },
    ]);
  });
});

describe('MarketRecorder', () => {
  it("takes the recording daemon's own live orders out of the books, mirrored onto the complement", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'om-rec-')), 'own.omrc');
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const writer = await RecordingWriter.open(path);
    const rec = new MarketRecorder({ clock, sink: writer });
    rec.markets([market()]);
    const lv = (p: number, sz: number): Level => ({ price: (p * 10_000) as Price, size: (sz * 1_000_000) as Shares });
    // YES book: 100 at 0.49 (our 10 among them), 40 at 0.48; asks 30 at 0.52 (all ours), 50 at 0.53.
    const yes = makeBook({
      market: '0xc0nd',
      assetId: '111',
      timestampMs: clock.now(),
      hash: 'h',
      bids: [lv(49, 100), lv(48, 40)],
      asks: [lv(52, 30), lv(53, 50)],
      tickSize: 10_000 as Price,
    });
    // The NO book mirrors it: our YES bid at 0.49 shows as a NO ask at 0.51, our YES ask at 0.52 as a NO bid at 0.48.
    const no = makeBook({
      market: '0xc0nd',
      assetId: '222',
      timestampMs: clock.now(),
      hash: 'h2',
      bids: [lv(48, 30), lv(47, 50)],
      asks: [lv(51, 100), lv(52, 40)],
      tickSize: 10_000 as Price,
    });
    const own: OwnResting[] = [
      {
        tokenId: '111',
        side: 'BUY',
        price: 490_000 as Price,
        originalSize: 15_000_000 as Shares,
        sizeMatched: 5_000_000 as Shares,
        state: 'live',
      },
      {
        tokenId: '111',
        side: 'SELL',
        price: 520_000 as Price,
        originalSize: 30_000_000 as Shares,
        sizeMatched: 0 as Shares,
        state: 'live',
      },
      // Not resting (yet, or any more): left in the book.
      {
        tokenId: '111',
        side: 'BUY',
        price: 480_000 as Price,
        originalSize: 5_000_000 as Shares,
        sizeMatched: 0 as Shares,
        state: 'inflight',
      },
    ];
    rec.snapshot({ receivedAtMs: clock.now(), books: [yes, no], mids: new Map(), complete: true }, own);
    // Without orders of ours the next poll records the books as they are.
    rec.snapshot({
      receivedAtMs: clock.now() + 1,
      books: [{ ...yes, timestampMs: clock.now() + 1 }],
      mids: new Map(),
      complete: true,
    });
    await rec.stop();
    await writer.close();
    const books: Array<[string, readonly Level[], readonly Level[], string]> = [];
    for await (const e of RecordingReader.fromFile(path)) {
      if (e.kind === 'book') books.push([e.tokenId, e.book().bids, e.book().asks, e.hash]);
      if (e.kind === 'delta') books.push([e.tokenId, e.book().bids, e.book().asks, '']);
    }
    expect(books[0]).toEqual(['111', [lv(49, 90), lv(48, 40)], [lv(53, 50)], '']);
    expect(books[1]).toEqual(['222', [lv(47, 50)], [lv(51, 90), lv(52, 40)], '']);
    expect(books[2]).toEqual(['111', [lv(49, 100), lv(48, 40)], [lv(52, 30), lv(53, 50)], '']);
  });

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
        const b =
          prev !== undefined && r() < 0.3
            ? { ...prev, timestampMs: ex }
            : randomBook(r, t, ex, i % 20 === 0 ? (((40 + i) * 10_000) as Price) : (prev?.lastTradePrice ?? null));
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
      else if (e.kind === 'settings' && e.tokenId === '111' && !e.restated) {
        expect(e.settings).toMatchObject({
          conditionId: '0xc0nd',
          tickSize: 10_000,
          minOrderSize: 5_000_000,
          takerFeeBps: 200,
          rewards: { dailyRate: 50_000_000, minSize: 20_000_000, maxSpread: 30_000 },
        });
      }
    }
    expect(reader.tail?.status).toBe('complete');
    expect(got.map((g) => ({ token: g.token, ex: g.ex, bids: g.bids, asks: g.asks }))).toEqual(
      polled.map((b) => ({ token: b.assetId, ex: b.timestampMs, bids: b.bids, asks: b.asks })),
    );
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
    rec.snapshot({
      receivedAtMs: clock.now(),
      books: [randomBook(r, '111', clock.now(), null)],
      mids: new Map(),
      complete: true,
    });
    const count = async (): Promise<number> =>
      (await readAll(RecordingReader.fromFile(path))).filter((e) => e.kind === 'book').length;
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
      settings: () => {
        throw new Error('disk full');
      },
      book: () => undefined,
      delta: () => undefined,
      mid: () => undefined,
      trade: () => undefined,
      resolved: () => undefined,
      flush: () => Promise.reject(new Error('flush failed')),
    };
    const rec = new MarketRecorder({ clock, sink, onError: (e) => errors.push(e) });
    const r = rng(2);
    expect(() => {
      rec.snapshot({ receivedAtMs: 0, books: [randomBook(r, '111', 0, null)], mids: new Map(), complete: true });
    }).not.toThrow();
    await rec.stop();
    expect(errors.map((e) => (e as Error).message)).toEqual(['disk full', 'flush failed']);
  });

  it('records public trades once each, oldest first, within the request budget, and RESOLVED once', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'om-rec-')), 'trades.omrc');
    const t0 = Date.UTC(2026, 0, 1);
    const clock = new VirtualClock(t0);
    const writer = await RecordingWriter.open(path, { chunkBytes: 300 });
    // The exchange's trade log (all markets), appended in time order; /trades lists it newest first.
    const log: Trade[] = [];
    let n = 0;
    const add = (market: string, asset: string, side: 'BUY' | 'SELL', price: number, atMs: number): void => {
      n++;
      log.push({
        proxyWallet: '0xw',
        side,
        asset,
        conditionId: market,
        size: (n * 10_000) as Shares,
        price: price as Price,
        timestamp: Math.floor(atMs / 1000),
        title: '',
        slug: '',
        outcome: '',
        outcomeIndex: 0,
        transactionHash: `0x${n.toString(16)}`,
      });
    };
    const second: UniverseMarket = {
      ...market(),
      conditionId: '0xc2',
      tokens: [
        { tokenId: '333', outcome: 'Yes', complementTokenId: '444' },
        { tokenId: '444', outcome: 'No', complementTokenId: '333' },
      ],
    };
    add('0xc0nd', '111', 'BUY', 500_000, t0 - 5_000); // history: before the recorder started
    const calls: Array<{ at: number; q: TradesQuery }> = [];
    const fetch = (q: TradesQuery): Promise<readonly Trade[]> => {
      calls.push({ at: clock.now(), q });
      const rows = log.filter((t) => t.conditionId === q.market).reverse();
      return Promise.resolve(rows.slice(q.offset, q.offset + q.limit));
    };
    const budget = { requests: 6, windowMs: 2_000 };
    const rec = new MarketRecorder({
      clock,
      sink: writer,
      flushIntervalMs: 1_000,
      trades: { fetch, intervalMs: 100, budget, pageSize: 5 },
    });
    rec.markets([market(), second]);
    rec.start();
    const want: Array<{ tokenId: string; price: number; size: number; side: string; exchangeTs: number }> = [];
    for (let step = 0; step < 40; step++) {
      // Bursts of up to 17 trades (more than three pages) on either market, some of an unknown token.
      const burst = step % 9 === 0 ? 17 : step % 3;
      for (let i = 0; i < burst; i++) {
        const cid = i % 2 === 0 ? '0xc0nd' : '0xc2';
        const asset = cid === '0xc0nd' ? (i % 4 === 0 ? '111' : '222') : i === 5 ? '999' : '333';
        add(cid, asset, i % 3 === 0 ? 'SELL' : 'BUY', 400_000 + 10_000 * (i % 5), clock.now());
        const t = log.at(-1) as Trade;
        if (asset !== '999')
          want.push({ tokenId: asset, price: t.price, size: t.size, side: t.side, exchangeTs: t.timestamp * 1000 });
      }
      await clock.advanceAsync(250);
    }
    await clock.advanceAsync(30_000); // let the tape catch up
    await rec.stop();
    rec.resolutions([
      {
        conditionId: '0xc2',
        closed: true,
        tokens: [
          { tokenId: '333', winner: false },
          { tokenId: '444', winner: true },
        ],
      },
    ]);
    rec.resolutions([
      {
        conditionId: '0xc2',
        closed: true,
        tokens: [
          { tokenId: '333', winner: false },
          { tokenId: '444', winner: true },
        ],
      },
    ]);
    rec.resolutions([{ conditionId: '0xnope', closed: true, tokens: [{ tokenId: '555', winner: true }] }]);
    rec.resolutions([{ conditionId: '0xc0nd', closed: false, tokens: [{ tokenId: '111', winner: true }] }]);
    await writer.close();

    // Never more than the budget in any window.
    for (const c of calls)
      expect(calls.filter((d) => d.at > c.at - budget.windowMs && d.at <= c.at).length).toBeLessThanOrEqual(
        budget.requests,
      );
    expect(calls.some((c) => c.q.offset > 0)).toBe(true); // bursts were paged
    expect(rec.tapeStats()?.deferred).toBeGreaterThan(0); // the budget did bind, and nothing was lost
    expect(new Set(calls.map((c) => c.q.market))).toEqual(new Set(['0xc0nd', '0xc2']));
    const events = await readAll(RecordingReader.fromFile(path));
    const trades = events.filter((e) => e.kind === 'trade');
    // Per market, the exact sequence; across markets the tape interleaves by turn.
    for (const cid of ['0xc0nd', '0xc2']) {
      const tokens = cid === '0xc0nd' ? ['111', '222'] : ['333', '444'];
      const got = trades
        .filter((e) => tokens.includes(e.tokenId))
        .map((e) =>
          e.kind === 'trade'
            ? { tokenId: e.tokenId, price: e.price, size: e.size, side: e.side, exchangeTs: e.exchangeTs }
            : null,
        );
      // Each once, in time order (the order within one second is exact only for a scan done in one turn).
      const bySize = (a: { size: number } | null, b: { size: number } | null): number =>
        (a?.size ?? 0) - (b?.size ?? 0);
      expect([...got].sort(bySize)).toEqual(want.filter((w) => tokens.includes(w.tokenId)).sort(bySize));
      for (let i = 1; i < got.length; i++) expect(got[i]!.exchangeTs).toBeGreaterThanOrEqual(got[i - 1]!.exchangeTs);
    }
    for (const e of trades) expect(e.localTs).toBeGreaterThanOrEqual(e.exchangeTs);
    expect(rec.stats()).toMatchObject({ trades: want.length, resolved: 1 });
    expect(rec.stats().tradesSkipped).toBeGreaterThan(0);
    expect(events.filter((e) => e.kind === 'resolved')).toEqual([
      {
        kind: 'resolved',
        tokenId: '444',
        conditionId: '0xc2',
        exchangeTs: clock.now(),
        localTs: clock.now(),
        restated: false,
      },
    ]);
  });
});

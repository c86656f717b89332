// RecordingCursor against RecordingReader: on recordings of the real fixtures (imported with small
// chunks, so restatements and grid refinements happen), on synthetic recordings, on random
// sequences written by the encoder (fast-check), and on truncated and damaged files, the cursor
// visits the same records (event() equal to the reader's event, books compared as built Book
// objects), keeps the same current books per token, and stops at the same place with the same
// tail report. Also: its no-object fields agree with event(), tokens are numbered densely in order
// of first appearance, and a file that is not a recording is refused.
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../../src/core/money.js';
import { mulberry32 } from '../../../src/core/random.js';
import { RecordKind, RecordingCursor, TAKER_SELL } from '../../../src/marketdata/recording/cursor.js';
import { RecordingFormatError, type RecordedMarketSettings } from '../../../src/marketdata/recording/format.js';
import { importL1CsvFile } from '../../../src/marketdata/recording/importers/l1-csv.js';
import { importMarketStreamFile } from '../../../src/marketdata/recording/importers/market-stream.js';
import { importRestBooks } from '../../../src/marketdata/recording/importers/rest-book.js';
import { RecordingReader, type ReaderOptions, type RecordingEvent } from '../../../src/marketdata/recording/reader.js';
import { synthesizeRecording } from '../../../src/marketdata/recording/synthesize.js';
import type { Codec } from '../../../src/marketdata/recording/format.js';
import { realFixturePath, realJson } from '../../support/fixtures.js';
import { memoryEncoder, sliced } from './support.js';

/** An event as plain data, its book built at once (book() refuses once the token moved on). */
function plain(e: RecordingEvent): unknown {
  const base = { kind: e.kind, tokenId: e.tokenId, exchangeTs: e.exchangeTs, localTs: e.localTs, restated: e.restated };
  switch (e.kind) {
    case 'settings':
      return { ...base, settings: e.settings };
    case 'book':
      return { ...base, hash: e.hash, lastTradePrice: e.lastTradePrice, book: e.book() };
    case 'delta':
      return { ...base, changes: e.changes, book: e.book() };
    case 'mid':
      return { ...base, mid: e.mid };
    case 'trade':
      return { ...base, price: e.price, size: e.size, side: e.side };
    case 'resolved':
      return { ...base, conditionId: e.conditionId };
  }
}

interface Run {
  events: unknown[];
  tail: unknown;
  error: unknown;
}

async function viaReader(reader: RecordingReader): Promise<Run> {
  const events: unknown[] = [];
  let error: unknown = null;
  try {
    for await (const e of reader) events.push(plain(e));
  } catch (err) {
    error = err;
  }
  return { events, tail: reader.tail, error };
}

/** The cursor's run, checking on the way that its fields say what event() says. */
function viaCursor(open: () => RecordingCursor, check = true): Run {
  const events: unknown[] = [];
  let error: unknown = null;
  let cursor: RecordingCursor | null = null;
  try {
    cursor = open();
    while (cursor.next()) {
      const e = cursor.event();
      if (check) checkFields(cursor, e);
      events.push(plain(e));
    }
  } catch (err) {
    error = err;
  }
  return { events, tail: cursor?.tail ?? null, error };
}

function checkFields(c: RecordingCursor, e: RecordingEvent): void {
  expect(c.tokenId(c.token)).toBe(e.tokenId);
  expect(c.tokenNumber(e.tokenId)).toBe(c.token);
  if (e.kind === 'delta') {
    expect(c.kind).toBe(RecordKind.DELTA);
    expect(c.changeCount).toBe(e.changes.length);
    const b = c.book(c.token);
    expect(c.bestBid(c.token)).toBe(b.bids[0]?.price ?? -1);
    expect(c.bestAsk(c.token)).toBe(b.asks[0]?.price ?? -1);
  } else if (e.kind === 'book') {
    expect(c.kind).toBe(RecordKind.BOOK);
    const b = e.book();
    expect(c.bidCount).toBe(b.bids.length);
    expect(c.askCount).toBe(b.asks.length);
    for (let i = 0; i < c.bidCount; i++)
      expect([c.bidPrice[i], c.bidSize[i]]).toEqual([b.bids[i]!.price, b.bids[i]!.size]);
    for (let i = 0; i < c.askCount; i++)
      expect([c.askPrice[i], c.askSize[i]]).toEqual([b.asks[i]!.price, b.asks[i]!.size]);
  } else if (e.kind === 'trade') {
    expect(c.kind).toBe(RecordKind.TRADE);
    expect(c.takerSide === TAKER_SELL ? 'SELL' : 'BUY').toBe(e.side);
  } else if (e.kind === 'resolved') {
    expect(c.conditionIdOf(c.token)).toBe(e.conditionId);
  } else if (e.kind === 'settings') {
    expect(c.settings()).toBe(e.settings);
  }
}

/** Both readers over one in-memory recording, with and without restatements. */
async function expectSame(buf: Buffer, check = true): Promise<Run> {
  let first: Run | null = null;
  for (const opts of [{}, { includeRestatements: true }] as ReaderOptions[]) {
    const want = await viaReader(new RecordingReader(sliced(buf, [buf.length]), opts));
    const got = viaCursor(() => RecordingCursor.fromBytes(buf, { restated: opts.includeRestatements === true }), check);
    expect(got.events).toEqual(want.events);
    expect(got.tail).toEqual(want.tail);
    expect(got.error).toEqual(want.error);
    first ??= want;
  }
  return first!;
}

const settings = (tokenId: string, conditionId: string, tick: number | null = 10_000): RecordedMarketSettings => ({
  tokenId,
  conditionId,
  tickSize: tick as Price | null,
  minOrderSize: 5_000_000 as Shares,
  negRisk: false,
  makerFeeBps: null,
  takerFeeBps: 0,
  rewards: null,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'om-cursor-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Two markets for a minute, an update every 300 ms, 5 levels, levels that move, small chunks. */
async function smallRecording(path: string, seed: number): Promise<void> {
  await synthesizeRecording(path, {
    markets: 2,
    durationMs: 60_000,
    startMs: 1_767_225_600_000,
    seed,
    updateEveryMs: 300,
    levels: 5,
    changesPerUpdate: 2,
    moveChance: 0.5,
    chunkBytes: 1024,
  });
}

describe('RecordingCursor on real data', () => {
  it('the market-channel burst (books, deltas, trades, across small chunks) reads as the reader reads it', async () => {
    const mem = memoryEncoder({ chunkBytes: 256 });
    await importMarketStreamFile(realFixturePath('clob_ws_market_burst_2tokens.jsonl'), mem.enc);
    mem.enc.flush();
    expect(mem.chunkEnds.length).toBeGreaterThan(3);
    const run = await expectSame(mem.bytes());
    expect(run.events.length).toBeGreaterThan(100);
  });

  it('the L1 quotes (mirrored complements, a grid refined off the default tick) read as the reader reads them', async () => {
    for (const chunkBytes of [512, 64 * 1024]) {
      const mem = memoryEncoder({ chunkBytes });
      await importL1CsvFile(realFixturePath('l1_quotes_5markets_2026-07-13.csv'), mem.enc);
      mem.enc.flush();
      const run = await expectSame(mem.bytes());
      expect(run.events.length).toBeGreaterThan(3000);
    }
  });

  it('REST books (GET /book, POST /books, ws book snapshots) read as the reader reads them', async () => {
    const mem = memoryEncoder({ chunkBytes: 300, codec: 'brotli' });
    let t = 1_700_000_000_000;
    for (const name of [
      'clob_rest_book_2024-10-13.json',
      'clob_ws_book_2024.json',
      'clob_ws_book_snapshot_2026.json',
    ]) {
      importRestBooks(realJson(name), mem.enc, (t += 1000));
    }
    mem.enc.flush();
    const run = await expectSame(mem.bytes());
    expect(run.events.some((e) => (e as { kind: string }).kind === 'book')).toBe(true);
  });
});

describe('RecordingCursor on synthetic recordings', () => {
  it('reads a synthesized file as RecordingReader.fromFile does, with tokens numbered by first appearance', async () => {
    const path = join(dir, 'synth.omrc');
    const stats = await synthesizeRecording(path, {
      markets: 3,
      durationMs: 120_000,
      startMs: 1_767_225_600_000,
      seed: 11,
      updateEveryMs: 400,
      levels: 8,
      chunkBytes: 2048,
    });
    const want = await viaReader(RecordingReader.fromFile(path));
    const got = viaCursor(() => RecordingCursor.open(path));
    expect(got.events).toEqual(want.events);
    expect(got.tail).toEqual(want.tail);
    expect(got.events.length).toBe(stats.events);
    const c = RecordingCursor.open(path);
    const order: string[] = [];
    while (c.next()) if (c.kind === RecordKind.SETTINGS && c.token === order.length) order.push(c.tokenId(c.token));
    const firstSeen = [...new Set((want.events as { tokenId: string }[]).map((e) => e.tokenId))];
    expect(order).toEqual(firstSeen);
    expect(c.tokenCount).toBe(stats.tokens);
  });

  it('keeps every token book equal to the reader’s current book, record by record', async () => {
    const path = join(dir, 'books.omrc');
    await smallRecording(path, 5);
    const reader = RecordingReader.fromFile(path);
    const c = RecordingCursor.open(path);
    let n = 0;
    for await (const e of reader) {
      expect(c.next()).toBe(true);
      expect(c.event().tokenId).toBe(e.tokenId);
      for (let t = 0; t < c.tokenCount; t++) expect(c.book(t)).toEqual(reader.bookOf(c.tokenId(t)));
      n++;
    }
    expect(c.next()).toBe(false);
    expect(n).toBeGreaterThan(300);
  });
});

describe('RecordingCursor with deferLadder', () => {
  it('holds a book or delta out of its ladder until commit(), then equals the reader; progress reaches the file size', async () => {
    const path = join(dir, 'defer.omrc');
    await smallRecording(path, 6);
    const reader = RecordingReader.fromFile(path);
    const c = RecordingCursor.open(path, { deferLadder: true });
    let before: Map<number, unknown> = new Map();
    let deferred = 0;
    for await (const _ of reader) {
      expect(c.next()).toBe(true);
      if (c.kind === RecordKind.BOOK || c.kind === RecordKind.DELTA) {
        // Before commit(): the token's book as the previous record left it.
        if (before.has(c.token)) {
          expect(c.book(c.token)).toEqual(before.get(c.token));
          deferred++;
        }
        c.commit();
        c.commit();
      }
      for (let t = 0; t < c.tokenCount; t++) expect(c.book(t)).toEqual(reader.bookOf(c.tokenId(t)));
      before = new Map(Array.from({ length: c.tokenCount }, (_, t) => [t, c.book(t)] as const));
    }
    expect(c.next()).toBe(false);
    expect(deferred).toBeGreaterThan(300);
    const p = c.progress();
    expect(p.done).toBe(p.total);
    expect(p.total).toBe(readFileSync(path).length);
  });
});

describe('RecordingCursor on random recordings', () => {
  const token = fc.constantFrom('A', 'B', 'C');
  const price = (tick: number) => fc.integer({ min: 1, max: Math.ceil(1_000_000 / tick) - 1 }).map((k) => k * tick);
  const size = fc.oneof(
    fc.integer({ min: 1, max: 100_000 }).map((k) => k * 10_000),
    fc.integer({ min: 1, max: 1e10 }),
  );
  // Most prices from a few levels near 0.5, so deltas often change or remove a level that exists.
  const near = fc.integer({ min: 40, max: 60 }).map((k) => k * 10_000);
  const level = fc.record({ price: fc.oneof(near, near, price(1_000)), size });
  const op = fc.oneof(
    fc.record({ op: fc.constant('settings' as const), token, tick: fc.constantFrom(10_000, 1_000, null) }),
    fc.record({
      op: fc.constant('book' as const),
      token,
      bids: fc.array(level, { maxLength: 6 }),
      asks: fc.array(level, { maxLength: 6 }),
      hash: fc.constantFrom('', 'h1'),
    }),
    fc.record({
      op: fc.constant('delta' as const),
      token,
      changes: fc.array(
        fc.record({
          side: fc.constantFrom('bids' as const, 'asks' as const),
          price: fc.oneof(near, near, near, price(1_000), price(7)),
          size: fc.oneof(fc.constant(0), size),
        }),
        { maxLength: 5 },
      ),
    }),
    fc.record({ op: fc.constant('mid' as const), token, mid: price(1_000) }),
    fc.record({ op: fc.constant('trade' as const), token, price: price(1), size, sell: fc.boolean() }),
    fc.record({ op: fc.constant('resolved' as const), token }),
  );
  const dedupe = (ls: { price: number; size: number }[]) => [...new Map(ls.map((l) => [l.price, l])).values()];

  it('visits what the reader yields, for any sequence of settings, books, deltas, mids, trades and resolutions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 10, maxLength: 80, size: 'max' }),
        fc.integer({ min: 16, max: 1500 }),
        fc.constantFrom<Codec>('deflate-raw', 'brotli'),
        fc.array(fc.integer({ min: -50, max: 400 }), { minLength: 2, maxLength: 2 }),
        async (ops, chunkBytes, codec, [step, lat]) => {
          const mem = memoryEncoder({ chunkBytes, codec });
          const known = new Set<string>(['A']);
          let ts = 1_700_000_000_000;
          mem.enc.settings(settings('A', '0xA'), ts, ts);
          for (const o of ops) {
            ts += Math.max(0, step!);
            if (o.op === 'settings') {
              mem.enc.settings(settings(o.token, `0x${o.token}`, o.tick), ts, ts + lat!);
              known.add(o.token);
              continue;
            }
            if (!known.has(o.token)) continue;
            if (o.op === 'book')
              mem.enc.book(o.token, ts, ts + lat!, {
                bids: dedupe(o.bids) as never,
                asks: dedupe(o.asks) as never,
                hash: o.hash,
              });
            else if (o.op === 'delta') mem.enc.delta(o.token, ts, ts + lat!, o.changes as never);
            else if (o.op === 'mid') mem.enc.mid(o.token, ts, ts + lat!, o.mid as Price);
            else if (o.op === 'trade')
              mem.enc.trade(o.token, ts, ts + lat!, {
                price: o.price as Price,
                size: o.size as Shares,
                side: o.sell ? 'SELL' : 'BUY',
              });
            else mem.enc.resolved(`0x${o.token}`, o.token, ts, ts + lat!);
          }
          mem.enc.flush();
          await expectSame(mem.bytes());
        },
      ),
      { numRuns: 200, seed: 15 },
    );
  });
});

describe('RecordingCursor on damaged files', () => {
  /** A recording of several chunks over two tokens (as truncation.test.ts builds it). */
  function sample(chunkBytes = 200, deltas = 120): { buf: Buffer; ends: number[] } {
    const mem = memoryEncoder({ chunkBytes });
    const rnd = mulberry32(chunkBytes);
    for (const t of ['A', 'B']) {
      mem.enc.settings(settings(t, 'C', 1_000), 1_000, 1_001);
      mem.enc.book(t, 1_000, 1_001, {
        bids: [{ price: 400_000 as Price, size: 1_000_000 as Shares }],
        asks: [{ price: 420_000 as Price, size: 3_000_000 as Shares }],
        hash: 'h',
      });
    }
    for (let i = 0; i < deltas; i++) {
      const t = i % 2 === 0 ? 'A' : 'B';
      mem.enc.delta(t, 1_000 + i * 250, 1_030 + i * 250, [
        {
          side: i % 3 === 0 ? 'asks' : 'bids',
          price: (380_000 + (i % 7) * 1_000) as Price,
          size: (Math.floor(rnd() * 4) * Math.floor(rnd() * 1e9)) as Shares,
        },
      ]);
      if (i % 10 === 0)
        mem.enc.trade(t, 1_000 + i * 250, 1_030 + i * 250, {
          price: 401_234 as Price,
          size: 10_000 as Shares,
          side: 'SELL',
        });
    }
    mem.enc.flush();
    return { buf: mem.bytes(), ends: mem.chunkEnds };
  }

  it('a cut anywhere stops at the same record with the same truncated tail', async () => {
    const { buf, ends } = sample();
    expect(ends.length).toBeGreaterThanOrEqual(4);
    for (let cut = 0; cut <= buf.length; cut += cut < 20 ? 1 : 29) {
      const run = await expectSame(buf.subarray(0, cut), false);
      const onBoundary = cut === 8 || ends.includes(cut);
      expect((run.tail as { status: string }).status).toBe(onBoundary ? 'complete' : 'truncated');
    }
  });

  it('a flipped byte, a bad length or a payload that does not decompress stops at the same place as the reader', async () => {
    const { buf, ends } = sample();
    const statuses = new Set<string>();
    const damaged: Buffer[] = [];
    for (let at = 8; at < buf.length; at += 31) {
      const b = Buffer.from(buf);
      b[at] = b[at]! ^ 0x5a;
      damaged.push(b);
    }
    // A chunk whose CRC matches but whose payload is not deflate: re-seal garbage under a valid CRC.
    const start = ends[1]!;
    const b = Buffer.from(buf);
    const len = b.readUInt32LE(start);
    b.fill(0xff, start + 12, start + 12 + len);
    const { chunkCrc } = await import('../../../src/marketdata/recording/format.js');
    b.writeUInt32LE(chunkCrc(b.subarray(start + 4, start + 8), b.subarray(start + 12, start + 12 + len)), start + 8);
    damaged.push(b);
    for (const d of damaged) {
      const run = await expectSame(d, false);
      statuses.add((run.tail as { status: string } | null)?.status ?? 'threw');
    }
    expect(statuses).toContain('corrupt');
    expect(statuses.has('truncated') || statuses.has('complete') || statuses.has('threw')).toBe(true);
  });

  it('from a file, a damaged chunk past the first 64 KiB reports the bytes read as the reader’s stream does', async () => {
    const { buf, ends } = sample(8192, 25_000);
    const mid = ends.findIndex((e) => e > 70_000);
    expect(mid).toBeGreaterThan(0);
    for (const [i, what] of [
      [mid, 'crc'],
      [mid + 1, 'length'],
    ] as const) {
      const b = Buffer.from(buf);
      const at = ends[i]!;
      if (what === 'crc') b[at + 20] = b[at + 20]! ^ 1;
      else b.writeUInt32LE(0xffffffff, at);
      const path = join(dir, `damaged-${what}.omrc`);
      writeFileSync(path, b);
      const want = await viaReader(RecordingReader.fromFile(path));
      const got = viaCursor(() => RecordingCursor.open(path), false);
      expect(got.tail).toEqual(want.tail);
      expect(got.events).toEqual(want.events);
      expect(want.tail).toMatchObject({ status: 'corrupt', validBytes: at });
    }
    const whole = join(dir, 'whole.omrc');
    writeFileSync(whole, buf.subarray(0, buf.length - 5));
    const c = RecordingCursor.open(whole);
    while (c.next());
    expect(c.tail).toMatchObject({ status: 'truncated', chunks: ends.length - 1, fileBytes: buf.length - 5 });
    expect(c.status).toBe('truncated');
    expect(c.goodBytes).toBe(ends[ends.length - 2]);
  });

  it('refuses a file that is not a recording, as the reader does', async () => {
    const path = join(dir, 'not.omrc');
    writeFileSync(path, 'hello, world');
    expect(() => RecordingCursor.open(path)).toThrow(RecordingFormatError);
    expect(() => RecordingCursor.fromBytes(Buffer.from('OMRC\u0002\u0001\u0000\u0000'))).toThrow(RecordingFormatError);
    await expect(viaReader(RecordingReader.fromFile(path)).then((r) => r.error)).resolves.toBeInstanceOf(
      RecordingFormatError,
    );
    expect(readFileSync(path, 'utf8')).toBe('hello, world');
  });
});

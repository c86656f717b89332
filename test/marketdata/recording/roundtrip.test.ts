// Round trip: random settings, books, deltas and mids written through the encoder (with small
// chunks, so restatements and grid refinements happen often) read back as the same events and the
// same books as a model ladder kept beside the writer; and the file writer's append/resume path.
import { mkdtemp, rm, stat, truncate, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeBook, type Level } from '../../../src/core/book.js';
import { InvariantError } from '../../../src/core/errors.js';
import type { Price, Shares } from '../../../src/core/money.js';
import {
  RecordingFormatError,
  type LevelChange,
  type RecordedMarketSettings,
} from '../../../src/marketdata/recording/format.js';
import { readAll, RecordingReader } from '../../../src/marketdata/recording/reader.js';
import { RecordingWriter } from '../../../src/marketdata/recording/writer.js';
import { Ladder } from '../../../src/marketdata/recording/ladder.js';
import { memoryEncoder, plainEvents, readerOf, type Plain } from './support.js';

const TOKENS = [
  '76670567130917723816490572615540605537878462672464291990940067659127658071111',
  '54179564009642723353355316176091991063553046330768303687769988635499280029688',
  'l1:some-slug',
];

const priceArb = fc.oneof(
  fc.integer({ min: 1, max: 99 }).map((k) => k * 10_000),
  fc.integer({ min: 1, max: 999 }).map((k) => k * 1_000),
  fc.integer({ min: 1, max: 999_999 }),
) as fc.Arbitrary<Price>;
const sizeArb = fc.oneof(
  fc.integer({ min: 1, max: 10_000_000 }).map((k) => k * 10_000),
  fc.integer({ min: 1, max: 1e13 }),
) as fc.Arbitrary<Shares>;
const levelsArb = fc.uniqueArray(fc.record({ price: priceArb, size: sizeArb }), {
  selector: (l) => l.price,
  maxLength: 30,
});
const settingsArb = fc.record({
  tickSize: fc.constantFrom(null, 10_000, 1_000, 100) as fc.Arbitrary<Price | null>,
  minOrderSize: fc.option(fc.integer({ min: 0, max: 1e9 })) as fc.Arbitrary<Shares | null>,
  negRisk: fc.option(fc.boolean()),
  makerFeeBps: fc.option(fc.integer({ min: 0, max: 1000 })),
  takerFeeBps: fc.option(fc.integer({ min: 0, max: 1000 })),
  rewards: fc.option(
    fc.record({
      dailyRate: fc.integer({ min: 0, max: 1e12 }),
      minSize: fc.integer({ min: 0, max: 1e10 }),
      maxSpread: fc.integer({ min: 0, max: 100_000 }),
    }),
  ),
}) as unknown as fc.Arbitrary<Omit<RecordedMarketSettings, 'tokenId' | 'conditionId'>>;
const tsStep = fc.integer({ min: -5_000, max: 600_000 });
const latency = fc.integer({ min: -2_000, max: 2_000 });

type Op =
  | {
      t: 'settings';
      token: number;
      s: Omit<RecordedMarketSettings, 'tokenId' | 'conditionId'>;
      dt: number;
      lat: number;
    }
  | { t: 'book'; token: number; bids: Level[]; asks: Level[]; hash: string; ltp: Price | null; dt: number; lat: number }
  | { t: 'delta'; token: number; changes: LevelChange[]; dt: number; lat: number }
  | { t: 'mid'; token: number; mid: Price; dt: number; lat: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('settings' as const),
      token: fc.nat(2),
      s: settingsArb,
      dt: tsStep,
      lat: latency,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('book' as const),
      token: fc.nat(2),
      bids: levelsArb,
      asks: levelsArb,
      hash: fc.stringMatching(/^[0-9a-f]{0,40}$/),
      ltp: fc.option(priceArb),
      dt: tsStep,
      lat: latency,
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant('delta' as const),
      token: fc.nat(2),
      changes: fc.array(
        fc.record({
          side: fc.constantFrom('bids' as const, 'asks' as const),
          price: priceArb,
          size: fc.oneof(fc.constant(0 as Shares), sizeArb),
        }),
        { maxLength: 5 },
      ),
      dt: tsStep,
      lat: latency,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('mid' as const), token: fc.nat(2), mid: priceArb, dt: tsStep, lat: latency }),
  },
);

/** Writes the ops (settings first for each token) and returns the events a reader must yield. */
function drive(ops: Op[], chunkBytes: number, codec: 'deflate-raw' | 'brotli') {
  const mem = memoryEncoder({ chunkBytes, codec });
  const expected: Plain[] = [];
  const settings = new Map<string, RecordedMarketSettings>();
  const ladders = new Map<string, { ladder: Ladder; hash: string; ltp: Price | null; ts: number }>();
  let ts = 1_790_658_661_234;
  const defaults: Omit<RecordedMarketSettings, 'tokenId' | 'conditionId'> = {
    tickSize: 1_000 as Price,
    minOrderSize: null,
    negRisk: null,
    makerFeeBps: null,
    takerFeeBps: null,
    rewards: null,
  };
  for (const op of ops) {
    ts += op.dt;
    const local = ts + op.lat;
    const tokenId = TOKENS[op.token]!;
    const base = { tokenId, exchangeTs: ts, localTs: local };
    if (op.t === 'settings' || !settings.has(tokenId)) {
      const s: RecordedMarketSettings = {
        tokenId,
        conditionId: `0xcond${op.token}`,
        ...(op.t === 'settings' ? op.s : defaults),
      };
      mem.enc.settings(s, ts, local);
      settings.set(tokenId, s);
      expected.push({ ...base, kind: 'settings', detail: s });
      if (op.t === 'settings') continue;
    }
    const s = settings.get(tokenId)!;
    let st = ladders.get(tokenId);
    if (st === undefined) {
      st = { ladder: new Ladder(), hash: '', ltp: null, ts };
      ladders.set(tokenId, st);
    }
    const book = () =>
      makeBook({
        market: s.conditionId,
        assetId: tokenId,
        timestampMs: st.ts,
        hash: st.hash,
        bids: st.ladder.bids.slice(),
        asks: st.ladder.asks.slice(),
        minOrderSize: s.minOrderSize,
        tickSize: s.tickSize,
        negRisk: s.negRisk,
        lastTradePrice: st.ltp,
      });
    if (op.t === 'book') {
      mem.enc.book(tokenId, ts, local, { bids: op.bids, asks: op.asks, hash: op.hash, lastTradePrice: op.ltp });
      const sorted = makeBook({ market: '', assetId: '', timestampMs: 0, bids: op.bids, asks: op.asks });
      st.ladder.replace(sorted.bids, sorted.asks);
      st.hash = op.hash;
      st.ltp = op.ltp;
      st.ts = ts;
      expected.push({ ...base, kind: 'book', detail: { hash: op.hash, book: book() } });
    } else if (op.t === 'delta') {
      mem.enc.delta(tokenId, ts, local, op.changes);
      for (const c of op.changes) st.ladder.set(c.side, c.price, c.size);
      st.hash = '';
      st.ts = ts;
      expected.push({ ...base, kind: 'delta', detail: { changes: op.changes, book: book() } });
    } else {
      mem.enc.mid(tokenId, ts, local, op.mid);
      expected.push({ ...base, kind: 'mid', detail: op.mid });
    }
  }
  mem.enc.flush();
  return { mem, expected };
}

describe('recording round trip', () => {
  it('reads back every event and rebuilds every book exactly (random streams, small chunks, any stream slicing)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { maxLength: 80 }),
        fc.integer({ min: 16, max: 2048 }),
        fc.constantFrom('deflate-raw' as const, 'brotli' as const),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 5 }),
        async (ops, chunkBytes, codec, slices) => {
          const { mem, expected } = drive(ops, chunkBytes, codec);
          const reader = readerOf(mem.bytes(), slices);
          expect(await plainEvents(reader)).toEqual(expected);
          expect(reader.tail).toMatchObject({ status: 'complete', chunks: mem.chunkEnds.length, codec });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('restates settings and books at chunk starts, flagged, only when asked', async () => {
    const { mem } = drive(
      [
        {
          t: 'book',
          token: 0,
          bids: [{ price: 300_000 as Price, size: 5_000_000 as Shares }],
          asks: [{ price: 400_000 as Price, size: 1 as Shares }],
          hash: 'ab',
          ltp: null,
          dt: 0,
          lat: 5,
        },
        {
          t: 'delta',
          token: 0,
          changes: [{ side: 'bids', price: 310_000 as Price, size: 2_000_000 as Shares }],
          dt: 100,
          lat: 5,
        },
      ],
      1,
      'deflate-raw',
    );
    expect(mem.chunkEnds.length).toBe(3);
    const quiet = await readAll(readerOf(mem.bytes()));
    expect(quiet.map((e) => e.kind)).toEqual(['settings', 'book', 'delta']);
    const loud = await readAll(readerOf(mem.bytes(), undefined, { includeRestatements: true }));
    expect(loud.map((e) => `${e.kind}${e.restated ? '*' : ''}`)).toEqual([
      'settings',
      'settings*',
      'book',
      'settings*',
      'book*',
      'delta',
    ]);
  });

  it('refuses a book before settings, and book() after a later change of the same token', async () => {
    const mem = memoryEncoder();
    expect(() => mem.enc.book('x', 1, 1, { bids: [], asks: [] })).toThrow(InvariantError);
    const { mem: m2 } = drive(
      [
        {
          t: 'book',
          token: 0,
          bids: [{ price: 300_000 as Price, size: 10_000 as Shares }],
          asks: [],
          hash: '',
          ltp: null,
          dt: 0,
          lat: 0,
        },
        { t: 'mid', token: 1, mid: 500_000 as Price, dt: 1, lat: 0 },
        {
          t: 'delta',
          token: 0,
          changes: [{ side: 'bids', price: 300_000 as Price, size: 0 as Shares }],
          dt: 1,
          lat: 0,
        },
      ],
      1 << 16,
      'deflate-raw',
    );
    const events = await readAll(readerOf(m2.bytes()));
    const first = events[1];
    expect(first?.kind).toBe('book');
    if (first?.kind !== 'book') return;
    expect(() => first.book()).toThrow(InvariantError);
    const last = events[events.length - 1];
    if (last?.kind !== 'delta') throw new Error('expected a delta last');
    expect(last.book().bids).toEqual([]);
  });
});

describe('RecordingWriter (file)', () => {
  it('writes a file the streaming reader reads back, and a reopened file cuts a torn tail and appends', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'omrec-'));
    try {
      const path = join(dir, 'r.omrec');
      const s: RecordedMarketSettings = {
        tokenId: 'T',
        conditionId: 'C',
        tickSize: 10_000 as Price,
        minOrderSize: 5_000_000 as Shares,
        negRisk: false,
        makerFeeBps: 0,
        takerFeeBps: 200,
        rewards: { dailyRate: 750_000_000 as never, minSize: 200_000_000 as Shares, maxSpread: 15_000 as Price },
      };
      const w = await RecordingWriter.open(path, { chunkBytes: 64 });
      expect(w.recovered).toBeNull();
      w.settings(s, 1000, 1010);
      w.book('T', 1000, 1010, {
        bids: [{ price: 450_000 as Price, size: 10_000_000 as Shares }],
        asks: [{ price: 470_000 as Price, size: 3_000_000 as Shares }],
      });
      for (let i = 1; i <= 40; i++)
        w.delta('T', 1000 + i * 100, 1010 + i * 100, [
          { side: 'bids', price: 440_000 as Price, size: (i * 10_000) as Shares },
        ]);
      await w.close();
      const first = await readAll(RecordingReader.fromFile(path));
      expect(first.length).toBe(42);
      // Tear the file inside its last chunk, then append garbage-free data after reopening.
      const size = (await stat(path)).size;
      await truncate(path, size - 3);
      await appendFile(path, Buffer.from([1, 2]));
      const w2 = await RecordingWriter.open(path);
      expect(w2.recovered?.status).toBe('truncated');
      expect(() => w2.delta('T', 9000, 9000, [])).toThrow(InvariantError);
      w2.settings(s, 9000, 9001);
      w2.book('T', 9000, 9001, { bids: [], asks: [{ price: 480_000 as Price, size: 1 as Shares }] });
      await w2.close();
      const reader = RecordingReader.fromFile(path);
      const all = await readAll(reader);
      expect(reader.tail?.status).toBe('complete');
      const tail = all.slice(-2);
      expect(tail.map((e) => e.kind)).toEqual(['settings', 'book']);
      expect(all.length).toBeLessThan(44);
      expect(all.length).toBeGreaterThan(2);
      const settingsBack = all[0];
      expect(settingsBack?.kind === 'settings' && settingsBack.settings).toEqual(s);
      // A file that is not a recording is never truncated or appended to.
      const other = join(dir, 'notes.txt');
      await appendFile(other, 'hello, world');
      await expect(RecordingWriter.open(other)).rejects.toBeInstanceOf(RecordingFormatError);
      expect((await stat(other)).size).toBe(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

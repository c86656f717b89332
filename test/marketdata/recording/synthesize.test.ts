// The synthetic recording generator: the same seed writes a byte-identical file (another seed does
// not); read back with RecordingReader, every book of both tokens is uncrossed with `levels` levels
// at most per side and the mid in [0.05, 0.95], the NO book is the YES book mirrored after every
// update instant, trades sit at the touch for less than it shows, local times never go back, and
// the counts returned are what the reader reads. Options out of range are refused.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Book, Level } from '../../../src/core/book.js';
import { OptionError } from '../../../src/core/errors.js';
import { RecordingReader } from '../../../src/marketdata/recording/reader.js';
import { synthesizeRecording, synthMarket, type SynthOptions } from '../../../src/marketdata/recording/synthesize.js';

const BASE: SynthOptions = {
  markets: 4,
  durationMs: 10 * 60_000,
  startMs: 1_767_225_600_000,
  seed: 42,
  updateEveryMs: 500,
  levels: 6,
  changesPerUpdate: 3,
  tradeEvery: 4,
  moveChance: 0.3,
  chunkBytes: 4096,
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'om-synth-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** NO's view of a YES book: a NO bid at 1 − p for every YES ask at p, and the other way round. */
function mirror(levels: readonly Level[]): { price: number; size: number }[] {
  return levels.map((l) => ({ price: 1_000_000 - l.price, size: l.size }));
}

describe('synthesizeRecording', () => {
  it('writes byte-identical files for the same seed, and another file for another seed', async () => {
    const a = join(dir, 'a.omrc');
    const b = join(dir, 'b.omrc');
    const c = join(dir, 'c.omrc');
    const sa = await synthesizeRecording(a, BASE);
    const sb = await synthesizeRecording(b, BASE);
    await synthesizeRecording(c, { ...BASE, seed: 43 });
    expect(sb).toEqual(sa);
    expect(readFileSync(b).equals(readFileSync(a))).toBe(true);
    expect(readFileSync(c).equals(readFileSync(a))).toBe(false);
    // Writing over an existing file replaces it rather than appending.
    await synthesizeRecording(a, BASE);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('reads back as uncrossed, mirrored books with trades at the touch, in time order, counted as returned', async () => {
    const path = join(dir, 'check.omrc');
    const stats = await synthesizeRecording(path, BASE);
    const reader = RecordingReader.fromFile(path);
    const counts = { events: 0, settings: 0, book: 0, delta: 0, trade: 0, other: 0 };
    const yesOf = new Map<string, string>();
    const noOf = new Map<string, string>();
    const markets = new Set<string>();
    for (let i = 0; i < BASE.markets; i++) {
      const m = synthMarket(BASE.seed, i);
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.yesTokenId).toMatch(/^[1-9][0-9]{70,}$/);
      yesOf.set(m.noTokenId, m.yesTokenId);
      noOf.set(m.yesTokenId, m.noTokenId);
    }
    const books = new Map<string, Book>();
    let lastLocal = -Infinity;
    const lastEx = new Map<string, number>();
    let pending: { local: number; tokens: Set<string> } | null = null;
    const checkMirrors = (): void => {
      if (pending === null) return;
      for (const t of pending.tokens) {
        const yesId = yesOf.get(t) ?? t;
        const noId = noOf.get(yesId)!;
        const yes = books.get(yesId)!;
        const no = books.get(noId)!;
        expect(no.bids).toEqual(mirror(yes.asks));
        expect(no.asks).toEqual(mirror(yes.bids));
      }
      pending = null;
    };
    for await (const e of reader) {
      counts.events++;
      expect(e.localTs).toBeGreaterThanOrEqual(lastLocal);
      expect(e.exchangeTs).toBeGreaterThanOrEqual(lastEx.get(e.tokenId) ?? -Infinity);
      expect(e.exchangeTs).toBeLessThan(e.localTs);
      lastLocal = e.localTs;
      lastEx.set(e.tokenId, e.exchangeTs);
      if (pending !== null && pending.local !== e.localTs) checkMirrors();
      if (e.kind === 'settings') {
        counts.settings++;
        markets.add(e.settings.conditionId);
        expect(e.settings).toMatchObject({ tickSize: 10_000, minOrderSize: 5_000_000, makerFeeBps: 0, takerFeeBps: 0 });
      } else if (e.kind === 'book' || e.kind === 'delta') {
        counts[e.kind]++;
        const book = e.book();
        books.set(e.tokenId, book);
        const bid = book.bids[0]!.price;
        const ask = book.asks[0]!.price;
        expect(bid).toBeLessThan(ask);
        expect(book.bids.length).toBeLessThanOrEqual(BASE.levels!);
        expect(book.asks.length).toBeLessThanOrEqual(BASE.levels!);
        expect(bid + ask).toBeGreaterThanOrEqual(2 * 50_000);
        expect(bid + ask).toBeLessThanOrEqual(2 * 950_000);
        for (const l of [...book.bids, ...book.asks]) expect(l.price % 10_000).toBe(0);
        pending ??= { local: e.localTs, tokens: new Set() };
        pending.tokens.add(e.tokenId);
      } else if (e.kind === 'trade') {
        counts.trade++;
        // The trade comes before the delta that takes its size off the touch: check the book as it was.
        const book = books.get(e.tokenId)!;
        const touch = e.side === 'BUY' ? book.asks[0]! : book.bids[0]!;
        expect(e.price).toBe(touch.price);
        expect(e.size).toBeLessThan(touch.size);
        expect(e.size).toBeGreaterThan(0);
      } else {
        counts.other++;
      }
    }
    checkMirrors();
    expect(reader.tail?.status).toBe('complete');
    expect(counts.other).toBe(0);
    expect(markets.size).toBe(BASE.markets);
    expect(stats).toEqual({
      events: counts.events,
      bookEvents: counts.book,
      deltaEvents: counts.delta,
      trades: counts.trade,
      markets: BASE.markets,
      tokens: 2 * BASE.markets,
    });
    expect(counts.settings).toBe(2 * BASE.markets);
    // Mean gap 500 ms over 10 minutes and 4 markets: about 4800 updates, each a YES and a NO delta.
    expect(counts.delta).toBeGreaterThan(2 * 4000);
    expect(counts.delta).toBeLessThan(2 * 5600);
    expect(counts.trade).toBeGreaterThan(counts.delta / 2 / 4 / 2);
  });

  it('keeps the mid inside [0.05, 0.95] when it moves on every update', async () => {
    const path = join(dir, 'walk.omrc');
    await synthesizeRecording(path, {
      ...BASE,
      markets: 1,
      moveChance: 1,
      tradeEvery: 0,
      durationMs: 30 * 60_000,
      updateEveryMs: 100,
    });
    let lo = Infinity;
    let hi = -Infinity;
    for await (const e of RecordingReader.fromFile(path)) {
      if (e.kind !== 'delta' && e.kind !== 'book') continue;
      const b = e.book();
      const mid2 = b.bids[0]!.price + b.asks[0]!.price;
      expect(b.bids[0]!.price).toBeLessThan(b.asks[0]!.price);
      lo = Math.min(lo, mid2);
      hi = Math.max(hi, mid2);
    }
    expect(lo).toBeGreaterThanOrEqual(100_000);
    expect(hi).toBeLessThanOrEqual(1_900_000);
    expect(hi - lo).toBeGreaterThan(200_000);
  });

  it('refuses options out of range', async () => {
    for (const bad of [
      { markets: 0 },
      { updateEveryMs: 0 },
      { levels: 0 },
      { tickSize: 3 },
      { tradeEvery: -1 },
      { seed: 1.5 },
    ]) {
      await expect(synthesizeRecording(join(dir, 'bad.omrc'), { ...BASE, ...bad })).rejects.toBeInstanceOf(OptionError);
    }
  });
});

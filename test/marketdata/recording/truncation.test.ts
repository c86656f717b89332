// Crash safety: a recording cut at any byte of its last chunk reads back every complete chunk and
// reports the truncation; a damaged chunk (any flipped payload byte, a bad CRC or length) stops
// reading there and is reported as corrupt; a file that is not a recording is refused.
import { describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../../src/core/money.js';
import { RecordingFormatError } from '../../../src/marketdata/recording/format.js';
import { readAll } from '../../../src/marketdata/recording/reader.js';
import { memoryEncoder, plainEvents, readerOf } from './support.js';

/** A recording of 4+ chunks over two tokens; returns it and the events of each chunk prefix. */
async function sample() {
  const mem = memoryEncoder({ chunkBytes: 200 });
  const tokens = ['A', 'B'];
  for (const t of tokens) {
    mem.enc.settings(
      {
        tokenId: t,
        conditionId: 'C',
        tickSize: 1_000 as Price,
        minOrderSize: 5_000_000 as Shares,
        negRisk: false,
        makerFeeBps: null,
        takerFeeBps: null,
        rewards: null,
      },
      1_000,
      1_001,
    );
    mem.enc.book(t, 1_000, 1_001, {
      bids: [
        { price: 400_000 as Price, size: 1_000_000 as Shares },
        { price: 390_000 as Price, size: 2_000_000 as Shares },
      ],
      asks: [{ price: 420_000 as Price, size: 3_000_000 as Shares }],
      hash: 'h',
    });
  }
  for (let i = 0; i < 120; i++) {
    const t = tokens[i % 2]!;
    mem.enc.delta(t, 1_000 + i * 250, 1_030 + i * 250, [
      {
        side: i % 3 === 0 ? 'asks' : 'bids',
        price: (380_000 + (i % 7) * 1_000) as Price,
        size: ((i % 5) * 1_230_000) as Shares,
      },
    ]);
    if (i % 10 === 0) mem.enc.mid(t, 1_000 + i * 250, 1_030 + i * 250, 410_000 as Price);
  }
  mem.enc.flush();
  const buf = mem.bytes();
  return { buf, ends: mem.chunkEnds };
}

describe('truncated and damaged recordings', () => {
  it('a cut at every byte offset inside the last chunk reads all complete chunks and reports truncation', async () => {
    const { buf, ends } = await sample();
    expect(ends.length).toBeGreaterThanOrEqual(4);
    const lastStart = ends[ends.length - 2]!;
    const complete = await plainEvents(readerOf(buf.subarray(0, lastStart)));
    const all = await plainEvents(readerOf(buf));
    expect(complete.length).toBeLessThan(all.length);
    expect(all.slice(0, complete.length)).toEqual(complete);
    for (let cut = lastStart + 1; cut < buf.length; cut++) {
      const reader = readerOf(buf.subarray(0, cut), [97]);
      expect(await plainEvents(reader)).toEqual(complete);
      expect(reader.tail).toMatchObject({
        status: 'truncated',
        chunks: ends.length - 1,
        validBytes: lastStart,
        fileBytes: cut,
      });
    }
    const whole = readerOf(buf);
    await readAll(whole);
    expect(whole.tail).toMatchObject({ status: 'complete', chunks: ends.length, validBytes: buf.length });
  });

  it('a file cut inside its header or empty yields nothing and says so', async () => {
    const { buf } = await sample();
    for (const cut of [0, 3, 7]) {
      const reader = readerOf(buf.subarray(0, cut));
      expect(await readAll(reader)).toEqual([]);
      expect(reader.tail).toMatchObject({ status: 'truncated', codec: null, chunks: 0 });
    }
  });

  it('any flipped byte of a middle chunk (header or payload) stops reading before it, reported corrupt', async () => {
    const { buf, ends } = await sample();
    const k = 1; // the second chunk
    const start = ends[k - 1]!;
    const end = ends[k]!;
    const before = await plainEvents(readerOf(buf.subarray(0, start)));
    for (let at = start; at < end; at++) {
      const bad = Buffer.from(buf);
      bad[at] = bad[at]! ^ 0x5a;
      const reader = readerOf(bad);
      const events = await plainEvents(reader);
      // A damaged length can also make the chunk look longer than the file: that is truncation.
      expect(['corrupt', 'truncated']).toContain(reader.tail?.status);
      expect(reader.tail).toMatchObject({ chunks: k, validBytes: start });
      expect(events).toEqual(before);
      if (at >= start + 4) expect(reader.tail?.status).toBe('corrupt');
    }
  });

  it('refuses a file that is not a recording', async () => {
    const { buf } = await sample();
    const bad = Buffer.from(buf);
    bad[0] = 0x7b;
    await expect(readAll(readerOf(bad))).rejects.toBeInstanceOf(RecordingFormatError);
    const future = Buffer.from(buf);
    future[4] = 9;
    await expect(readAll(readerOf(future))).rejects.toThrow(/version 9/);
  });
});

// TRADE and RESOLVED records: random trades interleaved with books round-trip exactly (price µ off
// the tick grid, sizes in lots or raw millionths, both taker sides, second-resolution exchange
// times) across chunk boundaries; RESOLVED names the winner and its market; a resolution of a
// token of another market, or of a token without settings, is refused; a chunk that starts with a
// trade restates the token's settings, so any chunk decodes alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../../../src/core/errors.js';
import type { Price, Shares } from '../../../src/core/money.js';
import type { RecordedMarketSettings } from '../../../src/marketdata/recording/format.js';
import { readAll, RecordingReader, type RecordingEvent } from '../../../src/marketdata/recording/reader.js';
import { memoryEncoder, readBuffer, sliced } from './support.js';

const settings = (tokenId: string, conditionId = '0xc1'): RecordedMarketSettings => ({
  tokenId,
  conditionId,
  tickSize: 10_000 as Price,
  minOrderSize: 5_000_000 as Shares,
  negRisk: false,
  makerFeeBps: 0,
  takerFeeBps: 0,
  rewards: null,
});

const tradeArb = fc.record({
  token: fc.constantFrom('111', '222'),
  price: fc.integer({ min: 1, max: 999_999 }) as fc.Arbitrary<Price>,
  size: fc.oneof(
    fc.integer({ min: 1, max: 1_000_000 }).map((k) => k * 10_000),
    fc.integer({ min: 1, max: 1e12 }),
  ) as fc.Arbitrary<Shares>,
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  sec: fc.integer({ min: 0, max: 5 }),
  lat: fc.integer({ min: 0, max: 3_000 }),
});

describe('TRADE and RESOLVED records', () => {
  it('round-trip every field, across chunks, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tradeArb, { maxLength: 80 }),
        fc.integer({ min: 16, max: 400 }),
        async (trades, chunkBytes) => {
          const mem = memoryEncoder({ chunkBytes });
          mem.enc.settings(settings('111'), 1_000, 1_000);
          mem.enc.settings(settings('222'), 1_000, 1_000);
          mem.enc.book('111', 1_000, 1_005, {
            bids: [{ price: 400_000 as Price, size: 10_000_000 as Shares }],
            asks: [],
          });
          let sec = 1_700_000_000;
          const want: unknown[] = [];
          for (const t of trades) {
            sec += t.sec;
            mem.enc.trade(t.token, sec * 1000, sec * 1000 + t.lat, { price: t.price, size: t.size, side: t.side });
            want.push({
              kind: 'trade',
              tokenId: t.token,
              exchangeTs: sec * 1000,
              localTs: sec * 1000 + t.lat,
              restated: false,
              price: t.price,
              size: t.size,
              side: t.side,
            });
          }
          mem.enc.resolved('0xc1', '222', sec * 1000, sec * 1000 + 7);
          want.push({
            kind: 'resolved',
            tokenId: '222',
            conditionId: '0xc1',
            exchangeTs: sec * 1000,
            localTs: sec * 1000 + 7,
            restated: false,
          });
          mem.enc.flush();
          expect(mem.enc.stats.trades).toBe(trades.length);
          const { events, reader } = await readBuffer(mem.bytes(), [7, 300, 1]);
          expect(reader.tail?.status).toBe('complete');
          const got = events.filter((e) => e.kind === 'trade' || e.kind === 'resolved');
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a chunk that starts with a trade decodes alone (its settings are restated)', async () => {
    const mem = memoryEncoder({ chunkBytes: 1 });
    mem.enc.settings(settings('111'), 1_000, 1_000);
    mem.enc.trade('111', 2_000, 2_010, { price: 520_000 as Price, size: 12_340_000 as Shares, side: 'SELL' });
    mem.enc.trade('111', 3_000, 3_010, { price: 510_000 as Price, size: 1 as Shares, side: 'BUY' });
    const all = mem.bytes();
    // Header + the last chunk alone.
    const lastStart = mem.chunkEnds[mem.chunkEnds.length - 2] as number;
    const alone = Buffer.concat([all.subarray(0, 8), all.subarray(lastStart)]);
    const events: RecordingEvent[] = await readAll(new RecordingReader(sliced(alone)));
    expect(events).toEqual([
      {
        kind: 'trade',
        tokenId: '111',
        exchangeTs: 3_000,
        localTs: 3_010,
        restated: false,
        price: 510_000,
        size: 1,
        side: 'BUY',
      },
    ]);
    const withRestated = await readAll(new RecordingReader(sliced(alone), { includeRestatements: true }));
    expect(withRestated[0]).toMatchObject({
      kind: 'settings',
      restated: true,
      settings: { tokenId: '111', conditionId: '0xc1' },
    });
  });

  it('refuses a trade or resolution of an unknown token, a winner of another market, and bad trade fields', () => {
    const mem = memoryEncoder();
    mem.enc.settings(settings('111'), 1_000, 1_000);
    expect(() => mem.enc.trade('999', 1, 1, { price: 500_000 as Price, size: 10_000 as Shares, side: 'BUY' })).toThrow(
      InvariantError,
    );
    expect(() => mem.enc.resolved('0xc1', '999', 1, 1)).toThrow(InvariantError);
    expect(() => mem.enc.resolved('0xother', '111', 1, 1)).toThrow(InvariantError);
    expect(() => mem.enc.trade('111', 1, 1, { price: 0 as Price, size: 10_000 as Shares, side: 'BUY' })).toThrow(
      InvariantError,
    );
    expect(() =>
      mem.enc.trade('111', 1, 1, { price: 1_000_000 as Price, size: 10_000 as Shares, side: 'BUY' }),
    ).toThrow(InvariantError);
    expect(() => mem.enc.trade('111', 1, 1, { price: 500_000 as Price, size: 0 as Shares, side: 'BUY' })).toThrow(
      InvariantError,
    );
    expect(() =>
      mem.enc.trade('111', 1, 1, { price: 500_000 as Price, size: 10_000 as Shares, side: 'HOLD' as 'BUY' }),
    ).toThrow(InvariantError);
  });
});

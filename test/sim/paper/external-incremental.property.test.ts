// The external liquidity is replaced incrementally (external.ts: only levels that changed or were
// traded are cancelled and re-posted). Property: that is indistinguishable, for our orders, from
// cancelling the whole external book and posting the new one. Two venues see the same random
// books (both tokens, moving mids, locked and crossed books, sizes changing level by level) and the
// same orders of ours (resting, crossing, IOC, cancels); one uses the shipped `cross` model, the
// other a model that first empties the external book and then posts the new one. Every fill (id,
// price, size, liquidity, time) and every order record must be equal after every step, and the
// incremental venue posts fewer external orders whenever books repeat levels.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeBook, type Level } from '../../../src/core/book.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType } from '../../../src/core/order.js';
import { paperMarketFromSettings, PaperVenue, type FillModel, type PaperFill } from '../../../src/sim/paper/index.js';
import { settings } from './helpers.js';

const CID = `0x${'5e'.repeat(32)}`;
const YES = '2001';
const NO = '2002';

/** The reference: every fed book first empties the external book, then posts the new one. */
const FULL_REPLACE: FillModel = {
  name: 'full-replace',
  onBook(desk, book) {
    desk.replace(book.conditionId, [], []);
    desk.replace(book.conditionId, book.bids, book.asks);
  },
};

type Step =
  | { kind: 'book'; token: 0 | 1; move: number; spread: number; edits: Array<[number, number]>; dt: number }
  | { kind: 'order'; token: 0 | 1; side: 'BUY' | 'SELL'; offset: number; size: number; type: OrderType }
  | { kind: 'cancel'; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('book' as const),
      token: fc.constantFrom(0 as const, 1 as const),
      move: fc.integer({ min: -1, max: 1 }),
      spread: fc.integer({ min: -1, max: 4 }),
      // Level edits: [level index 0–11 (bids 0–5, asks 6–11), new size in hundredths (0 removes)].
      edits: fc.array(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 30_000 })), { maxLength: 4 }),
      dt: fc.integer({ min: 0, max: 1_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      token: fc.constantFrom(0 as const, 1 as const),
      side: fc.constantFrom('BUY' as const, 'BUY' as const, 'SELL' as const),
      offset: fc.integer({ min: -3, max: 3 }),
      size: fc.integer({ min: 500, max: 20_000 }),
      type: fc.constantFrom<OrderType>('GTC', 'GTC', 'FAK'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
);

function venue(clock: VirtualClock, model?: FillModel): { v: PaperVenue; fills: PaperFill[] } {
  const v = new PaperVenue({
    clock,
    capital: (5_000 * SCALE) as Micros,
    ...(model === undefined ? {} : { fillModel: model }),
  });
  v.addMarket(paperMarketFromSettings(settings({ conditionId: CID, yes: YES, no: NO, tick: 0.01, minSize: 5 })));
  const fills: PaperFill[] = [];
  v.onFill((f) => fills.push(f));
  return { v, fills };
}

describe('external liquidity: incremental replacement', () => {
  it('gives exactly the fills and order records of a full replacement', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 5, maxLength: 60 }), (steps) => {
        const clock = new VirtualClock(Date.UTC(2026, 5, 1));
        const inc = venue(clock);
        const full = venue(clock, FULL_REPLACE);
        const sizes = Array.from({ length: 12 }, () => 10_000); // hundredths of a share per level
        let midCents = 50;
        let n = 0;
        const ids: string[] = [];
        for (const s of steps) {
          if (s.kind === 'book') {
            clock.advance(s.dt);
            midCents = Math.max(10, Math.min(90, midCents + s.move));
            for (const [i, sz] of s.edits) sizes[i] = sz;
            const bestBid = (midCents - 1) * 10_000;
            const bestAsk = bestBid + s.spread * 10_000;
            const side = (start: number, step: number, from: number): Level[] => {
              const out: Level[] = [];
              for (let k = 0; k < 6; k++) {
                const p = start + k * step;
                const sz = sizes[from + k] as number;
                if (sz > 0 && p > 0 && p < SCALE) out.push({ price: p as Price, size: (sz * 10_000) as Shares });
              }
              return out;
            };
            const bids = side(bestBid, -10_000, 0);
            const asks = side(bestAsk, 10_000, 6);
            const flip = (ls: Level[]): Level[] => ls.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));
            const book = makeBook({
              market: CID,
              assetId: s.token === 0 ? YES : NO,
              timestampMs: clock.now(),
              hash: '',
              bids: s.token === 0 ? bids : flip(asks),
              asks: s.token === 0 ? asks : flip(bids),
              tickSize: 10_000 as Price,
              minOrderSize: (5 * SCALE) as Shares,
            });
            expect(inc.v.applyBook(book)).toBe(full.v.applyBook(book));
          } else if (s.kind === 'order') {
            const id = `0x${(++n).toString(16)}`;
            const raw = (s.token === 0 ? midCents : 100 - midCents) * 10_000 + s.offset * 10_000;
            const price = Math.max(10_000, Math.min(SCALE - 10_000, raw)) as Price;
            const o = {
              id,
              tokenId: s.token === 0 ? YES : NO,
              side: s.side,
              price,
              size: (s.size * 10_000) as Shares,
              orderType: s.type,
              maker: '0xm',
              owner: 'k',
            };
            const a = inc.v.place(o);
            const b = full.v.place(o);
            expect(a.ok).toBe(b.ok);
            if (a.ok) ids.push(id);
          } else if (ids.length > 0) {
            const id = ids[s.pick % ids.length] as string;
            expect(inc.v.cancel(id)).toEqual(full.v.cancel(id));
          }
          const strip = (fs: PaperFill[]) =>
            fs.map((f) => [f.orderId, f.tokenId, f.side, f.price, f.size, f.liquidity, f.feeMicros, f.timeMs]);
          expect(strip(inc.fills)).toEqual(strip(full.fills));
          for (const id of ids) expect(inc.v.order(id)).toEqual(full.v.order(id));
        }
        expect(inc.v.stats().external.posted).toBeLessThanOrEqual(full.v.stats().external.posted);
      }),
      { numRuns: 300 },
    );
  });
});

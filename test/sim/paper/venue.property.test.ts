// Property test of the PaperVenue: random sequences of polled books (either token, sometimes locked
// or crossed, sometimes on another tick) and random orders of ours (every type, both tokens, both
// sides, post-only), cancels and time. After every step:
// - the engine's own audit passes (books never crossed, reservations exact, value conserved);
// - our positions equal the engine's token balances of our account, token by token;
// - our cash moved by exactly our fills: capital − Σ BUY (notional + fee) + Σ SELL (notional − fee);
// - every order record's sizeMatched is the sum of its fills and never exceeds its size; maker
//   fills are at the order's own price, taker fills never worse than its limit;
// - a fed book's external levels (capped, crossing bids dropped) all either rest in the engine or
//   traded with our resting orders during the feed, as maker fills of ours.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeBook, type Book, type Level } from '../../../src/core/book.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType } from '../../../src/core/order.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import {
  DEFAULT_EXTERNAL_LIMITS,
  paperMarketFromSettings,
  PaperVenue,
  sanitizeSide,
  type PaperFill,
} from '../../../src/sim/paper/index.js';
import { settings } from './helpers.js';

const CID = `0x${'7a'.repeat(32)}`;
const YES = '1001';
const NO = '1002';
const CAPITAL = 2_000 * SCALE;

type Step =
  | {
      kind: 'book';
      token: 0 | 1;
      tick: number;
      move: number;
      spread: number;
      bids: number[];
      asks: number[];
      dt: number;
    }
  | {
      kind: 'order';
      token: 0 | 1;
      side: 'BUY' | 'SELL';
      offset: number;
      size: number;
      type: OrderType;
      postOnly: boolean;
    }
  | { kind: 'cancel'; pick: number }
  | { kind: 'time'; dt: number };

const TICKS = [10_000, 1_000]; // 0.01 and 0.001

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('book' as const),
    token: fc.constantFrom(0 as const, 1 as const),
    tick: fc.constantFrom(...TICKS),
    move: fc.integer({ min: -3, max: 3 }), // cents the mid moves from the previous book
    spread: fc.integer({ min: -2, max: 6 }), // ticks between best bid and best ask (≤ 0: locked/crossed)
    bids: fc.array(fc.integer({ min: 1, max: 50_000 }), { maxLength: 6 }), // hundredths of a share
    asks: fc.array(fc.integer({ min: 1, max: 50_000 }), { maxLength: 6 }),
    dt: fc.integer({ min: 0, max: 2_000 }),
  }),
  fc.record({
    kind: fc.constant('order' as const),
    token: fc.constantFrom(0 as const, 1 as const),
    side: fc.constantFrom('BUY' as const, 'BUY' as const, 'SELL' as const), // SELLs need inventory from BUYs
    offset: fc.integer({ min: -4, max: 4 }), // cents from the current mid
    size: fc.integer({ min: 400, max: 20_000 }), // hundredths (some under the minimum of 5)
    type: fc.constantFrom<OrderType>('GTC', 'GTC', 'FOK', 'FAK'),
    postOnly: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('time' as const), dt: fc.integer({ min: 0, max: 10_000 }) }),
);

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function buildBook(s: Extract<Step, { kind: 'book' }>, midCents: number, ts: number): Book {
  const t = s.tick;
  const bestBid = midCents * 10_000 - t; // on both ticks
  const bestAsk = bestBid + s.spread * t;
  const lv = (start: number, step: number, sizes: number[]): Level[] => {
    const out: Level[] = [];
    sizes.forEach((sz, i) => {
      const p = start + i * step;
      if (p > 0 && p < SCALE) out.push({ price: p as Price, size: (sz * 10_000) as Shares });
    });
    return out;
  };
  const yesBids = lv(bestBid, -t, s.bids);
  const yesAsks = lv(bestAsk, t, s.asks);
  const flip = (ls: Level[]): Level[] => ls.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));
  return makeBook({
    market: CID,
    assetId: s.token === 0 ? YES : NO,
    timestampMs: ts,
    hash: `h${ts}-${s.token}`,
    bids: s.token === 0 ? yesBids : flip(yesAsks),
    asks: s.token === 0 ? yesAsks : flip(yesBids),
    tickSize: t as Price,
    minOrderSize: (5 * SCALE) as Shares,
  });
}

describe('PaperVenue: invariants under random books and orders', () => {
  it('audit, positions = balances, cash = fills, records = fills, fed levels rest or fill ours', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 10, maxLength: 80 }),
        fc.constantFrom(0, 100),
        fc.constantFrom(0, 200),
        (steps, makerBps, takerBps) => {
          const clock = new VirtualClock(Date.UTC(2026, 5, 1));
          const venue = new PaperVenue({ clock, capital: CAPITAL as Micros });
          venue.addMarket(
            paperMarketFromSettings(
              settings({ conditionId: CID, yes: YES, no: NO, tick: 0.01, minSize: 5, makerBps, takerBps }),
            ),
          );
          const fills: PaperFill[] = [];
          venue.onFill((f) => fills.push(f));
          const limits = new Map<string, { price: number; side: 'BUY' | 'SELL'; size: number }>();
          const ids: string[] = [];
          let n = 0;
          let midCents = 50;
          for (const s of steps) {
            if (s.kind === 'book') {
              clock.advance(s.dt);
              midCents = Math.max(5, Math.min(95, midCents + s.move));
              const book = buildBook(s, midCents, clock.now());
              const before = fills.length;
              const fed = venue.applyBook(book);
              if (fed === 'fed') {
                // The cross model's bookkeeping: every external level posted either still rests or
                // traded with our resting orders (maker fills during this feed), nothing else.
                const yesBids =
                  s.token === 0
                    ? book.bids
                    : book.asks.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));
                const yesAsks =
                  s.token === 0
                    ? book.asks
                    : book.bids.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));
                const asks = sanitizeSide(yesAsks, DEFAULT_EXTERNAL_LIMITS);
                const bestAsk = asks[0]?.price;
                const bids = sanitizeSide(yesBids, DEFAULT_EXTERNAL_LIMITS).filter(
                  (l) => bestAsk === undefined || l.price < bestAsk,
                );
                const view = venue.engine.bookView(YES)!;
                let ourBids = 0;
                let ourAsks = 0;
                for (const o of venue.openOrders()) {
                  const rem = o.originalSize - o.sizeMatched;
                  if ((o.assetId === YES) === (o.side === 'BUY')) ourBids += rem;
                  else ourAsks += rem;
                }
                const during = fills.slice(before);
                expect(during.every((f) => f.liquidity === 'maker')).toBe(true);
                const filledBids = sum(
                  during.filter((f) => (f.tokenId === YES) === (f.side === 'BUY')).map((f) => f.size),
                );
                const filledAsks = sum(during.map((f) => f.size)) - filledBids;
                expect(sum(asks.map((l) => l.size))).toBe(sum(view.asks.map((l) => l.size)) - ourAsks + filledBids);
                expect(sum(bids.map((l) => l.size))).toBe(sum(view.bids.map((l) => l.size)) - ourBids + filledAsks);
              }
            } else if (s.kind === 'order') {
              const id = `0x${(++n).toString(16)}`;
              const tick = venue.tickOf(CID) as number;
              // Around the last fed mid (own token terms), so that orders rest, take and get filled.
              const yesMid = midCents * 10_000;
              const raw = (s.token === 0 ? yesMid : SCALE - yesMid) + s.offset * 10_000;
              const price = Math.max(tick, Math.min(SCALE - tick, raw));
              const r = venue.place({
                id,
                tokenId: s.token === 0 ? YES : NO,
                side: s.side,
                price: price as Price,
                size: (s.size * 10_000) as Shares,
                orderType: s.type,
                ...(s.postOnly && s.type === 'GTC' ? { postOnly: true } : {}),
                maker: '0xm',
                owner: 'k',
              });
              if (r.ok) {
                ids.push(id);
                limits.set(id, { price, side: s.side, size: s.size * 10_000 });
              } else if (s.size < 500) expect(r.code).toBe('INVALID_MIN_SIZE');
            } else if (s.kind === 'cancel') {
              if (ids.length > 0) venue.cancel(ids[s.pick % ids.length] as string);
            } else {
              clock.advance(s.dt);
            }

            expect(auditEngine(venue.engine)).toEqual([]);
            const bal = venue.balances();
            const held = new Map(venue.positions('0xw').map((p) => [p.asset, p.size as number]));
            for (const t of [YES, NO]) {
              const b = bal.tokens.get(t);
              expect((b?.available ?? 0) + (b?.reserved ?? 0)).toBe(held.get(t) ?? 0);
            }
            let cash = CAPITAL;
            for (const f of fills) cash += f.side === 'BUY' ? -(f.notional + f.feeMicros) : f.notional - f.feeMicros;
            expect(bal.collateral.available + bal.collateral.reserved).toBe(cash);
          }
          const byOrder = new Map<string, number>();
          for (const f of fills) {
            byOrder.set(f.orderId, (byOrder.get(f.orderId) ?? 0) + f.size);
            const l = limits.get(f.orderId);
            expect(l).toBeDefined();
            if (f.liquidity === 'maker') expect(f.price).toBe(l!.price);
            else if (f.side === 'BUY') expect(f.price).toBeLessThanOrEqual(l!.price);
            else expect(f.price).toBeGreaterThanOrEqual(l!.price);
          }
          for (const id of ids) {
            const rec = venue.order(id);
            expect(rec).not.toBeNull();
            expect(rec!.sizeMatched).toBe(byOrder.get(id) ?? 0);
            expect(rec!.sizeMatched).toBeLessThanOrEqual(rec!.originalSize);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

// The queue fill model alone, with a desk that records what it is told and a fixed set of resting
// orders: the queue ahead is the recorded size at our price when we joined, decreases eat it
// first, only the excess fills us (lot-truncated, capped at our remaining size), an opposite level
// at our price counts as volume at our level and is not posted against us, the probabilistic
// variant turns decreases into cancels behind us on a losing draw; and a property: the queue
// model never fills more than the total decrease it saw beyond the queue ahead. Recorded trades:
// the trade eats the queue ahead first and only the remainder fills us, best price first, each
// share once; what a trade consumed at our level is not counted again when the next book shows the
// level shrink ("trades first"); trades that do not reach our price fill nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueueFillModel, type RestingOrder } from '../../src/backtest/fill-queue.js';
import type { Level } from '../../src/core/book.js';
import type { Price, Shares } from '../../src/core/money.js';
import type { ExternalBook, ExternalDesk } from '../../src/sim/paper/index.js';

const u = (x: number): number => Math.round(x * 1_000_000);
const lv = (p: number, s: number): Level => ({ price: u(p) as Price, size: u(s) as Shares });
const book = (bids: Level[], asks: Level[], t = 0): ExternalBook => ({ conditionId: 'c', timestampMs: t, bids, asks });

class Desk implements ExternalDesk {
  calls: Array<{ bids: readonly Level[]; asks: readonly Level[] }> = [];
  sweeps: Array<{ bids: readonly Level[]; asks: readonly Level[] }> = [];
  replace(_c: string, bids: readonly Level[], asks: readonly Level[]): void {
    this.calls.push({ bids, asks });
  }
  sweep(_c: string, bids: readonly Level[], asks: readonly Level[]): void {
    this.sweeps.push({ bids, asks });
  }
  /** Synthetic fills (every call but the last of a book). */
  take(): Array<{ bids: readonly Level[]; asks: readonly Level[] }> {
    const c = this.calls;
    this.calls = [];
    return c;
  }
}

function setup(
  orders: RestingOrder[],
  opts: ConstructorParameters<typeof QueueFillModel>[0] = {},
): { m: QueueFillModel; desk: Desk } {
  const m = new QueueFillModel(opts);
  m.attach(() => orders);
  return { m, desk: new Desk() };
}

const trade = (side: 'BUY' | 'SELL', p: number, size: number) => ({
  conditionId: 'c',
  timestampMs: 0,
  price: u(p) as Price,
  size: u(size) as Shares,
  side,
});

const bid = (remaining = 10): RestingOrder => ({
  id: 'o1',
  side: 'BUY',
  price: u(0.49) as Price,
  remaining: u(remaining) as Shares,
});

describe('QueueFillModel', () => {
  it('fills only with volume beyond the queue that was ahead when the order joined', () => {
    const { m, desk } = setup([bid()]);
    const asks = [lv(0.51, 100)];
    const b0 = book([lv(0.49, 100)], asks);
    m.onBook(desk, book([lv(0.49, 60)], asks), b0); // joined behind 100; 40 traded ahead
    expect(desk.take()).toHaveLength(1); // only the real book
    m.onBook(desk, book([lv(0.49, 130)], asks), null); // 70 joined behind us: worth nothing
    expect(desk.take()).toHaveLength(1);
    m.onBook(desk, book([lv(0.49, 75)], asks), null); // 55 traded: 60 ahead → 5 left ahead
    expect(desk.take()).toHaveLength(1);
    m.onBook(desk, book([lv(0.49, 62)], asks), null); // 13 traded: 5 ahead, 8 to us
    const calls = desk.take();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual({ bids: [], asks: [lv(0.49, 8)] });
    expect(calls[1]).toEqual({ bids: [lv(0.49, 62)], asks });
  });

  it('caps the fill at our remaining size and truncates it to the lot', () => {
    const { m, desk } = setup([bid(3)]);
    m.onBook(desk, book([], []), book([], [])); // improved the book: nothing ahead
    desk.take();
    m.onBook(desk, book([lv(0.49, 50)], []), null);
    m.onBook(desk, book([lv(0.49, 0.005)], []), null); // 49.995 traded, we have 3 left
    expect(desk.take()[1]).toEqual({ bids: [], asks: [lv(0.49, 3)] });
  });

  it('counts an opposite level at our price as volume at our level and does not post it against us', () => {
    const { m, desk } = setup([bid()]);
    const b0 = book([lv(0.49, 20), lv(0.48, 5)], [lv(0.51, 100)]);
    m.onBook(desk, book([lv(0.49, 20), lv(0.48, 5)], [lv(0.49, 25), lv(0.51, 100)]), b0); // 25 offered at 0.49: 20 ahead, 5 to us
    const calls = desk.take();
    expect(calls[0]).toEqual({ bids: [], asks: [lv(0.49, 5)] });
    expect(calls[1]).toEqual({ bids: [lv(0.49, 20), lv(0.48, 5)], asks: [lv(0.51, 100)] });
  });

  it('probabilistic: a losing draw is a cancel behind us (no fill, queue unchanged)', () => {
    const never = setup([bid()], { tradeProbability: 0.5, random: () => 0.9 });
    const always = setup([bid()], { tradeProbability: 0.5, random: () => 0.1 });
    for (const { m, desk } of [never, always]) {
      m.onBook(desk, book([lv(0.49, 10)], []), book([lv(0.49, 10)], []));
      m.onBook(desk, book([lv(0.49, 50)], []), null);
      m.onBook(desk, book([lv(0.49, 0)], []), null);
    }
    expect(never.m.name).toBe('queue-probabilistic');
    expect(never.m.queueFilled).toBe(0);
    expect(always.m.queueFilled).toBe(u(10));
  });

  it('property: queue fills never exceed the decreases seen beyond the queue ahead at joining', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 30 }),
        (joined, sizes) => {
          const { m, desk } = setup([bid(1_000)]);
          m.onBook(desk, book([lv(0.49, joined)], []), book([lv(0.49, joined)], []));
          let prev = joined;
          let dec = 0;
          for (const s of sizes) {
            m.onBook(desk, book(s === 0 ? [] : [lv(0.49, s)], []), null);
            if (s < prev) dec += prev - s;
            prev = s;
          }
          expect(m.queueFilled).toBeLessThanOrEqual(Math.max(0, u(dec) - u(joined)));
        },
      ),
    );
  });

  it('a trade eats the queue ahead first, then fills us; once a market trades, book decreases fill nothing', () => {
    const { m, desk } = setup([bid(10)]);
    const b0 = book([lv(0.49, 100)], [lv(0.51, 50)]);
    m.onBook(desk, b0, b0); // joined behind 100
    desk.take();
    m.onTrade(desk, trade('SELL', 0.49, 104), b0); // 100 ahead, 4 to us
    expect(desk.sweeps).toEqual([{ bids: [], asks: [lv(0.49, 4)] }]);
    m.onTrade(desk, trade('SELL', 0.49, 30), b0); // nothing ahead: 30 traded, we have 10 (the stub does not shrink)
    expect(desk.sweeps[1]).toEqual({ bids: [], asks: [lv(0.49, 10)] });
    expect(m.tradeFilled).toBe(u(14));
    // The book now shows the level down by 99.5: the trades in the recording explain it.
    m.onBook(desk, book([lv(0.49, 0.5)], [lv(0.51, 50)]), null);
    expect(desk.take()).toHaveLength(1); // only the real book, no synthetic fill
    expect(m.queueFilled).toBe(u(14));
  });

  it("trade-driven: the queue ahead is bounded by the level's recorded size; decreases are cancels behind (queue) or, on a draw, ahead", () => {
    for (const [opts, want] of [
      [{}, 40],
      [{ tradeProbability: 0.5, random: () => 0.9 }, 30],
    ] as const) {
      const { m, desk } = setup([bid(10)], opts);
      const b0 = book([lv(0.49, 100)], []);
      m.onBook(desk, b0, b0); // 100 ahead
      m.onTrade(desk, trade('SELL', 0.49, 10), b0); // 90 ahead
      m.onBook(desk, book([lv(0.49, 60)], []), null); // 40 left the level: queue: ≤ 60 ahead; draw: a cancel ahead, 90 − 40 = 50
      m.onBook(desk, book([lv(0.49, 40)], []), null); // queue: ≤ 40; draw: 50 − 20 = 30
      desk.take();
      m.onTrade(desk, trade('SELL', 0.49, want + 3), b0);
      expect(desk.sweeps).toEqual([{ bids: [], asks: [lv(0.49, 3)] }]);
    }
  });

  it('trades that do not reach our price, or hit the other side, fill nothing; a trade through our price does', () => {
    const { m, desk } = setup([
      bid(10),
      { id: 'o2', side: 'SELL', price: u(0.53) as Price, remaining: u(7) as Shares },
    ]);
    const b0 = book([], []);
    m.onBook(desk, b0, b0); // improved the book on both sides: nothing ahead
    m.onTrade(desk, trade('SELL', 0.5, 100), b0); // hits bids at ≥ 0.50: ours is 0.49
    m.onTrade(desk, trade('BUY', 0.52, 100), b0); // lifts asks at ≤ 0.52: ours is 0.53
    expect(desk.sweeps).toEqual([]);
    m.onTrade(desk, trade('BUY', 0.54, 100), b0); // through our ask
    m.onTrade(desk, trade('SELL', 0.45, 3), b0); // through our bid, 3 only
    expect(desk.sweeps).toEqual([
      { bids: [lv(0.53, 7)], asks: [] },
      { bids: [], asks: [lv(0.49, 3)] },
    ]);
  });

  it('one trade is shared best price first across our orders, each share once', () => {
    const orders: RestingOrder[] = [
      { id: 'lo', side: 'BUY', price: u(0.47) as Price, remaining: u(10) as Shares },
      { id: 'hi', side: 'BUY', price: u(0.49) as Price, remaining: u(10) as Shares },
    ];
    const { m, desk } = setup(orders);
    const b0 = book([lv(0.49, 5), lv(0.47, 2)], []);
    m.onBook(desk, b0, b0);
    m.onTrade(desk, trade('SELL', 0.47, 20), b0); // 5 ahead at 0.49, 10 to hi, 2 ahead at 0.47, 3 to lo
    expect(desk.sweeps).toEqual([{ bids: [], asks: [lv(0.49, 10), lv(0.47, 3)] }]);
  });

  it("property: trade fills never exceed the traded size reaching our prices, nor any order's size", () => {
    const orderArb = fc.record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      cents: fc.integer({ min: 40, max: 60 }),
      size: fc.integer({ min: 1, max: 50 }),
    });
    const tradeArb = fc.record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      cents: fc.integer({ min: 35, max: 65 }),
      size: fc.integer({ min: 1, max: 80 }),
    });
    fc.assert(
      fc.property(
        fc.array(orderArb, { maxLength: 6 }),
        fc.array(tradeArb, { maxLength: 20 }),
        fc.integer({ min: 0, max: 30 }),
        (os, ts, depth) => {
          // Our orders shrink by their fills (as the venue's would), so the source is live.
          const orders = os.map((o, i) => ({
            id: `o${i}`,
            side: o.side,
            price: u(o.cents / 100) as Price,
            remaining: u(o.size),
          }));
          const m = new QueueFillModel();
          m.attach(() =>
            orders.filter((o) => o.remaining > 0).map((o) => ({ ...o, remaining: o.remaining as Shares })),
          );
          const desk = new Desk();
          const levels = (side: 'BUY' | 'SELL'): Level[] =>
            [...new Set(orders.filter((o) => o.side === side).map((o) => o.price))].map((p) => ({
              price: p,
              size: u(depth) as Shares,
            }));
          const b0 = book(levels('BUY'), levels('SELL'));
          m.onBook(desk, b0, b0);
          const filled = new Map<string, number>();
          for (const t of ts) {
            desk.sweeps = [];
            m.onTrade(desk, trade(t.side, t.cents / 100, t.size), b0);
            let total = 0;
            for (const sw of desk.sweeps) {
              // A sweep's levels are at our prices on the side the trade reached, at or through its price.
              const ours = t.side === 'SELL' ? sw.asks : sw.bids;
              expect(t.side === 'SELL' ? sw.bids : sw.asks).toEqual([]);
              for (const l of ours) {
                expect(t.side === 'SELL' ? l.price >= u(t.cents / 100) : l.price <= u(t.cents / 100)).toBe(true);
                total += l.size;
                // Apply the fill to our orders at that price, best-first order as the engine would.
                let left: number = l.size;
                for (const o of orders) {
                  if (o.price !== l.price || o.side !== (t.side === 'SELL' ? 'BUY' : 'SELL') || left === 0) continue;
                  const f = Math.min(left, o.remaining);
                  o.remaining -= f;
                  left -= f;
                  filled.set(o.id, (filled.get(o.id) ?? 0) + f);
                }
                expect(left).toBe(0); // never more than what our orders at that price had left
              }
            }
            expect(total).toBeLessThanOrEqual(u(t.size));
          }
          for (const o of orders) expect(o.remaining).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('a book of another market leaves our queue position in this one alone', () => {
    const orders: Record<string, RestingOrder[]> = { c: [bid(10)], d: [] };
    const m = new QueueFillModel();
    m.attach((cid) => orders[cid] ?? []);
    const desk = new Desk();
    const b0 = book([lv(0.49, 30)], []);
    m.onBook(desk, b0, b0); // 30 ahead in market c
    m.onTrade(desk, trade('SELL', 0.49, 25), b0); // 5 ahead
    m.onBook(desk, { conditionId: 'd', timestampMs: 1, bids: [], asks: [] }, null); // another market
    m.onTrade(desk, trade('SELL', 0.49, 7), b0); // 5 ahead, 2 to us (not 30 ahead again)
    expect(desk.sweeps).toEqual([{ bids: [], asks: [lv(0.49, 2)] }]);
  });
});

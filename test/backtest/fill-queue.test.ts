// The queue fill model alone, with a desk that records what it is told and a fixed set of resting
// orders: the queue ahead is the recorded size at our price when we joined, decreases eat it
// first, only the excess fills us (lot-truncated, capped at our remaining size), an opposite level
// at our price counts as volume at our level and is not posted against us, the probabilistic
// variant turns decreases into cancels behind us on a losing draw; and a property: the queue
// model never fills more than the total decrease it saw beyond the queue ahead.
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
  replace(_c: string, bids: readonly Level[], asks: readonly Level[]): void { this.calls.push({ bids, asks }); }
  /** Synthetic fills (every call but the last of a book). */
  take(): Array<{ bids: readonly Level[]; asks: readonly Level[] }> { const c = this.calls; this.calls = []; return c; }
}

function setup(orders: RestingOrder[], opts: ConstructorParameters<typeof QueueFillModel>[0] = {}): { m: QueueFillModel; desk: Desk } {
  const m = new QueueFillModel(opts);
  m.attach(() => orders);
  return { m, desk: new Desk() };
}

const bid = (remaining = 10): RestingOrder => ({ id: 'o1', side: 'BUY', price: u(0.49) as Price, remaining: u(remaining) as Shares });

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
    fc.assert(fc.property(fc.integer({ min: 0, max: 200 }), fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 30 }), (joined, sizes) => {
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
    }));
  });
});

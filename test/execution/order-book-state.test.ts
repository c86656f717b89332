// The order manager's open-order set as reconcile and the strategy read it: liveOrders gives every
// tracked order as a frozen LiveOrder, the same object again while the order's state and matched
// size stand (a cycle reads every order), a new one as soon as either moves, and never a removed
// order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Price, Shares } from '../../src/core/money.js';
import type { LiveOrderState } from '../../src/core/order.js';
import { OrderBookState } from '../../src/execution/order-book-state.js';

const STATES: readonly LiveOrderState[] = ['inflight', 'live', 'cancelling', 'unknown'];

function tracked(book: OrderBookState, id: string, tag?: string) {
  return book.add({
    id,
    tokenId: 'tok',
    conditionId: 'cond',
    side: 'BUY',
    price: 400_000 as Price,
    originalSize: 10_000_000 as Shares,
    state: 'inflight',
    createdAtMs: 5,
    acknowledged: false,
    ...(tag !== undefined ? { tag } : {}),
  });
}

describe('OrderBookState.liveOrders', () => {
  it('reuses an unchanged order snapshot, renews a changed one, and freezes both', () => {
    const book = new OrderBookState();
    const a = tracked(book, 'a', 'band-0');
    tracked(book, 'b');
    const [a1, b1] = book.liveOrders();
    expect(Object.isFrozen(a1)).toBe(true);
    expect(a1).toEqual({
      id: 'a',
      tokenId: 'tok',
      side: 'BUY',
      price: 400_000,
      originalSize: 10_000_000,
      sizeMatched: 0,
      state: 'inflight',
      createdAtMs: 5,
      tag: 'band-0',
    });
    expect('tag' in (b1 as object)).toBe(false);
    a.state = 'live';
    const [a2, b2] = book.liveOrders();
    expect(a2).not.toBe(a1);
    expect(a2?.state).toBe('live');
    expect(b2).toBe(b1);
    book.setMatched('a', 4_000_000);
    const [a3] = book.liveOrders();
    expect(a3?.sizeMatched).toBe(4_000_000);
    expect(a1?.state).toBe('inflight'); // an earlier snapshot never changes
    book.remove('a');
    expect(book.liveOrders().map((o) => o.id)).toEqual(['b']);
  });

  it('property: every snapshot equals its order as it is now, after any sequence of changes', () => {
    const step = fc.record({
      order: fc.integer({ min: 0, max: 3 }),
      state: fc.constantFrom(...STATES),
      matched: fc.integer({ min: 0, max: 10 }),
      remove: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const book = new OrderBookState();
        for (let i = 0; i < 4; i++) tracked(book, `o${i}`);
        for (const s of steps) {
          const id = `o${s.order}`;
          const t = book.get(id);
          if (t === undefined) continue;
          if (s.remove && s.matched === 0) book.remove(id);
          else {
            t.state = s.state;
            book.setMatched(id, s.matched * 1_000_000);
          }
          for (const o of book.liveOrders()) {
            const now = book.get(o.id);
            expect(now).toBeDefined();
            expect(o.state).toBe(now?.state);
            expect(o.sizeMatched).toBe(now?.sizeMatched);
          }
          expect(book.liveOrders()).toHaveLength(book.size);
        }
      }),
      { numRuns: 500 },
    );
  });
});

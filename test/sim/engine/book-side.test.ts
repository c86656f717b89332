// One book side: FIFO within a level, exact best pointer through pushes and removals in any order,
// and re-indexing when the grid narrows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Account, Position } from '../../../src/sim/engine/accounts.js';
import { RestingSide } from '../../../src/sim/engine/book-side.js';
import { MarketBook } from '../../../src/sim/engine/market.js';
import { OrderNode } from '../../../src/sim/engine/order.js';
import type { Price, Shares } from '../../../src/core/money.js';

const market = new MarketBook({
  conditionId: 'c',
  tokens: ['y', 'n'],
  tick: 10_000 as Price,
  minSize: 0 as Shares,
  makerFeeBps: 0,
  takerFeeBps: 0,
  negRisk: false,
  acceptingOrders: true,
});
const acct = new Account('a');
let n = 0;
function node(size: number): OrderNode {
  return new OrderNode(
    `n${++n}`,
    acct,
    new Position(),
    market,
    0,
    true,
    500_000,
    500_000,
    true,
    size,
    'GTC',
    false,
    0,
    0,
  );
}

function ids(side: RestingSide, idx: number): string[] {
  const out: string[] = [];
  for (let o = side.levels[idx]?.head ?? null; o !== null; o = o.next) out.push(o.id);
  return out;
}

describe('RestingSide', () => {
  it('keeps FIFO order in a level and unlinks from anywhere', () => {
    const s = new RestingSide(true, 101);
    const [a, b, c] = [node(1), node(2), node(3)];
    s.push(a, 50);
    s.push(b, 50);
    s.push(c, 50);
    expect(ids(s, 50)).toEqual([a.id, b.id, c.id]);
    s.remove(b);
    expect(ids(s, 50)).toEqual([a.id, c.id]);
    expect(s.levels[50]?.qty).toBe(4);
    s.remove(a);
    s.remove(c);
    expect(s.best).toBe(-1);
    expect(s.isEmpty()).toBe(true);
  });

  it('tracks the best index exactly under random pushes and removals', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 99 }), fc.boolean(), fc.nat()), { maxLength: 200 }),
        (isBid, ops) => {
          const s = new RestingSide(isBid, 101);
          const live: OrderNode[] = [];
          for (const [idx, add, pick] of ops) {
            if (add || live.length === 0) {
              const o = node(1);
              s.push(o, idx);
              live.push(o);
            } else {
              const [o] = live.splice(pick % live.length, 1);
              s.remove(o as OrderNode);
            }
            const want =
              live.length === 0
                ? isBid
                  ? -1
                  : 101
                : isBid
                  ? Math.max(...live.map((o) => o.idx))
                  : Math.min(...live.map((o) => o.idx));
            expect(s.best).toBe(want);
            expect(s.orders).toBe(live.length);
          }
        },
      ),
    );
  });

  it('regrid moves levels to index × factor and keeps their queues', () => {
    const s = new RestingSide(false, 101);
    const [a, b] = [node(1), node(1)];
    s.push(a, 55);
    s.push(b, 55);
    s.regrid(10, 1001);
    expect(s.best).toBe(550);
    expect(ids(s, 550)).toEqual([a.id, b.id]);
    expect(a.idx).toBe(550);
    const empty = new RestingSide(false, 101);
    empty.regrid(4, 401);
    expect(empty.best).toBe(401);
  });
});

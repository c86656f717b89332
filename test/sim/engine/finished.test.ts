// The finished-order store: records read back exactly as pushed across ring growth and wrap-around,
// and the engine's retention drops old records (and only finished ones) as time passes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../../src/core/money.js';
import type { OrderType } from '../../../src/core/order.js';
import { Account, Position } from '../../../src/sim/engine/accounts.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import { FinishedStore } from '../../../src/sim/engine/finished.js';
import { MarketBook } from '../../../src/sim/engine/market.js';
import { OrderNode } from '../../../src/sim/engine/order.js';
import type { OrderRecord, OrderStatus } from '../../../src/sim/engine/types.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { MatchingEngine } from '../../../src/sim/engine/engine.js';
import { COND, fund, market, ord, YES } from './helpers.js';

const mkt = new MarketBook({
  conditionId: 'c',
  tokens: ['y', 'n'],
  tick: 10_000 as Price,
  minSize: 0 as Shares,
  makerFeeBps: 0,
  takerFeeBps: 0,
  negRisk: false,
  acceptingOrders: true,
});
const accts = [new Account('a'), new Account('b')];

describe('FinishedStore', () => {
  it('reads back every live entry exactly across growth and wrap-around', () => {
    const entry = fc.record({
      outcome: fc.constantFrom(0 as const, 1 as const),
      buy: fc.boolean(),
      price: fc.integer({ min: 1, max: 99 }).map((x) => x * 10_000),
      lots: fc.integer({ min: 1, max: 1e7 }),
      type: fc.constantFrom<OrderType>('GTC', 'GTD', 'FOK', 'FAK'),
      postOnly: fc.boolean(),
      status: fc.constantFrom<OrderStatus>('MATCHED', 'CANCELED', 'CANCELED_MARKET_RESOLVED'),
      owner: fc.nat(1),
      trades: fc.nat(3),
    });
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 3, arbitrary: entry }, { weight: 1, arbitrary: fc.constant(null) }), {
          maxLength: 5000,
        }),
        (ops) => {
          const store = new FinishedStore();
          const ref: { seq: number; id: string; e: OrderRecord }[] = [];
          let n = 0;
          for (const op of ops) {
            if (op === null) {
              if (ref.length === 0) continue;
              const first = ref.shift();
              expect(store.shift()).toBe(first?.id);
              continue;
            }
            const id = `f${n++}`;
            const size = op.lots * 10_000;
            const o = new OrderNode(
              id,
              accts[op.owner] as Account,
              new Position(),
              mkt,
              op.outcome,
              op.buy,
              op.price,
              op.price,
              true,
              size,
              op.type,
              op.postOnly,
              n * 7000,
              1_700_000_000_000 + n,
            );
            o.matched = size - 10_000;
            o.status = op.status;
            for (let t = 0; t < op.trades; t++) o.addTrade(`t${n}-${t}`);
            const seq = store.push(o, 5 * n);
            ref.push({ seq, id, e: { ...o.snapshot(), status: op.status } });
          }
          expect(store.length).toBe(ref.length);
          for (const r of ref) {
            expect(store.record(r.seq)).toEqual(r.e);
            expect(store.idAt(r.seq)).toBe(r.id);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('retention of finished records', () => {
  it('drops records older than retainFinishedMs and keeps live orders', () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const engine = new MatchingEngine({ clock, retainFinishedMs: 1000 });
    engine.addMarket(market());
    fund(engine, 'a', '100000', '100000');
    fund(engine, 'b', '100000', '100000');
    engine.submit(ord('a', 'BUY', '0.10', '5', { id: 'resting' }));
    for (let i = 0; i < 3000; i++) {
      engine.submit(ord('a', 'SELL', '0.50', '5', { id: `s${i}` }));
      engine.submit(ord('b', 'BUY', '0.50', '5', { id: `b${i}` }));
      if (i % 100 === 99) clock.advance(100);
    }
    expect(auditEngine(engine)).toEqual([]);
    // The clock moved 3 s in steps of 100 ms: only the last second of finished records is left.
    expect(engine.getOrder('s0')).toBeUndefined();
    expect(engine.getOrder('b2999')?.status).toBe('MATCHED');
    expect(engine.getOrder('s2950')?.status).toBe('MATCHED');
    expect(engine.getOrder('resting')?.status).toBe('LIVE');
    // A pruned id is unknown: it may be used again.
    expect(engine.submit(ord('a', 'BUY', '0.10', '5', { id: 's0' })).ok).toBe(true);
    expect(engine.cancel('s1')).toEqual({ canceled: false, reason: 'Order not found or already canceled' });
    expect(engine.bookView(YES)?.bids).toEqual([{ price: 100_000, size: 10_000_000 }]);
    expect(engine.market(COND)?.conditionId).toBe(COND);
  });
});

// Property: whatever failures the venue injects (answers lost after or without applying, refusals,
// throttling, rejections), partial fills, venue-side cancels and the passage of time, the order
// manager never leaves two live orders of ours at one quote key, never lets the venue hold an
// order the ledger does not know or that the manager does not track, never records a fill twice;
// and once the faults stop, lookups and polling account for every fill and cancelAll leaves
// nothing live.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DesiredQuote } from '../../src/core/quote.js';
import { quoteKey } from '../../src/execution/types.js';
import { TOKEN_A, TOKEN_B, drive, httpError, inlineSigner, q, setup, type Fault, type Harness } from './harness.js';
import { seededKey } from '../support/keys.js';

const KEY = seededKey('order-manager property');
const WHOLE_KEY = { minOrderSize: () => Number.MAX_SAFE_INTEGER };

const quoteArb: fc.Arbitrary<DesiredQuote> = fc
  .record({
    token: fc.constantFrom(TOKEN_A, TOKEN_B),
    buy: fc.boolean(),
    step: fc.integer({ min: 0, max: 3 }),
    size: fc.constantFrom(10, 20),
  })
  .map(({ token, buy, step, size }) =>
    buy ? q(token, 'BUY', 0.4 - step / 100, size) : q(token, 'SELL', 0.6 + step / 100, size),
  );

const placeFault: fc.Arbitrary<Fault | null> = fc.constantFrom<Fault | null>(
  null,
  null,
  null,
  { kind: 'timeout-after-apply' },
  { kind: 'timeout-unapplied' },
  { kind: 'fail', error: httpError('POST /orders', 503, 'paused') },
  { kind: 'fail', error: httpError('POST /orders', 400, 'Invalid order payload') },
  { kind: 'fail', error: httpError('POST /orders', 429, 'Too Many Requests', 300) },
  { kind: 'fail', error: httpError('POST /orders', 500, 'internal') },
  { kind: 'reject', errorMsg: 'not enough balance / allowance' },
);
const cancelFault: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { kind: 'timeout-after-apply' },
  { kind: 'timeout-unapplied' },
  { kind: 'fail', error: httpError('DELETE /order', 503, 'busy') },
  { kind: 'fail', error: httpError('DELETE /order', 500, 'internal') },
);
const lookupFault: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { kind: 'timeout-unapplied' },
  { kind: 'fail', error: httpError('GET /data/order/{id}', 503, 'busy') },
);

type Step =
  | { kind: 'quote'; desired: DesiredQuote[]; place: Fault | null; cancels: Fault[]; lookups: Fault[] }
  | { kind: 'fill'; pick: number; shares: number }
  | { kind: 'venue-cancel'; pick: number }
  | { kind: 'time'; ms: number }
  | { kind: 'resolve'; all: boolean }
  | { kind: 'poll' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('quote' as const),
      desired: fc.array(quoteArb, { maxLength: 6 }),
      place: placeFault,
      cancels: fc.array(cancelFault, { maxLength: 2 }),
      lookups: fc.array(lookupFault, { maxLength: 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fill' as const),
      pick: fc.nat(),
      shares: fc.integer({ min: 1, max: 2000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('venue-cancel' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.constantFrom(100, 500, 1000, 3000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resolve' as const), all: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('poll' as const) }) },
);

function checkInvariants(h: Harness): void {
  const live = h.venue.liveOrders();
  const perKey = new Map<string, number>();
  for (const o of live) {
    const k = quoteKey(o.tokenId, o.side, o.price);
    perKey.set(k, (perKey.get(k) ?? 0) + 1);
  }
  for (const [k, n] of perKey) expect(n, `live orders at ${k}`).toBe(1);
  const tracked = new Set(h.om.liveOrders().map((o) => o.id));
  for (const o of h.venue.orders.values())
    expect(h.ledger.order(o.id), `venue order ${o.id} in the ledger`).not.toBeNull();
  for (const o of live) expect(tracked.has(o.id), `venue live order ${o.id} tracked`).toBe(true);
  // Fills: each event once, the events add up to what the ledger holds, never beyond the venue.
  const byOrder = new Map<string, number>();
  for (const f of h.fills) byOrder.set(f.orderId, (byOrder.get(f.orderId) ?? 0) + f.size);
  for (const [id, sum] of byOrder) {
    expect(h.ledger.order(id)?.sizeMatched).toBe(sum);
    expect(sum).toBeLessThanOrEqual(h.venue.orders.get(id)?.sizeMatched ?? 0);
  }
  expect(h.ledger.fills().length).toBe(h.fills.length);
}

async function play(h: Harness, s: Step): Promise<void> {
  switch (s.kind) {
    case 'quote':
      if (s.place !== null) h.venue.inject('postOrders', s.place);
      h.venue.inject('cancelOrder', ...s.cancels);
      h.venue.inject('getOrder', ...s.lookups);
      await h.cycle(s.desired, WHOLE_KEY);
      return;
    case 'fill': {
      // BUY orders only: the ledger refuses to sell shares we do not hold.
      const buys = h.venue.liveOrders().filter((o) => o.side === 'BUY');
      const o = buys[s.pick % Math.max(1, buys.length)];
      if (o !== undefined) h.venue.fill(o.id, s.shares * 10_000);
      return;
    }
    case 'venue-cancel': {
      const live = h.venue.liveOrders();
      const o = live[s.pick % Math.max(1, live.length)];
      if (o !== undefined) h.venue.cancelByVenue(o.id);
      return;
    }
    case 'time':
      await drive(h.clock, h.clock.sleep(s.ms));
      return;
    case 'resolve':
      await h.om.resolveUnknown({ all: s.all });
      return;
    case 'poll':
      await h.om.pollFills();
      return;
  }
}

describe('OrderManager under random failures (property)', () => {
  it('no duplicate at a key, every venue order known and tracked, fills exact and once; cancelAll clears the venue', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 30 }), async (steps) => {
        const h = setup({
          signer: inlineSigner(KEY),
          config: {
            unknownLookupDelayMs: 500,
            notFoundRecheckMs: 5000,
            circuitBreakerFailures: 3,
            rejectionCooldownMs: 2000,
            pollBatch: 50,
          },
        });
        try {
          for (const s of steps) {
            await play(h, s);
            checkInvariants(h);
          }
          // The faults stop: lookups resolve everything, polling finds every fill.
          h.venue.clearFaults();
          await drive(h.clock, h.clock.sleep(10_000));
          await h.om.resolveUnknown({ all: true });
          await h.om.pollFills({ limit: 1000 });
          checkInvariants(h);
          expect(h.om.liveOrders().every((o) => o.state === 'live')).toBe(true);
          for (const o of h.om.liveOrders()) expect(o.sizeMatched).toBe(h.venue.orders.get(o.id)?.sizeMatched);
          const r = await drive(h.clock, h.om.cancelAll());
          expect(r.remaining).toEqual([]);
          expect(h.venue.liveOrders()).toEqual([]);
          expect(h.ledger.openOrders()).toEqual([]);
          // Every share the venue matched for us is in the ledger, exactly once.
          for (const o of h.venue.orders.values()) expect(h.ledger.order(o.id)?.sizeMatched).toBe(o.sizeMatched);
          checkInvariants(h);
        } finally {
          await h.close();
        }
      }),
      { numRuns: 120 },
    );
  });
});

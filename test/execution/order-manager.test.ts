// OrderManager against the in-memory fake venue, with a real ledger, a real signing pool, the real
// limiter, all on a VirtualClock: order of requests (cancels first, chunks of 15, priorities),
// the ledger written before sending, ambiguous failures resolved by lookup without duplicates,
// rejections cooled down, request failures, fills and fees, the circuit breaker and back-off,
// pressure and coalescing, startup reconciliation with both policies, cancelAll.
import { afterEach, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/execution/reconcile.js';
import { feeMicros } from '../../src/execution/fill-tracker.js';
import { quoteKey } from '../../src/execution/types.js';
import type { Price, Shares } from '../../src/core/money.js';
import {
  API_KEY,
  CONDITION,
  MARKETS,
  TOKEN_A,
  TOKEN_B,
  drive,
  httpError,
  q,
  setup,
  type Harness,
  type HarnessOptions,
  type LifecycleFakeVenue,
} from './harness.js';

const harnesses: Harness[] = [];
function make(opts: HarnessOptions = {}): Harness {
  const h = setup({ ...opts, config: { unknownLookupDelayMs: 1000, ...opts.config } });
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** n BUY quotes on token A from 0.30 down, 10 shares each. */
function ladder(n: number, top = 0.3, size = 10): ReturnType<typeof q>[] {
  return Array.from({ length: n }, (_, i) => q(TOKEN_A, 'BUY', Math.round((top - i * 0.01) * 100) / 100, size));
}

describe('OrderManager: order of requests', () => {
  it('places in POST /orders chunks of at most 15 with priority new, every order written and marked sent before the venue sees it', async () => {
    const h = make();
    const seen: string[] = [];
    h.venue.beforePlace = (subs, ids) => {
      for (const id of ids) {
        const o = h.ledger.order(id);
        expect(o?.state).toBe('sent');
        seen.push(id);
      }
      expect(subs.every((s) => s.owner === API_KEY && s.orderType === 'GTC')).toBe(true);
    };
    const r = await h.cycle(ladder(20));
    expect(r.accepted).toBe(20);
    const posts = h.venue.orderCalls.filter((c) => c.op === 'postOrders');
    expect(posts.map((c) => c.ids.length)).toEqual([15, 5]);
    expect(posts.every((c) => c.priority === 'new')).toBe(true);
    expect(seen).toHaveLength(20);
    expect(h.venue.liveOrders()).toHaveLength(20);
    expect(h.om.liveOrders().every((o) => o.state === 'live')).toBe(true);
    // The ledger holds what the venue holds, each order live, and nothing else.
    for (const o of h.venue.liveOrders()) expect(h.ledger.order(o.id)?.state).toBe('live');
    expect(h.ledger.openOrders()).toHaveLength(20);
  });

  it('sends every cancel of a plan before its placements; replacements go with priority replace', async () => {
    const h = make();
    await h.cycle(ladder(18, 0.5));
    const before = h.venue.orderCalls.length;
    const r = await h.cycle(ladder(18, 0.25)); // every quote moved: 18 cancels, 18 replacements
    expect(r.cancelled).toBe(18);
    expect(r.accepted).toBe(18);
    const calls = h.venue.orderCalls.slice(before);
    const lastCancel = calls.map((c) => c.op).lastIndexOf('cancelOrder');
    const firstPost = calls.findIndex((c) => c.op === 'postOrders');
    expect(calls.filter((c) => c.op === 'cancelOrder')).toHaveLength(18);
    expect(lastCancel).toBeLessThan(firstPost);
    expect(calls.filter((c) => c.op === 'cancelOrder').every((c) => c.priority === 'cancel')).toBe(true);
    const posts = calls.filter((c) => c.op === 'postOrders');
    expect(posts.map((c) => c.ids.length)).toEqual([15, 3]);
    expect(posts.every((c) => c.priority === 'replace')).toBe(true);
    expect(h.venue.liveOrders()).toHaveLength(18);
    expect(h.venue.liveOrders().every((o) => o.price <= 250_000)).toBe(true);
  });

  it('an unchanged plan sends nothing (the key keeps its order and its queue place)', async () => {
    const h = make();
    await h.cycle(ladder(3));
    const n = h.venue.orderCalls.length;
    const r = await h.cycle(ladder(3));
    expect(h.venue.orderCalls.length).toBe(n);
    expect(r.placementsSent + r.cancelsSent).toBe(0);
  });
});

describe('OrderManager: ambiguous failures', () => {
  it('a placement applied by the venue whose answer was lost is found by lookup and adopted, never placed twice', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'timeout-after-apply' });
    const r1 = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r1.unknown).toBe(1);
    const [o] = h.om.liveOrders();
    expect(o?.state).toBe('unknown');
    expect(h.ledger.order(o!.id)?.state).toBe('unknown');
    expect(h.venue.liveOrders()).toHaveLength(1);

    // The same quote again: the key waits for the lookup.
    const r2 = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r2.placementsSent).toBe(0);
    expect(h.venue.orderCalls.filter((c) => c.op === 'postOrders')).toHaveLength(1);

    // Before the grace period nothing is looked up; `all` looks up at once.
    expect((await h.om.resolveUnknown()).lookedUp).toBe(0);
    const res = await h.om.resolveUnknown({ all: true });
    expect(res).toMatchObject({ lookedUp: 1, live: 1, notFound: 0 });
    expect(h.om.liveOrders()).toEqual([expect.objectContaining({ id: o!.id, state: 'live' })]);
    expect(h.ledger.order(o!.id)?.state).toBe('live');

    const r3 = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r3.placementsSent).toBe(0);
    expect(h.venue.liveOrders()).toHaveLength(1);
  });

  it('a plan computed before an ambiguous failure cannot place at the key it left unknown', async () => {
    const h = make();
    const plan = reconcile([q(TOKEN_A, 'BUY', 0.4, 10)], h.om.liveOrders());
    h.venue.inject('postOrders', { kind: 'timeout-after-apply' });
    await h.om.apply(plan, MARKETS);
    // The very same (now stale) plan again: reconcile is not asked, the manager's own check holds.
    const r = await h.om.apply(plan, MARKETS);
    expect(r.dropped).toEqual([{ key: quoteKey(TOKEN_A, 'BUY', 400_000), reason: 'blocked' }]);
    expect(h.venue.orderCalls.filter((c) => c.op === 'postOrders')).toHaveLength(1);
    expect(h.venue.orders.size).toBe(1);
  });

  it('a placement that never reached the venue is found "not found", freed, and placed once on the next plan', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'timeout-unapplied' });
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const [o] = h.om.liveOrders();
    expect(o?.state).toBe('unknown');
    expect(h.venue.orders.size).toBe(0);
    expect(await h.om.resolveUnknown({ all: true })).toMatchObject({ lookedUp: 1, notFound: 1 });
    expect(h.om.liveOrders()).toEqual([]);
    expect(h.ledger.order(o!.id)?.state).toBe('not_found');
    const r = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r.accepted).toBe(1);
    expect(h.venue.liveOrders()).toHaveLength(1);
    expect(h.venue.liveOrders()[0]!.id).not.toBe(o!.id);
  });

  it('schedules the lookup itself after the grace period', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'timeout-after-apply' });
    await h.cycle([q(TOKEN_A, 'SELL', 0.6, 5)]);
    expect(h.om.liveOrders()[0]?.state).toBe('unknown');
    await h.clock.advanceAsync(999);
    expect(h.om.liveOrders()[0]?.state).toBe('unknown');
    await h.clock.advanceAsync(1);
    expect(h.om.liveOrders()[0]?.state).toBe('live');
  });

  it('an ambiguous cancel leaves the order unknown and blocks its key; the lookup closes it', async () => {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    h.venue.inject('cancelOrder', { kind: 'timeout-after-apply' });
    const r = await h.cycle([q(TOKEN_A, 'BUY', 0.39, 10)]);
    expect(r.cancelsFailed).toBe(1);
    // The replacement is another key: it goes. The cancelled one waits for its lookup.
    expect(r.accepted).toBe(1);
    const states = h.om
      .liveOrders()
      .map((o) => o.state)
      .sort();
    expect(states).toEqual(['live', 'unknown']);
    expect(await h.om.resolveUnknown({ all: true })).toMatchObject({ closed: 1 });
    expect(h.om.liveOrders()).toHaveLength(1);
    expect(h.venue.liveOrders()).toHaveLength(1);
  });

  it('a resize whose cancel fails does not place at the same key', async () => {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    h.venue.inject('cancelOrder', { kind: 'fail', error: httpError('DELETE /order', 503, 'cancel-only') });
    // Wanting 20 where 10 rest with a huge minimum: reconcile replaces the key whole (cancel + place).
    const r = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 20)], { minOrderSize: () => Number.MAX_SAFE_INTEGER });
    expect(r.dropped).toEqual([{ key: quoteKey(TOKEN_A, 'BUY', 400_000), reason: 'cancel-failed' }]);
    expect(h.venue.liveOrders()).toHaveLength(1);
    expect(h.om.liveOrders()[0]?.state).toBe('live');
  });

  it('a "Duplicated." rejection means the order exists: it is looked up, not dropped', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'timeout-after-apply' });
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const id = h.om.liveOrders()[0]!.id;
    h.venue.inject('postOrders', { kind: 'reject', errorMsg: `order ${id} is invalid. Duplicated.` });
    // Another key is placed and answered "Duplicated.": the ledger keeps it open for a lookup.
    const r = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10), q(TOKEN_A, 'BUY', 0.38, 10)]);
    expect(r.rejected).toEqual([]);
    expect(r.unknown).toBe(1);
    expect(h.om.liveOrders().map((o) => o.state)).toEqual(['unknown', 'unknown']);
  });
});

describe('OrderManager: rejections and failed requests', () => {
  it('records a rejection with its errorMsg and does not retry the key within the cool-down', async () => {
    const h = make({ config: { rejectionCooldownMs: 30_000 } });
    h.venue.inject('postOrders', { kind: 'reject', errorMsg: 'not enough balance / allowance' });
    const r1 = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r1.rejected).toEqual([expect.objectContaining({ errorMsg: 'not enough balance / allowance' })]);
    const id = r1.rejected[0]!.orderId;
    expect(h.ledger.order(id)).toMatchObject({ state: 'rejected', errorMsg: 'not enough balance / allowance' });
    expect(h.om.liveOrders()).toEqual([]);

    const r2 = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r2.dropped).toEqual([{ key: quoteKey(TOKEN_A, 'BUY', 400_000), reason: 'cooldown' }]);
    expect(h.venue.orderCalls.filter((c) => c.op === 'postOrders')).toHaveLength(1);
    // Another key is not affected.
    expect((await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10), q(TOKEN_A, 'BUY', 0.39, 10)])).accepted).toBe(1);

    h.clock.advance(30_000);
    const r3 = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10), q(TOKEN_A, 'BUY', 0.39, 10)]);
    expect(r3.accepted).toBe(1);
    expect(h.venue.liveOrders()).toHaveLength(2);
  });

  it('a request refused before acting (400) rejects its orders and cools the keys down; nothing rests', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'fail', error: httpError('POST /orders', 400, 'Invalid order payload') });
    const r = await h.cycle(ladder(3));
    expect(r.rejected).toHaveLength(3);
    for (const x of r.rejected) expect(h.ledger.order(x.orderId)?.state).toBe('rejected');
    expect(h.om.liveOrders()).toEqual([]);
    expect((await h.cycle(ladder(3))).dropped.map((d) => d.reason)).toEqual(['cooldown', 'cooldown', 'cooldown']);
  });

  it('a transient refusal (503) rejects without cool-down but backs placements off', async () => {
    const h = make({ config: { backoff: { baseDelayMs: 1000, maxDelayMs: 1000 } } });
    h.venue.inject('postOrders', { kind: 'fail', error: httpError('POST /orders', 503, 'trading paused') });
    const r1 = await h.cycle(ladder(2));
    expect(r1.rejected).toHaveLength(2);
    expect(h.om.health().placementsBlockedUntil).toBeGreaterThan(h.clock.now());
    const r2 = await h.cycle(ladder(2));
    expect(r2.dropped.map((d) => d.reason)).toEqual(['backoff', 'backoff']);
    h.clock.advanceTo(h.om.health().placementsBlockedUntil);
    expect((await h.cycle(ladder(2))).accepted).toBe(2);
  });

  it('a 429 holds placements for its Retry-After', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'fail', error: httpError('POST /orders', 429, 'Too Many Requests', 5000) });
    await h.cycle(ladder(1));
    h.clock.advance(4999);
    expect((await h.cycle(ladder(1))).dropped).toEqual([{ key: quoteKey(TOKEN_A, 'BUY', 300_000), reason: 'backoff' }]);
    h.clock.advance(1);
    expect((await h.cycle(ladder(1))).accepted).toBe(1);
  });
});

describe('OrderManager: fills', () => {
  it('records a partial fill once under repeated polling, with the maker fee; the order stays live', async () => {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const id = h.om.liveOrders()[0]!.id;
    h.venue.fill(id, 4_000_000);
    for (let i = 0; i < 3; i++) await h.om.pollFills();
    expect(h.fills).toHaveLength(1);
    // maker 100 bps × min(0.4, 0.6) × 4 shares = 0.016
    expect(h.fills[0]).toMatchObject({
      orderId: id,
      size: 4_000_000,
      cumulative: 4_000_000,
      price: 400_000,
      feeMicros: 16_000,
      liquidity: 'maker',
      source: 'lookup',
    });
    expect(h.ledger.fillsOfOrder(id)).toHaveLength(1);
    expect(h.ledger.position(TOKEN_A)?.size).toBe(4_000_000);
    expect(h.om.liveOrders()[0]).toMatchObject({ state: 'live', sizeMatched: 4_000_000 });

    h.venue.fill(id, 10_000_000);
    await h.om.pollFills();
    await h.om.pollFills();
    expect(h.fills.map((f) => f.size)).toEqual([4_000_000, 6_000_000]);
    expect(h.ledger.order(id)?.state).toBe('matched');
    expect(h.om.liveOrders()).toEqual([]);
    expect(h.ledger.position(TOKEN_A)?.size).toBe(10_000_000);
  });

  it('records the part matched on arrival as a taker fill from the placement result, not again from lookups', async () => {
    const h = make({ venue: { onArrival: () => 3_000_000 } });
    await h.cycle([q(TOKEN_B, 'BUY', 0.7, 10)]);
    const id = h.om.liveOrders()[0]!.id;
    // taker 200 bps × min(0.7, 0.3) × 3 shares = 0.018
    expect(h.fills).toEqual([
      expect.objectContaining({
        orderId: id,
        size: 3_000_000,
        price: 700_000,
        feeMicros: 18_000,
        liquidity: 'taker',
        source: 'placement',
      }),
    ]);
    expect(h.ledger.position(TOKEN_B)).toMatchObject({ size: 3_000_000, fees: 18_000 });
    await h.om.pollFills();
    await h.om.pollFills();
    expect(h.fills).toHaveLength(1);
    expect(h.ledger.fillsOfOrder(id)).toHaveLength(1);
    expect(h.om.liveOrders()[0]).toMatchObject({ sizeMatched: 3_000_000, state: 'live' });
  });

  it('polls a bounded batch per call, least recently looked-up first', async () => {
    const h = make({ config: { pollBatch: 4, fillReadsPerSecond: 1 } });
    await h.cycle(ladder(10));
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const before = h.venue.orderCalls.length;
      h.clock.advance(10);
      expect((await h.om.pollFills()).lookedUp).toBe(4);
      for (const c of h.venue.orderCalls.slice(before)) seen.add(c.ids[0]!);
    }
    expect(seen.size).toBe(10);
  });

  it('a cancel refused as "already matched" is looked up and its fills recorded', async () => {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const id = h.om.liveOrders()[0]!.id;
    h.venue.fill(id, 10_000_000);
    const r = await h.cycle([]);
    expect(r.cancelsFailed).toBe(1);
    await h.om.resolveUnknown();
    expect(h.ledger.order(id)?.state).toBe('matched');
    expect(h.fills).toEqual([expect.objectContaining({ orderId: id, size: 10_000_000 })]);
    expect(h.om.liveOrders()).toEqual([]);
  });

  it('fee formula: floor(bps × min(p, 1 − p) × size / 10⁴), exact', () => {
    expect(feeMicros(200, 400_000, 10_000_000)).toBe(80_000);
    expect(feeMicros(200, 600_000, 10_000_000)).toBe(80_000); // symmetric in p and 1 − p
    expect(feeMicros(0, 400_000, 10_000_000)).toBe(0);
    expect(feeMicros(1, 1, 1)).toBe(0); // 10⁻¹⁰ micros, floored
    expect(feeMicros(10_000, 500_000, 2 ** 52)).toBe(2 ** 51); // the product passes 2^53: bigint inside
    expect(feeMicros(33, 123_400, 7_770_000)).toBe(Math.floor((33 * 123_400 * 7_770_000) / 1e10));
    expect(() => feeMicros(-1, 1, 1)).toThrow();
  });
});

describe('OrderManager: circuit breaker', () => {
  it('opens after N consecutive failures, places nothing and pulls quotes while open, closes on an answer', async () => {
    const h = make({ config: { circuitBreakerFailures: 3 } });
    await h.cycle(ladder(2));
    const fail = { kind: 'fail' as const, error: httpError('GET /data/order/{id}', 500, 'internal') };
    h.venue.inject('getOrder', fail, fail);
    await h.om.pollFills();
    expect(h.om.circuitState).toBe('closed');
    h.venue.inject('getOrder', fail);
    await h.om.pollFills({ limit: 1 });
    expect(h.om.circuitState).toBe('open');
    expect(h.om.health().consecutiveFailures).toBe(3);

    // While open: quotes are pulled (the cancels fail here too), nothing new is placed.
    const cancelFail = { kind: 'fail' as const, error: httpError('DELETE /order', 503, 'cancel-only') };
    h.venue.inject('cancelOrder', cancelFail, cancelFail);
    const r = await h.cycle([...ladder(2), q(TOKEN_B, 'SELL', 0.7, 5)]);
    expect(r.cancelsSent).toBe(2);
    expect(r.dropped).toEqual([{ key: quoteKey(TOKEN_B, 'SELL', 700_000), reason: 'circuit-open' }]);
    expect(h.venue.orderCalls.filter((c) => c.op === 'postOrders')).toHaveLength(1);

    // A probe that gets an answer closes it; quoting resumes.
    expect(await h.om.probe()).toBe(true);
    expect(h.om.circuitState).toBe('closed');
    expect((await h.cycle([...ladder(2), q(TOKEN_B, 'SELL', 0.7, 5)])).accepted).toBe(1);
  });

  it('a rejection or a 404 is an answer: it does not count as a failure', async () => {
    const h = make({ config: { circuitBreakerFailures: 2 } });
    const fail = { kind: 'fail' as const, error: httpError('POST /orders', 500, 'internal') };
    h.venue.inject('postOrders', fail);
    await h.cycle(ladder(1));
    expect(h.om.health().consecutiveFailures).toBe(1);
    expect(await h.om.probe()).toBe(true); // unknown id → null: answered
    expect(h.om.health().consecutiveFailures).toBe(0);
  });
});

describe('OrderManager: pressure and coalescing', () => {
  const SMALL = {
    marginMs: 0,
    budgets: { buckets: { 'clob POST /order': [{ limit: 2, windowMs: 10_000 }] } },
  };

  it('drops placements the limiter cannot send within the horizon, keeps cancels', async () => {
    const h = make({ limiter: SMALL, config: { pressureHorizonMs: 2000 } });
    const r1 = await h.cycle(ladder(40, 0.45));
    expect(r1.placementsSent).toBe(30);
    expect(r1.dropped).toHaveLength(10);
    expect(r1.dropped.every((d) => d.reason === 'pressure')).toBe(true);
    // The budget is spent: a moved quote still gets its cancel, its placement waits for next cycle.
    const r2 = await h.cycle([q(TOKEN_B, 'BUY', 0.2, 10)]);
    expect(r2.cancelled).toBe(30);
    expect(r2.dropped).toEqual([{ key: quoteKey(TOKEN_B, 'BUY', 200_000), reason: 'pressure' }]);
    h.clock.advance(10_000);
    expect((await h.cycle([q(TOKEN_B, 'BUY', 0.2, 10)])).accepted).toBe(1);
  });

  it("counts the orders of the chunks about to be sent against the signer's order bucket", async () => {
    // Standard tier, no margin: 60 order tokens refilling at 40 / s, all spent by someone else.
    const h = make({ limiter: { signerTier: 'standard', marginMs: 0 }, config: { pressureHorizonMs: 500 } });
    expect(h.limiter.tryAcquire('POST /orders', { priority: 'new', tokens: 60 })).not.toBeNull();
    // Chunk 1 needs 15 tokens (375 ms), chunks 1-2 need 30 (750 ms): only the first goes.
    const r = await drive(h.clock, h.cycle(ladder(40, 0.45)));
    expect(r.placementsSent).toBe(15);
    expect(r.dropped).toHaveLength(25);
    expect(r.dropped.every((d) => d.reason === 'pressure')).toBe(true);
  });

  it('a newer plan replaces an older waiting one; a waiting plan skips keys that gained orders since', async () => {
    const h = make({ venue: { latencyMs: 100 } });
    const desired = [q(TOKEN_A, 'BUY', 0.4, 10)];
    const stalePlan = reconcile(desired, h.om.liveOrders());
    const p1 = h.om.apply(reconcile(desired, h.om.liveOrders()), MARKETS);
    const p2 = h.om.apply(reconcile([q(TOKEN_A, 'BUY', 0.3, 10)], h.om.liveOrders()), MARKETS);
    const p3 = h.om.apply(stalePlan, MARKETS);
    const [r1, r2, r3] = await drive(h.clock, Promise.all([p1, p2, p3]));
    expect(r1.accepted).toBe(1);
    expect(r2.superseded).toBe(true);
    expect(r3.superseded).toBe(false);
    expect(r3.dropped).toEqual([{ key: quoteKey(TOKEN_A, 'BUY', 400_000), reason: 'stale' }]);
    expect(h.venue.liveOrders()).toHaveLength(1);
  });

  it('orders in flight are part of liveOrders, so a plan computed meanwhile does not duplicate them', async () => {
    const h = make({ venue: { latencyMs: 100 } });
    const p1 = h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    await h.clock.runUntil(() => h.om.liveOrders().length > 0);
    expect(h.om.liveOrders()[0]?.state).toBe('inflight');
    const p2 = h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const [, r2] = await drive(h.clock, Promise.all([p1, p2]));
    expect(r2.placementsSent).toBe(0);
    expect(h.venue.liveOrders()).toHaveLength(1);
  });
});

describe('OrderManager: startup reconciliation', () => {
  /** A ledger left by a crashed daemon: one live, one filled, one orphan on the venue, one that never arrived, one never sent. */
  async function crashed(): Promise<{
    h: Harness;
    ids: Record<'live' | 'filled' | 'orphan' | 'lost' | 'unsent', string>;
  }> {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10), q(TOKEN_A, 'BUY', 0.39, 10)]);
    const [live, filled] = h.om
      .liveOrders()
      .sort((a, b) => b.price - a.price)
      .map((o) => o.id);
    h.venue.inject('postOrders', { kind: 'timeout-after-apply' });
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10), q(TOKEN_A, 'BUY', 0.39, 10), q(TOKEN_B, 'SELL', 0.7, 5)]);
    const orphan = h.om.liveOrders().find((o) => o.tokenId === TOKEN_B)!.id;
    h.venue.inject('postOrders', { kind: 'timeout-unapplied' });
    await h.cycle([
      q(TOKEN_A, 'BUY', 0.4, 10),
      q(TOKEN_A, 'BUY', 0.39, 10),
      q(TOKEN_B, 'SELL', 0.7, 5),
      q(TOKEN_B, 'SELL', 0.75, 5),
    ]);
    const lost = h.om.liveOrders().find((o) => o.price === 750_000)!.id;
    h.venue.fill(filled!, 10_000_000);
    const unsent = `0x${'7'.repeat(64)}`;
    h.ledger.recordSignedOrder({
      id: unsent,
      tokenId: TOKEN_B,
      conditionId: MARKETS.get(TOKEN_B)!.conditionId,
      side: 'BUY',
      price: 100_000 as Price,
      size: 5_000_000 as Shares,
      orderType: 'GTC',
      salt: '1',
      createdAtMs: h.clock.now(),
    });
    expect(
      h.ledger
        .openOrders()
        .map((o) => o.state)
        .sort(),
    ).toEqual(['live', 'live', 'signed', 'unknown', 'unknown']);
    return { h, ids: { live: live!, filled: filled!, orphan, lost, unsent } };
  }

  it('policy cancel: looks every open order up, keeps the live ones, closes the rest, cancels orphans found live', async () => {
    const { h, ids } = await crashed();
    const om2 = h.restart();
    const r = await om2.startupReconcile({ orphanPolicy: 'cancel', markets: MARKETS });
    expect(r).toMatchObject({ lookedUp: 5, live: 1, adopted: 0, cancelled: 1, closed: 1, notFound: 2, unresolved: [] });
    expect(om2.liveOrders().map((o) => o.id)).toEqual([ids.live]);
    expect(h.venue.orders.get(ids.orphan)?.status).toBe('CANCELED');
    // Cancelled, and owed its final read (closing) until the next fill poll makes it.
    expect(h.ledger.order(ids.orphan)?.state).toBe('closing');
    await om2.pollFills();
    expect(h.ledger.order(ids.orphan)?.state).toBe('canceled');
    expect(h.ledger.order(ids.filled)?.state).toBe('matched');
    expect(h.ledger.fillsOfOrder(ids.filled)).toHaveLength(1);
    expect(h.ledger.order(ids.lost)?.state).toBe('not_found');
    expect(h.ledger.order(ids.unsent)?.state).toBe('not_found');
    expect(h.ledger.openOrders().map((o) => o.id)).toEqual([ids.live]);
    expect(r.fills).toEqual([expect.objectContaining({ orderId: ids.filled, size: 10_000_000, liquidity: 'maker' })]);
  });

  it('policy adopt: orphans found live become live orders that reconcile manages', async () => {
    const { h, ids } = await crashed();
    const om2 = h.restart();
    const r = await om2.startupReconcile({ orphanPolicy: 'adopt', markets: MARKETS });
    expect(r).toMatchObject({ live: 1, adopted: 1, cancelled: 0, closed: 1, notFound: 2 });
    expect(
      om2
        .liveOrders()
        .map((o) => o.id)
        .sort(),
    ).toEqual([ids.live, ids.orphan].sort());
    expect(h.venue.orders.get(ids.orphan)?.status).toBe('LIVE');
    expect(h.ledger.order(ids.orphan)?.state).toBe('live');
    // The adopted order is an ordinary live order: an empty plan cancels it.
    await om2.apply(reconcile([], om2.liveOrders()), MARKETS);
    expect(h.venue.liveOrders()).toEqual([]);
  });

  it('an order whose lookup fails stays unknown and blocks its key until resolved', async () => {
    const { h, ids } = await crashed();
    const om2 = h.restart();
    h.venue.inject('getOrder', { kind: 'fail', error: httpError('GET /data/order/{id}', 503, 'unavailable') });
    const r = await om2.startupReconcile({ orphanPolicy: 'cancel', markets: MARKETS });
    expect(r.unresolved).toHaveLength(1);
    const stuck = om2.liveOrders().find((o) => o.state === 'unknown');
    expect(stuck?.id).toBe(r.unresolved[0]);
    await om2.resolveUnknown({ all: true });
    expect(om2.liveOrders().every((o) => o.state === 'live')).toBe(true);
    expect(Object.values(ids)).toContain(r.unresolved[0]);
  });
});

describe('OrderManager: cancelAll', () => {
  it('leaves nothing live on the venue, unknown orders included, and stops placing until resume()', async () => {
    const h = make();
    await h.cycle(ladder(20));
    h.venue.inject('postOrders', { kind: 'timeout-after-apply' });
    await h.cycle([...ladder(20), q(TOKEN_B, 'SELL', 0.7, 5)]);
    expect(h.om.liveOrders().filter((o) => o.state === 'unknown')).toHaveLength(1);
    const r = await h.om.cancelAll();
    expect(r.timedOut).toBe(false);
    expect(r.remaining).toEqual([]);
    expect(r.cancelled).toBe(21);
    expect(h.venue.liveOrders()).toEqual([]);
    expect(h.ledger.openOrders()).toEqual([]);
    expect(h.om.health().inFlightRequests).toBe(0);

    const halted = await h.cycle(ladder(1));
    expect(halted.dropped.map((d) => d.reason)).toEqual(['halted']);
    h.om.resume();
    expect((await h.cycle(ladder(1))).accepted).toBe(1);
  });

  it('retries cancels that fail, in rounds, within the deadline', async () => {
    const h = make({ config: { backoff: { baseDelayMs: 100, maxDelayMs: 100 } } });
    await h.cycle(ladder(3));
    const fail = { kind: 'fail' as const, error: httpError('DELETE /order', 503, 'busy') };
    h.venue.inject('cancelOrder', fail, fail);
    const r = await drive(h.clock, h.om.cancelAll({ timeoutMs: 5000 }));
    expect(r.remaining).toEqual([]);
    expect(h.venue.liveOrders()).toEqual([]);
    expect(h.venue.orderCalls.filter((c) => c.op === 'cancelOrder')).toHaveLength(5);
  });

  it("gives up cancelling at the cancel phase's deadline, looks up what is left and reports it", async () => {
    const h = make({ config: { backoff: { baseDelayMs: 1000, maxDelayMs: 1000 }, cancelAllRounds: 50 } });
    await h.cycle(ladder(1));
    const fail = { kind: 'fail' as const, error: httpError('DELETE /order', 503, 'busy') };
    h.venue.inject('cancelOrder', ...Array.from({ length: 100 }, () => fail));
    const t0 = h.clock.now();
    const r = await drive(h.clock, h.om.cancelAll({ timeoutMs: 3000 }));
    // The cancel phase ended at 70 % of the time; the lookup of the order found it still live.
    expect(r).toMatchObject({ timedOut: false, finalReadsOwed: [], fillsRecorded: 0 });
    expect(r.remaining).toHaveLength(1);
    expect(h.venue.liveOrders()).toHaveLength(1);
    expect(h.clock.now() - t0).toBeLessThanOrEqual(3000);
  });

  it('times out when the exchange answers nothing, and says so', async () => {
    const h = make({ config: { backoff: { baseDelayMs: 1000, maxDelayMs: 1000 }, cancelAllRounds: 50 } });
    await h.cycle(ladder(1));
    h.venue.hang('cancelOrder');
    h.venue.hang('getOrder');
    const t0 = h.clock.now();
    const r = await drive(h.clock, h.om.cancelAll({ timeoutMs: 3000 }));
    expect(r.timedOut).toBe(true);
    expect(r.remaining).toHaveLength(1);
    expect(h.clock.now() - t0).toBeLessThanOrEqual(3000);
  });
});

// Issue #12: the ledger equals the exchange under crashes, churn and shutdown.
describe('OrderManager: durable obligations (issue #12)', () => {
  it('a crash between an answered cancel and its final read loses no fill: the restart reads it', async () => {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const id = h.om.liveOrders()[0]!.id;
    // A fill lands between our last poll and the cancel; the cancel's answer does not say so.
    h.venue.fill(id, 3_000_000);
    const r = await h.cycle([]);
    expect(r.cancelled).toBe(1);
    expect(h.ledger.order(id)?.state).toBe('closing');
    expect(h.ledger.fillsOfOrder(id)).toHaveLength(0);
    // SIGKILL here: the in-memory "owed a final read" is gone; the ledger still says closing.
    const om2 = h.restart();
    const rep = await om2.startupReconcile({ orphanPolicy: 'adopt', markets: MARKETS });
    expect(rep).toMatchObject({ closed: 1, cancelled: 0, adopted: 0 });
    expect(h.ledger.order(id)).toMatchObject({ state: 'canceled', sizeMatched: 3_000_000 });
    expect(h.ledger.position(TOKEN_A)?.size).toBe(3_000_000);
  });

  it('a crash after a cancel was written but before it was answered: the restart cancels it whatever the policy', async () => {
    const h = make();
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    const id = h.om.liveOrders()[0]!.id;
    h.venue.hang('cancelOrder');
    void h.cycle([]); // the cancel never answers: the process dies waiting
    await new Promise<void>((r) => setImmediate(r));
    expect(h.ledger.order(id)?.state).toBe('cancelling');
    // The restarted process's own cancel goes through.
    h.venue.unhang('cancelOrder', { keepPending: true });
    const om2 = h.restart();
    const rep = await drive(h.clock, om2.startupReconcile({ orphanPolicy: 'adopt', markets: MARKETS }));
    expect(rep.cancelled).toBe(1);
    expect(h.venue.liveOrders()).toEqual([]);
    await om2.pollFills();
    expect(h.ledger.order(id)?.state).toBe('canceled');
    expect(h.ledger.openOrders()).toEqual([]);
    h.venue.unhang('cancelOrder'); // the dead process's request finally times out
  });

  it('fill reads scale with the time since the last poll, final reads first, then orders at the touch', async () => {
    const h = make({ config: { pollBatch: 1, fillReadsPerSecond: 10 } });
    await h.cycle(ladder(8));
    await h.om.pollFills({ limit: 0 }); // starts the read budget's clock
    // Two cancelled (owed final reads), and of the live ones only the 0.27 bid is "at the touch".
    const live = h.om.liveOrders();
    const keep = ladder(8).slice(2);
    await h.cycle(keep);
    expect(h.om.fillReads().pendingSettlements).toBe(2);
    const touch = live.find((o) => o.price === 270_000)!;
    h.clock.advance(400); // 0.4 s × 10 reads/s = 4 reads
    const before = h.venue.orderCalls.length;
    const r = await h.om.pollFills({ mayHaveFilled: (o) => o.price === touch.price });
    expect(r.lookedUp).toBe(4);
    const read = h.venue.orderCalls.slice(before).map((c) => c.ids[0]);
    expect(read.slice(0, 2).sort()).toEqual(
      live
        .filter((o) => !keep.some((k) => k.price === o.price))
        .map((o) => o.id)
        .sort(),
    );
    expect(read[2]).toBe(touch.id);
    expect(h.om.fillReads().pendingSettlements).toBe(0);
  });

  it('live lookups take only their share of the budget when the trades route brought the fills; final reads are never cut', async () => {
    const h = make({ config: { pollBatch: 1, fillReadsPerSecond: 10 } });
    await h.cycle(ladder(12));
    await h.om.pollFills({ limit: 0 });
    await h.cycle(ladder(12).slice(2)); // two cancelled: two final reads owed
    h.clock.advance(1_000); // 10 reads
    const r = await h.om.pollFills({ liveReadShare: 0.25 });
    expect(r.lookedUp).toBe(2 + 2); // both final reads, then a quarter of the 8 left
    expect(h.om.fillReads().pendingSettlements).toBe(0);
  });

  it('when final reads fall behind, placements stop (fill-backlog) and cancels still go, until reads catch up', async () => {
    const h = make({ config: { maxFinalReadBacklog: 2, fillReadsPerSecond: 1, pollBatch: 1 } });
    await h.cycle(ladder(4));
    const r = await h.cycle(ladder(4, 0.2)); // every quote moves: 4 cancels, 4 placements
    expect(r.cancelled).toBe(4);
    expect(r.placementsSent).toBe(0);
    expect(r.dropped.every((d) => d.reason === 'fill-backlog')).toBe(true);
    expect(h.om.fillReads().placementHold).toBe('fill-backlog');
    await h.om.pollFills({ limit: 10 });
    const again = await h.cycle(ladder(4, 0.2));
    expect(again.placementsSent).toBe(4);
    expect(h.om.fillReads().placementHold).toBeNull();
  });

  it('placements keep every open order cancellable within the cancel budget, less the reserve', async () => {
    const h = make({
      config: { cancelReserve: 2 },
      limiter: {
        budgets: {
          buckets: {
            'clob DELETE /order': [
              { limit: 20, windowMs: 10_000 },
              { limit: 12, windowMs: 600_000 },
            ],
          },
        },
      },
    });
    const r = await h.cycle(ladder(15));
    // 10-min window: 12 cancels; reserve 2 → at most 10 open orders.
    expect(r.placementsSent).toBe(10);
    expect(r.dropped.filter((d) => d.reason === 'cancel-reserve')).toHaveLength(5);
    expect(h.om.fillReads()).toMatchObject({ placementHold: 'cancel-reserve', cancelHeadroom: 0 });
    // Every open order can still be cancelled, with no refusal by the budget.
    const all = await drive(h.clock, h.om.cancelAll({ timeoutMs: 5_000 }));
    expect(all).toMatchObject({ cancelled: 10, remaining: [], timedOut: false });
    expect(h.venue.liveOrders()).toEqual([]);
  });

  it('fills of one token discovered in reverse order are all recorded (the SELL before the BUY that funded it)', async () => {
    const h = make({ config: { readConcurrency: 1 } });
    await h.cycle([q(TOKEN_A, 'SELL', 0.6, 5)]);
    await h.cycle([q(TOKEN_A, 'SELL', 0.6, 5), q(TOKEN_A, 'BUY', 0.4, 5)]);
    const sell = h.om.liveOrders().find((o) => o.side === 'SELL')!;
    const buy = h.om.liveOrders().find((o) => o.side === 'BUY')!;
    h.venue.fill(buy.id, 5_000_000);
    h.venue.fill(sell.id, 5_000_000);
    const r = await h.om.pollFills({ limit: 2 });
    expect(r.failed).toBe(0);
    expect(h.fills.map((f) => f.side)).toEqual(['SELL', 'BUY']);
    expect(h.ledger.position(TOKEN_A)).toMatchObject({ size: 0, cost: 0 });
    // 5 × (0.6 − 0.4), less two maker fees of 100 bps × min(p, 1 − p) × 5 = 0.02 each.
    expect(h.ledger.position(TOKEN_A)?.realized).toBe(1_000_000 - 20_000 - 20_000);
  });

  it('cancelAll reports the fills its final reads recorded', async () => {
    const h = make();
    await h.cycle(ladder(3));
    const [a, b] = h.om.liveOrders();
    h.venue.fill(a!.id, 2_000_000);
    h.venue.fill(b!.id, 1_000_000);
    const r = await drive(h.clock, h.om.cancelAll({ timeoutMs: 5_000 }));
    expect(r).toMatchObject({
      cancelled: 3,
      remaining: [],
      finalReadsOwed: [],
      fillsRecorded: 2,
      fillSharesRecorded: 3_000_000,
      timedOut: false,
    });
    expect(h.ledger.openOrders()).toEqual([]);
  });
});

// Issue #13: the account-lifecycle routes of the public exchange, where the venue has them.
describe('OrderManager: batch cancels and the open-order listing (issue #13)', () => {
  it('cancels in DELETE /orders batches, not one request an order', async () => {
    const h = make({ venue: { lifecycle: true }, config: { cancelBatchSize: 15 } });
    await h.cycle(ladder(20).concat(ladder(20, 0.8).map((x) => ({ ...x, side: 'SELL' as const }))));
    expect(h.om.liveOrders()).toHaveLength(40);
    const r = await drive(h.clock, h.om.cancelAll({ timeoutMs: 5_000 }));
    expect(r).toMatchObject({ cancelled: 40, remaining: [], finalReadsOwed: [], timedOut: false });
    const cancels = h.venue.orderCalls.filter((c) => c.op === 'cancelOrders' || c.op === 'cancelOrder');
    expect(cancels.map((c) => [c.op, c.ids.length])).toEqual([
      ['cancelOrders', 15],
      ['cancelOrders', 15],
      ['cancelOrders', 10],
    ]);
    expect(h.venue.liveOrders()).toEqual([]);
  });

  it("caps DELETE /orders batches at the signer's cancel bucket", async () => {
    // A 1.4 s margin reserves 112 of the standard tier's 120 cancel tokens: batches of at most 8.
    const h = make({
      venue: { lifecycle: true },
      config: { cancelBatchSize: 15 },
      limiter: { signerTier: 'standard', marginMs: 1400 },
    });
    expect(h.limiter.signerCapacity('cancel')).toBe(8);
    await drive(h.clock, h.cycle(ladder(20)));
    expect(h.om.liveOrders()).toHaveLength(20);
    const r = await drive(h.clock, h.om.cancelAll({ timeoutMs: 5_000 }));
    expect(r).toMatchObject({ cancelled: 20, remaining: [] });
    const cancels = h.venue.orderCalls.filter((c) => c.op === 'cancelOrders' || c.op === 'cancelOrder');
    expect(cancels.map((c) => [c.op, c.ids.length])).toEqual([
      ['cancelOrders', 8],
      ['cancelOrders', 8],
      ['cancelOrders', 4],
    ]);
  });

  it('with batch cancels the reserve counts orders per request of DELETE /orders', async () => {
    const h = make({
      venue: { lifecycle: true },
      config: { cancelBatchSize: 5, cancelReserve: 0 },
      limiter: { budgets: { buckets: { 'clob DELETE /orders': [{ limit: 2, windowMs: 600_000 }] } } },
    });
    const r = await h.cycle(ladder(14));
    expect(r.placementsSent).toBe(10); // 2 requests × 5 orders
    expect(r.dropped.filter((d) => d.reason === 'cancel-reserve')).toHaveLength(4);
  });

  it('startup finds live orders the ledger never recorded (a lost disk, a second process) and cancels them', async () => {
    const h = make({ venue: { lifecycle: true } });
    const venue = h.venue as LifecycleFakeVenue;
    const id = `0x${'ab'.repeat(32)}`;
    venue.restForeign({
      id,
      tokenId: TOKEN_A,
      conditionId: CONDITION,
      side: 'BUY',
      price: 420_000 as Price,
      originalSize: 10_000_000 as Shares,
      sizeMatched: 2_000_000 as Shares,
    });
    const om2 = h.restart();
    const rep = await drive(h.clock, om2.startupReconcile({ orphanPolicy: 'cancel', markets: MARKETS }));
    expect(rep).toMatchObject({ foreign: 1, listed: true, cancelled: 1 });
    expect(venue.liveOrders()).toEqual([]);
    // Written to the ledger from the exchange's record, with what had matched: nothing is lost.
    expect(h.ledger.order(id)).toMatchObject({ state: 'closing', sizeMatched: 2_000_000, meta: { foreign: true } });
    expect(h.ledger.position(TOKEN_A)?.size).toBe(2_000_000);
  });

  it('policy adopt tracks such an order as ours', async () => {
    const h = make({ venue: { lifecycle: true } });
    const venue = h.venue as LifecycleFakeVenue;
    const id = `0x${'cd'.repeat(32)}`;
    venue.restForeign({
      id,
      tokenId: TOKEN_A,
      conditionId: CONDITION,
      side: 'SELL',
      price: 610_000 as Price,
      originalSize: 5_000_000 as Shares,
    });
    const om2 = h.restart();
    const rep = await drive(h.clock, om2.startupReconcile({ orphanPolicy: 'adopt', markets: MARKETS }));
    expect(rep).toMatchObject({ foreign: 1, adopted: 1, cancelled: 0 });
    expect(om2.liveOrders().map((o) => o.id)).toEqual([id]);
    expect(h.ledger.order(id)?.state).toBe('live');
  });
});

describe('OrderManager: post-only quotes (issue #13)', () => {
  it('quotes go post-only by default; a strategy may say otherwise per quote', async () => {
    const h = make();
    const seen = new Map<string, boolean | undefined>();
    h.venue.beforePlace = (subs) => {
      for (const s of subs) seen.set(s.order.side, s.postOnly);
    };
    await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10), { ...q(TOKEN_A, 'SELL', 0.6, 10), postOnly: false }]);
    expect(seen.get('BUY')).toBe(true);
    expect(seen.get('SELL')).not.toBe(true);
  });

  it('a post-only refusal is a value the strategy sees, not a retry', async () => {
    const h = make();
    h.venue.inject('postOrders', { kind: 'reject', errorMsg: 'invalid post-only order: order crosses book' });
    const r = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(r.rejected).toHaveLength(1);
    expect(h.om.rejections()).toEqual([
      {
        tokenId: TOKEN_A,
        side: 'BUY',
        price: 400_000,
        errorMsg: 'invalid post-only order: order crosses book',
        postOnlyCross: true,
      },
    ]);
    const again = await h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]);
    expect(again.placementsSent).toBe(0);
    expect(again.dropped).toEqual([expect.objectContaining({ reason: 'cooldown' })]);
  });
});

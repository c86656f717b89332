// Reconcile: one unit case per rule (tolerance, several orders at a key, partial fills, in-flight
// placements and cancels, unknown orders, replace tagging) and fast-check properties
// (idempotence, an unchanged set yields nothing, one placement per key at most, none beside an
// in-flight order, convergence, independence from input order).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../src/core/money.js';
import { remainingSize, type LiveOrder, type LiveOrderState, type Side } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { reconcile, sizeTolerance, type ReconcileOptions } from '../../src/execution/reconcile.js';
import { quoteKey, type ReconcilePlan } from '../../src/execution/types.js';

const SH = 1_000_000; // one share in millionths

function q(tokenId: string, side: Side, price: number, sizeShares: number, tag?: string): DesiredQuote {
  return {
    tokenId,
    side,
    price: price as Price,
    size: Math.round(sizeShares * SH) as Shares,
    ...(tag !== undefined ? { tag } : {}),
  };
}

let nextId = 0;
function o(
  tokenId: string,
  side: Side,
  price: number,
  sizeShares: number,
  extra: { state?: LiveOrderState; matched?: number; at?: number; id?: string } = {},
): LiveOrder {
  return {
    id: extra.id ?? `o${nextId++}`,
    tokenId,
    side,
    price: price as Price,
    originalSize: Math.round(sizeShares * SH) as Shares,
    sizeMatched: Math.round((extra.matched ?? 0) * SH) as Shares,
    state: extra.state ?? 'live',
    createdAtMs: extra.at ?? 1_000,
  };
}

describe('reconcile: unit rules', () => {
  it('places every desired quote when nothing rests, tagged new, best price first', () => {
    const plan = reconcile([q('A', 'BUY', 480_000, 10), q('A', 'BUY', 490_000, 10), q('A', 'SELL', 520_000, 5)], []);
    expect(plan.cancels).toEqual([]);
    expect(plan.placements.map((p) => [p.quote.side, p.quote.price, p.kind])).toEqual([
      ['BUY', 490_000, 'new'],
      ['BUY', 480_000, 'new'],
      ['SELL', 520_000, 'new'],
    ]);
    expect(plan.placements[0]?.key).toBe(quoteKey('A', 'BUY', 490_000));
  });

  it('leaves an unchanged quote alone so it keeps its queue place', () => {
    const live = [o('A', 'BUY', 490_000, 10)];
    const plan = reconcile([q('A', 'BUY', 490_000, 10)], live);
    expect(plan).toEqual({ cancels: [], placements: [], kept: live, blocked: [] });
  });

  it('cancels an order whose key is no longer wanted, and the moved quote is a replace', () => {
    const old = o('A', 'BUY', 490_000, 10, { id: 'old' });
    const plan = reconcile([q('A', 'BUY', 500_000, 10, 'band-0')], [old]);
    expect(plan.cancels).toEqual([
      {
        orderId: 'old',
        key: quoteKey('A', 'BUY', 490_000),
        tokenId: 'A',
        side: 'BUY',
        price: 490_000,
        reason: 'not-desired',
      },
    ]);
    expect(plan.placements).toEqual([
      { key: quoteKey('A', 'BUY', 500_000), quote: q('A', 'BUY', 500_000, 10, 'band-0'), kind: 'replace' },
    ]);
  });

  it('tags as many placements replace as there were cancels of the same token and side, best first', () => {
    const live = [o('A', 'BUY', 470_000, 10), o('A', 'BUY', 460_000, 10), o('B', 'BUY', 300_000, 10)];
    const plan = reconcile(
      [q('A', 'BUY', 490_000, 10), q('A', 'BUY', 480_000, 10), q('A', 'BUY', 475_000, 10), q('A', 'SELL', 600_000, 10)],
      live,
    );
    expect(plan.cancels).toHaveLength(3);
    expect(plan.placements.map((p) => [p.quote.tokenId, p.quote.side, p.quote.price, p.kind])).toEqual([
      ['A', 'BUY', 490_000, 'replace'],
      ['A', 'BUY', 480_000, 'replace'],
      ['A', 'BUY', 475_000, 'new'],
      ['A', 'SELL', 600_000, 'new'], // B's cancelled bid does not make an A ask a replace
    ]);
  });

  it('keeps a partially filled order whose remaining size is within tolerance', () => {
    const live = [o('A', 'BUY', 490_000, 10, { matched: 0.4 })]; // 9.6 left
    const opts: ReconcileOptions = { toleranceBps: 500 }; // 5 % of 10 = 0.5
    expect(reconcile([q('A', 'BUY', 490_000, 10)], live, opts)).toEqual({
      cancels: [],
      placements: [],
      kept: live,
      blocked: [],
    });
  });

  it('tops up a partially filled order when the shortfall is an order of at least the minimum size', () => {
    const live = [o('A', 'BUY', 490_000, 20, { matched: 6 })]; // 14 left, 6 short
    const plan = reconcile([q('A', 'BUY', 490_000, 20)], live, { toleranceBps: 500, minOrderSize: () => 5 * SH });
    expect(plan.cancels).toEqual([]);
    expect(plan.kept).toEqual(live);
    expect(plan.placements).toEqual([
      { key: quoteKey('A', 'BUY', 490_000), quote: q('A', 'BUY', 490_000, 6), kind: 'new' },
    ]);
  });

  it('replaces the key whole when the shortfall is below the minimum order size', () => {
    const live = [o('A', 'BUY', 490_000, 20, { matched: 3, id: 'p' })]; // 17 left, 3 short
    const plan = reconcile([q('A', 'BUY', 490_000, 20)], live, { minOrderSize: () => 5 * SH });
    expect(plan.cancels.map((c) => [c.orderId, c.reason])).toEqual([['p', 'resize']]);
    expect(plan.placements).toEqual([
      { key: quoteKey('A', 'BUY', 490_000), quote: q('A', 'BUY', 490_000, 20), kind: 'replace' },
    ]);
    expect(plan.kept).toEqual([]);
  });

  it('with several orders at one key keeps the oldest up to the wanted size and cancels the youngest', () => {
    const a = o('A', 'SELL', 510_000, 10, { id: 'a', at: 100 });
    const b = o('A', 'SELL', 510_000, 10, { id: 'b', at: 300 });
    const c = o('A', 'SELL', 510_000, 10, { id: 'c', at: 200 });
    const plan = reconcile([q('A', 'SELL', 510_000, 20)], [b, a, c]);
    expect(plan.cancels.map((x) => [x.orderId, x.reason])).toEqual([['b', 'excess']]);
    expect(plan.kept.map((x) => x.id)).toEqual(['a', 'c']);
    expect(plan.placements).toEqual([]);
  });

  it('cancels an oversized order and places the wanted size again', () => {
    const plan = reconcile([q('A', 'BUY', 490_000, 10)], [o('A', 'BUY', 490_000, 25, { id: 'big' })]);
    expect(plan.cancels.map((x) => [x.orderId, x.reason])).toEqual([['big', 'excess']]);
    expect(plan.placements.map((p) => [p.quote.size, p.kind])).toEqual([[10 * SH, 'replace']]);
  });

  it('never places beside an in-flight placement, and never cancels one', () => {
    const inflight = o('A', 'BUY', 490_000, 5, { state: 'inflight' });
    const more = reconcile([q('A', 'BUY', 490_000, 10)], [inflight]);
    expect(more.placements).toEqual([]);
    expect(more.blocked).toEqual([{ key: quoteKey('A', 'BUY', 490_000), reason: 'inflight', missing: 5 * SH }]);
    expect(more.kept).toEqual([inflight]);
    const gone = reconcile([], [inflight]);
    expect(gone.cancels).toEqual([]);
  });

  it('does not cancel a cancelling order again, nor count its size as resting', () => {
    const leaving = o('A', 'BUY', 490_000, 10, { state: 'cancelling' });
    expect(reconcile([], [leaving]).cancels).toEqual([]);
    const plan = reconcile([q('A', 'BUY', 490_000, 10)], [leaving]);
    expect(plan.cancels).toEqual([]);
    expect(plan.placements.map((p) => p.quote.size)).toEqual([10 * SH]);
  });

  it('places nothing at a key with an order of unknown state until it is resolved', () => {
    const lost = o('A', 'SELL', 520_000, 4, { state: 'unknown' });
    const plan = reconcile([q('A', 'SELL', 520_000, 10)], [lost]);
    expect(plan.placements).toEqual([]);
    expect(plan.blocked).toEqual([{ key: quoteKey('A', 'SELL', 520_000), reason: 'unknown', missing: 6 * SH }]);
    expect(reconcile([], [lost])).toEqual({ cancels: [], placements: [], kept: [], blocked: [] });
  });

  it('an in-flight order that already covers the key blocks nothing', () => {
    const inflight = o('A', 'BUY', 490_000, 10, { state: 'inflight' });
    expect(reconcile([q('A', 'BUY', 490_000, 10)], [inflight])).toEqual({
      cancels: [],
      placements: [],
      kept: [inflight],
      blocked: [],
    });
  });

  it('sums desired quotes sharing a key, keeping the first tag', () => {
    const plan = reconcile([q('A', 'BUY', 490_000, 4, 'x'), q('A', 'BUY', 490_000, 6, 'y')], []);
    expect(plan.placements).toEqual([
      { key: quoteKey('A', 'BUY', 490_000), quote: q('A', 'BUY', 490_000, 10, 'x'), kind: 'new' },
    ]);
  });

  it('ignores zero sizes and fully matched orders', () => {
    const filled = o('A', 'BUY', 490_000, 10, { matched: 10 });
    expect(reconcile([q('A', 'BUY', 480_000, 0)], [filled])).toEqual({
      cancels: [],
      placements: [],
      kept: [],
      blocked: [],
    });
  });

  it('tolerance never excuses an empty key', () => {
    const plan = reconcile([q('A', 'BUY', 490_000, 1)], [], { toleranceShares: 5 * SH });
    expect(plan.placements).toHaveLength(1);
  });

  it('throws on values no strategy may produce', () => {
    expect(() => reconcile([q('A', 'BUY', 490_000, -1)], [])).toThrow(/invalid price\/size/);
    expect(() => reconcile([{ ...q('A', 'BUY', 490_000, 1), price: Number.NaN as Price }], [])).toThrow(/invalid/);
    expect(() =>
      reconcile([], [o('A', 'BUY', 490_000, 1, { id: 'x' }), o('A', 'BUY', 480_000, 1, { id: 'x' })]),
    ).toThrow(/twice/);
  });

  it('sizeTolerance takes the larger of the absolute and relative tolerance, floored', () => {
    expect(sizeTolerance(10 * SH, { toleranceShares: 100_000, toleranceBps: 250 })).toBe(250_000);
    expect(sizeTolerance(10 * SH, { toleranceShares: 300_000, toleranceBps: 250 })).toBe(300_000);
    expect(sizeTolerance(3, { toleranceBps: 5_000 })).toBe(1);
    expect(sizeTolerance(2 ** 52, { toleranceBps: 3 })).toBe(Number((2n ** 52n * 3n) / 10_000n));
    expect(() => sizeTolerance(1, { toleranceBps: -1 })).toThrow();
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const TOKENS = ['A', 'B'] as const;
const PRICES = [480_000, 490_000, 500_000, 510_000];
const STATES: LiveOrderState[] = ['inflight', 'live', 'cancelling', 'unknown'];

const keyArb = fc.record({
  tokenId: fc.constantFrom(...TOKENS),
  side: fc.constantFrom<Side>('BUY', 'SELL'),
  price: fc.constantFrom(...PRICES),
});

const desiredArb = fc.array(
  fc.record({ k: keyArb, size: fc.integer({ min: 1, max: 30 }) }).map(({ k, size }): DesiredQuote => ({
    tokenId: k.tokenId,
    side: k.side,
    price: k.price as Price,
    size: (size * SH) as Shares,
  })),
  { maxLength: 10 },
);

const liveArb = fc
  .array(
    fc.record({
      k: keyArb,
      size: fc.integer({ min: 1, max: 30 }),
      matchedFrac: fc.integer({ min: 0, max: 4 }),
      state: fc.constantFrom(...STATES),
      at: fc.integer({ min: 0, max: 5 }),
    }),
    { maxLength: 12 },
  )
  .map((rows) =>
    rows.map((r, i): LiveOrder => ({
      id: `L${i}`,
      tokenId: r.k.tokenId,
      side: r.k.side,
      price: r.k.price as Price,
      originalSize: (r.size * SH) as Shares,
      sizeMatched: (Math.floor((r.size * r.matchedFrac) / 4) * SH) as Shares,
      state: r.state,
      createdAtMs: r.at,
    })),
  );

const optsArb = fc
  .record({
    toleranceShares: fc.constantFrom(0, SH),
    toleranceBps: fc.constantFrom(0, 500),
    min: fc.constantFrom(0, 5 * SH),
  })
  .map(({ toleranceShares, toleranceBps, min }): ReconcileOptions => ({
    toleranceShares,
    toleranceBps,
    minOrderSize: () => min,
  }));

/** What the order manager does with a plan: cancels become cancelling, placements in flight. */
function apply(plan: ReconcilePlan, live: readonly LiveOrder[]): LiveOrder[] {
  const cancelled = new Set(plan.cancels.map((c) => c.orderId));
  const after = live.map((x) => (cancelled.has(x.id) ? { ...x, state: 'cancelling' as const } : x));
  plan.placements.forEach((p, i) =>
    after.push({
      id: `P${i}`,
      tokenId: p.quote.tokenId,
      side: p.quote.side,
      price: p.quote.price,
      originalSize: p.quote.size,
      sizeMatched: 0 as Shares,
      state: 'inflight',
      createdAtMs: 100,
    }),
  );
  return after;
}

function desiredByKey(desired: readonly DesiredQuote[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of desired) {
    const k = quoteKey(d.tokenId, d.side, d.price);
    m.set(k, (m.get(k) ?? 0) + d.size);
  }
  return m;
}

describe('reconcile: properties', () => {
  it('is idempotent: applying the plan and reconciling again yields no action', () => {
    fc.assert(
      fc.property(desiredArb, liveArb, optsArb, (desired, live, opts) => {
        const plan = reconcile(desired, live, opts);
        const again = reconcile(desired, apply(plan, live), opts);
        expect(again.cancels).toEqual([]);
        expect(again.placements).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('an unchanged desired set (what rests, within tolerance) yields nothing', () => {
    fc.assert(
      fc.property(liveArb, fc.integer({ min: -5, max: 5 }), (rows, jitterPct) => {
        // One live order per key, desired = its remaining size moved by up to 5 %, tolerance 5 %.
        const seen = new Set<string>();
        const live = rows
          .map((r) => ({ ...r, state: 'live' as const }))
          .filter((r) => remainingSize(r) > 0)
          .filter((r) => {
            const k = quoteKey(r.tokenId, r.side, r.price);
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          });
        const desired = live.map((r): DesiredQuote => {
          const rem = remainingSize(r);
          // rem = D × (1 + j/100) with |j| ≤ 5: |rem − D| ≤ 5 % of D, inside the 6 % tolerance.
          const d = Math.round(rem / (1 + jitterPct / 100));
          return { tokenId: r.tokenId, side: r.side, price: r.price, size: Math.max(1, d) as Shares };
        });
        const plan = reconcile(desired, live, { toleranceBps: 600 });
        expect(plan.cancels).toEqual([]);
        expect(plan.placements).toEqual([]);
        expect(plan.kept).toHaveLength(live.length);
      }),
      { numRuns: 300 },
    );
  });

  it('never plans two placements for one key, nor one beside an in-flight or unknown order', () => {
    fc.assert(
      fc.property(desiredArb, liveArb, optsArb, (desired, live, opts) => {
        const plan = reconcile(desired, live, opts);
        const keys = plan.placements.map((p) => p.key);
        expect(new Set(keys).size).toBe(keys.length);
        const pendingKeys = new Set(
          live
            .filter((x) => (x.state === 'inflight' || x.state === 'unknown') && remainingSize(x) > 0)
            .map((x) => quoteKey(x.tokenId, x.side, x.price)),
        );
        for (const k of keys) expect(pendingKeys.has(k)).toBe(false);
        for (const p of plan.placements) expect(p.key).toBe(quoteKey(p.quote.tokenId, p.quote.side, p.quote.price));
        // Only live orders are ever cancelled, each once.
        const byId = new Map(live.map((x) => [x.id, x]));
        for (const c of plan.cancels) expect(byId.get(c.orderId)?.state).toBe('live');
        expect(new Set(plan.cancels.map((c) => c.orderId)).size).toBe(plan.cancels.length);
      }),
      { numRuns: 500 },
    );
  });

  it('converges: after the plan, every unblocked wanted key rests within tolerance and nothing unwanted stays live', () => {
    fc.assert(
      fc.property(desiredArb, liveArb, optsArb, (desired, live, opts) => {
        const plan = reconcile(desired, live, opts);
        const after = apply(plan, live);
        const wanted = desiredByKey(desired);
        const blocked = new Set(plan.blocked.map((b) => b.key));
        const resting = new Map<string, number>();
        const pendingBefore = new Map<string, number>();
        for (const x of after) {
          if (x.state === 'cancelling') continue;
          const k = quoteKey(x.tokenId, x.side, x.price);
          resting.set(k, (resting.get(k) ?? 0) + remainingSize(x));
          if (x.state === 'live' && remainingSize(x) > 0) expect(wanted.has(k)).toBe(true);
        }
        for (const x of live) {
          if (x.state !== 'inflight' && x.state !== 'unknown') continue;
          const k = quoteKey(x.tokenId, x.side, x.price);
          pendingBefore.set(k, (pendingBefore.get(k) ?? 0) + remainingSize(x));
        }
        for (const [k, d] of wanted) {
          if (blocked.has(k)) continue;
          const tol = sizeTolerance(d, opts);
          const r = resting.get(k) ?? 0;
          expect(r).toBeGreaterThanOrEqual(d - tol);
          expect(r > 0).toBe(true);
          if ((pendingBefore.get(k) ?? 0) <= d + tol) expect(r).toBeLessThanOrEqual(d + tol);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order of its inputs', () => {
    fc.assert(
      fc.property(desiredArb, liveArb, optsArb, (desired, live, opts) => {
        const a = reconcile(desired, live, opts);
        const b = reconcile([...desired].reverse(), [...live].reverse(), opts);
        expect(b.cancels).toEqual(a.cancels);
        expect(b.placements).toEqual(a.placements);
        expect(new Set(b.kept.map((x) => x.id))).toEqual(new Set(a.kept.map((x) => x.id)));
      }),
      { numRuns: 300 },
    );
  });
});

// The incremental reconciler must give exactly what reconcile gives, in the same order, over any
// sequence of inputs, while recomputing only the tokens whose inputs changed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Price, Shares } from '../../src/core/money.js';
import type { LiveOrder, LiveOrderState } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { reconcile } from '../../src/execution/reconcile.js';
import { IncrementalReconciler } from '../../src/runtime/incremental-reconcile.js';

const TOKENS = ['tok-a', 'tok-b', 'tok-c', 'tok-d'];
const TOL = { toleranceBps: 1_000, toleranceShares: 0 };

const quoteArb = (tokenId: string) =>
  fc
    .record({
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      price: fc.integer({ min: 40, max: 45 }).map((c) => c * 10_000),
      size: fc.integer({ min: 1, max: 30 }).map((s) => s * 1_000_000),
      tag: fc.option(fc.constantFrom('band-0', 'band-1'), { nil: undefined }),
      postOnly: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((q): DesiredQuote => ({
      tokenId,
      side: q.side,
      price: q.price as Price,
      size: q.size as Shares,
      ...(q.tag !== undefined ? { tag: q.tag } : {}),
      ...(q.postOnly !== undefined ? { postOnly: q.postOnly } : {}),
    }));

/** The number in an order id `id-<n>` (the order it was made in). */
const idNo = (o: LiveOrder): number => Number(o.id.slice(3));

/** The same quote as a new object, its post-only choice turned the other way. */
const flipPostOnly = (q: DesiredQuote): DesiredQuote => ({ ...q, postOnly: q.postOnly !== true });

/** An order's own fields; its token is the one it is drawn for, set when the step is applied. */
const orderArb = fc.record({
  side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
  price: fc.integer({ min: 40, max: 45 }).map((c) => c * 10_000),
  size: fc.integer({ min: 1, max: 30 }),
  matched: fc.integer({ min: 0, max: 30 }),
  state: fc.constantFrom<LiveOrderState>('live', 'live', 'live', 'inflight', 'cancelling', 'unknown'),
  age: fc.integer({ min: 0, max: 5 }),
});

/** A drawn order as a LiveOrder of `tokenId` with id `id`. */
function drawnOrder(
  o: typeof orderArb extends fc.Arbitrary<infer T> ? T : never,
  id: string,
  tokenId: string,
): LiveOrder {
  return {
    id,
    tokenId,
    side: o.side,
    price: o.price as Price,
    originalSize: (o.size * 1_000_000) as Shares,
    sizeMatched: (Math.min(o.matched, o.size) * 1_000_000) as Shares,
    state: o.state,
    createdAtMs: 1_000 + o.age,
  };
}

/** Per token: keep last step's inputs, or draw new ones. */
const stepArb = fc.tuple(
  ...TOKENS.map((t) =>
    fc.record({
      // same: last step's objects; copy: equal new objects; flip: post-only changed; min: the
      // same inputs under the other minimum size; else new.
      keep: fc.constantFrom('same', 'copy', 'flip', 'min', 'new', 'new'),
      desired: fc.array(quoteArb(t), { maxLength: 5 }),
      orders: fc.array(orderArb, { maxLength: 5 }),
      min: fc.constantFrom(0, 5_000_000),
    }),
  ),
);

describe('IncrementalReconciler', () => {
  it('property: equals reconcile exactly over any sequence of inputs', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 8 }), (steps) => {
        const inc = new IncrementalReconciler(TOL);
        const cur = new Map<string, { desired: DesiredQuote[]; orders: LiveOrder[]; min: number }>();
        let nextId = 0;
        for (const step of steps) {
          step.forEach((s, i) => {
            const token = TOKENS[i] as string;
            const was = cur.get(token);
            if (was !== undefined && s.keep !== 'new') {
              if (s.keep === 'copy') was.desired = was.desired.map((q) => ({ ...q }));
              if (s.keep === 'flip') was.desired = was.desired.map(flipPostOnly);
              if (s.keep === 'min') was.min = was.min === 0 ? 5_000_000 : 0;
              return;
            }
            cur.set(token, {
              desired: s.desired,
              orders: s.orders.map((o) => drawnOrder(o, `id-${nextId++}`, token)),
              min: s.min,
            });
          });
          const desired = [...cur.values()].flatMap((v) => v.desired);
          const live = [...cur.values()].flatMap((v) => v.orders);
          const minOf = (t: string): number => cur.get(t)?.min ?? 0;
          expect(inc.plan(desired, live, minOf)).toEqual(reconcile(desired, live, { ...TOL, minOrderSize: minOf }));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: equals reconcile on a large universe, many tokens changing at once, and duplicate ids', () => {
    // 40 tokens: a step changes up to all of them (past the limit where every token is grouped
    // again), and may give an order the id of another token's order (both must refuse it).
    const many = Array.from({ length: 40 }, (_, i) => `tok-${String(i).padStart(2, '0')}`);
    const bigStep = fc.record({
      redraw: fc.oneof(fc.array(fc.nat(39), { maxLength: 8 }), fc.constant(Array.from({ length: 40 }, (_, i) => i))),
      desired: fc.array(fc.tuple(fc.nat(39), quoteArb('x')), { maxLength: 60 }),
      orders: fc.array(fc.tuple(fc.nat(39), orderArb), { maxLength: 60 }),
      dup: fc.option(fc.nat(1_000), { nil: null, freq: 6 }),
    });
    let over = 0;
    let duplicates = 0;
    fc.assert(
      fc.property(fc.array(bigStep, { minLength: 1, maxLength: 6 }), (steps) => {
        const inc = new IncrementalReconciler(TOL);
        const cur = new Map<string, { desired: DesiredQuote[]; orders: LiveOrder[] }>();
        let nextId = 0;
        for (const step of steps) {
          const redraw = new Set(step.redraw.map((i) => many[i] as string));
          if (redraw.size > 32) over++;
          for (const t of redraw) cur.set(t, { desired: [], orders: [] });
          for (const [i, q] of step.desired) {
            const t = many[i] as string;
            if (redraw.has(t)) cur.get(t)?.desired.push({ ...q, tokenId: t });
          }
          for (const [i, o] of step.orders) {
            const t = many[i] as string;
            if (!redraw.has(t)) continue;
            cur.get(t)?.orders.push(drawnOrder(o, `id-${nextId++}`, t));
          }
          const desired = [...cur.values()].flatMap((v) => v.desired);
          // Tracked orders as an executor lists them: kept ones in place, new ones last.
          const live = [...cur.values()].flatMap((v) => v.orders).sort((a, b) => idNo(a) - idNo(b));
          if (step.dup !== null && live.length > 1) {
            // The last order takes the id of an earlier one (another token's, usually).
            const from = live[step.dup % (live.length - 1)] as LiveOrder;
            live[live.length - 1] = { ...(live[live.length - 1] as LiveOrder), id: from.id };
          }
          let want: unknown;
          try {
            want = reconcile(desired, live, TOL);
          } catch (e) {
            duplicates++;
            expect(() => inc.plan(desired, live)).toThrow(/appears twice in the live set/);
            expect(String(e)).toMatch(/appears twice in the live set/);
            continue;
          }
          expect(inc.plan(desired, live)).toEqual(want);
        }
      }),
      { numRuns: 150, seed: 2026_1126 },
    );
    expect(over).toBeGreaterThan(20);
    expect(duplicates).toBeGreaterThan(20);
  });

  it('recomputes only the tokens whose inputs changed, and rejects a duplicated order id', () => {
    const inc = new IncrementalReconciler(TOL);
    const q = (tokenId: string, price: number): DesiredQuote => ({
      tokenId,
      side: 'BUY',
      price: price as Price,
      size: 10_000_000 as Shares,
    });
    const desired = [q('a', 400_000), q('b', 410_000), q('c', 420_000)];
    inc.plan(desired, []);
    expect(inc.lastRecomputed).toBe(3);
    const again = inc.plan(
      desired.map((x) => ({ ...x })),
      [],
    );
    expect(inc.lastRecomputed).toBe(0);
    expect(again.placements).toHaveLength(3); // nothing was placed: the same plan again
    inc.plan([q('a', 400_000), q('b', 430_000), q('c', 420_000)], []);
    expect(inc.lastRecomputed).toBe(1);
    inc.plan([q('a', 400_000), q('b', 430_000), q('c', 420_000)], [], (t) => (t === 'c' ? 20_000_000 : 0));
    expect(inc.lastRecomputed).toBe(1); // c's minimum changed
    const o: LiveOrder = {
      id: 'x',
      tokenId: 'a',
      side: 'BUY',
      price: 400_000 as Price,
      originalSize: 10_000_000 as Shares,
      sizeMatched: 0 as Shares,
      state: 'live',
      createdAtMs: 0,
    };
    expect(() => inc.plan([], [o, { ...o, tokenId: 'b' }])).toThrow(/appears twice/);
    // A long live set is checked another way (hashed, not scanned): the same rule.
    const many = Array.from({ length: 12 }, (_, i) => ({ ...o, id: `o${i}` }));
    expect(() => inc.plan([], [...many, { ...o, id: 'o3', tokenId: 'c' }])).toThrow(/order o3 appears twice/);
    expect(inc.plan([], many).cancels).toHaveLength(12);
  });
});

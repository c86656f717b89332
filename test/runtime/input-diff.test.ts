// The reconciler's input diff (src/runtime/input-diff.ts): a token it does not report has the same
// quotes and the same orders, in the same order, in both calls; the orders it does not pair are
// exactly the ones gone and added, and paired orders keep their ids. Checked on random edits of a
// list: removals, insertions anywhere, appends, changed fields, orders moved to the end, and
// equal-but-new objects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../src/core/money.js';
import type { LiveOrder, LiveOrderState } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { diffOrders, diffQuotes, sameOrders, sameQuotes } from '../../src/runtime/input-diff.js';

const TOKENS = ['tok-a', 'tok-b', 'tok-c', 'tok-d', 'tok-e'];

const quoteArb: fc.Arbitrary<DesiredQuote> = fc
  .record({
    tokenId: fc.constantFrom(...TOKENS),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    price: fc.integer({ min: 40, max: 43 }).map((c) => (c * 10_000) as Price),
    size: fc.integer({ min: 1, max: 3 }).map((s) => (s * 1_000_000) as Shares),
    postOnly: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map((r) => {
    const { postOnly, ...q } = r;
    return postOnly === undefined ? q : { ...q, postOnly };
  });

let nextId = 0;
const orderArb: fc.Arbitrary<LiveOrder> = fc
  .record({
    tokenId: fc.constantFrom(...TOKENS),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    price: fc.integer({ min: 40, max: 43 }).map((c) => (c * 10_000) as Price),
    matched: fc.integer({ min: 0, max: 3 }),
    state: fc.constantFrom<LiveOrderState>('live', 'inflight', 'cancelling'),
  })
  .map((r) => ({
    id: `o${nextId++}`,
    tokenId: r.tokenId,
    side: r.side,
    price: r.price,
    originalSize: 3_000_000 as Shares,
    sizeMatched: (r.matched * 1_000_000) as Shares,
    state: r.state,
    createdAtMs: 1_000,
  }));

/** One edit of a list: what a cycle does to the quotes or the orders. */
type Edit<T> =
  | { k: 'remove'; at: number }
  | { k: 'insert'; at: number; x: T }
  | { k: 'append'; x: T }
  | { k: 'change'; at: number; x: T }
  | { k: 'toEnd'; at: number }
  | { k: 'copy'; at: number };

function editArb<T>(item: fc.Arbitrary<T>): fc.Arbitrary<Edit<T>> {
  const at = fc.nat(40);
  return fc.oneof(
    at.map((n): Edit<T> => ({ k: 'remove', at: n })),
    fc.tuple(at, item).map(([n, x]): Edit<T> => ({ k: 'insert', at: n, x })),
    item.map((x): Edit<T> => ({ k: 'append', x })),
    fc.tuple(at, item).map(([n, x]): Edit<T> => ({ k: 'change', at: n, x })),
    at.map((n): Edit<T> => ({ k: 'toEnd', at: n })),
    at.map((n): Edit<T> => ({ k: 'copy', at: n })),
  );
}

/** Applies edits to a copy. `change` of an order keeps its id (the same order, other fields). */
function applyEdits<T extends object>(list: readonly T[], edits: readonly Edit<T>[], keepId: boolean): T[] {
  const out = [...list];
  for (const e of edits) {
    if (e.k === 'append') {
      out.push(e.x);
      continue;
    }
    if (e.k === 'insert') {
      out.splice(e.at % (out.length + 1), 0, e.x);
      continue;
    }
    if (out.length === 0) continue;
    const i = e.at % out.length;
    const cur = out[i] as T;
    if (e.k === 'remove') out.splice(i, 1);
    else if (e.k === 'toEnd') out.push(...out.splice(i, 1));
    else if (e.k === 'copy') out[i] = { ...cur };
    else out[i] = keepId ? { ...e.x, id: (cur as { id?: string }).id } : e.x;
  }
  return out;
}

const of = <T extends { readonly tokenId: string }>(xs: readonly T[], t: string): T[] =>
  xs.filter((x) => x.tokenId === t);

describe('diffQuotes', () => {
  it('every token it leaves out has the same quotes in the same order', () => {
    let quiet = 0;
    fc.assert(
      fc.property(
        fc.array(quoteArb, { maxLength: 20 }),
        fc.array(editArb(quoteArb), { maxLength: 3 }),
        (before, edits) => {
          const now = applyEdits(before, edits, false);
          const changed = new Set<string>();
          diffQuotes(now, before, (t) => changed.add(t));
          for (const t of TOKENS) {
            if (changed.has(t)) continue;
            quiet++;
            expect(sameQuotes(of(now, t), of(before, t)), t).toBe(true);
          }
        },
      ),
      { numRuns: 1_000, seed: 26_11 },
    );
    expect(quiet).toBeGreaterThan(1_000);
  });
});

describe('diffOrders', () => {
  it('every token it leaves out has the same orders in the same order; unpaired orders are gone or added', () => {
    let quiet = 0;
    let moved = 0;
    fc.assert(
      fc.property(
        fc.array(orderArb, { maxLength: 20 }),
        fc.array(editArb(orderArb), { maxLength: 3 }),
        (before, edits) => {
          const now = applyEdits(before, edits, true);
          const changed = new Set<string>();
          const gone: LiveOrder[] = [];
          const added: LiveOrder[] = [];
          diffOrders(now, before, (t) => changed.add(t), gone, added);
          for (const t of TOKENS) {
            if (changed.has(t)) continue;
            quiet++;
            expect(sameOrders(of(now, t), of(before, t)), t).toBe(true);
          }
          // Paired orders are those of `before` not gone and those of `now` not added: the same ids.
          const paired = (xs: readonly LiveOrder[], out: readonly LiveOrder[]): string[] =>
            xs.filter((x) => !out.includes(x)).map((x) => x.id);
          expect(paired(now, added)).toEqual(paired(before, gone));
          if (gone.some((g) => added.some((a) => a.id === g.id))) moved++;
        },
      ),
      { numRuns: 1_000, seed: 26_11 },
    );
    expect(quiet).toBeGreaterThan(1_000);
    // An order moved to the end is gone and added under one id.
    expect(moved).toBeGreaterThan(20);
  });
});

// MergedQuotes: one quote per (token, side, price) in first-added order, sizes of a repeated key
// summed into the first quote (its tag and post-only kept), whether it finds keys by scanning (a
// short list) or by its key map (past 16 quotes), compared with a plain map of keys.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price, Shares } from '../../src/core/money.js';
import { MergedQuotes, type DesiredQuote } from '../../src/core/quote.js';

/** The reference: a map from `token|side|price` to the merged quote, in insertion order. */
function reference(quotes: readonly DesiredQuote[]): DesiredQuote[] {
  const byKey = new Map<string, DesiredQuote>();
  for (const q of quotes) {
    const k = `${q.tokenId}|${q.side}|${q.price}`;
    const prev = byKey.get(k);
    byKey.set(k, prev === undefined ? q : { ...prev, size: (prev.size + q.size) as Shares });
  }
  return [...byKey.values()];
}

const quoteArb: fc.Arbitrary<DesiredQuote> = fc
  .record({
    // Few tokens and prices, so keys repeat; tokens that share a prefix, so a scan must compare whole ids.
    tokenId: fc.constantFrom('7132', '71321', '9001'),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    price: fc.integer({ min: 1, max: 30 }).map((n) => n * 10_000),
    size: fc.integer({ min: 1, max: 50 }).map((n) => n * 1_000_000),
    tag: fc.option(fc.constantFrom('band-0', 'band-1'), { nil: undefined }),
    postOnly: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map((r): DesiredQuote => {
    const q: { -readonly [K in keyof DesiredQuote]: DesiredQuote[K] } = {
      tokenId: r.tokenId,
      side: r.side,
      price: r.price as Price,
      size: r.size as Shares,
    };
    if (r.tag !== undefined) q.tag = r.tag;
    if (r.postOnly !== undefined) q.postOnly = r.postOnly;
    return q;
  });

describe('MergedQuotes', () => {
  it('holds what a map of keys holds, in first-added order, for short and long lists', () => {
    let long = 0;
    fc.assert(
      fc.property(fc.array(quoteArb, { maxLength: 80, size: 'max' }), (quotes) => {
        const m = new MergedQuotes();
        for (const q of quotes) m.add(q);
        const want = reference(quotes);
        if (want.length > 16) long++;
        expect(m.length).toBe(want.length);
        expect(m.toArray()).toStrictEqual(want);
      }),
      { numRuns: 500, seed: 2026_11_26 },
    );
    // Both ways of finding a key were exercised.
    expect(long).toBeGreaterThan(50);
  });

  it('keeps the first quote of a key and adds the later sizes to it', () => {
    const m = new MergedQuotes();
    const first: DesiredQuote = { tokenId: 't', side: 'BUY', price: 400_000 as Price, size: 5 as Shares, tag: 'a' };
    m.add(first);
    m.add({ tokenId: 't', side: 'SELL', price: 400_000 as Price, size: 7 as Shares });
    m.add({ tokenId: 't', side: 'BUY', price: 400_000 as Price, size: 3 as Shares, tag: 'b', postOnly: false });
    const out = m.toArray();
    expect(out).toStrictEqual([
      { tokenId: 't', side: 'BUY', price: 400_000, size: 8, tag: 'a' },
      { tokenId: 't', side: 'SELL', price: 400_000, size: 7 },
    ]);
    // The quote given first is not changed: the merged one is a new object.
    expect(first.size).toBe(5);
    // A copy: adding more does not change what was returned.
    m.add({ tokenId: 'u', side: 'BUY', price: 1 as Price, size: 1 as Shares });
    expect(out).toHaveLength(2);
  });
});

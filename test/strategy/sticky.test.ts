// Refresh tolerance and maximum order age: a resting order near the wanted price is kept where it
// is (if the strategy accepts the price), the exact price first, then the nearest, the older on a
// tie; an old order is renewed (left out at its own price, replaced at another); one order is
// claimed by one quote; quotes moved onto one price merge.
import { describe, expect, it } from 'vitest';
import type { Price } from '../../src/core/money.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { stickToResting, type StickyOptions } from '../../src/strategy/sdk.js';
import { order, px, rows, sh, T } from '../strategies/helpers.js';

const q = (tokenId: string, side: 'BUY' | 'SELL', price: number, size: number, tag?: string): DesiredQuote => ({
  tokenId,
  side,
  price: px(price),
  size: sh(size),
  ...(tag !== undefined ? { tag } : {}),
});
const opts = (o: Partial<StickyOptions> = {}): StickyOptions => ({
  tolerance: px(0.005),
  maxAgeMs: 0,
  nowMs: T,
  accept: () => true,
  ...o,
});

describe('stickToResting', () => {
  it('keeps a resting order within the tolerance at its own price; beyond it the quote moves', () => {
    const open = [order('A', 'BUY', 0.48, 10)];
    expect(rows(stickToResting([q('A', 'BUY', 0.484, 10)], open, opts()))).toEqual([['A', 'BUY', 0.48, 10]]);
    expect(rows(stickToResting([q('A', 'BUY', 0.485, 10)], open, opts()))).toEqual([['A', 'BUY', 0.48, 10]]); // inclusive
    expect(rows(stickToResting([q('A', 'BUY', 0.486, 10)], open, opts()))).toEqual([['A', 'BUY', 0.486, 10]]);
    // another token or side is not a match
    expect(rows(stickToResting([q('A', 'SELL', 0.484, 10), q('B', 'BUY', 0.484, 10)], open, opts()))).toEqual([
      ['A', 'SELL', 0.484, 10],
      ['B', 'BUY', 0.484, 10],
    ]);
  });

  it('tolerance 0 keeps only the exact price', () => {
    const open = [order('A', 'BUY', 0.48, 10)];
    expect(rows(stickToResting([q('A', 'BUY', 0.481, 10)], open, opts({ tolerance: 0 })))).toEqual([
      ['A', 'BUY', 0.481, 10],
    ]);
  });

  it('the exact price first, then the nearest, the older on a tie; each order claimed once', () => {
    const older = order('A', 'BUY', 0.476, 10, { atMs: T - 5_000 });
    const newer = order('A', 'BUY', 0.484, 10, { atMs: T - 1_000 });
    const exact = order('A', 'BUY', 0.48, 10, { atMs: T });
    expect(rows(stickToResting([q('A', 'BUY', 0.48, 10)], [older, newer, exact], opts()))).toEqual([
      ['A', 'BUY', 0.48, 10],
    ]);
    expect(rows(stickToResting([q('A', 'BUY', 0.48, 10)], [newer, older], opts()))).toEqual([['A', 'BUY', 0.476, 10]]);
    // Two quotes, one resting order: the first quote claims it, the second keeps its own price.
    expect(rows(stickToResting([q('A', 'BUY', 0.482, 10), q('A', 'BUY', 0.479, 5)], [newer], opts()))).toEqual([
      ['A', 'BUY', 0.484, 10],
      ['A', 'BUY', 0.479, 5],
    ]);
  });

  it('only live and in-flight orders count; cancelling ones and filled ones do not', () => {
    const open = [order('A', 'BUY', 0.48, 10, { state: 'cancelling' }), order('A', 'BUY', 0.479, 10, { matched: 10 })];
    expect(rows(stickToResting([q('A', 'BUY', 0.482, 10)], open, opts()))).toEqual([['A', 'BUY', 0.482, 10]]);
    expect(
      rows(stickToResting([q('A', 'BUY', 0.482, 10)], [order('A', 'BUY', 0.48, 10, { state: 'inflight' })], opts())),
    ).toEqual([['A', 'BUY', 0.48, 10]]);
  });

  it('a price the strategy does not accept is not kept', () => {
    const open = [order('A', 'BUY', 0.48, 10)];
    const accept = (_: DesiredQuote, p: Price): boolean => p !== px(0.48);
    expect(rows(stickToResting([q('A', 'BUY', 0.484, 10)], open, opts({ accept })))).toEqual([['A', 'BUY', 0.484, 10]]);
  });

  it('max order age: at the wanted price the quote is left out once (cancel now, place next call); at another price it replaces', () => {
    const old = order('A', 'BUY', 0.48, 10, { atMs: T - 60_000 });
    expect(stickToResting([q('A', 'BUY', 0.48, 10)], [old], opts({ maxAgeMs: 60_000 }))).toEqual([]);
    expect(rows(stickToResting([q('A', 'BUY', 0.48, 10)], [old], opts({ maxAgeMs: 60_001 })))).toEqual([
      ['A', 'BUY', 0.48, 10],
    ]);
    expect(rows(stickToResting([q('A', 'BUY', 0.483, 10)], [old], opts({ maxAgeMs: 60_000 })))).toEqual([
      ['A', 'BUY', 0.483, 10],
    ]);
    // In-flight orders are new: never renewed.
    const inflight = order('A', 'BUY', 0.48, 10, { atMs: T - 600_000, state: 'inflight' });
    expect(rows(stickToResting([q('A', 'BUY', 0.48, 10)], [inflight], opts({ maxAgeMs: 1 })))).toEqual([
      ['A', 'BUY', 0.48, 10],
    ]);
  });

  it('quotes moved onto one price are merged, the first tag kept', () => {
    const open = [order('A', 'BUY', 0.48, 10)];
    const out = stickToResting([q('A', 'BUY', 0.48, 10, 'x'), q('A', 'BUY', 0.48, 5, 'y')], open, opts());
    expect(out).toEqual([{ tokenId: 'A', side: 'BUY', price: px(0.48), size: sh(15), tag: 'x' }]);
  });
});

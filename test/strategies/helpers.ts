// Shared pieces of the strategy tests: a binary market as a strategy sees it (a token, its
// complement whose book is the exact mirror, positions, our orders, recent mids), at a chosen time,
// and a checker of the invariants every strategy's quotes keep (on tick, inside [tick, 1 − tick],
// sizes whole 0.01 shares and at least the minimum, sells within holdings, bids below asks in the
// first token's terms, one quote per key, net inventory within the limit after a full fill).
import { expect } from 'vitest';
import { makeBook, type Book, type Level } from '../../src/core/book.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { LiveOrder } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import {
  midOf,
  mirrorBook,
  type MarketSettings,
  type MarketView,
  type MidSample,
  type StrategyInput,
  type TokenView,
} from '../../src/strategy/sdk.js';
import { settings, SH } from '../strategy/factories.js';

export { SH };
export const T = Date.UTC(2026, 2, 1, 12);
export const YES = 'YES';
export const NO = 'NO';

export const px = (x: number): Price => Math.round(x * SH) as Price;
export const sh = (x: number): Shares => Math.round(x * SH) as Shares;

/** A book of the YES token from [price, shares] pairs. */
export function yesBook(
  bids: ReadonlyArray<readonly [number, number]>,
  asks: ReadonlyArray<readonly [number, number]>,
  over: { tick?: number; min?: number; atMs?: number } = {},
): Book {
  const lv = (ls: ReadonlyArray<readonly [number, number]>): Level[] =>
    ls.map(([p, s]) => ({ price: px(p), size: sh(s) }));
  return makeBook({
    market: '0xmarket',
    assetId: YES,
    timestampMs: over.atMs ?? T,
    bids: lv(bids),
    asks: lv(asks),
    ...(over.tick !== undefined ? { tickSize: px(over.tick) } : {}),
    ...(over.min !== undefined ? { minOrderSize: sh(over.min) } : {}),
  });
}

export interface BinaryOptions {
  readonly settings?: Partial<MarketSettings>;
  /** Shares held. */
  readonly yes?: number;
  readonly no?: number;
  readonly orders?: readonly LiveOrder[];
  readonly recentMids?: readonly MidSample[];
  readonly bookAtMs?: number;
  /** Leave the NO token's book out (a strategy must then read the YES one). */
  readonly noBook?: boolean;
}

/** A binary market view: YES with `book`, NO with its mirror, both complements of each other. */
export function binary(book: Book | null, o: BinaryOptions = {}): MarketView {
  const s = settings({ conditionId: book?.market ?? '0xmarket', ...o.settings });
  const at = book === null ? null : (o.bookAtMs ?? T);
  const token = (id: string, b: Book | null, pos: number, mids: readonly MidSample[]): TokenView => {
    const base: TokenView = {
      tokenId: id,
      outcome: id === YES ? 'Yes' : 'No',
      complementTokenId: id === YES ? NO : YES,
      book: b,
      bookAtMs: b === null ? null : at,
      mid: null,
      recentMids: mids,
      position: sh(pos),
      openOrders: (o.orders ?? []).filter((x) => x.tokenId === id),
    };
    return { ...base, mid: midOf(base) };
  };
  const noMids = (o.recentMids ?? []).map((x) => ({ atMs: x.atMs, mid: (SH - x.mid) as Price }));
  const yes = token(YES, book, o.yes ?? 0, o.recentMids ?? []);
  const no = token(NO, book === null || o.noBook === true ? null : mirrorBook(book, NO), o.no ?? 0, noMids);
  return { conditionId: s.conditionId, settings: s, tokens: [yes, no] };
}

export function inputAt(markets: readonly MarketView[], nowMs = T): StrategyInput {
  return {
    nowMs,
    markets,
    openOrders: markets.flatMap((m) => m.tokens.flatMap((t) => t.openOrders)),
    freeCollateral: (10_000 * SH) as Micros,
  };
}

let nextId = 0;
/** One of our orders, live, created at `atMs`. */
export function order(
  tokenId: string,
  side: 'BUY' | 'SELL',
  price: number,
  size: number,
  o: { atMs?: number; state?: LiveOrder['state']; matched?: number } = {},
): LiveOrder {
  return {
    id: `0x${(++nextId).toString(16)}`,
    tokenId,
    side,
    price: px(price),
    originalSize: sh(size),
    sizeMatched: sh(o.matched ?? 0),
    state: o.state ?? 'live',
    createdAtMs: o.atMs ?? T,
  };
}

/** [token, side, price, shares] rows, for hand-computed expectations. */
export type Row = [string, string, number, number];
export const rows = (qs: readonly DesiredQuote[]): Row[] =>
  qs.map((q) => [q.tokenId, q.side, q.price / SH, q.size / SH]);

/**
 * The invariants of every strategy's quotes on one binary market (see the header). `limit`: the
 * net position a full fill of every bid (every ask) may reach, share millionths.
 */
export function checkInvariants(qs: readonly DesiredQuote[], m: MarketView, limit: number | null): void {
  const yes = m.tokens[0] as TokenView;
  const no = m.tokens[1] as TokenView;
  const tick = yes.book?.tickSize ?? m.settings.tickSize;
  const min = yes.book?.minOrderSize ?? m.settings.minOrderSize;
  const keys = new Set<string>();
  const sold = new Map<string, number>();
  let up = 0;
  let down = 0;
  let bestBid = 0;
  let bestAsk = SH;
  for (const q of qs) {
    expect(q.price % tick, 'on tick').toBe(0);
    expect(q.price).toBeGreaterThanOrEqual(tick);
    expect(q.price).toBeLessThanOrEqual(SH - tick);
    expect(q.size % 10_000, 'whole 0.01 shares').toBe(0);
    expect(q.size).toBeGreaterThan(0);
    expect(q.size).toBeGreaterThanOrEqual(min);
    const k = `${q.tokenId}|${q.side}|${q.price}`;
    expect(keys.has(k), `one quote per key ${k}`).toBe(false);
    keys.add(k);
    if (q.side === 'SELL') sold.set(q.tokenId, (sold.get(q.tokenId) ?? 0) + q.size);
    const bidYes = (q.tokenId === YES) === (q.side === 'BUY');
    const yesPrice = q.tokenId === YES ? q.price : SH - q.price;
    if (bidYes) {
      up += q.size;
      bestBid = Math.max(bestBid, yesPrice);
    } else {
      down += q.size;
      bestAsk = Math.min(bestAsk, yesPrice);
    }
  }
  expect(sold.get(YES) ?? 0, 'sells within holdings').toBeLessThanOrEqual(yes.position);
  expect(sold.get(NO) ?? 0, 'sells within holdings').toBeLessThanOrEqual(no.position);
  expect(bestBid, 'every bid below every ask (YES terms)').toBeLessThan(bestAsk);
  if (limit !== null) {
    const n = yes.position - no.position;
    if (up > 0)
      expect(n + up, 'a full fill of the bids stays within the limit').toBeLessThanOrEqual(Math.max(limit, n));
    if (down > 0)
      expect(n - down, 'a full fill of the asks stays within the limit').toBeGreaterThanOrEqual(Math.min(-limit, n));
  }
}

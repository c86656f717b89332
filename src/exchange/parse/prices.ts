// Price resources wire → domain (interface §2.7, docs/protocol.md §5 and §8): best prices, midpoints,
// last trade prices, price history (batch and single), GET /price and GET /midpoint.
// Invariants: every price is exact millionths in [0, 1]; a side the exchange leaves out (no
// orders) or a `""` price is null, never zero; maps keyed by token id are returned as Maps, so a
// token id can never collide with an object property. History points arrive as numbers per the
// interface, but the recorded public payload sends them as strings: both are read strictly.
import type { Price } from '../../core/money.js';
import type { BestPrices, LastTradePrice, PricePoint } from '../../core/market.js';
import type { Side } from '../../core/order.js';
import { readPrice } from './decimal.js';
import { arrOf, at, entries, intOrString, nonEmpty, obj, oneOf, priceOf } from './read.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];

function optPrice(v: unknown, path: string): Price | null {
  if (v === undefined || v === null || v === '') return null;
  return readPrice(v, path);
}

/** POST /prices: token id → {BUY: best bid, SELL: best ask}. */
export function parseBestPrices(json: unknown, path = ''): Map<string, BestPrices> {
  const out = new Map<string, BestPrices>();
  for (const [token, v] of entries(obj(json, path))) {
    const p = at(path, token);
    const o = obj(v, p);
    out.set(token, { bid: optPrice(o['BUY'], at(p, 'BUY')), ask: optPrice(o['SELL'], at(p, 'SELL')) });
  }
  return out;
}

/** POST /midpoints: token id → midpoint. */
export function parseMidpoints(json: unknown, path = ''): Map<string, Price> {
  const out = new Map<string, Price>();
  for (const [token, v] of entries(obj(json, path))) out.set(token, readPrice(v, at(path, token)));
  return out;
}

function parseLastTradePrice(v: unknown, path: string): LastTradePrice {
  const o = obj(v, path);
  const side = o['side'];
  return {
    tokenId: nonEmpty(o['token_id'], at(path, 'token_id')),
    price: optPrice(o['price'], at(path, 'price')),
    side: side === undefined || side === null || side === '' ? null : oneOf(side, at(path, 'side'), SIDES),
  };
}

/** POST /last-trades-prices. */
export function parseLastTradePrices(json: unknown, path = ''): LastTradePrice[] {
  return arrOf(json, path, parseLastTradePrice);
}

function parsePoint(v: unknown, path: string): PricePoint {
  const o = obj(v, path);
  // A midpoint with more than 6 decimals (a mid of two 0.0001-tick prices is not) would be rounded
  // half-even: history is for display and signals, never for an order price.
  return { t: intOrString(o['t'], at(path, 't')), p: priceOf(o['p'], at(path, 'p'), 'half-even', 'number-or-string') };
}

function parsePoints(v: unknown, path: string): PricePoint[] {
  return arrOf(v, path, parsePoint);
}

/** POST /batch-prices-history: market key → points. */
export function parsePriceHistoryBatch(json: unknown, path = ''): Map<string, PricePoint[]> {
  const o = obj(json, path);
  const h = obj(o['history'], at(path, 'history'));
  const out = new Map<string, PricePoint[]>();
  for (const [key, v] of entries(h)) out.set(key, parsePoints(v, at(at(path, 'history'), key)));
  return out;
}

/** GET /prices-history. */
export function parsePriceHistory(json: unknown, path = ''): PricePoint[] {
  const o = obj(json, path);
  return parsePoints(o['history'], at(path, 'history'));
}

/** GET /price → the price, or null when that side of the book is empty (`""`). */
export function parsePriceResponse(json: unknown, path = ''): Price | null {
  const o = obj(json, path);
  return optPrice(o['price'], at(path, 'price'));
}

/** GET /midpoint → the midpoint, or null when the exchange has none (`""`). */
export function parseMidpointResponse(json: unknown, path = ''): Price | null {
  const o = obj(json, path);
  return optPrice(o['mid'], at(path, 'mid'));
}

// POST /prices answers of the public exchange → token id → best bid/ask, for clients that ask
// with `{token_id, side}` items (Dialect.pricesItemSide). Same domain result and rules as
// parseBestPrices (prices.ts): BUY = best bid, SELL = best ask, a side left out (not asked for,
// or no orders) or `""` is null, never zero. One difference: a price may be a JSON number as well
// as a decimal string, because the public examples send numbers (docs.polymarket.com
// get-market-prices-request-body; Polymarket/rs-clob-client tests/clob.rs@d84e8e15
// `prices_should_succeed`) while Polymarket/ts-sdk reads decimal strings. A number must be exact
// in millionths (no rounding: a price we cannot represent is a ParseError naming its path).
import type { BestPrices } from '../../core/market.js';
import { microsFromNumber, MoneyError, SCALE, type Price } from '../../core/money.js';
import { readPrice } from './decimal.js';
import { at, entries, fail, finite, obj } from './read.js';

function price(v: unknown, path: string): Price | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string') return readPrice(v, path);
  const n = finite(v, path);
  let lo: number;
  let hi: number;
  try {
    lo = microsFromNumber(n, 'floor');
    hi = microsFromNumber(n, 'ceil');
  } catch (e) {
    if (e instanceof MoneyError) fail(path, `out of range: ${String(n)}`);
    throw e;
  }
  if (lo !== hi) fail(path, `more than 6 decimals: ${String(n)}`);
  if (lo < 0 || lo > SCALE) fail(path, `price out of range [0, 1]: ${String(n)}`);
  return lo as Price;
}

export function parsePublicBestPrices(json: unknown, path = ''): Map<string, BestPrices> {
  const out = new Map<string, BestPrices>();
  for (const [token, v] of entries(obj(json, path))) {
    const p = at(path, token);
    const o = obj(v, p);
    out.set(token, { bid: price(o['BUY'], at(p, 'BUY')), ask: price(o['SELL'], at(p, 'SELL')) });
  }
  return out;
}

// Market data of interface §4.3 and docs/protocol.md §5/§8: the book, the POST batches and the
// single-token reads. Invariants kept here:
// - batches of tokens are split at 500 (docs/protocol.md §5), POST /batch-prices-history at 20
//   markets; chunks are sent in order, one after the other (the rate limiter paces them), and
//   results are merged in input order; an empty input sends nothing;
// - every batch is idempotent (safe to retry), unlike the trading POSTs;
// - token ids and parameters are checked before anything is sent.
import type { Book } from '../../core/book.js';
import type { BestPrices, LastTradePrice, PricePoint } from '../../core/market.js';
import type { Price } from '../../core/money.js';
import { ClientValidationError } from '../errors.js';
import { encodeQuery, normalizeParams } from '../params/spec.js';
import { BATCH_PRICES_HISTORY_OPTIONS, PRICE, PRICES_HISTORY, TOKEN_ONLY } from '../params/tables.js';
import type { BatchPricesHistoryOptions, PricesHistoryParams } from '../params/types.js';
import {
  parseBestPrices,
  parseLastTradePrices,
  parseMidpoints,
  parsePriceHistory,
  parsePriceHistoryBatch,
  parsePriceResponse,
  parsePublicBestPrices,
} from '../parse/index.js';
import type { WirePublicPriceRequest } from '../wire-public-orders.js';
import { chunks, type CallOptions, type ClientCore } from './core.js';
import { readParsers } from './read-parsers.js';
import { MAX_MARKETS_PER_HISTORY_BATCH, MAX_TOKENS_PER_BATCH, ROUTES, type RouteDef } from './routes.js';

function checkIds(param: string, ids: readonly string[]): void {
  if (!Array.isArray(ids)) throw new ClientValidationError(param, ids, 'must be an array of strings');
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id === '')
      throw new ClientValidationError(`${param}[${i}]`, id, 'must be a non-empty string');
  });
}

/** Sends `[{token_id}]` bodies of at most 500 tokens, in order, and returns each chunk's answer. */
async function tokenBatches<T>(
  core: ClientCore,
  route: RouteDef,
  path: string,
  tokenIds: readonly string[],
  parse: (json: unknown) => T,
  options: CallOptions | undefined,
): Promise<T[]> {
  checkIds('tokenIds', tokenIds);
  const out: T[] = [];
  for (const chunk of chunks(tokenIds, MAX_TOKENS_PER_BATCH)) {
    const body = JSON.stringify(chunk.map((token_id) => ({ token_id })));
    out.push(await core.call({ route, path, body, parse, options }));
  }
  return out;
}

function mergeMaps<K, V>(maps: ReadonlyArray<Map<K, V>>): Map<K, V> {
  const out = new Map<K, V>();
  for (const m of maps) for (const [k, v] of m) out.set(k, v);
  return out;
}

export async function getBook(core: ClientCore, tokenId: string, options?: CallOptions): Promise<Book> {
  const query = encodeQuery(TOKEN_ONLY(ROUTES.book.key), { token_id: tokenId });
  return core.call({
    route: ROUTES.book,
    path: '/book',
    query,
    parse: readParsers(core.signing.dialect).book,
    options,
  });
}

export async function getBooks(core: ClientCore, tokenIds: readonly string[], options?: CallOptions): Promise<Book[]> {
  return (
    await tokenBatches(core, ROUTES.books, '/books', tokenIds, readParsers(core.signing.dialect).books, options)
  ).flat();
}

/**
 * Best bid (`BUY`) and ask (`SELL`) per token; a side without orders is absent. Where the dialect
 * says items carry a side (Dialect.pricesItemSide), each token is asked for twice, `{token_id,
 * side: "BUY"}` then `{token_id, side: "SELL"}`, as the public exchange wants ("Each request must
 * include both token_id and side": docs.polymarket.com get-market-prices-request-body;
 * clob-client-v2 BookParams; py-clob-client-v2 examples/market/get_prices.py@b0a97fac), so a call
 * carries at most 250 tokens (500 items).
 */
export async function getPrices(
  core: ClientCore,
  tokenIds: readonly string[],
  options?: CallOptions,
): Promise<Map<string, BestPrices>> {
  if (!core.signing.dialect.pricesItemSide)
    return mergeMaps(await tokenBatches(core, ROUTES.prices, '/prices', tokenIds, parseBestPrices, options));
  checkIds('tokenIds', tokenIds);
  const out: Array<Map<string, BestPrices>> = [];
  for (const chunk of chunks(tokenIds, MAX_TOKENS_PER_BATCH / 2)) {
    const items: WirePublicPriceRequest[] = chunk.flatMap((token_id) => [
      { token_id, side: 'BUY' as const },
      { token_id, side: 'SELL' as const },
    ]);
    out.push(
      await core.call({
        route: ROUTES.prices,
        path: '/prices',
        body: JSON.stringify(items),
        parse: parsePublicBestPrices,
        options,
      }),
    );
  }
  return mergeMaps(out);
}

export async function getMidpoints(
  core: ClientCore,
  tokenIds: readonly string[],
  options?: CallOptions,
): Promise<Map<string, Price>> {
  return mergeMaps(await tokenBatches(core, ROUTES.midpoints, '/midpoints', tokenIds, parseMidpoints, options));
}

export async function getLastTradesPrices(
  core: ClientCore,
  tokenIds: readonly string[],
  options?: CallOptions,
): Promise<LastTradePrice[]> {
  return (
    await tokenBatches(core, ROUTES.lastTradesPrices, '/last-trades-prices', tokenIds, parseLastTradePrices, options)
  ).flat();
}

/** POST /batch-prices-history, 20 markets a call, with the optional range/interval/fidelity. */
export async function getBatchPricesHistory(
  core: ClientCore,
  markets: readonly string[],
  params: BatchPricesHistoryOptions = {},
  options?: CallOptions,
): Promise<Map<string, PricePoint[]>> {
  checkIds('markets', markets);
  const extra = Object.fromEntries(normalizeParams(BATCH_PRICES_HISTORY_OPTIONS, params));
  const parts: Array<Map<string, PricePoint[]>> = [];
  for (const chunk of chunks(markets, MAX_MARKETS_PER_HISTORY_BATCH)) {
    const body = JSON.stringify({ markets: chunk, ...extra });
    parts.push(
      await core.call({
        route: ROUTES.batchPricesHistory,
        path: '/batch-prices-history',
        body,
        parse: parsePriceHistoryBatch,
        options,
      }),
    );
  }
  return mergeMaps(parts);
}

/** GET /price: BUY = best bid, SELL = best ask; null when that side is empty. */
export async function getPrice(
  core: ClientCore,
  tokenId: string,
  side: 'BUY' | 'SELL',
  options?: CallOptions,
): Promise<Price | null> {
  const query = encodeQuery(PRICE, { token_id: tokenId, side });
  return core.call({ route: ROUTES.price, path: '/price', query, parse: parsePriceResponse, options });
}

export async function getMidpoint(core: ClientCore, tokenId: string, options?: CallOptions): Promise<Price | null> {
  const query = encodeQuery(TOKEN_ONLY(ROUTES.midpoint.key), { token_id: tokenId });
  return core.call({
    route: ROUTES.midpoint,
    path: '/midpoint',
    query,
    parse: readParsers(core.signing.dialect).midpoint,
    options,
  });
}

/** GET /prices-history for one token: a time range or an interval, plus fidelity in minutes. */
export async function getPricesHistory(
  core: ClientCore,
  market: string,
  params: PricesHistoryParams = {},
  options?: CallOptions,
): Promise<PricePoint[]> {
  const query = encodeQuery(PRICES_HISTORY, { ...params, market });
  return core.call({ route: ROUTES.pricesHistory, path: '/prices-history', query, parse: parsePriceHistory, options });
}

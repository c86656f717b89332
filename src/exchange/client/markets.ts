// Market listings of interface §4.3 with cursor paging (docs/protocol.md §5: `next_cursor` is base64
// of the offset, `MA==` the first page, `LTE=` after the last) and the per-market trading
// settings. Invariants kept here:
// - a page call sends the cursor it is given (none → the server's first page); asking for the
//   page after `LTE=` is a ClientValidationError, nothing is sent;
// - the iterators start at `MA==` (or a given cursor), follow `next_cursor` until the parser
//   reports the end (`LTE=` or empty → null), and stop with EXCHANGE_BAD_RESPONSE if the
//   server hands back a cursor already visited (a loop would never end).
import type { ClobMarketSettings, Market, MarketsPage, SamplingMarket, SimplifiedMarket } from '../../core/market.js';
import { ClientValidationError, ExchangeResponseError } from '../errors.js';
import { segment, type CallOptions, type ClientCore } from './core.js';
import { readParsers } from './read-parsers.js';
import { END_CURSOR, FIRST_CURSOR, ROUTES, type RouteDef } from './routes.js';

export type MarketsKind = 'markets' | 'sampling' | 'simplified';

interface KindMap {
  markets: Market;
  sampling: SamplingMarket;
  simplified: SimplifiedMarket;
}

const LISTING: Record<MarketsKind, { route: RouteDef; path: string }> = {
  markets: { route: ROUTES.markets, path: '/markets' },
  sampling: { route: ROUTES.samplingMarkets, path: '/sampling-markets' },
  simplified: { route: ROUTES.samplingSimplifiedMarkets, path: '/sampling-simplified-markets' },
};

export async function getMarketsPage<K extends MarketsKind>(
  core: ClientCore,
  kind: K,
  cursor?: string,
  options?: CallOptions,
): Promise<MarketsPage<KindMap[K]>> {
  const { route, path } = LISTING[kind];
  if (cursor !== undefined) {
    if (typeof cursor !== 'string' || cursor === '')
      throw new ClientValidationError('next_cursor', cursor, 'must be a non-empty string');
    if (cursor === END_CURSOR)
      throw new ClientValidationError('next_cursor', cursor, 'is the end marker: there is no page after the last');
  }
  const query = cursor === undefined ? '' : `next_cursor=${encodeURIComponent(cursor)}`;
  const parsers = readParsers(core.signing.dialect);
  const parse = (json: unknown): MarketsPage<KindMap[K]> => parsers.marketsPage(json, kind) as MarketsPage<KindMap[K]>;
  return core.call({ route, path, query, parse, options });
}

/** Every page, from `start` (default `MA==`) until the last. */
export async function* iterateMarketPages<K extends MarketsKind>(
  core: ClientCore,
  kind: K,
  start: string = FIRST_CURSOR,
  options?: CallOptions,
): AsyncGenerator<MarketsPage<KindMap[K]>, void, undefined> {
  const seen = new Set<string>([start]);
  let cursor = start;
  for (;;) {
    const page = await getMarketsPage(core, kind, cursor, options);
    yield page;
    const next = page.nextCursor;
    if (next === null) return;
    if (seen.has(next)) {
      throw new ExchangeResponseError({
        code: 'EXCHANGE_BAD_RESPONSE',
        route: LISTING[kind].route.key,
        status: 200,
        message: `${LISTING[kind].route.key}: next_cursor ${JSON.stringify(next)} was already visited`,
        retryable: false,
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/** Every record of every page, in order. */
export async function* iterateMarkets<K extends MarketsKind>(
  core: ClientCore,
  kind: K,
  start?: string,
  options?: CallOptions,
): AsyncGenerator<KindMap[K], void, undefined> {
  for await (const page of iterateMarketPages(core, kind, start, options)) yield* page.data;
}

export async function getClobMarket(
  core: ClientCore,
  conditionId: string,
  options?: CallOptions,
): Promise<ClobMarketSettings> {
  const parsers = readParsers(core.signing.dialect);
  const parse = (json: unknown): ClobMarketSettings => parsers.clobMarket(json, conditionId);
  return core.call({
    route: ROUTES.clobMarket,
    path: `/clob-markets/${segment('condition_id', conditionId)}`,
    parse,
    options,
  });
}

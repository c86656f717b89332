// Batch cancels of the public exchange, L2-signed writes never retried (both dialects; the
// interface lists only DELETE /order):
//   DELETE /orders                body: a JSON array of order ids
//   DELETE /cancel-all            no body: every live order of the account
//   DELETE /cancel-market-orders  body: {market?, asset_id?}, at least one of them
// Each answers DELETE /order's shape, `{canceled: [...], not_canceled: {id: reason}}`.
// Sources: Polymarket/clob-client-v2 src/client.ts @ f3e1a05f868a1fd0c34ef85dfc45c6ce78f5bb69
// (cancelOrders sends `JSON.stringify(ordersHashes)`, cancelAll no body, cancelMarketOrders the
// OrderMarketCancelParams object); Polymarket/py-clob-client-v2 py_clob_client_v2/client.py
// @ b0a97fac6aecb554557b6cb810e997806fc5e036 (cancel_market_orders sends only the keys given);
// Polymarket/rs-clob-client tests/clob.rs @ d84e8e15c135af8b4d87a634a601d59cd56dade8 (answers:
// the `notCanceled` spelling, `canceled` alone).
// Invariants: ids are non-empty strings, sent once each in the order given (duplicates dropped);
// an empty id list sends nothing and answers an empty result; cancel-market-orders without a
// market or an asset is refused before sending (it would not be a per-market cancel).
import type { CancelResult } from '../../core/market.js';
import { ClientValidationError } from '../errors.js';
import { parsePublicCancelResult } from '../parse/index.js';
import type { CallOptions, ClientCore } from './core.js';
import { ROUTES } from './routes.js';

const parse = (json: unknown): CancelResult => parsePublicCancelResult(json);

export async function cancelOrders(
  core: ClientCore,
  orderIds: readonly string[],
  options?: CallOptions,
): Promise<CancelResult> {
  if (!Array.isArray(orderIds)) throw new ClientValidationError('orderIds', orderIds, 'must be an array of order ids');
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const [i, id] of orderIds.entries()) {
    if (typeof id !== 'string' || id === '')
      throw new ClientValidationError(`orderIds[${i}]`, id, 'must be a non-empty string');
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  if (ids.length === 0) return { canceled: [], notCanceled: new Map() };
  return core.call({ route: ROUTES.cancelOrders, path: '/orders', body: JSON.stringify(ids), parse, options });
}

export async function cancelAll(core: ClientCore, options?: CallOptions): Promise<CancelResult> {
  return core.call({ route: ROUTES.cancelAll, path: '/cancel-all', parse, options });
}

export interface CancelMarketOrdersFilter {
  /** Condition id. */
  market?: string;
  /** Token id. */
  assetId?: string;
}

export async function cancelMarketOrders(
  core: ClientCore,
  filter: CancelMarketOrdersFilter,
  options?: CallOptions,
): Promise<CancelResult> {
  const body: { market?: string; asset_id?: string } = {};
  for (const [key, wire] of [
    ['market', 'market'],
    ['assetId', 'asset_id'],
  ] as const) {
    const v = filter[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') throw new ClientValidationError(key, v, 'must be a non-empty string');
    body[wire] = v;
  }
  if (body.market === undefined && body.asset_id === undefined) {
    throw new ClientValidationError(
      'market',
      undefined,
      'market or assetId is required (use cancelAll for every order)',
    );
  }
  return core.call({
    route: ROUTES.cancelMarketOrders,
    path: '/cancel-market-orders',
    body: JSON.stringify(body),
    parse,
    options,
  });
}

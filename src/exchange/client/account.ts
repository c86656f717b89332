// Account-lifecycle reads and the heartbeat, L2-signed, in the public exchange's shapes (both
// dialects; the interface does not list these routes):
//   GET  /data/orders        the account's live orders, cursor paged
//   GET  /data/trades        the account's trades (taker or maker) with their settlement status
//   GET  /balance-allowance  balance and allowances of collateral or one outcome token
//   POST /v1/heartbeats      the dead-man switch: `{heartbeat_id}` in, the next id out
// Sources: Polymarket/clob-client-v2 src/client.ts @ f3e1a05f868a1fd0c34ef85dfc45c6ce78f5bb69
// (getOpenOrders, getTrades: `next_cursor` from `MA==` until `LTE=`, the L2 signature over the path
// without the query; getBalanceAllowance; postHeartbeat: body `{"heartbeat_id": id}`, "" to start);
// Polymarket/rs-clob-client src/clob/client.rs @ 59830d43ff7dad77e3b0f6df71e7676b0fc21188
// (post_heartbeat chains the id each answer returns); nautechsystems/nautilus_trader
// crates/adapters/polymarket/src/http/clob.rs @ 03ce53d51a91a6091af36be002fe931431ab50f4
// (post_heartbeat: a 400 whose body carries `heartbeat_id` is a resynchronisation).
// Invariants kept here:
// - every query is validated before sending (params/account.ts); a page call always sends its
//   cursor (`MA==` for the first page, as the official clients do); the iterators follow
//   `next_cursor` until the end and fail with EXCHANGE_BAD_RESPONSE on a cursor seen before;
// - a heartbeat answered 400 with a `heartbeat_id` is a resynchronisation (returned, not thrown):
//   the beat did not count and the next one must carry that id; any other failure throws.
import type {
  BalanceAllowance,
  HeartbeatAck,
  OpenOrderPage,
  OrderRecord,
  TradePage,
  TradeRecord,
} from '../../core/market.js';
import { ClientValidationError, ExchangeHttpError, ExchangeResponseError } from '../errors.js';
import {
  ACCOUNT_TRADES,
  BALANCE_ALLOWANCE,
  OPEN_ORDERS,
  type AccountTradesParams,
  type BalanceAllowanceParams,
  type OpenOrdersParams,
} from '../params/account.js';
import { encodeQuery, type ParamTable } from '../params/spec.js';
import { parseAccountTradePage, parseBalanceAllowance, parseHeartbeatId, parseOpenOrderPage } from '../parse/index.js';
import type { CallOptions, ClientCore } from './core.js';
import { END_CURSOR, FIRST_CURSOR, ROUTES, type RouteDef } from './routes.js';

interface Paged<T> {
  readonly data: readonly T[];
  readonly nextCursor: string | null;
}

function pageQuery(table: ParamTable, params: object, cursor: string): string {
  if (typeof cursor !== 'string' || cursor === '')
    throw new ClientValidationError('next_cursor', cursor, 'must be a non-empty string');
  if (cursor === END_CURSOR)
    throw new ClientValidationError('next_cursor', cursor, 'is the end marker: there is no page after the last');
  const q = encodeQuery(table, params);
  const c = `next_cursor=${encodeURIComponent(cursor)}`;
  return q === '' ? c : `${q}&${c}`;
}

async function* pages<P extends Paged<unknown>>(
  route: RouteDef,
  fetch: (cursor: string) => Promise<P>,
  start: string,
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>([start]);
  let cursor = start;
  for (;;) {
    const page = await fetch(cursor);
    yield page;
    const next = page.nextCursor;
    if (next === null) return;
    if (seen.has(next)) {
      throw new ExchangeResponseError({
        code: 'EXCHANGE_BAD_RESPONSE',
        route: route.key,
        status: 200,
        retryable: false,
        message: `${route.key}: next_cursor ${JSON.stringify(next)} was already visited`,
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/** One page of the account's live orders. */
export async function getOpenOrders(
  core: ClientCore,
  params: OpenOrdersParams = {},
  cursor: string = FIRST_CURSOR,
  options?: CallOptions,
): Promise<OpenOrderPage> {
  const query = pageQuery(OPEN_ORDERS, params, cursor);
  return core.call({ route: ROUTES.openOrders, path: '/data/orders', query, parse: parseOpenOrderPage, options });
}

/** Every live order of the account (matching `params`), following the cursors. */
export async function* iterateOpenOrders(
  core: ClientCore,
  params: OpenOrdersParams = {},
  options?: CallOptions,
): AsyncGenerator<OrderRecord, void, undefined> {
  encodeQuery(OPEN_ORDERS, params); // validate before the first request
  for await (const p of pages(ROUTES.openOrders, (c) => getOpenOrders(core, params, c, options), FIRST_CURSOR))
    yield* p.data;
}

/** One page of the account's trades. */
export async function getAccountTrades(
  core: ClientCore,
  params: AccountTradesParams = {},
  cursor: string = FIRST_CURSOR,
  options?: CallOptions,
): Promise<TradePage> {
  const query = pageQuery(ACCOUNT_TRADES, params, cursor);
  return core.call({ route: ROUTES.accountTrades, path: '/data/trades', query, parse: parseAccountTradePage, options });
}

/** Every trade of the account (matching `params`), following the cursors. */
export async function* iterateAccountTrades(
  core: ClientCore,
  params: AccountTradesParams = {},
  options?: CallOptions,
): AsyncGenerator<TradeRecord, void, undefined> {
  encodeQuery(ACCOUNT_TRADES, params);
  for await (const p of pages(ROUTES.accountTrades, (c) => getAccountTrades(core, params, c, options), FIRST_CURSOR))
    yield* p.data;
}

export async function getBalanceAllowance(
  core: ClientCore,
  params: BalanceAllowanceParams,
  options?: CallOptions,
): Promise<BalanceAllowance> {
  const query = encodeQuery(BALANCE_ALLOWANCE, params);
  return core.call({
    route: ROUTES.balanceAllowance,
    path: '/balance-allowance',
    query,
    parse: parseBalanceAllowance,
    options,
  });
}

/** The `heartbeat_id` a 400 answer carries (its body's first 200 characters reach us as the exchange's message). */
function resyncId(e: ExchangeHttpError): string | null {
  if (e.status !== 400 || e.exchangeMessage === null) return null;
  try {
    return parseHeartbeatId(JSON.parse(e.exchangeMessage) as unknown);
  } catch {
    return null;
  }
}

/**
 * Sends a heartbeat: `heartbeatId` null (or "") starts one, then pass the id of the previous ack.
 * Once started, the exchange cancels every live order of the account when no heartbeat arrives
 * within its expiry window.
 */
export async function postHeartbeat(
  core: ClientCore,
  heartbeatId: string | null,
  options?: CallOptions,
): Promise<HeartbeatAck> {
  if (heartbeatId !== null && typeof heartbeatId !== 'string')
    throw new ClientValidationError('heartbeat_id', heartbeatId, 'must be a string or null');
  const body = JSON.stringify({ heartbeat_id: heartbeatId ?? '' });
  try {
    const id = await core.call({
      route: ROUTES.heartbeat,
      path: '/v1/heartbeats',
      body,
      parse: parseHeartbeatId,
      options,
    });
    return { heartbeatId: id, resynchronized: false };
  } catch (e) {
    if (e instanceof ExchangeHttpError) {
      const id = resyncId(e);
      if (id !== null) return { heartbeatId: id, resynchronized: true };
    }
    throw e;
  }
}

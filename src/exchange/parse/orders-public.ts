// Order-route answers of the public order wire (Dialect.orderWire 'public') → the same domain
// types as the interface's (parse/orders.ts): placement results of POST /order and POST /orders,
// the DELETE /order result, and the bare snake_case record of GET /data/order/{id} (or null for an
// id the exchange does not know). Sources of each rule: src/exchange/wire-public-orders.ts and
// test/fixtures/real/wire/orders/SOURCES.md. Invariants:
// - what the exchange leaves out, `null` or `""` becomes null/absent, never zero (a rejected
//   placement's orderID, a resting one's amounts, an order's "0" expiration);
// - `accepted` is computed as the interface parser does (success && errorMsg "" && orderID ≠ ""
//   && status ∈ {live, matched, delayed}), the same rule as the official SDKs' (py-sdk
//   order_response.py `_is_accepted`, ts-sdk order-response.ts `isAcceptedOrderResponse`);
// - amounts are exact millionths through decimal.ts; a malformed value is a ParseError naming its
//   path; an order status outside the known set is a ParseError (guessing our own order's state
//   is unsafe), and so is a placement status outside live/matched/delayed/unmatched.
import type { CancelResult, OrderRecord, OrderStatus } from '../../core/market.js';
import {
  ORDER_TYPES,
  PLACEMENT_STATUSES,
  type OrderType,
  type PlacementResult,
  type PlacementStatus,
  type Side,
} from '../../core/order.js';
import { readPrice, readShares } from './decimal.js';
import { arrOf, at, bool, entries, fail, intOrString, nonEmpty, obj, str } from './read.js';
import { placementOf } from './orders.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];

function optString(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  return str(v, path);
}

/** An optional list of strings (null or missing reads as none). */
function optStrings(v: unknown, path: string): string[] {
  if (v === undefined || v === null) return [];
  return arrOf(v, path, str);
}

/**
 * One placement answer. Keys may be `null` or left out (nautilus_trader's fixtures send
 * `errorMsg: null`, `orderID: null` and no amounts); `status` is read case-insensitively
 * (rs-clob-client OrderStatusType takes both cases); `transactionsHashes` and `tradeIDs` are
 * checked to be lists of strings and not kept (the domain result has no place for them).
 */
export function parsePublicPlacementResult(json: unknown, path = ''): PlacementResult {
  const o = obj(json, path);
  const success = bool(o['success'], at(path, 'success'));
  const errorMsg = optString(o['errorMsg'], at(path, 'errorMsg'));
  const id = optString(o['orderID'], at(path, 'orderID'));
  const st = o['status'];
  let status: PlacementStatus | null = null;
  if (st !== undefined && st !== null && st !== '') {
    const s = str(st, at(path, 'status')).toLowerCase();
    if (!(PLACEMENT_STATUSES as readonly string[]).includes(s))
      fail(at(path, 'status'), `unknown placement status ${JSON.stringify(st)}`);
    status = s as PlacementStatus;
  }
  // "Success, no error, an id" without a status says the order exists but not in what state: read
  // as a rejection, a resting order would be forgotten. Every official client requires the key
  // (clob-client-v2 OrderResponse, py-sdk RawOrderResponse, ts-sdk OrderResponsePayloadSchema,
  // rs-clob-client PostOrderResponse), so such an answer is malformed: the caller resolves the
  // order by lookup (a parse failure of a write is ambiguous).
  if (success && errorMsg === '' && id !== '' && status === null)
    fail(at(path, 'status'), 'missing on an answer that reports success');
  optStrings(o['transactionsHashes'], at(path, 'transactionsHashes'));
  optStrings(o['tradeIDs'], at(path, 'tradeIDs'));
  return placementOf(o, path, { success, errorMsg, id, status });
}

/** POST /orders: one answer per submitted order, in order. */
export function parsePublicPlacementResults(json: unknown, path = ''): PlacementResult[] {
  return arrOf(json, path, parsePublicPlacementResult);
}

/**
 * DELETE /order. `canceled` and `not_canceled` may each be null or missing (rs-clob-client's
 * CancelOrdersResponse defaults both; nautilus_trader's http_cancel_response_ok.json is
 * `{"not_canceled": null}`), and `notCanceled` is read as `not_canceled`; an object with none of
 * the three is not a cancel answer.
 */
export function parsePublicCancelResult(json: unknown, path = ''): CancelResult {
  const o = obj(json, path);
  const ncKey = o['not_canceled'] !== undefined ? 'not_canceled' : 'notCanceled';
  if (o['canceled'] === undefined && o[ncKey] === undefined)
    fail(at(path, 'canceled'), 'missing: expected canceled or not_canceled');
  const canceled =
    o['canceled'] === null || o['canceled'] === undefined ? [] : arrOf(o['canceled'], at(path, 'canceled'), nonEmpty);
  const notCanceled = new Map<string, string>();
  const nc = o[ncKey];
  if (nc !== null && nc !== undefined) {
    for (const [id, reason] of entries(obj(nc, at(path, ncKey))))
      notCanceled.set(id, str(reason, at(at(path, ncKey), id)));
  }
  return { canceled, notCanceled };
}

// Order statuses: the documented set (docs.polymarket.com get-single-order-by-id: LIVE, INVALID,
// CANCELED_MARKET_RESOLVED, CANCELED, MATCHED), with or without the `ORDER_STATUS_` prefix the
// docs' example shows, in either case (rs-clob-client aliases `live`…), and with a `_<reason>`
// suffix (nautilus_trader common/enums.rs@195f10c2de456a87f83cd6c80d7096cecc13966d: `CANCELED_order
// couldn't be fully filled…`). Longest first, so CANCELED_MARKET_RESOLVED is not read as CANCELED.
const STATUS_NAMES: readonly OrderStatus[] = ['CANCELED_MARKET_RESOLVED', 'CANCELED', 'MATCHED', 'INVALID', 'LIVE'];
const PREFIX = 'ORDER_STATUS_';

export function parsePublicOrderStatus(v: unknown, path: string): OrderStatus {
  const raw = str(v, path);
  const upper = raw.toUpperCase();
  const s = upper.startsWith(PREFIX) ? upper.slice(PREFIX.length) : upper;
  for (const name of STATUS_NAMES) {
    if (s === name || s.startsWith(`${name}_`)) return name;
  }
  return fail(path, `unknown order status ${JSON.stringify(raw.slice(0, 60))}`);
}

// Epoch values below this are seconds, at or above it milliseconds: the rule of Polymarket/ts-sdk
// packages/bindings/src/shared.ts@a1959b6536f797287f0e4bc45c55699090944d1b (EpochLike…Schema);
// the exchange sends seconds, one nautilus_trader fixture milliseconds.
const MS_FROM = 1_000_000_000_000;

function epochMs(v: unknown, path: string): number {
  const n = intOrString(v, path);
  if (n <= 0) fail(path, `expected a positive epoch time, got ${String(n)}`);
  return n < MS_FROM ? n * 1000 : n;
}

/** `expiration`: "0", null or missing = none; else epoch seconds (string or number). */
function optExpiryMs(v: unknown, path: string): number | undefined {
  if (v === undefined || v === null || v === '' || v === '0' || v === 0) return undefined;
  return epochMs(v, path);
}

/** One bare order record (GET /data/order/{id}; the items of GET /data/orders have the same shape). */
export function parsePublicOrderRecord(json: unknown, path = ''): OrderRecord {
  const o = obj(json, path);
  const p = (k: string): string => at(path, k);
  const originalSize = readShares(o['original_size'], p('original_size'));
  const sizeMatched = readShares(o['size_matched'], p('size_matched'));
  if (sizeMatched > originalSize) fail(p('size_matched'), 'matched more than the original size');
  const side = str(o['side'], p('side')).toUpperCase();
  if (!(SIDES as readonly string[]).includes(side))
    fail(p('side'), `unexpected value ${JSON.stringify(o['side'])}; expected BUY or SELL`);
  const type = str(o['order_type'], p('order_type')).toUpperCase();
  if (!(ORDER_TYPES as readonly string[]).includes(type))
    fail(
      p('order_type'),
      `unexpected value ${JSON.stringify(o['order_type'])}; expected one of ${ORDER_TYPES.join(', ')}`,
    );
  const createdAtMs = epochMs(o['created_at'], p('created_at'));
  const expiresAtMs = optExpiryMs(o['expiration'], p('expiration'));
  const record: OrderRecord = {
    id: nonEmpty(o['id'], p('id')),
    status: parsePublicOrderStatus(o['status'], p('status')),
    market: str(o['market'], p('market')),
    assetId: nonEmpty(o['asset_id'], p('asset_id')),
    side: side as Side,
    price: readPrice(o['price'], p('price')),
    originalSize,
    sizeMatched,
    outcome: str(o['outcome'], p('outcome')),
    makerAddress: str(o['maker_address'], p('maker_address')),
    owner: str(o['owner'], p('owner')),
    type: type as OrderType,
    createdAt: new Date(createdAtMs).toISOString(),
    createdAtMs,
    associateTrades: optStrings(o['associate_trades'], p('associate_trades')),
  };
  return expiresAtMs === undefined ? record : { ...record, expiresAtMs };
}

/** GET /data/order/{id}: the record, or null when the exchange answers `null` (an unknown id). */
export function parsePublicOrderLookup(json: unknown, path = ''): OrderRecord | null {
  if (json === null) return null;
  return parsePublicOrderRecord(json, path);
}

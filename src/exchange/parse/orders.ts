// Trading answers wire → domain (interface §2.3–2.5, docs/protocol.md §4): placement results, cancel
// results, the order record of GET /data/order/{id}. Invariants:
// - `accepted` is computed here once, exactly as docs/protocol.md §4 states it, so no caller re-derives
//   it: success && errorMsg === "" && orderID !== "" && status ∈ {live, matched, delayed};
// - a rejected placement may leave status, orderID and the amounts `""` or out: they become null
//   (a real resting placement answers takingAmount/makingAmount `""`), never zero;
// - order statuses are normalised: `ORDER_STATUS_LIVE` and `LIVE` both become 'LIVE'; an unknown
//   status is a ParseError (guessing the state of our own order is unsafe).
import type { CancelResult, OrderRecord, OrderStatus } from '../../core/market.js';
import { ORDER_STATUSES } from '../../core/market.js';
import {
  ORDER_TYPES,
  PLACEMENT_STATUSES,
  type OrderType,
  type PlacementResult,
  type PlacementStatus,
  type Side,
} from '../../core/order.js';
import { readMicros, readPrice, readShares } from './decimal.js';
import { arrOf, at, bool, entries, fail, isoMs, nonEmpty, obj, oneOf, str } from './read.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];
const ACCEPTED: readonly PlacementStatus[] = ['live', 'matched', 'delayed'];
const PREFIX = 'ORDER_STATUS_';

function optString(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  return str(v, path);
}

function optAmount(v: unknown, path: string): number | null {
  if (v === undefined || v === null || v === '') return null;
  const m = readMicros(v, path);
  if (m < 0) fail(path, 'negative amount');
  return m;
}

/** One placement result (POST /order, or an item of POST /orders). */
export function parsePlacementResult(json: unknown, path = ''): PlacementResult {
  const o = obj(json, path);
  const success = bool(o['success'], at(path, 'success'));
  const errorMsg = optString(o['errorMsg'], at(path, 'errorMsg'));
  const id = optString(o['orderID'], at(path, 'orderID'));
  const st = o['status'];
  const status =
    st === undefined || st === null || st === '' ? null : oneOf(st, at(path, 'status'), PLACEMENT_STATUSES);
  return placementOf(o, path, { success, errorMsg, id, status });
}

/**
 * A placement result from its parsed fields (both dialects' parsers read these their own way): the
 * amounts are read here, and `accepted` is success, no error, an id and an accepted status.
 */
export function placementOf(
  o: Readonly<Record<string, unknown>>,
  path: string,
  f: {
    readonly success: boolean;
    readonly errorMsg: string;
    readonly id: string;
    readonly status: PlacementResult['status'];
  },
): PlacementResult {
  return {
    success: f.success,
    errorMsg: f.errorMsg,
    orderId: f.id === '' ? null : f.id,
    status: f.status,
    takingAmount: optAmount(o['takingAmount'], at(path, 'takingAmount')),
    makingAmount: optAmount(o['makingAmount'], at(path, 'makingAmount')),
    accepted: f.success && f.errorMsg === '' && f.id !== '' && f.status !== null && ACCEPTED.includes(f.status),
  };
}

/** POST /orders: one result per submitted order, in order. */
export function parsePlacementResults(json: unknown, path = ''): PlacementResult[] {
  return arrOf(json, path, parsePlacementResult);
}

/** DELETE /order. */
export function parseCancelResult(json: unknown, path = ''): CancelResult {
  const o = obj(json, path);
  const nc = obj(o['not_canceled'], at(path, 'not_canceled'));
  const notCanceled = new Map<string, string>();
  for (const [id, reason] of entries(nc)) notCanceled.set(id, str(reason, at(at(path, 'not_canceled'), id)));
  return { canceled: arrOf(o['canceled'], at(path, 'canceled'), nonEmpty), notCanceled };
}

/** An order status with or without the `ORDER_STATUS_` prefix. */
export function parseOrderStatus(v: unknown, path: string): OrderStatus {
  const s = str(v, path);
  const bare = s.startsWith(PREFIX) ? s.slice(PREFIX.length) : s;
  if (!(ORDER_STATUSES as readonly string[]).includes(bare)) fail(path, `unknown order status ${JSON.stringify(s)}`);
  return bare as OrderStatus;
}

function parseOrderRecord(v: unknown, path: string): OrderRecord {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  const createdAt = str(o['createdAt'], p('createdAt'));
  const originalSize = readShares(o['originalSize'], p('originalSize'));
  const sizeMatched = readShares(o['sizeMatched'], p('sizeMatched'));
  if (sizeMatched > originalSize) fail(p('sizeMatched'), 'matched more than the original size');
  return {
    id: nonEmpty(o['id'], p('id')),
    status: parseOrderStatus(o['status'], p('status')),
    market: str(o['market'], p('market')),
    assetId: nonEmpty(o['assetId'], p('assetId')),
    side: oneOf(o['side'], p('side'), SIDES),
    price: readPrice(o['price'], p('price')),
    originalSize,
    sizeMatched,
    outcome: str(o['outcome'], p('outcome')),
    makerAddress: str(o['makerAddress'], p('makerAddress')),
    owner: str(o['owner'], p('owner')),
    type: oneOf<OrderType>(o['type'], p('type'), ORDER_TYPES),
    createdAt,
    createdAtMs: isoMs(createdAt, p('createdAt')),
    associateTrades: arrOf(o['associateTrades'], p('associateTrades'), str),
  };
}

/** GET /data/order/{id} → `{order}`. */
export function parseOrderLookup(json: unknown, path = ''): OrderRecord {
  const o = obj(json, path);
  return parseOrderRecord(o['order'], at(path, 'order'));
}

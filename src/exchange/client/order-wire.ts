// The order-route shapes of a dialect (Dialect.orderWire) as one object: which parsers read the
// answers of POST /order, POST /orders, DELETE /order and GET /data/order/{id}, and how the
// DELETE /order body names the id. trading.ts and orders.ts branch on nothing else.
// - 'interface': docs/exchange-interface.md §2.3–2.5 (`{orderId}`, `{order}` envelope; an unknown id
//   is a 404 error);
// - 'public': the public exchange's, as its official clients send and read them: `{"orderID": …}`
//   (clob-client-v2 OrderPayload; py-clob-client-v2 client.py@b0a97fac `cancel_order`; py-sdk
//   actions/orders/cancel.py@7637537a `build_cancel_order_request`), a bare record, and `null` (or
//   an empty body) for an id the exchange does not know (src/exchange/wire-public-orders.ts).
import type { CancelResult, OrderRecord } from '../../core/market.js';
import type { PlacementResult } from '../../core/order.js';
import type { Dialect } from '../dialect.js';
import {
  parseCancelResult,
  parseOrderLookup,
  parsePlacementResult,
  parsePlacementResults,
  parsePublicCancelResult,
  parsePublicOrderLookup,
  parsePublicPlacementResult,
  parsePublicPlacementResults,
} from '../parse/index.js';

export interface OrderWire {
  parsePlacement(json: unknown): PlacementResult;
  parsePlacements(json: unknown): PlacementResult[];
  parseCancel(json: unknown): CancelResult;
  /** null: the exchange does not know the id. */
  parseLookup(json: unknown): OrderRecord | null;
  /** The exact DELETE /order body text. */
  cancelBody(orderId: string): string;
  /** Whether an empty GET /data/order answer means "not known" (read as `null`). */
  emptyLookupIsNull: boolean;
}

const INTERFACE: OrderWire = Object.freeze({
  parsePlacement: (j: unknown) => parsePlacementResult(j),
  parsePlacements: (j: unknown) => parsePlacementResults(j),
  parseCancel: (j: unknown) => parseCancelResult(j),
  parseLookup: (j: unknown) => parseOrderLookup(j),
  cancelBody: (orderId: string) => JSON.stringify({ orderId }),
  emptyLookupIsNull: false,
});

const PUBLIC: OrderWire = Object.freeze({
  parsePlacement: (j: unknown) => parsePublicPlacementResult(j),
  parsePlacements: (j: unknown) => parsePublicPlacementResults(j),
  parseCancel: (j: unknown) => parsePublicCancelResult(j),
  parseLookup: (j: unknown) => parsePublicOrderLookup(j),
  cancelBody: (orderID: string) => JSON.stringify({ orderID }),
  emptyLookupIsNull: true,
});

export function orderWireOf(dialect: Dialect): OrderWire {
  return dialect.orderWire === 'public' ? PUBLIC : INTERFACE;
}

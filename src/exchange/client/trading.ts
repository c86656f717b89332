// Trading writes of interface §4.1: POST /order, POST /orders, DELETE /order. Submissions arrive
// already signed (engineer C builds them); this file serialises each body once, and the core signs
// and sends that exact string. Invariants kept here:
// - never retried (the transport sends a write once); a failure that may have reached the
//   exchange is `ambiguous` and the order manager resolves it with GET /data/order/{id};
// - POST /orders carries 1 to 15 submissions: anything else is a ClientValidationError before
//   sending; the answer must hold one result per submission, in order;
// - an exchange's rejection of an order is a value (docs/ARCHITECTURE.md §8): POST /order answers a
//   rejected order with 400 (docs/protocol.md §4), which becomes a PlacementResult with
//   `accepted: false` and the exchange's errorMsg; the request-level 400s (malformed payload, too
//   many orders, owner not the API key's) are about our request or configuration and throw;
// - bodies and answers take the dialect's order-route shapes (order-wire.ts): the cancel body's
//   key and the parsers come from there.
import type { CancelResult } from '../../core/market.js';
import { MAX_ORDERS_PER_BATCH, type PlacementResult } from '../../core/order.js';
import { ClientValidationError, ExchangeHttpError, ExchangeResponseError } from '../errors.js';
import { parsePlacementResult } from '../parse/index.js';
import type { WireOrderSubmission } from '../wire.js';
import type { CallOptions, ClientCore } from './core.js';
import { orderWireOf } from './order-wire.js';
import { ROUTES } from './routes.js';

/** docs/protocol.md §4 request-level errors: they concern the request, not the order. */
const REQUEST_LEVEL = [
  /^Invalid order payload/i,
  /^Too many orders in payload/i,
  /owner has to be the owner of the API KEY/i,
];

export function isRequestLevelError(message: string): boolean {
  return REQUEST_LEVEL.some((re) => re.test(message));
}

export async function postOrder(
  core: ClientCore,
  submission: WireOrderSubmission,
  options?: CallOptions,
): Promise<PlacementResult> {
  const body = JSON.stringify(submission);
  try {
    return await core.call({
      route: ROUTES.postOrder,
      path: '/order',
      body,
      parse: orderWireOf(core.signing.dialect).parsePlacement,
      options,
    });
  } catch (e) {
    if (
      e instanceof ExchangeHttpError &&
      e.status === 400 &&
      e.exchangeMessage !== null &&
      !isRequestLevelError(e.exchangeMessage)
    ) {
      return parsePlacementResult({ success: false, errorMsg: e.exchangeMessage });
    }
    throw e;
  }
}

export async function postOrders(
  core: ClientCore,
  submissions: readonly WireOrderSubmission[],
  options?: CallOptions,
): Promise<PlacementResult[]> {
  if (!Array.isArray(submissions))
    throw new ClientValidationError('orders', submissions, 'must be an array of submissions');
  if (submissions.length < 1 || submissions.length > MAX_ORDERS_PER_BATCH) {
    throw new ClientValidationError(
      'orders',
      submissions,
      `must hold 1 to ${MAX_ORDERS_PER_BATCH} submissions, got ${submissions.length}`,
    );
  }
  const body = JSON.stringify(submissions);
  const results = await core.call({
    route: ROUTES.postOrders,
    path: '/orders',
    body,
    parse: orderWireOf(core.signing.dialect).parsePlacements,
    options,
  });
  if (results.length !== submissions.length) {
    // The exchange acted on the batch but the answer cannot be matched to the orders.
    throw new ExchangeResponseError({
      code: 'EXCHANGE_BAD_RESPONSE',
      route: ROUTES.postOrders.key,
      status: 200,
      message: `${ROUTES.postOrders.key}: ${results.length} results for ${submissions.length} orders`,
      retryable: false,
      ambiguous: true,
    });
  }
  return results;
}

export async function cancelOrder(core: ClientCore, orderId: string, options?: CallOptions): Promise<CancelResult> {
  if (typeof orderId !== 'string' || orderId === '')
    throw new ClientValidationError('orderId', orderId, 'must be a non-empty string');
  const wire = orderWireOf(core.signing.dialect);
  return core.call({
    route: ROUTES.cancelOrder,
    path: '/order',
    body: wire.cancelBody(orderId),
    parse: wire.parseCancel,
    options,
  });
}

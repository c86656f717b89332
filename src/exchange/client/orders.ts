// Order data of interface §4.2: GET /data/order/{id}, an L2-signed read. Idempotent, so the
// transport may retry it, and each attempt is signed at its own time by the core. This is the
// lookup the order manager uses to resolve an ambiguous write. The answer's shape is the dialect's
// (order-wire.ts): null means the exchange answered that it does not know the id (the public
// exchange's `null` body); the interface's exchange says so with a 404 error instead.
import type { OrderRecord } from '../../core/market.js';
import { segment, type CallOptions, type ClientCore } from './core.js';
import { orderWireOf } from './order-wire.js';
import { ROUTES } from './routes.js';

export async function getOrder(core: ClientCore, orderId: string, options?: CallOptions): Promise<OrderRecord | null> {
  const wire = orderWireOf(core.signing.dialect);
  return core.call({
    route: ROUTES.getOrder,
    path: `/data/order/${segment('id', orderId)}`,
    parse: wire.parseLookup,
    ...(wire.emptyLookupIsNull ? { emptyBodyIsNull: true } : {}),
    options,
  });
}

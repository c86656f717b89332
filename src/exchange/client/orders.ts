// Order data of interface §4.2: GET /data/order/{id}, an L2-signed read. Idempotent, so the
// transport may retry it, and each attempt is signed at its own time by the core. This is the
// lookup the order manager uses to resolve an ambiguous write.
import type { OrderRecord } from '../../core/market.js';
import { parseOrderLookup } from '../parse/index.js';
import { segment, type CallOptions, type ClientCore } from './core.js';
import { ROUTES } from './routes.js';

export async function getOrder(core: ClientCore, orderId: string, options?: CallOptions): Promise<OrderRecord> {
  return core.call({ route: ROUTES.getOrder, path: `/data/order/${segment('id', orderId)}`, parse: parseOrderLookup, options });
}

// GET /data/orders (the account's live orders, cursor paged) wire → domain. Its records are the
// bare order records GET /data/order/{id} answers in the public order wire (clob-client-v2
// src/types/clob.ts @ f3e1a05: getOpenOrders returns `OpenOrder[]`, the same type as getOrder),
// so one parser, orders-public.ts's, reads both; the envelope is account-fields.ts's.
import type { OpenOrderPage } from '../../core/market.js';
import { parseAccountPage } from './account-fields.js';
import { parsePublicOrderRecord } from './orders-public.js';

export function parseOpenOrderPage(json: unknown, path = ''): OpenOrderPage {
  return parseAccountPage(json, path, parsePublicOrderRecord);
}

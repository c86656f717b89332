// Rejection codes and the exact texts of docs/protocol.md §4 for each. The text is what a client sees
// in `errorMsg`; the code is what code branches on. Prices and sizes are printed with
// formatMicros (minimal decimals, never an exponent). Codes the protocol does not name a text
// for (a size off the 0.01 lot, an expiration already past, post-only on FOK/FAK, an unknown
// token) answer with the protocol's request-level text `Invalid order payload`.
import { formatMicros } from '../../core/money.js';

export type RejectCode =
  | 'INVALID_TICK'
  | 'INVALID_MIN_SIZE'
  | 'DUPLICATED'
  | 'NOT_ENOUGH_BALANCE'
  | 'POST_ONLY_CROSSES'
  | 'FOK_NOT_FILLED'
  | 'FAK_NO_MATCH'
  | 'MARKET_NOT_READY'
  | 'INVALID_ORDER';

export const MSG_NOT_ENOUGH_BALANCE = 'not enough balance / allowance';
export const MSG_POST_ONLY_CROSSES = 'invalid post-only order: order crosses book';
export const MSG_FOK_NOT_FILLED = "order couldn't be fully filled. FOK orders are fully filled or killed.";
export const MSG_FAK_NO_MATCH =
  'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.';
export const MSG_MARKET_NOT_READY = 'the market is not yet ready to process new orders';
export const MSG_INVALID_ORDER = 'Invalid order payload';

export const CANCEL_NOT_FOUND = 'Order not found or already canceled';
export const CANCEL_ALREADY_MATCHED = 'Order already matched';

export function msgInvalidTick(orderId: string, price: number, tick: number): string {
  return `order ${orderId} is invalid. Price (${formatMicros(price)}) breaks minimum tick size rule: ${formatMicros(tick)}`;
}

export function msgMinSize(orderId: string, size: number, min: number): string {
  return `order ${orderId} is invalid. Size (${formatMicros(size)}) lower than the minimum: ${formatMicros(min)}`;
}

export function msgDuplicated(orderId: string): string {
  return `order ${orderId} is invalid. Duplicated.`;
}

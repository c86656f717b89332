// Engine and venue values → the order-route answers of the public order wire (Dialect.orderWire
// 'public'), with the keys, key order and JSON types the public exchange sends (sources in
// src/exchange/wire-public-orders.ts and test/fixtures/real/wire/orders/SOURCES.md). Invariants:
// - a placement answers errorMsg, orderID, takingAmount, makingAmount, status, success, in the
//   order of the captured answers; amounts `""` when nothing filled on arrival; a placement that
//   filled adds `transactionsHashes` (the fills' settlement hashes, as the captured matched answer
//   has) and `tradeIDs` (clob-client-v2's OrderResponse), so the official client has its hashes
//   without polling GET /data/trades;
// - the order record is the bare snake_case OpenOrder of clob-client-v2 (its key order), statuses
//   bare (`LIVE`), `created_at` epoch seconds as a number, `expiration` seconds as a string, "0"
//   for none; decimals printed by formatMicros;
// - DELETE /order answers `{canceled, not_canceled}` in both order wires (render.ts cancelResult).
import { formatMicros } from '../../core/money.js';
import type { WirePublicOrderRecord, WirePublicPlacementResult } from '../../exchange/wire-public-orders.js';
import type { SubmitResult } from '../engine/index.js';
import { legTransactionHash, type OrderView, type WalletMap } from '../venue/index.js';

export function publicPlacementResult(r: SubmitResult): WirePublicPlacementResult {
  if (!r.ok) return publicRejectedPlacement(r.orderId, r.message);
  const out: WirePublicPlacementResult = {
    errorMsg: '',
    orderID: r.orderId,
    takingAmount: r.takingAmount === 0 ? '' : formatMicros(r.takingAmount),
    makingAmount: r.makingAmount === 0 ? '' : formatMicros(r.makingAmount),
    status: r.status,
    success: true,
  };
  if (r.trades.length === 0) return out;
  // Inserted before `success`, as in the captured matched answer.
  const { success, ...rest } = out;
  return {
    ...rest,
    transactionsHashes: r.trades.map((t) => legTransactionHash(t.id, 'taker')),
    tradeIDs: r.trades.map((t) => t.id),
    success,
  };
}

/** A per-order rejection inside a POST /orders answer. */
export function publicRejectedPlacement(orderId: string, message: string): WirePublicPlacementResult {
  return { errorMsg: message, orderID: orderId, takingAmount: '', makingAmount: '', status: '', success: false };
}

export function publicOrderRecord(v: OrderView, wallets: WalletMap): WirePublicOrderRecord {
  const r = v.record;
  return {
    id: r.id,
    status: r.status,
    owner: v.meta?.apiKey ?? '',
    maker_address: v.meta?.maker ?? wallets.walletOf(r.owner),
    market: r.conditionId,
    asset_id: r.tokenId,
    side: r.side,
    original_size: formatMicros(r.originalSize),
    size_matched: formatMicros(r.sizeMatched),
    price: formatMicros(r.price),
    associate_trades: [...r.associateTrades],
    outcome: v.market.outcomes[r.outcomeIndex] as string,
    created_at: Math.floor(r.createdAtMs / 1000),
    expiration: String(r.expirationSec),
    order_type: r.orderType,
  };
}

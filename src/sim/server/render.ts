// Engine and venue values → the interface's wire shapes (§2.3–2.7). Invariants kept here:
// - keys in the order of the interface's tables; decimals printed by formatMicros (minimal,
//   never an exponent); the book's levels worst-first (bids ascending, asks descending, as the
//   public exchange sends them) and its hash computed over exactly the strings sent (docs/protocol.md §5);
// - a placement with nothing filled answers `""` amounts, as the recorded public answer does;
// - order records carry the submission's API key as `owner` and the signed maker as
//   `makerAddress`; orders placed directly on the engine (synthetic traders) show their wallet.
import { bookHash, type HashLevel } from '../../core/book-hash.js';
import type { Level } from '../../core/book.js';
import { formatMicros } from '../../core/money.js';
import type {
  WireBook,
  WireBookLevel,
  WireCancelResult,
  WireOrderRecord,
  WirePlacementResult,
} from '../../exchange/wire.js';
import type { BookView, CancelResult, SubmitResult } from '../engine/index.js';
import { iso } from '../world/ids.js';
import type { OrderView, WalletMap } from '../venue/index.js';

export function placementResult(r: SubmitResult): WirePlacementResult {
  if (!r.ok) return rejectedPlacement(r.orderId, r.message);
  return {
    success: true,
    errorMsg: '',
    orderID: r.orderId,
    takingAmount: r.takingAmount === 0 ? '' : formatMicros(r.takingAmount),
    makingAmount: r.makingAmount === 0 ? '' : formatMicros(r.makingAmount),
    status: r.status,
  };
}

export function rejectedPlacement(orderId: string, message: string): WirePlacementResult {
  return { success: false, errorMsg: message, orderID: orderId, takingAmount: '', makingAmount: '', status: '' };
}

export function cancelResult(orderId: string, r: CancelResult): WireCancelResult {
  return r.canceled
    ? { canceled: [orderId], not_canceled: {} }
    : { canceled: [], not_canceled: { [orderId]: r.reason } };
}

export function orderRecord(v: OrderView, wallets: WalletMap): WireOrderRecord {
  const r = v.record;
  return {
    associateTrades: [...r.associateTrades],
    id: r.id,
    status: r.status,
    market: r.conditionId,
    originalSize: formatMicros(r.originalSize),
    outcome: v.market.outcomes[r.outcomeIndex],
    makerAddress: v.meta?.maker ?? wallets.walletOf(r.owner),
    owner: v.meta?.apiKey ?? '',
    price: formatMicros(r.price),
    side: r.side,
    sizeMatched: formatMicros(r.sizeMatched),
    assetId: r.tokenId,
    type: r.orderType,
    createdAt: iso(r.createdAtMs),
  };
}

/** Engine levels are best-first; the wire sends them worst-first. */
function worstFirst(levels: readonly Level[]): WireBookLevel[] {
  const out = new Array<WireBookLevel>(levels.length);
  for (let i = 0, j = levels.length - 1; j >= 0; i++, j--) {
    const l = levels[j] as Level;
    out[i] = { price: formatMicros(l.price), size: formatMicros(l.size) };
  }
  return out;
}

export function book(v: BookView): WireBook {
  const bids = worstFirst(v.bids);
  const asks = worstFirst(v.asks);
  const fields = {
    market: v.conditionId,
    asset_id: v.tokenId,
    timestamp: String(v.timestampMs),
    bids: bids as readonly HashLevel[],
    asks: asks as readonly HashLevel[],
    min_order_size: formatMicros(v.minSize),
    tick_size: formatMicros(v.tick),
    neg_risk: v.negRisk,
    last_trade_price: v.lastTradePrice === null ? '' : formatMicros(v.lastTradePrice),
  };
  return {
    market: fields.market,
    asset_id: fields.asset_id,
    timestamp: fields.timestamp,
    hash: bookHash(fields),
    bids,
    asks,
    min_order_size: fields.min_order_size,
    tick_size: fields.tick_size,
    neg_risk: fields.neg_risk,
    last_trade_price: fields.last_trade_price,
  };
}

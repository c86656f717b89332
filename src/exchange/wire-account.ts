// Wire types of the account-lifecycle routes docs/exchange-interface.md does not list and docs/protocol.md
// leaves open, taken from the public exchange (Polymarket's CLOB) as its official clients send and
// read them; both dialects use these shapes (the simulator serves them in the spec dialect too).
// The companion of wire.ts: shapes on the wire only, verbatim (snake_case, strings), never trusted
// until a parser in src/exchange/parse/ has made domain values of them. Types only.
//
// Sources (the official clients, read where they declare the shapes):
// - Polymarket/clob-client-v2 src/types/clob.ts @ f3e1a05f868a1fd0c34ef85dfc45c6ce78f5bb69
//   (Trade, MakerOrder, OrderMarketCancelParams, BalanceAllowanceResponse; postHeartbeat's answer
//   in src/client.ts); the order records of GET /data/orders are wire-public-orders.ts's;
// - Polymarket/rs-clob-client src/clob/types/{request,response}.rs @ d84e8e15c135af8b4d87a634a601d59cd56dade8
//   (Page, TradeResponse, CancelOrdersResponse, BalanceAllowanceResponse).

import type { WirePublicOrderRecord } from './wire-public-orders.js';
import type { WireSide } from './wire.js';

/** Cursor page of GET /data/orders and /data/trades (rs-clob-client `Page<T>`). */
export interface WireAccountPage<T> {
  data: T[];
  /** base64 offset; `LTE=` on the last page. */
  next_cursor: string;
  limit: number;
  count: number;
}

/** GET /data/orders: a page of the bare order records GET /data/order/{id} answers. */
export type WireOpenOrdersPage = WireAccountPage<WirePublicOrderRecord>;

export type WireTradeStatus = 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';

/** One entry of a trade's `maker_orders` (clob-client-v2 `MakerOrder`). */
export interface WireMakerOrder {
  order_id: string;
  owner: string;
  maker_address: string;
  matched_amount: string;
  price: string;
  fee_rate_bps: string;
  asset_id: string;
  outcome: string;
  side: WireSide;
}

/** One record of GET /data/trades (clob-client-v2 `Trade`). */
export interface WireAccountTrade {
  id: string;
  taker_order_id: string;
  market: string;
  asset_id: string;
  side: WireSide;
  size: string;
  fee_rate_bps: string;
  price: string;
  status: WireTradeStatus;
  /** Unix seconds as a string (rs-clob-client `TimestampSeconds<String>`). */
  match_time: string;
  last_update: string;
  outcome: string;
  bucket_index: number;
  owner: string;
  maker_address: string;
  maker_orders: WireMakerOrder[];
  /** "" until the trade has a transaction. */
  transaction_hash: string;
  trader_side: 'TAKER' | 'MAKER';
}

/** Body of DELETE /cancel-market-orders: market and/or asset_id. */
export interface WireCancelMarketOrdersRequest {
  market?: string;
  asset_id?: string;
}

/** Body of POST /v1/heartbeats: "" (or null) to start, then the id of the previous answer. */
export interface WireHeartbeatRequest {
  heartbeat_id: string | null;
}

/** Answer of POST /v1/heartbeats: 200 with the next id, or 400 with the current id and a reason. */
export interface WireHeartbeatResponse {
  heartbeat_id: string;
  error_msg?: string;
}

export type WireAssetType = 'COLLATERAL' | 'CONDITIONAL';

/** Answer of GET /balance-allowance: base-unit integers as strings, one allowance per spender. */
export interface WireBalanceAllowance {
  balance: string;
  allowances: Record<string, string>;
}

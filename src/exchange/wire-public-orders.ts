// Wire types of the order routes in the `public` order wire (Dialect.orderWire): the JSON the
// public exchange's official clients send to POST /order, POST /orders, DELETE /order and POST
// /prices, and the answers they read. Types only; nothing here is trusted until a parser in
// src/exchange/parse/orders-public.ts has read it. Where each shape comes from:
// - submission: Polymarket/clob-client-v2 src/types/ordersV2.ts `orderToJsonV2` (installed as
//   node_modules/@polymarket/clob-client-v2/dist/types/ordersV2.js, v1.1.0): keys in its order,
//   `salt` a JSON number, `expiration` a string ("0" = none), `deferExec`/`postOnly` always sent,
//   no `conditionId`; its `taker` is undefined for V2 orders, so JSON leaves it out;
// - placement answers: Polymarket/clob-client-v2 dist/types/clob.d.ts `OrderResponse`;
//   Polymarket/py-sdk:src/polymarket/models/clob/order_response.py@335082e575dd7e426a58d74f7803770569970a24;
//   fixtures in test/fixtures/real/wire/orders/ (null errorMsg/orderID and missing amounts occur);
// - cancel: body `{orderID}` (clob-client-v2 `OrderPayload`; Polymarket/py-clob-client-v2:
//   py_clob_client_v2/client.py@b0a97fac6aecb554557b6cb810e997806fc5e036 `cancel_order`); answer
//   `{canceled, not_canceled}` (Polymarket/rs-clob-client:src/clob/types/response.rs@d84e8e15c135af8b4d87a634a601d59cd56dade8
//   `CancelOrdersResponse` also reads `notCanceled` and defaults either when null or missing);
// - order record: clob-client-v2 `OpenOrder` (bare snake_case, `created_at` a number of epoch
//   seconds, `expiration` a string); an unknown id answers 200 with a `null` (or empty) body
//   (nautechsystems/nautilus_trader:crates/adapters/polymarket/src/http/clob.rs@03ce53d51a91a6091af36be002fe931431ab50f4
//   `get_order_optional`; https://github.com/Polymarket/py-clob-client/issues/217, where
//   `get_order` returns None for a filled order);
// - POST /prices items: `{token_id, side}` (clob-client-v2 `BookParams`; docs "Each request must
//   include both token_id and side", https://docs.polymarket.com/api-reference/market-data/get-market-prices-request-body).
import type { WireOrderType, WireSide } from './wire.js';

/** The signed order inside a submission, keys in orderToJsonV2's order. */
export interface WirePublicSignedOrder {
  /** A JSON number below 2^53 (the official client parses its salt to an integer). */
  salt: number;
  maker: string;
  signer: string;
  /** Sent only by V1 clients; V2 orders have none. */
  taker?: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: WireSide;
  signatureType: number;
  /** Milliseconds, as a string. */
  timestamp: string;
  /** Unix seconds as a string; "0" for an order without expiration. */
  expiration: string;
  metadata: string;
  builder: string;
  signature: string;
}

/** One item of POST /order or POST /orders. */
export interface WirePublicOrderSubmission {
  deferExec: boolean;
  postOnly: boolean;
  order: WirePublicSignedOrder;
  owner: string;
  orderType: WireOrderType;
}

/** A placement answer. Real answers also leave out or null some keys (see the parser). */
export interface WirePublicPlacementResult {
  errorMsg: string;
  orderID: string;
  takingAmount: string;
  makingAmount: string;
  /** "live" | "matched" | "delayed" | "unmatched", or "" on a rejection. */
  status: string;
  /** Settlement transaction hashes of the fills at placement (best effort). */
  transactionsHashes?: string[];
  /** Ids of the trades the placement created. */
  tradeIDs?: string[];
  success: boolean;
}

/** DELETE /order body. */
export interface WirePublicCancelRequest {
  orderID: string;
}

/** GET /data/order/{id} answer for a known id (an unknown id answers `null`). */
export interface WirePublicOrderRecord {
  id: string;
  /** LIVE, MATCHED, CANCELED, CANCELED_MARKET_RESOLVED, INVALID (also `ORDER_STATUS_`-prefixed). */
  status: string;
  owner: string;
  maker_address: string;
  market: string;
  asset_id: string;
  side: string;
  original_size: string;
  size_matched: string;
  price: string;
  associate_trades: string[] | null;
  outcome: string;
  /** Epoch seconds. */
  created_at: number;
  /** Unix seconds as a string, "0" when none (some answers send null). */
  expiration: string | null;
  order_type: string;
}

/** One POST /prices item. */
export interface WirePublicPriceRequest {
  token_id: string;
  side: WireSide;
}

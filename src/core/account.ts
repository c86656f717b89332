// Domain types of the account-lifecycle routes the interface does not list but the public exchange
// (Polymarket's CLOB) has and a market maker needs: the account's live orders (GET /data/orders),
// its trades with their settlement status (GET /data/trades), batch cancels, the heartbeat
// (dead-man switch) and balance/allowance. Re-exported by market.ts. Invariants kept by every value
// (the parsers in src/exchange/parse/ enforce them):
// - money is integer millionths (Price, Shares, Micros); allowances, which reach 2^256 − 1, are bigint;
// - statuses are normalised (no `ORDER_STATUS_` / `TRADE_STATUS_` prefix, upper case);
// - times are epoch milliseconds; a value the wire leaves empty is null, never zero.
// Pure types plus tiny total functions; no I/O.
import type { Micros, Price, Shares } from './money.js';
import type { OrderRecord } from './market.js';
import type { Side } from './order.js';

/** A cursor-paged answer of the account routes (`next_cursor`, `MA==` first, `LTE=` last). */
export interface AccountPage<T> {
  readonly data: readonly T[];
  /** Cursor of the next page; null on the last page (`LTE=`). */
  readonly nextCursor: string | null;
  /** Page size and record count when the exchange sends them (its official clients read both). */
  readonly limit: number | null;
  readonly count: number | null;
}

/** GET /data/orders: the account's live orders, the same records as GET /data/order/{id}. */
export type OpenOrderPage = AccountPage<OrderRecord>;

/**
 * Settlement status of a trade: MATCHED (sent for settlement) → MINED → CONFIRMED (final), or
 * MATCHED → RETRYING → FAILED (final: the trade did not happen on chain).
 */
export type TradeStatus = 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED';
export const TRADE_STATUSES: readonly TradeStatus[] = ['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'];

/** A trade status that can no longer change. */
export function isTerminalTradeStatus(s: TradeStatus): boolean {
  return s === 'CONFIRMED' || s === 'FAILED';
}

/** The account's role in a trade. */
export type TraderSide = 'TAKER' | 'MAKER';

/** One maker order filled by a trade (`maker_orders[]`). */
export interface MakerOrderFill {
  readonly orderId: string;
  readonly owner: string;
  readonly makerAddress: string;
  readonly matchedAmount: Shares;
  /** The maker's own price (in its token's terms). */
  readonly price: Price;
  readonly feeRateBps: number;
  readonly assetId: string;
  readonly outcome: string;
  /** Absent on some payloads: null then. */
  readonly side: Side | null;
}

/** One of the account's own legs of a trade, in its own order's terms. */
export interface TradeLeg {
  readonly orderId: string;
  readonly assetId: string;
  /** null when a maker leg's payload leaves its side out. */
  readonly side: Side | null;
  readonly price: Price;
  readonly size: Shares;
}

/**
 * One trade of the account (GET /data/trades). The top-level fields describe the match from the
 * taker's side whatever the account's role; `ownLegs` is the account's part: the taker order for
 * a TAKER trade, the maker orders owned by `owner` (or, failing that, by `makerAddress`) for a
 * MAKER trade.
 */
export interface TradeRecord {
  readonly id: string;
  readonly takerOrderId: string;
  readonly market: string;
  readonly assetId: string;
  readonly side: Side;
  readonly size: Shares;
  readonly feeRateBps: number;
  readonly price: Price;
  readonly status: TradeStatus;
  readonly matchTimeMs: number;
  readonly lastUpdateMs: number;
  readonly outcome: string;
  readonly bucketIndex: number;
  /** The account's API key. */
  readonly owner: string;
  readonly makerAddress: string;
  readonly makerOrders: readonly MakerOrderFill[];
  /** null while the trade has no transaction yet (`""`). */
  readonly transactionHash: string | null;
  readonly traderSide: TraderSide;
  readonly errorMsg: string | null;
  readonly ownLegs: readonly TradeLeg[];
}

export type TradePage = AccountPage<TradeRecord>;

export type AssetType = 'COLLATERAL' | 'CONDITIONAL';
export const ASSET_TYPES: readonly AssetType[] = ['COLLATERAL', 'CONDITIONAL'];

/** GET /balance-allowance. */
export interface BalanceAllowance {
  /** Base units of the asset (6 decimals), i.e. millionths: collateral or shares of the token. */
  readonly balance: Micros;
  /** Spender address (as sent) → allowance in base units. Empty when the answer has none. */
  readonly allowances: ReadonlyMap<string, bigint>;
}

/** Answer to a heartbeat: the id to send with the next one. */
export interface HeartbeatAck {
  readonly heartbeatId: string;
  /**
   * True when the exchange refused the id sent (stale, or from another session) and answered the
   * current one: the heartbeat did not count, send the next one with `heartbeatId`.
   */
  readonly resynchronized: boolean;
}

// Public domain types of the matching engine: what goes in (markets, orders), what comes out
// (placement results, trades, order records, book views, events). No wire strings here: prices,
// sizes and amounts are integer millionths (Price/Shares/Micros); times are epoch milliseconds
// except `expirationSec`, which keeps the protocol's Unix seconds. The HTTP layer, paper mode
// and backtests translate to and from these; the engine never sees JSON.
import type { Level } from '../../core/book.js';
import type { FeeModel } from '../../core/fees.js';
import type { OrderStatus as ExchangeOrderStatus } from '../../core/market.js';
import type { Micros, Price, Shares } from '../../core/money.js';
import type { OrderType, Side } from '../../core/order.js';
import type { RejectCode } from './messages.js';

/**
 * Statuses an engine order record can hold: the exchange's order statuses (docs/protocol.md §4)
 * less INVALID, since rejected orders are never stored.
 */
export type OrderStatus = Exclude<ExchangeOrderStatus, 'INVALID'>;

export interface MarketConfig {
  readonly conditionId: string;
  /** [YES token id, NO token id]: outcome index 0 and 1. */
  readonly tokens: readonly [string, string];
  readonly tick: Price;
  readonly minSize: Shares;
  /** Base fees in basis points of min(p, 1 − p) × size, charged in collateral (see fees.ts). */
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  /**
   * The fee model charged instead of the base fees (src/core/fees.ts), e.g. the public exchange's
   * `fd` (takers r × (p(1 − p))^e per share, makers nothing). Absent: the base fees.
   */
  readonly fees?: FeeModel;
  readonly negRisk: boolean;
  readonly acceptingOrders: boolean;
}

export interface MarketState {
  readonly conditionId: string;
  readonly tokens: readonly [string, string];
  readonly tick: Price;
  readonly minSize: Shares;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  /** The fee model fills are charged by. */
  readonly fees: FeeModel;
  readonly negRisk: boolean;
  readonly acceptingOrders: boolean;
  readonly closed: boolean;
  /** Winning token once resolved, else null. */
  readonly winner: string | null;
  /** Collateral locked in complete sets (before resolution) or owed to winners (after). */
  readonly lockedCollateral: Micros;
}

export interface OrderInput {
  /** The order id (the HTTP layer's EIP-712 digest, or any unique id from paper mode/backtests). */
  readonly id: string;
  /** Account id. */
  readonly owner: string;
  readonly tokenId: string;
  readonly side: Side;
  /** Limit price in the order's own token terms. */
  readonly price: Price;
  readonly size: Shares;
  readonly orderType: OrderType;
  readonly postOnly?: boolean;
  /** GTD only: Unix seconds; the order is live while now < expirationSec × 1000. */
  readonly expirationSec?: number;
  /** Defaults to the engine clock's now. */
  readonly createdAtMs?: number;
}

/** How a fill settled (see the header of engine.ts). */
export type TradeKind = 'transfer' | 'mint' | 'merge';

export interface Trade {
  readonly id: string;
  readonly conditionId: string;
  readonly kind: TradeKind;
  readonly timeMs: number;
  readonly size: Shares;
  /** The fill price in YES terms (the maker's resting price). */
  readonly yesPrice: Price;
  readonly takerOrderId: string;
  readonly takerOwner: string;
  readonly takerTokenId: string;
  readonly takerSide: Side;
  /** The fill price in the taker's token terms. */
  readonly takerPrice: Price;
  readonly takerFee: Micros;
  readonly makerOrderId: string;
  readonly makerOwner: string;
  readonly makerTokenId: string;
  readonly makerSide: Side;
  readonly makerPrice: Price;
  readonly makerFee: Micros;
}

export interface Accepted {
  readonly ok: true;
  readonly orderId: string;
  /** `live`: resting without a fill; `matched`: filled at least partly on arrival. */
  readonly status: 'live' | 'matched';
  /** Status of the order record after placement. */
  readonly orderStatus: OrderStatus;
  /** Filled on arrival: what the order gave (BUY: collateral, SELL: shares), fees excluded. */
  readonly makingAmount: number;
  /** Filled on arrival: what the order received (BUY: shares, SELL: collateral), fees excluded. */
  readonly takingAmount: number;
  readonly feePaid: Micros;
  readonly sizeMatched: Shares;
  readonly trades: readonly Trade[];
}

export interface Rejected {
  readonly ok: false;
  readonly orderId: string;
  readonly code: RejectCode;
  /** The exact docs/protocol.md §4 text for the codes it names. */
  readonly message: string;
}

export type SubmitResult = Accepted | Rejected;

export interface OrderRecord {
  readonly id: string;
  readonly status: OrderStatus;
  readonly conditionId: string;
  readonly tokenId: string;
  /** 0 for the YES token, 1 for NO. */
  readonly outcomeIndex: 0 | 1;
  readonly owner: string;
  readonly side: Side;
  readonly price: Price;
  readonly originalSize: Shares;
  readonly sizeMatched: Shares;
  readonly orderType: OrderType;
  readonly postOnly: boolean;
  /** 0 when the order has no expiration. */
  readonly expirationSec: number;
  readonly createdAtMs: number;
  readonly associateTrades: readonly string[];
}

export type CancelResult = { readonly canceled: true } | { readonly canceled: false; readonly reason: string };

export interface CancelManyResult {
  readonly canceled: string[];
  readonly notCanceled: Record<string, string>;
}

/** One token's book. Bids best (highest) first, asks best (lowest) first. */
export interface BookView {
  readonly conditionId: string;
  readonly tokenId: string;
  readonly bids: Level[];
  readonly asks: Level[];
  readonly tick: Price;
  readonly minSize: Shares;
  readonly negRisk: boolean;
  /** Last trade price in this token's terms, or null before the first trade. */
  readonly lastTradePrice: Price | null;
  readonly timestampMs: number;
}

export interface TopOfBook {
  readonly bid: Price | null;
  readonly ask: Price | null;
}

export interface LastTrade {
  readonly price: Price;
  /** The taker's side expressed in this token's terms. */
  readonly side: Side;
  readonly timeMs: number;
}

export interface Balance {
  readonly available: number;
  readonly reserved: number;
}

export interface AccountBalances {
  readonly collateral: Balance;
  /** Keyed by token id. */
  readonly tokens: ReadonlyMap<string, Balance>;
}

/** Why an order record changed. */
export type OrderUpdateReason =
  | 'placed' // the incoming order's state once its arrival was processed
  | 'fill' // a resting order was filled (partly or fully)
  | 'canceled' // cancelled by its owner
  | 'self-trade' // cancelled by the self-trade rule
  | 'expired' // GTD expiration reached
  | 'resolved'; // cancelled because its market resolved

export interface OrderUpdate {
  readonly orderId: string;
  readonly owner: string;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly status: OrderStatus;
  readonly originalSize: Shares;
  readonly sizeMatched: Shares;
  readonly reason: OrderUpdateReason;
  readonly timeMs: number;
}

export type TradeListener = (trade: Trade) => void;
export type OrderUpdateListener = (update: OrderUpdate) => void;

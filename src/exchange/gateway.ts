// The one port between the daemon and a venue (docs/ARCHITECTURE.md §5): market data, order entry and the
// account, as the strategy loop and the order manager need them. Live and sandbox modes implement
// it over HTTP (ExchangeClient + rate limiter); paper mode takes market data over HTTP and sends
// orders to an in-process simulated venue; backtests replay recorded books into that venue. The
// daemon cannot tell them apart. Orders arrive already signed, with their id (the EIP-712 digest)
// known and written to the ledger before the call, so an ambiguous failure can always be resolved
// by looking the id up.
import type { BalanceAllowance, HeartbeatAck, TradeRecord } from '../core/account.js';
import type { Book } from '../core/book.js';
import type { CancelResult, ClobMarketSettings, OrderRecord, Position, SamplingMarket } from '../core/market.js';
import type { Price } from '../core/money.js';
import type { PlacementResult } from '../core/order.js';
import type { WireOrderSubmission } from './wire.js';

/** Priority of a trading write at the rate limiter: cancels first, then replacements, then new quotes. */
export type WritePriority = 'cancel' | 'replace' | 'new';

export interface MarketDataPort {
  /** Books for every token, batched by the implementation (≤ 500 per request). */
  getBooks(tokenIds: readonly string[], signal?: AbortSignal): Promise<Book[]>;
  /** Midpoints by token; a token with a one-sided book is absent. */
  getMidpoints(tokenIds: readonly string[], signal?: AbortSignal): Promise<Map<string, Price>>;
  /** Every sampling market (the universe a selector chooses from), all pages. */
  samplingMarkets(signal?: AbortSignal): AsyncIterable<SamplingMarket>;
  /** Trading settings of one market (tick, minimum size, fees, tokens, rewards). */
  getMarketSettings(conditionId: string, signal?: AbortSignal): Promise<ClobMarketSettings>;
}

export interface OrderEntryPort {
  /** Places 1 to 15 signed orders in one request; one result per submission, in order. */
  postOrders(
    submissions: readonly WireOrderSubmission[],
    priority: Exclude<WritePriority, 'cancel'>,
    signal?: AbortSignal,
  ): Promise<PlacementResult[]>;
  cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult>;
  /** The order's record, or null when the venue does not know the id. */
  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderRecord | null>;
}

export interface AccountPort {
  /** Current positions of a wallet (every page). */
  getPositions(user: string, signal?: AbortSignal): Promise<Position[]>;
}

/**
 * The public exchange's account-lifecycle routes, which the interface does not list (a venue may
 * have none of them: every caller checks): batch cancels, the account's live orders and trades,
 * the heartbeat (dead-man switch) and balance/allowance. Routes and shapes: src/exchange/client/
 * account.ts and orders-admin.ts, with their sources.
 */
export interface AccountLifecyclePort {
  /** Cancels up to MAX_ORDERS_PER_CANCEL (src/core/order.ts) orders in one request (DELETE /orders). */
  cancelOrders(orderIds: readonly string[], signal?: AbortSignal): Promise<CancelResult>;
  /** Every live order of the account (GET /data/orders, every page). */
  openOrders(signal?: AbortSignal): AsyncIterable<OrderRecord>;
  /** The account's trades matched at or after `afterMs` (GET /data/trades, every page), oldest first. */
  accountTrades(afterMs: number, signal?: AbortSignal): AsyncIterable<TradeRecord>;
  /** One heartbeat: null starts a chain, then each answer's id goes with the next beat. */
  heartbeat(heartbeatId: string | null, signal?: AbortSignal): Promise<HeartbeatAck>;
  /** Collateral balance and allowances (GET /balance-allowance, asset_type COLLATERAL). */
  collateralBalance(signal?: AbortSignal): Promise<BalanceAllowance>;
  /** The order version the exchange accepts (GET /version; src/exchange/order-version.ts). */
  orderVersion(signal?: AbortSignal): Promise<number>;
}

export interface ExchangeGateway extends MarketDataPort, OrderEntryPort, AccountPort, Partial<AccountLifecyclePort> {
  /** Short name for logs: "http", "paper", "backtest". */
  readonly kind: string;
  close(): Promise<void>;
}

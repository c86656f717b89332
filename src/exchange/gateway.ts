// The one port between the daemon and a venue (DESIGN.md §1): market data, order entry and the
// account, as the strategy loop and the order manager need them. Live and sandbox modes implement
// it over HTTP (ExchangeClient + rate limiter); paper mode takes market data over HTTP and sends
// orders to an in-process simulated venue; backtests replay recorded books into that venue. The
// daemon cannot tell them apart. Orders arrive already signed, with their id (the EIP-712 digest)
// known and written to the ledger before the call, so an ambiguous failure can always be resolved
// by looking the id up.
import type { Book } from '../core/book.js';
import type {
  CancelResult, ClobMarketSettings, OrderRecord, PlacementResult, Position, SamplingMarket,
} from '../core/market.js';
import type { Price } from '../core/money.js';
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
  postOrders(submissions: readonly WireOrderSubmission[], priority: Exclude<WritePriority, 'cancel'>, signal?: AbortSignal): Promise<PlacementResult[]>;
  cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult>;
  /** The order's record, or null when the venue does not know the id. */
  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderRecord | null>;
}

export interface AccountPort {
  /** Current positions of a wallet (every page). */
  getPositions(user: string, signal?: AbortSignal): Promise<Position[]>;
}

export interface ExchangeGateway extends MarketDataPort, OrderEntryPort, AccountPort {
  /** Short name for logs: "http", "paper", "backtest". */
  readonly kind: string;
  close(): Promise<void>;
}

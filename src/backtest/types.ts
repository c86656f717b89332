// The backtest engine's public shapes: what runBacktest takes and the plain-data BacktestResult the
// report (src/backtest/report, another owner) reads. Invariants kept by every BacktestResult:
// - plain JSON data only (numbers, strings, arrays, objects; no Map, no class, no function), so
//   JSON.stringify of a result is the report's input and byte-identical for identical inputs;
// - money in integer millionths (prices, sizes, notionals, fees, PnL), times in epoch ms of the
//   virtual clock (the recording's local timestamps);
// - `fills` are the ledger's, in its sequence; `equity` has one sample per daemon cycle;
// - `resolutions` are the recording's RESOLVED records in order, each with the ledger's settlement
//   rows of that market (resolution.ts): positions closed at 1 (winner) or 0, exact integers.
import type { Config } from '../config/schema.js';
import type { StrategyModule } from '../strategy/define.js';
import type { RecordingEvent } from '../marketdata/recording/reader.js';

export type BacktestFillModel = 'cross' | 'queue' | 'queue-probabilistic';

/** Order-entry latency: a constant per request kind, or a seeded distribution. */
export type LatencySpec =
  | { readonly placeMs: number; readonly cancelMs: number }
  | {
      readonly distribution: 'uniform';
      readonly place: { readonly minMs: number; readonly maxMs: number };
      readonly cancel: { readonly minMs: number; readonly maxMs: number };
    };

export interface BacktestOptions {
  /** A recording file, or its events (for example a RecordingReader, or a test's array). */
  readonly recording: string | AsyncIterable<RecordingEvent> | Iterable<RecordingEvent>;
  /** The daemon's config (strategy, risk, poll cadence, orders, rate limits). */
  readonly config: Readonly<Config>;
  /** Default `cross`. */
  readonly fillModel?: BacktestFillModel;
  /** `queue-probabilistic`: probability that a size decrease at our level is a trade ahead of us (default 0.5). */
  readonly queueTradeProbability?: number;
  /** Default none (0 ms). */
  readonly latency?: LatencySpec;
  /** Seeds the signing key, salts, latency draws and the probabilistic queue. */
  readonly seed: number;
  /** Log level of the daemon's logger (default `error`: cycle lines cost time and go nowhere). */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Keep every mid change (for markouts and the mid chart); default true. */
  readonly recordMids?: boolean;
  /** Values a recording leaves unknown (default: tick 0.01, minimum size 0, fees 0, not neg-risk). */
  readonly defaults?: Partial<RecordedDefaults>;
  /**
   * When the daemon sees the books: `poll` (default) at config.poll.intervalMs, as in paper and
   * live mode; `update`: a cycle on every recorded book update of the universe (the strategy
   * quotes on each), as a websocket-fed daemon would.
   */
  readonly cadence?: BacktestCadence;
  /** The strategy, resolved by the config loader (user modules included); default: the built-in named in config. */
  readonly strategy?: StrategyModule;
  /** Write the run's ledger (kept in memory while it runs) to this new SQLite file at the end. */
  readonly ledgerPath?: string;
  /** Called every 65,536 records and at the end, when the recording is a file. */
  readonly onProgress?: (p: BacktestProgress) => void;
}

/** How far a replay of a file has come. */
export interface BacktestProgress {
  /** Records replayed so far. */
  readonly records: number;
  /** Bytes of the file read so far, of `bytesTotal`. */
  readonly bytesRead: number;
  readonly bytesTotal: number;
}

export type BacktestCadence = 'poll' | 'update';

export interface RecordedDefaults {
  readonly tickSize: number;
  readonly minOrderSize: number;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
}

export interface BacktestFill {
  readonly seq: number;
  readonly orderId: string | null;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: number;
  readonly size: number;
  readonly notional: number;
  readonly feeMicros: number;
  readonly liquidity: string;
  /** When the ledger recorded it (the order manager learns of maker fills by its lookups). */
  readonly timeMs: number;
  /** When the venue traded it: the moment the order's matched size reached this fill's cumulative total. */
  readonly venueTimeMs: number;
  readonly realizedDelta: number;
  /** The token's mid (from the recorded book) at venueTimeMs, null when one-sided. */
  readonly midAtFill: number | null;
}

export interface BacktestOrder {
  readonly id: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: number;
  readonly size: number;
  readonly sizeMatched: number;
  readonly state: string;
  readonly createdAtMs: number;
  readonly stateAtMs: number;
}

/**
 * A token's mid at each change: the change i is at `t[i]` (epoch ms) to `mid[i]` (millionths), in
 * time order. Two arrays of numbers rather than [t, mid] pairs: a long run records millions of
 * changes, at 16 bytes each this way against about 80 as pairs.
 */
export interface MidSeries {
  readonly t: readonly number[];
  readonly mid: readonly number[];
}

/** One sample per daemon cycle, marked to the recorded mids. */
export interface EquitySample {
  readonly t: number;
  /** capital + the ledger's total PnL (realized, net of fees, + unrealized), millionths. */
  readonly equity: number;
  readonly pnl: number;
  readonly realized: number;
  readonly unrealized: number;
  readonly fees: number;
  /** Signed inventory by token (shares millionths), tokens with a position only, sorted by token. */
  readonly inventory: ReadonlyArray<readonly [string, number]>;
  /** Quotes accepted by risk in the cycle, and our resting orders after it. */
  readonly quotes: number;
  readonly openOrders: number;
}

/** One token's position closed by a market's resolution (a ledger settlement row). */
export interface BacktestSettlement {
  readonly tokenId: string;
  /** Per share: 1 000 000 for the winner, 0 for the loser. */
  readonly payout: number;
  /** Shares settled. */
  readonly shares: number;
  /** Collateral paid out: payout × shares. */
  readonly proceeds: number;
  /** PnL the settlement realized: proceeds − the cost basis of the shares. */
  readonly realized: number;
  /** When the ledger settled it: the resolution's time, or a late fill's record time. */
  readonly recordedAtMs: number;
}

/** A market the recording resolved, and what its resolution settled. */
export interface BacktestResolution {
  readonly conditionId: string;
  readonly winnerTokenId: string;
  /** The market's tokens as recorded. */
  readonly tokens: readonly string[];
  /** The record's local time (the virtual clock's), and the exchange's. */
  readonly timeMs: number;
  readonly exchangeTimeMs: number;
  /** Our resting orders of the market the resolution cancelled at the venue. */
  readonly ordersCanceled: number;
  /** Σ over `settlements`. */
  readonly sharesSettled: number;
  readonly payout: number;
  readonly realized: number;
  readonly settlements: readonly BacktestSettlement[];
}

export interface BacktestPnl {
  readonly atMs: number;
  readonly total: number;
  readonly realized: number;
  readonly unrealized: number;
  readonly fees: number;
  readonly positions: ReadonlyArray<{
    readonly tokenId: string;
    readonly conditionId: string;
    readonly size: number;
    readonly cost: number;
    readonly mark: number;
  }>;
}

export interface BacktestResult {
  readonly version: 1;
  readonly seed: number;
  readonly fillModel: BacktestFillModel;
  readonly strategy: string;
  readonly capital: number;
  readonly startMs: number;
  readonly endMs: number;
  /** Recording events replayed, and the book updates (book + delta events) among them. */
  readonly events: number;
  readonly bookUpdates: number;
  readonly cycles: number;
  readonly markets: ReadonlyArray<{
    readonly conditionId: string;
    readonly tokens: readonly string[];
    readonly tickSize: number;
    readonly minOrderSize: number;
    readonly makerFeeBps: number;
    readonly takerFeeBps: number;
  }>;
  readonly fills: readonly BacktestFill[];
  readonly orders: readonly BacktestOrder[];
  /** PnL marked to the last recorded mids, before the final cancel (the end of the replay). */
  readonly pnl: BacktestPnl;
  readonly equity: readonly EquitySample[];
  /** Every change of each token's book mid, in time order (empty when recordMids is off). */
  readonly mids: Readonly<Record<string, MidSeries>>;
  readonly venue: { readonly booksFed: number; readonly fills: number };
  /** Markets the recording resolved, in record order, with what each settled. */
  readonly resolutions: readonly BacktestResolution[];
  /** Every trade of ours at the venue, in order (the ledger's fills may aggregate several). */
  readonly venueFills: ReadonlyArray<{
    readonly tradeId: string;
    readonly orderId: string;
    readonly tokenId: string;
    readonly side: 'BUY' | 'SELL';
    readonly price: number;
    readonly size: number;
    readonly feeMicros: number;
    readonly liquidity: 'maker' | 'taker';
    readonly timeMs: number;
  }>;
}

export type { Config };

// The report's input: what a backtest run (or any session with a fill history) hands the report
// writer. Deliberately small and independent of the replay engine's own result type, so that the
// engine maps its result into it in one place. Types only; no I/O. Invariants the producer keeps:
// - every time is epoch ms on the run's (virtual) clock;
// - money, prices and sizes are integer millionths (Micros, Price, Shares);
// - series are in time order (the metrics sort stably by time anyway, so ties keep input order).
import type { Micros, Price, Shares } from '../../core/money.js';

export interface ReportMarket {
  readonly tokenId: string;
  /**
   * A human name for the page: "question — outcome" when the recording's sidecar labels the token,
   * else the shortened market and token ids (shortId); untrusted text, escaped on output.
   */
  readonly name: string;
  /** The token's market (condition id), when known. */
  readonly conditionId?: string;
  /** The token's tick, for markouts in ticks. */
  readonly tickSize: Price;
}

export interface ReportFill {
  readonly timeMs: number;
  readonly tokenId: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: Price;
  readonly size: Shares;
  /** Fee paid on this fill (negative for a rebate). */
  readonly fee: Micros;
  /**
   * Collateral exchanged, fees excluded, when known exactly (the ledger's `notional`); absent:
   * price × size rounded against us (core/pnl.ts fillNotional), as the ledger defaults it.
   */
  readonly notional?: Micros;
  /** `maker` or `taker` when the venue said which (the ledger's liquidity); absent: unknown. */
  readonly liquidity?: string;
}

/** Marked-to-mid equity (capital + cash + inventory at mid) at the end of a cycle. */
export interface EquitySample {
  readonly timeMs: number;
  readonly equity: Micros;
}

/**
 * A token's net position (shares held) at the end of a cycle, or of `samples` consecutive cycles
 * from `timeMs` on that all held the same position (a run, so a long run of many tokens costs one
 * sample per change, not one per cycle and token). The run lasts until the token's next sample.
 */
export interface InventorySample {
  readonly timeMs: number;
  readonly tokenId: string;
  readonly shares: Shares;
  /** How many cycle samples this one stands for (absent: 1). */
  readonly samples?: number;
}

/** A token's mid at a cycle (not the core's MidSample, which is one token's recent mid series). */
export interface TokenMidSample {
  readonly timeMs: number;
  readonly tokenId: string;
  readonly mid: Price;
}

/** One cycle's quoting: of `tokens` quotable tokens, `quoted` had at least one live order. */
export interface UptimeSample {
  readonly timeMs: number;
  readonly quoted: number;
  readonly tokens: number;
}

export interface OrderTotals {
  readonly placed: number;
  readonly placedSize: Shares;
  /** Orders with at least one fill. */
  readonly filled: number;
  readonly filledSize: Shares;
}

/**
 * A market's resolution: from `timeMs` on, each share of its tokens pays its payout (the winner 1,
 * the others 0) and the positions close; a fill of its tokens after that is settled at once.
 */
export interface ReportResolution {
  readonly timeMs: number;
  readonly conditionId: string;
  readonly winnerTokenId: string;
  /** Every token of the market with its payout per share. */
  readonly payouts: ReadonlyArray<{ readonly tokenId: string; readonly payout: Price }>;
}

/** How the run was set up, shown on the page and kept in report.json as given. */
export interface ReportSettings {
  /** The config file as named on the command line. */
  readonly config: string;
  readonly recording: string;
  readonly strategy: string;
  /** The strategy's parameters as the config gives them (JSON data). */
  readonly params: unknown;
  readonly fillModel: string;
  /** Order-entry and cancel latency, e.g. "0 ms" or "place 50 ms, cancel 50 ms". */
  readonly latency: string;
  readonly cadence: string;
  readonly pollIntervalMs: number;
  readonly seed: number;
  /** The recording's depth (`full`, `L1`), from its sidecar; "full" when it has none. */
  readonly depth: string;
}

export interface ReportInput {
  readonly startMs: number;
  readonly endMs: number;
  /** The capital the run started with; Sharpe's daily returns are over it. */
  readonly capital: Micros;
  readonly markets: readonly ReportMarket[];
  readonly fills: readonly ReportFill[];
  readonly equity: readonly EquitySample[];
  readonly inventory: readonly InventorySample[];
  readonly mids: readonly TokenMidSample[];
  readonly uptime: readonly UptimeSample[];
  readonly orders: OrderTotals;
  /** Markets resolved during the run (absent: none). */
  readonly resolutions?: readonly ReportResolution[];
  /** The run's settings (absent: the report has no settings section). */
  readonly settings?: ReportSettings;
}

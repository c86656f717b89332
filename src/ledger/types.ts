// The ledger's public record types: what callers hand in and what they get back. Domain types only
// (branded integer millionths, epoch-millisecond times); no SQLite row shapes leak out of ledger.ts.
import type { TradeStatus } from '../core/account.js';
import type { Micros, Price, Shares } from '../core/money.js';
import type { OrderState } from '../core/order-lifecycle.js';
import type { PlacementResult, Side } from '../core/order.js';

export type { TradeStatus };

/** Free-form intent metadata kept with an order (JSON-serialisable scalars only). */
export type OrderMeta = Readonly<Record<string, string | number | boolean | null>>;

/** An order as signed, written before it is sent. */
export interface SignedOrderInput {
  /** The order id (EIP-712 digest), known before sending. */
  readonly id: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  /** GTC, GTD, FOK, FAK. */
  readonly orderType: string;
  readonly salt: string;
  readonly createdAtMs: number;
  /** The signed order as sent (lets a crashed daemon resend the very same order). */
  readonly signedJson?: string;
  /** Strategy that wanted it. */
  readonly strategy?: string;
  /** Id of the order this one replaces, if any. */
  readonly replaces?: string;
  readonly meta?: OrderMeta;
}

/** An order as the ledger holds it: what was signed, plus every state the ledger has seen. */
export interface LedgerOrder extends Pick<
  SignedOrderInput,
  'id' | 'tokenId' | 'conditionId' | 'side' | 'price' | 'size' | 'orderType' | 'salt' | 'createdAtMs'
> {
  readonly state: OrderState;
  readonly stateAtMs: number;
  /** Shares matched so far as the ledger knows (sum of the fills recorded against this order). */
  readonly sizeMatched: Shares;
  readonly makingAmount: number | null;
  readonly takingAmount: number | null;
  /** Last status string the exchange reported (placement or lookup). */
  readonly exchangeStatus: string | null;
  readonly errorMsg: string | null;
  readonly strategy: string | null;
  readonly replaces: string | null;
  readonly meta: OrderMeta | null;
  readonly signedJson: string | null;
}

export interface OrderEvent {
  readonly seq: number;
  readonly orderId: string;
  readonly atMs: number;
  readonly state: OrderState;
  readonly detail: string | null;
}

/**
 * An accepted placement as the ledger records it: the amounts of the exchange's answer (the core's
 * PlacementResult), its status as sent (the ledger parses it), and the fee and time of a match on
 * arrival, which the answer does not carry. Not a second PlacementResult: it is what the ledger
 * takes from one.
 */
export interface AcceptedPlacement extends Pick<PlacementResult, 'makingAmount' | 'takingAmount'> {
  /** Placement status: live, matched, delayed, unmatched (any case). */
  readonly status: string;
  /** Fee of the part matched on arrival, when known. */
  readonly feeMicros?: Micros;
  /** Time of the match; defaults to the ledger clock. */
  readonly timeMs?: number;
}

export interface LookupResult {
  /** Order-record status (LIVE, MATCHED, CANCELED, …, with or without ORDER_STATUS_), or NOT_FOUND for a 404. */
  readonly status: string;
  /** Cumulative shares matched per the exchange (originalSize's counterpart). */
  readonly sizeMatched: Shares;
  /** Price of a newly seen match; defaults to the order's limit price (a resting order fills there). */
  readonly price?: Price;
  readonly feeMicros?: Micros;
  readonly liquidity?: Liquidity;
  readonly timeMs?: number;
}

export interface LookupOutcome {
  readonly state: OrderState;
  /** Shares newly recorded as matched by this lookup (0 when nothing new). */
  readonly newlyMatched: Shares;
}

export type Liquidity = 'maker' | 'taker';
export type FillSource = 'placement' | 'lookup' | 'sim' | 'backtest' | 'trade';

export interface FillInput {
  /** Ledger order the fill belongs to, if any (a fill of a recorded order advances its sizeMatched). */
  readonly orderId?: string | null;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  readonly feeMicros: Micros;
  readonly liquidity: Liquidity;
  readonly timeMs: number;
  readonly source: FillSource;
  /** Unique key of this fill (an exchange trade id, or order id + cumulative matched size). */
  readonly dedupKey: string;
  /** Exact collateral exchanged, when known; defaults to price × size rounded against us. */
  readonly notional?: Micros;
}

export interface CumulativeMatchOptions {
  readonly price?: Price;
  /** Exact collateral of the increment, when known. */
  readonly notional?: Micros;
  readonly feeMicros?: Micros;
  readonly liquidity?: Liquidity;
  readonly timeMs?: number;
  readonly source?: FillSource;
}

export interface LedgerFill {
  readonly seq: number;
  readonly dedupKey: string;
  readonly orderId: string | null;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  readonly notional: Micros;
  readonly feeMicros: Micros;
  readonly liquidity: Liquidity;
  readonly source: FillSource;
  readonly timeMs: number;
  readonly recordedAtMs: number;
  readonly realizedDelta: Micros;
}

export interface LedgerPosition {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly size: Shares;
  /** Cost basis of the shares held. */
  readonly cost: Micros;
  /** Average cost per share, null when flat. */
  readonly avgPrice: Price | null;
  /** Realized PnL net of fees, resolutions included. */
  readonly realized: Micros;
  readonly fees: Micros;
  readonly bought: Shares;
  readonly sold: Shares;
  /**
   * The part of `size` (signed like it) from fills whose trade is not yet final: legs still
   * MATCHED, MINED or RETRYING, and order fills no trade leg has claimed yet. size − pendingSize
   * is confirmed; 0 once the market is resolved.
   */
  readonly pendingSize: Shares;
  readonly updatedAtMs: number;
}

export interface MarkedPosition {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly size: Shares;
  readonly cost: Micros;
  readonly mark: Price;
  /** size × mark, rounded down. */
  readonly value: Micros;
  readonly unrealized: Micros;
}

export interface MarkToMarket {
  readonly atMs: number;
  readonly positions: readonly MarkedPosition[];
  /** Sum over marked positions. */
  readonly unrealized: Micros;
  /** Realized PnL of every token ever traded (net of fees). */
  readonly realized: Micros;
  readonly fees: Micros;
  readonly total: Micros;
  /** Tokens held that had no mid: left out of `unrealized` (the caller decides what that means). */
  readonly unmarked: readonly string[];
}

export interface PnlSnapshot extends MarkToMarket {
  readonly seq: number;
}

export interface DailyPnl {
  /** UTC midnight the day starts at. */
  readonly dayStartMs: number;
  /** Realized PnL recorded since midnight (fills and resolutions, fees included). */
  readonly realized: Micros;
  /** Unrealized now minus unrealized at the baseline snapshot. */
  readonly unrealizedChange: Micros;
  readonly total: Micros;
  /** Time of the snapshot whose unrealized PnL is the baseline, or null (baseline 0). */
  readonly baselineAtMs: number | null;
  readonly unmarked: readonly string[];
}

/** One token's position closed by a resolution (a late fill's settlement is a row of its own). */
export interface Settlement {
  /** Record order of the settlement rows. */
  readonly seq: number;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly payout: Price;
  readonly size: Shares;
  readonly proceeds: Micros;
  readonly realizedDelta: Micros;
  readonly recordedAtMs: number;
}

/** A market's resolution as recorded: what each token pays, and when. */
export interface MarketResolution {
  readonly conditionId: string;
  /** The winning token, null for a general payout (settleMarket without a winner). */
  readonly winnerTokenId: string | null;
  /** [token, payout per share] for the tokens that pay; sorted by token id; any other token pays 0. */
  readonly payouts: ReadonlyArray<readonly [string, Price]>;
  /** When the market resolved (the exchange's or the recording's time; the clock when not given). */
  readonly resolvedAtMs: number;
  /** When the ledger recorded the resolution (its clock). */
  readonly recordedAtMs: number;
}

export interface CycleInput {
  readonly startedAtMs: number;
  readonly durationMs: number;
  readonly books: number;
  readonly quotes: number;
  readonly placed: number;
  readonly cancelled: number;
  readonly fills: number;
  readonly errors: number;
  /**
   * The cycle's expected reward score (Q_min of its accepted quotes, summed over markets) in share
   * millionths, a non-negative integer; absent: 0 (a caller that does not score).
   */
  readonly rewardScore?: number;
}

export interface CycleRecord extends CycleInput {
  readonly seq: number;
  readonly rewardScore: number;
}

export interface CycleHour {
  readonly hourMs: number;
  readonly cycles: number;
  readonly durationSumMs: number;
  readonly durationMaxMs: number;
  readonly books: number;
  readonly quotes: number;
  readonly placed: number;
  readonly cancelled: number;
  readonly fills: number;
  readonly errors: number;
  /** Σ of the hour's cycles' reward scores, share millionths (mean per cycle: rewardScore / cycles). */
  readonly rewardScore: number;
}

/** One of our legs of an exchange trade (GET /data/trades), as the trade feed hands it in. */
export interface TradeLegInput {
  readonly tradeId: string;
  /** Our order the leg belongs to (it must be in the ledger). */
  readonly orderId: string;
  readonly tokenId: string;
  /** null when the exchange's record leaves it out: the order's side. */
  readonly side: Side | null;
  /** The leg's price in its own token's terms. */
  readonly price: Price;
  readonly size: Shares;
  /** Fee of the whole leg (the trade's fee rate applied by the caller). */
  readonly feeMicros: Micros;
  readonly liquidity: Liquidity;
  readonly status: TradeStatus;
  readonly matchTimeMs: number;
  readonly lastUpdateMs: number;
}

export interface LedgerTradeLeg {
  readonly tradeId: string;
  readonly orderId: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  readonly feeMicros: Micros;
  readonly liquidity: Liquidity;
  readonly status: TradeStatus;
  readonly matchTimeMs: number;
  readonly lastUpdateMs: number;
  readonly recordedAtMs: number;
  readonly statusAtMs: number;
  /** Shares of the leg that order lookups had already recorded (no new position effect). */
  readonly claimedSize: Shares;
  /** Collateral and fee those earlier fills booked for the claimed shares. */
  readonly claimedNotional: Micros;
  readonly claimedFee: Micros;
  /** Seq of the fill (source 'trade') recorded for the rest of the leg; null when all was claimed. */
  readonly fillSeq: number | null;
  /** Seq of the reversal once the leg FAILED. */
  readonly reversalSeq: number | null;
}

/** A FAILED leg undone in the position: the opposite of what was booked for its shares. */
export interface FillReversal {
  readonly seq: number;
  readonly tradeId: string;
  readonly orderId: string;
  readonly tokenId: string;
  readonly conditionId: string;
  /** Side of the fills reversed (a reversed BUY takes shares out). */
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  /** Collateral given back (exactly what was booked for the shares). */
  readonly notional: Micros;
  /** Fee refunded. */
  readonly feeMicros: Micros;
  /** The last fill seq when it was applied (it comes after that fill in a replay). */
  readonly afterFillSeq: number;
  readonly timeMs: number;
  readonly recordedAtMs: number;
  readonly realizedDelta: Micros;
}

export type TradeLegResult =
  | 'recorded' // a new leg: claimed and/or a new fill, and its status applied
  | 'updated' // a known leg moved to another status
  | 'unchanged' // a known leg, same status
  | 'ignored' // a known leg already final and reported with another status: kept as it is
  | 'unknown-order'; // the ledger has no such order: nothing written

export interface TradeLegOutcome {
  readonly result: TradeLegResult;
  /** The leg as stored afterwards (null for unknown-order). */
  readonly leg: LedgerTradeLeg | null;
  /** Status before this call (null for a new leg). */
  readonly previousStatus: TradeStatus | null;
  /** The fill this call recorded (the unclaimed rest of a new leg), if any. */
  readonly fill: LedgerFill | null;
  /** The reversal this call applied (the leg FAILED now), if any. */
  readonly reversal: FillReversal | null;
}

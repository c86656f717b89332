// What a strategy sees: the snapshot the runtime hands it on each call (books, mids, positions,
// open orders in-flight included, free collateral, market settings incl. end date, game start
// and rewards, complements, recent mids), the read-only clock and the logger. Invariants: a
// context is data (the strategy reads it, never changes it); money in it is integer millionths;
// the clock offers no timers, since a strategy is called and never schedules.
import { midSeriesOfSamples, type Book, type MidSample, type MidSeries } from '../core/book.js';
import type { MarketSettings } from '../core/market-settings.js';
import type { Micros, Price, Shares } from '../core/money.js';
import type { LiveOrder, Side } from '../core/order.js';
import type { PlacementRejection } from '../core/quote.js';

/** The time, read-only: a strategy never sets timers (it is called; it does not schedule). */
export interface StrategyClock {
  now(): number;
  monotonic(): number;
}

export type LogFields = Readonly<Record<string, unknown>>;

export interface StrategyLogger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export const silentLogger: StrategyLogger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});

/** The pino-shaped logger the runtime holds (`logger.info(obj, msg)`). */
export interface PinoLike {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Adapts a pino logger (already redacting secrets) to what a strategy logs through. */
export function fromPino(logger: PinoLike): StrategyLogger {
  return {
    debug: (msg, fields) => logger.debug(fields ?? {}, msg),
    info: (msg, fields) => logger.info(fields ?? {}, msg),
    warn: (msg, fields) => logger.warn(fields ?? {}, msg),
    error: (msg, fields) => logger.error(fields ?? {}, msg),
  };
}

/**
 * The key of a token view's recent mids as columns (`MidSeries`), the same samples as
 * `recentMids` without making an object of each: the runtime's views carry it. Read it through
 * `midSeriesOf`, which falls back to `recentMids` for a view built by hand.
 */
export const MID_SERIES: unique symbol = Symbol('oddsmaker.midSeries');

/** One outcome token as a strategy sees it. */
export interface TokenView {
  readonly tokenId: string;
  readonly outcome: string;
  /** The other outcome of the binary market (its book is the mirror of this one); null if none. */
  readonly complementTokenId: string | null;
  readonly book: Book | null;
  /** When the book was received, our clock (epoch ms); null when there is none. */
  readonly bookAtMs: number | null;
  /** The midpoint the runtime uses (book mid, or the exchange's /midpoint); null when one-sided. */
  readonly mid: Price | null;
  /** Recent mids, oldest first, for volatility and drift estimates. */
  readonly recentMids: readonly MidSample[];
  /** The same samples as columns, when the view has them (see MID_SERIES). */
  readonly [MID_SERIES]?: MidSeries;
  /** Shares held. */
  readonly position: Shares;
  /** Our orders on this token, in-flight included. */
  readonly openOrders: readonly LiveOrder[];
}

/** A token's recent mids as columns: the view's own when it has them, else `recentMids` copied. */
export function midSeriesOf(t: TokenView): MidSeries {
  return t[MID_SERIES] ?? midSeriesOfSamples(t.recentMids);
}

/** Whether the token has any recent mid (read from the columns when the view has them: no copy). */
export function hasRecentMids(t: TokenView): boolean {
  const s = t[MID_SERIES];
  return s !== undefined ? s.end > s.start : t.recentMids.length > 0;
}

export interface MarketView {
  readonly conditionId: string;
  readonly settings: MarketSettings;
  /** The market's tokens this strategy runs on (both outcomes of a binary market, usually). */
  readonly tokens: readonly TokenView[];
}

/** What the runtime hands a runner on each call. */
export interface StrategyInput {
  /** Time of the snapshot, our clock (epoch ms). */
  readonly nowMs: number;
  readonly markets: readonly MarketView[];
  /** All our orders across these markets, in-flight included. */
  readonly openOrders: readonly LiveOrder[];
  /** Collateral not reserved by our resting bids. */
  readonly freeCollateral: Micros;
  /**
   * Why new placements are being held back by the order manager, or null: `fill-backlog` (fill
   * discovery is behind: quoting slows until it catches up) or `cancel-reserve` (more open orders
   * could not all be cancelled within the exchange's cancel budget). Quotes the strategy asks for
   * meanwhile are not placed; keeping fewer, longer-lived quotes helps.
   */
  readonly placementHold?: 'fill-backlog' | 'cancel-reserve' | null;
  /**
   * Placements the exchange refused in the previous cycle, with its reason. A post-only quote that
   * would have crossed (`postOnlyCross`) is not retried at its price before a cool-down: the book
   * moved through it, so the strategy should re-price rather than ask again.
   */
  readonly rejections?: readonly PlacementRejection[];
}

export interface StartContext<P> extends StrategyInput {
  readonly params: P;
  readonly clock: StrategyClock;
  readonly log: StrategyLogger;
}

export interface QuoteContext<P, S> extends StartContext<P> {
  readonly state: S;
}

/** A fill of one of our orders, as told to `onFill`. */
export interface StrategyFill {
  readonly orderId: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  readonly atMs: number;
  readonly tag?: string;
}

// Guards every strategy applies before quoting a pair (strategies/*/README.md, "Guards"): nothing
// on a closed market, a missing, stale or crossed book, or no mid; nothing from a configurable
// time before the market's end date or a game's start; and, when the book is thin or the mid
// moved faster than a threshold, either widen (a factor the strategy applies to its spread or
// margins) or pull. Invariants: the verdict depends only on the snapshot (`nowMs`, the views) and
// the params, never on a clock; a pull names its reason; "widen" is a factor ≥ 1, applied once
// even when both the thin-book and the fast-mid conditions hold. The tick is not a guard: a
// strategy reads the current tick from each book (tickOf), so a tick change is followed on the
// next quote and reconcile cancels orders left at prices off the quoted set.
import { z } from 'zod';
import { depthWithin, isCrossed, type MidSeries } from '../core/book.js';
import type { MarketSettings } from '../core/market-settings.js';
import { midSeriesOf } from './context.js';
import { windowMove } from './mid-range.js';
import type { ParamDoc } from './define.js';
import { externalBook, pairBook, pairBookAtMs, pairMid, pairMidsToken, type Pair } from './pair.js';
import { priceParam, sharesParam } from './params.js';

const ms = () => z.number().int().nonnegative();

/** Default guard values, in config units (prices and shares as decimals). */
export interface GuardDefaults {
  readonly maxBookAgeMs: number;
  readonly pullBeforeEndMs: number;
  readonly pullBeforeGameStartMs: number;
  readonly thinDepth: number;
  readonly thinDistance: number;
  readonly thinAction: 'widen' | 'pull';
  readonly maxMidMove: number;
  readonly midMoveWindowMs: number;
  readonly fastAction: 'widen' | 'pull';
  readonly widenFactor: number;
}

export const GUARD_DEFAULTS: GuardDefaults = Object.freeze({
  maxBookAgeMs: 10_000,
  pullBeforeEndMs: 3_600_000,
  pullBeforeGameStartMs: 300_000,
  thinDepth: 0,
  thinDistance: 0.02,
  thinAction: 'widen',
  maxMidMove: 0.05,
  midMoveWindowMs: 30_000,
  fastAction: 'pull',
  widenFactor: 2,
});

/** The guards' schema with some defaults changed (a strategy whose risks differ picks its own). */
export function guardParamsWith(over: Partial<GuardDefaults> = {}) {
  const d = { ...GUARD_DEFAULTS, ...over };
  return z
    .object({
      /** A book older than this (our clock) is stale: nothing is quoted on it. */
      maxBookAgeMs: ms().min(1).prefault(d.maxBookAgeMs),
      /** Pull this long before the market's end date (when it is known). */
      pullBeforeEndMs: ms().prefault(d.pullBeforeEndMs),
      /** Pull this long before a game's start time (when the market has one). */
      pullBeforeGameStartMs: ms().prefault(d.pullBeforeGameStartMs),
      /** Thin: fewer shares than this within `thinDistance` of the best price, on either side (0: off). */
      thinDepth: sharesParam().prefault(d.thinDepth),
      thinDistance: priceParam({ max: 0.5 }).prefault(d.thinDistance),
      thinAction: z.enum(['widen', 'pull']).prefault(d.thinAction),
      /** Fast: the mid moved more than this within `midMoveWindowMs` (0: off). */
      maxMidMove: priceParam({ max: 1 }).prefault(d.maxMidMove),
      midMoveWindowMs: ms().min(1).prefault(d.midMoveWindowMs),
      fastAction: z.enum(['widen', 'pull']).prefault(d.fastAction),
      /** Spread (or margin) multiplier when a condition says widen. */
      widenFactor: z.number().min(1).max(20).prefault(d.widenFactor),
    })
    .strict();
}

export const guardParams = guardParamsWith();

export type GuardParams = z.output<typeof guardParams>;

/** Rows of the guards' params, under `guards.`, for every strategy's parameter table. */
export const guardParamDocs: readonly ParamDoc[] = Object.freeze([
  { path: 'guards.maxBookAgeMs', unit: 'ms', description: 'a book older than this is stale: nothing is quoted on it' },
  {
    path: 'guards.pullBeforeEndMs',
    unit: 'ms',
    description: "pull this long before the market's end date, when known",
  },
  {
    path: 'guards.pullBeforeGameStartMs',
    unit: 'ms',
    description: "pull this long before a game's start time, when the market has one",
  },
  {
    path: 'guards.thinDepth',
    unit: 'shares',
    money: true,
    description:
      'thin book: fewer shares than this (ours excluded) within thinDistance of the best price on a side (0: off)',
  },
  {
    path: 'guards.thinDistance',
    unit: 'price',
    money: true,
    description: 'how far from the best price depth is counted',
  },
  { path: 'guards.thinAction', unit: 'widen | pull', description: 'what a thin book does' },
  {
    path: 'guards.maxMidMove',
    unit: 'price',
    money: true,
    description: 'fast mid: it moved more than this within midMoveWindowMs (0: off)',
  },
  { path: 'guards.midMoveWindowMs', unit: 'ms', description: 'window of the fast-mid check' },
  { path: 'guards.fastAction', unit: 'widen | pull', description: 'what a fast mid does' },
  { path: 'guards.widenFactor', unit: '×', description: 'spread or margin multiplier when a condition says widen' },
]);

export type PullReason =
  | 'market-closed'
  | 'end-date'
  | 'game-start'
  | 'no-book'
  | 'stale-book'
  | 'crossed-book'
  | 'no-mid'
  | 'thin-book'
  | 'fast-mid';

export type GuardVerdict =
  | { readonly kind: 'pull'; readonly reason: PullReason }
  | { readonly kind: 'quote'; readonly widen: number; readonly reasons: readonly ('thin-book' | 'fast-mid')[] };

/** Before the end date or a game's start, within the configured lead: the reason, else null. */
export function timeToPull(
  nowMs: number,
  s: MarketSettings,
  g: Pick<GuardParams, 'pullBeforeEndMs' | 'pullBeforeGameStartMs'>,
): 'end-date' | 'game-start' | null {
  if (s.endDateMs !== null && nowMs >= s.endDateMs - g.pullBeforeEndMs) return 'end-date';
  const game = s.gameStartMs ?? null;
  if (game !== null && nowMs >= game - g.pullBeforeGameStartMs) return 'game-start';
  return null;
}

/**
 * Largest |mid − earlier mid| over the samples of `series` within the window, millionths; with
 * `flip`, the series is the complement's and each sample counts as 1 − its mid.
 */
export function midMove(nowMs: number, mid: number, series: MidSeries, windowMs: number, flip = false): number {
  // The window's lowest and highest mids bound every |mid − earlier mid|; mid-range.ts keeps them
  // without a scan per question.
  return windowMove(series, nowMs - windowMs, windowMs, mid, flip);
}

/** The pair's midMove in primary terms, on the mids of its pairMidsToken (as pairRecentMids). */
export function pairMidMove(nowMs: number, mid: number, pair: Pair, windowMs: number): number {
  const t = pairMidsToken(pair);
  return midMove(nowMs, mid, midSeriesOf(t), windowMs, t !== pair.primary);
}

/** The guards' verdict on one pair (see the header). */
export function assessPair(nowMs: number, pair: Pair, g: GuardParams): GuardVerdict {
  const s = pair.market.settings;
  if (!s.acceptingOrders) return { kind: 'pull', reason: 'market-closed' };
  const when = timeToPull(nowMs, s, g);
  if (when !== null) return { kind: 'pull', reason: when };
  const book = pairBook(pair);
  const at = pairBookAtMs(pair);
  if (book === null || at === null) return { kind: 'pull', reason: 'no-book' };
  if (nowMs - at > g.maxBookAgeMs) return { kind: 'pull', reason: 'stale-book' };
  // Either token's book crossed (they should mirror each other) means the data cannot be trusted.
  if (isCrossed(book) || (pair.complement?.book != null && isCrossed(pair.complement.book)))
    return { kind: 'pull', reason: 'crossed-book' };
  const m = pairMid(pair);
  if (m === null) return { kind: 'pull', reason: 'no-mid' };

  const reasons: ('thin-book' | 'fast-mid')[] = [];
  if (g.maxMidMove > 0 && pairMidMove(nowMs, m, pair, g.midMoveWindowMs) > g.maxMidMove) {
    if (g.fastAction === 'pull') return { kind: 'pull', reason: 'fast-mid' };
    reasons.push('fast-mid');
  }
  if (g.thinDepth > 0) {
    const ext = externalBook(pair) ?? book;
    const bids = depthWithin(ext, 'bids', g.thinDistance, 'floor').shares;
    const asks = depthWithin(ext, 'asks', g.thinDistance, 'floor').shares;
    if (bids < g.thinDepth || asks < g.thinDepth) {
      if (g.thinAction === 'pull') return { kind: 'pull', reason: 'thin-book' };
      reasons.push('thin-book');
    }
  }
  return reasons.length > 0 ? { kind: 'quote', widen: g.widenFactor, reasons } : QUOTE_AS_IS;
}

/** The verdict of a pair no condition widens (one frozen object: most pairs, every cycle). */
const QUOTE_AS_IS: GuardVerdict = Object.freeze({ kind: 'quote', widen: 1, reasons: Object.freeze([]) });

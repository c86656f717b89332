// Risk: the checks between a strategy's desired quotes and reconcile (docs/ARCHITECTURE.md §3: a buggy
// strategy cannot break a limit). Pure: quotes + state + limits in, accepted quotes + dropped ones
// (each with a reason) + the next kill-switch state out; nothing global. Invariants kept:
// - every accepted quote is on its market's current tick, inside [tick, 1 − tick], at least the
//   minimum order size, a whole number of 0.01 shares, on a token whose data is fresh;
// - a token and its complement are one market: positions and quotes are netted into one
//   Yes-equivalent position n = q(Yes) − q(No). BUY Yes and SELL No push n up; BUY No and
//   SELL Yes push it down. A market's worst case is every quote of one direction filling, so
//   limits bound max(|up|, |down|) and its mark value, and the total bounds the sum over markets;
// - a quote that would leave a limit breached is dropped unless it makes that figure no worse
//   (quotes that reduce an over-limit position always pass);
// - quotes are taken in the order given: a strategy lists its most important quotes first, so
//   when a limit binds it is the outer ones that are dropped;
// - the kill switch trips when the day's PnL reaches −dailyLossLimit (or on an operator's trip),
//   then every quote is dropped (which pulls them all) until an operator clears it. After a clear
//   on a losing day, a further full limit of loss that day trips it again.
// Exposure is valued at the mark (mid) of the side held, rounded up; with no mark it is valued at
// 1 per share, the most a share can cost. Markets count toward the total when their tokens are in
// `state.tokens` (positions in other tokens are the caller's to include or not).
import { mulMicros, formatMicros, SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import type { DesiredQuote } from '../core/quote.js';
import { isOnTick } from '../core/tick.js';

export interface MarketLimits {
  /** Largest |worst-case net position| of a market, Yes-equivalent share millionths; null: none. */
  readonly maxPosition: Shares | null;
  /** Largest mark value of that worst-case position, collateral millionths; null: none. */
  readonly maxNotional: Micros | null;
}

export interface RiskLimits {
  /** Limits of every market unless overridden. */
  readonly market: MarketLimits;
  /** Overrides by condition id. */
  readonly perMarket?: ReadonlyMap<string, Partial<MarketLimits>>;
  /** Largest Σ over markets of their worst-case notional, collateral millionths; null: none. */
  readonly maxTotalExposure: Micros | null;
  /** Positive collateral millionths; the switch trips when the day's PnL ≤ −this. null: off. */
  readonly dailyLossLimit: Micros | null;
  /** Quotes on a token whose data is older than this are dropped (pulled). */
  readonly maxDataAgeMs: number;
}

/** What risk needs to know of a token. */
export interface TokenRiskInfo {
  readonly tokenId: string;
  /** Condition id of its market. */
  readonly marketId: string;
  /** The other outcome of a binary market; null when unknown or absent. */
  readonly complementTokenId: string | null;
  /** Current tick (the book's `tick_size`: it can change while the market trades). */
  readonly tickSize: Price;
  readonly minOrderSize: Shares;
  readonly acceptingOrders: boolean;
  /** Fair value of one share (the mid); null when unknown. */
  readonly mark: Price | null;
  /** When its market data was last refreshed, our clock (epoch ms); null: never. */
  readonly dataAtMs: number | null;
}

export interface KillSwitchState {
  readonly tripped: boolean;
  readonly trippedAtMs: number | null;
  readonly reason: string | null;
  /** Set by an operator's clear: from this day's PnL, a further full limit of loss is allowed. */
  readonly rearm: { readonly day: string; readonly pnl: Micros } | null;
}

export const KILL_SWITCH_ARMED: KillSwitchState = Object.freeze({
  tripped: false,
  trippedAtMs: null,
  reason: null,
  rearm: null,
});

export interface RiskState {
  readonly nowMs: number;
  readonly tokens: ReadonlyMap<string, TokenRiskInfo>;
  /** Signed shares per token (below 0 only while a SELL fill is recorded ahead of its BUY); a missing token holds none. */
  readonly positions: ReadonlyMap<string, Shares>;
  /**
   * Collateral our BUY quotes may use, including what our own resting orders reserve (the quotes
   * are the whole resting set); null: not checked.
   */
  readonly collateral: Micros | null;
  /** PnL of the current day (realised + unrealised), collateral millionths. */
  readonly dailyPnl: Micros;
  /** The day dailyPnl belongs to ("2026-01-01"): a clear's allowance lasts that day only. */
  readonly day: string;
  readonly killSwitch: KillSwitchState;
}

export type RiskReason =
  | 'kill-switch'
  | 'unknown-token'
  | 'stale-data'
  | 'market-closed'
  | 'bad-size'
  | 'off-tick'
  | 'price-out-of-range'
  | 'below-min-size'
  | 'insufficient-inventory'
  | 'insufficient-collateral'
  | 'max-position'
  | 'max-notional'
  | 'max-total-exposure';

export interface DroppedQuote {
  readonly quote: DesiredQuote;
  readonly reason: RiskReason;
  readonly detail: string;
}

export interface RiskResult {
  readonly accepted: readonly DesiredQuote[];
  readonly dropped: readonly DroppedQuote[];
  readonly killSwitch: KillSwitchState;
}

const SIZE_STEP = 10_000; // orders carry sizes in 0.01 shares (docs/protocol.md §3)

/** An operator's (or the daemon's) trip; a tripped switch keeps its first reason. */
export function tripKillSwitch(state: KillSwitchState, reason: string, nowMs: number): KillSwitchState {
  if (state.tripped) return state;
  return { tripped: true, trippedAtMs: nowMs, reason, rearm: state.rearm };
}

/** An operator's clear. Allows a further full limit of loss from the day's PnL at the clear. */
export function clearKillSwitch(at: { readonly day: string; readonly dailyPnl: Micros }): KillSwitchState {
  return { tripped: false, trippedAtMs: null, reason: null, rearm: { day: at.day, pnl: at.dailyPnl } };
}

/** The PnL at or below which the switch trips today; null when the loss limit is off. */
export function lossTripLevel(state: KillSwitchState, day: string, dailyLossLimit: Micros | null): number | null {
  if (dailyLossLimit === null) return null;
  const base = state.rearm !== null && state.rearm.day === day ? Math.min(0, state.rearm.pnl) : 0;
  return base - dailyLossLimit;
}

/** Trips the switch when the day's PnL has reached the loss limit; otherwise returns it as is. */
export function updateKillSwitch(
  state: KillSwitchState,
  s: Pick<RiskState, 'nowMs' | 'day' | 'dailyPnl'>,
  limits: Pick<RiskLimits, 'dailyLossLimit'>,
): KillSwitchState {
  if (state.tripped) return state;
  const level = lossTripLevel(state, s.day, limits.dailyLossLimit);
  if (level !== null && s.dailyPnl <= level) {
    return tripKillSwitch(state, `daily loss limit: PnL ${formatMicros(s.dailyPnl)} ≤ ${formatMicros(level)}`, s.nowMs);
  }
  return state;
}

interface MarketBook {
  /** The token n counts positively (the lexically smaller of the pair). */
  readonly yes: string;
  readonly no: string | null;
  up: number;
  down: number;
  readonly markYes: number;
  readonly markNo: number;
  readonly limits: MarketLimits;
}

export function checkRisk(quotes: readonly DesiredQuote[], state: RiskState, limits: RiskLimits): RiskResult {
  const killSwitch = updateKillSwitch(state.killSwitch, state, limits);
  const dropped: DroppedQuote[] = [];
  const drop = (quote: DesiredQuote, reason: RiskReason, detail: string): void => {
    dropped.push({ quote, reason, detail });
  };
  if (killSwitch.tripped) {
    for (const q of quotes) drop(q, 'kill-switch', killSwitch.reason ?? 'tripped');
    return { accepted: [], dropped, killSwitch };
  }

  // Every known market counts toward the total from the start, quoted or not.
  const markets = new Map<string, MarketBook>();
  let total = 0; // Σ market exposures, maintained incrementally
  for (const info of state.tokens.values()) {
    if (markets.has(info.marketId)) continue;
    const m = marketOf(info, state, limits, markets);
    total += exposure(m, m.up, m.down);
  }
  const sold = new Map<string, number>();
  let collateralUsed = 0;
  const accepted: DesiredQuote[] = [];

  for (const q of quotes) {
    const info = state.tokens.get(q.tokenId);
    if (info === undefined) {
      drop(q, 'unknown-token', `no market data for token ${q.tokenId}`);
      continue;
    }
    if (info.dataAtMs === null || state.nowMs - info.dataAtMs > limits.maxDataAgeMs) {
      drop(
        q,
        'stale-data',
        info.dataAtMs === null
          ? 'no market data yet'
          : `data ${state.nowMs - info.dataAtMs} ms old > ${limits.maxDataAgeMs} ms`,
      );
      continue;
    }
    if (!info.acceptingOrders) {
      drop(q, 'market-closed', `market ${info.marketId} is not accepting orders`);
      continue;
    }
    if (!Number.isSafeInteger(q.size) || q.size <= 0 || q.size % SIZE_STEP !== 0) {
      drop(q, 'bad-size', `size ${String(q.size)} is not a positive multiple of 0.01 share`);
      continue;
    }
    if (!Number.isSafeInteger(q.price) || !isOnTick(q.price, info.tickSize)) {
      drop(q, 'off-tick', `price ${fmt(q.price)} is not on tick ${formatMicros(info.tickSize)}`);
      continue;
    }
    if (q.price < info.tickSize || q.price > SCALE - info.tickSize) {
      drop(
        q,
        'price-out-of-range',
        `price ${formatMicros(q.price)} outside [${formatMicros(info.tickSize)}, ${formatMicros(SCALE - info.tickSize)}]`,
      );
      continue;
    }
    if (q.size < info.minOrderSize) {
      drop(q, 'below-min-size', `size ${formatMicros(q.size)} < minimum ${formatMicros(info.minOrderSize)}`);
      continue;
    }
    if (q.side === 'SELL') {
      const held = state.positions.get(q.tokenId) ?? 0;
      const after = (sold.get(q.tokenId) ?? 0) + q.size;
      if (after > held) {
        drop(q, 'insufficient-inventory', `selling ${formatMicros(after)} of ${formatMicros(held)} held`);
        continue;
      }
    }
    const cost = q.side === 'BUY' ? mulMicros(q.price, q.size, 'ceil') : 0;
    if (state.collateral !== null && collateralUsed + cost > state.collateral) {
      drop(
        q,
        'insufficient-collateral',
        `bids need ${formatMicros(collateralUsed + cost)} of ${formatMicros(state.collateral)}`,
      );
      continue;
    }

    const m = marketOf(info, state, limits, markets);
    const moveUp = (q.tokenId === m.yes) === (q.side === 'BUY');
    const before = moveUp ? m.up : m.down;
    const after = moveUp ? before + q.size : before - q.size;
    if (
      m.limits.maxPosition !== null &&
      Math.abs(after) > m.limits.maxPosition &&
      Math.abs(after) >= Math.abs(before)
    ) {
      drop(
        q,
        'max-position',
        `worst-case position ${formatMicros(Math.abs(after))} in ${info.marketId} beyond ${formatMicros(m.limits.maxPosition)}`,
      );
      continue;
    }
    const expBefore = exposure(m, m.up, m.down);
    const expAfter = moveUp ? exposure(m, after, m.down) : exposure(m, m.up, after);
    if (m.limits.maxNotional !== null && expAfter > m.limits.maxNotional && expAfter > expBefore) {
      drop(
        q,
        'max-notional',
        `worst-case notional ${formatMicros(expAfter)} in ${info.marketId} beyond ${formatMicros(m.limits.maxNotional)}`,
      );
      continue;
    }
    const totalAfter = total - expBefore + expAfter;
    if (limits.maxTotalExposure !== null && totalAfter > limits.maxTotalExposure && totalAfter > total) {
      drop(
        q,
        'max-total-exposure',
        `total exposure ${formatMicros(totalAfter)} beyond ${formatMicros(limits.maxTotalExposure)}`,
      );
      continue;
    }

    if (moveUp) m.up = after;
    else m.down = after;
    total = totalAfter;
    collateralUsed += cost;
    if (q.side === 'SELL') sold.set(q.tokenId, (sold.get(q.tokenId) ?? 0) + q.size);
    accepted.push(q);
  }
  return { accepted, dropped, killSwitch };
}

/**
 * Exposure of each market (condition id → collateral millionths) from positions alone, before
 * any quote: what `checkRisk` starts from (for reports and metrics).
 */
export function marketExposures(
  state: Pick<RiskState, 'tokens' | 'positions'>,
  limits: Pick<RiskLimits, 'market' | 'perMarket'>,
): Map<string, Micros> {
  const markets = new Map<string, MarketBook>();
  const out = new Map<string, Micros>();
  for (const info of state.tokens.values()) {
    const m = marketOf(info, state, limits, markets);
    out.set(info.marketId, exposure(m, m.up, m.down) as Micros);
  }
  return out;
}

/** The market book of a token, built on first use from positions and marks. */
function marketOf(
  info: TokenRiskInfo,
  state: Pick<RiskState, 'tokens' | 'positions'>,
  limits: Pick<RiskLimits, 'market' | 'perMarket'>,
  markets: Map<string, MarketBook>,
): MarketBook {
  const existing = markets.get(info.marketId);
  if (existing !== undefined) return existing;
  // The lexically smaller of the pair counts positively (string `<` is the default sort's order).
  const c = info.complementTokenId;
  const yes = c === null || info.tokenId < c ? info.tokenId : c;
  const no = c === null ? null : yes === info.tokenId ? c : info.tokenId;
  const n = (state.positions.get(yes) ?? 0) - (no === null ? 0 : (state.positions.get(no) ?? 0));
  const yesMark = state.tokens.get(yes)?.mark ?? null;
  const noMark = no === null ? null : (state.tokens.get(no)?.mark ?? null);
  const markYes = yesMark ?? (noMark !== null ? SCALE - noMark : SCALE);
  const markNo = noMark ?? (yesMark !== null ? SCALE - yesMark : SCALE);
  const o = limits.perMarket?.get(info.marketId);
  const m: MarketBook = {
    yes,
    no,
    up: n,
    down: n,
    markYes,
    markNo,
    limits: {
      maxPosition: o?.maxPosition !== undefined ? o.maxPosition : limits.market.maxPosition,
      maxNotional: o?.maxNotional !== undefined ? o.maxNotional : limits.market.maxNotional,
    },
  };
  markets.set(info.marketId, m);
  return m;
}

/** max over both directions of the mark value of the net position, rounded up. */
function exposure(m: MarketBook, up: number, down: number): number {
  return Math.max(positionValue(m, up), positionValue(m, down));
}

/** The mark value of a net position n of the market (n < 0: |n| of the NO side), rounded up. */
function positionValue(m: MarketBook, n: number): number {
  return n >= 0 ? mulMicros(n, m.markYes, 'ceil') : mulMicros(-n, m.markNo, 'ceil');
}

function fmt(v: number): string {
  return Number.isSafeInteger(v) ? formatMicros(v) : String(v);
}

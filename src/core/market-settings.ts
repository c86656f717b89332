// The trading settings of a market as quoting uses them (tick, minimum size, fees, rewards, end
// date), and how they are read from a market record. One definition: the market-data layer keeps
// them current, the strategy SDK shows them, risk checks quotes against them. Invariants: money
// is integer millionths; a value the record does not give is null (never zero or a guess); times
// are epoch ms. Pure; no I/O.
import type { FeeModel } from './fees.js';
import type { Market, Rewards } from './market.js';
import type { Price, Shares } from './money.js';

/** Trading settings of a market, as current as the last book (its tick can change). */
export interface MarketSettings {
  readonly conditionId: string;
  readonly question: string;
  readonly tickSize: Price;
  readonly minOrderSize: Shares;
  readonly negRisk: boolean;
  readonly acceptingOrders: boolean;
  /** When the market is expected to resolve (epoch ms); null when unknown. */
  readonly endDateMs: number | null;
  /**
   * Kick-off of a sports game (epoch ms), when the market is one; null or absent when unknown.
   * Optional so that settings built before it existed stay valid.
   */
  readonly gameStartMs?: number | null;
  /** Liquidity rewards (docs/protocol.md §6); null when the market pays none. */
  readonly rewards: Rewards | null;
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
  /**
   * The fee model fills are charged by (src/core/fees.ts `fillFee`), when the exchange charges by
   * other fields than the base fees (the public exchange's `fd`); null: not known exactly;
   * absent: the base fees above.
   */
  readonly fees?: FeeModel | null;
}

/** Settings of a market record (GET /markets); the runtime updates tick and minimum from books. */
export function settingsFromMarket(m: Market): MarketSettings {
  const end = m.endDateIso === null ? Number.NaN : Date.parse(m.endDateIso);
  const game = m.gameStartTime === null ? Number.NaN : Date.parse(m.gameStartTime);
  return {
    conditionId: m.conditionId,
    question: m.question,
    tickSize: m.tickSize,
    minOrderSize: m.minOrderSize,
    negRisk: m.negRisk,
    acceptingOrders: m.acceptingOrders && m.active && !m.closed,
    endDateMs: Number.isFinite(end) ? end : null,
    gameStartMs: Number.isFinite(game) ? game : null,
    rewards: m.rewards.rates.length > 0 && m.rewards.dailyRate > 0 ? m.rewards : null,
    makerBaseFeeBps: m.makerBaseFeeBps,
    takerBaseFeeBps: m.takerBaseFeeBps,
  };
}

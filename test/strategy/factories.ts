// Factories for strategy tests: fixture books and market records parsed by the real parsers, and
// the views a runner receives built around them.
import type { Book } from '../../src/core/book.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { LiveOrder } from '../../src/core/order.js';
import { parseBook } from '../../src/exchange/parse/book.js';
import { parseMarket } from '../../src/exchange/parse/markets.js';
import {
  settingsFromMarket,
  midOf,
  type MarketSettings,
  type MarketView,
  type StrategyInput,
  type TokenView,
} from '../../src/strategy/sdk.js';
import { realJson } from '../support/fixtures.js';

export const SH = 1_000_000;
export const NOW = Date.UTC(2026, 0, 1, 12);

/** A real payload of test/fixtures/real/. */
export function fixture(name: string): unknown {
  return realJson(name);
}

export function fixtureBook(name: string): Book {
  return parseBook(fixture(name), name);
}

/** Settings of the "Trump wins 2024" record (tick 0.001, minimum 5, rewards 750/day). */
export function trumpSettings(): MarketSettings {
  return settingsFromMarket(parseMarket(fixture('clob_rest_market_single.json')));
}

export function settings(over: Partial<MarketSettings> = {}): MarketSettings {
  return {
    conditionId: '0xmarket',
    question: 'test market',
    tickSize: 10_000 as Price,
    minOrderSize: (5 * SH) as Shares,
    negRisk: false,
    acceptingOrders: true,
    endDateMs: null,
    rewards: null,
    makerBaseFeeBps: 0,
    takerBaseFeeBps: 0,
    ...over,
  };
}

export function tokenView(
  book: Book | null,
  over: Partial<Omit<TokenView, 'position'>> & { position?: number } = {},
): TokenView {
  const { position, ...rest } = over;
  const base: TokenView = {
    tokenId: book?.assetId ?? 'token',
    outcome: 'Yes',
    complementTokenId: null,
    book,
    bookAtMs: book === null ? null : NOW,
    mid: null,
    recentMids: [],
    position: Math.round((position ?? 0) * SH) as Shares,
    openOrders: [],
  };
  const t = { ...base, ...rest };
  return { ...t, mid: rest.mid !== undefined ? rest.mid : midOf(t) };
}

export function marketView(s: MarketSettings, tokens: readonly TokenView[]): MarketView {
  return { conditionId: s.conditionId, settings: s, tokens };
}

export function input(
  markets: readonly MarketView[],
  openOrders: readonly LiveOrder[] = [],
  freeCollateral = 1_000 * SH,
): StrategyInput {
  return { nowMs: NOW, markets, openOrders, freeCollateral: freeCollateral as Micros };
}

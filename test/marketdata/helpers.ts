// Factories for the market-data and runtime tests: universe markets, settings, books.
import { makeBook, type Book } from '../../src/core/book.js';
import type { MarketSettings } from '../../src/core/market-settings.js';
import type { Price, Shares } from '../../src/core/money.js';
import type { UniverseMarket } from '../../src/marketdata/types.js';

export const SH = 1_000_000;
export const T0 = Date.UTC(2026, 0, 5, 12);

export function settings(conditionId: string, over: Partial<MarketSettings> = {}): MarketSettings {
  return {
    conditionId,
    question: `Q ${conditionId}`,
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

/** A binary market `id` with tokens `id-yes` and `id-no`, each the other's complement. */
export function binary(id: string, over: Partial<MarketSettings> = {}): UniverseMarket {
  const yes = `${id}-yes`;
  const no = `${id}-no`;
  return {
    conditionId: id,
    settings: settings(id, over),
    tokens: [
      { tokenId: yes, outcome: 'Yes', complementTokenId: no },
      { tokenId: no, outcome: 'No', complementTokenId: yes },
    ],
  };
}

/** A two-sided book around `mid` (millionths) on `tick`. */
export function bookAround(
  market: string,
  assetId: string,
  mid: number,
  opts: { tick?: number; min?: number; ts?: number } = {},
): Book {
  const tick = opts.tick ?? 10_000;
  return makeBook({
    market,
    assetId,
    timestampMs: opts.ts ?? T0,
    bids: [
      { price: (mid - tick) as Price, size: (100 * SH) as Shares },
      { price: (mid - 2 * tick) as Price, size: (50 * SH) as Shares },
    ],
    asks: [
      { price: (mid + tick) as Price, size: (100 * SH) as Shares },
      { price: (mid + 2 * tick) as Price, size: (50 * SH) as Shares },
    ],
    tickSize: tick as Price,
    minOrderSize: ((opts.min ?? 5) * SH) as Shares,
  });
}

// The MarketDataPort of a backtest: answers the daemon's polls from the recording as of the virtual
// time. The engine applies recording events in order (apply); a poll then sees, per token, the last
// book the recording showed, mids computed from those books, and market settings assembled from the
// recording's SETTINGS records (the values it leaves unknown take the engine's stated defaults).
// Invariants kept:
// - nothing here reads a clock: "as of the virtual time" is "every event applied so far", and the
//   engine applies an event only once the clock has reached its local timestamp;
// - a market is served only when the recording names two tokens for it (the venue simulates binary
//   markets); the outcome order is the order the tokens first appeared;
// - no sampling markets: a backtest's universe is explicit (the engine names the recording's markets);
// - a recording stores changes, so between two changes the book is unchanged: a poll at virtual
//   time t is answered with the book as of t, stamped t (the time the injected clock reads), as the
//   exchange stamps a served book with the time it serves it. The venue is fed the recorded stamps.
import type { Book } from '../core/book.js';
import type { Clock } from '../core/clock.js';
import type { ClobMarketSettings, SamplingMarket } from '../core/market.js';
import { SCALE, type Micros, type Price, type Shares } from '../core/money.js';
import { ExchangeHttpError } from '../exchange/errors.js';
import type { MarketDataPort } from '../exchange/gateway.js';
import type { RecordedMarketSettings } from '../marketdata/recording/format.js';
import type { RecordedDefaults } from './types.js';

/** Settings rebuilt from a recording: every value the recording format carries is set. */
export type RecordedClobSettings = ClobMarketSettings & {
  readonly tickSize: Price;
  readonly minOrderSize: Shares;
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
};

export const DEFAULT_RECORDED: RecordedDefaults = Object.freeze({
  tickSize: 0.01,
  minOrderSize: 0,
  makerFeeBps: 0,
  takerFeeBps: 0,
});

interface MarketEntry {
  readonly tokens: string[];
  readonly settings: Map<string, RecordedMarketSettings>;
}

/** Half the best bid plus best ask, floored to a millionth; null when a side is empty (a price < 0). */
export function midOf(bid: number, ask: number): Price | null {
  return bid < 0 || ask < 0 ? null : (Math.floor((bid + ask) / 2) as Price);
}

/** The YES-or-NO mid of a book (midOf its best levels); null when one-sided. */
export function bookMid(b: Book): Price | null {
  return midOf(b.bids[0]?.price ?? -1, b.asks[0]?.price ?? -1);
}

export class RecordedMarketData implements MarketDataPort {
  private readonly books = new Map<string, Book>();
  private readonly markets = new Map<string, MarketEntry>();
  private readonly marketOfToken = new Map<string, string>();
  private readonly defaults: RecordedDefaults;
  /** Stamps served books; null: served with their recorded stamps. */
  clock: Clock | null = null;

  constructor(defaults: Partial<RecordedDefaults> = {}) {
    this.defaults = { ...DEFAULT_RECORDED, ...defaults };
  }

  /** A token's settings record (new or updated). */
  applySettings(s: RecordedMarketSettings): void {
    let m = this.markets.get(s.conditionId);
    if (m === undefined) {
      m = { tokens: [], settings: new Map() };
      this.markets.set(s.conditionId, m);
    }
    if (!m.settings.has(s.tokenId)) m.tokens.push(s.tokenId);
    m.settings.set(s.tokenId, s);
    this.marketOfToken.set(s.tokenId, s.conditionId);
  }

  /** A token's book as the recording now shows it. */
  applyBook(b: Book): void {
    this.books.set(b.assetId, b);
  }

  hasBooks(): boolean {
    return this.books.size > 0;
  }

  book(tokenId: string): Book | undefined {
    return this.books.get(tokenId);
  }

  conditionOf(tokenId: string): string | undefined {
    return this.marketOfToken.get(tokenId);
  }

  /** Markets with two recorded tokens, in the order first seen. */
  conditionIds(): string[] {
    const out: string[] = [];
    for (const [cid, m] of this.markets) if (m.tokens.length === 2) out.push(cid);
    return out;
  }

  /** The exchange-shaped settings of a market, or null when the recording does not name two tokens. */
  settingsOf(conditionId: string): RecordedClobSettings | null {
    const m = this.markets.get(conditionId);
    if (m === undefined || m.tokens.length !== 2) return null;
    const ss = m.tokens.map((t) => m.settings.get(t) as RecordedMarketSettings);
    const first = <T>(f: (s: RecordedMarketSettings) => T | null): T | null => {
      for (const s of ss) {
        const v = f(s);
        if (v !== null) return v;
      }
      return null;
    };
    const rewards = first((s) => s.rewards);
    return {
      conditionId,
      gameStartTime: null,
      rewards:
        rewards === null
          ? { rates: [], dailyRate: 0 as Micros, minSize: 0 as Shares, maxSpreadCents: 0, maxSpread: 0 as Price }
          : {
              rates: [],
              dailyRate: rewards.dailyRate,
              minSize: rewards.minSize,
              maxSpreadCents: rewards.maxSpread / 10_000,
              maxSpread: rewards.maxSpread,
            },
      rewardConfig: null,
      negRisk: first((s) => s.negRisk) ?? false,
      tokens: m.tokens.map((tokenId, i) => ({ tokenId, outcome: i === 0 ? 'Yes' : 'No' })),
      tickSize: (first((s) => s.tickSize) ?? Math.round(this.defaults.tickSize * SCALE)) as Price,
      minOrderSize: (first((s) => s.minOrderSize) ?? Math.round(this.defaults.minOrderSize * SCALE)) as Shares,
      feeDetails: { r: 0, e: 0, to: false },
      makerBaseFeeBps: first((s) => s.makerFeeBps) ?? this.defaults.makerFeeBps,
      takerBaseFeeBps: first((s) => s.takerFeeBps) ?? this.defaults.takerFeeBps,
      acceptingOrders: null,
      rfqe: false,
      itode: false,
      ibce: false,
      oas: 0,
    };
  }

  // ------------------------------------------------------------------------------- the port

  getBooks(tokenIds: readonly string[]): Promise<Book[]> {
    const out: Book[] = [];
    const now = this.clock === null ? Number.NEGATIVE_INFINITY : this.clock.now();
    for (const t of tokenIds) {
      const b = this.books.get(t);
      if (b !== undefined) out.push(b.timestampMs !== null && b.timestampMs >= now ? b : { ...b, timestampMs: now });
    }
    return Promise.resolve(out);
  }

  getMidpoints(tokenIds: readonly string[]): Promise<Map<string, Price>> {
    const out = new Map<string, Price>();
    for (const t of tokenIds) {
      const b = this.books.get(t);
      const mid = b === undefined ? null : bookMid(b);
      if (mid !== null) out.set(t, mid);
    }
    return Promise.resolve(out);
  }

  async *samplingMarkets(): AsyncIterable<SamplingMarket> {
    // A backtest's universe is the recording's markets, named explicitly in the config.
  }

  getMarketSettings(conditionId: string): Promise<ClobMarketSettings> {
    const s = this.settingsOf(conditionId);
    if (s === null) {
      const route = 'GET /clob-markets/{condition_id}';
      return Promise.reject(
        new ExchangeHttpError({
          code: 'EXCHANGE_NOT_FOUND',
          route,
          status: 404,
          message: `${route}: 404: market ${conditionId} not in the recording`,
          retryable: false,
          exchangeMessage: 'market not found',
        }),
      );
    }
    return Promise.resolve(s);
  }
}

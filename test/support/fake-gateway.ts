// An in-memory, deterministic market-data venue for the market-data and runtime tests and the
// cycle benchmark (fake-venue.ts adds order entry to it: the one fake venue of the tests). It serves books and mids per token (a symmetric ladder around each token's
// mid, on the market's tick), sampling-market listings in pages, and per-market settings; the
// listing and the settings go through the real wire parsers (their records are built as wire
// JSON from the real market record in test/fixtures/real/). Latency is simulated on the
// injected clock, failures are scripted, and every call is recorded. Like the real client, token
// lists are split into batches of at most 500 per request.
import type { Book, Level } from '../../src/core/book.js';
import type { Clock } from '../../src/core/clock.js';
import { OddsmakerError } from '../../src/core/errors.js';
import type { ClobMarketSettings, SamplingMarket } from '../../src/core/market.js';
import { SCALE, type Price, type Shares } from '../../src/core/money.js';
import type { MarketDataPort } from '../../src/exchange/gateway.js';
import { parseClobMarketSettings, parseSamplingMarket } from '../../src/exchange/parse/markets.js';
import { realJson } from './fixtures.js';

export const MAX_BATCH = 500;

export interface FakeMarketSpec {
  conditionId: string;
  question?: string;
  /** Token ids; outcomes Yes/No for two. */
  tokens?: readonly string[];
  tickSize?: number;
  minOrderSize?: number;
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  acceptingOrders?: boolean;
  enableOrderBook?: boolean;
  tags?: readonly string[];
  /** Daily reward rate in collateral units; 0: no rewards. */
  rewardsDaily?: number;
  negRisk?: boolean;
  makerBaseFeeBps?: number;
  takerBaseFeeBps?: number;
}

interface FakeMarket extends Required<Omit<FakeMarketSpec, 'tokens'>> {
  tokens: readonly string[];
}

export class FakeGatewayError extends OddsmakerError {
  constructor(code: string, message: string) {
    super(code, message, true);
  }
}

export class FakeGateway implements MarketDataPort {
  readonly kind = 'fake';
  /** Simulated latency of every call, on the clock. */
  latencyMs = 0;
  /** Sampling records per page. */
  pageSize = 100;
  /** Record every call's token list (off: a long benchmark run). */
  recordCalls = true;
  readonly calls = { books: [] as string[][], mids: [] as string[][], settings: [] as string[], samplingPages: 0 };
  protected readonly markets = new Map<string, FakeMarket>();
  protected readonly marketOfToken = new Map<string, string>();
  private readonly mids = new Map<string, Price>();
  private readonly overrides = new Map<string, Book>();
  private readonly ladders = new Map<string, { bids: Level[]; asks: Level[] }>();
  private failures = { books: 0, mids: 0, settings: 0, sampling: 0 };
  private readonly template: Record<string, unknown>;

  constructor(protected readonly clock: Clock) {
    this.template = realJson('clob_rest_market_single.json') as Record<string, unknown>;
  }

  addMarket(spec: FakeMarketSpec): void {
    const tokens = spec.tokens ?? [`${spec.conditionId}-yes`, `${spec.conditionId}-no`];
    const m: FakeMarket = {
      conditionId: spec.conditionId,
      question: spec.question ?? `Question of ${spec.conditionId}?`,
      tokens,
      tickSize: spec.tickSize ?? 0.01,
      minOrderSize: spec.minOrderSize ?? 5,
      active: spec.active ?? true,
      closed: spec.closed ?? false,
      archived: spec.archived ?? false,
      acceptingOrders: spec.acceptingOrders ?? true,
      enableOrderBook: spec.enableOrderBook ?? true,
      tags: spec.tags ?? [],
      rewardsDaily: spec.rewardsDaily ?? 0,
      negRisk: spec.negRisk ?? false,
      makerBaseFeeBps: spec.makerBaseFeeBps ?? 0,
      takerBaseFeeBps: spec.takerBaseFeeBps ?? 0,
    };
    this.markets.set(m.conditionId, m);
    for (const t of tokens) {
      this.marketOfToken.set(t, m.conditionId);
      if (!this.mids.has(t)) this.mids.set(t, 500_000 as Price);
      this.ladders.delete(t);
    }
  }

  removeMarket(conditionId: string): void {
    const m = this.markets.get(conditionId);
    if (m === undefined) return;
    this.markets.delete(conditionId);
    for (const t of m.tokens) {
      this.marketOfToken.delete(t);
      this.ladders.delete(t);
      this.overrides.delete(t);
    }
  }

  /** Sets a token's mid (millionths, on the market's tick); its ladder follows. */
  setMid(tokenId: string, mid: number): void {
    this.mids.set(tokenId, mid as Price);
    this.ladders.delete(tokenId);
  }

  /** Sets the first token's mid and the complement's to 1 − mid. */
  setMarketMid(conditionId: string, mid: number): void {
    const m = this.mustMarket(conditionId);
    this.setMid(m.tokens[0] as string, mid);
    if (m.tokens[1] !== undefined) this.setMid(m.tokens[1], SCALE - mid);
  }

  /** Changes a market's tick (books carry it from now on, as the exchange's do). */
  setTick(conditionId: string, tick: number): void {
    const m = this.mustMarket(conditionId);
    m.tickSize = tick;
    for (const t of m.tokens) this.ladders.delete(t);
  }

  /** Serves this exact book for its token (e.g. a real recorded one) until cleared. */
  setBook(book: Book): void {
    this.overrides.set(book.assetId, book);
  }

  /** The next n calls of a kind fail with a retryable error. */
  failNext(kind: 'books' | 'mids' | 'settings' | 'sampling', n = 1): void {
    this.failures[kind] += n;
  }

  async getBooks(tokenIds: readonly string[], signal?: AbortSignal): Promise<Book[]> {
    const out: Book[] = [];
    for (let i = 0; i < tokenIds.length; i += MAX_BATCH) {
      const chunk = tokenIds.slice(i, i + MAX_BATCH);
      if (this.recordCalls) this.calls.books.push(chunk);
      await this.delay(signal);
      this.maybeFail('books');
      for (const id of chunk) {
        const b = this.book(id);
        if (b !== null) out.push(b);
      }
    }
    return out;
  }

  async getMidpoints(tokenIds: readonly string[], signal?: AbortSignal): Promise<Map<string, Price>> {
    const out = new Map<string, Price>();
    for (let i = 0; i < tokenIds.length; i += MAX_BATCH) {
      const chunk = tokenIds.slice(i, i + MAX_BATCH);
      if (this.recordCalls) this.calls.mids.push(chunk);
      await this.delay(signal);
      this.maybeFail('mids');
      for (const id of chunk) {
        const o = this.overrides.get(id);
        if (o !== undefined) {
          const b = o.bids[0];
          const a = o.asks[0];
          if (b !== undefined && a !== undefined && (b.price + a.price) % 2 === 0)
            out.set(id, ((b.price + a.price) / 2) as Price);
          continue;
        }
        const mid = this.mids.get(id);
        if (mid !== undefined && this.marketOfToken.has(id)) out.set(id, mid);
      }
    }
    return out;
  }

  async *samplingMarkets(signal?: AbortSignal): AsyncIterable<SamplingMarket> {
    const all = [...this.markets.values()];
    for (let i = 0; i < all.length || i === 0; i += this.pageSize) {
      this.calls.samplingPages++;
      await this.delay(signal);
      this.maybeFail('sampling');
      for (const m of all.slice(i, i + this.pageSize))
        yield parseSamplingMarket(this.samplingWire(m), `fake[${m.conditionId}]`);
      if (all.length === 0) return;
    }
  }

  async getMarketSettings(conditionId: string, signal?: AbortSignal): Promise<ClobMarketSettings> {
    if (this.recordCalls) this.calls.settings.push(conditionId);
    await this.delay(signal);
    this.maybeFail('settings');
    const m = this.markets.get(conditionId);
    if (m === undefined) throw new FakeGatewayError('EXCHANGE_NOT_FOUND', `market ${conditionId} not found`);
    return parseClobMarketSettings(this.settingsWire(m), 'fake');
  }

  async close(): Promise<void> {
    /* nothing to release */
  }

  private mustMarket(id: string): FakeMarket {
    const m = this.markets.get(id);
    if (m === undefined) throw new Error(`fake gateway: no market ${id}`);
    return m;
  }

  private book(tokenId: string): Book | null {
    const now = this.clock.now();
    const o = this.overrides.get(tokenId);
    if (o !== undefined) return { ...o, timestampMs: now };
    const cid = this.marketOfToken.get(tokenId);
    if (cid === undefined) return null;
    const m = this.mustMarket(cid);
    const tick = Math.round(m.tickSize * SCALE) as Price;
    let ladder = this.ladders.get(tokenId);
    if (ladder === undefined) {
      const mid = this.mids.get(tokenId) ?? (500_000 as Price);
      ladder = { bids: [], asks: [] };
      for (let i = 1; i <= 5; i++) {
        const b = mid - i * tick;
        const a = mid + i * tick;
        if (b > 0) ladder.bids.push({ price: b as Price, size: (100 * SCALE) as Shares });
        if (a < SCALE) ladder.asks.push({ price: a as Price, size: (100 * SCALE) as Shares });
      }
      // Built best-first (bids descending, asks ascending), as the Book invariant wants.
      this.ladders.set(tokenId, ladder);
    }
    return {
      market: cid,
      assetId: tokenId,
      timestampMs: now,
      hash: '',
      bids: ladder.bids,
      asks: ladder.asks,
      minOrderSize: Math.round(m.minOrderSize * SCALE) as Shares,
      tickSize: tick,
      negRisk: m.negRisk,
      lastTradePrice: null,
    };
  }

  protected async delay(signal?: AbortSignal): Promise<void> {
    if (this.latencyMs > 0) await this.clock.sleep(this.latencyMs, signal);
    else if (signal?.aborted === true) throw signal.reason;
  }

  private maybeFail(kind: keyof FakeGateway['failures']): void {
    if (this.failures[kind] > 0) {
      this.failures[kind]--;
      throw new FakeGatewayError('EXCHANGE_SERVER_ERROR', `fake ${kind} failure`);
    }
  }

  private rewardsWire(m: FakeMarket): Record<string, unknown> {
    return m.rewardsDaily > 0
      ? {
          rates: [{ asset_address: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174', rewards_daily_rate: m.rewardsDaily }],
          min_size: 50,
          max_spread: 3.5,
        }
      : { rates: null, min_size: 0, max_spread: 0 };
  }

  /** A sampling record: the real market record with this market's values laid over it. */
  private samplingWire(m: FakeMarket): Record<string, unknown> {
    const outcomes = m.tokens.length === 2 ? ['Yes', 'No'] : m.tokens.map((_, i) => `Outcome ${i}`);
    return {
      ...this.template,
      condition_id: m.conditionId,
      question: m.question,
      active: m.active,
      closed: m.closed,
      archived: m.archived,
      accepting_orders: m.acceptingOrders,
      enable_order_book: m.enableOrderBook,
      minimum_tick_size: m.tickSize,
      minimum_order_size: m.minOrderSize,
      neg_risk: m.negRisk,
      maker_base_fee: m.makerBaseFeeBps,
      taker_base_fee: m.takerBaseFeeBps,
      tags: m.tags,
      rewards: this.rewardsWire(m),
      // The wire sends the indicative price as a JSON number.
      tokens: m.tokens.map((t, i) => ({
        token_id: t,
        outcome: outcomes[i],
        price: (this.mids.get(t) ?? 0) / SCALE,
        winner: false,
      })),
      status: m.active ? 'active' : 'inactive',
      market_id: 1,
      slug: m.conditionId,
      assets_ids: m.tokens,
      outcomes,
      event: { id: '1', slug: 'event', title: 'Event', ticker: 'EVT', description: '' },
      raw_metadata: {},
    };
  }

  private settingsWire(m: FakeMarket): Record<string, unknown> {
    const outcomes = m.tokens.length === 2 ? ['Yes', 'No'] : m.tokens.map((_, i) => `Outcome ${i}`);
    return {
      gst: null,
      r: this.rewardsWire(m),
      c: m.conditionId,
      nr: m.negRisk,
      t: m.tokens.map((t, i) => ({ t, o: outcomes[i] })),
      mts: m.tickSize,
      mos: m.minOrderSize,
      fd: { r: 0, e: 0, to: false },
      mbf: m.makerBaseFeeBps,
      tbf: m.takerBaseFeeBps,
      rfqe: false,
      itode: false,
      ibce: false,
      oas: 0,
    };
  }
}

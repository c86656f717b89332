// PaperGateway: the ExchangeGateway port (src/exchange/gateway.ts) of paper mode. Market data comes
// from an inner MarketDataPort (the live HttpGateway in paper mode, recorded books in a backtest, a
// fake in tests) and is returned untouched; every book it returns is also fed to the PaperVenue,
// so our paper orders fill against the polled books and their changes. Orders, cancels, lookups
// and positions are answered by the venue, in the shapes the HTTP gateway returns.
//
// Invariants kept:
// - a market is known to the venue before any order or book of it is applied: an unknown token's
//   market settings are fetched (GET /clob-markets through the inner port) first, once at a time
//   per market; a market the exchange does not know or the venue cannot simulate is not asked
//   again for `settingsRetryMs`. Books of a market whose settings cannot be had are returned but
//   not fed (market data keeps flowing);
// - POST /orders behaves as the exchange's: 1 to 15 submissions (else ClientValidationError, as
//   the HTTP client throws before sending); request-level problems (malformed submission, a
//   conditionId that does not name the token's market, an EOA order whose maker is not its
//   signer) throw a 400 ExchangeHttpError `Invalid order payload` before anything is applied;
//   per-order rejections are results with docs/protocol.md §4's errorMsg; submissions are applied in
//   order. An accepted order's id is the EIP-712 digest of the signed order in the dialect's
//   domain (the market's neg-risk contract), exactly the id the order manager computed;
// - a matched placement reports makingAmount / takingAmount as the exchange does (what the order
//   gave and got on arrival, fees excluded: BUY collateral/shares, SELL shares/collateral); a
//   resting one reports none (null, the wire's `""`);
// - no signature or API key is verified (paper mode has no credentials to check against);
// - an aborted signal fails the call before it acts (EXCHANGE_ABORTED), a closed gateway every call
//   (EXCHANGE_CLOSED), as the HTTP transport does.
import type { Book } from '../../core/book.js';
import type { Clock } from '../../core/clock.js';
import { OddsmakerError, ParseError } from '../../core/errors.js';
import type { CancelResult, ClobMarketSettings, OrderRecord, Position, SamplingMarket } from '../../core/market.js';
import type { Micros, Price } from '../../core/money.js';
import { MAX_ORDERS_PER_BATCH, type PlacementResult, type OrderType } from '../../core/order.js';
import { ROUTES } from '../../exchange/client/routes.js';
import type { Dialect } from '../../exchange/dialect.js';
import { ClientValidationError, ExchangeHttpError, ExchangeTransportError } from '../../exchange/errors.js';
import type { ExchangeGateway, MarketDataPort, WritePriority } from '../../exchange/gateway.js';
import { parseWireOrder, wireOrderId } from '../../exchange/signing/index.js';
import type { WireOrderSubmission } from '../../exchange/wire.js';
import { MSG_INVALID_ORDER, priceSizeFromAmounts, type SubmitResult } from '../engine/index.js';
import { PaperError } from './errors.js';
import { paperMarketFromSettings } from './market.js';
import { PaperVenue, type PaperOrder, type PaperVenueOptions } from './venue.js';

const ORDER_TYPES: readonly string[] = ['GTC', 'GTD', 'FOK', 'FAK'];
const ZERO_CONDITION = `0x${'0'.repeat(64)}`;

export interface PaperGatewayOptions {
  /** Where market data comes from; its books are also fed to the venue. */
  readonly marketData: MarketDataPort & { close?(): Promise<void> };
  /** The venue; when absent, one is built with `capital` (and `venueOptions`) on `clock`. */
  readonly venue?: PaperVenue;
  /** Paper capital (collateral millionths) of the venue built when `venue` is absent. */
  readonly capital?: Micros;
  /** Fill model, external caps and retention of the venue built when `venue` is absent. */
  readonly venueOptions?: Omit<PaperVenueOptions, 'clock' | 'capital'>;
  /** Dialect the orders are signed in (their id is the digest in its domain). */
  readonly dialect: Dialect;
  readonly clock: Clock;
  /** close() closes the market-data port too (default true: the gateway owns it). */
  readonly closeMarketData?: boolean;
  /** A market whose settings could not be used is asked again after this long (default 60 s). */
  readonly settingsRetryMs?: number;
  /** Name for logs (default `paper`; a backtest passes `backtest`). */
  readonly kind?: string;
}

export interface PaperGatewayStats {
  /** Market settings fetched and added to the venue. */
  readonly marketsAdded: number;
  /** Settings fetches that failed or named a market the venue cannot simulate. */
  readonly marketErrors: number;
  /** The last such failure's message (never a secret: market ids and error codes only). */
  readonly lastMarketError: string | null;
}

type Decoded =
  | { readonly kind: 'place'; readonly order: PaperOrder }
  | { readonly kind: 'reject'; readonly orderId: string; readonly message: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class PaperGateway implements ExchangeGateway {
  readonly kind: string;
  readonly venue: PaperVenue;
  private readonly inner: MarketDataPort & { close?(): Promise<void> };
  private readonly dialect: Dialect;
  private readonly clock: Clock;
  private readonly closeInner: boolean;
  private readonly retryMs: number;
  private readonly pending = new Map<string, Promise<boolean>>();
  /** Markets that could not be used, and when they may be asked again. */
  private readonly refused = new Map<string, number>();
  private added = 0;
  private errors = 0;
  private lastError: string | null = null;
  private closed = false;

  constructor(opts: PaperGatewayOptions) {
    this.inner = opts.marketData;
    if ((opts.venue === undefined) === (opts.capital === undefined)) {
      throw new PaperError('PAPER_CONFIG', 'PaperGateway needs either a venue or the paper capital to build one');
    }
    this.venue =
      opts.venue ?? new PaperVenue({ ...opts.venueOptions, clock: opts.clock, capital: opts.capital as Micros });
    this.dialect = opts.dialect;
    this.clock = opts.clock;
    this.closeInner = opts.closeMarketData ?? true;
    this.retryMs = opts.settingsRetryMs ?? 60_000;
    if (!Number.isSafeInteger(this.retryMs) || this.retryMs < 0)
      throw new PaperError(
        'PAPER_CONFIG',
        `settingsRetryMs must be a non-negative integer, got ${String(opts.settingsRetryMs)}`,
      );
    this.kind = opts.kind ?? 'paper';
  }

  stats(): PaperGatewayStats {
    return { marketsAdded: this.added, marketErrors: this.errors, lastMarketError: this.lastError };
  }

  // ------------------------------------------------------------------------------- market data

  async getBooks(tokenIds: readonly string[], signal?: AbortSignal): Promise<Book[]> {
    this.enter('POST /books', signal);
    const books = await this.inner.getBooks(tokenIds, signal);
    const unknown = new Set<string>();
    for (const b of books) if (this.venue.marketOfToken(b.assetId) === undefined) unknown.add(b.market);
    if (unknown.size > 0) {
      // Market data must flow even when a market's settings cannot be had: failures are counted.
      await Promise.all([...unknown].map((cid) => this.ensureMarket(cid, signal).catch(() => false)));
    }
    this.venue.applyBooks(books);
    return books;
  }

  getMidpoints(tokenIds: readonly string[], signal?: AbortSignal): Promise<Map<string, Price>> {
    this.enter('POST /midpoints', signal);
    return this.inner.getMidpoints(tokenIds, signal);
  }

  async *samplingMarkets(signal?: AbortSignal): AsyncIterable<SamplingMarket> {
    this.enter('GET /sampling-markets', signal);
    for await (const m of this.inner.samplingMarkets(signal)) {
      // Display fields for positions; the market itself is added from its settings when used.
      this.venue.setMarketDisplay(m.conditionId, {
        // The public exchange's sampling records carry no `slug` or `event` (core/market.ts).
        title: m.question,
        slug: m.marketSlug ?? m.slug ?? '',
        icon: m.icon ?? '',
        eventSlug: m.event?.slug ?? '',
        endDate: m.endDateIso,
      });
      yield m;
    }
  }

  async getMarketSettings(conditionId: string, signal?: AbortSignal): Promise<ClobMarketSettings> {
    this.enter('GET /clob-markets/{condition_id}', signal);
    const s = await this.inner.getMarketSettings(conditionId, signal);
    if (!this.venue.hasMarket(s.conditionId)) this.addSettings(s);
    return s;
  }

  // ------------------------------------------------------------------------------- order entry

  async postOrders(
    submissions: readonly WireOrderSubmission[],
    _priority: Exclude<WritePriority, 'cancel'>,
    signal?: AbortSignal,
  ): Promise<PlacementResult[]> {
    const route = ROUTES.postOrders.key;
    if (!Array.isArray(submissions))
      throw new ClientValidationError('orders', submissions, 'must be an array of submissions');
    if (submissions.length < 1 || submissions.length > MAX_ORDERS_PER_BATCH) {
      throw new ClientValidationError(
        'orders',
        submissions,
        `must hold 1 to ${MAX_ORDERS_PER_BATCH} submissions, got ${submissions.length}`,
      );
    }
    this.enter(route, signal);
    // Every submission is decoded (and its market made known) before any is applied, so a
    // request-level failure leaves nothing behind, as the exchange's 400 does.
    const decoded: Decoded[] = [];
    for (const s of submissions) decoded.push(await this.decode(s as unknown, signal));
    this.enter(route, signal);
    return decoded.map((d) =>
      d.kind === 'reject' ? rejected(d.orderId, d.message) : placement(this.venue.place(d.order)),
    );
  }

  async cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult> {
    if (typeof orderId !== 'string' || orderId === '')
      throw new ClientValidationError('orderId', orderId, 'must be a non-empty string');
    this.enter(ROUTES.cancelOrder.key, signal);
    return this.venue.cancel(orderId);
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderRecord | null> {
    this.enter(ROUTES.getOrder.key, signal);
    return this.venue.order(orderId);
  }

  // ------------------------------------------------------------------------------- account

  async getPositions(user: string, signal?: AbortSignal): Promise<Position[]> {
    this.enter('GET /positions', signal);
    return this.venue.positions(user);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.closeInner && this.inner.close !== undefined) await this.inner.close();
  }

  // ------------------------------------------------------------------------------- internals

  private enter(route: string, signal: AbortSignal | undefined): void {
    if (this.closed)
      throw new ExchangeTransportError({
        code: 'EXCHANGE_CLOSED',
        route,
        message: `${route}: gateway closed`,
        retryable: false,
      });
    if (signal?.aborted === true) {
      throw new ExchangeTransportError({
        code: 'EXCHANGE_ABORTED',
        route,
        message: `${route}: aborted`,
        retryable: false,
        cause: signal.reason,
      });
    }
  }

  /** Makes a market known to the venue; false when the exchange does not know it or it cannot be simulated. */
  private ensureMarket(conditionId: string, signal: AbortSignal | undefined): Promise<boolean> {
    if (this.venue.hasMarket(conditionId)) return Promise.resolve(true);
    const until = this.refused.get(conditionId);
    if (until !== undefined && this.clock.now() < until) return Promise.resolve(false);
    let p = this.pending.get(conditionId);
    if (p === undefined) {
      p = this.fetchMarket(conditionId, signal).finally(() => {
        this.pending.delete(conditionId);
      });
      this.pending.set(conditionId, p);
    }
    return p;
  }

  private async fetchMarket(conditionId: string, signal: AbortSignal | undefined): Promise<boolean> {
    let s: ClobMarketSettings;
    try {
      s = await this.inner.getMarketSettings(conditionId, signal);
    } catch (e) {
      this.errors++;
      this.lastError = `market ${conditionId}: settings unavailable (${e instanceof OddsmakerError ? e.code : 'error'})`;
      if (e instanceof ExchangeHttpError && e.status === 404) {
        this.refused.set(conditionId, this.clock.now() + this.retryMs);
        return false;
      }
      throw e;
    }
    return this.addSettings(s) && this.venue.hasMarket(conditionId);
  }

  /** Adds a market from its settings; false (and remembered) when the venue cannot simulate it. */
  private addSettings(s: ClobMarketSettings): boolean {
    try {
      this.venue.addMarket(paperMarketFromSettings(s, this.dialect.fees));
      this.added++;
      this.refused.delete(s.conditionId);
      return true;
    } catch (e) {
      if (!(e instanceof PaperError)) throw e;
      this.errors++;
      this.lastError = e.message;
      this.refused.set(s.conditionId, this.clock.now() + this.retryMs);
      return false;
    }
  }

  /** One submission → an order for the venue, a per-order rejection, or a thrown request-level 400. */
  private async decode(item: unknown, signal: AbortSignal | undefined): Promise<Decoded> {
    if (!isObject(item) || !isObject(item['order'])) throw badRequest();
    const orderType = item['orderType'];
    const owner = item['owner'];
    const postOnly = item['postOnly'];
    if (typeof orderType !== 'string' || !ORDER_TYPES.includes(orderType)) throw badRequest();
    if (typeof owner !== 'string') throw badRequest();
    if (postOnly !== undefined && typeof postOnly !== 'boolean') throw badRequest();
    const wire = item['order'];
    const cid = wire['conditionId'];
    if (cid !== undefined && typeof cid !== 'string') throw badRequest();
    let parsed;
    try {
      // Polymarket's client leaves conditionId out (it is not signed): parse with a placeholder.
      parsed = parseWireOrder(cid === undefined ? { ...wire, conditionId: ZERO_CONDITION } : wire, this.dialect);
    } catch (e) {
      if (e instanceof ParseError) throw badRequest();
      throw e;
    }
    const f = parsed.fields;
    if (f.signatureType === 0 && f.maker !== f.signer) throw badRequest();
    let ref = this.venue.marketOfToken(f.tokenId);
    if (ref === undefined) {
      // Without a market there is no domain to hash in and nothing to match against.
      if (cid === undefined || !(await this.ensureMarket(cid, signal)))
        return { kind: 'reject', orderId: '', message: MSG_INVALID_ORDER };
      ref = this.venue.marketOfToken(f.tokenId);
      if (ref === undefined) throw badRequest(); // conditionId names another market
    } else if (cid !== undefined && cid.toLowerCase() !== ref.market.conditionId.toLowerCase()) {
      throw badRequest();
    }
    const id = wireOrderId(parsed, this.dialect, ref.market.negRisk);
    const ps = priceSizeFromAmounts(f.side, f.makerAmount, f.takerAmount);
    if (ps === null) return { kind: 'reject', orderId: id, message: MSG_INVALID_ORDER };
    return {
      kind: 'place',
      order: {
        id,
        tokenId: f.tokenId,
        side: f.side,
        price: ps.price,
        size: ps.size,
        orderType: orderType as OrderType,
        ...(postOnly === true ? { postOnly: true } : {}),
        ...(parsed.expirationSec !== undefined ? { expirationSec: parsed.expirationSec } : {}),
        maker: f.maker,
        owner,
      },
    };
  }
}

function badRequest(): ExchangeHttpError {
  const route = ROUTES.postOrders.key;
  return new ExchangeHttpError({
    code: 'EXCHANGE_BAD_REQUEST',
    route,
    status: 400,
    message: `${route}: 400: ${MSG_INVALID_ORDER}`,
    retryable: false,
    exchangeMessage: MSG_INVALID_ORDER,
  });
}

/** The engine's answer as the exchange's placement result (docs/protocol.md §4). */
export function placement(r: SubmitResult): PlacementResult {
  if (!r.ok) return rejected(r.orderId, r.message);
  const filled = r.sizeMatched > 0;
  return {
    success: true,
    errorMsg: '',
    orderId: r.orderId,
    status: r.status,
    takingAmount: filled ? r.takingAmount : null,
    makingAmount: filled ? r.makingAmount : null,
    accepted: true,
  };
}

function rejected(orderId: string, message: string): PlacementResult {
  return {
    success: false,
    errorMsg: message,
    orderId: orderId === '' ? null : orderId,
    status: null,
    takingAmount: null,
    makingAmount: null,
    accepted: false,
  };
}

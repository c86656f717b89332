// PaperVenue: paper mode's simulated venue (and, with recorded books, the backtester's). A
// MatchingEngine holds our orders and, under a reserved external account, the liquidity of the
// polled real books; a fill model (fill-model.ts) decides how each new book changes that
// liquidity. Synchronous and clock-driven: no I/O, no timers, time only from the injected Clock.
//
// Model (the `cross` fill model; see fill-model.ts and external.ts):
// - every book fed for a market replaces the external liquidity of that market with the book's
//   levels (capped). One book per market and update: the YES token's book, or the NO book
//   mirrored when the update has no YES book; a book older than the last one fed is ignored, and
//   the very snapshot fed last (same token, timestamp and hash) is not fed again;
// - our order crossing the external book on arrival takes at the external prices: taker, taker
//   fee. A later book whose level reaches our resting order's price fills it at OUR price: maker,
//   maker fee. Liquidity we take stays taken until the exchange publishes a different book; a
//   paper trade never moves the real book, so the next snapshot restores it;
// - our orders never sit in a book this venue feeds or returns: the external book comes from the
//   polled books alone, and the books the gateway returns are the exchange's, untouched.
//
// Invariants kept here:
// - our account starts with `capital` collateral and changes only by our own trades: collateral
//   and tokens follow the engine's settlement (fees included), positions (positions.ts) equal the
//   engine's token balances, and "not enough balance / allowance" comes from the engine's own
//   reservation check;
// - every market is added with its settings before any order or book of it (the gateway fetches
//   settings first); its tick follows the fed books' tick_size (engine setTick: resting orders keep
//   their prices), its minimum size the books' min_order_size;
// - checks and texts are the engine's (docs/protocol.md §4, engine.ts rule 7) in the engine's order,
//   except two the venue applies itself because external levels may be smaller than an order may
//   be: the minimum size (the engine market is added with minimum 0) and duplicates of our
//   finished orders (the engine forgets finished orders at once; see our-orders.ts);
// - no signature is checked in paper mode (there is no counterparty to protect, and no
//   credentials): the gateway decodes the signed submission and the id is its EIP-712 digest.
import type { Book } from '../../core/book.js';
import type { Clock } from '../../core/clock.js';
import type { CancelResult, OrderRecord, Position } from '../../core/market.js';
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { OrderType, Side } from '../../core/order.js';
import { isKnownTick, isValidOrderPrice } from '../../core/tick.js';
import {
  CANCEL_ALREADY_MATCHED,
  MatchingEngine,
  msgDuplicated,
  msgMinSize,
  notional,
  type AccountBalances,
  type OrderInput,
  type Rejected,
  type RejectCode,
  type SubmitResult,
  type Trade,
} from '../engine/index.js';
import { PaperError } from './errors.js';
import { ExternalLiquidity, resolveExternalLimits, type ExternalLimits, type ExternalStats } from './external.js';
import { externalBook, type ExternalBook } from './external-book.js';
import { FILL_MODELS, type ExternalTrade, type FillModel, type FillModelName } from './fill-model.js';
import type { MarketDisplay, PaperMarket } from './market.js';
import { OurOrders, toOrderRecord, type OrderProgress, type OurOrder } from './our-orders.js';
import { PaperPositions, type PaperFill } from './positions.js';

/** Engine account of our orders. */
export const PAPER_ACCOUNT = 'paper';
/** Engine account of the external liquidity. */
export const EXTERNAL_ACCOUNT = 'paper-external';

const HOUR_MS = 3_600_000;

export interface PaperVenueOptions {
  readonly clock: Clock;
  /** Collateral of our account at start (the configured paper capital), millionths. */
  readonly capital: Micros;
  /** Default `cross`. */
  readonly fillModel?: FillModel | FillModelName;
  /** Caps of the external liquidity (external.ts). */
  readonly external?: Partial<ExternalLimits>;
  /** How long the records of our finished orders stay for lookup (default 1 h). */
  readonly retainFinishedMs?: number;
}

/** One of our orders, decoded from a signed submission. */
export interface PaperOrder {
  /** The EIP-712 digest of the signed order. */
  readonly id: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly price: Price;
  readonly size: Shares;
  readonly orderType: OrderType;
  readonly postOnly?: boolean;
  /** GTD only, Unix seconds. */
  readonly expirationSec?: number;
  /** The signed maker (funder) address, shown in the order record. */
  readonly maker: string;
  /** The submission's API key, shown in the order record. */
  readonly owner: string;
}

/** A public trade on a token as recorded: the taker's side, the token's own price. */
export interface PublicTrade {
  readonly tokenId: string;
  readonly price: Price;
  readonly size: Shares;
  readonly side: 'BUY' | 'SELL';
  /** Exchange time, epoch ms. */
  readonly timestampMs: number;
}

/** What happened to a fed trade: handed to the fill model, of an unknown token, or the model takes no trades. */
export type TradeFeed = 'fed' | 'unknown-market' | 'ignored';

/** What happened to a fed book. */
export type BookFeed = 'fed' | 'unchanged' | 'stale' | 'skipped' | 'unknown-market';

export interface PaperVenueStats {
  readonly markets: number;
  readonly booksFed: number;
  readonly booksUnchanged: number;
  readonly booksStale: number;
  /** The other token's book of a market in the same poll (one book per market is fed). */
  readonly booksSkipped: number;
  readonly booksUnknown: number;
  /** Public trades handed to the fill model. */
  readonly tradesFed: number;
  readonly fills: number;
  /** Our order records kept (live and recently finished). */
  readonly ordersKept: number;
  readonly external: ExternalStats;
}

interface Slot {
  readonly market: PaperMarket;
  minSize: number;
  /** The last book fed (YES terms), its token and hash. */
  last: ExternalBook | null;
  lastToken: string;
  lastHash: string;
  /** YES-terms mark of the last fed book: its mid, else its last trade price, else null. */
  mark: Price | null;
}

interface TokenRef {
  readonly slot: Slot;
  readonly outcome: 0 | 1;
}

export type FillListener = (fill: PaperFill) => void;

/**
 * A venue's capital and record retention, checked (PaperError naming the bad one); returns the
 * retention in ms (default 1 h). The paper venue and the backtest's delta venue take the same.
 */
export function checkVenueOptions(capital: number, retainFinishedMs: number | undefined): number {
  if (!Number.isSafeInteger(capital) || capital < 0) {
    throw new PaperError(
      'PAPER_CONFIG',
      `capital must be a non-negative integer of millionths, got ${String(capital)}`,
    );
  }
  const retain = retainFinishedMs ?? HOUR_MS;
  if (!(retain === Number.POSITIVE_INFINITY || (Number.isSafeInteger(retain) && retain >= 0))) {
    throw new PaperError('PAPER_CONFIG', `retainFinishedMs must be a non-negative integer, got ${String(retain)}`);
  }
  return retain;
}

export class PaperVenue {
  readonly engine: MatchingEngine;
  readonly fillModel: FillModel;
  private readonly clock: Clock;
  private readonly external: ExternalLiquidity;
  private readonly slots = new Map<string, Slot>();
  private readonly tokens = new Map<string, TokenRef>();
  private readonly info = new Map<string, MarketDisplay>();
  private readonly orders: OurOrders;
  private readonly positionBook = new PaperPositions();
  private fillListeners: readonly FillListener[] = [];
  private booksFed = 0;
  private booksUnchanged = 0;
  private booksStale = 0;
  private booksSkipped = 0;
  private booksUnknown = 0;
  private tradesFed = 0;
  private fillCount = 0;

  constructor(opts: PaperVenueOptions) {
    const retain = checkVenueOptions(opts.capital, opts.retainFinishedMs);
    const model = opts.fillModel ?? 'cross';
    if (typeof model === 'string') {
      const m = (FILL_MODELS as Readonly<Record<string, FillModel>>)[model];
      if (m === undefined)
        throw new PaperError(
          'PAPER_CONFIG',
          `unknown fill model ${JSON.stringify(model)} (known: ${Object.keys(FILL_MODELS).join(', ')})`,
        );
      this.fillModel = m;
    } else {
      this.fillModel = model;
    }
    this.clock = opts.clock;
    // Finished engine records are dropped at once: the external account finishes an order per level
    // per book, and our own records live in OurOrders.
    this.engine = new MatchingEngine({ clock: opts.clock, retainFinishedMs: 0, tradeIdPrefix: 'paper-trade-' });
    this.external = new ExternalLiquidity(this.engine, EXTERNAL_ACCOUNT, resolveExternalLimits(opts.external));
    this.orders = new OurOrders(retain);
    this.engine.deposit(PAPER_ACCOUNT, opts.capital);
    this.engine.onTrade((t) => this.onTrade(t));
    this.engine.onOrderUpdate((u) => {
      if (u.owner === PAPER_ACCOUNT) this.orders.update(u.orderId, u.status, u.sizeMatched, u.timeMs);
    });
  }

  // ------------------------------------------------------------------------------- markets

  /** Adds a market (idempotent for the same tokens); throws PaperError on conflicting tokens. */
  addMarket(m: PaperMarket): void {
    const known = this.slots.get(m.conditionId);
    if (known !== undefined) {
      if (known.market.tokens[0] !== m.tokens[0] || known.market.tokens[1] !== m.tokens[1]) {
        throw new PaperError('PAPER_MARKET_CONFLICT', `market ${m.conditionId} is known with other tokens`);
      }
      return;
    }
    for (const t of m.tokens) {
      if (this.tokens.has(t))
        throw new PaperError('PAPER_MARKET_CONFLICT', `token ${t} already belongs to another market`);
    }
    this.engine.addMarket({
      conditionId: m.conditionId,
      tokens: m.tokens,
      tick: m.tick,
      minSize: 0 as Shares,
      makerFeeBps: m.makerFeeBps,
      takerFeeBps: m.takerFeeBps,
      ...(m.fees !== undefined ? { fees: m.fees } : {}),
      negRisk: m.negRisk,
      acceptingOrders: true,
    });
    const slot: Slot = { market: m, minSize: m.minSize, last: null, lastToken: '', lastHash: '', mark: null };
    this.slots.set(m.conditionId, slot);
    this.tokens.set(m.tokens[0], { slot, outcome: 0 });
    this.tokens.set(m.tokens[1], { slot, outcome: 1 });
  }

  hasMarket(conditionId: string): boolean {
    return this.slots.has(conditionId);
  }

  market(conditionId: string): PaperMarket | undefined {
    return this.slots.get(conditionId)?.market;
  }

  /** The market of a token and its outcome index, when known. */
  marketOfToken(tokenId: string): { market: PaperMarket; outcome: 0 | 1 } | undefined {
    const r = this.tokens.get(tokenId);
    return r === undefined ? undefined : { market: r.slot.market, outcome: r.outcome };
  }

  /** Display fields of a market for positions (title, slug, ...); may come before the market. */
  setMarketDisplay(conditionId: string, info: MarketDisplay): void {
    this.info.set(conditionId, info);
  }

  /** The market's current tick (the engine's). */
  tickOf(conditionId: string): Price | undefined {
    return this.engine.market(conditionId)?.tick;
  }

  // ------------------------------------------------------------------------------- books

  /** Feeds one polled book (see applyBooks). */
  applyBook(book: Book): BookFeed {
    return this.applyBooks([book])[0] as BookFeed;
  }

  /**
   * Feeds one poll's books: per market, the YES book when the batch has one, else the NO book
   * mirrored (the latest of each when a token appears twice); the others of that market read
   * `skipped`. One result per book, in order.
   */
  applyBooks(books: readonly Book[]): BookFeed[] {
    const out = new Array<BookFeed>(books.length).fill('skipped');
    const chosen = new Map<Slot, number>();
    let unknown = 0;
    for (let i = 0; i < books.length; i++) {
      const b = books[i] as Book;
      const ref = this.tokens.get(b.assetId);
      if (ref === undefined) {
        out[i] = 'unknown-market';
        unknown++;
        continue;
      }
      const j = chosen.get(ref.slot);
      if (j === undefined) {
        chosen.set(ref.slot, i);
        continue;
      }
      const cur = books[j] as Book;
      const curOutcome = (this.tokens.get(cur.assetId) as TokenRef).outcome;
      // Same outcome twice: the later in time, or the later in the batch when either has no time.
      const later = b.timestampMs === null || cur.timestampMs === null || b.timestampMs >= cur.timestampMs;
      if (ref.outcome < curOutcome || (ref.outcome === curOutcome && later)) chosen.set(ref.slot, i);
    }
    this.booksUnknown += unknown;
    this.booksSkipped += books.length - chosen.size - unknown;
    for (const [slot, i] of chosen) {
      const r = this.feed(slot, books[i] as Book);
      out[i] = r;
      if (r === 'fed') this.booksFed++;
      else if (r === 'stale') this.booksStale++;
      else this.booksUnchanged++;
    }
    return out;
  }

  private feed(slot: Slot, book: Book): BookFeed {
    const last = slot.last;
    if (last !== null) {
      // A book without exchange time cannot be told stale: it is taken as fresh.
      if (book.timestampMs !== null && last.timestampMs !== null && book.timestampMs < last.timestampMs) return 'stale';
      if (
        book.assetId === slot.lastToken &&
        book.hash !== '' &&
        book.hash === slot.lastHash &&
        book.timestampMs === last.timestampMs
      ) {
        return 'unchanged';
      }
    }
    const cid = slot.market.conditionId;
    const outcome = slot.market.tokens[0] === book.assetId ? 0 : 1;
    // Market settings follow the book (fresher than GET /clob-markets): tick first, so the new
    // levels are posted against the tick they are quoted on.
    if (book.tickSize !== null && isKnownTick(book.tickSize) && book.tickSize !== this.engine.market(cid)?.tick) {
      this.engine.setTick(cid, book.tickSize);
    }
    if (book.minOrderSize !== null && Number.isSafeInteger(book.minOrderSize) && book.minOrderSize >= 0)
      slot.minSize = book.minOrderSize;
    const ext = externalBook(book, outcome, cid);
    this.fillModel.onBook(this.external, ext, last);
    slot.last = ext;
    slot.lastToken = book.assetId;
    slot.lastHash = book.hash;
    slot.mark = markOf(
      ext,
      book.lastTradePrice === null
        ? null
        : ((outcome === 0 ? book.lastTradePrice : SCALE - book.lastTradePrice) as Price),
    );
    return 'fed';
  }

  /**
   * Feeds one public trade (a backtest's TRADE record) to the fill model, in YES terms: a trade of
   * the NO token at q whose taker bought is a YES trade at 1 − q whose taker sold (external-book.ts's
   * mirror). Expired orders are expired first, so they cannot fill.
   */
  applyTrade(t: PublicTrade): TradeFeed {
    const ref = this.tokens.get(t.tokenId);
    if (ref === undefined) return 'unknown-market';
    const onTrade = this.fillModel.onTrade;
    if (onTrade === undefined) return 'ignored';
    if (!(t.price > 0 && t.price < SCALE) || !(t.size > 0)) return 'ignored';
    this.engine.expire();
    const yes = ref.outcome === 0;
    const trade: ExternalTrade = {
      conditionId: ref.slot.market.conditionId,
      timestampMs: t.timestampMs,
      price: (yes ? t.price : SCALE - t.price) as Price,
      size: t.size,
      side: yes ? t.side : t.side === 'BUY' ? 'SELL' : 'BUY',
    };
    onTrade.call(this.fillModel, this.external, trade, ref.slot.last);
    this.tradesFed++;
    return 'fed';
  }

  // ------------------------------------------------------------------------------- orders

  /** Places one of our orders; the answer is the engine's (accepted with fills, or rejected). */
  place(o: PaperOrder): SubmitResult {
    this.orders.prune(this.clock.now());
    const ref = this.tokens.get(o.tokenId);
    if (ref === undefined) return this.engine.submit(engineOrder(o)); // the engine answers Invalid order payload
    if (this.orders.has(o.id)) return reject(o.id, 'DUPLICATED', msgDuplicated(o.id));
    const tick = this.engine.market(ref.slot.market.conditionId)?.tick;
    // The engine's order of checks: a price off the tick is reported before a short size.
    if (tick !== undefined && isValidOrderPrice(o.price, tick) && o.size < ref.slot.minSize) {
      return reject(o.id, 'INVALID_MIN_SIZE', msgMinSize(o.id, o.size, ref.slot.minSize));
    }
    const r = this.engine.submit(engineOrder(o));
    if (r.ok) {
      const rec = {
        id: o.id,
        conditionId: ref.slot.market.conditionId,
        tokenId: o.tokenId,
        outcome: ref.slot.market.outcomes[ref.outcome],
        side: o.side,
        price: o.price,
        originalSize: o.size,
        sizeMatched: r.sizeMatched,
        status: r.orderStatus,
        type: o.orderType,
        createdAtMs: this.clock.now(),
        maker: o.maker,
        owner: o.owner,
        trades: r.trades.map((t) => t.id),
      };
      this.orders.add(rec, this.clock.now());
      if (r.orderStatus === 'LIVE') {
        // Ours rests: external liquidity at its level (YES terms) goes behind it (cross rule).
        const yesSide = ref.outcome === 0 ? o.side : o.side === 'BUY' ? 'SELL' : 'BUY';
        this.external.requeueBehind(
          ref.slot.market.conditionId,
          yesSide,
          ref.outcome === 0 ? o.price : SCALE - o.price,
        );
      }
    }
    return r;
  }

  /** Cancels one of our orders (DELETE /order's answer). */
  cancel(orderId: string): CancelResult {
    const r = this.engine.cancel(orderId, PAPER_ACCOUNT);
    if (r.canceled) return { canceled: [orderId], notCanceled: new Map() };
    // The engine forgets finished orders at once; our record says whether this one matched.
    const reason = this.orders.get(orderId)?.status === 'MATCHED' ? CANCEL_ALREADY_MATCHED : r.reason;
    return { canceled: [], notCanceled: new Map([[orderId, reason]]) };
  }

  /** The record of one of our orders, or null when unknown (never an external order). */
  order(orderId: string): OrderRecord | null {
    const o = this.current(orderId);
    return o === undefined ? null : toOrderRecord(o);
  }

  /** What order(orderId) would show of its status and matched size, with no record built. */
  orderProgress(orderId: string): OrderProgress | null {
    return this.current(orderId) ?? null;
  }

  /**
   * Our orders whose status or matched size changed since the last call, expiries due now
   * applied first (see IdChanges: the backtest executor's read skip).
   */
  takeOrderChanges(): ReadonlySet<string> | 'all' {
    this.engine.expire();
    return this.orders.changes.take();
  }

  /** Our order `orderId` as a lookup now finds it (expiries due applied, old records pruned). */
  private current(orderId: string): OurOrder | undefined {
    this.engine.expire(); // GTD expirations due now show in the record
    this.orders.prune(this.clock.now());
    return this.orders.get(orderId);
  }

  /** Our resting orders, oldest first. */
  openOrders(): OrderRecord[] {
    this.engine.expire();
    return this.orders.live().map(toOrderRecord);
  }

  // ------------------------------------------------------------------------------- account

  /** Our collateral and token balances (free and reserved). */
  balances(): AccountBalances {
    return this.engine.balances(PAPER_ACCOUNT);
  }

  /** Our current positions (shares held), as GET /positions shows them for `wallet`. */
  positions(wallet: string): Position[] {
    const out: Position[] = [];
    for (const tokenId of this.positionBook.tokens()) {
      const ref = this.tokens.get(tokenId);
      if (ref === undefined) continue;
      const m = ref.slot.market;
      const yesMark = ref.slot.mark;
      const mark = yesMark === null ? null : ((ref.outcome === 0 ? yesMark : SCALE - yesMark) as Price);
      const p = this.positionBook.position(wallet, tokenId, m, this.info.get(m.conditionId), mark);
      if (p !== null) out.push(p);
    }
    return out;
  }

  /** Every fill of ours, as it happens (maker fills during a book feed, taker fills during place). */
  onFill(listener: FillListener): () => void {
    this.fillListeners = [...this.fillListeners, listener];
    return () => {
      this.fillListeners = this.fillListeners.filter((l) => l !== listener);
    };
  }

  stats(): PaperVenueStats {
    return {
      markets: this.slots.size,
      booksFed: this.booksFed,
      booksUnchanged: this.booksUnchanged,
      booksStale: this.booksStale,
      booksSkipped: this.booksSkipped,
      booksUnknown: this.booksUnknown,
      tradesFed: this.tradesFed,
      fills: this.fillCount,
      ordersKept: this.orders.size,
      external: this.external.stats(),
    };
  }

  // ------------------------------------------------------------------------------- events

  private onTrade(t: Trade): void {
    if (t.takerOwner === PAPER_ACCOUNT) {
      this.ourFill(t, t.takerOrderId, t.takerTokenId, t.takerSide, t.takerPrice, t.takerFee, 'taker');
    } else if (t.makerOwner === PAPER_ACCOUNT) {
      this.orders.addTrade(t.makerOrderId, t.id);
      this.ourFill(t, t.makerOrderId, t.makerTokenId, t.makerSide, t.makerPrice, t.makerFee, 'maker');
    }
  }

  private ourFill(
    t: Trade,
    orderId: string,
    tokenId: string,
    side: Side,
    price: Price,
    fee: Micros,
    liquidity: 'maker' | 'taker',
  ): void {
    const f: PaperFill = {
      tradeId: t.id,
      orderId,
      conditionId: t.conditionId,
      tokenId,
      side,
      price,
      size: t.size,
      notional: notional(price, t.size) as Micros,
      feeMicros: fee,
      liquidity,
      timeMs: t.timeMs,
    };
    this.positionBook.apply(f);
    this.fillCount++;
    for (const l of this.fillListeners) l(f);
  }
}

function engineOrder(o: PaperOrder): OrderInput {
  return {
    id: o.id,
    owner: PAPER_ACCOUNT,
    tokenId: o.tokenId,
    side: o.side,
    price: o.price,
    size: o.size,
    orderType: o.orderType,
    ...(o.postOnly === true ? { postOnly: true } : {}),
    ...(o.expirationSec !== undefined ? { expirationSec: o.expirationSec } : {}),
  };
}

function reject(orderId: string, code: RejectCode, message: string): Rejected {
  return { ok: false, orderId, code, message };
}

/** Mid of the best levels when both exist, else the last trade price, else null (YES terms). */
function markOf(b: ExternalBook, lastTrade: Price | null): Price | null {
  const bid = b.bids[0];
  const ask = b.asks[0];
  if (bid !== undefined && ask !== undefined) {
    const sum = bid.price + ask.price;
    // Prices are on the 0.0001 grid, so the half-sum is exact; a stray odd sum rounds down.
    return Math.floor(sum / 2) as Price;
  }
  return lastTrade;
}

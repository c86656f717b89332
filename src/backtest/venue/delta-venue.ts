// DeltaVenue: the backtester's venue on recorded book DELTAS, with the same answers and fills as
// PaperVenue (src/sim/paper/venue.ts) run with the same fill model (`cross`, fill-model.ts; `queue`
// and `queue-probabilistic`, ../fill-queue.ts), without a matching engine: the external book lives
// in flat typed arrays per market (market-state.ts) and a delta costs work only at the levels it
// changed. What it reproduces, rule for rule (the equivalence property test holds it to that):
// - one book per market is fed, YES terms, the NO token's mirrored; a book older than the last fed
//   is `stale` (ignored), the very snapshot fed last (same token, hash, time) `unchanged`; a delta
//   has no hash, so it is never `unchanged`; a fed full book also sets the tick and minimum size;
// - the external liquidity PaperVenue's ExternalLiquidity keeps in its engine, level by level: a
//   level is kept while it is untouched and its capped size is unchanged, otherwise withdrawn and
//   posted again (a new `ext-N` id, asks best first, then bids best first); a posted level that
//   reaches our resting orders trades with them at OUR price, we are maker; bids at or above the
//   best ask are dropped; ExternalLimits' caps apply (a capped side is recomputed in full);
// - our orders: the engine's checks in the engine's order with its texts (docs/protocol.md §4), the
//   venue's minimum size and duplicate checks, reservations (a BUY reserves notional plus the
//   worst-case fee, a SELL its tokens), taking at the external prices as taker (our own orders at a
//   level we reach are self-trade cancelled first: they stand ahead of the external order there),
//   the rest resting behind nothing (requeueBehind), GTD expiry at every point the engine would sweep;
// - the queue models' state (queue ahead, level, opposite) kept by order id with QueueFillModel's
//   lifetime, their random draws in the same order, their synthetic fills (which re-post the whole
//   external book), and the trades' sweeps, which leave the book as it was but re-posted (new ids)
//   where a synthetic order could reach it;
// - trade ids `paper-trade-N` count every fill (every engine trade of PaperVenue is one of ours);
// - resolution (resolveMarket, the engine's resolve): our orders cancelled, new ones not ready.
// Cost: a delta is O(levels it changed + our orders in its market) with no allocation; a token
// switch, a full book, binding caps and a queue fill re-check the market's whole range of prices
// in use (stepping by the grid the prices use, market-state.ts `step`). The other token's delta
// while the two raw books mirror each other (a count of differing keys, kept on every raw write,
// says so at no cost) takes the incremental path; when it leaves them mirrored (the second half
// of a mirrored pair) nothing fed changes, and when the market is also settled since its last
// feed (settled(): feeding again would be a fixed point) the feed is skipped outright. Prices off
// the 0.0001 grid are ignored (PaperVenue never posts them). Not held: positions and marks (the
// backtest's ledger books fills), applyBooks batches, the external account's balances (stats:
// only its post count).
import type { Book, Level } from '../../core/book.js';
import type { Clock } from '../../core/clock.js';
import { OptionError } from '../../core/errors.js';
import { baseFeeModel, checkFeeModel, fillFee } from '../../core/fees.js';
import type { CancelResult, OrderRecord } from '../../core/market.js';
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import { isKnownTick, isValidOrderPrice } from '../../core/tick.js';
import {
  buyNeed,
  CANCEL_ALREADY_MATCHED,
  CANCEL_NOT_FOUND,
  LOT,
  MSG_FAK_NO_MATCH,
  MSG_FOK_NOT_FILLED,
  MSG_INVALID_ORDER,
  MSG_NOT_ENOUGH_BALANCE,
  MSG_POST_ONLY_CROSSES,
  msgDuplicated,
  msgInvalidTick,
  msgMinSize,
  notional,
  EngineError,
  MSG_MARKET_NOT_READY,
  type AccountBalances,
  type Balance,
  type OrderStatus,
  type RejectCode,
  type Rejected,
  type SubmitResult,
  type Trade,
  type TradeKind,
} from '../../sim/engine/index.js';
import { OurOrders, toOrderRecord, type OrderProgress, type OurOrder } from '../../sim/paper/our-orders.js';
import {
  checkVenueOptions,
  EXTERNAL_ACCOUNT,
  PAPER_ACCOUNT,
  PaperError,
  resolveExternalLimits,
  sanitizeSide,
  type BookFeed,
  type ExternalLimits,
  type PaperFill,
  type PaperMarket,
  type PaperOrder,
  type PublicTrade,
  type TradeFeed,
} from '../../sim/paper/index.js';
import { GRID, MarketState, OurNode, QState, SLOTS } from './market-state.js';

const TRADE_PREFIX = 'paper-trade-';
const EXT_PREFIX = 'ext-';
const NO_TRADES: readonly Trade[] = Object.freeze([]);

export type DeltaFillModelName = 'cross' | 'queue' | 'queue-probabilistic';

export interface DeltaVenueOptions {
  readonly clock: Clock;
  /** Collateral of our account at start, millionths. */
  readonly capital: Micros;
  readonly fillModel: DeltaFillModelName;
  /** queue-probabilistic: probability a decrease is a trade (default 0.5, as the backtest's). */
  readonly tradeProbability?: number;
  /** queue-probabilistic: seeded uniform [0, 1) draws, consumed as QueueFillModel consumes them. */
  readonly random?: () => number;
  /** How long finished orders' records stay for lookup (default 1 h). */
  readonly retainFinishedMs?: number;
  /** Caps of the external liquidity, as PaperVenue's `external`. */
  readonly external?: Partial<ExternalLimits>;
}

export interface DeltaVenueStats {
  readonly markets: number;
  readonly booksFed: number;
  readonly booksUnchanged: number;
  readonly booksStale: number;
  readonly booksUnknown: number;
  readonly tradesFed: number;
  readonly fills: number;
  readonly ordersKept: number;
  /** External orders PaperVenue would have posted (its stats().external.posted). */
  readonly externalPosted: number;
}

export type DeltaFillListener = (fill: PaperFill) => void;

class Holding {
  available = 0;
  reserved = 0;
}

function reject(orderId: string, code: RejectCode, message: string): Rejected {
  return { ok: false, orderId, code, message };
}

/** Insertion sort of keys[0..n) (with their sizes) ascending or descending: n is a handful. */
function sortKeys(keys: Int32Array, sizes: Float64Array, n: number, asc: boolean): void {
  for (let a = 1; a < n; a++) {
    const k = keys[a] as number;
    const s = sizes[a] as number;
    let b = a - 1;
    while (b >= 0 && (asc ? (keys[b] as number) > k : (keys[b] as number) < k)) {
      keys[b + 1] = keys[b] as number;
      sizes[b + 1] = sizes[b] as number;
      b--;
    }
    keys[b + 1] = k;
    sizes[b + 1] = s;
  }
}

export class DeltaVenue {
  readonly fillModel: DeltaFillModelName;
  private readonly clock: Clock;
  private readonly limits: ExternalLimits;
  private readonly queue: boolean;
  private readonly prob: boolean;
  private readonly p: number;
  private readonly random: () => number;
  private readonly markets = new Map<string, MarketState>();
  private readonly handles = new Map<string, number>();
  private readonly hMarket: MarketState[] = [];
  private readonly hOutcome: (0 | 1)[] = [];
  private readonly orders: OurOrders;
  private readonly live = new Map<string, OurNode>();
  /** Queue models: QueueFillModel's states by order id. */
  private readonly qStates = new Map<string, QState>();
  private gtd: OurNode[] = [];
  private nextExpiry = Number.POSITIVE_INFINITY;
  private available = 0;
  private reserved = 0;
  private readonly holdings = new Map<string, Holding>();
  private listeners: readonly DeltaFillListener[] = [];
  private extSeq = 0;
  private tradeSeq = 0;
  private now = 0;
  /** The current operation has run the engine's begin() (expiry sweep) already. */
  private opened = false;
  private accNotional = 0;
  private accFee = 0;
  private takerTrades: Trade[] | null = null;
  private booksFed = 0;
  private booksUnchanged = 0;
  private booksStale = 0;
  private booksUnknown = 0;
  private tradesFed = 0;
  private fills = 0;
  // Scratch (no per-event allocation).
  private work = new Int32Array(64);
  private postA = new Int32Array(64);
  private postAS = new Float64Array(64);
  private postB = new Int32Array(64);
  private postBS = new Float64Array(64);
  private readonly eFull = new Float64Array(2 * SLOTS);
  private dueK = new Int32Array(8);
  private dueS = new Float64Array(8);
  private dueN = 0;

  constructor(opts: DeltaVenueOptions) {
    const retain = checkVenueOptions(opts.capital, opts.retainFinishedMs);
    const model = opts.fillModel;
    if (model !== 'cross' && model !== 'queue' && model !== 'queue-probabilistic')
      throw new PaperError('PAPER_CONFIG', `unknown fill model ${JSON.stringify(model)}`);
    this.fillModel = model;
    this.queue = model !== 'cross';
    this.prob = model === 'queue-probabilistic';
    this.p = 1;
    this.random = () => 0;
    if (this.prob) {
      const p = opts.tradeProbability ?? 0.5;
      if (!(p >= 0 && p <= 1))
        throw new OptionError('BACKTEST_OPTION', `queue trade probability must be in [0, 1], got ${String(p)}`);
      if (opts.random === undefined)
        throw new OptionError('BACKTEST_OPTION', 'the probabilistic queue model needs a seeded random source');
      this.p = p;
      this.random = opts.random;
    }
    this.clock = opts.clock;
    this.limits = resolveExternalLimits(opts.external);
    this.orders = new OurOrders(retain);
    this.available = opts.capital;
  }

  // ------------------------------------------------------------------------------- markets

  /** Adds a market (idempotent for the same tokens); throws PaperError on conflicting tokens. */
  addMarket(m: PaperMarket): void {
    const known = this.markets.get(m.conditionId);
    if (known !== undefined) {
      if (known.market.tokens[0] !== m.tokens[0] || known.market.tokens[1] !== m.tokens[1])
        throw new PaperError('PAPER_MARKET_CONFLICT', `market ${m.conditionId} is known with other tokens`);
      return;
    }
    for (const t of m.tokens)
      if (this.handles.has(t))
        throw new PaperError('PAPER_MARKET_CONFLICT', `token ${t} already belongs to another market`);
    const fees = m.fees === undefined ? baseFeeModel(m.makerFeeBps, m.takerFeeBps) : checkFeeModel(m.fees);
    const mk = new MarketState(m, fees);
    this.markets.set(m.conditionId, mk);
    for (const o of [0, 1] as const) {
      this.handles.set(m.tokens[o], this.hMarket.length);
      this.hMarket.push(mk);
      this.hOutcome.push(o);
    }
  }

  hasMarket(conditionId: string): boolean {
    return this.markets.has(conditionId);
  }

  market(conditionId: string): PaperMarket | undefined {
    return this.markets.get(conditionId)?.market;
  }

  marketOfToken(tokenId: string): { market: PaperMarket; outcome: 0 | 1 } | undefined {
    const h = this.handles.get(tokenId);
    if (h === undefined) return undefined;
    return { market: (this.hMarket[h] as MarketState).market, outcome: this.hOutcome[h] as 0 | 1 };
  }

  /** A dense number for a known token (for applyDeltaH), or −1. */
  tokenHandle(tokenId: string): number {
    return this.handles.get(tokenId) ?? -1;
  }

  /** The market's current tick. */
  tickOf(conditionId: string): Price | undefined {
    return this.markets.get(conditionId)?.tick as Price | undefined;
  }

  // ------------------------------------------------------------------------------- books

  /** Feeds one full book of one token (PaperVenue.applyBook). */
  applyBook(book: Book): BookFeed {
    const h = this.handles.get(book.assetId);
    if (h === undefined) {
      this.booksUnknown++;
      return 'unknown-market';
    }
    const mk = this.hMarket[h] as MarketState;
    const outcome = this.hOutcome[h] as 0 | 1;
    if (mk.resolved) return 'skipped';
    this.replaceRaw(mk, outcome, book);
    if (mk.hasLast) {
      // NaN stands for "no exchange time" (a number field, so a store allocates nothing).
      const last = mk.lastTs;
      if (book.timestampMs !== null && book.timestampMs < last) {
        if (outcome === mk.active) mk.needSync = true;
        this.booksStale++;
        return 'stale';
      }
      if (
        book.assetId === mk.lastToken &&
        book.hash !== '' &&
        book.hash === mk.lastHash &&
        (book.timestampMs === null ? Number.isNaN(last) : book.timestampMs === last)
      ) {
        if (outcome === mk.active) mk.needSync = true;
        this.booksUnchanged++;
        return 'unchanged';
      }
    }
    if (book.tickSize !== null && isKnownTick(book.tickSize)) mk.tick = book.tickSize;
    if (book.minOrderSize !== null && Number.isSafeInteger(book.minOrderSize) && book.minOrderSize >= 0)
      mk.minSize = book.minOrderSize;
    mk.lastTs = book.timestampMs ?? Number.NaN;
    mk.lastToken = book.assetId;
    mk.lastHash = book.hash;
    const hadLast = mk.hasLast;
    this.syncFed(mk, outcome);
    this.feed(mk, true, hadLast);
    this.booksFed++;
    return 'fed';
  }

  /** Feeds one recorded delta of a token, in its own terms (size 0 removes the level). */
  applyDelta(
    tokenId: string,
    n: number,
    prices: ArrayLike<number>,
    sizes: ArrayLike<number>,
    isAsk: ArrayLike<number>,
    timestampMs: number,
  ): BookFeed {
    const h = this.handles.get(tokenId);
    if (h === undefined) {
      this.booksUnknown++;
      return 'unknown-market';
    }
    return this.applyDeltaH(h, n, prices, sizes, isAsk, timestampMs);
  }

  /** applyDelta by tokenHandle(). */
  applyDeltaH(
    h: number,
    n: number,
    prices: ArrayLike<number>,
    sizes: ArrayLike<number>,
    isAsk: ArrayLike<number>,
    timestampMs: number,
  ): BookFeed {
    const mk = this.hMarket[h] as MarketState;
    const outcome = this.hOutcome[h] as 0 | 1;
    if (mk.resolved) return 'skipped';
    const stale = mk.hasLast && timestampMs < mk.lastTs;
    let fast = !stale && outcome === mk.active && !mk.needSync;
    // The other token's delta while its book mirrors the active one's (as it does whenever the
    // exchange publishes both from one book): feeding it changes exactly what the same delta of
    // the active token would, so it takes the incremental path instead of a full resync.
    const mayMirror = !fast && !stale && !mk.needSync && mk.active !== -1;
    if (mayMirror && mk.rawDiff === 0) {
      fast = true;
      mk.active = outcome;
    }
    const cap = this.limits.maxLevelSize;
    for (let j = 0; j < n; j++) {
      const p = prices[j] as number;
      // Integer arithmetic on purpose: a double `%` is a slow fmod in V8.
      const pi = p | 0;
      if (pi !== p || pi <= 0 || pi >= SCALE || pi % GRID !== 0) continue;
      // Token 1's bid at q is a YES ask at 1 − q.
      const yesAsk = (isAsk[j] !== 0) === (outcome === 0);
      const i = (outcome === 0 ? pi / GRID : (SCALE - pi) / GRID) | 0;
      const k = yesAsk ? SLOTS + i : i;
      const sRaw = sizes[j] as number;
      const s = sRaw > 0 ? sRaw : 0;
      mk.setRaw(outcome, k, s);
      if (s > 0) {
        mk.seen(i);
        const r = outcome * 2 + (yesAsk ? 1 : 0);
        if (i < (mk.rawLo[r] as number)) mk.rawLo[r] = i;
        if (i > (mk.rawHi[r] as number)) mk.rawHi[r] = i;
      }
      if (fast && mk.setFed(k, s, cap)) mk.addDirty(k);
    }
    if (stale) {
      if (outcome === mk.active) mk.needSync = true;
      this.booksStale++;
      return 'stale';
    }
    mk.lastTs = timestampMs;
    mk.lastToken = mk.market.tokens[outcome];
    mk.lastHash = '';
    const hadLast = mk.hasLast;
    // Or its delta made it the mirror of the active one's (the second half of a pair of mirrored
    // deltas): what is fed already is this book, nothing to resync.
    if (mayMirror && !fast && mk.rawDiff === 0) {
      mk.active = outcome;
      // What is fed did not change, and when the market is settled since the last feed, feeding
      // it again is a fixed point (see settled()).
      if (this.settled(mk)) {
        this.booksFed++;
        return 'fed';
      }
      fast = true;
    }
    if (!fast) this.syncFed(mk, outcome);
    this.feed(mk, !fast, hadLast);
    this.booksFed++;
    return 'fed';
  }

  /** Replaces a token's raw book by a full snapshot. */
  private replaceRaw(mk: MarketState, outcome: 0 | 1, book: Book): void {
    for (let s = 0; s < 2; s++) {
      const r = outcome * 2 + s;
      for (let i = mk.rawLo[r] as number; i <= (mk.rawHi[r] as number); i += mk.step)
        mk.setRaw(outcome, s * SLOTS + i, 0);
      mk.rawLo[r] = SLOTS;
      mk.rawHi[r] = -1;
    }
    const put = (levels: readonly Level[], ownAsk: boolean): void => {
      for (const l of levels) {
        const p = l.price;
        if (!(p > 0 && p < SCALE) || p % GRID !== 0 || !(l.size > 0)) continue;
        const yesAsk = ownAsk === (outcome === 0);
        const i = outcome === 0 ? p / GRID : (SCALE - p) / GRID;
        const r = outcome * 2 + (yesAsk ? 1 : 0);
        mk.setRaw(outcome, (yesAsk ? SLOTS : 0) + i, l.size);
        mk.seen(i);
        if (i < (mk.rawLo[r] as number)) mk.rawLo[r] = i;
        if (i > (mk.rawHi[r] as number)) mk.rawHi[r] = i;
      }
    };
    put(book.bids, false);
    put(book.asks, true);
  }

  /** Makes `fed` the token's raw book (a switch of token, a full book, a resync). */
  private syncFed(mk: MarketState, outcome: 0 | 1): void {
    const cap = this.limits.maxLevelSize;
    for (let s = 0; s < 2; s++) {
      const r = outcome * 2 + s;
      const lo = Math.min(mk.rawLo[r] as number, mk.fedLo[s] as number);
      const hi = Math.max(mk.rawHi[r] as number, mk.fedHi[s] as number);
      const rb = r * SLOTS;
      const fb = s * SLOTS;
      for (let i = lo; i <= hi; i += mk.step) mk.setFed(fb + i, mk.raw[rb + i] as number, cap);
    }
    mk.active = outcome;
    mk.needSync = false;
  }

  /**
   * Whether feeding the market's unchanged `fed` book again would change nothing: no key is dirty
   * (so every held external order is what `fed` asks for), the caps did not cut the last feed, no
   * GTD order is due, and with a queue model our orders are the ones the last feed filtered, each
   * with its state at these very sizes (so onBook sees no decrease and draws nothing) and nothing
   * to prune. Each condition is one of feed()'s steps being idle.
   */
  private settled(mk: MarketState): boolean {
    if (mk.dirtyN !== 0 || mk.cutPrev || this.clock.now() >= this.nextExpiry) return false;
    if (!this.queue) return true;
    if (mk.staleQ.length !== 0 || !this.filterCurrent(mk)) return false;
    const fed = mk.fed;
    for (const o of mk.ours) {
      const st = o.qs;
      if (st === null || st.deleted) return false;
      const i = o.yesIdx;
      const now = fed[o.isBid ? i : SLOTS + i] as number;
      if (st.level !== now || st.opposite !== fed[o.isBid ? SLOTS + i : i] || (mk.tradeDriven && st.ahead > now))
        return false;
    }
    return true;
  }

  /** One fed book of a market: the fill model's onBook and the external replacement. */
  private feed(mk: MarketState, full: boolean, hadLast: boolean): void {
    this.opened = false;
    if (this.queue) {
      // restingFromVenue reads openOrders(), which expires first.
      this.begin();
      this.opened = true;
      this.buildFilter(mk);
      const due = this.queueStep(mk, hadLast);
      this.dropStale(mk);
      if (due) {
        this.dueFills(mk);
        full = true;
      }
    }
    this.replaceExternal(mk, full);
    if (this.queue) {
      // This book is the next one's `previous`.
      const fed = mk.fed;
      for (const o of mk.ours) {
        const i = o.yesIdx;
        o.pNow = fed[o.isBid ? i : SLOTS + i] as number;
        o.pOpp = fed[o.isBid ? SLOTS + i : i] as number;
      }
    }
  }

  /** QueueFillModel's state pruning: this market's states whose id is not resting here any more. */
  private dropStale(mk: MarketState): void {
    const q = mk.staleQ;
    if (q.length === 0) return;
    for (const st of q) {
      if (st.deleted) continue;
      let live = false;
      for (const o of mk.ours)
        if (o.id === st.id) {
          live = true;
          break;
        }
      if (live) continue; // still used; listed again when that order finishes
      st.deleted = true;
      if (this.qStates.get(st.id) === st) this.qStates.delete(st.id);
    }
    mk.staleQ = [];
  }

  /** The external replacement of one fed book (desk.replace of the real levels). */
  private replaceExternal(mk: MarketState, full: boolean): void {
    const L = this.limits;
    const caps =
      (mk.fedCount[0] as number) > L.maxLevels ||
      (mk.fedCount[1] as number) > L.maxLevels ||
      (mk.fedSum[0] as number) > L.maxSideSize ||
      (mk.fedSum[1] as number) > L.maxSideSize;
    if (full || caps || mk.cutPrev) {
      this.fullReplace(mk, caps);
      mk.cutPrev = caps;
      return;
    }
    const nb = this.bestAskE(mk);
    if (nb !== mk.bestAskE) {
      // Bids between the old and the new best ask change between dropped and posted.
      const lo = Math.min(nb, mk.bestAskE);
      const hi = Math.min(Math.max(nb, mk.bestAskE) - 1, Math.max(mk.fedHi[0] as number, mk.xHi[0] as number));
      for (let i = lo; i <= hi; i += mk.step)
        if ((mk.fed[i] as number) > 0 || (mk.xPosted[i] as number) !== 0) mk.addDirty(i);
      mk.bestAskE = nb;
    }
    this.dirtyReplace(mk);
  }

  /** The engine's begin(): the clock read once, due GTD orders expired. */
  private begin(): void {
    const t = this.clock.now();
    this.now = t;
    if (t >= this.nextExpiry) this.expireDue(t);
  }

  private open(): void {
    if (!this.opened) {
      this.begin();
      this.opened = true;
    }
  }

  // ------------------------------------------------------------------------------- effective book

  private filtered(mk: MarketState, k: number): boolean {
    const f = mk.filt;
    for (let j = 0; j < mk.filtN; j++) if (f[j] === k) return true;
    return false;
  }

  /** The ask side's effective size at key k (caps not binding): sanitised, queue-filtered. */
  private effAsk(mk: MarketState, k: number): number {
    const v = mk.fed[k] as number;
    if (v <= 0) return 0;
    if (this.queue && mk.filtN > 0 && this.filtered(mk, k)) return 0;
    const m = this.limits.maxLevelSize;
    // Cut to the lot by division (exact below 10¹⁵, and maxLevelSize ≤ 10¹⁴): a double `%` is slow.
    return Math.floor((v < m ? v : m) / LOT) * LOT;
  }

  /** The effective size at key k (caps not binding): bids at or above the best ask dropped. */
  private eff(mk: MarketState, k: number): number {
    if (k < SLOTS && k >= mk.bestAskE) return 0;
    return this.effAsk(mk, k);
  }

  private bestAskE(mk: MarketState): number {
    const hi = mk.fedHi[1] as number;
    for (let i = mk.fedLo[1] as number; i <= hi; i += mk.step) if (this.effAsk(mk, SLOTS + i) > 0) return i;
    return SLOTS;
  }

  /** Queue models: the keys not posted (asks at our bids' prices, bids at our asks'), old and new dirty. */
  private buildFilter(mk: MarketState): void {
    // Unchanged (the common case: same orders as at the last book): nothing to revisit.
    if (this.filterCurrent(mk)) return;
    const ours = mk.ours;
    for (let j = 0; j < mk.filtN; j++) mk.addDirty(mk.filt[j] as number);
    if (mk.filt.length < ours.length) mk.filt = new Int32Array(ours.length * 2);
    let n = 0;
    for (const o of ours) {
      const k = o.isBid ? SLOTS + o.yesIdx : o.yesIdx;
      mk.filt[n++] = k;
      mk.addDirty(k);
    }
    mk.filtN = n;
  }

  /** Whether the filter built at the last feed is still our orders' (same orders, same keys). */
  private filterCurrent(mk: MarketState): boolean {
    const ours = mk.ours;
    if (ours.length !== mk.filtN) return false;
    for (let j = 0; j < ours.length; j++) {
      const o = ours[j] as OurNode;
      if (mk.filt[j] !== (o.isBid ? SLOTS + o.yesIdx : o.yesIdx)) return false;
    }
    return true;
  }

  // ------------------------------------------------------------------------------- replacement

  private withdraw(mk: MarketState, k: number): void {
    mk.xPosted[k] = 0;
    mk.xRem[k] = 0;
  }

  /** Posts one external order at key k: it meets our crossing orders first (we are maker). */
  private post(mk: MarketState, k: number, size: number): void {
    this.extSeq++;
    const isAsk = k >= SLOTS;
    const i = isAsk ? k - SLOTS : k;
    mk.xSeq[k] = this.extSeq;
    mk.holdAt(isAsk ? 1 : 0, i);
    let left = size;
    if (isAsk ? i <= mk.ourBestBid : i >= mk.ourBestAsk) left = this.extTake(mk, isAsk, i, size);
    mk.xRem[k] = left;
    if (left === size) mk.xPosted[k] = size;
    else {
      mk.xPosted[k] = -1;
      mk.addDirty(k);
    }
  }

  /** The dirty keys only (the common case): withdraw what changed, post asks then bids, best first. */
  private dirtyReplace(mk: MarketState): void {
    const n = mk.dirtyN;
    if (n === 0) return;
    if (this.work.length < n) this.work = new Int32Array(n * 2);
    if (this.postA.length < n) {
      this.postA = new Int32Array(n * 2);
      this.postAS = new Float64Array(n * 2);
      this.postB = new Int32Array(n * 2);
      this.postBS = new Float64Array(n * 2);
    }
    const work = this.work;
    for (let j = 0; j < n; j++) {
      const k = mk.dirty[j] as number;
      work[j] = k;
      mk.mark[k] = 0;
    }
    mk.dirtyN = 0;
    let na = 0;
    let nbids = 0;
    const xp = mk.xPosted;
    for (let j = 0; j < n; j++) {
      const k = work[j] as number;
      const e = this.eff(mk, k);
      const held = xp[k] as number;
      if (held !== 0 && !(held === e && e > 0)) {
        this.open();
        this.withdraw(mk, k);
      }
      if (e > 0 && xp[k] === 0) {
        if (k >= SLOTS) {
          this.postA[na] = k;
          this.postAS[na++] = e;
        } else {
          this.postB[nbids] = k;
          this.postBS[nbids++] = e;
        }
      }
    }
    if (na + nbids === 0) return;
    this.open();
    sortKeys(this.postA, this.postAS, na, true);
    sortKeys(this.postB, this.postBS, nbids, false);
    for (let j = 0; j < na; j++) this.post(mk, this.postA[j] as number, this.postAS[j] as number);
    for (let j = 0; j < nbids; j++) this.post(mk, this.postB[j] as number, this.postBS[j] as number);
  }

  /** Every level of the market (a token switch, a full book, caps, after queue fills). */
  private fullReplace(mk: MarketState, caps: boolean): void {
    for (let j = 0; j < mk.dirtyN; j++) mk.mark[mk.dirty[j] as number] = 0;
    mk.dirtyN = 0;
    const E = this.eFull;
    const bLo = Math.min(mk.fedLo[0] as number, mk.xLo[0] as number);
    const bHi = Math.max(mk.fedHi[0] as number, mk.xHi[0] as number);
    const aLo = Math.min(mk.fedLo[1] as number, mk.xLo[1] as number);
    const aHi = Math.max(mk.fedHi[1] as number, mk.xHi[1] as number);
    mk.bestAskE = this.bestAskE(mk);
    if (!caps) {
      for (let i = bLo; i <= bHi; i += mk.step) E[i] = this.eff(mk, i);
      for (let i = aLo; i <= aHi; i += mk.step) E[SLOTS + i] = this.effAsk(mk, SLOTS + i);
    } else {
      for (let i = bLo; i <= bHi; i += mk.step) E[i] = 0;
      for (let i = aLo; i <= aHi; i += mk.step) E[SLOTS + i] = 0;
      // sanitizeSide over the filtered book, best first, then bids at or above the best ask dropped.
      const asks: Level[] = [];
      for (let i = mk.fedLo[1] as number; i <= (mk.fedHi[1] as number); i += mk.step) {
        const v = mk.fed[SLOTS + i] as number;
        if (v > 0 && !(this.queue && this.filtered(mk, SLOTS + i)))
          asks.push({ price: (i * GRID) as Price, size: v as Shares });
      }
      const bids: Level[] = [];
      for (let i = mk.fedHi[0] as number; i >= (mk.fedLo[0] as number); i -= mk.step) {
        const v = mk.fed[i] as number;
        if (v > 0 && !(this.queue && this.filtered(mk, i)))
          bids.push({ price: (i * GRID) as Price, size: v as Shares });
      }
      const a = sanitizeSide(asks, this.limits);
      let b = sanitizeSide(bids, this.limits);
      const best = a[0];
      if (best !== undefined && b.length > 0 && (b[0] as Level).price >= best.price)
        b = b.filter((l) => l.price < best.price);
      for (const l of a) E[SLOTS + l.price / GRID] = l.size;
      for (const l of b) E[l.price / GRID] = l.size;
    }
    const xp = mk.xPosted;
    // Withdraw what the new levels do not keep: bids, then asks.
    for (let s = 0; s < 2; s++) {
      const base = s * SLOTS;
      const hi = s === 0 ? bHi : aHi;
      for (let i = s === 0 ? bLo : aLo; i <= hi; i += mk.step) {
        const k = base + i;
        const held = xp[k] as number;
        const e = E[k] as number;
        if (held !== 0 && !(held === e && e > 0)) {
          this.open();
          this.withdraw(mk, k);
        }
      }
    }
    for (let i = aLo; i <= aHi; i += mk.step) {
      const k = SLOTS + i;
      const e = E[k] as number;
      if (e > 0 && xp[k] === 0) {
        this.open();
        this.post(mk, k, e);
      }
    }
    for (let i = bHi; i >= bLo; i -= mk.step) {
      const e = E[i] as number;
      if (e > 0 && xp[i] === 0) {
        this.open();
        this.post(mk, i, e);
      }
    }
    this.tightenHeld(mk, 0, bLo, bHi);
    this.tightenHeld(mk, 1, aLo, aHi);
  }

  private tightenHeld(mk: MarketState, side: number, lo: number, hi: number): void {
    const base = side * SLOTS;
    let a = SLOTS;
    let b = -1;
    for (let i = lo; i <= hi; i += mk.step)
      if ((mk.xPosted[base + i] as number) !== 0) {
        if (a === SLOTS) a = i;
        b = i;
      }
    mk.xLo[side] = a;
    mk.xHi[side] = b;
  }

  /** desk.replace with a few synthetic levels (queue fills): withdraw all not kept, post these. */
  private replaceWith(mk: MarketState, bidsIn: readonly Level[], asksIn: readonly Level[]): void {
    const a = sanitizeSide(asksIn, this.limits);
    let b = sanitizeSide(bidsIn, this.limits);
    const best = a[0];
    if (best !== undefined && b.length > 0 && (b[0] as Level).price >= best.price)
      b = b.filter((l) => l.price < best.price);
    const sizeAt = (k: number): number => {
      const ls = k >= SLOTS ? a : b;
      const p = (k >= SLOTS ? k - SLOTS : k) * GRID;
      for (const l of ls) if (l.price === p) return l.size;
      return 0;
    };
    for (let s = 0; s < 2; s++) {
      const base = s * SLOTS;
      for (let i = mk.xLo[s] as number; i <= (mk.xHi[s] as number); i += mk.step) {
        const k = base + i;
        const held = mk.xPosted[k] as number;
        if (held === 0) continue;
        const e = sizeAt(k);
        if (!(held === e && e > 0)) {
          this.open();
          this.withdraw(mk, k);
        }
      }
    }
    for (const l of a) {
      const k = SLOTS + l.price / GRID;
      if (mk.xPosted[k] === 0) {
        this.open();
        this.post(mk, k, l.size);
      }
    }
    for (const l of b) {
      const k = l.price / GRID;
      if (mk.xPosted[k] === 0) {
        this.open();
        this.post(mk, k, l.size);
      }
    }
  }

  // ------------------------------------------------------------------------------- queue models

  private addDue(key: number, size: number): void {
    for (let j = 0; j < this.dueN; j++)
      if (this.dueK[j] === key) {
        this.dueS[j] = (this.dueS[j] as number) + size;
        return;
      }
    if (this.dueN === this.dueK.length) {
      const k = new Int32Array(this.dueN * 2);
      k.set(this.dueK);
      const s = new Float64Array(this.dueN * 2);
      s.set(this.dueS);
      this.dueK = k;
      this.dueS = s;
    }
    this.dueK[this.dueN] = key;
    this.dueS[this.dueN++] = size;
  }

  /** QueueFillModel.onBook's per-order loop; true when fills are due. */
  private queueStep(mk: MarketState, hadLast: boolean): boolean {
    this.dueN = 0;
    const fed = mk.fed;
    const prob = this.prob;
    for (const o of mk.ours) {
      const i = o.yesIdx;
      const now = fed[o.isBid ? i : SLOTS + i] as number;
      const opp = fed[o.isBid ? SLOTS + i : i] as number;
      let st = o.qs;
      if (st === null || st.deleted) {
        st = this.qStates.get(o.id) ?? null;
        if (st === null) {
          // Joined at the book fed before this one (at this one when it is the market's first).
          const j = hadLast ? o.pNow : now;
          st = new QState(o.id, mk.cid, j, j, hadLast ? o.pOpp : opp);
          this.qStates.set(o.id, st);
        }
        o.qs = st;
      }
      if (mk.tradeDriven) {
        const fall = st.level - now;
        if (fall > 0 && prob && !(this.random() < this.p)) st.ahead = Math.max(0, st.ahead - fall);
        if (now < st.ahead) st.ahead = now;
        st.level = now;
        st.opposite = opp;
        continue;
      }
      const dec = Math.max(0, st.level - now) + Math.max(0, opp - st.opposite);
      st.level = now;
      st.opposite = opp;
      if (dec <= 0) continue;
      if (prob && !(this.random() < this.p)) continue;
      const through = dec - st.ahead;
      st.ahead = Math.max(0, st.ahead - dec);
      if (through <= 0) continue;
      let fill = Math.min(through, o.remaining);
      fill -= fill % LOT;
      if (fill <= 0) continue;
      this.addDue(o.isBid ? i : SLOTS + i, fill);
    }
    return this.dueN > 0;
  }

  /** The queue model's synthetic fills: asks at our due bids (highest first), then bids at our due asks. */
  private dueFills(mk: MarketState): void {
    const asks: Level[] = [];
    const bids: Level[] = [];
    for (let j = 0; j < this.dueN; j++) {
      const k = this.dueK[j] as number;
      const l = { price: ((k >= SLOTS ? k - SLOTS : k) * GRID) as Price, size: this.dueS[j] as Shares };
      if (k < SLOTS) asks.push(l);
      else bids.push(l);
    }
    if (asks.length > 0) {
      asks.sort((x, y) => y.price - x.price);
      this.replaceWith(mk, [], asks);
    }
    if (bids.length > 0) {
      bids.sort((x, y) => x.price - y.price);
      this.replaceWith(mk, bids, []);
    }
  }

  /** QueueFillModel.onTrade: queue ahead first, then us, best price first, each share once. */
  private queueTrade(mk: MarketState, price: number, size: number, takerSold: boolean): void {
    const wantBid = takerSold;
    const reached: OurNode[] = [];
    for (const o of mk.ours)
      if (o.isBid === wantBid && (wantBid ? o.yesIdx * GRID >= price : o.yesIdx * GRID <= price)) reached.push(o);
    // Stable: best price first, then oldest first.
    reached.sort((x, y) => (wantBid ? y.yesIdx - x.yesIdx : x.yesIdx - y.yesIdx));
    let left = size;
    const due = new Map<number, number>();
    for (const o of reached) {
      if (left <= 0) break;
      let st = o.qs;
      if (st === null || st.deleted) {
        st = this.qStates.get(o.id) ?? null;
        if (st === null) {
          // The queue ahead is the last fed book's size at our price (none before the first).
          const i = o.yesIdx;
          const now = mk.hasLast ? (mk.fed[o.isBid ? i : SLOTS + i] as number) : 0;
          const opp = mk.hasLast ? (mk.fed[o.isBid ? SLOTS + i : i] as number) : 0;
          st = new QState(o.id, mk.cid, now, now, opp);
          this.qStates.set(o.id, st);
        }
        o.qs = st;
      }
      const eaten = Math.min(left, st.ahead);
      st.ahead -= eaten;
      left -= eaten;
      let fill = Math.min(left, o.remaining);
      fill -= fill % LOT;
      if (fill > 0) {
        left -= fill;
        const p = o.yesIdx * GRID;
        due.set(p, (due.get(p) ?? 0) + fill);
      }
    }
    if (due.size === 0) return;
    const levels = [...due]
      .sort((a, b) => (wantBid ? b[0] - a[0] : a[0] - b[0]))
      .map(([p, s]) => ({ price: p as Price, size: s as Shares }));
    if (wantBid) this.sweep(mk, [], levels);
    else this.sweep(mk, levels, []);
  }

  /** desk.sweep: synthetic orders meet ours; external levels they could reach are re-posted as they were. */
  private sweep(mk: MarketState, bidsIn: readonly Level[], asksIn: readonly Level[]): void {
    const a = sanitizeSide(asksIn, this.limits);
    const b = sanitizeSide(bidsIn, this.limits);
    if (a.length === 0 && b.length === 0) return;
    this.open();
    let lowAsk = SLOTS;
    for (const l of a) lowAsk = Math.min(lowAsk, l.price / GRID);
    let highBid = -1;
    for (const l of b) highBid = Math.max(highBid, l.price / GRID);
    // Taken aside: held bids at or above the lowest synthetic ask (best first), asks at or below the highest bid.
    const asideB: number[] = [];
    for (let i = mk.xHi[0] as number; i >= Math.max(lowAsk, mk.xLo[0] as number); i -= mk.step) {
      if (mk.xPosted[i] === 0) continue;
      let r = mk.xRem[i] as number;
      r -= r % LOT;
      this.withdraw(mk, i);
      mk.addDirty(i);
      if (r > 0) asideB.push(i, r);
    }
    const asideA: number[] = [];
    for (let i = mk.xLo[1] as number; i <= Math.min(highBid, mk.xHi[1] as number); i += mk.step) {
      const k = SLOTS + i;
      if (mk.xPosted[k] === 0) continue;
      let r = mk.xRem[k] as number;
      r -= r % LOT;
      this.withdraw(mk, k);
      mk.addDirty(k);
      if (r > 0) asideA.push(k, r);
    }
    for (const l of a) {
      this.extSeq++;
      const i = l.price / GRID;
      if (i <= mk.ourBestBid) this.extTake(mk, true, i, l.size);
    }
    for (const l of b) {
      this.extSeq++;
      const i = l.price / GRID;
      if (i >= mk.ourBestAsk) this.extTake(mk, false, i, l.size);
    }
    for (let j = 0; j < asideA.length; j += 2) this.post(mk, asideA[j] as number, asideA[j + 1] as number);
    for (let j = 0; j < asideB.length; j += 2) this.post(mk, asideB[j] as number, asideB[j + 1] as number);
  }

  /** Feeds one public trade (PaperVenue.applyTrade). */
  applyTrade(t: PublicTrade): TradeFeed {
    const h = this.handles.get(t.tokenId);
    if (h === undefined) return 'unknown-market';
    const mk = this.hMarket[h] as MarketState;
    if (!(t.price > 0 && t.price < SCALE) || !(t.size > 0) || mk.resolved) return 'ignored';
    this.begin();
    this.opened = true;
    const yes = this.hOutcome[h] === 0;
    const price = yes ? t.price : SCALE - t.price;
    const takerSold = yes ? t.side === 'SELL' : t.side === 'BUY';
    if (this.queue) {
      mk.tradeDriven = true;
      this.queueTrade(mk, price, t.size, takerSold);
    } else {
      const level = [{ price: price as Price, size: t.size }];
      if (takerSold) this.sweep(mk, [], level);
      else this.sweep(mk, level, []);
    }
    this.tradesFed++;
    return 'fed';
  }

  // ------------------------------------------------------------------------------- matching

  private holding(tokenId: string): Holding {
    let p = this.holdings.get(tokenId);
    if (p === undefined) {
      p = new Holding();
      this.holdings.set(tokenId, p);
    }
    return p;
  }

  /** Moves our leg's balances for a fill of f at own price, notional n, fee (engine settle). */
  private settle(o: OurNode, n: number, f: number, fee: number): void {
    if (o.isBuy) {
      const after = buyNeed(o.price, o.remaining - f, o.mk.fees);
      const release = o.reserved - after;
      o.reserved = after;
      this.reserved -= release;
      this.available += release - n - fee;
      this.holding(o.tokenId).available += f;
    } else {
      this.holding(o.tokenId).reserved -= f;
      this.available += n - fee;
    }
  }

  private release(o: OurNode): void {
    if (o.isBuy) {
      this.reserved -= o.reserved;
      this.available += o.reserved;
      o.reserved = 0;
    } else {
      const h = this.holding(o.tokenId);
      h.reserved -= o.remaining;
      h.available += o.remaining;
    }
  }

  /** Our resting order leaves the book for good (cancel, expiry, self-trade, fully matched). */
  private unrest(o: OurNode): void {
    o.live = false;
    const ours = o.mk.ours;
    const j = ours.indexOf(o);
    if (j >= 0) ours.splice(j, 1);
    o.mk.recomputeOurBest();
    this.live.delete(o.id);
    const st = o.qs;
    if (st !== null && !st.deleted) (this.markets.get(st.cid) as MarketState).staleQ.push(st);
  }

  private cancelNode(o: OurNode, status: OrderStatus = 'CANCELED'): void {
    this.release(o);
    this.unrest(o);
    this.orders.update(o.id, status, o.matched as Shares, this.now);
  }

  private expireDue(t: number): void {
    let next = Number.POSITIVE_INFINITY;
    const keep: OurNode[] = [];
    for (const o of this.gtd) {
      if (!o.live) continue;
      if (o.expiresAtMs <= t) this.cancelNode(o);
      else {
        keep.push(o);
        if (o.expiresAtMs < next) next = o.expiresAtMs;
      }
    }
    this.gtd = keep;
    this.nextExpiry = next;
  }

  /** An external order of `size` at index i meets our opposite orders, best first, oldest first. */
  private extTake(mk: MarketState, extIsAsk: boolean, i: number, size: number): number {
    let left = size;
    while (left > 0) {
      let best: OurNode | null = null;
      for (const o of mk.ours) {
        if (o.isBid !== extIsAsk) continue;
        if (extIsAsk ? o.yesIdx < i : o.yesIdx > i) continue;
        if (best === null || (extIsAsk ? o.yesIdx > best.yesIdx : o.yesIdx < best.yesIdx)) best = o;
      }
      if (best === null) break;
      const f = best.remaining < left ? best.remaining : left;
      this.makerFill(best, f);
      left -= f;
    }
    return left;
  }

  private makerFill(o: OurNode, f: number): void {
    const price = o.price;
    const n = notional(price, f);
    const fee = fillFee(o.mk.fees, 'maker', price, f);
    this.settle(o, n, f, fee);
    o.remaining -= f;
    o.matched += f;
    const tradeId = TRADE_PREFIX + String(++this.tradeSeq);
    this.orders.addTrade(o.id, tradeId);
    this.emit(tradeId, o, price, f, n, fee, 'maker');
    if (o.remaining === 0) {
      this.unrest(o);
      this.orders.update(o.id, 'MATCHED', o.matched as Shares, this.now);
    } else this.orders.update(o.id, 'LIVE', o.matched as Shares, this.now);
  }

  private emit(
    tradeId: string,
    o: OurNode,
    price: number,
    size: number,
    n: number,
    fee: number,
    liquidity: 'maker' | 'taker',
  ): void {
    const f: PaperFill = {
      tradeId,
      orderId: o.id,
      conditionId: o.mk.cid,
      tokenId: o.tokenId,
      side: o.isBuy ? 'BUY' : 'SELL',
      price: price as Price,
      size: size as Shares,
      notional: n as Micros,
      feeMicros: fee as Micros,
      liquidity,
      timeMs: this.now,
    };
    this.fills++;
    for (const l of this.listeners) l(f);
  }

  /** Best index of the opposite side of an incoming order of ours (external or ours). */
  private bestOpp(mk: MarketState, isBid: boolean): number {
    const rem = mk.xRem;
    if (isBid) {
      let b = mk.ourBestAsk;
      const hi = Math.min(mk.xHi[1] as number, b - 1);
      for (let i = mk.xLo[1] as number; i <= hi; i += mk.step)
        if ((rem[SLOTS + i] as number) > 0) {
          b = i;
          break;
        }
      return b;
    }
    let b = mk.ourBestBid;
    const lo = Math.max(mk.xLo[0] as number, b + 1);
    for (let i = mk.xHi[0] as number; i >= lo; i -= mk.step)
      if ((rem[i] as number) > 0) {
        b = i;
        break;
      }
    return b;
  }

  /** External shares an incoming order could take up to its limit (engine `available`). */
  private takeable(mk: MarketState, isBid: boolean, idx: number, cap: number): number {
    let sum = 0;
    if (isBid) {
      for (let i = mk.xLo[1] as number; i <= Math.min(idx, mk.xHi[1] as number); i += mk.step) {
        sum += mk.xRem[SLOTS + i] as number;
        if (sum >= cap) return sum;
      }
    } else {
      for (let i = mk.xHi[0] as number; i >= Math.max(idx, mk.xLo[0] as number); i -= mk.step) {
        sum += mk.xRem[i] as number;
        if (sum >= cap) return sum;
      }
    }
    return sum;
  }

  /** Our incoming order takes: per level our own opposite orders are cancelled first, then the external. */
  private match(mk: MarketState, o: OurNode, idx: number): void {
    const isBid = o.isBid;
    while (o.remaining > 0) {
      const b = this.bestOpp(mk, isBid);
      if (isBid ? b > idx : b < idx) break;
      if (isBid ? mk.ourBestAsk === b : mk.ourBestBid === b) {
        const selfs = mk.ours.filter((r) => r.isBid !== isBid && r.yesIdx === b);
        for (const r of selfs) this.cancelNode(r);
      }
      const k = isBid ? SLOTS + b : b;
      const r = mk.xRem[k] as number;
      if (r > 0) this.takerFill(mk, o, k, r < o.remaining ? r : o.remaining);
    }
  }

  private takerFill(mk: MarketState, o: OurNode, k: number, f: number): void {
    const extIsAsk = k >= SLOTS;
    const yesPrice = (extIsAsk ? k - SLOTS : k) * GRID;
    const pt = o.outcome === 0 ? yesPrice : SCALE - yesPrice;
    const nt = notional(pt, f);
    const feeT = fillFee(mk.fees, 'taker', pt, f);
    const feeM = fillFee(mk.fees, 'maker', yesPrice, f);
    this.settle(o, nt, f, feeT);
    this.accNotional += nt;
    this.accFee += feeT;
    mk.xRem[k] = (mk.xRem[k] as number) - f;
    mk.xPosted[k] = -1;
    mk.addDirty(k);
    o.remaining -= f;
    o.matched += f;
    const makerBuy = !extIsAsk;
    const kind: TradeKind = makerBuy === o.isBuy ? (o.isBuy ? 'mint' : 'merge') : 'transfer';
    const t: Trade = {
      id: TRADE_PREFIX + String(++this.tradeSeq),
      conditionId: mk.cid,
      kind,
      timeMs: this.now,
      size: f as Shares,
      yesPrice: yesPrice as Price,
      takerOrderId: o.id,
      takerOwner: PAPER_ACCOUNT,
      takerTokenId: o.tokenId,
      takerSide: o.isBuy ? 'BUY' : 'SELL',
      takerPrice: pt as Price,
      takerFee: feeT as Micros,
      makerOrderId: EXT_PREFIX + String(mk.xSeq[k]),
      makerOwner: EXTERNAL_ACCOUNT,
      makerTokenId: mk.yes,
      makerSide: makerBuy ? 'BUY' : 'SELL',
      makerPrice: yesPrice as Price,
      makerFee: feeM as Micros,
    };
    if (this.takerTrades === null) this.takerTrades = [t];
    else this.takerTrades.push(t);
    this.emit(t.id, o, pt, f, nt, feeT, 'taker');
  }

  // ------------------------------------------------------------------------------- orders

  /** Places one of our orders (PaperVenue.place's answer). */
  place(o: PaperOrder): SubmitResult {
    this.orders.prune(this.clock.now());
    const h = this.handles.get(o.tokenId);
    if (h === undefined) {
      this.begin();
      return reject(o.id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    }
    if (this.orders.has(o.id)) return reject(o.id, 'DUPLICATED', msgDuplicated(o.id));
    const mk = this.hMarket[h] as MarketState;
    const outcome = this.hOutcome[h] as 0 | 1;
    if (isValidOrderPrice(o.price, mk.tick as Price) && o.size < mk.minSize)
      return reject(o.id, 'INVALID_MIN_SIZE', msgMinSize(o.id, o.size, mk.minSize));
    this.begin();
    const r = this.submit(mk, outcome, o);
    if (r.ok) {
      const node = this.live.get(o.id);
      const rec: OurOrder = {
        id: o.id,
        conditionId: mk.cid,
        tokenId: o.tokenId,
        outcome: mk.market.outcomes[outcome],
        side: o.side,
        price: o.price,
        originalSize: o.size,
        sizeMatched: r.sizeMatched,
        status: r.orderStatus,
        type: o.orderType,
        createdAtMs: this.now,
        maker: o.maker,
        owner: o.owner,
        trades: r.trades.map((t) => t.id),
      };
      this.orders.add(rec, this.now);
      if (node !== undefined) this.requeueBehind(mk, node);
    }
    return r;
  }

  /** Engine rule 7's checks and the placement itself. */
  private submit(mk: MarketState, outcome: 0 | 1, inp: PaperOrder): SubmitResult {
    const id = inp.id;
    const price = inp.price;
    const size = inp.size;
    if (typeof id !== 'string' || id === '' || !Number.isSafeInteger(price) || !Number.isSafeInteger(size) || size <= 0)
      return reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    const isBuy = inp.side === 'BUY';
    if (!isBuy && inp.side !== 'SELL') return reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    if (mk.resolved) return reject(id, 'MARKET_NOT_READY', MSG_MARKET_NOT_READY);
    if (!isValidOrderPrice(price, mk.tick as Price))
      return reject(id, 'INVALID_TICK', msgInvalidTick(id, price, mk.tick));
    if (size % LOT !== 0) return reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    const type = inp.orderType;
    const postOnly = inp.postOnly === true;
    const exp = inp.expirationSec ?? 0;
    let expiresAtMs = 0;
    if (type === 'GTD') {
      if (!Number.isSafeInteger(exp) || exp * 1000 <= this.now) return reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
      expiresAtMs = exp * 1000;
    } else if (exp !== 0 || (type !== 'GTC' && type !== 'FOK' && type !== 'FAK')) {
      return reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    }
    if (postOnly && (type === 'FOK' || type === 'FAK')) return reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    const need = isBuy ? buyNeed(price, size, mk.fees) : size;
    if (isBuy ? this.available < need : (this.holdings.get(inp.tokenId)?.available ?? 0) < size)
      return reject(id, 'NOT_ENOUGH_BALANCE', MSG_NOT_ENOUGH_BALANCE);

    const isBid = (outcome === 0) === isBuy;
    const idx = (outcome === 0 ? price : SCALE - price) / GRID;
    const best = this.bestOpp(mk, isBid);
    const crosses = isBid ? best <= idx : best >= idx;
    if (crosses) {
      if (postOnly) return reject(id, 'POST_ONLY_CROSSES', MSG_POST_ONLY_CROSSES);
      if (type === 'FOK' && this.takeable(mk, isBid, idx, size) < size)
        return reject(id, 'FOK_NOT_FILLED', MSG_FOK_NOT_FILLED);
      if (type === 'FAK' && this.takeable(mk, isBid, idx, 1) === 0) return reject(id, 'FAK_NO_MATCH', MSG_FAK_NO_MATCH);
    } else if (type === 'FOK') return reject(id, 'FOK_NOT_FILLED', MSG_FOK_NOT_FILLED);
    else if (type === 'FAK') return reject(id, 'FAK_NO_MATCH', MSG_FAK_NO_MATCH);

    const hold = this.holding(inp.tokenId); // created once the order is accepted, as the engine's
    const node = new OurNode(id, mk, outcome, isBuy, price, idx, isBid, size, inp.tokenId, expiresAtMs);
    if (isBuy) {
      this.available -= need;
      this.reserved += need;
      node.reserved = need;
    } else {
      hold.available -= size;
      hold.reserved += size;
    }
    this.accNotional = 0;
    this.accFee = 0;
    this.takerTrades = null;
    if (crosses) this.match(mk, node, idx);
    let status: 'LIVE' | 'MATCHED' = 'MATCHED';
    if (node.remaining > 0 && (type === 'GTC' || type === 'GTD')) {
      status = 'LIVE';
      mk.ours.push(node);
      mk.recomputeOurBest();
      this.live.set(id, node);
      if (expiresAtMs !== 0) {
        this.gtd.push(node);
        if (expiresAtMs < this.nextExpiry) this.nextExpiry = expiresAtMs;
      }
      if (this.queue) {
        node.pNow = mk.fed[isBid ? idx : SLOTS + idx] as number;
        node.pOpp = mk.fed[isBid ? SLOTS + idx : idx] as number;
      }
    } else if (node.remaining > 0) this.release(node);
    const filled = node.matched;
    const n = this.accNotional;
    const trades = this.takerTrades ?? NO_TRADES;
    this.takerTrades = null;
    return {
      ok: true,
      orderId: id,
      status: filled > 0 ? 'matched' : 'live',
      orderStatus: status,
      makingAmount: isBuy ? n : filled,
      takingAmount: isBuy ? filled : n,
      feePaid: this.accFee as Micros,
      sizeMatched: filled as Shares,
      trades,
    };
  }

  /** ExternalLiquidity.requeueBehind: the external order at our new order's level goes behind it. */
  private requeueBehind(mk: MarketState, o: OurNode): void {
    const k = o.isBid ? o.yesIdx : SLOTS + o.yesIdx;
    if (mk.xPosted[k] === 0) return;
    let r = mk.xRem[k] as number;
    r -= r % LOT;
    this.withdraw(mk, k);
    mk.addDirty(k);
    if (r > 0) {
      this.post(mk, k, r);
      mk.addDirty(k);
    }
  }

  /** Cancels one of our orders (PaperVenue.cancel's answer). */
  cancel(orderId: string): CancelResult {
    this.begin();
    const node = this.live.get(orderId);
    if (node !== undefined && node.live) {
      this.cancelNode(node);
      return { canceled: [orderId], notCanceled: new Map() };
    }
    const reason = this.orders.get(orderId)?.status === 'MATCHED' ? CANCEL_ALREADY_MATCHED : CANCEL_NOT_FOUND;
    return { canceled: [], notCanceled: new Map([[orderId, reason]]) };
  }

  /** The record of one of our orders, or null when unknown. */
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
    this.begin();
    return this.orders.changes.take();
  }

  /** Our order `orderId` as a lookup now finds it (expiries due applied, old records pruned). */
  private current(orderId: string): OurOrder | undefined {
    this.begin();
    this.orders.prune(this.clock.now());
    return this.orders.get(orderId);
  }

  /** The reader of our order `orderId` will not read it again: its record goes if it is finished. */
  forgetOrder(orderId: string): void {
    this.orders.forget(orderId);
  }

  /** Our resting orders, oldest first. */
  openOrders(): OrderRecord[] {
    this.begin();
    return this.orders.live().map(toOrderRecord);
  }

  /** Our resting orders of a market (after expiring the due ones, as openOrders()). */
  openOrderCount(conditionId: string): number {
    this.begin();
    return this.markets.get(conditionId)?.ours.length ?? 0;
  }

  /**
   * The market resolved (the engine's resolve): our resting orders of it are cancelled with
   * CANCELED_MARKET_RESOLVED, new ones refused as not ready; its books and trades are no longer fed
   * (`skipped`, `ignored`: the backtest stops feeding a resolved market; PaperVenue would throw).
   */
  resolveMarket(conditionId: string, winnerTokenId: string): void {
    const mk = this.markets.get(conditionId);
    if (mk === undefined) throw new EngineError(`unknown market ${conditionId}`);
    if (mk.resolved) throw new EngineError(`market ${conditionId} is already resolved`);
    if (mk.market.tokens[0] !== winnerTokenId && mk.market.tokens[1] !== winnerTokenId)
      throw new EngineError(`token ${winnerTokenId} is not an outcome of ${conditionId}`);
    this.begin();
    // The engine cancels level by level (bids, then asks, best index last): the same records result.
    for (const o of mk.ours.slice()) this.cancelNode(o, 'CANCELED_MARKET_RESOLVED');
    mk.xPosted.fill(0);
    mk.xRem.fill(0);
    mk.resolved = true;
  }

  /** Our collateral and token balances (free and reserved), as the engine shows them. */
  balances(): AccountBalances {
    const tokens = new Map<string, Balance>();
    for (const [t, p] of this.holdings) tokens.set(t, { available: p.available, reserved: p.reserved });
    return { collateral: { available: this.available, reserved: this.reserved }, tokens };
  }

  /** Every fill of ours, as it happens. */
  onFill(listener: DeltaFillListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  stats(): DeltaVenueStats {
    return {
      markets: this.markets.size,
      booksFed: this.booksFed,
      booksUnchanged: this.booksUnchanged,
      booksStale: this.booksStale,
      booksUnknown: this.booksUnknown,
      tradesFed: this.tradesFed,
      fills: this.fills,
      ordersKept: this.orders.size,
      externalPosted: this.extSeq,
    };
  }
}

// The matching engine: markets, accounts, order entry, matching and settlement, with no HTTP and no
// I/O, so the simulator server, paper mode and backtests all use it as it is. Time comes only from
// the injected Clock. Every rejection is a value (SubmitResult / CancelResult); only misuse of the
// engine's own API (an unknown market, a bad tick, an over-withdrawal) throws.
//
// FILL RULES
// 1. One book per market, in YES terms. BUY YES @p and SELL NO @(1 − p) are bids at p; SELL YES @p
//    and BUY NO @(1 − p) are asks at p. The NO book is the exact mirror of the YES book (bookView),
//    so the two tokens' mids always sum to 1, and every trade keeps positions consistent.
// 2. Price-time priority: best price first, then oldest first within a price (FIFO per level).
// 3. The taker trades at the maker's resting price (any price improvement goes to the taker).
//    A fill of f shares at YES price P settles as
//      - transfer (BUY vs SELL of the same token): collateral buyer → seller, f tokens seller → buyer;
//      - mint (BUY YES vs BUY NO): the two pay P·f and (1 − P)·f, f complete sets are created, each
//        gets f of its token, and f collateral is locked in the market;
//      - merge (SELL YES vs SELL NO): f complete sets are destroyed, the two receive P·f and
//        (1 − P)·f, and f collateral leaves the market's lock.
// 4. Order types. GTC rests until filled or cancelled. GTD rests until filled, cancelled or its
//    expiration (live while now < expirationSec × 1000; expired orders are swept at the start of
//    every engine operation, and `expire()` sweeps explicitly, so none is ever matched or shown).
//    Both first match whatever crosses and rest the remainder (partial fills). FOK fills completely
//    or is rejected, checked before any fill against the liquidity it could actually take (orders
//    of the same owner excluded, rule 6). FAK fills what it can and the rest is cancelled; it is
//    rejected when nothing could match. Post-only (GTC/GTD only) is rejected if it would cross the
//    book at all (own orders included), so it never takes.
// 5. An order record is LIVE while resting, MATCHED once fully filled or when a FOK/FAK took what it
//    could, CANCELED when cancelled, self-trade cancelled or expired (sizeMatched keeps any partial
//    fill), CANCELED_MARKET_RESOLVED when its market resolved. Rejected orders are not recorded, so
//    a rejected id may be sent again; an accepted id stays a duplicate as long as its record is
//    kept (forever by default; `retainFinishedMs` / `pruneFinished` drop old finished records).
// 6. Self-trade rule: cancel resting. When an incoming order reaches a resting order of the same
//    owner, the resting order is cancelled (status CANCELED, update reason `self-trade`) and
//    matching goes on; no trade between one owner's orders ever happens. A FOK or FAK that is
//    rejected cancels nothing.
// 7. Checks, in this order, with docs/protocol.md §4 texts: unknown token / malformed values →
//    `Invalid order payload`; market closed, resolved or not accepting → not ready; id already
//    known → Duplicated; price off the current tick or outside [tick, 1 − tick] → tick rule; size
//    under the market minimum → minimum size; size not a multiple of 0.01, GTD expiration not in
//    the future, expiration on a non-GTD order, post-only on FOK/FAK → `Invalid order payload`;
//    short of free balance → `not enough balance / allowance`; then post-only, FOK and FAK rules.
// 8. Balances and reservations: a BUY reserves notional at its limit plus the worst-case fee
//    (fees.ts), a SELL reserves its tokens; a fill consumes from the reservation and releases any
//    excess (price improvement, a lower fee), cancel/expiry/kill releases the rest.
// 9. Fees in collateral, by the one fee function (src/core/fees.ts fillFee) on the market's fee
//    model: by default the taker pays the market's taker bps, the maker the maker bps, of
//    min(p, 1 − p) × size; a market configured with another model (the public exchange's `fd`:
//    takers r × (p(1 − p))^e per share, makers nothing) is charged by it. Rounded down (fees.ts).
//    Buyers pay on top, sellers have it deducted.
// 10. Tick change (`setTick`): new orders must respect the new tick; resting orders stay where
//    they are and match at their own price even if it is off the new tick (the book's grid
//    narrows to hold them; nothing is repriced or cancelled).
// 11. Lifecycle: `closeMarket` stops new orders (resting orders can still be cancelled);
//    `resolve` cancels every resting order with CANCELED_MARKET_RESOLVED and fixes the winner;
//    `redeem` then pays 1 collateral per winning token and burns the holder's tokens of both
//    outcomes. neg_risk is carried for views only (no conversion between markets).
//
// 12. Amounts: prices are multiples of 0.0001 and sizes of 0.01 share, so every notional is an
//    exact integer of millionths (fees.ts); both legs of a mint pay exactly f between them.
// 13. Reverting a trade (`revertTrade`, a failed on-chain settlement simulated by the venue): each
//    leg gives back what the fill gave it and gets back what it paid (collateral, tokens, fees),
//    and the market's lock moves back. A party short of the free balance to give back first has
//    its resting orders on that asset cancelled, newest first, until the reservation they free
//    covers it; if even that cannot cover it, or the market is resolved, nothing changes and the
//    trade stands. Order records keep their sizeMatched (the match happened; its settlement did not).
//
// Events (`onTrade`, `onOrderUpdate`) are delivered synchronously once an operation's state is
// final, in the order they happened; the simulator, paper mode and backtests build positions,
// last trade prices and price history from them.
//
// VALUE CONSERVATION (checked by audit.ts after every random step in the tests):
//   Σ accounts (free + reserved collateral) + fees collected + Σ markets locked
//     = deposited − withdrawn,
// and per market, before resolution Σ YES held = Σ NO held = locked; after, Σ winner held = locked.
import type { Clock } from '../../core/clock.js';
import { InvariantError, OddsmakerError } from '../../core/errors.js';
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import type { Side } from '../../core/order.js';
import { assertTick, isValidOrderPrice } from '../../core/tick.js';
import { Accounts, BalanceError, assertAmount, type Account } from './accounts.js';
import type { RestingSide } from './book-side.js';
import { ExpiryHeap } from './expiry-heap.js';
import { EngineEvents, TradeRec, UpdateRec } from './events.js';
import { FinishedStore } from './finished.js';
import { fillFee, type FeeRole } from '../../core/fees.js';
import { buyNeed, LOT, MAX_BPS, notional } from './fees.js';
import { MarketBook } from './market.js';
import {
  CANCEL_ALREADY_MATCHED,
  CANCEL_NOT_FOUND,
  MSG_FAK_NO_MATCH,
  MSG_FOK_NOT_FILLED,
  MSG_INVALID_ORDER,
  MSG_MARKET_NOT_READY,
  MSG_NOT_ENOUGH_BALANCE,
  MSG_POST_ONLY_CROSSES,
  msgDuplicated,
  msgInvalidTick,
  msgMinSize,
  type RejectCode,
} from './messages.js';
import { OrderNode } from './order.js';
import type {
  AccountBalances,
  Balance,
  BookView,
  CancelManyResult,
  CancelResult,
  LastTrade,
  MarketConfig,
  MarketState,
  OrderInput,
  OrderRecord,
  OrderStatus,
  OrderUpdateListener,
  OrderUpdateReason,
  Rejected,
  SubmitResult,
  TopOfBook,
  Trade,
  TradeKind,
  TradeListener,
} from './types.js';

/** Misuse of the engine's own API (unknown market, invalid settings): a caller bug. */
export class EngineError extends OddsmakerError {
  constructor(message: string) {
    super('SIM_ENGINE', message, false);
  }
}

export interface EngineOptions {
  readonly clock: Clock;
  /**
   * How long the records of finished orders (matched, cancelled, expired) stay for lookup and
   * duplicate detection; older ones are dropped as operations go (default: forever). Paper mode
   * and backtests can keep this short: the events carry everything a ledger needs.
   */
  readonly retainFinishedMs?: number;
  /** Prefix of trade ids (`<prefix><sequence>`); default `trade-`. */
  readonly tradeIdPrefix?: string;
}

interface TokenRef {
  readonly market: MarketBook;
  readonly outcome: 0 | 1;
}

const NO_TRADES: readonly Trade[] = Object.freeze([]);
// Cancel answers are immutable values: shared, not allocated per call.
const CANCELED: CancelResult = Object.freeze({ canceled: true });
const NOT_FOUND: CancelResult = Object.freeze({ canceled: false, reason: CANCEL_NOT_FOUND });
const ALREADY_MATCHED: CancelResult = Object.freeze({ canceled: false, reason: CANCEL_ALREADY_MATCHED });

/** One side of a trade being reverted (rule 13). */
interface RevertLeg {
  readonly account: Account;
  readonly tokenId: string;
  readonly isBuy: boolean;
  readonly notional: number;
  readonly fee: number;
  /** What it gives back: tokens (a buyer) or collateral (a seller). */
  readonly need: number;
  /** Its free balance of that asset now. */
  readonly free: () => number;
}

/** Read-only access to the engine's internals for audit.ts; not for other callers. */
export interface EngineInternals {
  readonly markets: ReadonlyMap<string, MarketBook>;
  /** A LIVE order's node, or a finished order's sequence number in `finished`. */
  readonly orders: ReadonlyMap<string, OrderNode | number>;
  readonly finished: FinishedStore;
  readonly accounts: Accounts;
  readonly feesCollected: number;
}

export class MatchingEngine {
  private readonly clock: Clock;
  private readonly tradeIdPrefix: string;
  private readonly retainMs: number;
  private readonly markets = new Map<string, MarketBook>();
  private readonly tokens = new Map<string, TokenRef>();
  // Every known order id: the node while LIVE, then its sequence number in the finished store.
  private readonly orders = new Map<string, OrderNode | number>();
  private readonly finished = new FinishedStore();
  private readonly accounts = new Accounts();
  private readonly expiries = new ExpiryHeap();
  private fees = 0;
  private tradeSeq = 0;
  private now = 0;
  private readonly events = new EngineEvents();
  // Accumulators of the incoming order's fills during one submit (no per-submit allocation).
  private accNotional = 0;
  private accFee = 0;

  constructor(opts: EngineOptions) {
    this.clock = opts.clock;
    this.tradeIdPrefix = opts.tradeIdPrefix ?? 'trade-';
    this.retainMs = opts.retainFinishedMs ?? Number.POSITIVE_INFINITY;
  }

  // ---------------------------------------------------------------- markets

  addMarket(cfg: MarketConfig): void {
    if (this.markets.has(cfg.conditionId)) throw new EngineError(`market ${cfg.conditionId} already exists`);
    const [yes, no] = cfg.tokens;
    if (yes === no) throw new EngineError(`market ${cfg.conditionId}: the two tokens must differ`);
    for (const t of cfg.tokens) if (this.tokens.has(t)) throw new EngineError(`token ${t} already belongs to a market`);
    assertTick(cfg.tick);
    if (!Number.isSafeInteger(cfg.minSize) || cfg.minSize < 0)
      throw new EngineError(`invalid minimum size ${String(cfg.minSize)}`);
    for (const bps of [cfg.makerFeeBps, cfg.takerFeeBps]) {
      if (!Number.isSafeInteger(bps) || bps < 0 || bps > MAX_BPS)
        throw new EngineError(`invalid fee ${String(bps)} bps`);
    }
    const m = new MarketBook(cfg);
    this.markets.set(cfg.conditionId, m);
    this.tokens.set(yes, { market: m, outcome: 0 });
    this.tokens.set(no, { market: m, outcome: 1 });
  }

  market(conditionId: string): MarketState | undefined {
    return this.markets.get(conditionId)?.state();
  }

  /** The market of a token and the token's outcome index (0 YES, 1 NO). */
  marketOfToken(tokenId: string): { conditionId: string; outcomeIndex: 0 | 1 } | undefined {
    const r = this.tokens.get(tokenId);
    return r === undefined ? undefined : { conditionId: r.market.conditionId, outcomeIndex: r.outcome };
  }

  conditionIds(): string[] {
    return [...this.markets.keys()];
  }

  /** Changes the market's tick; resting orders keep their prices (fill rule 10). */
  setTick(conditionId: string, tick: Price): void {
    assertTick(tick);
    this.mustMarket(conditionId).setTick(tick);
  }

  /** Opens or pauses order entry (a closed or resolved market stays closed). */
  setAcceptingOrders(conditionId: string, accepting: boolean): void {
    this.mustMarket(conditionId).acceptingOrders = accepting;
  }

  /** Stops new orders for good; resting orders stay cancellable. */
  closeMarket(conditionId: string): void {
    const m = this.mustMarket(conditionId);
    m.acceptingOrders = false;
    m.closed = true;
  }

  /** Cancels every resting order with CANCELED_MARKET_RESOLVED and fixes the winner (rule 11). */
  resolve(conditionId: string, winnerTokenId: string): void {
    const m = this.mustMarket(conditionId);
    if (m.resolved) throw new EngineError(`market ${conditionId} is already resolved`);
    const outcome = m.tokens.indexOf(winnerTokenId);
    if (outcome !== 0 && outcome !== 1)
      throw new EngineError(`token ${winnerTokenId} is not an outcome of ${conditionId}`);
    this.begin();
    for (const side of [m.bids, m.asks]) {
      for (const lv of side.levels) {
        if (lv === null) continue;
        while (lv.head !== null) this.cancelNode(lv.head, 'CANCELED_MARKET_RESOLVED', 'resolved');
      }
    }
    m.acceptingOrders = false;
    m.closed = true;
    m.winner = outcome;
    this.events.flush();
  }

  // ---------------------------------------------------------------- accounts

  deposit(owner: string, amount: Micros): void {
    this.accounts.deposit(owner, amount);
  }

  /** Withdraws free collateral; throws BalanceError when short. */
  withdraw(owner: string, amount: Micros): void {
    this.accounts.withdraw(owner, amount);
  }

  /** Converts `size` free collateral into `size` of each outcome token (a complete set). */
  split(owner: string, conditionId: string, size: Shares): void {
    assertAmount(size, 'split size');
    const m = this.mustMarket(conditionId);
    if (m.resolved) throw new EngineError(`market ${conditionId} is resolved`);
    const a = this.accounts.get(owner);
    if (a.available < size) throw new BalanceError(`split exceeds the free collateral of ${owner}`);
    a.available -= size;
    a.position(m.tokens[0]).available += size;
    a.position(m.tokens[1]).available += size;
    m.locked += size;
  }

  /** Converts `size` of each outcome token back into `size` collateral. */
  merge(owner: string, conditionId: string, size: Shares): void {
    assertAmount(size, 'merge size');
    const m = this.mustMarket(conditionId);
    if (m.resolved) throw new EngineError(`market ${conditionId} is resolved`);
    const a = this.accounts.get(owner);
    const y = a.position(m.tokens[0]);
    const n = a.position(m.tokens[1]);
    if (y.available < size || n.available < size) throw new BalanceError(`merge exceeds the free tokens of ${owner}`);
    y.available -= size;
    n.available -= size;
    m.locked -= size;
    a.available += size;
  }

  /** Funds an account with `size` of both tokens: a deposit of `size` then a split. */
  mint(owner: string, conditionId: string, size: Shares): void {
    this.mustMarket(conditionId);
    this.accounts.deposit(owner, size);
    this.split(owner, conditionId, size);
  }

  /** After resolution: pays 1 per winning token held, burns both tokens; returns the payout. */
  redeem(owner: string, conditionId: string): Micros {
    const m = this.mustMarket(conditionId);
    if (!m.resolved) throw new EngineError(`market ${conditionId} is not resolved`);
    const a = this.accounts.find(owner);
    if (a === undefined) return 0 as Micros;
    const win = a.position(m.tokens[m.winner as 0 | 1]);
    const lose = a.position(m.tokens[m.winner === 0 ? 1 : 0]);
    const payout = win.available;
    win.available = 0;
    lose.available = 0;
    m.locked -= payout;
    a.available += payout;
    return payout as Micros;
  }

  balances(owner: string): AccountBalances {
    const a = this.accounts.find(owner);
    const tokens = new Map<string, Balance>();
    if (a === undefined) return { collateral: { available: 0, reserved: 0 }, tokens };
    for (const [t, p] of a.positions) tokens.set(t, { available: p.available, reserved: p.reserved });
    return { collateral: { available: a.available, reserved: a.reserved }, tokens };
  }

  /** Collateral collected in fees since start. */
  get feesCollected(): Micros {
    return this.fees as Micros;
  }

  // ---------------------------------------------------------------- events

  onTrade(listener: TradeListener): () => void {
    return this.events.onTrade(listener);
  }

  onOrderUpdate(listener: OrderUpdateListener): () => void {
    return this.events.onOrderUpdate(listener);
  }

  // ---------------------------------------------------------------- orders

  submit(input: OrderInput): SubmitResult {
    this.begin();
    const r = this.place(input);
    this.events.flush();
    return r;
  }

  cancel(orderId: string, owner?: string): CancelResult {
    this.begin();
    const o = this.orders.get(orderId);
    let r: CancelResult;
    if (o === undefined) r = NOT_FOUND;
    else if (typeof o === 'number') {
      const f = this.finished;
      r =
        owner !== undefined && f.ownerAt(o) !== owner
          ? NOT_FOUND
          : f.statusAt(o) === 'MATCHED'
            ? ALREADY_MATCHED
            : NOT_FOUND;
    } else if (owner !== undefined && o.owner !== owner) r = NOT_FOUND;
    else {
      this.cancelNode(o, 'CANCELED', 'canceled');
      r = CANCELED;
    }
    this.events.flush();
    return r;
  }

  /** Cancels several orders, answering in the shape of DELETE /order's result. */
  cancelMany(orderIds: readonly string[], owner?: string): CancelManyResult {
    const out: CancelManyResult = { canceled: [], notCanceled: {} };
    for (const id of orderIds) {
      const r = this.cancel(id, owner);
      if (r.canceled) out.canceled.push(id);
      else out.notCanceled[id] = r.reason;
    }
    return out;
  }

  /** Cancels every resting order of an owner (optionally in one market); returns their ids. */
  cancelAll(owner: string, conditionId?: string): string[] {
    this.begin();
    const a = this.accounts.find(owner);
    const ids: string[] = [];
    if (a !== undefined) {
      for (const o of a.liveOrders()) {
        if (conditionId !== undefined && o.market.conditionId !== conditionId) continue;
        this.cancelNode(o, 'CANCELED', 'canceled');
        ids.push(o.id);
      }
    }
    this.events.flush();
    return ids;
  }

  /** Undoes a trade's settlement (rule 13); false when it cannot be undone (nothing changed). */
  revertTrade(t: Trade): boolean {
    this.begin();
    const m = this.mustMarket(t.conditionId);
    if (m.resolved) return false;
    const maker = this.revertLeg(t.makerOwner, t.makerTokenId, t.makerSide, t.makerPrice, t.makerFee, t.size);
    const taker = this.revertLeg(t.takerOwner, t.takerTokenId, t.takerSide, t.takerPrice, t.takerFee, t.size);
    if (maker === null || taker === null) return false;
    for (const l of [maker, taker]) {
      if (l.free() < l.need) this.freeReserved(l);
      const pos = l.account.position(l.tokenId);
      if (l.isBuy) {
        pos.available -= t.size;
        l.account.available += l.notional + l.fee;
      } else {
        l.account.available -= l.notional - l.fee;
        pos.available += t.size;
      }
    }
    m.locked -= (maker.isBuy ? maker.notional : -maker.notional) + (taker.isBuy ? taker.notional : -taker.notional);
    this.fees -= maker.fee + taker.fee;
    this.events.flush();
    return true;
  }

  /** One leg of a revert, or null when its account cannot give back what the fill gave it. */
  private revertLeg(
    owner: string,
    tokenId: string,
    side: Side,
    price: number,
    fee: number,
    size: number,
  ): RevertLeg | null {
    const a = this.accounts.find(owner);
    if (a === undefined) return null;
    const isBuy = side === 'BUY';
    const n = notional(price, size);
    const need = isBuy ? size : n - fee;
    const free = (): number => (isBuy ? a.position(tokenId).available : a.available);
    const reserved = isBuy ? a.position(tokenId).reserved : a.reserved;
    if (free() + reserved < need) return null;
    return { account: a, tokenId, isBuy, notional: n, fee, need, free };
  }

  /** Cancels the leg account's resting orders holding the asset it must give back, newest first, until it is free. */
  private freeReserved(l: RevertLeg): void {
    const live = l.account.liveOrders();
    for (let i = live.length - 1; i >= 0 && l.free() < l.need; i--) {
      const o = live[i] as OrderNode;
      // A buyer gives back tokens: its SELL orders of that token hold them. A seller gives back
      // collateral: its BUY orders hold it.
      if (l.isBuy ? !o.isBuy && o.tokenId === l.tokenId : o.isBuy) this.cancelNode(o, 'CANCELED', 'canceled');
    }
  }

  /** Expires every GTD order due at `nowMs` (default: the clock); returns how many expired. */
  expire(nowMs?: number): number {
    const t = nowMs ?? this.clock.now();
    this.now = t;
    const n = this.sweep(t);
    this.events.flush();
    return n;
  }

  getOrder(orderId: string): OrderRecord | undefined {
    this.begin();
    this.events.flush();
    const o = this.orders.get(orderId);
    if (o === undefined) return undefined;
    return typeof o === 'number' ? this.finished.record(o) : o.snapshot();
  }

  /** Resting orders of an owner, optionally in one market or one token. */
  openOrders(owner: string, filter: { conditionId?: string; tokenId?: string } = {}): OrderRecord[] {
    this.begin();
    this.events.flush();
    const a = this.accounts.find(owner);
    if (a === undefined) return [];
    const out: OrderRecord[] = [];
    for (const o of a.liveOrders()) {
      if (filter.conditionId !== undefined && o.market.conditionId !== filter.conditionId) continue;
      if (filter.tokenId !== undefined && o.tokenId !== filter.tokenId) continue;
      out.push(o.snapshot());
    }
    return out;
  }

  /**
   * Drops the records of orders that stopped being LIVE before `beforeMs` (memory for long runs).
   * Their ids are then unknown: a lookup finds nothing and the id is no longer a duplicate.
   */
  pruneFinished(beforeMs: number): number {
    let n = 0;
    const f = this.finished;
    while (f.length > 0 && f.finishedAt(f.head) < beforeMs) {
      // The map still maps this id to this entry: the id could not be accepted again meanwhile.
      this.orders.delete(f.shift());
      n++;
    }
    return n;
  }

  // ---------------------------------------------------------------- books

  /** The book of one token (the NO book mirrors the YES book); undefined for an unknown token. */
  bookView(tokenId: string, depth = Number.POSITIVE_INFINITY): BookView | undefined {
    const ref = this.tokens.get(tokenId);
    if (ref === undefined) return undefined;
    this.begin();
    this.events.flush();
    const m = ref.market;
    const mirror = ref.outcome === 1;
    const lt = m.lastTrade;
    return {
      conditionId: m.conditionId,
      tokenId,
      bids: m.levels(mirror ? m.asks : m.bids, mirror, depth),
      asks: m.levels(mirror ? m.bids : m.asks, mirror, depth),
      tick: m.tick as Price,
      minSize: m.minSize as Shares,
      negRisk: m.negRisk,
      lastTradePrice: lt === null ? null : ((mirror ? SCALE - lt.yesPrice : lt.yesPrice) as Price),
      timestampMs: this.now,
    };
  }

  /** Best bid and ask of a token, in its own terms. */
  topOfBook(tokenId: string): TopOfBook | undefined {
    const ref = this.tokens.get(tokenId);
    if (ref === undefined) return undefined;
    this.begin();
    this.events.flush();
    const m = ref.market;
    const g = m.grid;
    const yesBid = m.bids.best >= 0 ? m.bids.best * g : null;
    const yesAsk = m.asks.best < m.asks.slots ? m.asks.best * g : null;
    if (ref.outcome === 0) return { bid: yesBid as Price | null, ask: yesAsk as Price | null };
    return {
      bid: (yesAsk === null ? null : SCALE - yesAsk) as Price | null,
      ask: (yesBid === null ? null : SCALE - yesBid) as Price | null,
    };
  }

  /** (bid + ask) / 2 in the token's terms, or null unless both sides have orders. */
  midpoint(tokenId: string): Price | null | undefined {
    const t = this.topOfBook(tokenId);
    if (t === undefined) return undefined;
    if (t.bid === null || t.ask === null) return null;
    // Both are multiples of 100 millionths, so the half-sum is an exact integer.
    return ((t.bid + t.ask) / 2) as Price;
  }

  lastTrade(tokenId: string): LastTrade | null | undefined {
    const ref = this.tokens.get(tokenId);
    if (ref === undefined) return undefined;
    const lt = ref.market.lastTrade;
    if (lt === null) return null;
    const yes = ref.outcome === 0;
    return {
      price: (yes ? lt.yesPrice : SCALE - lt.yesPrice) as Price,
      side: lt.takerBid === yes ? 'BUY' : 'SELL',
      timeMs: lt.timeMs,
    };
  }

  /** For audit.ts only. */
  internals(): EngineInternals {
    return {
      markets: this.markets,
      orders: this.orders,
      finished: this.finished,
      accounts: this.accounts,
      feesCollected: this.fees,
    };
  }

  // ---------------------------------------------------------------- internals

  private mustMarket(conditionId: string): MarketBook {
    const m = this.markets.get(conditionId);
    if (m === undefined) throw new EngineError(`unknown market ${conditionId}`);
    return m;
  }

  /** Every operation starts here: reads the clock once and sweeps due expirations. */
  private begin(): void {
    const t = this.clock.now();
    this.now = t;
    if (this.expiries.peekTime() <= t) this.sweep(t);
    if (this.retainMs !== Number.POSITIVE_INFINITY) {
      const f = this.finished;
      if (f.length > 0 && f.finishedAt(f.head) < t - this.retainMs) this.pruneFinished(t - this.retainMs);
    }
  }

  private sweep(t: number): number {
    let n = 0;
    while (this.expiries.peekTime() <= t) {
      const o = this.expiries.pop() as OrderNode;
      if (o.status === 'LIVE' && o.resting) {
        this.cancelNode(o, 'CANCELED', 'expired');
        n++;
      }
    }
    return n;
  }

  private reject(orderId: string, code: RejectCode, message: string): Rejected {
    return { ok: false, orderId, code, message };
  }

  private place(inp: OrderInput): SubmitResult {
    const id = inp.id;
    const ref = this.tokens.get(inp.tokenId);
    const price = inp.price;
    const size = inp.size;
    const created = inp.createdAtMs ?? this.now;
    if (
      ref === undefined ||
      typeof id !== 'string' ||
      id === '' ||
      !Number.isSafeInteger(price) ||
      !Number.isSafeInteger(size) ||
      size <= 0 ||
      !Number.isSafeInteger(created)
    ) {
      return this.reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    }
    const isBuy = inp.side === 'BUY';
    if (!isBuy && inp.side !== 'SELL') return this.reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    const m = ref.market;
    if (!m.acceptingOrders || m.closed || m.winner !== -1)
      return this.reject(id, 'MARKET_NOT_READY', MSG_MARKET_NOT_READY);
    if (this.orders.has(id)) return this.reject(id, 'DUPLICATED', msgDuplicated(id));
    if (!isValidOrderPrice(price, m.tick as Price))
      return this.reject(id, 'INVALID_TICK', msgInvalidTick(id, price, m.tick));
    if (size < m.minSize) return this.reject(id, 'INVALID_MIN_SIZE', msgMinSize(id, size, m.minSize));
    if (size % LOT !== 0) return this.reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    const type = inp.orderType;
    const postOnly = inp.postOnly === true;
    const exp = inp.expirationSec ?? 0;
    let expiresAtMs = 0;
    if (type === 'GTD') {
      if (!Number.isSafeInteger(exp) || exp * 1000 <= this.now)
        return this.reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
      expiresAtMs = exp * 1000;
    } else if (exp !== 0 || (type !== 'GTC' && type !== 'FOK' && type !== 'FAK')) {
      return this.reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);
    }
    if (postOnly && (type === 'FOK' || type === 'FAK')) return this.reject(id, 'INVALID_ORDER', MSG_INVALID_ORDER);

    const outcome = ref.outcome;
    const tokenId = inp.tokenId;
    const a = this.accounts.find(inp.owner);
    const need = isBuy ? buyNeed(price, size, m.fees) : size;
    if (a === undefined) return this.reject(id, 'NOT_ENOUGH_BALANCE', MSG_NOT_ENOUGH_BALANCE);
    if (isBuy ? a.available < need : (a.positions.get(tokenId)?.available ?? 0) < size) {
      return this.reject(id, 'NOT_ENOUGH_BALANCE', MSG_NOT_ENOUGH_BALANCE);
    }

    const isBid = (outcome === 0) === isBuy;
    const yesPrice = outcome === 0 ? price : SCALE - price;
    const idx = yesPrice / m.grid; // exact: the grid divides every tick the market has had
    const opp = isBid ? m.asks : m.bids;
    const crosses = isBid ? opp.best <= idx : opp.best >= idx;
    if (crosses) {
      if (postOnly) return this.reject(id, 'POST_ONLY_CROSSES', MSG_POST_ONLY_CROSSES);
      if (type === 'FOK' && this.available(opp, isBid, idx, a, size) < size) {
        return this.reject(id, 'FOK_NOT_FILLED', MSG_FOK_NOT_FILLED);
      }
      if (type === 'FAK' && this.available(opp, isBid, idx, a, 1) === 0) {
        return this.reject(id, 'FAK_NO_MATCH', MSG_FAK_NO_MATCH);
      }
    } else if (type === 'FOK') {
      return this.reject(id, 'FOK_NOT_FILLED', MSG_FOK_NOT_FILLED);
    } else if (type === 'FAK') {
      return this.reject(id, 'FAK_NO_MATCH', MSG_FAK_NO_MATCH);
    }

    const pos = a.position(tokenId); // created only once the order is accepted
    const o = new OrderNode(
      id,
      a,
      pos,
      m,
      outcome,
      isBuy,
      price,
      yesPrice,
      isBid,
      size,
      type,
      postOnly,
      expiresAtMs,
      created,
    );
    if (isBuy) {
      a.available -= need;
      a.reserved += need;
      o.reserved = need;
    } else {
      pos.available -= size;
      pos.reserved += size;
    }

    this.accNotional = 0;
    this.accFee = 0;
    const trades = crosses ? this.match(o, opp, idx) : NO_TRADES;

    if (o.remaining > 0) {
      if (type === 'GTC' || type === 'GTD') {
        // The id enters the map once the order's fate on arrival is known (nothing looks it up
        // while it matches): one map write per order, node or finished entry.
        this.orders.set(id, o);
        (isBid ? m.bids : m.asks).push(o, idx);
        a.addLive(o);
        if (expiresAtMs !== 0) this.expiries.push(o);
      } else {
        // FAK remainder is killed (a FOK never has one: it was checked fillable).
        this.release(o);
        o.status = 'MATCHED';
        this.finish(o);
      }
    } else {
      o.status = 'MATCHED';
      this.finish(o);
    }
    if (this.events.wantsUpdates) this.queueUpdate(o, 'placed');

    const filled = o.matched;
    const n = this.accNotional;
    return {
      ok: true,
      orderId: id,
      status: filled > 0 ? 'matched' : 'live',
      orderStatus: o.status,
      makingAmount: isBuy ? n : filled,
      takingAmount: isBuy ? filled : n,
      feePaid: this.accFee as Micros,
      sizeMatched: filled as Shares,
      trades,
    };
  }

  /**
   * Shares an incoming order could take from `opp` up to its limit, excluding orders of the same
   * owner (they would be self-trade cancelled), stopping once `cap` is reached.
   */
  private available(opp: RestingSide, isBid: boolean, limitIdx: number, owner: Account, cap: number): number {
    let sum = 0;
    const step = isBid ? 1 : -1;
    const levels = opp.levels;
    for (let i = opp.best; isBid ? i <= limitIdx : i >= limitIdx; i += step) {
      const lv = levels[i];
      if (lv === null || lv === undefined || lv.count === 0) continue;
      for (let r = lv.head; r !== null; r = r.next) {
        if (r.account === owner) continue;
        sum += r.remaining;
        if (sum >= cap) return sum;
      }
    }
    return sum;
  }

  private match(taker: OrderNode, opp: RestingSide, limitIdx: number): readonly Trade[] {
    // Allocated on the first fill, at its size: most crossing orders fill once.
    let trades: Trade[] | null = null;
    const isBid = taker.isBid;
    const owner = taker.account;
    while (taker.remaining > 0) {
      const b = opp.best;
      if (isBid ? b > limitIdx : b < limitIdx) break;
      let maker = (opp.levels[b] as NonNullable<(typeof opp.levels)[number]>).head;
      while (maker !== null && taker.remaining > 0) {
        const next = maker.next;
        if (maker.account === owner) this.cancelNode(maker, 'CANCELED', 'self-trade');
        else {
          const t = this.fill(maker, taker, opp, b);
          if (trades === null) trades = [t];
          else trades.push(t);
        }
        maker = next;
      }
    }
    return trades ?? NO_TRADES;
  }

  /** One fill between a resting maker and the incoming taker at the maker's level `idx`. */
  private fill(maker: OrderNode, taker: OrderNode, side: RestingSide, idx: number): Trade {
    const m = maker.market;
    const f = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
    const yesPrice = idx * m.grid;
    const pm = maker.outcome === 0 ? yesPrice : SCALE - yesPrice;
    const pt = taker.outcome === 0 ? yesPrice : SCALE - yesPrice;
    const nm = notional(pm, f);
    const nt = notional(pt, f);
    const feeM = this.settle(maker, pm, nm, f, 'maker');
    const feeT = this.settle(taker, pt, nt, f, 'taker');
    // Collateral paid in minus paid out: +f for a mint, −f for a merge, 0 for a transfer.
    m.locked += (maker.isBuy ? nm : -nm) + (taker.isBuy ? nt : -nt);
    this.fees += feeM + feeT;
    this.accNotional += nt;
    this.accFee += feeT;

    side.reduce(maker, f);
    maker.remaining -= f;
    maker.matched += f;
    taker.remaining -= f;
    taker.matched += f;

    const kind: TradeKind = maker.isBuy === taker.isBuy ? (maker.isBuy ? 'mint' : 'merge') : 'transfer';
    const t = new TradeRec(
      this.tradeIdPrefix + String(++this.tradeSeq),
      m.conditionId,
      kind,
      this.now,
      f as Shares,
      yesPrice as Price,
      taker.id,
      taker.owner,
      taker.tokenId,
      taker.side,
      pt as Price,
      feeT as Micros,
      maker.id,
      maker.owner,
      maker.tokenId,
      maker.side,
      pm as Price,
      feeM as Micros,
    );
    maker.addTrade(t.id);
    taker.addTrade(t.id);
    const lt = m.lastTrade;
    if (lt === null) m.lastTrade = { yesPrice, takerBid: taker.isBid, timeMs: this.now };
    else {
      lt.yesPrice = yesPrice;
      lt.takerBid = taker.isBid;
      lt.timeMs = this.now;
    }
    if (this.events.wantsTrades) this.events.queue(t);

    if (maker.remaining === 0) {
      side.remove(maker);
      maker.status = 'MATCHED';
      maker.account.removeLive(maker);
      this.finish(maker);
    }
    if (this.events.wantsUpdates) this.queueUpdate(maker, 'fill');
    return t;
  }

  /** Moves one leg's balances for a fill of f at own price p (notional n); returns its fee. */
  private settle(o: OrderNode, p: number, n: number, f: number, role: FeeRole): number {
    const fee = fillFee(o.market.fees, role, p, f);
    const a = o.account;
    if (o.isBuy) {
      const after = buyNeed(o.price, o.remaining - f, o.market.fees);
      const release = o.reserved - after;
      o.reserved = after;
      a.reserved -= release;
      a.available += release - n - fee;
      o.position.available += f;
    } else {
      o.position.reserved -= f;
      a.available += n - fee;
    }
    return fee;
  }

  /** Returns an order's remaining reservation to its owner's free balance. */
  private release(o: OrderNode): void {
    if (o.isBuy) {
      o.account.reserved -= o.reserved;
      o.account.available += o.reserved;
      o.reserved = 0;
    } else {
      o.position.reserved -= o.remaining;
      o.position.available += o.remaining;
    }
  }

  private cancelNode(o: OrderNode, status: OrderStatus, reason: OrderUpdateReason): void {
    if (!o.resting) throw new InvariantError(`order ${o.id} is not resting`);
    (o.isBid ? o.market.bids : o.market.asks).remove(o);
    this.release(o);
    o.status = status;
    o.account.removeLive(o);
    this.finish(o);
    if (this.events.wantsUpdates) this.queueUpdate(o, reason);
  }

  /** The order left LIVE for good: its record moves to the finished store (its node is dropped). */
  private finish(o: OrderNode): void {
    this.orders.set(o.id, this.finished.push(o, this.now));
  }

  private queueUpdate(o: OrderNode, reason: OrderUpdateReason): void {
    this.events.queue(
      new UpdateRec(
        o.id,
        o.owner,
        o.market.conditionId,
        o.tokenId,
        o.status,
        o.size as Shares,
        o.matched as Shares,
        reason,
        this.now,
      ),
    );
  }
}

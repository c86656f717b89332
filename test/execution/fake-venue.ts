// A deterministic in-memory venue implementing ExchangeGateway, for the order manager's tests. It
// keeps orders by id (the EIP-712 digest recomputed from the submission, as a real exchange
// does), answers placements, cancels and lookups with the interface's shapes, and can be told to:
// - lose the answer of a request after applying it (`timeout-after-apply`: ambiguous, applied),
// - lose it without applying (`timeout-unapplied`: ambiguous, nothing happened),
// - fail before applying with a given error (`fail`: e.g. 503, 429 with Retry-After, 400),
// - reject every order of a placement with an errorMsg (`reject`),
// - fill resting orders partially (`fill`), or match part of an order on arrival (`onArrival`).
// Faults are queued per operation and consumed one per call, in order. Every request first passes
// the real rate limiter when one is given (route keys and priorities as the HTTP gateway uses).
// Invariants: an id is placed at most once (a second placement answers "Duplicated."), sizes only
// grow, matched ≤ original size; no timers (answers are immediate unless `latencyMs` is set, which
// waits on the injected clock).
// Below the venue: the test harness (venue + real limiter + real ledger in memory + real signer +
// OrderManager on one VirtualClock) and `drive`, which runs a promise on the VirtualClock firing
// timers only when nothing else can move.
import type { Book } from '../../src/core/book.js';
import type { Clock } from '../../src/core/clock.js';
import type {
  CancelResult, ClobMarketSettings, OrderRecord, OrderStatus, PlacementResult, Position, SamplingMarket,
} from '../../src/core/market.js';
import { impliedPrice } from '../../src/core/amounts.js';
import { mulMicros, type Price, type Shares } from '../../src/core/money.js';
import type { Dialect } from '../../src/exchange/dialect.js';
import { ExchangeError, ExchangeHttpError, ExchangeTransportError } from '../../src/exchange/errors.js';
import type { ExchangeGateway, WritePriority } from '../../src/exchange/gateway.js';
import { parseWireOrder, wireOrderId } from '../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../src/exchange/wire.js';
import type { Priority, RateLimiter } from '../../src/ratelimit/types.js';
import { Wallet } from 'ethers';
import { VirtualClock } from '../../src/core/clock.js';
import { DIALECTS } from '../../src/exchange/dialect.js';
import { OrderSigner, SigningPool } from '../../src/exchange/signing/index.js';
import type { SignedOrder, UnsignedOrder } from '../../src/exchange/signing/index.js';
import { Ledger } from '../../src/ledger/index.js';
import { MemoryRateLimiter } from '../../src/ratelimit/index.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/index.js';
import { reconcile, type ReconcileOptions } from '../../src/execution/reconcile.js';
import { OrderManager, type BatchSigner, type OrderManagerOptions } from '../../src/execution/order-manager.js';
import type { ApplyReport, MarketInfo, OrderManagerConfig } from '../../src/execution/order-manager-types.js';
import type { FillEvent } from '../../src/execution/fill-tracker.js';
import type { DesiredQuote, Side } from '../../src/execution/types.js';
import { mulberry32 } from '../../src/core/random.js';

export type Op = 'postOrders' | 'cancelOrder' | 'getOrder' | 'cancelOrders' | 'openOrders';

export type Fault =
  | { readonly kind: 'timeout-after-apply' }
  | { readonly kind: 'timeout-unapplied' }
  | { readonly kind: 'fail'; readonly error: ExchangeError }
  | { readonly kind: 'reject'; readonly errorMsg: string };

export interface VenueOrder {
  readonly id: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: Price;
  readonly originalSize: Shares;
  sizeMatched: Shares;
  status: OrderStatus;
  readonly owner: string;
  readonly createdAtMs: number;
}

export interface VenueCall {
  readonly op: Op;
  readonly atMs: number;
  readonly priority: Priority;
  /** Order ids concerned (placements: every id of the batch, in order). */
  readonly ids: readonly string[];
  readonly fault: Fault['kind'] | null;
}

export interface FakeVenueOptions {
  readonly clock: Clock;
  readonly dialect: Dialect;
  readonly limiter?: RateLimiter;
  /** Neg-risk flag of a token's market (picks the verifying contract of the id). */
  readonly negRisk?: (tokenId: string) => boolean;
  /** Shares matched on arrival of an order (default none). */
  readonly onArrival?: (o: VenueOrder) => number;
  /** Per-call latency on the clock (default 0: immediate). */
  readonly latencyMs?: number;
  /** The public exchange's account routes too (batch cancel, open-order listing): a LifecycleFakeVenue. */
  readonly lifecycle?: boolean;
}

export const timeout = (route: string): ExchangeTransportError => new ExchangeTransportError({
  code: 'EXCHANGE_TIMEOUT', route, message: `${route}: timeout waiting for response headers`, retryable: true, ambiguous: true,
});

export function httpError(route: string, status: number, message: string, retryAfterMs: number | null = null): ExchangeHttpError {
  const rules: Record<number, { code: ExchangeError['code']; retryable: boolean; ambiguous: boolean }> = {
    400: { code: 'EXCHANGE_BAD_REQUEST', retryable: false, ambiguous: false },
    401: { code: 'EXCHANGE_UNAUTHORIZED', retryable: false, ambiguous: false },
    425: { code: 'EXCHANGE_RESTARTING', retryable: true, ambiguous: false },
    429: { code: 'EXCHANGE_THROTTLED', retryable: true, ambiguous: false },
    500: { code: 'EXCHANGE_INTERNAL', retryable: true, ambiguous: true },
    503: { code: 'EXCHANGE_UNAVAILABLE', retryable: true, ambiguous: false },
  };
  const r = rules[status] ?? { code: 'EXCHANGE_HTTP_ERROR' as const, retryable: false, ambiguous: false };
  return new ExchangeHttpError({
    code: r.code, route, status, message: `${route}: ${status}: ${message}`, retryable: r.retryable, ambiguous: r.ambiguous,
    exchangeMessage: message, retryAfterMs,
  });
}

const ROUTE: Record<Op, string> = {
  postOrders: 'POST /orders', cancelOrder: 'DELETE /order', getOrder: 'GET /data/order/{id}', cancelOrders: 'DELETE /orders', openOrders: 'GET /data/orders',
};

export class FakeVenue implements ExchangeGateway {
  readonly kind = 'fake';
  readonly orders = new Map<string, VenueOrder>();
  readonly calls: VenueCall[] = [];
  /** Called with each placement batch before it is applied (tests check the ledger there). */
  beforePlace: ((subs: readonly WireOrderSubmission[], ids: readonly string[]) => void) | null = null;
  /** Market data the tests set. */
  readonly books = new Map<string, Book>();
  readonly mids = new Map<string, Price>();
  readonly settings = new Map<string, ClobMarketSettings>();
  readonly sampling: SamplingMarket[] = [];
  readonly positions = new Map<string, Position[]>();
  private readonly faults: Record<Op, Fault[]> = { postOrders: [], cancelOrder: [], getOrder: [], cancelOrders: [], openOrders: [] };
  private readonly opts: FakeVenueOptions;
  private closed = false;

  private readonly hanging = new Set<Op>();
  private hung: { op: Op; fail: () => void }[] = [];

  constructor(opts: FakeVenueOptions) {
    this.opts = opts;
  }

  /** From now on calls of `op` never answer (until aborted by their signal). */
  hang(op: Op): void {
    this.hanging.add(op);
  }

  /** Calls of `op` answer again; the hung ones time out now (unless `keepPending`: later). */
  unhang(op: Op, opts: { keepPending?: boolean } = {}): void {
    this.hanging.delete(op);
    if (opts.keepPending === true) return;
    for (const h of this.hung.filter((x) => x.op === op)) h.fail();
    this.hung = this.hung.filter((x) => x.op !== op);
  }

  /** Queues a fault for the next call of `op` (one per call, in order). */
  inject(op: Op, ...faults: Fault[]): void {
    this.faults[op].push(...faults);
  }

  clearFaults(): void {
    for (const op of Object.keys(this.faults) as Op[]) this.faults[op].length = 0;
  }

  pendingFaults(op: Op): number {
    return this.faults[op].length;
  }

  liveOrders(): VenueOrder[] {
    return [...this.orders.values()].filter((o) => o.status === 'LIVE');
  }

  /** Matches `size` more shares of a resting order (capped at what remains). Returns the increment. */
  fill(id: string, size: number): number {
    const o = this.orders.get(id);
    if (o === undefined || o.status !== 'LIVE') return 0;
    const inc = Math.max(0, Math.min(size, o.originalSize - o.sizeMatched));
    o.sizeMatched = (o.sizeMatched + inc) as Shares;
    if (o.sizeMatched === o.originalSize) o.status = 'MATCHED';
    return inc;
  }

  /** The exchange cancels an order on its own (e.g. the market resolved). */
  cancelByVenue(id: string): void {
    const o = this.orders.get(id);
    if (o !== undefined && o.status === 'LIVE') o.status = 'CANCELED_MARKET_RESOLVED';
  }

  // ---- order entry

  async postOrders(submissions: readonly WireOrderSubmission[], priority: Exclude<WritePriority, 'cancel'>): Promise<PlacementResult[]> {
    const parsed = submissions.map((s) => {
      const p = parseWireOrder(s.order, this.opts.dialect);
      const negRisk = this.opts.negRisk?.(p.fields.tokenId) ?? false;
      return { sub: s, p, id: wireOrderId(p, this.opts.dialect, negRisk) };
    });
    const ids = parsed.map((x) => x.id);
    const fault = await this.enter('postOrders', priority, ids);
    if (submissions.length < 1 || submissions.length > 15) throw httpError(ROUTE.postOrders, 400, `Too many orders in payload: ${submissions.length}, max allowed: 15`);
    if (fault?.kind === 'fail') throw fault.error;
    if (fault?.kind === 'timeout-unapplied') throw timeout(ROUTE.postOrders);
    this.beforePlace?.(submissions, ids);
    const results = parsed.map(({ sub, p, id }): PlacementResult => {
      if (fault?.kind === 'reject') return rejected(fault.errorMsg);
      if (this.orders.has(id)) return rejected(`order ${id} is invalid. Duplicated.`);
      const side = p.fields.side;
      const size = (side === 'BUY' ? p.fields.takerAmount : p.fields.makerAmount) as Shares;
      const price = impliedPrice(side, p.fields.makerAmount, p.fields.takerAmount).price as Price;
      const o: VenueOrder = {
        id, tokenId: p.fields.tokenId, conditionId: p.fields.conditionId, side, price, originalSize: size,
        sizeMatched: 0 as Shares, status: 'LIVE', owner: sub.owner, createdAtMs: this.opts.clock.now(),
      };
      this.orders.set(id, o);
      const onArrival = Math.max(0, Math.min(this.opts.onArrival?.(o) ?? 0, size));
      if (onArrival > 0) {
        o.sizeMatched = onArrival as Shares;
        if (onArrival === size) o.status = 'MATCHED';
        const collateral = mulMicros(price, onArrival, 'floor');
        const [making, taking] = side === 'BUY' ? [collateral, onArrival] : [onArrival, collateral];
        return { success: true, errorMsg: '', orderId: id, status: 'matched', makingAmount: making, takingAmount: taking, accepted: true };
      }
      return { success: true, errorMsg: '', orderId: id, status: 'live', makingAmount: null, takingAmount: null, accepted: true };
    });
    if (fault?.kind === 'timeout-after-apply') throw timeout(ROUTE.postOrders);
    return results;
  }

  async cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult> {
    const fault = await this.enter('cancelOrder', 'cancel', [orderId], signal);
    if (fault?.kind === 'fail') throw fault.error;
    if (fault?.kind === 'timeout-unapplied') throw timeout(ROUTE.cancelOrder);
    const o = this.orders.get(orderId);
    let result: CancelResult;
    if (o !== undefined && o.status === 'LIVE') {
      o.status = 'CANCELED';
      result = { canceled: [orderId], notCanceled: new Map() };
    } else if (o !== undefined && o.status === 'MATCHED') {
      result = { canceled: [], notCanceled: new Map([[orderId, 'Order already matched']]) };
    } else {
      result = { canceled: [], notCanceled: new Map([[orderId, 'Order not found or already canceled']]) };
    }
    if (fault?.kind === 'timeout-after-apply') throw timeout(ROUTE.cancelOrder);
    return result;
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderRecord | null> {
    const fault = await this.enter('getOrder', 'read', [orderId], signal);
    if (fault?.kind === 'fail') throw fault.error;
    if (fault !== null && fault.kind !== 'reject') throw timeout(ROUTE.getOrder);
    const o = this.orders.get(orderId);
    return o === undefined ? null : this.record(o);
  }

  protected record(o: VenueOrder): OrderRecord {
    return {
      id: o.id, status: o.status, market: o.conditionId, assetId: o.tokenId, side: o.side, price: o.price,
      originalSize: o.originalSize, sizeMatched: o.sizeMatched, outcome: 'Yes', makerAddress: '', owner: o.owner,
      type: 'GTC', createdAt: new Date(o.createdAtMs).toISOString(), createdAtMs: o.createdAtMs, associateTrades: [],
    };
  }

  // ---- market data and account (answers from what the test set)

  async getBooks(tokenIds: readonly string[]): Promise<Book[]> {
    return tokenIds.flatMap((t) => { const b = this.books.get(t); return b === undefined ? [] : [b]; });
  }

  async getMidpoints(tokenIds: readonly string[]): Promise<Map<string, Price>> {
    return new Map(tokenIds.flatMap((t) => { const m = this.mids.get(t); return m === undefined ? [] : [[t, m] as const]; }));
  }

  async *samplingMarkets(): AsyncIterable<SamplingMarket> {
    yield* this.sampling;
  }

  async getMarketSettings(conditionId: string): Promise<ClobMarketSettings> {
    const s = this.settings.get(conditionId);
    if (s === undefined) throw httpError('GET /clob-markets/{condition_id}', 404, `market ${conditionId} not found`);
    return s;
  }

  async getPositions(user: string): Promise<Position[]> {
    return this.positions.get(user.toLowerCase()) ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Rate limit, latency, call log; returns the fault for this call (or null). */
  protected async enter(op: Op, priority: Priority, ids: readonly string[], signal?: AbortSignal): Promise<Fault | null> {
    if (this.hanging.has(op)) {
      // The exchange never answers: the request ends when the caller aborts it or unhang() says.
      await new Promise<never>((_, reject) => {
        const fail = (): void => reject(timeout(ROUTE[op]));
        signal?.addEventListener('abort', fail, { once: true });
        this.hung.push({ op, fail });
      });
    }
    if (this.closed) throw new ExchangeTransportError({ code: 'EXCHANGE_CLOSED', route: ROUTE[op], message: 'venue closed', retryable: false });
    const lim = this.opts.limiter;
    if (lim !== undefined) {
      const permit = await lim.acquire(ROUTE[op], { priority, api: 'clob' });
      permit.release();
    }
    const fault = this.faults[op].shift() ?? null;
    this.calls.push({ op, atMs: this.opts.clock.now(), priority, ids, fault: fault?.kind ?? null });
    const latency = this.opts.latencyMs ?? 0;
    if (latency > 0) await this.opts.clock.sleep(latency);
    return fault;
  }
}

/** The venue with the public exchange's batch cancel (DELETE /orders) and open-order listing (GET /data/orders). */
export class LifecycleFakeVenue extends FakeVenue {
  async cancelOrders(orderIds: readonly string[], signal?: AbortSignal): Promise<CancelResult> {
    const fault = await this.enter('cancelOrders', 'cancel', orderIds, signal);
    if (fault?.kind === 'fail') throw fault.error;
    if (fault?.kind === 'timeout-unapplied') throw timeout(ROUTE.cancelOrders);
    const canceled: string[] = [];
    const notCanceled = new Map<string, string>();
    for (const id of orderIds) {
      const o = this.orders.get(id);
      if (o !== undefined && o.status === 'LIVE') { o.status = 'CANCELED'; canceled.push(id); }
      else notCanceled.set(id, o?.status === 'MATCHED' ? 'Order already matched' : 'Order not found or already canceled');
    }
    if (fault?.kind === 'timeout-after-apply') throw timeout(ROUTE.cancelOrders);
    return { canceled, notCanceled };
  }

  async *openOrders(signal?: AbortSignal): AsyncIterable<OrderRecord> {
    const fault = await this.enter('openOrders', 'read', [], signal);
    if (fault?.kind === 'fail') throw fault.error;
    if (fault !== null && fault.kind !== 'reject') throw timeout(ROUTE.openOrders);
    for (const o of [...this.orders.values()]) if (o.status === 'LIVE') yield this.record(o);
  }

  /** An order placed by someone else with our account (a second process, a lost ledger). */
  restForeign(o: Omit<VenueOrder, 'status' | 'sizeMatched' | 'owner' | 'createdAtMs'> & { sizeMatched?: Shares }): void {
    this.orders.set(o.id, { ...o, sizeMatched: o.sizeMatched ?? (0 as Shares), status: 'LIVE', owner: 'another-process', createdAtMs: 0 });
  }
}

function rejected(errorMsg: string): PlacementResult {
  return { success: false, errorMsg, orderId: null, status: null, makingAmount: null, takingAmount: null, accepted: false };
}

// ---------------------------------------------------------------------------------------------
// Harness: a FakeVenue behind the real limiter, a real ledger in memory, a real signer, and an
// OrderManager wired to them, all on one VirtualClock.


export const T0 = Date.UTC(2026, 5, 12, 12, 0, 0);
export const TOKEN_A = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const TOKEN_B = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
export const CONDITION = `0x${'5e'.repeat(32)}`;
export const API_KEY = '8c2b1f7e-3d4a-4b6c-9e8f-1a2b3c4d5e6f';
/** Tick 0.01, maker 100 bps, taker 200 bps. */
export const MARKET: MarketInfo = Object.freeze({
  conditionId: CONDITION, tickSize: 10_000 as Price, negRisk: false, makerBaseFeeBps: 100, takerBaseFeeBps: 200,
});
export const MARKETS: ReadonlyMap<string, MarketInfo> = new Map([[TOKEN_A, MARKET], [TOKEN_B, MARKET]]);

/** A quote: price and size in plain units (0.42, 10 shares). */
export function q(tokenId: string, side: Side, price: number, size: number, tag?: string): DesiredQuote {
  return {
    tokenId, side, price: Math.round(price * 1e6) as Price, size: Math.round(size * 1e6) as Shares,
    ...(tag !== undefined ? { tag } : {}),
  };
}

/** An in-thread signer with the pool's batch interface (fast for property runs). */
export function inlineSigner(key: string): BatchSigner {
  const s = new OrderSigner(key, DIALECTS.spec);
  return { address: s.address, signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> => Promise.resolve(os.map((o) => s.sign(o))) };
}

export interface Harness {
  readonly clock: VirtualClock;
  readonly ledger: Ledger;
  readonly venue: FakeVenue;
  readonly limiter: MemoryRateLimiter;
  readonly om: OrderManager;
  readonly fills: FillEvent[];
  /** reconcile(desired, om.liveOrders()) then om.apply(plan, MARKETS). */
  cycle(desired: readonly DesiredQuote[], opts?: ReconcileOptions): Promise<ApplyReport>;
  /** A second manager on the same ledger and venue (a restarted daemon). */
  restart(config?: Partial<OrderManagerConfig>): OrderManager;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly config?: Partial<OrderManagerConfig>;
  readonly limiter?: RateLimitConfigInput;
  readonly venue?: Partial<Omit<FakeVenueOptions, 'clock' | 'dialect' | 'limiter'>>;
  /** Default: a fresh SigningPool with one worker (closed by close()). */
  readonly signer?: BatchSigner;
  readonly manager?: Partial<OrderManagerOptions>;
}

export function setup(h: HarnessOptions = {}): Harness {
  const clock = new VirtualClock(T0);
  const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
  const limiter = new MemoryRateLimiter({ clock, config: h.limiter ?? {} });
  const venueOpts = { clock, dialect: DIALECTS.spec, limiter, ...h.venue };
  const venue = h.venue?.lifecycle === true ? new LifecycleFakeVenue(venueOpts) : new FakeVenue(venueOpts);
  const key = Wallet.createRandom().privateKey;
  const pool = h.signer === undefined ? new SigningPool({ privateKey: key, dialect: DIALECTS.spec, workers: 1 }) : null;
  const signer: BatchSigner = h.signer ?? (pool as SigningPool);
  const fills: FillEvent[] = [];
  const managers: OrderManager[] = [];
  const make = (config: Partial<OrderManagerConfig> | undefined): OrderManager => {
    const om = new OrderManager({
      clock, gateway: venue, ledger, signer, dialect: DIALECTS.spec, owner: API_KEY, limiter,
      onFill: (f) => fills.push(f), random: seeded(7 + managers.length),
      // No back-off unless a test asks for one (the back-off has tests of its own).
      config: { backoff: { baseDelayMs: 0 }, ...config },
      ...h.manager,
    });
    managers.push(om);
    return om;
  };
  const om = make(h.config);
  return {
    clock, ledger, venue, limiter, om, fills,
    cycle: (desired, opts) => om.apply(reconcile(desired, om.liveOrders(), opts), MARKETS),
    restart: (config) => make(config ?? h.config),
    close: async () => {
      for (const m of managers) await m.close();
      await limiter.close();
      await pool?.close();
      ledger.close();
    },
  };
}

/** Deterministic salts and jitter (mulberry32). */
export const seeded = mulberry32;

/**
 * Awaits `p` on the VirtualClock: lets every pending continuation and real I/O (signing workers)
 * run first (macrotask turns), and only when nothing else moves fires the next timer. Unlike a
 * driver that fires timers between microtask turns, a deadline never fires while work that
 * takes no virtual time is still under way.
 */
export async function drive<T>(clock: VirtualClock, p: Promise<T>): Promise<T> {
  let done = false;
  p.then(() => { done = true; }, () => { done = true; });
  for (;;) {
    for (let i = 0; i < 5 && !done; i++) await new Promise<void>((r) => setImmediate(r));
    if (done) return p;
    const at = clock.nextTimerAt();
    if (at !== null) await clock.advanceAsync(Math.max(0, at - clock.now()));
  }
}

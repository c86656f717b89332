// The one fake venue of the tests: the market-data fake (fake-gateway.ts: books, mids, sampling
// listings, settings, scripted failures, latency on the injected clock) with order entry, for the
// order manager's tests (test/execution/harness.ts) and the daemon's (test/runtime). It keeps
// orders by id (the EIP-712 digest recomputed from the submission, as a real exchange does),
// answers placements, cancels and lookups with the interface's shapes, and can be told to:
// - lose the answer of a request after applying it (`timeout-after-apply`: ambiguous, applied),
// - lose it without applying (`timeout-unapplied`: ambiguous, nothing happened),
// - fail before applying with a given error (`fail`: e.g. 503, 429 with Retry-After, 400),
// - reject every order of a placement with an errorMsg (`reject`),
// - never answer a kind of call until told (`hang`), or refuse every cancel (`refuseCancels`),
// - fill resting orders partially (`fill`), or match part of an order on arrival (`onArrival`).
// Faults are queued per operation and consumed one per call, in order. Every order-entry request
// first passes the real rate limiter when one is given (route keys and priorities as the HTTP
// gateway uses). LifecycleFakeVenue adds the public exchange's account routes (batch cancel,
// open-order listing).
// Invariants: an id is placed at most once (a second placement answers "Duplicated."), sizes only
// grow, matched ≤ original size; no timers (answers are immediate unless `latencyMs` is set, which
// waits on the injected clock).
import type { Clock } from '../../src/core/clock.js';
import type { CancelResult, OrderRecord, OrderStatus, Position } from '../../src/core/market.js';
import { impliedPrice } from '../../src/core/amounts.js';
import { mulMicros, type Price, type Shares } from '../../src/core/money.js';
import type { PlacementResult } from '../../src/core/order.js';
import type { Dialect } from '../../src/exchange/dialect.js';
import { ExchangeError, ExchangeHttpError, ExchangeTransportError } from '../../src/exchange/errors.js';
import type { ExchangeGateway, WritePriority } from '../../src/exchange/gateway.js';
import { parseWireOrder, wireOrderId } from '../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../src/exchange/wire.js';
import type { Priority, RateLimiter } from '../../src/ratelimit/types.js';
import { FakeGateway } from './fake-gateway.js';

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
  /** The signed order's maker address ('' for an order placed by someone else). */
  readonly maker: string;
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
  /** Order-entry requests pass this limiter first (route keys as the HTTP gateway's). */
  readonly limiter?: RateLimiter;
  /** Neg-risk flag of a token's market (picks the verifying contract of the id); default: the flag addMarket gave. */
  readonly negRisk?: (tokenId: string) => boolean;
  /** Shares matched on arrival of an order (default none). */
  readonly onArrival?: (o: VenueOrder) => number;
  /** Per-call latency on the clock, every call (default 0: immediate). */
  readonly latencyMs?: number;
}

export const timeout = (route: string): ExchangeTransportError =>
  new ExchangeTransportError({
    code: 'EXCHANGE_TIMEOUT',
    route,
    message: `${route}: timeout waiting for response headers`,
    retryable: true,
    ambiguous: true,
  });

export function httpError(
  route: string,
  status: number,
  message: string,
  retryAfterMs: number | null = null,
): ExchangeHttpError {
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
    code: r.code,
    route,
    status,
    message: `${route}: ${status}: ${message}`,
    retryable: r.retryable,
    ambiguous: r.ambiguous,
    exchangeMessage: message,
    retryAfterMs,
  });
}

const ROUTE: Record<Op, string> = {
  postOrders: 'POST /orders',
  cancelOrder: 'DELETE /order',
  getOrder: 'GET /data/order/{id}',
  cancelOrders: 'DELETE /orders',
  openOrders: 'GET /data/orders',
};

const NOT_FOUND = 'Order not found or already canceled';

export class FakeVenue extends FakeGateway implements ExchangeGateway {
  readonly orders = new Map<string, VenueOrder>();
  /** Every order-entry call, in order (market-data calls are in `calls`). */
  readonly orderCalls: VenueCall[] = [];
  /** Called with each placement batch before it is applied (tests check the ledger there). */
  beforePlace: ((subs: readonly WireOrderSubmission[], ids: readonly string[]) => void) | null = null;
  /** While set, every cancel is refused with this message (the order stays live). */
  refuseCancels: string | null = null;
  /** Positions by (lower-case) user address, as GET /positions answers. */
  readonly positions = new Map<string, Position[]>();
  private readonly faults: Record<Op, Fault[]> = {
    postOrders: [],
    cancelOrder: [],
    getOrder: [],
    cancelOrders: [],
    openOrders: [],
  };
  private closed = false;
  private readonly hanging = new Set<Op>();
  private hung: { op: Op; fail: () => void }[] = [];

  constructor(
    clock: Clock,
    private readonly dialect: Dialect,
    private readonly opts: FakeVenueOptions = {},
  ) {
    super(clock);
    this.latencyMs = opts.latencyMs ?? 0;
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

  /** The same as liveOrders() (the name the daemon tests use). */
  live(): VenueOrder[] {
    return this.liveOrders();
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

  async postOrders(
    submissions: readonly WireOrderSubmission[],
    priority: Exclude<WritePriority, 'cancel'>,
  ): Promise<PlacementResult[]> {
    const parsed = submissions.map((s) => {
      const p = parseWireOrder(s.order, this.dialect);
      return { sub: s, p, id: wireOrderId(p, this.dialect, this.negRiskOf(p.fields.tokenId)) };
    });
    const ids = parsed.map((x) => x.id);
    const fault = await this.enter('postOrders', priority, ids);
    if (submissions.length < 1 || submissions.length > 15)
      throw httpError(ROUTE.postOrders, 400, `Too many orders in payload: ${submissions.length}, max allowed: 15`);
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
        id,
        tokenId: p.fields.tokenId,
        conditionId: p.fields.conditionId,
        side,
        price,
        originalSize: size,
        sizeMatched: 0 as Shares,
        status: 'LIVE',
        maker: p.fields.maker,
        owner: sub.owner,
        createdAtMs: this.clock.now(),
      };
      this.orders.set(id, o);
      const onArrival = Math.max(0, Math.min(this.opts.onArrival?.(o) ?? 0, size));
      if (onArrival > 0) {
        o.sizeMatched = onArrival as Shares;
        if (onArrival === size) o.status = 'MATCHED';
        const collateral = mulMicros(price, onArrival, 'floor');
        const [making, taking] = side === 'BUY' ? [collateral, onArrival] : [onArrival, collateral];
        return {
          success: true,
          errorMsg: '',
          orderId: id,
          status: 'matched',
          makingAmount: making,
          takingAmount: taking,
          accepted: true,
        };
      }
      return {
        success: true,
        errorMsg: '',
        orderId: id,
        status: 'live',
        makingAmount: null,
        takingAmount: null,
        accepted: true,
      };
    });
    if (fault?.kind === 'timeout-after-apply') throw timeout(ROUTE.postOrders);
    return results;
  }

  async cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult> {
    const fault = await this.enter('cancelOrder', 'cancel', [orderId], signal);
    if (fault?.kind === 'fail') throw fault.error;
    if (fault?.kind === 'timeout-unapplied') throw timeout(ROUTE.cancelOrder);
    const refusal = this.cancelOne(orderId);
    const result: CancelResult =
      refusal === null
        ? { canceled: [orderId], notCanceled: new Map() }
        : { canceled: [], notCanceled: new Map([[orderId, refusal]]) };
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

  async getPositions(user: string): Promise<Position[]> {
    return this.positions.get(user.toLowerCase()) ?? [];
  }

  override async close(): Promise<void> {
    this.closed = true;
  }

  /** Cancels one order; null when cancelled, else the exchange's reason. */
  protected cancelOne(orderId: string): string | null {
    if (this.refuseCancels !== null) return this.refuseCancels;
    const o = this.orders.get(orderId);
    if (o !== undefined && o.status === 'LIVE') {
      o.status = 'CANCELED';
      return null;
    }
    return o?.status === 'MATCHED' ? 'Order already matched' : NOT_FOUND;
  }

  protected record(o: VenueOrder): OrderRecord {
    return {
      id: o.id,
      status: o.status,
      market: o.conditionId,
      assetId: o.tokenId,
      side: o.side,
      price: o.price,
      originalSize: o.originalSize,
      sizeMatched: o.sizeMatched,
      outcome: 'Yes',
      makerAddress: o.maker,
      owner: o.owner,
      type: 'GTC',
      createdAt: new Date(o.createdAtMs).toISOString(),
      createdAtMs: o.createdAtMs,
      associateTrades: [],
    };
  }

  private negRiskOf(tokenId: string): boolean {
    if (this.opts.negRisk !== undefined) return this.opts.negRisk(tokenId);
    const cid = this.marketOfToken.get(tokenId);
    return cid === undefined ? false : (this.markets.get(cid)?.negRisk ?? false);
  }

  /** Hang, closed check, rate limit, call log, latency; returns the fault for this call (or null). */
  protected async enter(
    op: Op,
    priority: Priority,
    ids: readonly string[],
    signal?: AbortSignal,
  ): Promise<Fault | null> {
    if (this.hanging.has(op)) {
      // The exchange never answers: the request ends when the caller aborts it or unhang() says.
      await new Promise<never>((_, reject) => {
        const fail = (): void => reject(timeout(ROUTE[op]));
        signal?.addEventListener('abort', fail, { once: true });
        this.hung.push({ op, fail });
      });
    }
    if (this.closed)
      throw new ExchangeTransportError({
        code: 'EXCHANGE_CLOSED',
        route: ROUTE[op],
        message: 'venue closed',
        retryable: false,
      });
    const lim = this.opts.limiter;
    if (lim !== undefined) {
      const permit = await lim.acquire(ROUTE[op], { priority, api: 'clob' });
      permit.release();
    }
    const fault = this.faults[op].shift() ?? null;
    this.orderCalls.push({ op, atMs: this.clock.now(), priority, ids, fault: fault?.kind ?? null });
    if (this.latencyMs > 0) await this.clock.sleep(this.latencyMs);
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
      const refusal = this.cancelOne(id);
      if (refusal === null) canceled.push(id);
      else notCanceled.set(id, refusal);
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
  restForeign(
    o: Omit<VenueOrder, 'status' | 'sizeMatched' | 'owner' | 'createdAtMs' | 'maker'> & { sizeMatched?: Shares },
  ): void {
    this.orders.set(o.id, {
      ...o,
      sizeMatched: o.sizeMatched ?? (0 as Shares),
      status: 'LIVE',
      maker: '',
      owner: 'another-process',
      createdAtMs: 0,
    });
  }
}

function rejected(errorMsg: string): PlacementResult {
  return {
    success: false,
    errorMsg,
    orderId: null,
    status: null,
    makingAmount: null,
    takingAmount: null,
    accepted: false,
  };
}

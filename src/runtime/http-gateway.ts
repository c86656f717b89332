// HttpGateway: the ExchangeGateway port (src/exchange/gateway.ts) over HTTP, for live and sandbox
// modes - an ExchangeClient whose transport passes every attempt through the rate limiter.
//
// How a request meets the limiter (the transport's `beforeSend` gate, one acquire per attempt):
// - the gateway runs each call inside an AsyncLocalStorage context that carries the call's
//   priority (cancel for DELETE /order, replace/new as the order manager says for POST /orders,
//   read for everything else); the gate reads it when the transport asks, so the priority reaches
//   the limiter without widening the transport's interface. Requests made outside a gateway call
//   get a priority from their route (DELETE → cancel, other writes → new, reads → read);
// - the limiter's admission IS the recorded send time: the transport awaits the gate right before
//   the bytes go out (only the L2 headers are computed in between), and nothing is ever refunded
//   (a failed, throttled or aborted request keeps its place in the windows);
// - the permit (the in-flight slot, when the limiter caps it) is held until the attempt's answer:
//   it is released when the next attempt of the same call passes the gate, or when the call ends;
// - every 429 pauses the route at the limiter for its Retry-After (`onThrottled`); a write is
//   never retried by the transport, reads are retried with its back-off;
// - the exchange's per-signer buckets (docs/rate-limits.md): each attempt is charged its tokens,
//   the call's own (`run(priority, fn, tokens)`, a cancel-all's 1 + open orders) or else read from
//   the exact body (`signerTokensFor`: the orders of a POST /orders, the ids of a DELETE /orders);
//   every answer's Poly-RateLimit-* headers go to `limiter.observeSigner` (a lower balance, a
//   reset after a refusal, the tier), and `adoptSignerTier` reads the tier route once at start;
// - the route's API group is passed explicitly (from the client's route table), so `GET /markets`
//   and friends are never ambiguous to the limiter.
// getOrder maps "not found" (404, or a 400 whose text says not found) to null. The limiter is the
// caller's (it may be shared); close() closes only the client the gateway built.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import type { BalanceAllowance, HeartbeatAck, TradeRecord } from '../core/account.js';
import type { Book } from '../core/book.js';
import type { CancelResult, ClobMarketSettings, OrderRecord, Position, SamplingMarket } from '../core/market.js';
import type { Price } from '../core/money.js';
import { MAX_ORDERS_PER_CANCEL, type PlacementResult } from '../core/order.js';
import { ExchangeClient, ROUTES, type CallOptions, type ExchangeClientOptions } from '../exchange/client/index.js';
import { ExchangeHttpError } from '../exchange/errors.js';
import type { AccountLifecyclePort, ExchangeGateway, WritePriority } from '../exchange/gateway.js';
import { InvariantError, OptionError } from '../core/errors.js';
import type { WireOrderSubmission } from '../exchange/wire.js';
import type { ApiGroup } from '../ratelimit/budgets.js';
import {
  SIGNER_TIER_ROUTE,
  parseSignerHeaders,
  parseSignerTier,
  signerTokensFor,
  type SignerTier,
} from '../ratelimit/signer-tiers.js';
import type { Permit, Priority, RateLimiter } from '../ratelimit/types.js';

interface GateContext {
  readonly priority: Priority;
  /** The per-signer tokens of this call's requests, when the body cannot tell (cancel-all). */
  readonly tokens?: number;
  permit: Permit | null;
}

const API_OF_ROUTE: ReadonlyMap<string, ApiGroup> = new Map(Object.values(ROUTES).map((r) => [r.key, r.api]));

/** Priority of a request made outside a gateway call, from its route key. */
export function defaultPriority(route: string): Priority {
  if (route.startsWith('DELETE ')) return 'cancel';
  if (route === 'POST /order' || route === 'POST /orders') return 'new';
  return 'read';
}

/** The limiter as the transport's gate, with the priority carried by the async context. */
export class LimiterGate {
  readonly limiter: RateLimiter;
  readonly #context = new AsyncLocalStorage<GateContext>();

  constructor(limiter: RateLimiter) {
    this.limiter = limiter;
  }

  /** TransportOptions.beforeSend: admission right before each attempt is sent. */
  readonly beforeSend = async (route: string, signal?: AbortSignal, body?: string): Promise<void> => {
    const ctx = this.#context.getStore();
    // The previous attempt of this call has been answered: its in-flight slot is free.
    if (ctx?.permit != null) {
      ctx.permit.release();
      ctx.permit = null;
    }
    const api = API_OF_ROUTE.get(route);
    const tokens = ctx?.tokens ?? signerTokensFor(route, body);
    const permit = await this.limiter.acquire(route, {
      priority: ctx?.priority ?? defaultPriority(route),
      ...(api !== undefined ? { api } : {}),
      ...(tokens !== undefined ? { tokens } : {}),
      ...(signal !== undefined ? { signal } : {}),
    });
    if (ctx !== undefined) ctx.permit = permit;
    else permit.release(); // no call to hold it across: free the slot (the window keeps the send)
  };

  /** TransportOptions.onThrottled: a 429 pauses the route for its Retry-After. */
  readonly onThrottled = (route: string, retryAfterMs: number | null): void => {
    this.limiter.onThrottled(route, retryAfterMs, API_OF_ROUTE.get(route));
  };

  /** TransportOptions.onResponse: the exchange's report on the signer's bucket, when it sent one. */
  readonly onResponse = (route: string, status: number, headers: IncomingHttpHeaders): void => {
    if (this.limiter.observeSigner === undefined) return;
    const s = parseSignerHeaders(headers, status);
    if (s !== null) this.limiter.observeSigner(route, s);
  };

  /** Runs one client call with `priority` (and `tokens` per request when its body cannot tell);
   *  releases its last permit when the call ends. */
  async run<T>(priority: Priority, fn: () => Promise<T>, tokens?: number): Promise<T> {
    const ctx: GateContext = { priority, permit: null, ...(tokens !== undefined ? { tokens } : {}) };
    try {
      return await this.#context.run(ctx, fn);
    } finally {
      ctx.permit?.release();
      ctx.permit = null;
    }
  }
}

export interface HttpGatewayOptions {
  /** The client's settings; the gateway adds the limiter gate and owns the client's transport. */
  readonly client: Omit<ExchangeClientOptions, 'beforeSend' | 'onResponse' | 'onThrottled' | 'transport'>;
  readonly limiter: RateLimiter;
  /** Page size of GET /positions (interface §4.4: at most 500). */
  readonly positionsPageSize?: number;
  /** The account's signature type, sent with GET /balance-allowance as the official clients do. */
  readonly signatureType?: 0 | 1 | 2 | 3;
}

const POSITIONS_MAX_OFFSET = 10_000;

export class HttpGateway implements ExchangeGateway {
  readonly kind = 'http';
  readonly client: ExchangeClient;
  readonly limiter: RateLimiter;
  readonly gate: LimiterGate;
  private readonly positionsPageSize: number;
  private readonly signatureType: 0 | 1 | 2 | 3 | undefined;

  constructor(opts: HttpGatewayOptions) {
    this.limiter = opts.limiter;
    this.gate = new LimiterGate(opts.limiter);
    this.positionsPageSize = opts.positionsPageSize ?? 500;
    this.signatureType = opts.signatureType;
    if (!Number.isSafeInteger(this.positionsPageSize) || this.positionsPageSize < 1 || this.positionsPageSize > 500) {
      throw new OptionError(
        'RUNTIME_OPTION',
        `positionsPageSize must be an integer in [1, 500], got ${String(opts.positionsPageSize)}`,
      );
    }
    this.client = new ExchangeClient({
      ...opts.client,
      beforeSend: this.gate.beforeSend,
      onResponse: this.gate.onResponse,
      onThrottled: this.gate.onThrottled,
    });
  }

  // ---- market data

  getBooks(tokenIds: readonly string[], signal?: AbortSignal): Promise<Book[]> {
    if (tokenIds.length === 0) return Promise.resolve([]);
    return this.gate.run('read', () => this.client.getBooks(tokenIds, call(signal)));
  }

  getMidpoints(tokenIds: readonly string[], signal?: AbortSignal): Promise<Map<string, Price>> {
    if (tokenIds.length === 0) return Promise.resolve(new Map());
    return this.gate.run('read', () => this.client.getMidpoints(tokenIds, call(signal)));
  }

  async *samplingMarkets(signal?: AbortSignal): AsyncIterable<SamplingMarket> {
    const pages = this.client.iterateSamplingMarketPages(undefined, call(signal));
    try {
      for (;;) {
        // Each page is fetched inside its own gated call (the generator resumes in this context).
        const r = await this.gate.run('read', () => pages.next());
        if (r.done === true) return;
        yield* r.value.data;
      }
    } finally {
      await pages.return(undefined);
    }
  }

  getMarketSettings(conditionId: string, signal?: AbortSignal): Promise<ClobMarketSettings> {
    return this.gate.run('read', () => this.client.getClobMarket(conditionId, call(signal)));
  }

  // ---- order entry

  postOrders(
    submissions: readonly WireOrderSubmission[],
    priority: Exclude<WritePriority, 'cancel'>,
    signal?: AbortSignal,
  ): Promise<PlacementResult[]> {
    return this.gate.run(priority, () => this.client.postOrders(submissions, call(signal)));
  }

  cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult> {
    return this.gate.run('cancel', () => this.client.cancelOrder(orderId, call(signal)));
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderRecord | null> {
    try {
      return await this.gate.run('read', () => this.client.getOrder(orderId, call(signal)));
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  // ---- account

  async getPositions(user: string, signal?: AbortSignal): Promise<Position[]> {
    const out: Position[] = [];
    const limit = this.positionsPageSize;
    for (let offset = 0; offset <= POSITIONS_MAX_OFFSET; offset += limit) {
      // sizeThreshold 0: a market maker's small leftovers are positions too.
      const page = await this.gate.run('read', () =>
        this.client.getPositions({ user, limit, offset, sizeThreshold: 0 }, call(signal)),
      );
      out.push(...page);
      if (page.length < limit) break;
    }
    return out;
  }

  // ---- account lifecycle (AccountLifecyclePort)

  cancelOrders(orderIds: readonly string[], signal?: AbortSignal): Promise<CancelResult> {
    if (orderIds.length > MAX_ORDERS_PER_CANCEL)
      throw new InvariantError(`cancelOrders: ${orderIds.length} ids, at most ${MAX_ORDERS_PER_CANCEL} per request`);
    return this.gate.run('cancel', () => this.client.cancelOrders(orderIds, call(signal)));
  }

  async *openOrders(signal?: AbortSignal): AsyncIterable<OrderRecord> {
    // Each page is its own limiter admission (the transport's gate), at read priority.
    const it = this.client.iterateOpenOrders({}, call(signal));
    for (;;) {
      const next = await this.gate.run('read', () => it.next());
      if (next.done === true) return;
      yield next.value;
    }
  }

  async *accountTrades(afterMs: number, signal?: AbortSignal): AsyncIterable<TradeRecord> {
    // `after` is in epoch seconds (match_time's unit), inclusive: the caller dedups by trade id.
    const it = this.client.iterateAccountTrades({ after: Math.max(0, Math.floor(afterMs / 1000)) }, call(signal));
    for (;;) {
      const next = await this.gate.run('read', () => it.next());
      if (next.done === true) return;
      yield next.value;
    }
  }

  heartbeat(heartbeatId: string | null, signal?: AbortSignal): Promise<HeartbeatAck> {
    // A heartbeat keeps our orders alive: it goes first, like a cancel.
    return this.gate.run('cancel', () => this.client.postHeartbeat(heartbeatId, call(signal)));
  }

  collateralBalance(signal?: AbortSignal): Promise<BalanceAllowance> {
    return this.gate.run('read', () =>
      this.client.getBalanceAllowance(
        {
          asset_type: 'COLLATERAL',
          ...(this.signatureType !== undefined ? { signature_type: this.signatureType } : {}),
        },
        call(signal),
      ),
    );
  }

  orderVersion(signal?: AbortSignal): Promise<number> {
    return this.gate.run('read', () => this.client.getVersion(call(signal)));
  }

  /**
   * Reads the signer's tier from the exchange (GET /v1/user/rate-limit-tier, polymarket dialect)
   * and hands it to the limiter, once at start; returns the tier in force afterwards. A 404 (an
   * exchange without the route) or any other failure keeps the configured tier and is told to
   * `onMissing` once: the headers of the first trading answers still report the tier.
   */
  async adoptSignerTier(onMissing: (why: string) => void, signal?: AbortSignal): Promise<SignerTier | null> {
    const limiter = this.limiter;
    if (limiter.observeSigner === undefined || (limiter.signerTier?.() ?? null) === null) return null;
    try {
      const name = await this.gate.run('read', () => this.client.getRateLimitTier(call(signal)));
      const tier = parseSignerTier(name);
      if (tier === null) onMissing(`the exchange named an unknown tier ${JSON.stringify(name)}`);
      else
        limiter.observeSigner(ROUTES.rateLimitTier.key, {
          remaining: null,
          resetAtMs: null,
          tier,
          warning: false,
          refused: false,
        });
    } catch (e) {
      onMissing(
        isNotFound(e)
          ? `GET ${SIGNER_TIER_ROUTE} is not served (404)`
          : `GET ${SIGNER_TIER_ROUTE} failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return limiter.signerTier?.() ?? null;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

// The HTTP gateway has every lifecycle route.
const asLifecycle = (g: HttpGateway): AccountLifecyclePort => g;
void asLifecycle;

function call(signal: AbortSignal | undefined): CallOptions | undefined {
  return signal === undefined ? undefined : { signal };
}

/** The exchange does not know the id: 404, or a 400 whose text says so. */
export function isNotFound(e: unknown): boolean {
  if (!(e instanceof ExchangeHttpError)) return false;
  if (e.status === 404) return true;
  return e.status === 400 && e.exchangeMessage !== null && /not\s*found/i.test(e.exchangeMessage);
}

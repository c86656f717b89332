// Order-entry latency and the rate limiter in virtual time, as a wrapper of the backtest's venue
// gateway: a placement (POST /orders) or a cancel (DELETE /order) first passes the rate limiter
// (the daemon's own limiter on the virtual clock, at the priority the order manager asked), then
// waits its latency on the clock, and only then reaches the venue; the answer returns at once.
// So an order meets the book as it is `placeMs` after the daemon sent it, and a cancel leaves our
// order exposed to fills for `cancelMs`. Invariants kept:
// - time only from the injected clock (clock.sleep), draws only from the seeded generator, one
//   draw per request in request order, so a replay repeats exactly;
// - market data and lookups are neither delayed nor limited here (the recording is the market
//   data; lookups cost the limiter nothing in a backtest, stated);
// - a zero latency does not sleep at all (no timer, no reordering).
import type { Book } from '../core/book.js';
import type { Clock } from '../core/clock.js';
import type { CancelResult, ClobMarketSettings, OrderRecord, Position, SamplingMarket } from '../core/market.js';
import type { Price } from '../core/money.js';
import type { PlacementResult } from '../core/order.js';
import { ROUTES } from '../exchange/client/routes.js';
import type { ExchangeGateway, WritePriority } from '../exchange/gateway.js';
import type { WireOrderSubmission } from '../exchange/wire.js';
import type { RateLimiter } from '../ratelimit/index.js';
import type { LatencySpec } from './types.js';
import { OptionError } from '../core/errors.js';

export interface LatencySampler {
  place(): number;
  cancel(): number;
}

function checkMs(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new OptionError('BACKTEST_OPTION', `latency ${name} must be a non-negative integer of ms, got ${String(v)}`);
}

/** Constant or seeded-uniform latencies (whole ms). */
export function latencySampler(spec: LatencySpec | undefined, random: () => number): LatencySampler {
  if (spec === undefined) return { place: () => 0, cancel: () => 0 };
  if ('placeMs' in spec) {
    checkMs('placeMs', spec.placeMs);
    checkMs('cancelMs', spec.cancelMs);
    return { place: () => spec.placeMs, cancel: () => spec.cancelMs };
  }
  for (const [k, r] of [
    ['place', spec.place],
    ['cancel', spec.cancel],
  ] as const) {
    checkMs(`${k}.minMs`, r.minMs);
    checkMs(`${k}.maxMs`, r.maxMs);
    if (r.maxMs < r.minMs) throw new OptionError('BACKTEST_OPTION', `latency ${k}: maxMs < minMs`);
  }
  const draw = (r: { minMs: number; maxMs: number }): number =>
    r.minMs + Math.floor(random() * (r.maxMs - r.minMs + 1));
  return { place: () => draw(spec.place), cancel: () => draw(spec.cancel) };
}

export class LatentGateway implements ExchangeGateway {
  readonly kind: string;

  constructor(
    private readonly inner: ExchangeGateway,
    private readonly clock: Clock,
    private readonly latency: LatencySampler,
    private readonly limiter: RateLimiter | null,
  ) {
    this.kind = inner.kind;
  }

  getBooks(tokenIds: readonly string[], signal?: AbortSignal): Promise<Book[]> {
    return this.inner.getBooks(tokenIds, signal);
  }
  getMidpoints(tokenIds: readonly string[], signal?: AbortSignal): Promise<Map<string, Price>> {
    return this.inner.getMidpoints(tokenIds, signal);
  }
  samplingMarkets(signal?: AbortSignal): AsyncIterable<SamplingMarket> {
    return this.inner.samplingMarkets(signal);
  }
  getMarketSettings(conditionId: string, signal?: AbortSignal): Promise<ClobMarketSettings> {
    return this.inner.getMarketSettings(conditionId, signal);
  }
  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderRecord | null> {
    return this.inner.getOrder(orderId, signal);
  }
  getPositions(user: string, signal?: AbortSignal): Promise<Position[]> {
    return this.inner.getPositions(user, signal);
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  async postOrders(
    submissions: readonly WireOrderSubmission[],
    priority: Exclude<WritePriority, 'cancel'>,
    signal?: AbortSignal,
  ): Promise<PlacementResult[]> {
    await this.enter(ROUTES.postOrders.key, priority, this.latency.place(), signal);
    return this.inner.postOrders(submissions, priority, signal);
  }

  async cancelOrder(orderId: string, signal?: AbortSignal): Promise<CancelResult> {
    await this.enter(ROUTES.cancelOrder.key, 'cancel', this.latency.cancel(), signal);
    return this.inner.cancelOrder(orderId, signal);
  }

  private async enter(
    route: string,
    priority: WritePriority,
    delayMs: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (this.limiter !== null) {
      const permit = await this.limiter.acquire(route, { priority, ...(signal !== undefined ? { signal } : {}) });
      permit.release();
    }
    if (delayMs > 0) await this.clock.sleep(delayMs, signal);
  }
}

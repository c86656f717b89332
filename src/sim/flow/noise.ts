// Noise takers of one market: arrivals as a Poisson process (rate perMinute × the market's
// activity), a random side, a Pareto size, and an order type drawn from the mix: FAK or FOK with a
// limit up to `slippageTicks` through the touch, or a marketable GTC limit at the touch whose
// remainder rests (so noise traders also make liquidity) until cancelled after a random time.
// Invariants kept: every arrival draws the same values from the stream in the same order whatever
// the book looks like, so the noise stream never shifts with the state of the book; an arrival on
// a book with nothing on the side it would take is skipped (there is no touch to price from).
import { SCALE } from '../../core/money.js';
import type { OrderType } from '../../core/order.js';
import type { MarketState } from '../engine/types.js';
import type { Rng } from '../world/rng.js';
import { TrackedOrder, type FlowContext, type OrderHolder } from './context.js';
import type { FlowTask } from './event-queue.js';
import type { MarketView } from './market-view.js';
import { cancelOrder, orderPrice, placeYes, readInventory, toLots } from './orders.js';
import type { NoiseParams } from './params.js';
import { exponential, pareto, uniform } from './sampling.js';

const NO_HOLDER: OrderHolder = { onPartial: () => undefined, onGone: () => undefined };

/** Cancels a resting remainder when its time is up (if it is still resting). */
class RestExpiry implements FlowTask {
  constructor(
    private readonly ctx: FlowContext,
    private readonly order: TrackedOrder,
    private readonly owner: string,
  ) {}
  run(): void {
    if (this.order.live) cancelOrder(this.ctx, this.order.id, this.owner);
  }
}

export class NoiseTrader implements FlowTask {
  private readonly meanGapMs: number;
  private readonly types: readonly (readonly [OrderType, number])[];

  constructor(
    private readonly ctx: FlowContext,
    private readonly market: MarketView,
    readonly owners: readonly string[],
    private readonly p: NoiseParams,
    private readonly rng: Rng,
  ) {
    this.meanGapMs = 60_000 / (p.perMinute * market.activity);
    this.types = [
      ['FAK', p.fakWeight],
      ['FOK', p.fokWeight],
      ['GTC', p.limitWeight],
    ];
  }

  start(at: number): void {
    this.ctx.queue.push(at + exponential(this.rng, this.meanGapMs), this);
  }

  run(at: number): void {
    if (this.market.finished) return;
    this.ctx.counters.events++;
    // The draws of one arrival, always all of them, always in this order.
    const owner = this.rng.pick(this.owners);
    const isBid = this.rng.chance(0.5);
    const rawSize = pareto(this.rng, this.p.sizeMin, this.p.sizeAlpha, this.p.sizeMax);
    const type = this.rng.weighted(this.types);
    const slip = this.rng.int(0, this.p.slippageTicks);
    const restMs = uniform(this.rng, this.p.restMinMs, this.p.restMaxMs);
    const s = this.market.ready(at);
    if (s !== null) this.arrive(at, s, owner, isBid, rawSize, type, slip, restMs);
    this.ctx.queue.push(at + exponential(this.rng, this.meanGapMs), this);
  }

  private arrive(
    at: number,
    s: MarketState,
    owner: string,
    isBid: boolean,
    rawSize: number,
    type: OrderType,
    slip: number,
    restMs: number,
  ): void {
    const top = this.ctx.engine.topOfBook(this.market.yesToken);
    const touch = top === undefined ? null : isBid ? top.ask : top.bid;
    if (touch === null) return;
    const tick = s.tick as number;
    // A GTC takes at the touch only; FAK/FOK accept up to `slip` ticks of slippage.
    const through = type === 'GTC' ? 0 : slip * tick;
    const yesPrice = isBid
      ? orderPrice(Math.min(touch + through, SCALE - tick), tick, 'ceil')
      : orderPrice(Math.max(touch - through, tick), tick, 'floor');
    const size = toLots(rawSize, s.minSize);
    const inv = readInventory(this.ctx, owner, this.market);
    const r = placeYes(this.ctx, this.market, s, inv, { owner, role: 'noise', isBid, yesPrice, size, type });
    if (r.ok && r.orderStatus === 'LIVE') {
      const o = new TrackedOrder(r.orderId, NO_HOLDER, isBid, yesPrice, size, size - r.sizeMatched);
      this.ctx.track(o);
      this.ctx.queue.push(at + restMs, new RestExpiry(this.ctx, o, owner));
    }
  }
}

// A background liquidity provider of one market: keeps a ladder of post-only GTC bids and asks
// around its own fair price, so books are never empty. Its fair price chases the latent with a
// lag (time constant `lagMs`, in logit space) plus noise, which is what leaves stale quotes for
// informed traders to pick off. Invariants kept:
// - the ladder sits on a fixed grid (multiples of `step`, a multiple of the tick), so a requote
//   touches the book only when the fair price crosses a grid line, a level was (partly) filled, or
//   churn picks an order for cancel/replace: requotes are cheap and the cancel rate realistic;
// - it never takes liquidity: bids stay below the best ask and asks above the best bid (clamped
//   before sending, post-only as the backstop);
// - at most `levels` orders per side rest after a requote; a filled level is refilled after
//   `refillMs` (one pending refill at a time).
import { SCALE, roundToStep, type Price, type Shares } from '../../core/money.js';
import type { MarketState } from '../engine/types.js';
import type { Rng } from '../world/rng.js';
import { TrackedOrder, type FlowContext, type OrderHolder } from './context.js';
import { dexp, sigmoid } from './detmath.js';
import type { FlowTask } from './event-queue.js';
import type { MarketView } from './market-view.js';
import { cancelOrder, placeYes, readInventory, toLots, type Inventory } from './orders.js';
import type { LpProfile } from './params.js';
import { exponential, uniform } from './sampling.js';

export class LiquidityProvider implements FlowTask, OrderHolder {
  /** Resting orders by YES price. */
  readonly bids = new Map<number, TrackedOrder>();
  readonly asks = new Map<number, TrackedOrder>();
  private fair = 0;
  private fairAt = 0;
  private started = false;
  private refillPending = false;
  /** True during a requote: its own cancels need no refill, the requote itself fills the gaps. */
  private quoting = false;
  private readonly refillTask: FlowTask = { run: (at) => this.refill(at) };

  constructor(
    private readonly ctx: FlowContext,
    private readonly market: MarketView,
    readonly owner: string,
    private readonly profile: LpProfile,
    private readonly rng: Rng,
  ) {}

  /** Schedules the first requote (right away: books fill as soon as the market runs). */
  start(at: number): void {
    this.ctx.queue.push(at, this);
  }

  /** The periodic requote. */
  run(at: number): void {
    if (this.market.finished) return;
    this.ctx.counters.events++;
    const s = this.market.ready(at);
    if (s !== null) this.requote(at, s);
    this.ctx.queue.push(at + exponential(this.rng, this.profile.requoteMs), this);
  }

  onPartial(o: TrackedOrder): void {
    if (o.remaining * 2 < o.size) this.scheduleRefill();
  }

  onGone(o: TrackedOrder): void {
    const side = o.isBid ? this.bids : this.asks;
    if (side.get(o.yesPrice) === o) side.delete(o.yesPrice);
    if (!this.quoting) this.scheduleRefill();
  }

  private scheduleRefill(): void {
    if (this.refillPending || this.market.finished) return;
    this.refillPending = true;
    this.ctx.queue.push(this.ctx.now() + this.profile.refillMs, this.refillTask);
  }

  private refill(at: number): void {
    this.refillPending = false;
    if (this.market.finished) return;
    this.ctx.counters.events++;
    const s = this.market.ready(at);
    if (s !== null) this.requote(at, s);
  }

  private updateFair(at: number): number {
    const target = this.market.latent.logit();
    const lag = this.profile.lagMs;
    if (!this.started || lag === 0) {
      this.fair = target;
      this.started = true;
    } else if (at > this.fairAt) {
      this.fair += (1 - dexp(-(at - this.fairAt) / lag)) * (target - this.fair);
    }
    this.fairAt = at;
    const n = this.profile.fairNoise;
    return sigmoid(n === 0 ? this.fair : this.fair + this.rng.normal(0, n)) * SCALE;
  }

  private requote(at: number, s: MarketState): void {
    this.quoting = true;
    try {
      this.quote(at, s);
    } finally {
      this.quoting = false;
    }
  }

  private quote(at: number, s: MarketState): void {
    const p = this.profile;
    const tick = s.tick as number;
    const step = roundToStep(Math.max(p.step, tick), tick, 'ceil');
    const center = this.updateFair(at);
    let bidTop = roundToStep(Math.floor(center - p.halfSpread), step, 'floor');
    let askTop = roundToStep(Math.ceil(center + p.halfSpread), step, 'ceil');
    if (askTop <= bidTop) askTop = bidTop + step;

    // Pass 1: cancel what left the ladder, what is mostly filled, and churn.
    const stale: TrackedOrder[] = [];
    for (const o of this.bids.values())
      if (!onLadder(bidTop - o.yesPrice, step, p.levels) || this.worn(o)) stale.push(o);
    for (const o of this.asks.values())
      if (!onLadder(o.yesPrice - askTop, step, p.levels) || this.worn(o)) stale.push(o);
    for (const o of stale) cancelOrder(this.ctx, o.id, this.owner);

    if (this.bids.size >= this.levelsIn(bidTop, -step, tick) && this.asks.size >= this.levelsIn(askTop, step, tick))
      return;

    // Pass 2: clamp to the other side of the book so that nothing crosses, then fill the gaps.
    const top = this.ctx.engine.topOfBook(this.market.yesToken);
    if (top !== undefined) {
      if (top.ask !== null && bidTop > top.ask - tick) bidTop = roundToStep(top.ask - tick, step, 'floor');
      if (top.bid !== null && askTop < top.bid + tick) askTop = roundToStep(top.bid + tick, step, 'ceil');
    }
    const extra: TrackedOrder[] = [];
    for (const o of this.bids.values()) if (!onLadder(bidTop - o.yesPrice, step, p.levels)) extra.push(o);
    for (const o of this.asks.values()) if (!onLadder(o.yesPrice - askTop, step, p.levels)) extra.push(o);
    for (const o of extra) cancelOrder(this.ctx, o.id, this.owner);

    const inv = readInventory(this.ctx, this.owner, this.market);
    this.mergeSets(inv);
    for (let i = 0; i < p.levels; i++) {
      const bid = bidTop - i * step;
      if (bid >= tick && !this.bids.has(bid)) this.place(s, inv, true, bid, i);
      const ask = askTop + i * step;
      if (ask <= SCALE - tick && !this.asks.has(ask)) this.place(s, inv, false, ask, i);
    }
  }

  /** Mostly filled, or picked for churn (a cancel/replace that sends the order to the back). */
  private worn(o: TrackedOrder): boolean {
    if (o.remaining * 2 < o.size) return true;
    return this.profile.churn > 0 && this.rng.chance(this.profile.churn);
  }

  /** How many ladder levels from `top` going by `delta` fit in [tick, 1 − tick]. */
  private levelsIn(top: number, delta: number, tick: number): number {
    let n = 0;
    for (let i = 0, v = top; i < this.profile.levels; i++, v += delta) if (v >= tick && v <= SCALE - tick) n++;
    return n;
  }

  private place(s: MarketState, inv: Inventory, isBid: boolean, yesPrice: number, level: number): void {
    const p = this.profile;
    const size = toLots(uniform(this.rng, p.sizeMin, p.sizeMax) * growth(p.levelGrowth, level), s.minSize);
    const r = placeYes(this.ctx, this.market, s, inv, {
      owner: this.owner,
      role: 'lp',
      isBid,
      yesPrice,
      size,
      type: 'GTC',
      postOnly: true,
    });
    if (r.ok && r.orderStatus === 'LIVE') {
      const o = new TrackedOrder(r.orderId, this, isBid, yesPrice as Price, size, size - r.sizeMatched);
      this.ctx.track(o);
      (isBid ? this.bids : this.asks).set(yesPrice, o);
    }
  }

  /** Holding both tokens is holding collateral: merge what exceeds twice the initial sets. */
  private mergeSets(inv: Inventory): void {
    const keep = this.ctx.params.funding.sets;
    const both = inv.yes < inv.no ? inv.yes : inv.no;
    if (both <= 2 * keep || both === 0) return;
    const amount = both - keep;
    this.ctx.engine.merge(this.owner, this.market.conditionId, amount as Shares);
    inv.yes -= amount;
    inv.no -= amount;
    inv.collateral += amount;
    this.ctx.counters.merged += amount;
  }
}

/** True when `dist` (distance from the ladder's top, in the ladder's direction) is a level. */
function onLadder(dist: number, step: number, levels: number): boolean {
  return dist >= 0 && dist % step === 0 && dist / step < levels;
}

function growth(g: number, level: number): number {
  let m = 1;
  for (let i = 0; i < level; i++) m *= g;
  return m;
}

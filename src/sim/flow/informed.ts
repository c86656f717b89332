// Informed takers of one market: they know the latent. At each look (a Poisson process of rate
// perMinute × activity) they compare it with the mid; when latent − mid is at least `threshold`
// they buy (at most −threshold: sell) with a FAK limited to latent − edge (latent + edge), sized
// with the gap, so they take every resting order priced on the wrong side of the latent. This is
// the adverse selection a market maker faces: whoever rests a stale quote is filled right before
// the price moves through it. Invariants kept: they never pay more than latent − edge nor sell for
// less than latent + edge (snapped away from the latent); they send nothing unless some order
// rests at such a price; a look draws the same values from the stream whatever the book.
import { SCALE } from '../../core/money.js';
import type { MarketState } from '../engine/types.js';
import type { Rng } from '../world/rng.js';
import type { FlowContext } from './context.js';
import type { FlowTask } from './event-queue.js';
import type { MarketView } from './market-view.js';
import { orderPrice, placeYes, readInventory, toLots } from './orders.js';
import type { InformedParams } from './params.js';
import { exponential } from './sampling.js';

export class InformedTrader implements FlowTask {
  private readonly meanGapMs: number;

  constructor(
    private readonly ctx: FlowContext,
    private readonly market: MarketView,
    readonly owners: readonly string[],
    private readonly p: InformedParams,
    private readonly rng: Rng,
  ) {
    this.meanGapMs = 60_000 / (p.perMinute * market.activity);
  }

  start(at: number): void {
    this.ctx.queue.push(at + exponential(this.rng, this.meanGapMs), this);
  }

  run(at: number): void {
    if (this.market.finished) return;
    this.ctx.counters.events++;
    const owner = this.rng.pick(this.owners);
    const s = this.market.ready(at);
    if (s !== null) this.look(s, owner);
    this.ctx.queue.push(at + exponential(this.rng, this.meanGapMs), this);
  }

  private look(s: MarketState, owner: string): void {
    const top = this.ctx.engine.topOfBook(this.market.yesToken);
    if (top === undefined || top.bid === null || top.ask === null) return;
    const tick = s.tick as number;
    const fair = this.market.latent.value() * SCALE;
    const gap = fair - (top.bid + top.ask) / 2;
    const p = this.p;
    let isBid: boolean;
    let limit: number;
    if (gap >= p.threshold) {
      isBid = true;
      limit = orderPrice(fair - p.edge, tick, 'floor');
      if (limit < top.ask) return; // nothing to take at a profit
    } else if (-gap >= p.threshold) {
      isBid = false;
      limit = orderPrice(fair + p.edge, tick, 'ceil');
      if (limit > top.bid) return;
    } else {
      return;
    }
    const want = p.sizeBase * (Math.abs(gap) / p.threshold);
    const size = toLots(want < p.sizeMax ? want : p.sizeMax, s.minSize);
    const inv = readInventory(this.ctx, owner, this.market);
    placeYes(this.ctx, this.market, s, inv, { owner, role: 'informed', isBid, yesPrice: limit, size, type: 'FAK' });
  }
}

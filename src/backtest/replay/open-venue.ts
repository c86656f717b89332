// The backtest's venue for a fill model: the paper venue (src/sim/paper) with the backtester's
// queue models attached, seen through the replay's port.
import type { Clock } from '../../core/clock.js';
import type { Micros } from '../../core/money.js';
import { PaperVenue, type FillModel } from '../../sim/paper/index.js';
import { QueueFillModel, restingFromVenue } from '../fill-queue.js';
import type { BacktestFillModel } from '../types.js';
import { paperVenuePort, type ReplayVenuePort } from './venue-port.js';

export interface ReplayVenueOptions {
  readonly clock: Clock;
  readonly capital: Micros;
  readonly fillModel: BacktestFillModel;
  /** `queue-probabilistic`: probability a size decrease at our level is a trade ahead of us. */
  readonly tradeProbability: number;
  /** Seeded draws of the probabilistic queue. */
  readonly random: () => number;
}

export function openReplayVenue(o: ReplayVenueOptions): ReplayVenuePort {
  let model: FillModel | 'cross' = 'cross';
  let queue: QueueFillModel | null = null;
  if (o.fillModel !== 'cross') {
    queue = new QueueFillModel(
      o.fillModel === 'queue' ? {} : { tradeProbability: o.tradeProbability, random: o.random },
    );
    model = queue;
  }
  const venue = new PaperVenue({
    clock: o.clock,
    capital: o.capital,
    fillModel: model,
    retainFinishedMs: Number.POSITIVE_INFINITY,
  });
  queue?.attach(restingFromVenue(venue));
  return paperVenuePort(venue);
}

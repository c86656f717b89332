// The backtest's venue: the delta venue (src/backtest/venue/), which takes recorded deltas as
// deltas on flat typed arrays and answers, fills and queues exactly as the paper venue with the
// backtester's fill models does (test/backtest/venue/delta-venue.equivalence.test.ts).
import type { Clock } from '../../core/clock.js';
import type { Micros } from '../../core/money.js';
import { DeltaVenue } from '../venue/index.js';
import type { BacktestFillModel } from '../types.js';
import type { ReplayVenuePort } from './venue-port.js';

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
  return new DeltaVenue({
    clock: o.clock,
    capital: o.capital,
    fillModel: o.fillModel,
    tradeProbability: o.tradeProbability,
    random: o.random,
    // Kept until the executor forgets them (it reads an order until it has its final state, and
    // the report's orders come from the ledger), never by age: a slow final read still finds it.
    retainFinishedMs: Number.POSITIVE_INFINITY,
  });
}

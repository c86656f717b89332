// Public surface of the backtester's delta venue: PaperVenue's answers and fills on recorded book
// deltas, in flat typed arrays (delta-venue.ts states the rules it reproduces).
export {
  DeltaVenue,
  type DeltaFillListener,
  type DeltaFillModelName,
  type DeltaVenueOptions,
  type DeltaVenueStats,
} from './delta-venue.js';

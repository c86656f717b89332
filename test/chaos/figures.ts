// Chaos figures: what a chaos run reports, one `CHAOS <scenario>.<name> <value> <unit>` line per
// figure. Owns the Figure and RunResult shapes, the figures of a reconciliation and of a stop, and
// the seeded PRNG the kill moments come from.
import { mulberry32 } from '../../src/core/random.js';
import { shares, type Reconciliation } from './compare.js';
import type { StopResult } from './harness.js';

/** One figure: `CHAOS <name> <value> <unit>`. */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

export function formatFigures(scenario: string, figures: readonly Figure[]): string {
  return figures
    .map((f) => `CHAOS ${scenario}.${f.name} ${Number.isInteger(f.value) ? f.value : f.value.toFixed(3)} ${f.unit}`)
    .join('\n');
}

/** The core's seeded PRNG (mulberry32), so kill moments repeat for a seed. */
export const prng = mulberry32;

/** The facts of one stop, as figures. */
export function stopFigures(s: StopResult): Figure[] {
  const l = s.stoppedLine;
  return [
    { name: 'exit_code', value: s.exit.code ?? -1, unit: 'code' },
    { name: 'stop_seconds', value: s.stopSeconds, unit: 's' },
    { name: 'stop_killed_after_bound', value: s.killedAfterBound ? 1 : 0, unit: 'bool' },
    { name: 'stop_line_cancelled', value: Number(l?.['cancelled'] ?? -1), unit: 'orders' },
    { name: 'stop_line_remaining', value: Number(l?.['remaining'] ?? -1), unit: 'orders' },
    { name: 'stop_line_timed_out', value: l?.['timedOut'] === true ? 1 : 0, unit: 'bool' },
  ];
}

export function reconciliationFigures(r: Reconciliation): Figure[] {
  return [
    { name: 'exchange_orders', value: r.exchangeOrders, unit: 'orders' },
    { name: 'orders_with_fills', value: r.ordersWithFills, unit: 'orders' },
    { name: 'orphans', value: r.orphans.length, unit: 'orders' },
    { name: 'unknown_orders', value: r.unknownToLedger.length, unit: 'orders' },
    { name: 'lost_fills', value: r.lost.length, unit: 'orders' },
    { name: 'lost_fill_shares', value: shares(r.lostShares), unit: 'shares' },
    { name: 'duplicated_fills', value: r.duplicated.length, unit: 'orders' },
    { name: 'duplicated_fill_shares', value: shares(r.duplicatedShares), unit: 'shares' },
    { name: 'matched_size_mismatches', value: r.matchedMismatch.length, unit: 'orders' },
    { name: 'position_mismatches', value: r.positionMismatch.length, unit: 'tokens' },
    { name: 'position_mismatch_shares', value: shares(r.positionMismatchShares), unit: 'shares' },
    { name: 'live_after_stop', value: r.liveOnExchange, unit: 'orders' },
  ];
}

export interface RunResult {
  readonly figures: readonly Figure[];
  readonly reconciliation: Reconciliation;
  readonly stop: StopResult;
  /** Warn-and-above log messages of every daemon run, counted. */
  readonly problems: Record<string, number>;
  /** Where the run's config, ledger and daemon logs are (kept for a look after a failure). */
  readonly dir: string;
}

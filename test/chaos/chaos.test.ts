// Chaos tests of issue 12, at the suite's scale (sizes.ts; full size: `npm run chaos`): the daemon
// (`oddsmaker run`, live mode) and the simulator as child processes on 127.0.0.1, the daemon's
// SQLite ledger compared with the exchange's own records after crashes, churn and shutdown.
//   (a) SIGKILLs at seeded random moments, a restart after each, a final SIGTERM: no orphan, no lost
//       or duplicated fill, per-order matched size and positions equal;
//   (b) churn then SIGTERM: no lost fill, exit 0 with nothing left live; ledger lag reported;
//   (c) churn with a short order age and scaled trading-write budgets, then SIGTERM: nothing left
//       live and no throttled response.
// Every figure is printed (`CHAOS <scenario>.<name> <value> <unit>`) before the assertions, which
// are soft: a failing run lists every condition it breaks, with the offending orders and tokens.
// Needs `npm run build` (the children run dist/).
import { rmSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shares } from './compare.js';
import { assertBuilt, killAll } from './harness.js';
import { formatFigures, type RunResult } from './figures.js';
import { runChurn, runKills } from './scenarios.js';
import { CHECKS, failedChecks, figure, SUITE, type Check } from './sizes.js';

beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  await killAll();
});

function report(scenario: string, r: RunResult): void {
  console.log(
    `${formatFigures(scenario, r.figures)}\n# ${scenario}: warnings ${JSON.stringify(r.problems)}; files in ${r.dir}`,
  );
}

/** The offending entries behind a figure, for the failure message. */
function detail(r: RunResult, name: string): string {
  const c = r.reconciliation;
  const orders = (
    xs: ReadonlyArray<{ id: string; exchange: number; ledger: number; ledgerState: string | null }>,
  ): string =>
    xs
      .slice(0, 10)
      .map(
        (m) =>
          `${m.id.slice(0, 12)}… exchange ${shares(m.exchange)} ledger ${shares(m.ledger)} (${m.ledgerState ?? 'no row'})`,
      )
      .join('; ');
  switch (name) {
    case 'orphans':
      return c.orphans.slice(0, 10).join(', ');
    case 'lost_fills':
      return `${shares(c.lostShares)} shares: ${orders(c.lost)}`;
    case 'duplicated_fills':
      return `${shares(c.duplicatedShares)} shares: ${orders(c.duplicated)}`;
    case 'matched_size_mismatches':
      return orders(c.matchedMismatch);
    case 'position_mismatches':
      return c.positionMismatch
        .slice(0, 10)
        .map((p) => `${p.tokenId.slice(0, 12)}… exchange ${shares(p.exchange)} ledger ${shares(p.ledger)}`)
        .join('; ');
    case 'exit_code':
    case 'live_after_stop':
      return `stop line ${JSON.stringify(r.stop.stoppedLine)}, ${r.stop.stopSeconds.toFixed(1)} s`;
    default:
      return '';
  }
}

/** Soft-asserts every check; a run that passes them all has its files removed. */
function assertChecks(r: RunResult, checks: readonly Check[]): void {
  for (const c of checks) {
    expect.soft(figure(r.figures, c.name), `${c.name} (${c.why}): ${detail(r, c.name)}`).toBe(c.expected);
  }
  if (failedChecks(checks, r.figures).length === 0) rmSync(r.dir, { recursive: true, force: true });
}

describe('chaos (issue 12): the ledger equals the exchange under crashes, churn and shutdown', () => {
  it(`(a) ${SUITE.kills.kills} SIGKILLs at seeded random moments, a restart after each, then SIGTERM`, async () => {
    const r = await runKills(SUITE.kills);
    report('a', r);
    // Not vacuous: orders were placed and filled.
    expect(r.reconciliation.ordersWithFills, 'the exchange filled some of our orders').toBeGreaterThan(0);
    assertChecks(r, CHECKS.kills);
  }, 240_000);

  it(`(b) churn at ${SUITE.churn.markets} markets × ${SUITE.churn.levels} levels for ${SUITE.churn.durationMs / 1000} s, then SIGTERM`, async () => {
    const r = await runChurn(SUITE.churn);
    report('b', r);
    expect(r.reconciliation.ordersWithFills, 'the exchange filled some of our orders').toBeGreaterThan(0);
    // The lag is reported (printed above); the sampler must have seen the running daemon.
    expect(figure(r.figures, 'lag_samples'), 'ledger lag samples').toBeGreaterThan(0);
    assertChecks(r, CHECKS.churn);
  }, 180_000);

  it(`(c) churn at ${SUITE.age.markets} markets × ${SUITE.age.levels} levels with a ${SUITE.age.maxOrderAgeMs ?? 0} ms order age and scaled budgets for ${SUITE.age.durationMs / 1000} s, then SIGTERM`, async () => {
    const r = await runChurn(SUITE.age);
    report('c', r);
    expect(figure(r.figures, 'cancelled'), 'orders renewed during the churn').toBeGreaterThan(0);
    assertChecks(r, CHECKS.age);
  }, 180_000);
});

// Chaos harness: the exchange simulator as a process of its own (compiled by tsc to
// dist/test/chaos/sim-process.js and started by harness.ts). `oddsmaker sim` cannot scale the edge's
// budgets or the account's collateral, so this entry point calls startSimulator itself with the
// options it is given as one JSON argument (no secret in them). It always listens on 127.0.0.1
// (port 0: a free port), prints ONE JSON line `{"ready":true,"url":…,"account":{…},"markets":[…]}` once
// it listens (the account is the simulator's own throwaway one; the line goes only to the parent's
// pipe), and closes on SIGTERM or SIGINT (exit 0) or when its stdin closes (the parent died).
import { SystemClock } from '../../src/core/clock.js';
import type { Micros } from '../../src/core/money.js';
import type { BudgetTable } from '../../src/ratelimit/index.js';
import { startSimulator } from '../../src/sim/server/start.js';
import type { FlowIntensity } from '../../src/sim/venue/index.js';

export interface SimProcessOptions {
  readonly seed: number;
  readonly markets: number;
  readonly flow: FlowIntensity;
  /** The edge's budget table (omit: table 8); limits are always on. */
  readonly budgets?: BudgetTable;
  /** Collateral of the test account, micros (omit: the simulator's default). */
  readonly accountCollateral?: number;
  /** Signature verification worker threads (omit: the simulator's default, one per core up to 4). */
  readonly verifierWorkers?: number;
}

async function main(): Promise<void> {
  const opts = JSON.parse(process.argv[2] ?? '{}') as SimProcessOptions;
  const sim = await startSimulator({
    host: '127.0.0.1',
    port: 0,
    seed: opts.seed,
    markets: opts.markets,
    flow: opts.flow,
    limits: 'on',
    clock: new SystemClock(),
    ...(opts.verifierWorkers === undefined ? {} : { verifier: { workers: opts.verifierWorkers } }),
    ...(opts.budgets === undefined ? {} : { budgets: opts.budgets }),
    ...(opts.accountCollateral === undefined ? {} : { accountCollateral: opts.accountCollateral as Micros }),
  });
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    void sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
  // Token ids of every market in outcome order, so GET /positions' `<condition_id>:<index>` assets
  // can be tied to tokens without asking the (throttled) market routes.
  // `open`: active, not closed, accepting orders (the markets a daemon can quote).
  const markets = sim.venue.world.markets.map((m) => ({
    conditionId: m.conditionId,
    tokenIds: [...m.tokenIds],
    open: m.state.active && !m.state.closed && m.state.acceptingOrders,
  }));
  process.stdout.write(`${JSON.stringify({ ready: true, url: sim.url, account: sim.account, markets })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`sim-process failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

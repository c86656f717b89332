// The parts of a quoting cycle that follow from the config alone, built in one place for every
// way a cycle runs: the Daemon (live, sandbox, paper; src/runtime/daemon.ts) and the backtest's
// synchronous replay (src/backtest/replay/). So a backtest's book cache, strategy instance, risk
// limits, reconciler and capital are exactly the daemon's. Invariants: nothing is started here;
// the strategy's clock and log are the caller's (the injected clock, the run's logger).
import type { Clock } from '../core/clock.js';
import type { Micros } from '../core/money.js';
import type { Config } from '../config/schema.js';
import type { RiskLimits } from '../execution/risk.js';
import { BookCache } from '../marketdata/book-cache.js';
import { fromPino } from '../strategy/context.js';
import type { StrategyModule, StrategyRunner } from '../strategy/define.js';
import { registry } from '../../strategies/index.js';
import { IncrementalReconciler } from './incremental-reconcile.js';
import { capitalFromConfig, reconcileOptionsFromConfig, riskLimitsFromConfig } from './limits.js';
import type { Logger } from './logger.js';

export interface CycleParts {
  readonly cache: BookCache;
  readonly runner: StrategyRunner;
  readonly limits: RiskLimits;
  readonly reconciler: IncrementalReconciler;
  readonly capital: Micros;
}

/** The book cache, strategy runner (default: the registry's config.strategy.name), limits, reconciler and capital. */
export function cyclePartsFromConfig(
  config: Readonly<Config>,
  clock: Clock,
  log: Logger,
  strategy: StrategyModule | undefined,
): CycleParts {
  const module = strategy ?? registry.get(config.strategy.name);
  return {
    cache: new BookCache({ maxBookAgeMs: config.poll.maxBookAgeMs, midHistory: config.poll.midHistory }),
    runner: module.create(config.strategy.params, {
      clock: { now: () => clock.now(), monotonic: () => clock.monotonic() },
      log: fromPino(log.child({ strategy: module.name })),
      path: 'strategy.params',
    }),
    limits: riskLimitsFromConfig(config),
    reconciler: new IncrementalReconciler(reconcileOptionsFromConfig(config)),
    capital: capitalFromConfig(config),
  };
}

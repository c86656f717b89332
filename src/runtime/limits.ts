// Config → the values the cycle works with: risk limits, reconcile options, the order manager's
// settings and capital, all in
// exact integer millionths (config decimals are parsed strictly, never through a float). The
// config schema has already checked the strings' shape, so a parse failure here is a bug.
import { parseMicros, parseShares, type Micros } from '../core/money.js';
import type { Config } from '../config/schema.js';
import type { OrderManagerConfig } from '../execution/order-manager-types.js';
import type { ReconcileOptions } from '../execution/reconcile.js';
import type { RiskLimits } from '../execution/risk.js';

export function riskLimitsFromConfig(c: Pick<Config, 'risk' | 'poll'>): RiskLimits {
  return {
    market: {
      maxPosition: parseShares(c.risk.maxPositionShares, 'risk.maxPositionShares'),
      maxNotional: parseMicros(c.risk.maxMarketNotional, 'risk.maxMarketNotional'),
    },
    maxTotalExposure: parseMicros(c.risk.maxTotalExposure, 'risk.maxTotalExposure'),
    dailyLossLimit: parseMicros(c.risk.dailyLossLimit, 'risk.dailyLossLimit'),
    maxDataAgeMs: c.poll.maxBookAgeMs,
  };
}

export function capitalFromConfig(c: Pick<Config, 'risk'>): Micros {
  return parseMicros(c.risk.capital, 'risk.capital');
}

/** Reconcile's size tolerance: `orders.sizeTolerance` is a fraction, reconcile takes basis points. */
export function reconcileOptionsFromConfig(c: Pick<Config, 'orders'>): Omit<ReconcileOptions, 'minOrderSize'> {
  return { toleranceBps: Math.round(c.orders.sizeTolerance * 10_000) };
}

/** The order manager's settings that config names (every run mode and the backtester use this one mapping). */
export function managerConfigFromConfig(c: Pick<Config, 'orders'>): Partial<OrderManagerConfig> {
  return {
    circuitBreakerFailures: c.orders.circuitBreakerFailures,
    shutdownTimeoutMs: c.orders.shutdownTimeoutMs,
    fillReadsPerSecond: c.orders.fillReadsPerSecond,
    maxFinalReadBacklog: c.orders.maxFinalReadBacklog,
    cancelReserve: c.orders.cancelReserve,
    postOnly: c.orders.postOnly,
  };
}

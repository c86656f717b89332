// Config → the values the cycle works with: risk limits, reconcile options, the order manager's
// settings, the rate limiter's settings (the per-signer tier's default by dialect) and capital, all in
// exact integer millionths (config decimals are parsed strictly, never through a float). The
// config schema has already checked the strings' shape, so a parse failure here is a bug.
import { parseMicros, parseShares, type Micros } from '../core/money.js';
import type { Config } from '../config/schema.js';
import type { RateLimitConfigInput } from '../ratelimit/config.js';
import type { SignerTier } from '../ratelimit/signer-tiers.js';
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

/**
 * The rate limiter's settings: `config.rateLimit`, with `signerTier` defaulted by dialect when the
 * config does not name one. The per-signer buckets (docs/rate-limits.md) are the public
 * exchange's: `standard` (the tightest tier, until the exchange reports ours) for the polymarket
 * dialect; the spec dialect (our simulator's interface shapes) has no such limits: `off`. An
 * explicit `rateLimit.signerTier` always wins.
 */
export function rateLimitFromConfig(c: Pick<Config, 'rateLimit' | 'exchange'>): RateLimitConfigInput {
  return { ...c.rateLimit, signerTier: c.rateLimit.signerTier ?? defaultSignerTier(c.exchange.dialect) };
}

export function defaultSignerTier(dialect: Config['exchange']['dialect']): SignerTier | 'off' {
  return dialect === 'polymarket' ? 'standard' : 'off';
}

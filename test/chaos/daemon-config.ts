// Chaos harness: the daemon's config file for a chaos run. Owns what the daemon is told: live mode
// against the simulator child's URL, the bands strategy over explicit markets with a given ladder,
// risk limits wide enough never to trim it, the health server off (no fixed port on a shared
// machine), and optionally scaled trading-write budgets (the same table the simulator's edge is
// given, see scenarios.ts). No secret goes in the file: credentials reach the daemon through its
// environment (harness.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TradingWindows {
  /** The short window (table 8: 2400 / 10 s). */
  readonly short: { readonly limit: number; readonly windowMs: number };
  /** The long window (table 8: 24 000 / 10 min). */
  readonly long: { readonly limit: number; readonly windowMs: number };
}

/** The budgets section (src/ratelimit/config.ts) that replaces both trading-write buckets. */
export function tradingBudgets(w: TradingWindows): {
  buckets: Record<string, Array<{ limit: number; windowMs: number }>>;
} {
  const windows = [{ ...w.short }, { ...w.long }];
  return { buckets: { 'clob POST /order': windows, 'clob DELETE /order': windows.map((x) => ({ ...x })) } };
}

export interface DaemonConfigOptions {
  readonly dir: string;
  readonly simUrl: string;
  /** Condition ids of the markets to quote (both tokens of each). */
  readonly conditions: readonly string[];
  readonly levels: number;
  /** Shares per level and side (≥ every market's minimum order size, 20 at most in the simulator). */
  readonly levelSize?: number;
  /** bands `maxOrderAgeMs` (0: never renewed). */
  readonly maxOrderAgeMs?: number;
  readonly pollIntervalMs?: number;
  readonly orderLookupIntervalMs?: number;
  readonly shutdownTimeoutMs?: number;
  /** Scaled trading-write budgets of the daemon's limiter (omit: table 8). */
  readonly trading?: TradingWindows;
}

export interface DaemonConfig {
  readonly path: string;
  readonly ledgerPath: string;
  readonly shutdownTimeoutMs: number;
}

/**
 * A live-mode config against the simulator: the given markets, bands strategy with `levels`
 * levels (margins 0.01, 0.02, …), refreshTolerance 0 (every mid move replaces), risk limits wide
 * enough that risk never trims the ladder, health server off (no fixed port on a shared machine).
 */
export function writeDaemonConfig(o: DaemonConfigOptions): DaemonConfig {
  const levelSize = o.levelSize ?? 20;
  const levels = Array.from({ length: o.levels }, (_, i) => ({
    margin: Number(((i + 1) / 100).toFixed(2)),
    size: levelSize,
  }));
  const ledgerPath = join(o.dir, 'ledger.sqlite');
  const shutdownTimeoutMs = o.shutdownTimeoutMs ?? 20_000;
  const cfg = {
    mode: 'live',
    exchange: { clobUrl: o.simUrl },
    markets: { conditions: [...o.conditions], selector: { max: o.conditions.length } },
    poll: {
      intervalMs: o.pollIntervalMs ?? 500,
      maxBookAgeMs: 10_000,
      orderLookupIntervalMs: o.orderLookupIntervalMs ?? 2_000,
    },
    strategy: {
      name: 'bands',
      params: {
        levels,
        maxPosition: 2 * o.levels * levelSize,
        refreshTolerance: 0,
        maxOrderAgeMs: o.maxOrderAgeMs ?? 0,
      },
    },
    risk: {
      maxPositionShares: '100000',
      maxMarketNotional: '100000',
      maxTotalExposure: '1000000',
      dailyLossLimit: '100000',
      capital: '500000',
    },
    orders: { shutdownTimeoutMs },
    ...(o.trading === undefined ? {} : { rateLimit: { budgets: tradingBudgets(o.trading) } }),
    ledger: { path: ledgerPath },
    log: { level: 'info' },
    health: { enabled: false },
  };
  const path = join(o.dir, 'config.json');
  writeFileSync(path, JSON.stringify(cfg, null, 2));
  return { path, ledgerPath, shutdownTimeoutMs };
}

// Rate-limit configuration: validated once (messages name the path and the value), merged onto
// table 8, scaled by the safety factor, then frozen. The config module of the daemon embeds
// `rateLimitConfigSchema` under its own key and calls `resolveRateLimitConfig`.
//
// Invariants: every route names existing buckets, every window has a positive integer limit and a
// positive length, margin ≥ 0, 0 < safetyFactor ≤ 1. A Redis URL (it may carry a password) is
// never echoed in an error message.
import { z } from 'zod';
import {
  API_GROUPS,
  TABLE8,
  budgetTableProblems,
  scaleBudgets,
  type ApiGroup,
  type BudgetTable,
  type WindowSpec,
} from './budgets.js';
import { RateLimitConfigError } from './errors.js';
import { DEFAULT_SIGNER_TIER, SIGNER_TIERS, type SignerTier } from './signer-tiers.js';

const windowSchema = z.strictObject({
  limit: z.number().int().positive(),
  windowMs: z.number().positive().finite(),
});

const budgetsSchema = z.strictObject({
  /** Buckets to add or replace (by name). */
  buckets: z.record(z.string().min(1), z.array(windowSchema).min(1)).optional(),
  /** General cap bucket per group; null removes the group's general cap. */
  general: z
    .strictObject({
      clob: z.string().nullable().optional(),
      catalog: z.string().nullable().optional(),
      data: z.string().nullable().optional(),
    })
    .optional(),
  /** Routes (`<api> <METHOD> <path>`) to add or replace. */
  routes: z.record(z.string().min(1), z.array(z.string().min(1))).optional(),
  /** true: start from an empty table instead of table 8. */
  replace: z.boolean().optional(),
});

export const rateLimitConfigSchema = z.strictObject({
  /** Extra time each send counts beyond its window, for clock and network skew. */
  marginMs: z.number().min(0).max(60_000).default(200),
  /** Every limit is multiplied by this and rounded down. */
  safetyFactor: z.number().gt(0).lte(1).default(1),
  /** Most requests in flight at once (admitted, not yet released); absent: no cap. */
  maxInFlight: z.number().int().positive().optional(),
  /** Pause after a 429 that carries no usable Retry-After. */
  defaultPauseMs: z.number().min(0).max(3_600_000).default(1000),
  budgets: budgetsSchema.optional(),
  /** The exchange's per-signer trading tier (signer-tiers.ts); 'off' for a venue without them. The
   *  tier the exchange reports (header or tier route) replaces it at run time. Absent: the daemon
   *  picks by dialect (src/runtime/limits.ts: standard for polymarket, off for spec); a limiter
   *  built from this config alone assumes DEFAULT_SIGNER_TIER. No schema default, so an explicit
   *  value stays distinguishable from none. */
  signerTier: z.enum([...SIGNER_TIERS, 'off']).optional(),
  backend: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('memory') }),
      z.strictObject({
        kind: z.literal('redis'),
        /** redis://[user:password@]host[:port][/db] or rediss://… (never shown with its password). */
        url: z.string().min(1).refine(isRedisUrl, { message: 'expected a redis:// or rediss:// URL' }),
        keyPrefix: z.string().min(1).default('oddsmaker:rl'),
        /** clock: the injected clock's now(); server: Redis TIME (one time base for all hosts). */
        timeSource: z.enum(['clock', 'server']).default('clock'),
        /** Start-up fails (exit 1) when Redis is not ready within this, ms; also bounds each TCP connect. */
        connectTimeoutMs: z.number().int().positive().max(600_000).default(3000),
        /** A command (an admission) unanswered this long fails closed and marks the backend down, ms. */
        commandTimeoutMs: z.number().int().positive().max(600_000).default(2000),
      }),
    ])
    .default({ kind: 'memory' }),
});

export type RateLimitConfigInput = z.input<typeof rateLimitConfigSchema>;

export interface RedisBackendConfig {
  readonly kind: 'redis';
  readonly url: string;
  readonly keyPrefix: string;
  readonly timeSource: 'clock' | 'server';
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
}

function isRedisUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export interface RateLimitConfig {
  readonly marginMs: number;
  readonly safetyFactor: number;
  readonly maxInFlight: number;
  readonly defaultPauseMs: number;
  /** Merged and scaled: the limits actually enforced. */
  readonly budgets: BudgetTable;
  /** Per-signer buckets' tier; null: not metered (signerTier 'off'). */
  readonly signerTier: SignerTier | null;
  readonly backend: { readonly kind: 'memory' } | RedisBackendConfig;
}

const RESOLVED = new WeakSet<object>();

/** True for a value returned by resolveRateLimitConfig (so it is not validated twice). */
export function isRateLimitConfig(c: unknown): c is RateLimitConfig {
  return typeof c === 'object' && c !== null && RESOLVED.has(c);
}

const SECRET_PATH = /url|password|secret/i;

/** Validates, merges onto table 8, applies the safety factor, freezes. Throws RateLimitConfigError. */
export function resolveRateLimitConfig(input: unknown = {}): RateLimitConfig {
  const parsed = rateLimitConfigSchema.safeParse(input);
  if (!parsed.success) {
    const msgs = parsed.error.issues.map((iss) => {
      const path = iss.path.map(String).join('.');
      const shown = SECRET_PATH.test(path) ? '(redacted)' : show(valueAt(input, iss.path));
      return `ratelimit${path === '' ? '' : '.' + path}: ${iss.message} (got ${shown})`;
    });
    throw new RateLimitConfigError(msgs.join('; '));
  }
  const c = parsed.data;
  const table = mergeBudgets(c.budgets);
  const problems = budgetTableProblems(table);
  if (problems.length > 0) throw new RateLimitConfigError(problems.map((p) => `ratelimit.budgets.${p}`).join('; '));
  const cfg: RateLimitConfig = {
    marginMs: c.marginMs,
    safetyFactor: c.safetyFactor,
    maxInFlight: c.maxInFlight ?? Number.POSITIVE_INFINITY,
    defaultPauseMs: c.defaultPauseMs,
    budgets: deepFreeze(scaleBudgets(table, c.safetyFactor)),
    signerTier: c.signerTier === 'off' ? null : (c.signerTier ?? DEFAULT_SIGNER_TIER),
    backend: c.backend,
  };
  RESOLVED.add(cfg);
  return deepFreeze(cfg);
}

type BudgetsInput = z.infer<typeof budgetsSchema>;

function mergeBudgets(b: BudgetsInput | undefined): BudgetTable {
  const base: BudgetTable = b?.replace === true ? { buckets: {}, general: {}, routes: {} } : TABLE8;
  const buckets: Record<string, readonly WindowSpec[]> = { ...base.buckets, ...(b?.buckets ?? {}) };
  const general: Partial<Record<ApiGroup, string>> = { ...base.general };
  for (const api of API_GROUPS) {
    const g = b?.general?.[api];
    if (g === null) delete general[api];
    else if (g !== undefined) general[api] = g;
  }
  const routes: Record<string, readonly string[]> = { ...base.routes, ...(b?.routes ?? {}) };
  return { buckets, general, routes };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  try {
    const s = JSON.stringify(v);
    return s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return typeof v;
  }
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
  }
  return v;
}

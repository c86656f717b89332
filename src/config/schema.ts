// The daemon's configuration schema (zod). One JSON file per deployment (config/*.json); every
// field has a default so that `{}` is a valid sandbox config. Secrets are never part of it: they
// come from the environment (src/exchange/auth/credentials.ts). Strategy parameters are opaque
// here and validated by the chosen strategy's own parser (src/config/load.ts). Cron expressions
// are checked with node-cron's own parser, so a schedule the daemon would refuse is a config error
// (naming its path and value) rather than a failure at start.
import cron from 'node-cron';
import { z } from 'zod';
import { redactUrlPath } from '../core/redact-url.js';
import { rateLimitConfigSchema } from '../ratelimit/config.js';

const positiveInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();
const decimalString = z.string().regex(/^\d+(\.\d{1,6})?$/, 'expected a plain decimal string such as "100" or "0.5"');
const url = z.string().url();
const cronExpression = z
  .string()
  .refine((s) => cron.validate(s), 'not a valid cron expression (node-cron syntax, e.g. "*/5 * * * *")');

export const exchangeSchema = z
  .strictObject({
    dialect: z.enum(['spec', 'polymarket']).default('spec'),
    /** Base URL of the CLOB API (trading, order lookup, market data). */
    clobUrl: url.optional(),
    /** Base URL of the portfolio (data) API; defaults to clobUrl. */
    dataUrl: url.optional(),
    /** Base URL of the catalog API (events, tags, comments); defaults to clobUrl. */
    catalogUrl: url.optional(),
    /**
     * The region check `oddsmaker doctor` reads (`{blocked, ip, country, region}`). Default: the
     * public exchange's https://polymarket.com/api/geoblock with the polymarket dialect (it is on
     * polymarket.com, not the API host: https://docs.polymarket.com/api-reference/geoblock), else
     * clobUrl + /api/geoblock (the simulator serves it there).
     */
    geoblockUrl: url.optional(),
    timeoutMs: positiveInt.default(10_000),
    connections: positiveInt.default(8),
    /**
     * 0 EOA, 1 proxy, 2 safe, 3 deposit wallet (POLY_1271) (docs/protocol.md §3;
     * src/exchange/signing/account-kind.ts says who makes and signs for each).
     */
    signatureType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).default(0),
    /** The funder (maker) address when it differs from the signer (proxy, safe or deposit wallet). */
    funder: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .optional(),
    /** Overrides of the spec dialect's EIP-712 domain (docs/protocol.md's table). */
    chainId: positiveInt.optional(),
    verifyingContract: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .optional(),
    negRiskVerifyingContract: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .optional(),
    /**
     * Keep the exchange's heartbeat (dead-man switch, POST /v1/heartbeats) alive while running, so
     * that it cancels our orders if the daemon dies or hangs (src/runtime/heartbeat.ts). Only where
     * the gateway has the route (live and sandbox modes).
     */
    heartbeat: z.boolean().default(true),
    /** The exchange's heartbeat expiry: no heartbeat for this long and it cancels our orders. */
    heartbeatExpiryMs: positiveInt.min(100).default(10_000),
    /** Time between heartbeats; default a third of heartbeatExpiryMs; must be below it. */
    heartbeatIntervalMs: positiveInt.min(10).optional(),
  })
  .superRefine((ex, ctx) => {
    if (ex.heartbeatIntervalMs !== undefined && ex.heartbeatIntervalMs >= ex.heartbeatExpiryMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['heartbeatIntervalMs'],
        message: `must be below exchange.heartbeatExpiryMs (${ex.heartbeatExpiryMs}): a heartbeat must arrive before the exchange's expiry`,
      });
    }
  });

/** Time between heartbeats: exchange.heartbeatIntervalMs, else a third of the expiry. */
export function heartbeatIntervalOf(
  ex: Pick<z.infer<typeof exchangeSchema>, 'heartbeatExpiryMs' | 'heartbeatIntervalMs'>,
): number {
  return ex.heartbeatIntervalMs ?? Math.max(1, Math.floor(ex.heartbeatExpiryMs / 3));
}

export const sandboxSchema = z.strictObject({
  seed: nonNegInt.default(42),
  markets: positiveInt.max(500).default(8),
  /** Synthetic order flow intensity: 'none' turns it off. */
  flow: z.enum(['none', 'low', 'normal', 'high']).default('normal'),
  port: nonNegInt.max(65535).default(0),
  limits: z.enum(['on', 'off']).default('on'),
});

export const marketsSchema = z.strictObject({
  /** Explicit outcome token ids to quote. */
  tokens: z.array(z.string().min(1)).default([]),
  /** Explicit condition ids: both tokens of each market are quoted. */
  conditions: z.array(z.string().min(1)).default([]),
  /** Selector over /sampling-markets, used when no explicit ids are given. */
  selector: z
    .strictObject({
      active: z.boolean().default(true),
      acceptingOrders: z.boolean().default(true),
      tags: z.array(z.string()).default([]),
      rewardsOnly: z.boolean().default(false),
      max: positiveInt.max(1000).default(4),
    })
    .prefault({}),
  /** node-cron expression for refreshing the selected universe. */
  refreshCron: z.string().default('*/10 * * * *'),
});

export const pollSchema = z.strictObject({
  intervalMs: positiveInt.min(50).default(1_000),
  maxBookAgeMs: positiveInt.default(10_000),
  /** How often live orders are looked up (GET /data/order/{id}) for fills. */
  orderLookupIntervalMs: positiveInt.default(2_000),
  /** Recent mids kept per token for strategies (one per poll, oldest dropped first). */
  midHistory: positiveInt.max(10_000).default(120),
});

export const strategySchema = z.strictObject({
  name: z.string().min(1).default('bands'),
  /**
   * A strategy of the user's own: a compiled ESM module (.js/.mjs), relative to the config file,
   * whose default export is a defineStrategy(...) (src/strategy/load-module.ts). Its declared name
   * is the strategy's (`name`, when given too, must be the same).
   */
  module: z.string().min(1).optional(),
  params: z.record(z.string(), z.unknown()).default({}),
});

export const riskSchema = z.strictObject({
  /** Per-market maximum position, shares (a token and its complement counted as one market). */
  maxPositionShares: decimalString.default('500'),
  /** Per-market maximum notional of resting orders plus position, collateral units. */
  maxMarketNotional: decimalString.default('500'),
  /** Total exposure across all markets, collateral units. */
  maxTotalExposure: decimalString.default('2000'),
  /** Daily loss (realized + unrealized since UTC midnight) that trips the kill switch. */
  dailyLossLimit: decimalString.default('100'),
  /**
   * Collateral the daemon may trade with, collateral units: free collateral is this + realized
   * PnL (net of fees) − cost of the shares held − what our resting bids reserve, capped by the
   * exchange's balance while a recent reading exists (ledger.balanceCheckIntervalMs).
   */
  capital: decimalString.default('1000'),
});

export const ordersSchema = z.strictObject({
  /** Size tolerance (fraction) under which a resting quote is kept rather than replaced. */
  sizeTolerance: z.number().min(0).max(1).default(0.1),
  /** What startup reconciliation does with live orders the ledger does not know. */
  orphanPolicy: z.enum(['cancel', 'adopt']).default('cancel'),
  /** Consecutive exchange failures that open the circuit breaker. */
  circuitBreakerFailures: positiveInt.default(5),
  /** Bounded time for the cancel-all on shutdown. */
  shutdownTimeoutMs: positiveInt.default(20_000),
  /**
   * Order lookups per second fill discovery may spend (final reads of cancelled orders first, then
   * live orders at the touch, then the least recently read). The lookup route counts in the CLOB
   * general cap (5000 / 10 s): the default takes half of it.
   */
  fillReadsPerSecond: positiveInt.default(250),
  /** Final reads owed (cancelled orders not yet read) beyond which placements stop until reads catch up. */
  maxFinalReadBacklog: positiveInt.default(1_000),
  /**
   * Cancels kept in reserve: placements never take the open order count beyond what the cancel
   * route's budgets (every window) can still cancel, less this many.
   */
  cancelReserve: z.number().int().min(0).default(100),
  /**
   * Quotes are post-only (a quote that would cross the book is rejected, never taken); a strategy
   * may say otherwise per quote (DesiredQuote.postOnly).
   */
  postOnly: z.boolean().default(true),
});

/** The rate limiter's own schema (budgets default to table 8; see src/ratelimit/config.ts). */
export const rateLimitSchema = rateLimitConfigSchema;

/** What a webhook can be told (src/runtime/notify/events.ts). */
export const NOTIFY_EVENTS = [
  'kill-switch-tripped',
  'kill-switch-cleared',
  'circuit-opened',
  'circuit-closed',
  'fills-summary',
  'daemon-started',
  'daemon-stopped',
] as const;

/**
 * Webhooks told of the daemon's notable events (src/runtime/notify). A webhook URL carries its
 * token (Slack, Discord, Telegram's /bot<token>/): it is never logged whole.
 */
const webhookSchema = z
  .strictObject({
    // Checked by hand so that a refusal shows the URL without its path (the token), never whole.
    url: z.string().superRefine((s, ctx) => {
      let ok = false;
      try {
        ok = /^https?:$/.test(new URL(s).protocol);
      } catch {
        /* not a URL */
      }
      if (!ok) ctx.addIssue({ code: 'custom', message: 'expected an http or https URL', input: redactUrlPath(s) });
    }),
    /** The body: json (the structured event), slack {text}, discord {content}, telegram {chat_id, text}. */
    format: z.enum(['json', 'slack', 'discord', 'telegram']).default('json'),
    /** The events sent (default: all). */
    events: z.array(z.enum(NOTIFY_EVENTS)).min(1).optional(),
    /** Telegram's chat (required with format telegram). */
    chatId: z.union([z.string().min(1), z.number().int()]).optional(),
  })
  .superRefine((w, ctx) => {
    if (w.format === 'telegram' && w.chatId === undefined)
      ctx.addIssue({ code: 'custom', path: ['chatId'], message: 'required with format "telegram"' });
    if (w.format !== 'telegram' && w.chatId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['chatId'], message: 'only with format "telegram"' });
  });

const notifySchema = z.strictObject({
  webhooks: z.array(webhookSchema).default([]),
  /** Period of the fills summary (sent only when there were fills). */
  fillsSummaryMs: z.number().int().min(1_000).default(900_000),
  /** One request's bound (connect to answer). */
  timeoutMs: positiveInt.default(5_000),
  /** Attempts per message, the first included (full-jitter backoff between them). */
  maxAttempts: positiveInt.max(10).default(4),
  /** Messages waiting per webhook; past it the oldest is dropped (oddsmaker_notify_dropped_total). */
  queueCap: positiveInt.default(100),
});

export const configSchema = z.strictObject({
  mode: z.enum(['sandbox', 'live', 'paper']).default('sandbox'),
  exchange: exchangeSchema.prefault({}),
  sandbox: sandboxSchema.prefault({}),
  markets: marketsSchema.prefault({}),
  poll: pollSchema.prefault({}),
  strategy: strategySchema.prefault({}),
  /** A folder of the user's strategy modules (relative to the config file), each registered by its declared name. */
  strategies: z.strictObject({ dir: z.string().min(1) }).optional(),
  risk: riskSchema.prefault({}),
  orders: ordersSchema.prefault({}),
  rateLimit: rateLimitSchema.prefault({}),
  ledger: z
    .strictObject({
      /**
       * The SQLite ledger. Absent: by mode (ledger-path.ts): sandbox a new
       * data/sandbox/ledger-<UTC time>.sqlite every run (its simulator's world is new every run; old
       * files are kept), live data/ledger.sqlite, paper data/paper-ledger.sqlite. A ledger belongs
       * to one exchange and account: the daemon refuses one of another (src/runtime/ledger-guard.ts).
       */
      path: z.string().min(1).optional(),
      /** node-cron expression (UTC) of the check comparing the ledger's positions with GET /positions. */
      positionsCheckCron: cronExpression.default('*/5 * * * *'),
      /**
       * How often the exchange's collateral balance and allowances are read (GET /balance-allowance,
       * also at start), ms; free collateral is then min(ledger-derived, balance) − what our bids
       * reserve while the reading is recent (3 intervals). 0 turns the check off.
       */
      balanceCheckIntervalMs: nonNegInt.default(30_000),
    })
    .prefault({}),
  record: z
    .strictObject({ enabled: z.boolean().default(false), path: z.string().default('data/recording.omr') })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
    })
    .prefault({}),
  health: z
    .strictObject({
      enabled: z.boolean().default(true),
      host: z.string().default('127.0.0.1'),
      port: nonNegInt.max(65535).default(9464),
    })
    .prefault({}),
  notify: notifySchema.prefault({}),
});

export type Config = z.infer<typeof configSchema>;

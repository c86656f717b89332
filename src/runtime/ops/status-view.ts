// The /status document: the daemon's status, its open orders, positions and PnL as JSON for an
// operator (and `oddsmaker status`). This is a wire type, kept apart from the domain: amounts are
// exact decimal strings (formatMicros, never floats), times ISO-8601. `statusViewSchema` is the one
// definition: the server builds a StatusView, the CLI parses what it receives with the schema, so
// the two cannot drift apart. PnL figures are ops/pnl.ts's report of the ledger (the core's one
// PnL), formatted, never recomputed. Invariant: building the view only reads (no I/O beyond the ledger's
// reads; nothing is changed).
import { z } from 'zod';
import { formatMicros, type Price } from '../../core/money.js';
import type { LiveOrder } from '../../core/order.js';
import type { DaemonStatus } from '../daemon.js';
import type { HeartbeatStatus } from '../heartbeat.js';
import { healthOf } from './health.js';
import type { PnlReport } from './pnl.js';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const iso = z.string();

const orderView = z.object({
  id: z.string(),
  tokenId: z.string(),
  conditionId: z.string().nullable(),
  side: z.enum(['BUY', 'SELL']),
  price: decimal,
  size: decimal,
  matched: decimal,
  state: z.string(),
  ageMs: z.number(),
});

const marketView = z.object({
  conditionId: z.string(),
  question: z.string(),
  stale: z.boolean(),
  /** Quotes risk accepted in the last cycle (what should rest). */
  quotes: z.number(),
  openOrders: z.number(),
  tokens: z.array(z.object({ tokenId: z.string(), mid: decimal.nullable(), position: decimal })),
  pnl: z.object({ realized: decimal, unrealized: decimal, fees: decimal }).nullable(),
});

const positionView = z.object({
  tokenId: z.string(),
  conditionId: z.string(),
  size: decimal,
  /** The part of size whose trades are not final yet (size − pending is confirmed). */
  pending: decimal,
  avgPrice: decimal.nullable(),
  mark: decimal.nullable(),
  realized: decimal,
  unrealized: decimal.nullable(),
  fees: decimal,
});

export const statusViewSchema = z.object({
  time: iso,
  mode: z.string(),
  state: z.string(),
  strategy: z.string(),
  paused: z.boolean(),
  halted: z.string().nullable(),
  quoting: z.boolean(),
  health: z.object({ healthy: z.boolean(), reasons: z.array(z.string()) }),
  killSwitch: z.object({ tripped: z.boolean(), reason: z.string().nullable(), trippedAt: iso.nullable() }),
  circuitBreaker: z.object({
    state: z.enum(['open', 'closed']),
    orderEntry: z.enum(['open', 'closed']),
    marketData: z.enum(['open', 'closed']),
    consecutivePollFailures: z.number(),
  }),
  markets: z.array(marketView),
  openOrders: z.number(),
  orders: z.array(orderView),
  positions: z.array(positionView),
  pnl: z.object({
    daily: decimal,
    /** null once the ledger is closed (the daemon stopped). */
    realized: decimal.nullable(),
    unrealized: decimal.nullable(),
    fees: decimal.nullable(),
    total: decimal.nullable(),
    freeCollateral: decimal.nullable(),
    unmarked: z.array(z.string()),
  }),
  cycles: z.number(),
  lastCycle: z
    .object({
      at: iso,
      durationMs: z.number(),
      quotes: z.number(),
      placed: z.number(),
      cancelled: z.number(),
      rejected: z.number(),
      fills: z.number(),
    })
    .nullable(),
  positionsCheck: z
    .object({
      schedule: z.string(),
      runs: z.number(),
      last: z
        .object({ at: iso, outcome: z.string(), differences: z.number(), error: z.string().nullable() })
        .nullable(),
    })
    .nullable(),
  /** Markets watched for their resolution; null when the daemon has no resolution watch. */
  awaitingResolution: z.array(z.string()).nullable(),
  /** The exchange's heartbeat (dead-man switch); null when there is none (absent: an older daemon). */
  heartbeat: z
    .object({
      intervalMs: z.number(),
      expiryMs: z.number(),
      running: z.boolean(),
      beats: z.number(),
      failures: z.number(),
      lastAcceptedAt: iso.nullable(),
      failingSince: iso.nullable(),
      lapsed: z.boolean(),
      lapses: z.number(),
      lastError: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /** The exchange's collateral balance and allowances (GET /balance-allowance); null when not read. */
  collateral: z
    .object({
      balance: decimal.nullable(),
      at: iso.nullable(),
      recent: z.boolean(),
      zeroAllowances: z.array(z.string()),
      allowances: z.record(z.string(), z.string()),
      error: z.string().nullable(),
    })
    .nullable()
    .optional(),
});

export type StatusView = z.infer<typeof statusViewSchema>;
export type OrderView = z.infer<typeof orderView>;

export interface StatusInputs {
  readonly nowMs: number;
  readonly status: DaemonStatus;
  readonly orders: readonly LiveOrder[];
  readonly mids: ReadonlyMap<string, Price>;
  /** null once the ledger is closed. */
  readonly pnl: PnlReport | null;
}

const fmt = (v: number | null): string | null => (v === null ? null : formatMicros(v));
const isoOf = (ms: number): string => new Date(ms).toISOString();

function hbView(h: HeartbeatStatus | null): StatusView['heartbeat'] {
  if (h === null) return null;
  return {
    intervalMs: h.intervalMs,
    expiryMs: h.expiryMs,
    running: h.running,
    beats: h.beats,
    failures: h.failures,
    lastAcceptedAt: h.lastAcceptedAtMs === null ? null : isoOf(h.lastAcceptedAtMs),
    failingSince: h.failingSinceMs === null ? null : isoOf(h.failingSinceMs),
    lapsed: h.lapsed,
    lapses: h.lapses,
    lastError: h.lastError,
  };
}

export function buildStatusView(i: StatusInputs): StatusView {
  const s = i.status;
  const marketOfToken = new Map<string, string>();
  for (const m of s.markets) for (const t of m.tokens) marketOfToken.set(t, m.conditionId);
  const heldByToken = new Map<string, number>();
  for (const p of s.positions) heldByToken.set(p.tokenId, p.size);
  const pnlByMarket = new Map((i.pnl?.markets ?? []).map((m) => [m.conditionId, m] as const));
  const pnlByToken = new Map((i.pnl?.tokens ?? []).map((t) => [t.tokenId, t] as const));

  const positions =
    i.pnl === null
      ? s.positions.map((p) => ({
          tokenId: p.tokenId,
          conditionId: p.conditionId,
          size: formatMicros(p.size),
          pending: formatMicros(p.pendingSize),
          avgPrice: fmt(p.avgPrice),
          mark: fmt(i.mids.get(p.tokenId) ?? null),
          realized: formatMicros(p.realized),
          unrealized: null,
          fees: formatMicros(p.fees),
        }))
      : i.pnl.tokens
          .filter((t) => t.size !== 0)
          .map((t) => ({
            tokenId: t.tokenId,
            conditionId: t.conditionId,
            size: formatMicros(t.size),
            pending: formatMicros(t.pendingSize),
            avgPrice: fmt(t.avgPrice),
            mark: fmt(t.mark),
            realized: formatMicros(t.realized),
            unrealized: fmt(t.unrealized),
            fees: formatMicros(t.fees),
          }));

  const last = s.lastCycle;
  const pc = s.positionsCheck;
  const health = healthOf(s);
  return {
    time: isoOf(i.nowMs),
    mode: s.mode,
    state: s.state,
    strategy: s.strategy,
    paused: s.paused,
    halted: s.halted,
    // The kill switch pulls every quote (runtime/cycle.ts) whatever else allows quoting.
    quoting: s.quoting && !s.killSwitch.tripped,
    health: { healthy: health.healthy, reasons: [...health.reasons] },
    killSwitch: {
      tripped: s.killSwitch.tripped,
      reason: s.killSwitch.reason,
      trippedAt: s.killSwitch.trippedAtMs === null ? null : isoOf(s.killSwitch.trippedAtMs),
    },
    circuitBreaker: { ...s.circuitBreaker },
    markets: s.markets.map((m) => {
      const p = pnlByMarket.get(m.conditionId);
      return {
        conditionId: m.conditionId,
        question: m.question,
        stale: m.stale,
        quotes: m.quotes,
        openOrders: m.openOrders,
        tokens: m.tokens.map((t) => ({
          tokenId: t,
          mid: fmt(i.mids.get(t) ?? null),
          position: formatMicros(pnlByToken.get(t)?.size ?? heldByToken.get(t) ?? 0),
        })),
        pnl:
          p === undefined
            ? i.pnl === null
              ? null
              : { realized: '0', unrealized: '0', fees: '0' }
            : {
                realized: formatMicros(p.realized),
                unrealized: formatMicros(p.unrealized),
                fees: formatMicros(p.fees),
              },
      };
    }),
    openOrders: i.orders.length,
    orders: i.orders.map((o) => ({
      id: o.id,
      tokenId: o.tokenId,
      conditionId: marketOfToken.get(o.tokenId) ?? null,
      side: o.side,
      price: formatMicros(o.price),
      size: formatMicros(o.originalSize),
      matched: formatMicros(o.sizeMatched),
      state: o.state,
      ageMs: Math.max(0, i.nowMs - o.createdAtMs),
    })),
    positions,
    pnl: {
      daily: formatMicros(s.pnl.daily),
      realized: fmt(i.pnl?.realized ?? null),
      unrealized: fmt(i.pnl?.unrealized ?? null),
      fees: fmt(i.pnl?.fees ?? null),
      total: fmt(i.pnl?.total ?? null),
      freeCollateral: fmt(s.pnl.freeCollateral),
      unmarked: [...(i.pnl?.unmarked ?? [])],
    },
    cycles: s.cycles,
    lastCycle:
      last === null
        ? null
        : {
            at: isoOf(last.startedAtMs),
            durationMs: last.durationMs,
            quotes: last.quotes,
            placed: last.placed,
            cancelled: last.cancelled,
            rejected: last.rejected,
            fills: last.fills,
          },
    positionsCheck:
      pc === null
        ? null
        : {
            schedule: pc.schedule,
            runs: pc.runs,
            last:
              pc.last === null
                ? null
                : {
                    at: isoOf(pc.last.atMs),
                    outcome: pc.last.outcome,
                    differences: pc.last.differences.length,
                    error: pc.last.error,
                  },
          },
    awaitingResolution: s.awaitingResolution === null ? null : [...s.awaitingResolution],
    heartbeat: hbView(s.heartbeat ?? null),
    collateral:
      s.collateral === undefined || s.collateral === null
        ? null
        : {
            balance: fmt(s.collateral.balance),
            at: s.collateral.atMs === null ? null : isoOf(s.collateral.atMs),
            recent: s.collateral.recent,
            zeroAllowances: [...s.collateral.zeroAllowances],
            allowances: { ...s.collateral.allowances },
            error: s.collateral.error,
          },
  };
}

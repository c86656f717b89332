// The ops console's document: one JSON snapshot of everything the page shows, built from what the
// daemon already exposes (its status, the book cache, the order manager's live orders, the ledger's
// PnL and recent fills, the limiter's windows). A wire type like /status (status-view.ts, reused for
// the daemon-wide part): amounts are exact decimal strings (formatMicros), times ISO-8601, and the
// chart's sample carries floats for display only. Invariants kept: building the view only reads;
// markets are labelled by their question and each token by its outcome (ids stay beside them for
// operators who grep logs); "ours" at a book level is the size our live orders rest there on that
// side, never guessed from the book.
import type { Level } from '../../core/book.js';
import { formatMicros, type Price } from '../../core/money.js';
import type { LiveOrder } from '../../core/order.js';
import type { LedgerFill } from '../../ledger/types.js';
import type { BookCache } from '../../marketdata/book-cache.js';
import type { DaemonStatus } from '../daemon.js';
import type { LimiterView } from './metrics.js';
import type { PnlReport } from './pnl.js';
import type { SeriesPoint } from './series.js';
import { buildStatusView, type StatusView } from './status-view.js';

/** Book levels shown per side. */
export const CONSOLE_BOOK_DEPTH = 5;

export interface ConsoleLevel {
  readonly price: string;
  readonly size: string;
  /** Our live orders' remaining size at this price and side ("0" when none). */
  readonly ours: string;
}

export interface ConsoleOrder {
  readonly id: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  readonly size: string;
  readonly matched: string;
  readonly state: string;
}

export interface ConsoleToken {
  readonly tokenId: string;
  /** The outcome's name ("Yes", "No", a team...); the token id when the market gave none. */
  readonly outcome: string;
  readonly mid: string | null;
  readonly position: string;
  readonly avgPrice: string | null;
  readonly unrealized: string | null;
  /** Best first; empty before the first book. */
  readonly bids: readonly ConsoleLevel[];
  readonly asks: readonly ConsoleLevel[];
  /** When the book was received (our clock); null before the first one. */
  readonly bookAt: string | null;
  readonly orders: readonly ConsoleOrder[];
}

export interface ConsoleMarket {
  readonly conditionId: string;
  readonly question: string;
  readonly stale: boolean;
  /** Quotes risk accepted in the last cycle. */
  readonly quotes: number;
  readonly openOrders: number;
  readonly pnl: { readonly realized: string; readonly unrealized: string; readonly fees: string } | null;
  readonly tokens: readonly ConsoleToken[];
}

export interface ConsoleFill {
  readonly seq: number;
  readonly time: string;
  readonly conditionId: string;
  readonly tokenId: string;
  /** The market's question and the token's outcome while the market is in the universe, else null. */
  readonly question: string | null;
  readonly outcome: string | null;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly liquidity: string;
}

export interface ConsoleRoute {
  readonly route: string;
  readonly api: string;
  readonly queued: number;
  readonly pausedForMs: number;
  /** The busiest window's share of its budget (0..1). */
  readonly utilisation: number;
  readonly windows: ReadonlyArray<{
    readonly bucket: string;
    readonly windowMs: number;
    readonly used: number;
    readonly limit: number;
    readonly utilisation: number;
  }>;
}

/** The daemon-wide part of /status (its per-market, order and position lists are in `markets`). */
export type ConsoleStatus = Omit<StatusView, 'markets' | 'orders' | 'positions'>;

export interface ConsoleView {
  readonly time: string;
  readonly status: ConsoleStatus;
  readonly markets: readonly ConsoleMarket[];
  /** Newest first. */
  readonly fills: readonly ConsoleFill[];
  readonly limiter: {
    readonly up: boolean;
    readonly reason: string | null;
    readonly routes: readonly ConsoleRoute[];
  } | null;
  /** The chart's newest sample (t in epoch seconds); null before the first. */
  readonly point: { readonly t: number; readonly equity: number; readonly inventory: number } | null;
}

export interface ConsoleInputs {
  readonly nowMs: number;
  readonly status: DaemonStatus;
  readonly orders: readonly LiveOrder[];
  readonly mids: ReadonlyMap<string, Price>;
  readonly pnl: PnlReport | null;
  readonly marketData: Pick<BookCache, 'markets' | 'token'>;
  /** Newest first. */
  readonly fills: readonly LedgerFill[];
  readonly limiter: LimiterView | null;
  readonly point: SeriesPoint | null;
}

const fmt = (v: number | null | undefined): string | null => (v === null || v === undefined ? null : formatMicros(v));
const isoOf = (ms: number): string => new Date(ms).toISOString();

function levels(side: readonly Level[] | undefined, ours: ReadonlyMap<number, number>): ConsoleLevel[] {
  return (side ?? []).slice(0, CONSOLE_BOOK_DEPTH).map((l) => ({
    price: formatMicros(l.price),
    size: formatMicros(l.size),
    ours: formatMicros(ours.get(l.price) ?? 0),
  }));
}

export function buildConsoleView(i: ConsoleInputs): ConsoleView {
  const {
    markets: _m,
    orders: _o,
    positions: _p,
    ...status
  } = buildStatusView({
    nowMs: i.nowMs,
    status: i.status,
    orders: i.orders,
    mids: i.mids,
    pnl: i.pnl,
  });
  const byToken = new Map<string, LiveOrder[]>();
  for (const o of i.orders) {
    const list = byToken.get(o.tokenId);
    if (list === undefined) byToken.set(o.tokenId, [o]);
    else list.push(o);
  }
  const pnlByToken = new Map((i.pnl?.tokens ?? []).map((t) => [t.tokenId, t] as const));
  const heldByToken = new Map(i.status.positions.map((p) => [p.tokenId, p] as const));
  const pnlByMarket = new Map((i.pnl?.markets ?? []).map((m) => [m.conditionId, m] as const));
  const statusOf = new Map(i.status.markets.map((m) => [m.conditionId, m] as const));
  const names = new Map<string, { question: string; outcome: string }>();

  const markets: ConsoleMarket[] = i.marketData.markets().map((m) => {
    const st = statusOf.get(m.conditionId);
    const p = pnlByMarket.get(m.conditionId);
    return {
      conditionId: m.conditionId,
      question: m.settings.question,
      stale: st?.stale ?? true,
      quotes: st?.quotes ?? 0,
      openOrders: st?.openOrders ?? 0,
      pnl:
        p === undefined
          ? i.pnl === null
            ? null
            : { realized: '0', unrealized: '0', fees: '0' }
          : { realized: formatMicros(p.realized), unrealized: formatMicros(p.unrealized), fees: formatMicros(p.fees) },
      tokens: m.tokens.map((t) => {
        const outcome = t.outcome !== '' ? t.outcome : t.tokenId;
        names.set(t.tokenId, { question: m.settings.question, outcome });
        const entry = i.marketData.token(t.tokenId);
        const mine = byToken.get(t.tokenId) ?? [];
        const oursBid = new Map<number, number>();
        const oursAsk = new Map<number, number>();
        for (const o of mine) {
          if (o.state !== 'live') continue;
          const at = o.side === 'BUY' ? oursBid : oursAsk;
          at.set(o.price, (at.get(o.price) ?? 0) + Math.max(0, o.originalSize - o.sizeMatched));
        }
        const tp = pnlByToken.get(t.tokenId);
        const held = heldByToken.get(t.tokenId);
        return {
          tokenId: t.tokenId,
          outcome,
          mid: fmt(i.mids.get(t.tokenId) ?? entry?.mid),
          position: formatMicros(tp?.size ?? held?.size ?? 0),
          avgPrice: fmt(tp?.avgPrice ?? held?.avgPrice),
          unrealized: tp === undefined ? null : fmt(tp.unrealized),
          bids: levels(entry?.book?.bids, oursBid),
          asks: levels(entry?.book?.asks, oursAsk),
          bookAt: entry?.bookAtMs === null || entry?.bookAtMs === undefined ? null : isoOf(entry.bookAtMs),
          orders: [...mine]
            .sort((a, b) => b.price - a.price)
            .map((o) => ({
              id: o.id,
              side: o.side,
              price: formatMicros(o.price),
              size: formatMicros(o.originalSize),
              matched: formatMicros(o.sizeMatched),
              state: o.state,
            })),
        };
      }),
    };
  });

  const fills: ConsoleFill[] = i.fills.map((f) => {
    const n = names.get(f.tokenId);
    return {
      seq: f.seq,
      time: isoOf(f.timeMs),
      conditionId: f.conditionId,
      tokenId: f.tokenId,
      question: n?.question ?? null,
      outcome: n?.outcome ?? null,
      side: f.side,
      price: formatMicros(f.price),
      size: formatMicros(f.size),
      fee: formatMicros(f.feeMicros),
      liquidity: f.liquidity,
    };
  });

  const limiter =
    i.limiter === null
      ? null
      : {
          up: i.limiter.up,
          reason: i.limiter.reason,
          routes: i.limiter.routes.map((r) => ({
            route: r.route,
            api: r.api,
            queued: r.queued,
            pausedForMs: r.pausedForMs,
            utilisation: r.windows.reduce((mx, w) => Math.max(mx, w.utilisation), 0),
            windows: r.windows.map((w) => ({
              bucket: w.bucket,
              windowMs: w.windowMs,
              used: w.used,
              limit: w.limit,
              utilisation: w.utilisation,
            })),
          })),
        };

  return {
    time: isoOf(i.nowMs),
    status,
    markets,
    fills,
    limiter,
    point: i.point === null ? null : { t: i.point.t / 1000, equity: i.point.equity, inventory: i.point.inventory },
  };
}

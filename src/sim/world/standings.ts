// What the world shows about its traders, derived from its past trades (past-trades.ts) and
// nothing else: the positions and closed positions (a PositionBook fed the trades, the same
// accounting as live fills), the /trades history, the leaderboard figures and the holdings on
// comment profiles. `replayPast` feeds a book and a trade log (the venue's, at start);
// `deriveStandings` is the one function the generator derives the leaderboard and holdings with.
// Leaderboard, per wallet, category c (OVERALL: every market) and period, as the public Data API
// documents its board ("Get the trader leaderboard": finite windows serve the marked equity
// change net of flows; all is the realized-only lifetime ledger):
// - vol(P): Σ price × size of the wallet's trades in c after t0 = start − 1/7/30 days (ALL: all);
// - pnl(ALL) = Σ realized PnL of its positions in c: closed positions' realizedPnl (a resolved
//   claim settled at 1 or 0) plus the realized part of open positions (partial sells);
// - pnl(P) = E(start) − E(t0), equity E = cash from trades + shares held × mark: at the start the
//   book's own figures (realized + cash PnL at the displayed price, claims at 1 or 0), at t0 the
//   last trade price of the token at or before t0 (1 or 0 when resolved by then);
// - a wallet has a row exactly where vol > 0; OVERALL is the sum over categories (its pnl over
//   every category, traded in the window or not).
// Figures are fixed at generation, marked at the world's start: when the venue later moves a
// displayed price the positions' cash PnL moves and the finite windows are a snapshot, as the
// public boards are between refreshes. All money is integer millionths (whole cents here).
import { mulMicros, type Micros, type Shares } from '../../core/money.js';
import { DAY_MS } from './ids.js';
import {
  CATEGORIES,
  type Category,
  type LeaderboardFigure,
  type LeaderboardPeriodName,
  type MarketState,
  type PastTrade,
  type UserRec,
} from './model.js';
import { PositionBook, type Fill, type PositionView } from './portfolio.js';
import type { TradeLog } from './trades.js';
import { leaderboardKey, type World, WorldError } from './world.js';

/** Length of each finite leaderboard window, ending at the world's start. */
export const LEADERBOARD_WINDOW_MS: Readonly<Record<Exclude<LeaderboardPeriodName, 'ALL'>, number>> = {
  MONTH: 30 * DAY_MS,
  WEEK: 7 * DAY_MS,
  DAY: DAY_MS,
};
const WINDOWS = ['MONTH', 'WEEK', 'DAY'] as const;

/** One past trade as the wallet's fill (no fee; the trade log derives its hash). */
export function pastFill(world: World, t: PastTrade): Fill {
  const m = world.markets[t.marketIndex];
  if (m === undefined) throw new WorldError('WORLD_CORRUPT', `past trade of unknown market #${t.marketIndex}`);
  return {
    user: world.user(t.userIndex).proxyWallet,
    tokenId: m.tokenIds[t.outcomeIndex],
    conditionId: m.conditionId,
    side: t.side,
    price: t.price,
    size: t.size,
    feeMicros: 0 as Micros,
    timeMs: t.timeMs,
    role: t.role,
  };
}

/** Feeds the world's past trades, in order, to a position book and (optionally) a trade log. */
export function replayPast(world: World, book: PositionBook, log?: TradeLog): void {
  const fills = world.pastTrades.map((t) => pastFill(world, t));
  for (const f of fills) book.applyFill(f, { past: true });
  log?.preload(fills);
}

export interface Holding {
  readonly tokenId: string;
  readonly positionSize: Shares;
}

export interface Standings {
  /** Figures per `${category}/${period}`, rows by user index. */
  readonly leaderboard: Map<string, LeaderboardFigure[]>;
  /** Shares each user holds at the start, per token (open, unresolved positions). */
  readonly holdings: Map<number, Holding[]>;
}

/** Figures per (user, category) cell: index userIndex × CATEGORIES.length + category's index. */
type Cells = Float64Array;
const CATEGORY_INDEX = new Map<Category, number>(CATEGORIES.map((c, i) => [c, i]));
const NC = CATEGORIES.length;

interface Holder {
  readonly cell: number;
  readonly tokenId: string;
  readonly outcomeIndex: 0 | 1;
  readonly state: MarketState;
  cash: number;
  held: number;
}

/** The leaderboard and profile holdings of the world, from its past trades (see the header). */
export function deriveStandings(world: World): Standings {
  const cells = world.users.length * NC;
  const book = new PositionBook(world);
  const holders = new Map<number, Holder>();
  const lastPrice = new Map<string, number>();
  const vol = new Map<LeaderboardPeriodName, Cells>([
    ['ALL', new Float64Array(cells)],
    ...WINDOWS.map((p) => [p, new Float64Array(cells)] as const),
  ]);
  const equityAtT0 = new Map<LeaderboardPeriodName, Cells>(WINDOWS.map((p) => [p, new Float64Array(cells)]));
  const t0s = WINDOWS.map((p) => world.startMs - LEADERBOARD_WINDOW_MS[p]);

  const snapshot = (w: number): void => {
    const at = t0s[w] ?? 0;
    const e = equityAtT0.get(WINDOWS[w] ?? 'DAY') ?? new Float64Array(cells);
    for (const h of holders.values()) {
      let value = 0;
      if (h.held !== 0) {
        const s = h.state;
        const mark =
          s.winner !== null && (s.resolvedAtMs ?? Infinity) <= at
            ? s.winner === h.outcomeIndex
              ? 1_000_000
              : 0
            : (lastPrice.get(h.tokenId) ?? 0);
        value = mulMicros(h.held, mark, 'half-even');
      }
      e[h.cell] = (e[h.cell] ?? 0) + h.cash + value;
    }
  };

  const volAll = vol.get('ALL') ?? new Float64Array(cells);
  const volWindows = WINDOWS.map((p) => vol.get(p) ?? new Float64Array(cells));
  const markets = world.markets.length;
  let next = 0;
  for (const t of world.pastTrades) {
    for (; next < WINDOWS.length && t.timeMs > (t0s[next] ?? 0); next++) snapshot(next);
    const f = pastFill(world, t);
    book.applyFill(f, { past: true });
    const m = world.markets[t.marketIndex];
    if (m === undefined) continue;
    const cell = t.userIndex * NC + (CATEGORY_INDEX.get(m.category) ?? 0);
    const key = (t.userIndex * markets + t.marketIndex) * 2 + t.outcomeIndex;
    let h = holders.get(key);
    if (h === undefined) {
      h = { cell, tokenId: f.tokenId, outcomeIndex: t.outcomeIndex, state: m.state, cash: 0, held: 0 };
      holders.set(key, h);
    }
    const notional = mulMicros(t.price, t.size, 'half-even');
    h.cash += t.side === 'BUY' ? -notional : notional;
    h.held += t.side === 'BUY' ? t.size : -t.size;
    lastPrice.set(f.tokenId, t.price);
    volAll[cell] = (volAll[cell] ?? 0) + notional;
    for (let w = 0; w < WINDOWS.length; w++) {
      const v = volWindows[w];
      if (v !== undefined && t.timeMs > (t0s[w] ?? 0)) v[cell] = (v[cell] ?? 0) + notional;
    }
  }
  for (; next < WINDOWS.length; next++) snapshot(next);

  // Realized PnL and equity at the start from the book's own views (what /positions and
  // /closed-positions show); a claim is listed both ways and counted once, as closed.
  const realized = new Float64Array(cells);
  const equityNow = new Float64Array(cells);
  const holdings = new Map<number, Holding[]>();
  for (const u of world.users) {
    const closed = book.closed(u.proxyWallet);
    const current = book.current(u.proxyWallet).filter((v) => !v.redeemable);
    const count = (v: PositionView, r: number, e: number): void => {
      const cell = u.index * NC + (CATEGORY_INDEX.get(v.market.category) ?? 0);
      realized[cell] = (realized[cell] ?? 0) + r;
      equityNow[cell] = (equityNow[cell] ?? 0) + e;
    };
    for (const v of closed) count(v, v.realizedPnl, v.realizedPnl);
    for (const v of current) count(v, v.realizedPnl, v.realizedPnl + v.cashPnl);
    if (current.length > 0)
      holdings.set(
        u.index,
        current.map((v) => ({ tokenId: v.market.tokenIds[v.outcomeIndex], positionSize: v.size })),
      );
  }
  return { leaderboard: board(world.users, vol, realized, equityNow, equityAtT0), holdings };
}

function board(
  users: readonly UserRec[],
  vol: Map<LeaderboardPeriodName, Cells>,
  realized: Cells,
  equityNow: Cells,
  equityAtT0: Map<LeaderboardPeriodName, Cells>,
): Map<string, LeaderboardFigure[]> {
  const out = new Map<string, LeaderboardFigure[]>();
  for (const p of ['DAY', 'WEEK', 'MONTH', 'ALL'] as const) {
    const v = vol.get(p);
    const e0 = p === 'ALL' ? undefined : equityAtT0.get(p);
    const rows = CATEGORIES.map(() => [] as LeaderboardFigure[]);
    const overall: LeaderboardFigure[] = [];
    for (const u of users) {
      let totalVol = 0;
      let totalPnl = 0;
      for (let c = 0; c < NC; c++) {
        const cell = u.index * NC + c;
        const cv = v?.[cell] ?? 0;
        const cp = e0 === undefined ? (realized[cell] ?? 0) : (equityNow[cell] ?? 0) - (e0[cell] ?? 0);
        totalVol += cv;
        totalPnl += cp;
        if (cv > 0) rows[c]?.push({ userIndex: u.index, vol: cv as Micros, pnl: (cp + 0) as Micros });
      }
      if (totalVol > 0) overall.push({ userIndex: u.index, vol: totalVol as Micros, pnl: (totalPnl + 0) as Micros });
    }
    CATEGORIES.forEach((c, i) => out.set(leaderboardKey(c.toUpperCase() as Uppercase<Category>, p), rows[i] ?? []));
    out.set(leaderboardKey('OVERALL', p), overall);
  }
  return out;
}

// The World: the generated catalog plus each market's mutable state, with the lookups the queries
// need and the only mutations the venue may make (tick change, price display, accepting orders,
// close, resolve, archive). Invariants kept here:
// - records are reachable by every key a route uses (condition id, numeric market id, token id,
//   event id and slug, tag id/slug/label, comment id, wallet address, username); keys built once;
// - a mutation validates before it changes anything (unknown market, unknown tick, resolving twice,
//   archiving an open market throw a WorldError and leave the state untouched) and stamps
//   `updatedAtMs` with the caller's time (the caller owns the Clock);
// - a resolved market is closed, not accepting orders, its winner token priced 1 and the other 0;
// - event flags are derived from their markets on read (active: some market active; closed: every
//   market closed; archived: every market archived), so they can never disagree.
import { OddsmakerError } from '../../core/errors.js';
import { SCALE, type Price, type Shares } from '../../core/money.js';
import { isKnownTick } from '../../core/tick.js';
import type {
  CommentRec,
  EventRec,
  LeaderboardCategoryName,
  LeaderboardFigure,
  LeaderboardPeriodName,
  MarketRec,
  OutcomeIndex,
  PastTrade,
  SeriesRec,
  TagRec,
  UserRec,
} from './model.js';

export class WorldError extends OddsmakerError {
  constructor(code: string, message: string) {
    super(code, message, false);
  }
}

export interface WorldData {
  readonly seed: string;
  readonly startMs: number;
  readonly tags: readonly TagRec[];
  readonly series: readonly SeriesRec[];
  readonly events: readonly EventRec[];
  readonly markets: readonly MarketRec[];
  readonly users: readonly UserRec[];
  /** Top-level comments, each with its nested replies. */
  readonly comments: readonly CommentRec[];
  /** The traders' history before `startMs`, in time order (past-trades.ts). */
  readonly pastTrades: readonly PastTrade[];
  /** Figures per `${category}/${period}`, derived from `pastTrades` (standings.ts). */
  readonly leaderboard: ReadonlyMap<string, readonly LeaderboardFigure[]>;
  /** Collateral address rewards are paid in. */
  readonly collateral: string;
}

export interface TokenRef {
  readonly market: MarketRec;
  readonly outcomeIndex: OutcomeIndex;
}

export interface CommentRef {
  readonly comment: CommentRec;
  readonly parent: CommentRec | null;
}

export interface EventFlags {
  active: boolean;
  closed: boolean;
  archived: boolean;
}

export function leaderboardKey(category: LeaderboardCategoryName, period: LeaderboardPeriodName): string {
  return `${category}/${period}`;
}

export class World {
  readonly seed: string;
  readonly startMs: number;
  readonly tags: readonly TagRec[];
  readonly series: readonly SeriesRec[];
  readonly events: readonly EventRec[];
  readonly markets: readonly MarketRec[];
  readonly users: readonly UserRec[];
  readonly comments: readonly CommentRec[];
  readonly pastTrades: readonly PastTrade[];
  readonly collateral: string;
  private readonly leaderboard: ReadonlyMap<string, readonly LeaderboardFigure[]>;

  private readonly byCondition = new Map<string, MarketRec>();
  private readonly byMarketId = new Map<number, MarketRec>();
  private readonly byToken = new Map<string, TokenRef>();
  private readonly idxEventId = new Map<string, EventRec>();
  private readonly idxEventSlug = new Map<string, EventRec>();
  private readonly idxTagId = new Map<string, TagRec>();
  private readonly idxTagSlug = new Map<string, TagRec>();
  private readonly idxTagLabel = new Map<string, TagRec>();
  private readonly idxSeriesSlug = new Map<string, SeriesRec>();
  private readonly commentById = new Map<string, CommentRef>();
  private readonly commentsByUser = new Map<number, CommentRec[]>();
  private readonly idxSeriesEvents = new Map<number, EventRec[]>();
  private readonly idxWallet = new Map<string, UserRec>();
  private readonly idxUserName = new Map<string, UserRec>();

  constructor(data: WorldData) {
    this.seed = data.seed;
    this.startMs = data.startMs;
    this.tags = data.tags;
    this.series = data.series;
    this.events = data.events;
    this.markets = data.markets;
    this.users = data.users;
    this.comments = data.comments;
    this.pastTrades = data.pastTrades;
    this.collateral = data.collateral;
    this.leaderboard = data.leaderboard;
    for (const m of data.markets) {
      this.byCondition.set(m.conditionId, m);
      this.byMarketId.set(m.id, m);
      this.byToken.set(m.tokenIds[0], { market: m, outcomeIndex: 0 });
      this.byToken.set(m.tokenIds[1], { market: m, outcomeIndex: 1 });
    }
    for (const e of data.events) {
      this.idxEventId.set(e.id, e);
      this.idxEventSlug.set(e.slug, e);
    }
    for (const t of data.tags) {
      this.idxTagId.set(t.id, t);
      this.idxTagSlug.set(t.slug, t);
      this.idxTagLabel.set(t.label, t);
    }
    for (const s of data.series) this.idxSeriesSlug.set(s.slug, s);
    for (const e of data.events) {
      for (const si of e.seriesIndexes) {
        const list = this.idxSeriesEvents.get(si);
        if (list === undefined) this.idxSeriesEvents.set(si, [e]);
        else list.push(e);
      }
    }
    for (const u of data.users) {
      this.idxWallet.set(u.proxyWallet.toLowerCase(), u);
      this.idxUserName.set(u.name, u);
    }
    const walk = (c: CommentRec, parent: CommentRec | null): void => {
      this.commentById.set(c.id, { comment: c, parent });
      const list = this.commentsByUser.get(c.userIndex);
      if (list === undefined) this.commentsByUser.set(c.userIndex, [c]);
      else list.push(c);
      for (const r of c.replies) walk(r, c);
    };
    for (const c of data.comments) walk(c, null);
  }

  // ---- lookups ------------------------------------------------------------------------------

  marketByCondition(conditionId: string): MarketRec | undefined {
    return this.byCondition.get(conditionId.toLowerCase());
  }
  marketById(id: number): MarketRec | undefined {
    return this.byMarketId.get(id);
  }
  token(tokenId: string): TokenRef | undefined {
    return this.byToken.get(tokenId);
  }
  eventOf(market: MarketRec): EventRec {
    const e = this.events[market.eventIndex];
    if (e === undefined) throw new WorldError('WORLD_CORRUPT', `market ${market.conditionId} has no event`);
    return e;
  }
  eventById(id: string): EventRec | undefined {
    return this.idxEventId.get(id);
  }
  eventBySlug(slug: string): EventRec | undefined {
    return this.idxEventSlug.get(slug);
  }
  marketsOf(event: EventRec): MarketRec[] {
    return event.marketIndexes.map((i) => this.markets[i]).filter((m): m is MarketRec => m !== undefined);
  }
  tagById(id: string): TagRec | undefined {
    return this.idxTagId.get(id);
  }
  tagBySlug(slug: string): TagRec | undefined {
    return this.idxTagSlug.get(slug);
  }
  tagByLabel(label: string): TagRec | undefined {
    return this.idxTagLabel.get(label);
  }
  tagsOf(ids: readonly string[]): TagRec[] {
    return ids.map((id) => this.idxTagId.get(id)).filter((t): t is TagRec => t !== undefined);
  }
  seriesBySlug(slug: string): SeriesRec | undefined {
    return this.idxSeriesSlug.get(slug);
  }
  seriesOf(event: EventRec): SeriesRec[] {
    return event.seriesIndexes.map((i) => this.series[i]).filter((s): s is SeriesRec => s !== undefined);
  }
  eventsOfSeries(series: SeriesRec): readonly EventRec[] {
    return this.idxSeriesEvents.get(series.index) ?? [];
  }
  /** Series flags from its events: active if any is, closed/archived if all are. */
  seriesFlags(series: SeriesRec): EventFlags {
    const flags = this.eventsOfSeries(series).map((e) => this.eventFlags(e));
    return {
      active: flags.some((f) => f.active),
      closed: flags.length > 0 && flags.every((f) => f.closed),
      archived: flags.length > 0 && flags.every((f) => f.archived),
    };
  }
  comment(id: string): CommentRef | undefined {
    return this.commentById.get(id);
  }
  /** Every comment (any depth) written by the user, in generation order. */
  commentsBy(user: UserRec): readonly CommentRec[] {
    return this.commentsByUser.get(user.index) ?? [];
  }
  user(index: number): UserRec {
    const u = this.users[index];
    if (u === undefined) throw new WorldError('WORLD_CORRUPT', `no user #${index}`);
    return u;
  }
  userByWallet(address: string): UserRec | undefined {
    return this.idxWallet.get(address.toLowerCase());
  }
  userByName(name: string): UserRec | undefined {
    return this.idxUserName.get(name);
  }
  leaderboardFigures(category: LeaderboardCategoryName, period: LeaderboardPeriodName): readonly LeaderboardFigure[] {
    return this.leaderboard.get(leaderboardKey(category, period)) ?? [];
  }

  eventFlags(event: EventRec): EventFlags {
    const ms = this.marketsOf(event);
    return {
      active: ms.some((m) => m.state.active),
      closed: ms.length > 0 && ms.every((m) => m.state.closed),
      archived: ms.length > 0 && ms.every((m) => m.state.archived),
    };
  }

  /** The event's own update time or its markets' latest, whichever is later. */
  eventUpdatedAtMs(event: EventRec): number {
    let t = event.updatedAtMs;
    for (const m of this.marketsOf(event)) if (m.state.updatedAtMs > t) t = m.state.updatedAtMs;
    return t;
  }

  // ---- mutations (the venue's) --------------------------------------------------------------

  private need(conditionId: string): MarketRec {
    const m = this.marketByCondition(conditionId);
    if (m === undefined) throw new WorldError('WORLD_UNKNOWN_MARKET', `unknown market ${conditionId}`);
    return m;
  }

  setTick(conditionId: string, tick: Price, atMs: number): void {
    const m = this.need(conditionId);
    if (!isKnownTick(tick)) throw new WorldError('WORLD_BAD_TICK', `unknown tick size: ${tick / SCALE}`);
    m.state.tick = tick;
    m.state.updatedAtMs = atMs;
  }

  setMinOrderSize(conditionId: string, size: Shares, atMs: number): void {
    const m = this.need(conditionId);
    if (!Number.isSafeInteger(size) || size <= 0)
      throw new WorldError('WORLD_BAD_SIZE', `bad minimum order size: ${String(size)}`);
    m.state.minOrderSize = size;
    m.state.updatedAtMs = atMs;
  }

  /** Displayed price of one token (the venue sets it from the midpoint). Ignored on resolved markets. */
  setTokenPrice(tokenId: string, price: Price): void {
    const ref = this.byToken.get(tokenId);
    if (ref === undefined) throw new WorldError('WORLD_UNKNOWN_TOKEN', `unknown token ${tokenId}`);
    if (!Number.isSafeInteger(price) || price < 0 || price > SCALE)
      throw new WorldError('WORLD_BAD_PRICE', `bad price: ${String(price)}`);
    if (ref.market.state.winner !== null) return;
    ref.market.state.prices[ref.outcomeIndex] = price;
  }

  setAcceptingOrders(conditionId: string, accepting: boolean, atMs: number): void {
    const m = this.need(conditionId);
    if (accepting && m.state.closed) throw new WorldError('WORLD_MARKET_CLOSED', `market ${conditionId} is closed`);
    m.state.acceptingOrders = accepting;
    m.state.updatedAtMs = atMs;
  }

  /** Stops trading: closed, not accepting orders, order book disabled. Closing twice is a no-op. */
  close(conditionId: string, atMs: number): void {
    const m = this.need(conditionId);
    if (m.state.closed) return;
    m.state.closed = true;
    m.state.acceptingOrders = false;
    m.state.enableOrderBook = false;
    m.state.updatedAtMs = atMs;
  }

  /** Sets the winner (closing the market first if open). */
  resolve(conditionId: string, winner: OutcomeIndex, atMs: number): void {
    const m = this.need(conditionId);
    if (winner !== 0 && winner !== 1) throw new WorldError('WORLD_BAD_OUTCOME', `bad outcome index: ${String(winner)}`);
    if (m.state.winner !== null)
      throw new WorldError('WORLD_ALREADY_RESOLVED', `market ${conditionId} is already resolved`);
    this.close(conditionId, atMs);
    m.state.winner = winner;
    m.state.resolvedAtMs = atMs;
    m.state.prices = winner === 0 ? [SCALE as Price, 0 as Price] : [0 as Price, SCALE as Price];
    m.state.updatedAtMs = atMs;
  }

  /** Archives a closed market (no longer active). */
  archive(conditionId: string, atMs: number): void {
    const m = this.need(conditionId);
    if (!m.state.closed)
      throw new WorldError('WORLD_MARKET_OPEN', `market ${conditionId} must be closed before it is archived`);
    m.state.archived = true;
    m.state.active = false;
    m.state.updatedAtMs = atMs;
  }

  /** A plain JSON snapshot of everything (for determinism checks and debugging). */
  toJSON(): unknown {
    return {
      seed: this.seed,
      startMs: this.startMs,
      collateral: this.collateral,
      tags: this.tags,
      series: this.series,
      events: this.events,
      markets: this.markets,
      users: this.users,
      comments: this.comments,
      pastTrades: this.pastTrades,
      leaderboard: [...this.leaderboard.entries()],
    };
  }
}

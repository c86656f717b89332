// generateWorld: a seeded, deterministic synthetic catalog (events → markets with YES/NO-style
// token pairs, tags, series, neg-risk groups, rewards, fees, a status mix), plus traders, comments,
// the traders' past trades and what follows from them (leaderboard figures, profile holdings; the
// venue replays the same trades into its positions and trade log). Invariants kept here:
// - the world is a pure function of (seed, markets, startMs, users): same inputs → byte-identical
//   `JSON.stringify(world)`; each event draws from its own forked stream, so a world of N markets
//   is a prefix of a world of N+k (except the last event's truncated market list);
// - exactly `markets` markets; every market belongs to one event; ids, token ids, condition ids
//   and slugs are unique;
// - status mix: about 80% of events open (markets active, accepting orders; a few paused), the
//   rest closed, resolved (a winner set; in a neg-risk group exactly one market resolves to its
//   first outcome) or archived (resolved and archived); open events end after `startMs`, finished
//   ones before it;
// - every market's displayed prices are on its tick and sum to 1 (resolved: 1 and 0).
import { SCALE, type Micros, type Price, type Shares } from '../../core/money.js';
import { clampToOrderRange } from '../../core/tick.js';
import { generateComments, generateUsers } from './community.js';
import { address, assetUrl, DAY_MS, hash64, HOUR_MS, MINUTE_MS, slugify, tokenId, Uniq } from './ids.js';
import type {
  Category,
  EventRec,
  FeeRec,
  MarketRec,
  MarketState,
  OutcomeIndex,
  RewardsRec,
  SeriesRec,
  TagRec,
} from './model.js';
import { generatePastTrades } from './past-trades.js';
import { Rng, type Seed } from './rng.js';
import { deriveStandings } from './standings.js';
import { CATEGORY_WEIGHTS, HORIZON_DAYS, TEMPLATES, type EventDraft, type SeriesDraft } from './templates.js';
import { CATEGORY_LABELS, TOPIC_TAGS } from './vocab.js';
import { World, type WorldData } from './world.js';
import { OptionError, InvariantError } from '../../core/errors.js';

export interface WorldOptions {
  seed: Seed;
  /** Number of markets, 1 to 100000. */
  markets: number;
  /** "Now" of the world, epoch ms: open events end after it, finished ones before it. */
  startMs: number;
  /** Number of traders (default: markets clamped to 20..500). */
  users?: number;
}

type EventStatus = 'open' | 'closed' | 'resolved' | 'archived';

const NO_FEE: FeeRec = { rate: 0, exponent: 0, takerOnly: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0 };
const CRYPTO_FEE: FeeRec = { rate: 70_000, exponent: 1, takerOnly: true, makerBaseFeeBps: 0, takerBaseFeeBps: 1000 };
const SMALL_FEE: FeeRec = { rate: 25_000, exponent: 2, takerOnly: true, makerBaseFeeBps: 0, takerBaseFeeBps: 200 };

function checkOptions(o: WorldOptions): { users: number } {
  if (!Number.isSafeInteger(o.markets) || o.markets < 1 || o.markets > 100_000)
    throw new OptionError('SIM_OPTION', `markets must be an integer from 1 to 100000, got ${String(o.markets)}`);
  if (!Number.isSafeInteger(o.startMs) || o.startMs < Date.UTC(2001, 0, 1))
    throw new OptionError('SIM_OPTION', `startMs must be an epoch-ms integer, got ${String(o.startMs)}`);
  const users = o.users ?? Math.min(500, Math.max(20, o.markets));
  if (!Number.isSafeInteger(users) || users < 1 || users > 100_000)
    throw new OptionError('SIM_OPTION', `users must be an integer from 1 to 100000, got ${String(users)}`);
  return { users };
}

function generateTags(rng: Rng, nowMs: number): TagRec[] {
  const labels: string[] = [...Object.values(CATEGORY_LABELS), ...TOPIC_TAGS];
  const ids = new Uniq();
  const tags = labels.map((label) => {
    const createdAtMs = nowMs - rng.int(200, 1200) * DAY_MS - rng.int(0, DAY_MS - 1);
    return {
      id: ids.draw(() => String(rng.int(2, 102_000))),
      label,
      slug: slugify(label),
      createdAtMs,
      updatedAtMs: Math.min(nowMs, createdAtMs + rng.int(0, 180) * DAY_MS + rng.int(0, DAY_MS - 1)),
      requiresTranslation: false,
    };
  });
  // The catalog lists tags by numeric id.
  return tags.sort((a, b) => Number(a.id) - Number(b.id));
}

function pickStatus(rng: Rng): EventStatus {
  return rng.weighted<EventStatus>([
    ['open', 80],
    ['closed', 6],
    ['resolved', 9],
    ['archived', 5],
  ]);
}

/** End of an event, on a whole hour as the public catalog's end dates are. */
function endTime(rng: Rng, category: Category, status: EventStatus, nowMs: number): number {
  if (status === 'open') {
    const horizon = HORIZON_DAYS[category] * DAY_MS;
    return Math.ceil((nowMs + rng.int(4 * HOUR_MS, horizon)) / HOUR_MS) * HOUR_MS;
  }
  return Math.floor((nowMs - rng.int(1 * DAY_MS, 200 * DAY_MS)) / HOUR_MS) * HOUR_MS;
}

function tickFor(rng: Rng, p: number): Price {
  if (p < 0.04 || p > 0.96) return 1_000 as Price;
  return rng.weighted<Price>([
    [10_000 as Price, 85],
    [1_000 as Price, 15],
  ]);
}

function rewardsFor(rng: Rng, status: EventStatus, negRisk: boolean, collateral: string): RewardsRec | null {
  if (status !== 'open' || !rng.chance(negRisk ? 0.45 : 0.25)) return null;
  return {
    assetAddress: collateral,
    dailyRate: (rng.pick([5, 10, 25, 50, 100, 250, 750]) * SCALE) as Micros,
    minSize: (rng.pick([20, 50, 100, 200]) * SCALE) as Shares,
    maxSpreadCents: rng.pick([1_500_000, 2_000_000, 3_000_000, 3_500_000, 4_500_000]),
  };
}

interface Counters {
  eventId: number;
  marketId: number;
  seriesId: number;
}

export function generateWorld(opts: WorldOptions): World {
  const { users: userCount } = checkOptions(opts);
  const root = new Rng(opts.seed);
  const nowMs = opts.startMs;
  const collateral = address(root.fork('collateral'));
  const tags = generateTags(root.fork('tags'), nowMs);
  const tagByLabel = new Map(tags.map((t) => [t.label, t]));
  const creatorsRng = root.fork('creators');
  const creators = Array.from({ length: 4 }, () => address(creatorsRng));

  const conditionIds = new Uniq();
  const tokenIds = new Uniq();
  const eventSlugs = new Uniq();
  const marketSlugs = new Uniq();
  const seriesBySlug = new Map<string, SeriesRec>();
  const series: SeriesRec[] = [];
  const events: EventRec[] = [];
  const markets: MarketRec[] = [];
  const counters: Counters = { eventId: 16_000, marketId: 500_000, seriesId: 10_000 };
  const seqRng = root.fork('sequence');

  const seriesFor = (d: SeriesDraft, rng: Rng, createdBeforeMs: number): SeriesRec => {
    const found = seriesBySlug.get(d.slug);
    if (found !== undefined) return found;
    counters.seriesId += seqRng.int(1, 30);
    const createdAtMs = createdBeforeMs - rng.int(30, 600) * DAY_MS;
    const rec: SeriesRec = {
      index: series.length,
      id: String(counters.seriesId),
      ticker: d.slug,
      slug: d.slug,
      title: d.title,
      seriesType: 'single',
      recurrence: d.recurrence,
      image: assetUrl('series', d.slug),
      icon: assetUrl('series', d.slug),
      createdAtMs,
      updatedAtMs: Math.min(nowMs, createdAtMs + rng.int(1, 30) * DAY_MS),
    };
    seriesBySlug.set(d.slug, rec);
    series.push(rec);
    return rec;
  };

  for (let ei = 0; markets.length < opts.markets; ei++) {
    const rng = root.fork(`event/${ei}`);
    const category = rng.weighted(CATEGORY_WEIGHTS);
    const template = rng.weighted(TEMPLATES[category]);
    const status = pickStatus(rng);
    const endDateMs = endTime(rng, category, status, nowMs);
    const draft: EventDraft = template(rng, { endMs: endDateMs, maxMarkets: opts.markets - markets.length });
    const finished = status !== 'open';
    const createdAtMs = finished
      ? endDateMs - rng.int(2 * DAY_MS, 120 * DAY_MS)
      : Math.min(nowMs - MINUTE_MS, endDateMs - 2 * HOUR_MS) - rng.int(0, 60 * DAY_MS);
    const creationDateMs = createdAtMs + rng.int(1_000, 10 * MINUTE_MS);
    const updatedAtMs = Math.min(
      nowMs,
      finished ? endDateMs + rng.int(HOUR_MS, 2 * DAY_MS) : nowMs - rng.int(0, 6 * HOUR_MS),
    );
    counters.eventId += seqRng.int(1, 40);
    const slug = eventSlugs.suffix(slugify(draft.title));
    const negRisk = draft.negRisk && draft.markets.length > 1;
    const negRiskMarketId = negRisk ? '0x' + rng.hex(62) + '00' : '';
    const categoryLabel = CATEGORY_LABELS[category];
    const tagLabels = [categoryLabel, ...draft.topicTags];
    const tagIds = tagLabels.map((l) => {
      const t = tagByLabel.get(l);
      if (t === undefined) throw new InvariantError(`template used an unknown tag label: ${l}`);
      return t.id;
    });
    const seriesRec = draft.series === null ? null : seriesFor(draft.series, rng, createdAtMs);
    const eventIndex = events.length;
    const resolvedAtMs = Math.min(nowMs, endDateMs + rng.int(HOUR_MS, 2 * DAY_MS));
    // Resolution of a neg-risk group: one winner drawn by the latent probabilities.
    const groupWinner = negRisk ? rng.weighted(draft.markets.map((m, i) => [i, m.probability] as const)) : -1;

    const marketIndexes: number[] = [];
    draft.markets.forEach((md, mi) => {
      counters.marketId += seqRng.int(1, 25);
      const conditionId = conditionIds.draw(() => hash64(rng));
      const questionId = negRisk ? negRiskMarketId.slice(0, 64) + mi.toString(16).padStart(2, '0') : hash64(rng);
      const t0 = tokenIds.draw(() => tokenId(rng));
      const t1 = tokenIds.draw(() => tokenId(rng));
      const mslug = marketSlugs.suffix(slugify(md.question));
      const tick = tickFor(rng, md.probability);
      const latent = Math.min(999_000, Math.max(1_000, Math.round(md.probability * SCALE))) as Price;
      const shown = clampToOrderRange(latent, tick, 'half-even');
      let winner: OutcomeIndex | null = null;
      if (status === 'resolved' || status === 'archived') {
        winner = negRisk ? (mi === groupWinner ? 0 : 1) : rng.chance(md.probability) ? 0 : 1;
      }
      const state: MarketState = {
        tick,
        minOrderSize: (rng.weighted<number>([
          [5, 70],
          [10, 15],
          [15, 10],
          [20, 5],
        ]) * SCALE) as Shares,
        active: status !== 'archived',
        closed: finished,
        archived: status === 'archived',
        acceptingOrders: !finished && !rng.chance(0.02),
        enableOrderBook: !finished,
        prices:
          winner === null
            ? [shown, (SCALE - shown) as Price]
            : winner === 0
              ? [SCALE as Price, 0 as Price]
              : [0 as Price, SCALE as Price],
        winner,
        resolvedAtMs: winner === null ? null : resolvedAtMs,
        updatedAtMs: winner === null ? updatedAtMs : Math.max(updatedAtMs, resolvedAtMs),
      };
      const isGame = md.gameStartMs !== null;
      const delayed = isGame || rng.chance(0.05);
      const fee = md.feeEnabled ? CRYPTO_FEE : rng.chance(0.04) ? SMALL_FEE : NO_FEE;
      const rec: MarketRec = {
        index: markets.length,
        id: counters.marketId,
        conditionId,
        questionId,
        question: md.question,
        groupItemTitle: md.groupItemTitle,
        description: md.description,
        slug: mslug,
        eventIndex,
        category,
        outcomes: md.outcomes,
        tokenIds: [t0, t1],
        tagLabels,
        tagIds,
        icon: assetUrl('icons', mslug),
        image: assetUrl('images', mslug),
        resolutionSource: draft.resolutionSource,
        createdAtMs: createdAtMs + rng.int(0, 5_000),
        startDateMs: creationDateMs,
        endDateMs,
        acceptingOrderTimestampMs: creationDateMs + rng.int(1_000, 10 * MINUTE_MS),
        gameStartTimeMs: md.gameStartMs,
        secondsDelay: isGame ? 3 : 0,
        fpmm: status === 'archived' && rng.chance(0.3) ? address(rng) : '',
        notificationsEnabled: rng.chance(0.85),
        is5050Outcome: false,
        negRisk,
        negRiskMarketId,
        negRiskRequestId: negRisk ? hash64(rng) : '',
        rewards: rewardsFor(rng, status, negRisk, collateral),
        fee,
        rfqEnabled: rng.chance(0.2),
        takerOrderDelayEnabled: delayed,
        takerOrderDelayMs: delayed ? rng.pick([250, 500, 1000, 3000]) : 0,
        orderAgeSeconds: rng.weighted<number>([
          [0, 80],
          [5, 15],
          [10, 5],
        ]),
        screeningCheckEnabled: rng.chance(0.7),
        latentProbability: latent,
        state,
      };
      marketIndexes.push(rec.index);
      markets.push(rec);
    });

    events.push({
      index: eventIndex,
      id: String(counters.eventId),
      ticker: slug,
      slug,
      title: draft.title,
      description: draft.description,
      resolutionSource: draft.resolutionSource,
      image: assetUrl('images', slug),
      icon: assetUrl('icons', slug),
      category,
      startDateMs: creationDateMs,
      endDateMs,
      createdAtMs,
      creationDateMs,
      updatedAtMs,
      tagIds,
      seriesIndexes: seriesRec === null ? [] : [seriesRec.index],
      marketIndexes,
      creator: rng.pick(creators),
      negRisk,
      negRiskMarketId,
      eventMetadata: {
        category,
        marketCount: marketIndexes.length,
        negRisk,
        seriesSlug: seriesRec === null ? '' : seriesRec.slug,
        context: draft.description,
      },
    });
  }

  const users = generateUsers(root.fork('users'), userCount, nowMs);
  const comments = generateComments(root.fork('comments'), users, events, nowMs);
  const pastTrades = generatePastTrades(root.fork('past-trades'), markets, users, nowMs);
  const data: WorldData = {
    seed: root.key,
    startMs: nowMs,
    tags,
    series,
    events,
    markets,
    users,
    comments,
    pastTrades,
    leaderboard: new Map(),
    collateral,
  };
  // The leaderboard and the profiles' holdings follow from the past trades (standings.ts).
  const standings = deriveStandings(new World(data));
  return new World({
    ...data,
    users: users.map((u) => ({ ...u, positions: standings.holdings.get(u.index) ?? [] })),
    leaderboard: standings.leaderboard,
  });
}

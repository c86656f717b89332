// Renderers of catalog and community records to the wire: tags (§2.15), events in list and full
// form (§2.16) with their event markets and series, comments with profiles and nested replies
// (§2.13, §2.14), leaderboard entries (§2.17) and search profiles. Invariants kept here:
// - every field of the tables is present with its JSON type, keys in table order; `null` only for
//   the leaderboard's xUsername/verifiedBadge ("or null");
// - event, event-market and series flags and updatedAt are read from the live market states;
// - `outcomes` and `clobTokenIds` of an event market are JSON text in a string, spelled as the
//   public catalog does (`["Yes", "No"]`, with a space after each comma).
//
// Inner structures the interface leaves "not shown", as defined here:
//   profileImageOptimized {id, imageUrlSource, imageUrlOptimized, imageSizeKbSource,
//     imageSizeKbOptimized, imageOptimizedComplete, imageOptimizedLastUpdated (ISO), relID, field, relname};
//   reaction {id, commentID (number), reactionType, icon, userAddress, createdAt (ISO)};
//   eventMetadata {category, marketCount, negRisk, seriesSlug, context}.
// Comment profile `positions[].positionSize` is a decimal share amount ("1520.5").
import type {
  WireComment,
  WireCommentProfile,
  WireEvent,
  WireEventFull,
  WireEventMarket,
  WireLeaderboardEntry,
  WirePublicSearchProfile,
  WireSeries,
  WireTag,
} from '../../exchange/wire.js';
import { formatMicros } from '../../core/money.js';
import { iso } from './ids.js';
import type { CommentRec, EventRec, LeaderboardFigure, MarketRec, SeriesRec, TagRec, UserRec } from './model.js';
import { microsToNumber } from './numbers.js';
import type { World } from './world.js';

export function toWireTag(t: TagRec): WireTag {
  return {
    id: t.id,
    label: t.label,
    slug: t.slug,
    createdAt: iso(t.createdAtMs),
    updatedAt: iso(t.updatedAtMs),
    requiresTranslation: t.requiresTranslation,
  };
}

/** A JSON array of strings as the public catalog spells it inside a string field. */
export function catalogJsonList(items: readonly string[]): string {
  return '[' + items.map((s) => JSON.stringify(s)).join(', ') + ']';
}

export function toWireEventMarket(m: MarketRec): WireEventMarket {
  return {
    id: String(m.id),
    question: m.question,
    conditionId: m.conditionId,
    slug: m.slug,
    resolutionSource: m.resolutionSource,
    image: m.image,
    icon: m.icon,
    description: m.description,
    outcomes: catalogJsonList(m.outcomes),
    clobTokenIds: catalogJsonList(m.tokenIds),
    questionID: m.questionId,
    startDate: iso(m.startDateMs),
    endDate: iso(m.endDateMs),
    createdAt: iso(m.createdAtMs),
    updatedAt: iso(m.state.updatedAtMs),
    active: m.state.active,
    closed: m.state.closed,
    archived: m.state.archived,
  };
}

export function toWireSeries(world: World, s: SeriesRec): WireSeries {
  const f = world.seriesFlags(s);
  return {
    id: s.id,
    ticker: s.ticker,
    slug: s.slug,
    title: s.title,
    seriesType: s.seriesType,
    recurrence: s.recurrence,
    image: s.image,
    icon: s.icon,
    active: f.active,
    closed: f.closed,
    archived: f.archived,
    createdAt: iso(s.createdAtMs),
    updatedAt: iso(s.updatedAtMs),
  };
}

export function toWireEvent(world: World, e: EventRec): WireEvent {
  const f = world.eventFlags(e);
  return {
    id: e.id,
    ticker: e.ticker,
    slug: e.slug,
    title: e.title,
    description: e.description,
    resolutionSource: e.resolutionSource,
    image: e.image,
    icon: e.icon,
    startDate: iso(e.startDateMs),
    endDate: iso(e.endDateMs),
    createdAt: iso(e.createdAtMs),
    updatedAt: iso(world.eventUpdatedAtMs(e)),
    active: f.active,
    closed: f.closed,
    archived: f.archived,
    tags: world.tagsOf(e.tagIds).map(toWireTag),
  };
}

export function toWireEventFull(world: World, e: EventRec): WireEventFull {
  // Object.assign onto the list form: a spread into a new literal measured several times slower.
  return Object.assign(toWireEvent(world, e), {
    creationDate: iso(e.creationDateMs),
    markets: world.marketsOf(e).map(toWireEventMarket),
    series: world.seriesOf(e).map((s) => toWireSeries(world, s)),
    eventMetadata: { ...e.eventMetadata },
  });
}

export function toWireCommentProfile(u: UserRec): WireCommentProfile {
  const o = u.profileImageOptimized;
  return {
    name: u.name,
    pseudonym: u.pseudonym,
    bio: u.bio,
    proxyWallet: u.proxyWallet,
    baseAddress: u.baseAddress,
    profileImage: u.profileImage,
    displayUsernamePublic: u.displayUsernamePublic,
    isMod: u.isMod,
    isCreator: u.isCreator,
    profileImageOptimized: {
      id: o.id,
      imageUrlSource: o.imageUrlSource,
      imageUrlOptimized: o.imageUrlOptimized,
      imageSizeKbSource: o.imageSizeKbSource,
      imageSizeKbOptimized: o.imageSizeKbOptimized,
      imageOptimizedComplete: o.imageOptimizedComplete,
      imageOptimizedLastUpdated: iso(o.imageOptimizedLastUpdatedMs),
      relID: o.relID,
      field: o.field,
      relname: o.relname,
    },
    positions: u.positions.map((p) => ({ tokenId: p.tokenId, positionSize: formatMicros(p.positionSize) })),
  };
}

export function toWireComment(world: World, c: CommentRec): WireComment {
  return {
    id: c.id,
    body: c.body,
    parentEntityType: c.parentEntityType,
    parentEntityID: c.parentEntityID,
    parentCommentID: c.parentCommentID,
    userAddress: world.user(c.userIndex).proxyWallet,
    replyAddress: c.replyAddress,
    createdAt: iso(c.createdAtMs),
    updatedAt: iso(c.updatedAtMs),
    profile: toWireCommentProfile(world.user(c.userIndex)),
    reactions: c.reactions.map((r) => ({
      id: r.id,
      commentID: Number(c.id),
      reactionType: r.reactionType,
      icon: r.icon,
      userAddress: world.user(r.userIndex).proxyWallet,
      createdAt: iso(r.createdAtMs),
    })),
    reportCount: c.reportCount,
    reactionCount: c.reactions.length,
    replyCount: c.replies.length,
    replies: c.replies.map((r) => toWireComment(world, r)),
  };
}

export function toWireLeaderboardEntry(world: World, f: LeaderboardFigure, rank: number): WireLeaderboardEntry {
  const u = world.user(f.userIndex);
  return {
    rank: String(rank),
    proxyWallet: u.proxyWallet,
    userName: u.name,
    vol: microsToNumber(f.vol),
    pnl: microsToNumber(f.pnl),
    profileImage: u.profileImage,
    xUsername: u.xUsername,
    verifiedBadge: u.verifiedBadge,
  };
}

export function toWirePublicSearchProfile(u: UserRec): WirePublicSearchProfile {
  return { name: u.name, pseudonym: u.pseudonym, proxyWallet: u.proxyWallet, profileImage: u.profileImage };
}

// Catalog and community wire → domain (interface §2.13–2.17, docs/protocol.md §8 /tags and
// /public-search). These records feed displays and market discovery, not quoting, so they stay
// close to the wire shape; what is enforced: every field the interface types is of that type,
// ISO timestamps have ISO shape, numbers are finite, the event market's JSON-in-a-string fields
// (`outcomes`, `clobTokenIds`) decode to string arrays, and leaderboard money is millionths.
// Fields the real Gamma payloads carry beyond the interface are ignored; an event in list form
// keeps its `markets` when the record carries them (real list pages do).
import type {
  CatalogEvent,
  CatalogEventFull,
  Comment,
  CommentProfile,
  EventMarket,
  LeaderboardEntry,
  PublicSearch,
  SearchProfile,
  Series,
  Tag,
} from '../../core/market.js';
import { readShares } from './decimal.js';
import {
  amountOf,
  arrOf,
  at,
  bool,
  fail,
  iso,
  nonNegInt,
  obj,
  opaque,
  optBool,
  optIso,
  optStr,
  str,
  uintString,
} from './read.js';

function parseTag(v: unknown, path: string): Tag {
  const o = obj(v, path);
  return {
    id: str(o['id'], at(path, 'id')),
    label: str(o['label'], at(path, 'label')),
    slug: str(o['slug'], at(path, 'slug')),
    createdAt: optIso(o['createdAt'], at(path, 'createdAt')),
    updatedAt: optIso(o['updatedAt'], at(path, 'updatedAt')),
    requiresTranslation: optBool(o['requiresTranslation'], at(path, 'requiresTranslation')),
  };
}

/** GET /tags, GET /markets/{id}/tags. */
export function parseTags(json: unknown, path = ''): Tag[] {
  return arrOf(json, path, parseTag);
}

/** A string holding a JSON array of strings (`"[\"Yes\", \"No\"]"`); `""` or missing → []. */
function jsonStringArray(v: unknown, path: string): string[] {
  if (v === undefined || v === null || v === '') return [];
  const s = str(v, path);
  let decoded: unknown;
  try {
    decoded = JSON.parse(s);
  } catch {
    fail(path, 'expected JSON text of an array of strings');
  }
  return arrOf(decoded, path, str);
}

function parseEventMarket(v: unknown, path: string): EventMarket {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  return {
    id: str(o['id'], p('id')),
    question: str(o['question'], p('question')),
    conditionId: str(o['conditionId'], p('conditionId')),
    slug: str(o['slug'], p('slug')),
    resolutionSource: str(o['resolutionSource'], p('resolutionSource')),
    image: str(o['image'], p('image')),
    icon: str(o['icon'], p('icon')),
    description: str(o['description'], p('description')),
    outcomes: jsonStringArray(o['outcomes'], p('outcomes')),
    clobTokenIds: jsonStringArray(o['clobTokenIds'], p('clobTokenIds')),
    questionId: str(o['questionID'], p('questionID')),
    startDate: optIso(o['startDate'], p('startDate')),
    endDate: optIso(o['endDate'], p('endDate')),
    createdAt: optIso(o['createdAt'], p('createdAt')),
    updatedAt: optIso(o['updatedAt'], p('updatedAt')),
    active: bool(o['active'], p('active')),
    closed: bool(o['closed'], p('closed')),
    archived: bool(o['archived'], p('archived')),
  };
}

function parseSeries(v: unknown, path: string): Series {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  return {
    id: str(o['id'], p('id')),
    ticker: str(o['ticker'], p('ticker')),
    slug: str(o['slug'], p('slug')),
    title: str(o['title'], p('title')),
    seriesType: str(o['seriesType'], p('seriesType')),
    recurrence: str(o['recurrence'], p('recurrence')),
    image: str(o['image'], p('image')),
    icon: str(o['icon'], p('icon')),
    active: bool(o['active'], p('active')),
    closed: bool(o['closed'], p('closed')),
    archived: bool(o['archived'], p('archived')),
    createdAt: optIso(o['createdAt'], p('createdAt')),
    updatedAt: optIso(o['updatedAt'], p('updatedAt')),
  };
}

function parseEvent(v: unknown, path: string): CatalogEvent {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  const markets = o['markets'];
  return {
    id: str(o['id'], p('id')),
    ticker: str(o['ticker'], p('ticker')),
    slug: str(o['slug'], p('slug')),
    title: str(o['title'], p('title')),
    description: str(o['description'], p('description')),
    resolutionSource: str(o['resolutionSource'], p('resolutionSource')),
    image: str(o['image'], p('image')),
    icon: str(o['icon'], p('icon')),
    startDate: optIso(o['startDate'], p('startDate')),
    endDate: optIso(o['endDate'], p('endDate')),
    createdAt: optIso(o['createdAt'], p('createdAt')),
    updatedAt: optIso(o['updatedAt'], p('updatedAt')),
    active: bool(o['active'], p('active')),
    closed: bool(o['closed'], p('closed')),
    archived: bool(o['archived'], p('archived')),
    tags: arrOf(o['tags'], p('tags'), parseTag),
    markets: markets === undefined || markets === null ? null : arrOf(markets, p('markets'), parseEventMarket),
  };
}

/** GET /events (list form). */
export function parseEvents(json: unknown, path = ''): CatalogEvent[] {
  return arrOf(json, path, parseEvent);
}

/** GET /events/slug/{slug} (single-event form). */
export function parseEventFull(json: unknown, path = ''): CatalogEventFull {
  const o = obj(json, path);
  const base = parseEvent(o, path);
  const meta = o['eventMetadata'];
  const series = o['series'];
  return {
    ...base,
    creationDate: optIso(o['creationDate'], at(path, 'creationDate')),
    markets: arrOf(o['markets'], at(path, 'markets'), parseEventMarket),
    series: series === undefined || series === null ? [] : arrOf(series, at(path, 'series'), parseSeries),
    eventMetadata: meta === undefined || meta === null ? null : opaque(meta, at(path, 'eventMetadata')),
  };
}

function parseProfile(v: unknown, path: string): CommentProfile {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  return {
    name: str(o['name'], p('name')),
    pseudonym: str(o['pseudonym'], p('pseudonym')),
    bio: str(o['bio'], p('bio')),
    proxyWallet: str(o['proxyWallet'], p('proxyWallet')),
    baseAddress: str(o['baseAddress'], p('baseAddress')),
    profileImage: str(o['profileImage'], p('profileImage')),
    displayUsernamePublic: bool(o['displayUsernamePublic'], p('displayUsernamePublic')),
    isMod: bool(o['isMod'], p('isMod')),
    isCreator: bool(o['isCreator'], p('isCreator')),
    profileImageOptimized: opaque(o['profileImageOptimized'], p('profileImageOptimized')),
    positions: arrOf(o['positions'], p('positions'), (x, xp) => {
      const q = obj(x, xp);
      return {
        tokenId: str(q['tokenId'], at(xp, 'tokenId')),
        positionSize: readShares(q['positionSize'], at(xp, 'positionSize')),
      };
    }),
  };
}

function parseComment(v: unknown, path: string): Comment {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  const replies = o['replies'];
  return {
    id: str(o['id'], p('id')),
    body: str(o['body'], p('body')),
    parentEntityType: str(o['parentEntityType'], p('parentEntityType')),
    parentEntityId: nonNegInt(o['parentEntityID'], p('parentEntityID')),
    parentCommentId: optStr(o['parentCommentID'], p('parentCommentID')),
    userAddress: str(o['userAddress'], p('userAddress')),
    replyAddress: optStr(o['replyAddress'], p('replyAddress')),
    createdAt: iso(o['createdAt'], p('createdAt')),
    updatedAt: iso(o['updatedAt'], p('updatedAt')),
    profile: parseProfile(o['profile'], p('profile')),
    reactions: arrOf(o['reactions'], p('reactions'), opaque),
    reportCount: nonNegInt(o['reportCount'], p('reportCount')),
    reactionCount: nonNegInt(o['reactionCount'], p('reactionCount')),
    replyCount: nonNegInt(o['replyCount'], p('replyCount')),
    // Nested replies have the same shape; a leaf may omit the array.
    replies: replies === undefined || replies === null ? [] : arrOf(replies, p('replies'), parseComment),
  };
}

/** GET /comments/{id}, GET /comments/user_address/{user_address}. */
export function parseComments(json: unknown, path = ''): Comment[] {
  return arrOf(json, path, parseComment);
}

function nullableStr(v: unknown, path: string): string | null {
  return v === null ? null : str(v, path);
}

function parseLeaderboardEntry(v: unknown, path: string): LeaderboardEntry {
  const o = obj(v, path);
  const p = (k: string): string => at(path, k);
  return {
    rank: uintString(o['rank'], p('rank')),
    proxyWallet: str(o['proxyWallet'], p('proxyWallet')),
    userName: str(o['userName'], p('userName')),
    vol: amountOf(o['vol'], p('vol'), 'half-even'),
    pnl: amountOf(o['pnl'], p('pnl'), 'half-even'),
    profileImage: str(o['profileImage'], p('profileImage')),
    xUsername: nullableStr(o['xUsername'], p('xUsername')),
    verifiedBadge: nullableStr(o['verifiedBadge'], p('verifiedBadge')),
  };
}

/** GET /v1/leaderboard. */
export function parseLeaderboard(json: unknown, path = ''): LeaderboardEntry[] {
  return arrOf(json, path, parseLeaderboardEntry);
}

function parseSearchProfile(v: unknown, path: string): SearchProfile {
  const o = obj(v, path);
  return {
    name: str(o['name'], at(path, 'name')),
    pseudonym: str(o['pseudonym'], at(path, 'pseudonym')),
    proxyWallet: str(o['proxyWallet'], at(path, 'proxyWallet')),
    profileImage: str(o['profileImage'], at(path, 'profileImage')),
  };
}

/** GET /public-search. */
export function parsePublicSearch(json: unknown, path = ''): PublicSearch {
  const o = obj(json, path);
  return {
    events: arrOf(o['events'], at(path, 'events'), parseEvent),
    tags: arrOf(o['tags'], at(path, 'tags'), parseTag),
    profiles: arrOf(o['profiles'], at(path, 'profiles'), parseSearchProfile),
  };
}

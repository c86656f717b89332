// Catalog and community routes of interface §4.5 and docs/protocol.md §8 (the Gamma API): events,
// one event by slug, a market's tags, comment replies, a user's comments, tags, public search.
// Invariants: path parameters are non-empty and percent-encoded; query parameters pass their
// tables (limit 1–100 default 20, offset >= 0, booleans, the tag/tag_slug alias) before anything
// is sent; catalog errors arrive as `{type, error}` and keep their `type` on the ExchangeError.
import type { CatalogEvent, CatalogEventFull, Comment, PublicSearch, Tag } from '../../core/market.js';
import { encodeQuery } from '../params/spec.js';
import { COMMENTS, CREATOR_ONLY, EVENTS, PUBLIC_SEARCH, TAGS } from '../params/tables.js';
import type { CreatorParams, EventsParams, PageParams, PublicSearchParams } from '../params/types.js';
import { parseComments, parseEventFull, parseEvents, parsePublicSearch, parseTags } from '../parse/index.js';
import { segment, type CallOptions, type ClientCore } from './core.js';
import { ROUTES } from './routes.js';

export async function getEvents(
  core: ClientCore,
  params: EventsParams = {},
  options?: CallOptions,
): Promise<CatalogEvent[]> {
  const query = encodeQuery(EVENTS, params);
  return core.call({ route: ROUTES.events, path: '/events', query, parse: parseEvents, options });
}

export async function getEventBySlug(
  core: ClientCore,
  slug: string,
  params: CreatorParams = {},
  options?: CallOptions,
): Promise<CatalogEventFull> {
  const path = `/events/slug/${segment('slug', slug)}`;
  const query = encodeQuery(CREATOR_ONLY(ROUTES.eventBySlug.key), params);
  return core.call({ route: ROUTES.eventBySlug, path, query, parse: parseEventFull, options });
}

/** `id` is a numeric market id or a condition id. */
export async function getMarketTags(
  core: ClientCore,
  id: string,
  params: CreatorParams = {},
  options?: CallOptions,
): Promise<Tag[]> {
  const path = `/markets/${segment('id', id)}/tags`;
  const query = encodeQuery(CREATOR_ONLY(ROUTES.marketTags.key), params);
  return core.call({ route: ROUTES.marketTags, path, query, parse: parseTags, options });
}

/** Replies of the comment `commentId`. */
export async function getCommentReplies(
  core: ClientCore,
  commentId: string,
  params: PageParams = {},
  options?: CallOptions,
): Promise<Comment[]> {
  const path = `/comments/${segment('id', commentId)}`;
  const query = encodeQuery(COMMENTS(ROUTES.comments.key), params);
  return core.call({ route: ROUTES.comments, path, query, parse: parseComments, options });
}

export async function getUserComments(
  core: ClientCore,
  userAddress: string,
  params: PageParams = {},
  options?: CallOptions,
): Promise<Comment[]> {
  const path = `/comments/user_address/${segment('user_address', userAddress)}`;
  const query = encodeQuery(COMMENTS(ROUTES.userComments.key), params);
  return core.call({ route: ROUTES.userComments, path, query, parse: parseComments, options });
}

export async function getTags(core: ClientCore, params: PageParams = {}, options?: CallOptions): Promise<Tag[]> {
  const query = encodeQuery(TAGS, params);
  return core.call({ route: ROUTES.tags, path: '/tags', query, parse: parseTags, options });
}

export async function publicSearch(
  core: ClientCore,
  params: PublicSearchParams,
  options?: CallOptions,
): Promise<PublicSearch> {
  const query = encodeQuery(PUBLIC_SEARCH, params);
  return core.call({ route: ROUTES.publicSearch, path: '/public-search', query, parse: parsePublicSearch, options });
}

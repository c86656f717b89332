// Catalog queries: GET /events, /events/slug/{slug}, /markets/{id}/tags, /tags, /public-search.
// Invariants kept here:
// - catalog error shapes (query.ts CATALOG_STYLE): 400 {type: "bad request"} for an unknown
//   parameter or a bad value, 404 {type: "not found error"} naming the slug or id not found;
// - /events: limit 1–100 (default 20), offset >= 0 (default 0); filters combine with AND;
//   `tag` is an alias of `tag_slug` (both given and different → bad request); `slug` may repeat or
//   be a comma list (any of); an unknown tag, series or slug matches nothing (an empty list, not an
//   error); sorting by `order` then by id ascending, so paging is stable;
// - `order` columns (the interface leaves them "not shown"): id, slug, title, ticker, startDate,
//   endDate, createdAt, updatedAt; a comma list sorts by each in turn; another name → bad request.
//   Without `order` events sort by id. `ascending` (default false) sets the direction of the order
//   columns; the id tie-break is always ascending;
// - `creator` scope: a wallet address (0x + 40 hex, any case) keeps the events that wallet created;
//   the site identifier SITE_ID keeps every event; any other identifier matches nothing;
// - /tags: limit 1–100 (default 20), offset >= 0, tags in numeric id order;
// - /public-search: `q` required (1–100 characters), case-insensitive substring of an event's
//   title/slug/ticker, a tag's label/slug, a profile's name/pseudonym; `limit_per_type` 1–100,
//   default 5; each list in catalog order (events and tags by id, profiles by creation).
import type { WireEvent, WireEventFull, WirePublicSearch, WireTag } from '../../exchange/wire.js';
import type { EventRec, MarketRec } from './model.js';
import {
  CATALOG_STYLE,
  catalogBadRequest,
  catalogNotFound,
  fail,
  isAddress,
  isConditionId,
  page,
  Params,
  runQuery,
  type QueryResult,
  type RawQuery,
} from './query.js';
import { toWireEvent, toWireEventFull, toWirePublicSearchProfile, toWireTag } from './render-catalog.js';
import type { World } from './world.js';

export const SITE_ID = 'oddsmaker-sim';

export const EVENT_ORDER_COLUMNS = [
  'id',
  'slug',
  'title',
  'ticker',
  'startDate',
  'endDate',
  'createdAt',
  'updatedAt',
] as const;
export type EventOrderColumn = (typeof EVENT_ORDER_COLUMNS)[number];

const CATALOG_LIMIT = { min: 1, max: 100 } as const;
const OFFSET = { min: 0 } as const;

/** A creator scope as a predicate on events, or a bad-request failure. */
function creatorScope(p: Params): (e: EventRec) => boolean {
  const c = p.string('creator');
  if (c === undefined || c === '') return () => true;
  if (c.startsWith('0x')) {
    if (!isAddress(c))
      fail(catalogBadRequest('invalid creator: must be a wallet address (0x + 40 hex) or a site identifier'));
    const lc = c.toLowerCase();
    return (e) => e.creator === lc;
  }
  return c === SITE_ID ? () => true : () => false;
}

function sortKey(world: World, e: EventRec, col: EventOrderColumn): number | string {
  switch (col) {
    case 'id':
      return Number(e.id);
    case 'slug':
      return e.slug;
    case 'title':
      return e.title;
    case 'ticker':
      return e.ticker;
    case 'startDate':
      return e.startDateMs;
    case 'endDate':
      return e.endDateMs;
    case 'createdAt':
      return e.createdAtMs;
    case 'updatedAt':
      return world.eventUpdatedAtMs(e);
  }
}

function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function listEvents(world: World, q: RawQuery): QueryResult<WireEvent[]> {
  return runQuery(() => {
    const p = new Params(q, CATALOG_STYLE).only([
      'limit',
      'offset',
      'active',
      'closed',
      'archived',
      'tag',
      'tag_id',
      'tag_slug',
      'series_slug',
      'slug',
      'order',
      'ascending',
      'creator',
    ]);
    const limit = p.int('limit', CATALOG_LIMIT, 20);
    const offset = p.int('offset', OFFSET, 0);
    const active = p.bool('active');
    const closed = p.bool('closed');
    const archived = p.bool('archived');
    const tagAlias = p.text('tag', 200);
    const tagSlugParam = p.text('tag_slug', 200);
    if (tagAlias !== undefined && tagSlugParam !== undefined && tagAlias !== tagSlugParam) {
      fail(catalogBadRequest('invalid tag: tag and tag_slug name different tags'));
    }
    const tagSlug = tagSlugParam ?? tagAlias;
    const tagId = p.int('tag_id', { min: 0 });
    const seriesSlug = p.text('series_slug', 200);
    const slugs = p.list('slug');
    const orderText = p.text('order', 200);
    const ascending = p.bool('ascending', false);
    const inScope = creatorScope(p);
    const order: EventOrderColumn[] = [];
    for (const col of orderText === undefined ? ['id'] : orderText.split(',').map((s) => s.trim())) {
      if (!(EVENT_ORDER_COLUMNS as readonly string[]).includes(col)) {
        fail(
          catalogBadRequest(`invalid order: unknown sort column "${col}"; allowed: ${EVENT_ORDER_COLUMNS.join(', ')}`),
        );
      }
      order.push(col as EventOrderColumn);
    }

    const tag = tagSlug === undefined ? undefined : world.tagBySlug(tagSlug);
    const series = seriesSlug === undefined ? undefined : world.seriesBySlug(seriesSlug);
    const matches = world.events.filter((e) => {
      if (!inScope(e)) return false;
      if (tagSlug !== undefined && (tag === undefined || !e.tagIds.includes(tag.id))) return false;
      if (tagId !== undefined && !e.tagIds.includes(String(tagId))) return false;
      if (seriesSlug !== undefined && (series === undefined || !e.seriesIndexes.includes(series.index))) return false;
      if (slugs !== undefined && !slugs.includes(e.slug)) return false;
      if (active !== undefined || closed !== undefined || archived !== undefined) {
        const f = world.eventFlags(e);
        if (active !== undefined && f.active !== active) return false;
        if (closed !== undefined && f.closed !== closed) return false;
        if (archived !== undefined && f.archived !== archived) return false;
      }
      return true;
    });
    const dir = ascending ? 1 : -1;
    const keyed = matches.map((e) => ({ e, keys: order.map((c) => sortKey(world, e, c)), id: Number(e.id) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < order.length; i++) {
        const c = compare(a.keys[i] ?? 0, b.keys[i] ?? 0);
        if (c !== 0) return c * dir;
      }
      return a.id - b.id;
    });
    return page(keyed, offset, limit).map((k) => toWireEvent(world, k.e));
  });
}

export function getEventBySlug(world: World, slug: string, q: RawQuery): QueryResult<WireEventFull> {
  return runQuery(() => {
    const p = new Params(q, CATALOG_STYLE).only(['creator']);
    const inScope = creatorScope(p);
    const e = world.eventBySlug(slug);
    if (e === undefined || !inScope(e)) fail(catalogNotFound(`event with slug "${slug}" not found`));
    return toWireEventFull(world, e);
  });
}

/** Tags of a market, found by numeric market id or condition id. */
export function getMarketTags(world: World, id: string, q: RawQuery): QueryResult<WireTag[]> {
  return runQuery(() => {
    const p = new Params(q, CATALOG_STYLE).only(['creator']);
    const inScope = creatorScope(p);
    let m: MarketRec | undefined;
    if (/^\d{1,15}$/.test(id)) m = world.marketById(Number(id));
    else if (isConditionId(id)) m = world.marketByCondition(id);
    else fail(catalogBadRequest('invalid id: must be a numeric market id or a condition id (0x + 64 hex)'));
    if (m === undefined || !inScope(world.eventOf(m))) fail(catalogNotFound(`market with id "${id}" not found`));
    return world.tagsOf(m.tagIds).map(toWireTag);
  });
}

export function listTags(world: World, q: RawQuery): QueryResult<WireTag[]> {
  return runQuery(() => {
    const p = new Params(q, CATALOG_STYLE).only(['limit', 'offset']);
    const limit = p.int('limit', CATALOG_LIMIT, 20);
    const offset = p.int('offset', OFFSET, 0);
    return page(world.tags, offset, limit).map(toWireTag);
  });
}

export function publicSearch(world: World, q: RawQuery): QueryResult<WirePublicSearch> {
  return runQuery(() => {
    const p = new Params(q, CATALOG_STYLE).only(['q', 'limit_per_type']);
    const text = p.required('q');
    if (text.length > 100) fail(catalogBadRequest('invalid q: longer than 100 characters'));
    const limit = p.int('limit_per_type', CATALOG_LIMIT, 5);
    const needle = text.toLowerCase();
    const hit = (...fields: string[]): boolean => fields.some((f) => f.toLowerCase().includes(needle));
    const events = world.events
      .filter((e) => hit(e.title, e.slug, e.ticker))
      .sort((a, b) => Number(a.id) - Number(b.id))
      .slice(0, limit)
      .map((e) => toWireEvent(world, e));
    const tags = world.tags
      .filter((t) => hit(t.label, t.slug))
      .slice(0, limit)
      .map(toWireTag);
    const profiles = world.users
      .filter((u) => hit(u.name, u.pseudonym))
      .slice(0, limit)
      .map(toWirePublicSearchProfile);
    return { events, tags, profiles };
  });
}

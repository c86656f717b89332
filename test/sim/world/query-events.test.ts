import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EVENT_ORDER_COLUMNS,
  getEventBySlug,
  getMarketTags,
  listEvents,
  listTags,
  publicSearch,
  SITE_ID,
} from '../../../src/sim/world/query-events.js';
import { body, failure, makeWorld } from './helpers.js';

const w = makeWorld(500, 'events');
const allIds = (): string[] => body(listEvents(w, { limit: '100', ascending: 'true' })).map((e) => e.id);

describe('GET /events', () => {
  it('defaults: 20 events, id descending (newest first)', () => {
    const b = body(listEvents(w, {}));
    expect(b).toHaveLength(20);
    const ids = b.map((e) => Number(e.id));
    expect(ids).toEqual(
      [...w.events]
        .map((e) => Number(e.id))
        .sort((x, y) => y - x)
        .slice(0, 20),
    );
  });

  it('limit bounds 1..100 and offset >= 0, as catalog bad requests', () => {
    for (const limit of ['0', '101', '-1', 'x', '1.5', '']) {
      const f = failure(listEvents(w, { limit }));
      expect(f.status).toBe(400);
      expect(f.body).toEqual({ type: 'bad request', error: 'invalid limit: must be an integer from 1 to 100' });
    }
    expect(failure(listEvents(w, { offset: '-3' })).body).toMatchObject({ type: 'bad request' });
    expect(body(listEvents(w, { limit: '1' }))).toHaveLength(1);
    expect(body(listEvents(w, { limit: '100' }))).toHaveLength(100);
  });

  it('unknown parameters are bad requests', () => {
    expect(failure(listEvents(w, { volume_min: '3' })).body).toEqual({
      type: 'bad request',
      error: 'unknown query parameter: volume_min',
    });
  });

  it('paging with offset covers every event exactly once, for any page size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(...EVENT_ORDER_COLUMNS),
        fc.boolean(),
        (limit, order, asc) => {
          const seen: string[] = [];
          for (let offset = 0; offset < w.events.length + limit; offset += limit) {
            const b = body(
              listEvents(w, { limit: String(limit), offset: String(offset), order, ascending: String(asc) }),
            );
            seen.push(...b.map((e) => e.id));
            if (b.length < limit) break;
          }
          return seen.length === w.events.length && new Set(seen).size === w.events.length;
        },
      ),
      { numRuns: 25 },
    );
  });

  it('order sorts by the column (ties by id), ascending flips it', () => {
    for (const col of ['endDate', 'title', 'createdAt'] as const) {
      const asc = body(listEvents(w, { order: col, ascending: 'true', limit: '100' }));
      const key = (e: (typeof asc)[number]): string | number => (col === 'title' ? e.title : Date.parse(e[col]));
      for (let i = 1; i < asc.length; i++) {
        const a = asc[i - 1];
        const b = asc[i];
        if (a === undefined || b === undefined) continue;
        expect(key(a) <= key(b)).toBe(true);
        if (key(a) === key(b)) expect(Number(a.id)).toBeLessThan(Number(b.id));
      }
      const desc = body(listEvents(w, { order: col, limit: '100' }));
      for (let i = 1; i < desc.length; i++) {
        const a = desc[i - 1];
        const b = desc[i];
        if (a !== undefined && b !== undefined) expect(key(a) >= key(b)).toBe(true);
      }
    }
    expect(failure(listEvents(w, { order: 'volume' })).body).toEqual({
      type: 'bad request',
      error: `invalid order: unknown sort column "volume"; allowed: ${EVENT_ORDER_COLUMNS.join(', ')}`,
    });
  });

  it('filters by active/closed/archived flags', () => {
    const closed = body(listEvents(w, { closed: 'true', limit: '100' }));
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((e) => e.closed)).toBe(true);
    const open = body(listEvents(w, { closed: 'false', limit: '100' }));
    expect(open.every((e) => !e.closed)).toBe(true);
    const archived = body(listEvents(w, { archived: 'true', limit: '100' }));
    expect(archived.length).toBeGreaterThan(0);
    expect(archived.every((e) => e.archived && !e.active)).toBe(true);
    expect(
      body(listEvents(w, { active: 'false', limit: '100' }))
        .map((e) => e.id)
        .sort(),
    ).toEqual(archived.map((e) => e.id).sort());
    expect(failure(listEvents(w, { closed: 'yes' })).body).toEqual({
      type: 'bad request',
      error: 'invalid closed: must be true or false',
    });
  });

  it('filters by tag slug, its alias tag, tag id and series slug', () => {
    const tag = w.tagBySlug('crypto');
    if (tag === undefined) throw new Error('no crypto tag');
    const bySlug = body(listEvents(w, { tag_slug: 'crypto', limit: '100' }));
    expect(bySlug.length).toBeGreaterThan(0);
    expect(bySlug.every((e) => e.tags.some((t) => t.slug === 'crypto'))).toBe(true);
    expect(body(listEvents(w, { tag: 'crypto', limit: '100' }))).toEqual(bySlug);
    expect(body(listEvents(w, { tag_id: tag.id, limit: '100' }))).toEqual(bySlug);
    expect(body(listEvents(w, { tag: 'crypto', tag_slug: 'crypto', limit: '100' }))).toEqual(bySlug);
    expect(failure(listEvents(w, { tag: 'crypto', tag_slug: 'sports' })).status).toBe(400);
    expect(body(listEvents(w, { tag_slug: 'no-such-tag' }))).toEqual([]);
    expect(failure(listEvents(w, { tag_id: 'abc' })).status).toBe(400);

    const s = w.series.find((x) => w.eventsOfSeries(x).length > 1);
    if (s === undefined) throw new Error('no series with 2 events');
    const inSeries = body(listEvents(w, { series_slug: s.slug, limit: '100' }));
    expect(inSeries.map((e) => e.id).sort()).toEqual(
      w
        .eventsOfSeries(s)
        .map((e) => e.id)
        .sort(),
    );
  });

  it('filters by slug (repeated or comma list)', () => {
    const [a, b] = w.events;
    if (a === undefined || b === undefined) throw new Error('few events');
    expect(body(listEvents(w, { slug: a.slug })).map((e) => e.slug)).toEqual([a.slug]);
    expect(
      body(listEvents(w, { slug: [a.slug, b.slug] }))
        .map((e) => e.slug)
        .sort(),
    ).toEqual([a.slug, b.slug].sort());
    expect(body(listEvents(w, { slug: `${a.slug},${b.slug}` })).length).toBe(2);
  });

  it('creator scope: wallet, site identifier, other', () => {
    const creator = w.events[0]?.creator ?? '';
    const mine = body(listEvents(w, { creator: creator.toUpperCase().replace('0X', '0x'), limit: '100' }));
    expect(mine.length).toBeGreaterThan(0);
    const expected = w.events.filter((e) => e.creator === creator).map((e) => e.id);
    expect(mine.every((e) => expected.includes(e.id))).toBe(true);
    expect(body(listEvents(w, { creator: SITE_ID, limit: '100', ascending: 'true' })).map((e) => e.id)).toEqual(
      allIds(),
    );
    expect(body(listEvents(w, { creator: 'other-site' }))).toEqual([]);
    expect(failure(listEvents(w, { creator: '0x12' })).status).toBe(400);
  });
});

describe('GET /events/slug/{slug}', () => {
  it('returns the full form with markets and series', () => {
    const e = w.events.find((x) => x.seriesIndexes.length > 0 && x.marketIndexes.length > 1);
    if (e === undefined) throw new Error('none');
    const b = body(getEventBySlug(w, e.slug, {}));
    expect(b.slug).toBe(e.slug);
    expect(b.markets.map((m) => m.conditionId)).toEqual(w.marketsOf(e).map((m) => m.conditionId));
    expect(b.series.map((s) => s.slug)).toEqual(w.seriesOf(e).map((s) => s.slug));
    expect(JSON.parse(b.markets[0]?.clobTokenIds ?? '[]')).toEqual(w.marketsOf(e)[0]?.tokenIds);
    expect(b.markets[0]?.outcomes).toMatch(/^\["[^"]+", "[^"]+"\]$/);
  });

  it('not found → 404 catalog error naming the slug; creator scope applies', () => {
    expect(failure(getEventBySlug(w, 'nope', {}))).toEqual({
      status: 404,
      body: { type: 'not found error', error: 'event with slug "nope" not found' },
    });
    const e = w.events[0];
    if (e === undefined) throw new Error('none');
    const other = w.events.find((x) => x.creator !== e.creator)?.creator ?? '';
    expect(failure(getEventBySlug(w, e.slug, { creator: other })).status).toBe(404);
    expect(body(getEventBySlug(w, e.slug, { creator: e.creator })).id).toBe(e.id);
    expect(failure(getEventBySlug(w, e.slug, { limit: '1' })).status).toBe(400);
  });
});

describe('GET /markets/{id}/tags', () => {
  it('by numeric id or condition id', () => {
    const m = w.markets[5];
    if (m === undefined) throw new Error('none');
    const byId = body(getMarketTags(w, String(m.id), {}));
    expect(byId.map((t) => t.label)).toEqual(m.tagLabels);
    expect(body(getMarketTags(w, m.conditionId, {}))).toEqual(byId);
  });
  it('unknown → 404, malformed → 400', () => {
    expect(failure(getMarketTags(w, '1', {}))).toEqual({
      status: 404,
      body: { type: 'not found error', error: 'market with id "1" not found' },
    });
    expect(failure(getMarketTags(w, 'abc', {})).status).toBe(400);
  });
});

describe('GET /tags', () => {
  it('pages in numeric id order with catalog bounds', () => {
    const first = body(listTags(w, {}));
    expect(first).toHaveLength(20);
    const all = body(listTags(w, { limit: '100' }));
    expect(all.length).toBe(w.tags.length);
    expect(all.map((t) => Number(t.id))).toEqual([...all.map((t) => Number(t.id))].sort((a, b) => a - b));
    expect(body(listTags(w, { limit: '5', offset: '5' }))).toEqual(all.slice(5, 10));
    expect(failure(listTags(w, { limit: '0' })).status).toBe(400);
    expect(failure(listTags(w, { q: 'x' })).status).toBe(400);
  });
});

describe('GET /public-search', () => {
  it('finds events, tags and profiles case-insensitively, limit per type', () => {
    const b = body(publicSearch(w, { q: 'BITCOIN', limit_per_type: '3' }));
    expect(b.events.length).toBeGreaterThan(0);
    expect(b.events.length).toBeLessThanOrEqual(3);
    expect(b.events.every((e) => `${e.title} ${e.slug}`.toLowerCase().includes('bitcoin'))).toBe(true);
    expect(b.tags.map((t) => t.label)).toEqual(['Bitcoin']);
    const u = w.users[0];
    if (u === undefined) throw new Error('no user');
    expect(body(publicSearch(w, { q: u.name })).profiles[0]).toEqual({
      name: u.name,
      pseudonym: u.pseudonym,
      proxyWallet: u.proxyWallet,
      profileImage: u.profileImage,
    });
    expect(body(publicSearch(w, { q: 'zzzzqqq' }))).toEqual({ events: [], tags: [], profiles: [] });
  });
  it('q is required; bounds on limit_per_type', () => {
    expect(failure(publicSearch(w, {})).body).toEqual({
      type: 'bad request',
      error: 'missing required query parameter: q',
    });
    expect(failure(publicSearch(w, { q: 'a', limit_per_type: '0' })).status).toBe(400);
    expect(body(publicSearch(w, { q: 'e' })).events.length).toBe(5);
  });
});

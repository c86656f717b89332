// Catalog, community and leaderboard routes over HTTP with the project's client: events, event by
// slug, market tags, tags, search, comments, leaderboard; the catalog error shape
// `{type, error}` (bad request, not found error) and the leaderboard's `{error}` shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHttpError } from '../../../src/exchange/errors.js';
import { raw, startTestSim, type TestSim } from './helpers.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim({ markets: 40 });
});
afterAll(async () => {
  await t.close();
});

describe('events, tags, search', () => {
  it('lists and pages events, and reads one by slug in its full form', async () => {
    const world = t.sim.venue.world;
    const page = await t.client.getEvents({ limit: 5, order: 'id', ascending: true });
    expect(page.map((e) => e.id)).toEqual(
      [...world.events]
        .sort((a, b) => Number(a.id) - Number(b.id))
        .slice(0, 5)
        .map((e) => e.id),
    );
    const next = await t.client.getEvents({ limit: 5, offset: 5, order: 'id', ascending: true });
    expect(next.map((e) => e.id)).not.toContain(page[0]?.id);
    const ev = world.events[0];
    if (ev === undefined) throw new Error('no event');
    const full = await t.client.getEventBySlug(ev.slug);
    expect(full.slug).toBe(ev.slug);
    expect(full.markets.length).toBe(ev.marketIndexes.length);
    const r = await raw(t.sim, 'GET', '/events/slug/no-such-event');
    expect(r).toMatchObject({
      status: 404,
      json: { type: 'not found error', error: 'event with slug "no-such-event" not found' },
    });
    const e = await t.client.getEventBySlug('no-such-event').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExchangeHttpError);
    expect((e as ExchangeHttpError).errorType).toBe('not found error');
  });

  it('answers bad requests in the catalog shape', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'active=maybe', 'order=volume', 'colour=red']) {
      const r = await raw(t.sim, 'GET', `/events?${q}`);
      expect(r.status, q).toBe(400);
      expect((r.json as { type: string }).type).toBe('bad request');
    }
    expect((await raw(t.sim, 'GET', '/tags?limit=0')).json).toMatchObject({ type: 'bad request' });
    expect((await raw(t.sim, 'GET', '/public-search')).json).toMatchObject({ type: 'bad request' });
  });

  it("reads a market's tags by numeric id or condition id; unknown ids are not found", async () => {
    const m = t.sim.venue.world.markets[0];
    if (m === undefined) throw new Error('no market');
    const byCond = await t.client.getMarketTags(m.conditionId);
    const byId = await t.client.getMarketTags(String(m.id));
    expect(byCond.map((x) => x.id)).toEqual(byId.map((x) => x.id));
    expect(byCond.length).toBe(m.tagIds.length);
    expect(await raw(t.sim, 'GET', '/markets/1/tags')).toMatchObject({
      status: 404,
      json: { type: 'not found error' },
    });
    expect(await raw(t.sim, 'GET', '/markets/abc/tags')).toMatchObject({ status: 400, json: { type: 'bad request' } });
  });

  it('lists tags and searches events, tags and profiles', async () => {
    const tags = await t.client.getTags({ limit: 3 });
    expect(tags.length).toBe(3);
    const ev = t.sim.venue.world.events[0];
    if (ev === undefined) throw new Error('no event');
    const word = ev.title.split(' ').find((w) => w.length > 4) ?? ev.title.slice(0, 5);
    const found = await t.client.publicSearch({ q: word, limit_per_type: 100 });
    expect(found.events.some((e) => e.id === ev.id)).toBe(true);
  });
});

describe('comments', () => {
  it("reads replies of a comment and a user's comments; unknown comment ids are not found", async () => {
    const withReplies = t.sim.venue.world.comments.find((c) => c.replies.length > 0);
    if (withReplies === undefined) throw new Error('no thread');
    const replies = await t.client.getCommentReplies(withReplies.id);
    expect(replies.map((c) => c.id).sort()).toEqual(withReplies.replies.map((c) => c.id).sort());
    const author = t.sim.venue.world.user(withReplies.userIndex);
    const mine = await t.client.getUserComments(author.proxyWallet, { limit: 100 });
    expect(mine.some((c) => c.id === withReplies.id)).toBe(true);
    expect(await raw(t.sim, 'GET', '/comments/999999999')).toMatchObject({
      status: 404,
      json: { type: 'not found error', error: 'comment with id "999999999" not found' },
    });
    expect(await raw(t.sim, 'GET', '/comments/abc')).toMatchObject({ status: 400, json: { type: 'bad request' } });
    expect(await raw(t.sim, 'GET', '/comments/user_address/0x12')).toMatchObject({
      status: 400,
      json: { type: 'bad request' },
    });
  });
});

describe('GET /v1/leaderboard', () => {
  it('ranks, filters and pages; its errors use the {error} shape', async () => {
    const top = await t.client.getLeaderboard({ limit: 5 });
    expect(top.map((e) => e.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(
      ((await raw(t.sim, 'GET', '/v1/leaderboard?limit=2')).json as { rank: unknown }[]).map((e) => e.rank),
    ).toEqual(['1', '2']);
    const byVol = await t.client.getLeaderboard({ orderBy: 'VOL', timePeriod: 'ALL', category: 'POLITICS', limit: 50 });
    expect(byVol.map((e) => e.vol)).toEqual([...byVol.map((e) => e.vol)].sort((a, b) => b - a));
    const one = top[0];
    if (one === undefined) throw new Error('empty leaderboard');
    const me = await t.client.getLeaderboard({ user: one.proxyWallet });
    expect(me.map((e) => e.rank)).toEqual([1]);
    expect(await raw(t.sim, 'GET', '/v1/leaderboard?limit=51')).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: limit' },
    });
    expect(await raw(t.sim, 'GET', '/v1/leaderboard?offset=1001')).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: offset' },
    });
    expect(await raw(t.sim, 'GET', '/v1/leaderboard?window=DAY')).toMatchObject({
      status: 400,
      json: { error: 'unknown_field: window' },
    });
    expect(await raw(t.sim, 'GET', '/v1/leaderboard?category=SPACE')).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: category' },
    });
  });
});

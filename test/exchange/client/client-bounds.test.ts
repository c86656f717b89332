// Client-side bounds through the client methods: every bound of every parameter table of
// interface §4.4/§4.5 and docs/protocol.md §8 rejected before sending (the server must see no
// request), with an error naming the parameter and the value; the edge values are sent; path
// parameters must be non-empty; defaults reach the wire.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClientValidationError } from '../../../src/exchange/errors.js';
import type { ExchangeClient } from '../../../src/exchange/client/index.js';
import { failure, run } from '../http/test-server.js';
import { setup, type Harness } from './harness.js';
import * as P from './payloads.js';

let h: Harness;
beforeAll(async () => {
  h = await setup();
  h.on('GET /data/positions', [P.position]);
  h.on('GET /data/closed-positions', [P.closedPosition]);
  h.on('GET /data/trades', []);
  h.on('GET /data/v1/leaderboard', [P.leaderboardEntry]);
  h.on('GET /gamma/events', []);
  h.on('GET /gamma/comments/1', []);
  h.on(`GET /gamma/comments/user_address/${P.USER}`, []);
  h.on('GET /gamma/tags', []);
  h.on('GET /gamma/public-search', P.publicSearchAnswer);
  h.on('GET /clob/prices-history', { history: [] });
  h.on('GET /clob/price', { price: '0.5' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.requests.length = 0;
});

type Call = (c: ExchangeClient, v: unknown) => Promise<unknown>;

/** [label, call with the value under test, param name, values sent, values refused]. */
const BOUNDS: Array<[string, Call, string, unknown[], unknown[]]> = [
  [
    'positions limit',
    (c, v) => c.getPositions({ user: P.USER, limit: v as number }),
    'limit',
    [0, 500],
    [-1, 501, 1.5],
  ],
  [
    'positions offset',
    (c, v) => c.getPositions({ user: P.USER, offset: v as number }),
    'offset',
    [0, 10_000],
    [-1, 10_001],
  ],
  [
    'positions sizeThreshold',
    (c, v) => c.getPositions({ user: P.USER, sizeThreshold: v as number }),
    'sizeThreshold',
    [0, 0.5, 1e9],
    [-0.000001, Number.NaN],
  ],
  [
    'positions title',
    (c, v) => c.getPositions({ user: P.USER, title: v as string }),
    'title',
    ['x'.repeat(100)],
    ['x'.repeat(101)],
  ],
  [
    'positions sortBy',
    (c, v) => c.getPositions({ user: P.USER, sortBy: v as never }),
    'sortBy',
    ['CURRENT', 'AVGPRICE'],
    ['REALIZEDPNL', 'tokens'],
  ],
  [
    'positions sortDirection',
    (c, v) => c.getPositions({ user: P.USER, sortDirection: v as never }),
    'sortDirection',
    ['ASC'],
    ['asc', 'UP'],
  ],
  ['positions user', (c, v) => c.getPositions({ user: v as string }), 'user', [P.USER], ['', 'nobody', undefined]],
  [
    'positions redeemable',
    (c, v) => c.getPositions({ user: P.USER, redeemable: v as boolean }),
    'redeemable',
    [true],
    ['true', 1],
  ],
  ['closed limit', (c, v) => c.getClosedPositions({ user: P.USER, limit: v as number }), 'limit', [0, 50], [-1, 51]],
  [
    'closed offset',
    (c, v) => c.getClosedPositions({ user: P.USER, offset: v as number }),
    'offset',
    [0, 100_000],
    [-1, 100_001],
  ],
  [
    'closed title',
    (c, v) => c.getClosedPositions({ user: P.USER, title: v as string }),
    'title',
    ['y'.repeat(100)],
    ['y'.repeat(101)],
  ],
  [
    'closed sortBy',
    (c, v) => c.getClosedPositions({ user: P.USER, sortBy: v as never }),
    'sortBy',
    ['TIMESTAMP'],
    ['TOKENS'],
  ],
  ['closed user', (c, v) => c.getClosedPositions({ user: v as string }), 'user', [P.USER], [undefined]],
  ['events limit', (c, v) => c.getEvents({ limit: v as number }), 'limit', [1, 100], [0, 101]],
  ['events offset', (c, v) => c.getEvents({ offset: v as number }), 'offset', [0, 1_000_000], [-1]],
  ['events tag_id', (c, v) => c.getEvents({ tag_id: v as number }), 'tag_id', [0, 42], [-1, 1.5]],
  ['events ascending', (c, v) => c.getEvents({ ascending: v as boolean }), 'ascending', [true], ['no']],
  ['comments limit', (c, v) => c.getCommentReplies('1', { limit: v as number }), 'limit', [1, 100], [0, 101]],
  ['comments offset', (c, v) => c.getCommentReplies('1', { offset: v as number }), 'offset', [0], [-1]],
  ['user comments limit', (c, v) => c.getUserComments(P.USER, { limit: v as number }), 'limit', [1, 100], [0, 101]],
  ['leaderboard limit', (c, v) => c.getLeaderboard({ limit: v as number }), 'limit', [1, 50], [0, 51]],
  ['leaderboard offset', (c, v) => c.getLeaderboard({ offset: v as number }), 'offset', [0, 1000], [-1, 1001]],
  [
    'leaderboard category',
    (c, v) => c.getLeaderboard({ category: v as never }),
    'category',
    ['TECH', 'MENTIONS'],
    ['ALL', 'overall'],
  ],
  ['leaderboard timePeriod', (c, v) => c.getLeaderboard({ timePeriod: v as never }), 'timePeriod', ['ALL'], ['YEAR']],
  ['leaderboard orderBy', (c, v) => c.getLeaderboard({ orderBy: v as never }), 'orderBy', ['VOL'], ['ROI']],
  ['leaderboard user', (c, v) => c.getLeaderboard({ user: v as string }), 'user', [P.USER], ['0x1234']],
  ['trades limit', (c, v) => c.getTrades({ limit: v as number }), 'limit', [1, 500], [0, 501]],
  ['tags limit', (c, v) => c.getTags({ limit: v as number }), 'limit', [1, 100], [0, 101]],
  ['search q', (c, v) => c.publicSearch({ q: v as string }), 'q', ['a'], ['', undefined]],
  [
    'search limit_per_type',
    (c, v) => c.publicSearch({ q: 'a', limit_per_type: v as number }),
    'limit_per_type',
    [1],
    [0],
  ],
  ['history fidelity', (c, v) => c.getPricesHistory('1', { fidelity: v as number }), 'fidelity', [1], [0]],
  ['history interval', (c, v) => c.getPricesHistory('1', { interval: v as never }), 'interval', ['1m', 'max'], ['1y']],
  ['price side', (c, v) => c.getPrice('1', v as 'BUY'), 'side', ['BUY', 'SELL'], ['buy', 'MID']],
];

describe('every bound, through the client', () => {
  for (const [label, call, param, ok, bad] of BOUNDS) {
    it(`${label}: sends ${ok.length} edge value(s), refuses ${bad.length} before sending`, async () => {
      for (const v of bad) {
        const e = await failure(h.clock, call(h.client, v));
        expect(e, `${label} ${String(v)}`).toBeInstanceOf(ClientValidationError);
        expect((e as ClientValidationError).param).toBe(param);
        if (v !== undefined) expect((e as ClientValidationError).value).toBe(v);
      }
      expect(h.server.requests, 'no request for a refused value').toHaveLength(0);
      for (const v of ok) await run(h.clock, call(h.client, v));
      expect(h.server.requests).toHaveLength(ok.length);
      // The accepted value is what went on the wire.
      for (const [i, v] of ok.entries()) {
        const sent = h.server.requests[i]!.query.get(param);
        expect(sent).toBe(String(v));
      }
    });
  }
});

describe('path parameters and unknown names', () => {
  it('empty path parameters are refused before sending', async () => {
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['id', () => h.client.getOrder('')],
      ['condition_id', () => h.client.getClobMarket('')],
      ['slug', () => h.client.getEventBySlug('')],
      ['id', () => h.client.getMarketTags('')],
      ['id', () => h.client.getCommentReplies('')],
      ['user_address', () => h.client.getUserComments('')],
      ['token_id', () => h.client.getBook('')],
      ['token_id', () => h.client.getTickSize('')],
      ['token_id', () => h.client.getNegRisk('')],
      ['token_id', () => h.client.getMidpoint('')],
      ['market', () => h.client.getPricesHistory('')],
    ];
    for (const [param, call] of calls) {
      const e = (await failure(h.clock, call())) as ClientValidationError;
      expect(e.param).toBe(param);
    }
    expect(h.server.requests).toHaveLength(0);
  });

  it('path parameters are percent-encoded', async () => {
    h.on('GET /gamma/events/slug/a%2Fb%20c', P.eventFull);
    await run(h.clock, h.client.getEventBySlug('a/b c'));
    expect(h.server.requests[0]!.path).toBe('/gamma/events/slug/a%2Fb%20c');
  });

  it('unknown query parameters are refused by name', async () => {
    const e = (await failure(
      h.clock,
      h.client.getPositions({ user: P.USER, sort: 'x' } as never),
    )) as ClientValidationError;
    expect(e.param).toBe('sort');
    expect(h.server.requests).toHaveLength(0);
  });
});

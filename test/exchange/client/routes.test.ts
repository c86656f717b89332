// Every method of ExchangeClient against a local server: the right HTTP method, API base (CLOB
// /clob, Data /data, Catalog /gamma), path, query (defaults included) and exact body; the answer
// parsed into domain values; and the route table covering every route of interface §4 and
// docs/protocol.md §2/§8 exactly once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROUTES, ROUTE_KEYS } from '../../../src/exchange/client/index.js';
import type { ExchangeClient } from '../../../src/exchange/client/index.js';
import { run } from '../http/test-server.js';
import { setup, type Harness, type Payload } from './harness.js';
import * as P from './payloads.js';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});
afterEach(async () => {
  await h.close();
});

interface Case {
  name: string;
  call: (c: ExchangeClient) => Promise<unknown>;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: string;
  body?: string;
  answer: Payload;
  check: (result: unknown) => void;
}

const USERQ = `user=${P.USER}`;

const CASES: Case[] = [
  // trading (§4.1)
  {
    name: 'postOrder',
    call: (c) => c.postOrder(P.submission()),
    method: 'POST',
    path: '/clob/order',
    body: JSON.stringify(P.submission()),
    answer: P.placementLive,
    check: (r) => expect(r).toMatchObject({ accepted: true, orderId: P.ORDER_ID, status: 'live', takingAmount: null }),
  },
  {
    name: 'postOrders',
    call: (c) => c.postOrders([P.submission('1'), P.submission('2')]),
    method: 'POST',
    path: '/clob/orders',
    body: JSON.stringify([P.submission('1'), P.submission('2')]),
    answer: [P.placementLive, { ...P.placementLive, orderID: '0x01' }],
    check: (r) => expect((r as Array<{ orderId: string }>).map((x) => x.orderId)).toEqual([P.ORDER_ID, '0x01']),
  },
  {
    name: 'cancelOrder',
    call: (c) => c.cancelOrder(P.ORDER_ID),
    method: 'DELETE',
    path: '/clob/order',
    body: `{"orderId":"${P.ORDER_ID}"}`,
    answer: P.cancelReal,
    check: (r) => expect(r).toMatchObject({ canceled: [P.ORDER_ID] }),
  },
  // order data (§4.2)
  {
    name: 'getOrder',
    call: (c) => c.getOrder(P.ORDER_ID),
    method: 'GET',
    path: `/clob/data/order/${P.ORDER_ID}`,
    answer: P.orderLookup,
    check: (r) => expect(r).toMatchObject({ id: P.ORDER_ID, status: 'LIVE', originalSize: 21_040_000, price: 500_000 }),
  },
  // account lifecycle (the public exchange's routes, both dialects)
  {
    name: 'getOpenOrders',
    call: (c) => c.getOpenOrders({ market: P.CONDITION }),
    method: 'GET',
    path: '/clob/data/orders',
    query: `market=${P.CONDITION}&next_cursor=MA%3D%3D`,
    answer: P.real('wire/lifecycle/data_orders_page_rs_official.json'),
    check: (r) => expect(r).toMatchObject({ nextCursor: 'next', data: [{ id: '1' }] }),
  },
  {
    name: 'getAccountTrades',
    call: (c) => c.getAccountTrades({ id: 'abc' }),
    method: 'GET',
    path: '/clob/data/trades',
    query: 'id=abc&next_cursor=MA%3D%3D',
    answer: P.real('wire/lifecycle/data_trades_page_rs_official.json'),
    check: (r) => expect(r).toMatchObject({ data: [{ id: '1', status: 'MATCHED' }] }),
  },
  {
    name: 'getBalanceAllowance',
    call: (c) => c.getBalanceAllowance({ asset_type: 'COLLATERAL' }),
    method: 'GET',
    path: '/clob/balance-allowance',
    query: 'asset_type=COLLATERAL',
    answer: P.real('wire/lifecycle/balance_allowance_collateral_nautilus.json'),
    check: (r) => expect(r).toMatchObject({ balance: 1_000_000_000 }),
  },
  {
    name: 'getRateLimitTier',
    call: (c) => c.getRateLimitTier(),
    method: 'GET',
    path: '/clob/v1/user/rate-limit-tier',
    answer: { tier: 'silver' },
    check: (r) => expect(r).toBe('silver'),
  },
  {
    name: 'postHeartbeat',
    call: (c) => c.postHeartbeat(null),
    method: 'POST',
    path: '/clob/v1/heartbeats',
    body: '{"heartbeat_id":""}',
    answer: { heartbeat_id: 'hb-1' },
    check: (r) => expect(r).toEqual({ heartbeatId: 'hb-1', resynchronized: false }),
  },
  {
    name: 'cancelOrders',
    call: (c) => c.cancelOrders([P.ORDER_ID, '0x01']),
    method: 'DELETE',
    path: '/clob/orders',
    body: `["${P.ORDER_ID}","0x01"]`,
    answer: P.real('wire/lifecycle/cancel_orders_nautilus.json'),
    check: (r) => expect(r).toMatchObject({ canceled: { length: 2 } }),
  },
  {
    name: 'cancelAll',
    call: (c) => c.cancelAll(),
    method: 'DELETE',
    path: '/clob/cancel-all',
    answer: P.real('wire/lifecycle/cancel_all_rs_official.json'),
    check: (r) => expect(r).toMatchObject({ canceled: ['2'] }),
  },
  {
    name: 'cancelMarketOrders',
    call: (c) => c.cancelMarketOrders({ market: P.CONDITION }),
    method: 'DELETE',
    path: '/clob/cancel-market-orders',
    body: `{"market":"${P.CONDITION}"}`,
    answer: P.real('wire/lifecycle/cancel_orders_rs_official.json'),
    check: (r) => expect(r).toMatchObject({ canceled: ['1'] }),
  },
  // market data (§4.3, §8)
  {
    name: 'getBook',
    call: (c) => c.getBook(P.TOKEN),
    method: 'GET',
    path: '/clob/book',
    query: `token_id=${P.TOKEN}`,
    answer: P.bookReal,
    check: (r) => expect(r).toMatchObject({ assetId: P.bookReal.asset_id }),
  },
  {
    name: 'getBooks',
    call: (c) => c.getBooks(['1', '2']),
    method: 'POST',
    path: '/clob/books',
    body: '[{"token_id":"1"},{"token_id":"2"}]',
    answer: [P.bookFor('1'), P.bookFor('2')],
    check: (r) => expect((r as Array<{ assetId: string }>).map((b) => b.assetId)).toEqual(['1', '2']),
  },
  {
    name: 'getPrices',
    call: (c) => c.getPrices(['1']),
    method: 'POST',
    path: '/clob/prices',
    body: '[{"token_id":"1"}]',
    answer: P.bestPricesFor(['1']),
    check: (r) => expect((r as Map<string, unknown>).has('1')).toBe(true),
  },
  {
    name: 'getMidpoints',
    call: (c) => c.getMidpoints(['1']),
    method: 'POST',
    path: '/clob/midpoints',
    body: '[{"token_id":"1"}]',
    answer: P.midpointsFor(['1']),
    check: (r) => expect((r as Map<string, number>).get('1')).toBe(510_000),
  },
  {
    name: 'getLastTradesPrices',
    call: (c) => c.getLastTradesPrices(['1']),
    method: 'POST',
    path: '/clob/last-trades-prices',
    body: '[{"token_id":"1"}]',
    answer: P.lastTradesFor(['1']),
    check: (r) => expect(r).toHaveLength(1),
  },
  {
    name: 'getBatchPricesHistory',
    call: (c) => c.getBatchPricesHistory(['1', '2'], { interval: '1d', fidelity: 60 }),
    method: 'POST',
    path: '/clob/batch-prices-history',
    body: '{"markets":["1","2"],"interval":"1d","fidelity":60}',
    answer: P.historyFor(['1', '2']),
    check: (r) => expect([...(r as Map<string, unknown>).keys()]).toEqual(['1', '2']),
  },
  {
    name: 'getPrice',
    call: (c) => c.getPrice(P.TOKEN, 'SELL'),
    method: 'GET',
    path: '/clob/price',
    query: `token_id=${P.TOKEN}&side=SELL`,
    answer: { price: '0.52' },
    check: (r) => expect(r).toBe(520_000),
  },
  {
    name: 'getMidpoint',
    call: (c) => c.getMidpoint(P.TOKEN),
    method: 'GET',
    path: '/clob/midpoint',
    query: `token_id=${P.TOKEN}`,
    answer: { mid: '0.525' },
    check: (r) => expect(r).toBe(525_000),
  },
  {
    name: 'getPricesHistory',
    call: (c) => c.getPricesHistory(P.TOKEN, { startTs: 1781282000, endTs: 1781290000, fidelity: 1 }),
    method: 'GET',
    path: '/clob/prices-history',
    query: `market=${P.TOKEN}&startTs=1781282000&endTs=1781290000&fidelity=1`,
    answer: P.real('wire/markets/prices_history_get_ccxt_2026-06-12.json'),
    check: (r) => expect(r).toHaveLength(30),
  },
  {
    name: 'getMarkets',
    call: (c) => c.getMarkets('MTAw'),
    method: 'GET',
    path: '/clob/markets',
    query: 'next_cursor=MTAw',
    answer: P.marketsPageReal,
    check: (r) => expect(r).toMatchObject({ nextCursor: 'MTAw', count: 100 }),
  },
  {
    name: 'getMarkets (first page, no cursor)',
    call: (c) => c.getMarkets(),
    method: 'GET',
    path: '/clob/markets',
    query: '',
    answer: P.marketsPageReal,
    check: (r) => expect((r as { data: unknown[] }).data).toHaveLength(100),
  },
  {
    name: 'getSamplingMarkets',
    call: (c) => c.getSamplingMarkets('MA=='),
    method: 'GET',
    path: '/clob/sampling-markets',
    query: 'next_cursor=MA%3D%3D',
    answer: { ...P.marketsPageReal, data: [] },
    check: (r) => expect(r).toMatchObject({ data: [] }),
  },
  {
    name: 'getSamplingSimplifiedMarkets',
    call: (c) => c.getSamplingSimplifiedMarkets(),
    method: 'GET',
    path: '/clob/sampling-simplified-markets',
    query: '',
    answer: P.simplifiedPage(0, 2, 'LTE='),
    check: (r) => expect(r).toMatchObject({ nextCursor: null, count: 2 }),
  },
  {
    name: 'getClobMarket',
    call: (c) => c.getClobMarket(P.CONDITION),
    method: 'GET',
    path: `/clob/clob-markets/${P.CONDITION}`,
    answer: P.clobMarket,
    check: (r) => expect(r).toMatchObject({ conditionId: P.CONDITION }),
  },
  // service routes (§8)
  {
    name: 'healthCheck',
    call: (c) => c.healthCheck(),
    method: 'GET',
    path: '/clob/',
    answer: 'OK',
    check: (r) => expect(r).toBe('OK'),
  },
  {
    name: 'getServerTime',
    call: (c) => c.getServerTime(),
    method: 'GET',
    path: '/clob/time',
    answer: 1781289172,
    check: (r) => expect(r).toBe(1781289172),
  },
  {
    name: 'getVersion',
    call: (c) => c.getVersion(),
    method: 'GET',
    path: '/clob/version',
    answer: { version: 2 },
    check: (r) => expect(r).toBe(2),
  },
  {
    name: 'getTickSize',
    call: (c) => c.getTickSize(P.TOKEN),
    method: 'GET',
    path: '/clob/tick-size',
    query: `token_id=${P.TOKEN}`,
    answer: { minimum_tick_size: 0.001 },
    check: (r) => expect(r).toBe(1_000),
  },
  {
    name: 'getNegRisk',
    call: (c) => c.getNegRisk(P.TOKEN),
    method: 'GET',
    path: '/clob/neg-risk',
    query: `token_id=${P.TOKEN}`,
    answer: { neg_risk: true },
    check: (r) => expect(r).toBe(true),
  },
  // L1 key routes (docs/protocol.md §2)
  {
    name: 'createApiKey',
    call: (c) => c.createApiKey({ SVC_ADDRESS: P.ADDRESS, SVC_NONCE: '0' }),
    method: 'POST',
    path: '/clob/auth/api-key',
    answer: P.apiKeyCreds,
    check: (r) => expect(r).toEqual(P.apiKeyCreds),
  },
  {
    name: 'deriveApiKey',
    call: (c) => c.deriveApiKey({ SVC_ADDRESS: P.ADDRESS, SVC_NONCE: '3' }),
    method: 'GET',
    path: '/clob/auth/derive-api-key',
    answer: P.apiKeyCreds,
    check: (r) => expect(r).toEqual(P.apiKeyCreds),
  },
  // portfolio (§4.4), trades (§8), leaderboard (§4.5): Data API
  {
    name: 'getPositions',
    call: (c) => c.getPositions({ user: P.USER, market: [P.CONDITION, '0xbb'], title: 'Vance' }),
    method: 'GET',
    path: '/data/positions',
    query: `${USERQ}&market=${P.CONDITION},0xbb&sizeThreshold=1&redeemable=false&mergeable=false&limit=100&offset=0&sortBy=TOKENS&sortDirection=DESC&title=Vance`,
    answer: [P.position],
    check: (r) => expect(r).toMatchObject([{ size: 21_040_000, negativeRisk: false }]),
  },
  {
    name: 'getClosedPositions',
    call: (c) => c.getClosedPositions({ user: P.USER, sortBy: 'TIMESTAMP', sortDirection: 'ASC' }),
    method: 'GET',
    path: '/data/closed-positions',
    query: `${USERQ}&limit=10&offset=0&sortBy=TIMESTAMP&sortDirection=ASC`,
    answer: [P.closedPosition],
    check: (r) => expect(r).toHaveLength(1),
  },
  {
    name: 'getTrades',
    call: (c) => c.getTrades({ user: P.USER, limit: 3 }),
    method: 'GET',
    path: '/data/trades',
    query: `${USERQ}&limit=3&offset=0`,
    answer: P.real('wire/portfolio/trades_get_ccxt_2026-06-12.json'),
    check: (r) => expect(r).toHaveLength(3),
  },
  {
    name: 'getLeaderboard',
    call: (c) => c.getLeaderboard({ category: 'POLITICS', user: P.USER }),
    method: 'GET',
    path: '/data/v1/leaderboard',
    query: `category=POLITICS&timePeriod=DAY&orderBy=PNL&limit=25&offset=0&${USERQ}`,
    answer: [P.leaderboardEntry],
    check: (r) => expect(r).toMatchObject([{ proxyWallet: P.USER, userName: 'trader' }]),
  },
  // catalog and community (§4.5, §8): Catalog API
  {
    name: 'getEvents',
    call: (c) => c.getEvents({ active: true, closed: false, tag_slug: 'politics', order: 'volume' }),
    method: 'GET',
    path: '/gamma/events',
    query: 'limit=20&offset=0&active=true&closed=false&tag_slug=politics&order=volume&ascending=false',
    answer: P.eventsReal,
    check: (r) => expect(r).toMatchObject([{ slug: 'democratic-presidential-nominee-2028' }]),
  },
  {
    name: 'getEventBySlug',
    call: (c) => c.getEventBySlug('democratic-presidential-nominee-2028', { creator: 'site-a' }),
    method: 'GET',
    path: '/gamma/events/slug/democratic-presidential-nominee-2028',
    query: 'creator=site-a',
    answer: P.eventFull,
    check: (r) => expect(r).toMatchObject({ id: '30829' }),
  },
  {
    name: 'getMarketTags',
    call: (c) => c.getMarketTags('253591'),
    method: 'GET',
    path: '/gamma/markets/253591/tags',
    query: '',
    answer: [P.tag],
    check: (r) => expect(r).toMatchObject([{ slug: 'politics' }]),
  },
  {
    name: 'getCommentReplies',
    call: (c) => c.getCommentReplies('1001', { limit: 5 }),
    method: 'GET',
    path: '/gamma/comments/1001',
    query: 'limit=5&offset=0',
    answer: [P.comment],
    check: (r) => expect(r).toMatchObject([{ id: '1001' }]),
  },
  {
    name: 'getUserComments',
    call: (c) => c.getUserComments(P.USER, { offset: 40 }),
    method: 'GET',
    path: `/gamma/comments/user_address/${P.USER}`,
    query: 'limit=20&offset=40',
    answer: [P.comment],
    check: (r) => expect(r).toHaveLength(1),
  },
  {
    name: 'getTags',
    call: (c) => c.getTags(),
    method: 'GET',
    path: '/gamma/tags',
    query: 'limit=20&offset=0',
    answer: [P.tag],
    check: (r) => expect(r).toHaveLength(1),
  },
  {
    name: 'publicSearch',
    call: (c) => c.publicSearch({ q: 'vance 2028', limit_per_type: 5 }),
    method: 'GET',
    path: '/gamma/public-search',
    query: 'q=vance%202028&limit_per_type=5',
    answer: P.publicSearchAnswer,
    check: (r) => expect(r).toMatchObject({ tags: [{ slug: 'politics' }] }),
  },
];

describe('every route', () => {
  for (const c of CASES) {
    it(`${c.name} → ${c.method} ${c.path}`, async () => {
      h.on(`${c.method} ${c.path}`, c.answer);
      const result = await run(h.clock, c.call(h.client));
      expect(h.server.requests).toHaveLength(1);
      const req = h.server.requests[0]!;
      expect(req.method).toBe(c.method);
      expect(req.path).toBe(c.path);
      expect(req.rawQuery).toBe(c.query ?? '');
      expect(req.body).toBe(c.body ?? '');
      c.check(result);
    });
  }

  it('covers every route of the table', () => {
    const called = new Set(CASES.map((c) => `${c.method} ${c.path}`));
    // Map concrete paths back to route keys.
    const keyOf = (m: string, p: string): string => {
      const path = p.replace(/^\/(clob|data|gamma)/, '');
      const templ = path
        .replace(/^\/data\/order\/.+$/, '/data/order/{id}')
        .replace(/^\/clob-markets\/.+$/, '/clob-markets/{condition_id}')
        .replace(/^\/events\/slug\/.+$/, '/events/slug/{slug}')
        .replace(/^\/markets\/[^/]+\/tags$/, '/markets/{id}/tags')
        .replace(/^\/comments\/user_address\/.+$/, '/comments/user_address/{user_address}')
        .replace(/^\/comments\/(?!user_address\/|\{)[^/]+$/, '/comments/{id}');
      return `${m} ${templ}`;
    };
    const keys = new Set(
      [...called].map((k) => {
        const [m, p] = k.split(' ') as [string, string];
        return keyOf(m, p);
      }),
    );
    expect([...keys].sort()).toEqual([...ROUTE_KEYS].sort());
    expect(new Set(ROUTE_KEYS).size).toBe(ROUTE_KEYS.length);
  });

  it('routes to the API of the table: clob, data, catalog', () => {
    for (const c of CASES) {
      const prefix = c.path.split('/')[1];
      const rest = c.path.replace(/^\/(clob|data|gamma)/, '');
      const def = Object.values(ROUTES).find((d) => {
        const [m, templ] = d.key.split(' ') as [string, string];
        return m === c.method && new RegExp(`^${templ.replace(/\{[a-z_]+\}/g, '[^/]+')}$`).test(rest);
      });
      expect(def, c.name).toBeDefined();
      expect({ clob: 'clob', data: 'data', gamma: 'catalog' }[prefix as 'clob']).toBe(def!.api);
    }
  });

  it('only reads and market-data batches are idempotent', () => {
    const writes = Object.values(ROUTES)
      .filter((d) => !d.idempotent)
      .map((d) => d.key)
      .sort();
    expect(writes).toEqual([
      'DELETE /cancel-all',
      'DELETE /cancel-market-orders',
      'DELETE /order',
      'DELETE /orders',
      'POST /auth/api-key',
      'POST /order',
      'POST /orders',
      'POST /v1/heartbeats',
    ]);
  });
});

describe('defaults to one origin', () => {
  it('dataUrl and catalogUrl default to clobUrl', async () => {
    const { ExchangeClient } = await import('../../../src/exchange/client/index.js');
    const c = new ExchangeClient({
      clobUrl: h.server.url,
      dialect: (await import('../../../src/exchange/dialect.js')).DIALECTS.spec,
      clock: h.clock,
    });
    h.on('GET /positions', [P.position]);
    h.on('GET /tags', [P.tag]);
    await run(h.clock, c.getPositions({ user: P.USER }));
    await run(h.clock, c.getTags());
    expect(h.server.requests.map((r) => r.path)).toEqual(['/positions', '/tags']);
    await c.close();
  });
});

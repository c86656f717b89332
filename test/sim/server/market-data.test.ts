// Market data, listings and service routes over HTTP with the project's client: book shape, order
// and hash (docs/protocol.md §5), batches and their 500-token cap, prices, midpoints, last trades, price
// history from sampled midpoints, cursor paging of the listings, and the query errors of §7.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookHash } from '../../../src/core/book-hash.js';
import type { WireBook } from '../../../src/exchange/wire.js';
import { ExchangeHttpError } from '../../../src/exchange/errors.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, secondAccount, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let m: MarketRec;
let quiet: MarketRec;

beforeAll(async () => {
  t = await startTestSim({ marketsPageSize: 7, sampleIntervalMs: 60_000 });
  const b = await secondAccount(t, '0x' + 'b5'.repeat(32));
  m = openMarket(t.sim, 0, 10_000);
  quiet = openMarket(t.sim, 1);
  // A: bids 0.30 (20) and 0.32 (20 + 20); B: NO bids at 0.60 and 0.58 → YES asks 0.40, 0.42.
  for (const p of [0.3, 0.32, 0.32]) await t.client.postOrder(submission(t, { market: m, price: px(p), size: px(20) }));
  for (const p of [0.6, 0.58])
    await b.client.postOrder(
      submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(p), size: px(20) }, b.creds.apiKey),
    );
  // A one-sided quiet market: a single bid.
  await t.client.postOrder(submission(t, { market: quiet, price: 10 * quiet.state.tick, size: px(20) }));
  // One trade: B buys NO at 0.70, a YES ask at 0.30 that takes A's oldest 0.32 bid (20) at 0.32.
  await b.client.postOrder(
    submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(0.7), size: px(20) }, b.creds.apiKey),
  );
  await b.client.close();
});
afterAll(async () => {
  await t.close();
});

describe('GET /book and POST /books', () => {
  it('sends levels worst-first with a hash over exactly the strings sent; the client parses best-first', async () => {
    const r = await raw(t.sim, 'GET', `/book?token_id=${m.tokenIds[0]}`);
    expect(r.status).toBe(200);
    const w = r.json as WireBook;
    expect(Object.keys(w)).toEqual([
      'market',
      'asset_id',
      'timestamp',
      'hash',
      'bids',
      'asks',
      'min_order_size',
      'tick_size',
      'neg_risk',
      'last_trade_price',
    ]);
    expect(w.bids).toEqual([
      { price: '0.3', size: '20' },
      { price: '0.32', size: '20' },
    ]);
    expect(w.asks).toEqual([
      { price: '0.42', size: '20' },
      { price: '0.4', size: '20' },
    ]);
    expect(w).toMatchObject({
      market: m.conditionId,
      asset_id: m.tokenIds[0],
      tick_size: '0.01',
      neg_risk: m.negRisk,
      last_trade_price: '0.32',
      timestamp: String(t.clock.now()),
    });
    expect(w.min_order_size).toBe(String(m.state.minOrderSize / 1e6));
    expect(w.hash).toBe(bookHash(w));
    const book = await t.client.getBook(m.tokenIds[0]);
    expect(book.bids.map((l) => l.price)).toEqual([px(0.32), px(0.3)]);
    expect(book.asks.map((l) => l.price)).toEqual([px(0.4), px(0.42)]);
  });

  it('mirrors the NO book: its bids are 1 − YES asks', async () => {
    const no = await t.client.getBook(m.tokenIds[1]);
    expect(no.bids.map((l) => l.price)).toEqual([px(0.6), px(0.58)]);
    expect(no.asks.map((l) => l.price)).toEqual([px(0.68), px(0.7)]);
    expect(no.lastTradePrice).toBe(px(0.68));
  });

  it('answers 404 for an unknown token and the data-style errors for bad queries', async () => {
    expect(await raw(t.sim, 'GET', '/book?token_id=42')).toMatchObject({
      status: 404,
      json: { error: 'No orderbook exists for the requested token id' },
    });
    expect(await raw(t.sim, 'GET', '/book')).toMatchObject({ status: 400, json: { error: 'missing_field: token_id' } });
    expect(await raw(t.sim, 'GET', `/book?token_id=${m.tokenIds[0]}&depth=3`)).toMatchObject({
      status: 400,
      json: { error: 'unknown_field: depth' },
    });
    const e = await t.client.getBook('42').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExchangeHttpError);
    expect((e as ExchangeHttpError).status).toBe(404);
  });

  it('POST /books answers known tokens in order, caps at 500 tokens, refuses malformed bodies', async () => {
    const books = await t.client.getBooks([m.tokenIds[1], m.tokenIds[0]]);
    expect(books.map((b) => b.assetId)).toEqual([m.tokenIds[1], m.tokenIds[0]]);
    const some = await raw(t.sim, 'POST', '/books', {
      body: JSON.stringify([{ token_id: '1' }, { token_id: m.tokenIds[0] }]),
    });
    expect((some.json as WireBook[]).map((b) => b.asset_id)).toEqual([m.tokenIds[0]]);
    const many = JSON.stringify(Array.from({ length: 501 }, () => ({ token_id: m.tokenIds[0] })));
    for (const path of ['/books', '/prices', '/midpoints', '/last-trades-prices']) {
      expect(await raw(t.sim, 'POST', path, { body: many })).toMatchObject({
        status: 400,
        json: { error: 'Payload exceeds the limit' },
      });
      expect(await raw(t.sim, 'POST', path, { body: '{"token_id":"1"}' })).toMatchObject({
        status: 400,
        json: { error: 'Invalid payload' },
      });
      expect(await raw(t.sim, 'POST', path, { body: '[{"token' })).toMatchObject({
        status: 400,
        json: { error: 'Invalid payload' },
      });
    }
    const ok500 = await raw(t.sim, 'POST', '/midpoints', {
      body: JSON.stringify(Array.from({ length: 500 }, () => ({ token_id: m.tokenIds[0] }))),
    });
    expect(ok500.status).toBe(200);
  });
});

describe('prices, midpoints, last trades', () => {
  it('POST /prices: BUY = best bid, SELL = best ask, an empty side absent, `side` narrows', async () => {
    const p = await t.client.getPrices([m.tokenIds[0], quiet.tokenIds[0], '999']);
    expect(p.get(m.tokenIds[0])).toEqual({ bid: px(0.32), ask: px(0.4) });
    expect(p.get(quiet.tokenIds[0])).toEqual({ bid: 10 * quiet.state.tick, ask: null });
    expect(p.has('999')).toBe(false);
    const r = await raw(t.sim, 'POST', '/prices', {
      body: JSON.stringify([{ token_id: m.tokenIds[0], side: 'SELL' }]),
    });
    expect(r.json).toEqual({ [m.tokenIds[0]]: { SELL: '0.4' } });
    expect(
      await raw(t.sim, 'POST', '/prices', { body: JSON.stringify([{ token_id: m.tokenIds[0], side: 'MID' }]) }),
    ).toMatchObject({ status: 400 });
  });

  it('POST /midpoints lists two-sided books only; GET /midpoint and GET /price', async () => {
    const mids = await t.client.getMidpoints([m.tokenIds[0], m.tokenIds[1], quiet.tokenIds[0]]);
    expect([...mids.entries()]).toEqual([
      [m.tokenIds[0], px(0.36)],
      [m.tokenIds[1], px(0.64)],
    ]);
    expect(await t.client.getMidpoint(m.tokenIds[0])).toBe(px(0.36));
    expect(await t.client.getMidpoint(quiet.tokenIds[0])).toBeNull();
    expect(await t.client.getPrice(m.tokenIds[0], 'BUY')).toBe(px(0.32));
    expect(await t.client.getPrice(m.tokenIds[0], 'SELL')).toBe(px(0.4));
    expect(await t.client.getPrice(quiet.tokenIds[0], 'SELL')).toBeNull();
    expect(await raw(t.sim, 'GET', `/price?token_id=${m.tokenIds[0]}`)).toMatchObject({
      status: 400,
      json: { error: 'missing_field: side' },
    });
    expect(await raw(t.sim, 'GET', `/price?token_id=${m.tokenIds[0]}&side=MID`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: side' },
    });
    expect(await raw(t.sim, 'GET', '/midpoint?token_id=5')).toMatchObject({ status: 404 });
  });

  it('POST /last-trades-prices: the last trade of each traded token, taker side in its terms', async () => {
    const l = await t.client.getLastTradesPrices([m.tokenIds[0], m.tokenIds[1], quiet.tokenIds[0]]);
    expect(l).toEqual([
      { tokenId: m.tokenIds[0], price: px(0.32), side: 'SELL' },
      { tokenId: m.tokenIds[1], price: px(0.68), side: 'BUY' },
    ]);
  });
});

describe('price history', () => {
  it('samples midpoints on the clock; GET /prices-history and POST /batch-prices-history read them', async () => {
    await raw(t.sim, 'POST', '/_sim/sample');
    t.clock.advance(5 * 60_000);
    const h = await t.client.getPricesHistory(m.tokenIds[0], { interval: '1h' });
    expect(h.length).toBeGreaterThanOrEqual(6);
    expect(h.every((p) => p.p === px(0.36))).toBe(true);
    expect(h.map((p) => p.t)).toEqual([...h.map((p) => p.t)].sort((a, b) => a - b));
    const batch = await t.client.getBatchPricesHistory([m.tokenIds[0], m.tokenIds[1]], { interval: '1h', fidelity: 2 });
    expect(batch.get(m.tokenIds[1])?.every((p) => p.p === px(0.64))).toBe(true);
    expect(batch.get(m.tokenIds[0])?.length ?? 0).toBeLessThan(h.length);
    expect(await raw(t.sim, 'GET', '/prices-history')).toMatchObject({
      status: 400,
      json: { error: 'missing_field: market' },
    });
    const tooMany = JSON.stringify({ markets: Array.from({ length: 21 }, (_, i) => String(i)) });
    expect(await raw(t.sim, 'POST', '/batch-prices-history', { body: tooMany })).toMatchObject({
      status: 400,
      json: { error: 'Payload exceeds the limit' },
    });
    // The displayed price in the market record follows the sampled midpoint.
    const rec = await raw(t.sim, 'GET', `/markets/${m.conditionId}`);
    expect((rec.json as { tokens: { price: number }[] }).tokens.map((x) => x.price)).toEqual([0.36, 0.64]);
  });
});

describe('market listings and settings', () => {
  it('pages /markets with base64 offset cursors from MA== to LTE=, every market once', async () => {
    const first = await raw(t.sim, 'GET', '/markets');
    expect(first.json).toMatchObject({ next_cursor: 'Nw==', limit: 7, count: 7 });
    const all = [];
    for await (const x of t.client.iterateMarkets()) all.push(x.conditionId);
    expect(all).toEqual(t.sim.venue.world.markets.map((x) => x.conditionId));
    const last = await raw(t.sim, 'GET', `/markets?next_cursor=${Buffer.from('28').toString('base64')}`);
    expect(last.json).toMatchObject({ next_cursor: 'LTE=', count: 2 });
    expect(await raw(t.sim, 'GET', '/markets?next_cursor=LTE=')).toMatchObject({
      status: 200,
      json: { data: [], next_cursor: 'LTE=' },
    });
    expect(await raw(t.sim, 'GET', '/markets?next_cursor=%25%25')).toMatchObject({
      status: 400,
      json: { error: 'invalid next_cursor' },
    });
    expect(await raw(t.sim, 'GET', '/markets?cursor=MA==')).toMatchObject({
      status: 400,
      json: { error: 'unknown_field: cursor' },
    });
  });

  it('lists sampling markets (rewards, open) in both forms', async () => {
    const sampling = [];
    for await (const x of t.client.iterateSamplingMarkets()) sampling.push(x);
    const simplified = [];
    for await (const x of t.client.iterateSamplingSimplifiedMarkets()) simplified.push(x.conditionId);
    const expected = t.sim.venue.world.markets
      .filter((x) => x.rewards !== null && !x.state.closed && x.state.acceptingOrders)
      .map((x) => x.conditionId);
    expect(sampling.map((x) => x.conditionId)).toEqual(expected);
    expect(simplified).toEqual(expected);
  });

  it('answers per-market settings, tick size, neg risk; unknown ids are 404', async () => {
    const s = await t.client.getClobMarket(m.conditionId);
    expect(s.tokens.map((x) => x.tokenId)).toEqual([...m.tokenIds]);
    expect(await t.client.getTickSize(m.tokenIds[0])).toBe(10_000);
    expect(await t.client.getNegRisk(m.tokenIds[1])).toBe(m.negRisk);
    expect(await raw(t.sim, 'GET', `/clob-markets/0x${'0'.repeat(64)}`)).toMatchObject({
      status: 404,
      json: { error: 'market not found' },
    });
    expect(await raw(t.sim, 'GET', `/markets/0x${'0'.repeat(64)}`)).toMatchObject({
      status: 404,
      json: { error: 'market not found' },
    });
    expect(await raw(t.sim, 'GET', '/tick-size?token_id=1')).toMatchObject({ status: 404 });
  });

  it('serves the service routes: health, time from the clock, version', async () => {
    expect(await t.client.healthCheck()).toBe('OK');
    expect(await t.client.getServerTime()).toBe(Math.floor(t.clock.now() / 1000));
    expect(await t.client.getVersion()).toBe(2);
  });
});

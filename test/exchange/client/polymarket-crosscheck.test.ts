// Cross-check against Polymarket's official client (@polymarket/clob-client-v2, a dev
// dependency): both clients call the same local server for the public CLOB routes they share,
// and must send the same method, path, query parameters and JSON body. Where the interface
// differs from the public exchange on purpose (POST /prices items carry no `side` here), the
// route is left out of the comparison.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Chain, ClobClient, Side, type BookParams } from '@polymarket/clob-client-v2';
import { run, type Recorded } from '../http/test-server.js';
import { setup, type Harness } from './harness.js';
import * as P from './payloads.js';

let h: Harness;
let official: ClobClient;

beforeEach(async () => {
  h = await setup();
  official = new ClobClient({ host: `${h.server.url}/clob`, chain: Chain.POLYGON });
  h.on('GET /clob/book', P.bookReal);
  h.on('POST /clob/books', [P.bookFor('1'), P.bookFor('2')]);
  h.on('GET /clob/midpoint', { mid: '0.5' });
  h.on('POST /clob/midpoints', P.midpointsFor(['1', '2']));
  h.on('GET /clob/price', { price: '0.5' });
  h.on('POST /clob/last-trades-prices', P.lastTradesFor(['1', '2']));
  h.on('GET /clob/prices-history', { history: [] });
  h.on('GET /clob/markets', { ...P.marketsPageReal, data: [], count: 0, next_cursor: 'LTE=' });
  h.on('GET /clob/sampling-markets', { ...P.marketsPageReal, data: [], count: 0, next_cursor: 'LTE=' });
  h.on('GET /clob/sampling-simplified-markets', P.simplifiedPage(0, 1, 'LTE='));
  h.on('GET /clob/tick-size', { minimum_tick_size: 0.01 });
  h.on('GET /clob/neg-risk', { neg_risk: false });
  h.on('GET /clob/time', 1781289172);
});
afterEach(async () => {
  await h.close();
});

/** `[{token_id}]` items (interface §4.3); the official type also names a `side` these routes ignore. */
const items = (...ids: string[]): BookParams[] => ids.map((token_id) => ({ token_id })) as unknown as BookParams[];

function shape(r: Recorded): { method: string; path: string; query: Record<string, string>; body: unknown } {
  return {
    method: r.method,
    path: r.path,
    query: Object.fromEntries([...r.query.entries()].sort()),
    body: r.body === '' ? null : (JSON.parse(r.body) as unknown),
  };
}

async function both(ours: () => Promise<unknown>, theirs: () => Promise<unknown>): Promise<void> {
  h.server.requests.length = 0;
  await run(h.clock, ours());
  await theirs();
  expect(h.server.requests).toHaveLength(2);
  expect(shape(h.server.requests[0]!)).toEqual(shape(h.server.requests[1]!));
}

describe('same requests as the official client', () => {
  it('GET /book, POST /books', async () => {
    await both(
      () => h.client.getBook(P.TOKEN),
      () => official.getOrderBook(P.TOKEN),
    );
    await both(
      () => h.client.getBooks(['1', '2']),
      () => official.getOrderBooks(items('1', '2')),
    );
  });

  it('GET /midpoint, POST /midpoints, GET /price, POST /last-trades-prices', async () => {
    await both(
      () => h.client.getMidpoint(P.TOKEN),
      () => official.getMidpoint(P.TOKEN),
    );
    await both(
      () => h.client.getMidpoints(['1', '2']),
      () => official.getMidpoints(items('1', '2')),
    );
    await both(
      () => h.client.getPrice(P.TOKEN, 'BUY'),
      () => official.getPrice(P.TOKEN, Side.BUY),
    );
    await both(
      () => h.client.getLastTradesPrices(['1', '2']),
      () => official.getLastTradesPrices(items('1', '2')),
    );
  });

  it('GET /prices-history with a range and with an interval', async () => {
    await both(
      () => h.client.getPricesHistory(P.TOKEN, { startTs: 1781282000, endTs: 1781290000, fidelity: 1 }),
      () => official.getPricesHistory({ market: P.TOKEN, startTs: 1781282000, endTs: 1781290000, fidelity: 1 }),
    );
    await both(
      () => h.client.getPricesHistory(P.TOKEN, { interval: '1d' }),
      () => official.getPricesHistory({ market: P.TOKEN, interval: '1d' as never }),
    );
  });

  it('the three listings with a cursor', async () => {
    await both(
      () => h.client.getMarkets('MA=='),
      () => official.getMarkets('MA=='),
    );
    await both(
      () => h.client.getSamplingMarkets('MTAw'),
      () => official.getSamplingMarkets('MTAw'),
    );
    await both(
      () => h.client.getSamplingSimplifiedMarkets('MA=='),
      () => official.getSamplingSimplifiedMarkets(),
    );
  });

  it('GET /tick-size, /neg-risk, /time', async () => {
    await both(
      () => h.client.getTickSize(P.TOKEN),
      () => official.getTickSize(P.TOKEN),
    );
    await both(
      () => h.client.getNegRisk(P.TOKEN),
      () => official.getNegRisk(P.TOKEN),
    );
    await both(
      () => h.client.getServerTime(),
      () => official.getServerTime(),
    );
  });
});

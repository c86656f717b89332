// Batches and paging through the client: token batches split at 500 and history batches at 20
// (requests in order, results merged, nothing sent for an empty list), retries of a failed chunk,
// and cursor iteration over the three listings from `MA==` until `LTE=`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientValidationError, ExchangeError } from '../../../src/exchange/errors.js';
import { failure, json, run } from '../http/test-server.js';
import { setup, type Harness } from './harness.js';
import * as P from './payloads.js';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});
afterEach(async () => {
  await h.close();
});

const ids = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => String(from + i));
const bodyIds = (body: string): string[] => (JSON.parse(body) as Array<{ token_id: string }>).map((x) => x.token_id);

describe('token batches split at 500', () => {
  beforeEach(() => {
    h.on('POST /clob/books', (req, res) => json(res, 200, bodyIds(req.body).map(P.bookFor)));
    h.on('POST /clob/prices', (req, res) => json(res, 200, P.bestPricesFor(bodyIds(req.body))));
    h.on('POST /clob/midpoints', (req, res) => json(res, 200, P.midpointsFor(bodyIds(req.body))));
    h.on('POST /clob/last-trades-prices', (req, res) => json(res, 200, P.lastTradesFor(bodyIds(req.body))));
  });

  it('books: 1201 tokens → 500, 500, 201 in order, merged in order', async () => {
    const tokens = ids(1201);
    const books = await run(h.clock, h.client.getBooks(tokens));
    expect(h.server.requests.map((r) => bodyIds(r.body).length)).toEqual([500, 500, 201]);
    expect(h.server.requests.flatMap((r) => bodyIds(r.body))).toEqual(tokens);
    expect(books.map((b) => b.assetId)).toEqual(tokens);
  });

  it('prices, midpoints, last trades: same split, maps merged over chunks', async () => {
    const tokens = ids(1000, 7);
    const prices = await run(h.clock, h.client.getPrices(tokens));
    const mids = await run(h.clock, h.client.getMidpoints(tokens));
    const last = await run(h.clock, h.client.getLastTradesPrices(tokens));
    expect(h.server.requests.map((r) => `${r.path} ${bodyIds(r.body).length}`)).toEqual([
      '/clob/prices 500',
      '/clob/prices 500',
      '/clob/midpoints 500',
      '/clob/midpoints 500',
      '/clob/last-trades-prices 500',
      '/clob/last-trades-prices 500',
    ]);
    expect([...prices.keys()]).toEqual(tokens);
    expect([...mids.keys()]).toEqual(tokens);
    expect(last.map((x) => x.tokenId)).toEqual(tokens);
  });

  it('chunk count is ceil(n / 500) and every token is sent once, for any n', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1600 }), async (n) => {
        h.server.requests.length = 0;
        const tokens = ids(n);
        await run(h.clock, h.client.getMidpoints(tokens));
        const sizes = h.server.requests.map((r) => bodyIds(r.body).length);
        return (
          sizes.length === Math.ceil(n / 500) &&
          sizes.every((s) => s <= 500) &&
          h.server.requests.flatMap((r) => bodyIds(r.body)).join() === tokens.join()
        );
      }),
      { numRuns: 15 },
    );
  });

  it('an empty list sends nothing', async () => {
    expect(await run(h.clock, h.client.getBooks([]))).toEqual([]);
    expect((await run(h.clock, h.client.getPrices([]))).size).toBe(0);
    expect(h.server.requests).toHaveLength(0);
  });

  it('an empty or non-string token id is refused before sending', async () => {
    const e = (await failure(h.clock, h.client.getBooks(['1', '', '3']))) as ClientValidationError;
    expect(e).toBeInstanceOf(ClientValidationError);
    expect(e.param).toBe('tokenIds[1]');
    expect(h.server.requests).toHaveLength(0);
  });

  it('a failed chunk is retried (batches are idempotent) and the rest follows', async () => {
    let n = 0;
    h.on('POST /clob/books', (req, res) => {
      n++;
      if (n === 2) json(res, 500, { error: 'x' });
      else json(res, 200, bodyIds(req.body).map(P.bookFor));
    });
    const books = await run(h.clock, h.client.getBooks(ids(700)));
    expect(books).toHaveLength(700);
    expect(h.server.requests.map((r) => bodyIds(r.body).length)).toEqual([500, 200, 200]);
  });

  it('a chunk that fails for good stops the batch with its error', async () => {
    let n = 0;
    h.on('POST /clob/books', (req, res) => {
      n++;
      if (n === 1) json(res, 200, bodyIds(req.body).map(P.bookFor));
      else json(res, 400, { error: 'Payload exceeds the limit' });
    });
    const e = (await failure(h.clock, h.client.getBooks(ids(1200)))) as ExchangeError;
    expect(e.code).toBe('EXCHANGE_BAD_REQUEST');
    expect(h.server.requests).toHaveLength(2);
  });
});

describe('price history batches split at 20', () => {
  it('45 markets → 20, 20, 5 with the options in every body', async () => {
    h.on('POST /clob/batch-prices-history', (req, res) =>
      json(res, 200, P.historyFor((JSON.parse(req.body) as { markets: string[] }).markets)),
    );
    const markets = ids(45);
    const hist = await run(h.clock, h.client.getBatchPricesHistory(markets, { start_ts: 1, end_ts: 2, fidelity: 5 }));
    const bodies = h.server.requests.map((r) => JSON.parse(r.body) as { markets: string[] });
    expect(bodies.map((b) => b.markets.length)).toEqual([20, 20, 5]);
    for (const b of bodies) expect(b).toMatchObject({ start_ts: 1, end_ts: 2, fidelity: 5 });
    expect([...hist.keys()]).toEqual(markets);
  });

  it('bad options are refused before sending', async () => {
    for (const [opts, param] of [
      [{ fidelity: 0 }, 'fidelity'],
      [{ interval: '2d' }, 'interval'],
      [{ start_ts: -1 }, 'start_ts'],
      [{ start_ts: 1, interval: '1d' }, 'interval'],
      [{ bogus: 1 }, 'bogus'],
    ] as const) {
      const e = (await failure(h.clock, h.client.getBatchPricesHistory(['1'], opts as never))) as ClientValidationError;
      expect(e.param).toBe(param);
    }
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('cursor paging', () => {
  const pages: Record<string, ReturnType<typeof P.simplifiedPage>> = {
    'MA==': P.simplifiedPage(0, 3, 'Mw=='),
    'Mw==': P.simplifiedPage(3, 3, 'Ng=='),
    'Ng==': P.simplifiedPage(6, 2, 'LTE='),
  };
  const serve = (path: string): void =>
    h.on(`GET ${path}`, (req, res) => {
      const page = pages[req.query.get('next_cursor') ?? 'MA=='];
      if (page === undefined) json(res, 400, { error: 'bad cursor' });
      else json(res, 200, page);
    });

  it('iterates every record from MA== until LTE=', async () => {
    serve('/clob/sampling-simplified-markets');
    const seen: Array<number | null> = [];
    const it = h.client.iterateSamplingSimplifiedMarkets();
    await run(
      h.clock,
      (async () => {
        for await (const m of it) seen.push(m.marketId);
      })(),
    );
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(h.server.requests.map((r) => r.query.get('next_cursor'))).toEqual(['MA==', 'Mw==', 'Ng==']);
  });

  it('iterates pages of /markets on the real recorded page, then stops at LTE=', async () => {
    let n = 0;
    h.on('GET /clob/markets', (_req, res) => {
      n++;
      json(res, 200, n === 1 ? P.marketsPageReal : { ...P.marketsPageReal, data: [], count: 0, next_cursor: 'LTE=' });
    });
    const cursors: Array<string | null> = [];
    let records = 0;
    await run(
      h.clock,
      (async () => {
        for await (const page of h.client.iterateMarketPages()) {
          cursors.push(page.nextCursor);
          records += page.data.length;
        }
      })(),
    );
    expect(cursors).toEqual(['MTAw', null]);
    expect(records).toBe(100);
    expect(h.server.requests.map((r) => r.query.get('next_cursor'))).toEqual(['MA==', 'MTAw']);
  });

  it('sampling markets iterate the same way', async () => {
    h.on('GET /clob/sampling-markets', P.samplingPageFromReal('LTE='));
    let count = 0;
    await run(
      h.clock,
      (async () => {
        for await (const _m of h.client.iterateSamplingMarkets()) count++;
      })(),
    );
    expect(count).toBe(100);
    expect(h.server.requests).toHaveLength(1);
  });

  it('stops with EXCHANGE_BAD_RESPONSE when the server loops', async () => {
    h.on('GET /clob/markets', (req, res) =>
      json(res, 200, {
        ...P.simplifiedPage(0, 0, req.query.get('next_cursor') === 'MA==' ? 'MQ==' : 'MA=='),
        data: [],
      }),
    );
    const e = (await failure(
      h.clock,
      (async () => {
        for await (const _p of h.client.iterateMarketPages()) {
          /* drain */
        }
      })(),
    )) as ExchangeError;
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.message).toContain('already visited');
    expect(h.server.requests).toHaveLength(2);
  });

  it('asking for the page after LTE= or an empty cursor is refused before sending', async () => {
    for (const c of ['LTE=', '']) {
      const e = (await failure(h.clock, h.client.getMarkets(c))) as ClientValidationError;
      expect(e.param).toBe('next_cursor');
    }
    expect(h.server.requests).toHaveLength(0);
  });

  it('an iterator can resume from a given cursor', async () => {
    serve('/clob/sampling-simplified-markets');
    const seen: Array<number | null> = [];
    await run(
      h.clock,
      (async () => {
        for await (const m of h.client.iterateSamplingSimplifiedMarkets('Ng==')) seen.push(m.marketId);
      })(),
    );
    expect(seen).toEqual([6, 7]);
  });
});

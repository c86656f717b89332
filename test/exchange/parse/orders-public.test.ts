// The public order wire, read through the client: every payload in test/fixtures/real/wire/orders/
// (provenance in SOURCES.md there) is served by a local server to an ExchangeClient in the
// polymarket dialect, on the route it was recorded for, and what the client makes of it is
// checked (a domain value, or the error a caller can act on). A table names each file's route and
// outcome; a guard fails when a fixture is added without an entry. Then malformed variants, each
// refused with the field path.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { ExchangeError, ExchangeHttpError, ExchangeResponseError } from '../../../src/exchange/errors.js';
import {
  parsePublicCancelResult,
  parsePublicOrderLookup,
  parsePublicOrderStatus,
  parsePublicPlacementResult,
  parsePublicPlacementResults,
} from '../../../src/exchange/parse/orders-public.js';
import { parsePublicBestPrices } from '../../../src/exchange/parse/prices-public.js';
import type { Answer, Harness } from '../client/harness.js';
import { setup } from '../client/harness.js';
import * as P from '../client/payloads.js';
import { failure, run } from '../http/test-server.js';
import { clone, pathOf } from './fixtures.js';

const DIR = fileURLToPath(new URL('../../fixtures/real/wire/orders/', import.meta.url));
const text = (name: string): string => readFileSync(DIR + name, 'utf8');
const load = (name: string): unknown => JSON.parse(text(name)) as unknown;

type Route = 'getOrder' | 'postOrder' | 'postOrders' | 'cancelOrder' | 'prices';
type Outcome = { value: unknown } | { error: { status?: number; code: string; ambiguous?: boolean; path?: string } };

const ID_A = '0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef';
const MS = 1000;

// File → the route it answers and what the client returns (or throws) for it.
const TABLE: Record<string, { route: Route; outcome: Outcome }> = {
  'order_get_nautilus.json': {
    route: 'getOrder',
    outcome: {
      value: {
        id: ID_A,
        status: 'LIVE',
        market: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
        assetId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
        side: 'BUY',
        price: 500_000,
        originalSize: 100_000_000,
        sizeMatched: 25_000_000,
        outcome: 'Yes',
        makerAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        owner: '00000000-0000-0000-0000-000000000001',
        type: 'GTC',
        createdAt: '2023-12-29T18:40:00.000Z',
        createdAtMs: 1703875200 * MS,
        associateTrades: ['0xabc001'],
      },
    },
  },
  'order_get_matched_fok_ms_nautilus.json': {
    route: 'getOrder',
    outcome: {
      value: {
        id: '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
        status: 'MATCHED',
        market: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
        assetId: '52114319501245915516055106046884209969926127482827954674443846427813813222426',
        side: 'SELL',
        price: 500_000,
        originalSize: 50_000_000,
        sizeMatched: 50_000_000,
        outcome: 'No',
        makerAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        owner: '00000000-0000-0000-0000-000000000001',
        type: 'FOK',
        createdAt: '2023-12-29T18:40:01.000Z',
        createdAtMs: 1703875201000,
        associateTrades: [],
        expiresAtMs: 1735689600 * MS,
      },
    },
  },
  'order_get_rs_official.json': {
    route: 'getOrder',
    outcome: {
      value: {
        id: '1',
        status: 'LIVE',
        market: 'market_abc',
        assetId: 'asset_xyz',
        side: 'BUY',
        price: 450_000,
        originalSize: 10_000_000,
        sizeMatched: 2_500_000,
        outcome: 'YES',
        makerAddress: '0x2222222222222222222222222222222222222222',
        owner: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
        type: 'GTD',
        createdAt: '2024-01-15T12:34:56.000Z',
        createdAtMs: 1705322096 * MS,
        associateTrades: ['0xtradehash1', '0xtradehash2'],
        expiresAtMs: 1705708800 * MS,
      },
    },
  },
  'order_get_docs_example.json': {
    route: 'getOrder',
    outcome: {
      value: {
        id: '0xabcdef1234567890abcdef1234567890abcdef12',
        status: 'LIVE',
        market: '0x0000000000000000000000000000000000000000000000000000000000000001',
        assetId: '0xabc123def456...',
        side: 'BUY',
        price: 500_000,
        originalSize: 100_000_000_000_000,
        sizeMatched: 0,
        outcome: 'YES',
        makerAddress: '0x1234567890123456789012345678901234567890',
        owner: 'f4f247b7-4ac7-ff29-a152-04fda0a8755a',
        type: 'GTC',
        createdAt: '2023-11-14T22:13:20.000Z',
        createdAtMs: 1700000000 * MS,
        associateTrades: [],
        expiresAtMs: 1735689600 * MS,
      },
    },
  },
  'order_get_unknown_null.json': { route: 'getOrder', outcome: { value: null } },
  'err_get_order_401_issue278.http.json': {
    route: 'getOrder',
    outcome: { error: { status: 401, code: 'EXCHANGE_UNAUTHORIZED' } },
  },

  'order_post_delayed_nautilus.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: true,
        errorMsg: '',
        orderId: '0x1111111111111111111111111111111111111111111111111111111111111111',
        status: 'delayed',
        takingAmount: null,
        makingAmount: null,
        accepted: true,
      },
    },
  },
  'order_post_matched_issue217.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: true,
        errorMsg: '',
        orderId: 'xxx',
        status: 'matched',
        takingAmount: 14_925_372,
        makingAmount: 9_999_999,
        accepted: true,
      },
    },
  },
  'order_post_live_rs_official.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: true,
        errorMsg: '',
        orderId: '0x23b457271bce9fa09b4f79125c9ec09e968235a462de82e318ef4eb6fe0ffeb0',
        status: 'live',
        takingAmount: null,
        makingAmount: null,
        accepted: true,
      },
    },
  },
  'order_post_matched_rs_official.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: true,
        errorMsg: '',
        orderId: '0x23b457271bce9fa09b4f79125c9ec09e968235a462de82e318ef4eb6fe0ffeb0',
        status: 'matched',
        takingAmount: 50_000_000,
        makingAmount: 100_000_000,
        accepted: true,
      },
    },
  },
  'order_post_failed_nautilus.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: false,
        errorMsg: 'Insufficient balance',
        orderId: null,
        status: null,
        takingAmount: null,
        makingAmount: null,
        accepted: false,
      },
    },
  },
  // Success, an id, no status: malformed for every official client; an ambiguous write to resolve.
  'order_post_async_exec_nautilus.json': {
    route: 'postOrder',
    outcome: { error: { code: 'EXCHANGE_BAD_RESPONSE', ambiguous: true, path: 'status' } },
  },
  'order_post_trade_ids_only_nautilus.json': {
    route: 'postOrder',
    outcome: { error: { code: 'EXCHANGE_BAD_RESPONSE', ambiguous: true, path: 'status' } },
  },
  'err_post_order_400_balance.http.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: false,
        errorMsg: 'not enough balance / allowance',
        orderId: null,
        status: null,
        takingAmount: null,
        makingAmount: null,
        accepted: false,
      },
    },
  },
  'err_post_order_400_version_mismatch.http.json': {
    route: 'postOrder',
    outcome: {
      value: {
        success: false,
        errorMsg: 'order_version_mismatch',
        orderId: null,
        status: null,
        takingAmount: null,
        makingAmount: null,
        accepted: false,
      },
    },
  },
  'err_post_order_400_invalid_payload_gosdk55.http.json': {
    route: 'postOrder',
    outcome: { error: { status: 400, code: 'EXCHANGE_BAD_REQUEST' } },
  },
  'err_post_order_401_issue209.http.json': {
    route: 'postOrder',
    outcome: { error: { status: 401, code: 'EXCHANGE_UNAUTHORIZED' } },
  },
  'err_post_order_500_nautilus.http.json': {
    route: 'postOrder',
    outcome: { error: { status: 500, code: 'EXCHANGE_INTERNAL', ambiguous: true } },
  },

  'orders_post_postonly_mode_pysdk_official.json': {
    route: 'postOrders',
    outcome: {
      value: [0, 1].map(() => ({
        success: true,
        errorMsg: 'post-only mode: only post-only orders and cancels are allowed',
        orderId: null,
        status: null,
        takingAmount: null,
        makingAmount: null,
        accepted: false,
      })),
    },
  },
  'orders_post_mixed_nautilus.json': {
    route: 'postOrders',
    outcome: { error: { code: 'EXCHANGE_BAD_RESPONSE', ambiguous: true, path: '[0].status' } },
  },

  'cancel_failed_nautilus.json': {
    route: 'cancelOrder',
    outcome: {
      value: {
        canceled: [],
        notCanceled: new Map([
          ['0xb816482a1234567890abcdef1234567890abcdef1234567890abcdef12345678', 'already canceled or matched'],
        ]),
      },
    },
  },
  'cancel_ok_null_nautilus.json': {
    route: 'cancelOrder',
    outcome: { value: { canceled: [], notCanceled: new Map() } },
  },
  'cancel_not_canceled_camel_rs_official.json': {
    route: 'cancelOrder',
    outcome: { value: { canceled: [], notCanceled: new Map([['1', 'the order is already canceled']]) } },
  },
  'cancel_not_canceled_snake_rs_official.json': {
    route: 'cancelOrder',
    outcome: { value: { canceled: [], notCanceled: new Map([['1', 'the order is already canceled']]) } },
  },
  'cancel_mixed_tssdk_official.json': {
    route: 'cancelOrder',
    outcome: {
      value: {
        canceled: ['0x38a73eed1e6184bf3b3d1417f0e72a039b3479ad272b0bad9b943ff29ce0f0eb'],
        notCanceled: new Map([
          ['0xaaf0e72a039b3479ad272b0bad9b943ff29ce0f0eb38a73eed1e6184bf3b3d14', 'order not found'],
        ]),
      },
    },
  },

  'prices_post_rs_official.json': {
    route: 'prices',
    outcome: { value: new Map([['1', { bid: 500_000, ask: null }]]) },
  },
  'prices_post_docs_example.json': {
    route: 'prices',
    outcome: {
      value: new Map([
        ['0xabc123def456...', { bid: 450_000, ask: null }],
        ['0xdef456abc123...', { bid: null, ask: 520_000 }],
      ]),
    },
  },
};

const PATHS: Record<Route, string> = {
  getOrder: `GET /clob/data/order/${P.ORDER_ID}`,
  postOrder: 'POST /clob/order',
  postOrders: 'POST /clob/orders',
  cancelOrder: 'DELETE /clob/order',
  prices: 'POST /clob/prices',
};

/** The fixture as an answer: its JSON with 200, or an `*.http.json`'s status and raw body. */
function answerOf(name: string): Answer {
  if (name.endsWith('.http.json')) {
    const h = load(name) as { status: number; contentType: string; body: string };
    return (_req, res) => {
      res.writeHead(h.status, { 'content-type': h.contentType });
      res.end(h.body);
    };
  }
  const body = text(name);
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  };
}

function call(h: Harness, route: Route, name: string): Promise<unknown> {
  switch (route) {
    case 'getOrder':
      return h.client.getOrder(P.ORDER_ID);
    case 'postOrder':
      return h.client.postOrder(P.submission());
    case 'postOrders':
      return h.client.postOrders((load(name) as unknown[]).map((_, i) => P.submission(String(i + 1))));
    case 'cancelOrder':
      return h.client.cancelOrder(P.ORDER_ID);
    case 'prices':
      return h.client.getPrices(Object.keys(load(name) as object));
  }
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('every public order-route fixture through the client (polymarket dialect)', () => {
  it('has a table entry for every file of the folder', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(files).toEqual(Object.keys(TABLE).sort());
  });

  for (const [name, { route, outcome }] of Object.entries(TABLE)) {
    it(`${name} (${route})`, async () => {
      h = await setup({ dialect: DIALECTS.polymarket });
      h.on(PATHS[route], answerOf(name));
      if ('value' in outcome) {
        expect(await run(h.clock, call(h, route, name) as Promise<unknown>)).toEqual(outcome.value);
      } else {
        const e = await failure(h.clock, call(h, route, name));
        expect(e).toBeInstanceOf(ExchangeError);
        const err = e as ExchangeError;
        expect(err.code).toBe(outcome.error.code);
        if (outcome.error.status !== undefined) {
          expect(err).toBeInstanceOf(ExchangeHttpError);
          expect((err as ExchangeHttpError).status).toBe(outcome.error.status);
        }
        if (outcome.error.ambiguous !== undefined) expect(err.ambiguous).toBe(outcome.error.ambiguous);
        if (outcome.error.path !== undefined) {
          expect(err).toBeInstanceOf(ExchangeResponseError);
          expect((err.cause as { path?: string }).path).toBe(outcome.error.path);
        }
      }
      // A write is sent once, whatever the answer.
      if (route !== 'getOrder' && route !== 'prices') expect(h.server.requests).toHaveLength(1);
    });
  }

  it('an empty GET /data/order body reads as an unknown id, as nautilus_trader reads it', async () => {
    h = await setup({ dialect: DIALECTS.polymarket });
    h.on(PATHS.getOrder, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('');
    });
    expect(await run(h.clock, h.client.getOrder(P.ORDER_ID))).toBeNull();
  });
});

describe('malformed public answers are refused with the field path', () => {
  const record = load('order_get_nautilus.json') as Record<string, unknown>;
  const mut = (f: (o: Record<string, unknown>) => void): unknown => {
    const v = clone(record);
    f(v);
    return v;
  };

  it('order records', () => {
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['price'] = 0.5;
          }),
        ),
      ),
    ).toBe('price');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['price'] = '1.5';
          }),
        ),
      ),
    ).toBe('price');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['original_size'] = '1e2';
          }),
        ),
      ),
    ).toBe('original_size');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['size_matched'] = '100.0001';
          }),
        ),
      ),
    ).toBe('size_matched');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['side'] = 'HOLD';
          }),
        ),
      ),
    ).toBe('side');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['order_type'] = 'IOC';
          }),
        ),
      ),
    ).toBe('order_type');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['status'] = 'DELAYED';
          }),
        ),
      ),
    ).toBe('status');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['created_at'] = '2023-12-29T18:40:00Z';
          }),
        ),
      ),
    ).toBe('created_at');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['created_at'] = 1.5;
          }),
        ),
      ),
    ).toBe('created_at');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            delete o['created_at'];
          }),
        ),
      ),
    ).toBe('created_at');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['expiration'] = 'soon';
          }),
        ),
      ),
    ).toBe('expiration');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            o['associate_trades'] = [7];
          }),
        ),
      ),
    ).toBe('associate_trades[0]');
    expect(
      pathOf(() =>
        parsePublicOrderLookup(
          mut((o) => {
            delete o['asset_id'];
          }),
        ),
      ),
    ).toBe('asset_id');
    expect(pathOf(() => parsePublicOrderLookup({ order: record }))).toBe('original_size');
    expect(pathOf(() => parsePublicOrderLookup('order'))).toBe('');
  });

  it('order statuses: the documented five, prefixed or not, any case, with a reason suffix', () => {
    expect(parsePublicOrderStatus('ORDER_STATUS_CANCELED_MARKET_RESOLVED', 's')).toBe('CANCELED_MARKET_RESOLVED');
    expect(parsePublicOrderStatus('live', 's')).toBe('LIVE');
    expect(
      parsePublicOrderStatus("CANCELED_order couldn't be fully filled. FOK orders are fully filled or killed.", 's'),
    ).toBe('CANCELED');
    expect(parsePublicOrderStatus('CANCELED_MARKET_RESOLVED_resolved at block 12345', 's')).toBe(
      'CANCELED_MARKET_RESOLVED',
    );
    expect(pathOf(() => parsePublicOrderStatus('UNMATCHED_insufficient liquidity', 's'))).toBe('s');
    expect(pathOf(() => parsePublicOrderStatus('LIVELY', 's'))).toBe('s');
    expect(pathOf(() => parsePublicOrderStatus('', 's'))).toBe('s');
  });

  it('placements, batches, cancels and prices', () => {
    const ok = load('order_post_delayed_nautilus.json') as Record<string, unknown>;
    expect(pathOf(() => parsePublicPlacementResult({ ...ok, success: 'true' }))).toBe('success');
    expect(pathOf(() => parsePublicPlacementResult({ ...ok, status: 'resting' }))).toBe('status');
    expect(pathOf(() => parsePublicPlacementResult({ ...ok, takingAmount: '-1' }))).toBe('takingAmount');
    expect(pathOf(() => parsePublicPlacementResult({ ...ok, makingAmount: 10 }))).toBe('makingAmount');
    expect(pathOf(() => parsePublicPlacementResult({ ...ok, transactionsHashes: '0xab' }))).toBe('transactionsHashes');
    expect(pathOf(() => parsePublicPlacementResult({ ...ok, tradeIDs: [1] }))).toBe('tradeIDs[0]');
    expect(parsePublicPlacementResult({ ...ok, status: 'LIVE' }).status).toBe('live');
    expect(pathOf(() => parsePublicPlacementResults([ok, { ...ok, orderID: 7 }]))).toBe('[1].orderID');
    const c = load('cancel_failed_nautilus.json') as Record<string, unknown>;
    expect(pathOf(() => parsePublicCancelResult({ ...c, canceled: [''] }))).toBe('canceled[0]');
    expect(pathOf(() => parsePublicCancelResult({ canceled: [], not_canceled: { a: 3 } }))).toBe('not_canceled.a');
    expect(pathOf(() => parsePublicCancelResult({ canceled: [], notCanceled: [] }))).toBe('notCanceled');
    expect(pathOf(() => parsePublicCancelResult({}))).toBe('canceled');
    expect(pathOf(() => parsePublicBestPrices({ 1: { BUY: 0.1234567 } }))).toBe('1.BUY');
    expect(pathOf(() => parsePublicBestPrices({ 1: { SELL: '1.01' } }))).toBe('1.SELL');
    expect(pathOf(() => parsePublicBestPrices({ 1: { BUY: 2 } }))).toBe('1.BUY');
    expect(pathOf(() => parsePublicBestPrices({ 1: 0.5 }))).toBe('1');
  });

  it('a malformed lookup through the client is EXCHANGE_BAD_RESPONSE naming the route and the path', async () => {
    h = await setup({ dialect: DIALECTS.polymarket });
    h.on(
      PATHS.getOrder,
      mut((o) => {
        o['size_matched'] = 'lots';
      }) as object,
    );
    const e = (await failure(h.clock, h.client.getOrder(P.ORDER_ID))) as ExchangeResponseError;
    expect(e).toBeInstanceOf(ExchangeResponseError);
    expect(e.code).toBe('EXCHANGE_BAD_RESPONSE');
    expect(e.message).toContain('GET /data/order/{id}');
    expect(e.message).toContain('size_matched');
  });
});

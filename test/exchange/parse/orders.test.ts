// Trading answer parsers. Real payloads: ccxt's recorded POST /order (status live) and DELETE
// /order answers. Rejections and the order record are built from docs/protocol.md §4's texts and
// interface §2.5 (no recorded real order record exists).
import { describe, expect, it } from 'vitest';
import {
  parseCancelResult,
  parseOrderLookup,
  parseOrderStatus,
  parsePlacementResult,
  parsePlacementResults,
} from '../../../src/exchange/parse/orders.js';
import type { WireOrderLookup, WirePlacementResult } from '../../../src/exchange/wire.js';
import { clone, realJson, pathOf } from './fixtures.js';

const real = realJson('clob_rest_order_responses.json') as {
  post_order_live: WirePlacementResult;
  cancel_order: unknown;
};
const ID = '0x94f351bb28cfe3d4507a24ffafa528409d6de50235f33e81e8fad12929c1cd16';

describe('placement results', () => {
  it('the real live placement is accepted; its "" amounts are null, not zero', () => {
    expect(parsePlacementResult(real.post_order_live)).toEqual({
      success: true,
      errorMsg: '',
      orderId: ID,
      status: 'live',
      takingAmount: null,
      makingAmount: null,
      accepted: true,
    });
  });

  it('accepted follows docs/protocol.md §4 exactly', () => {
    const ok = real.post_order_live;
    const accepted = (w: Record<string, unknown>): boolean => parsePlacementResult(w).accepted;
    expect(accepted({ ...ok, status: 'matched', makingAmount: '10.52', takingAmount: '21.04' })).toBe(true);
    expect(accepted({ ...ok, status: 'delayed' })).toBe(true);
    expect(accepted({ ...ok, status: 'unmatched' })).toBe(false);
    expect(accepted({ ...ok, success: false })).toBe(false);
    expect(accepted({ ...ok, errorMsg: 'not enough balance / allowance' })).toBe(false);
    expect(accepted({ ...ok, orderID: '' })).toBe(false);
    expect(accepted({ ...ok, status: '' })).toBe(false);
  });

  it('a rejection inside a /orders array keeps its reason and has no id or status', () => {
    const rej = {
      success: false,
      errorMsg: `order ${ID} is invalid. Price (0.0005) breaks minimum tick size rule: 0.001`,
      orderID: '',
      takingAmount: '',
      makingAmount: '',
      status: '',
    };
    const [a, b] = parsePlacementResults([real.post_order_live, rej]);
    expect(a!.accepted).toBe(true);
    expect(b).toEqual({
      success: false,
      errorMsg: rej.errorMsg,
      orderId: null,
      status: null,
      takingAmount: null,
      makingAmount: null,
      accepted: false,
    });
    // A minimal rejection body without the optional fields.
    expect(parsePlacementResult({ success: false, errorMsg: 'Invalid order payload' }).orderId).toBeNull();
  });

  it('matched amounts are exact millionths', () => {
    const r = parsePlacementResult({
      ...real.post_order_live,
      status: 'matched',
      makingAmount: '10.52',
      takingAmount: '21.04',
    });
    expect([r.makingAmount, r.takingAmount]).toEqual([10_520_000, 21_040_000]);
  });

  it('rejects malformed results with the path', () => {
    const ok = real.post_order_live;
    expect(pathOf(() => parsePlacementResult({ ...ok, success: 'true' }))).toBe('success');
    expect(pathOf(() => parsePlacementResult({ ...ok, status: 'LIVE' }))).toBe('status');
    expect(pathOf(() => parsePlacementResult({ ...ok, takingAmount: '-1' }))).toBe('takingAmount');
    expect(pathOf(() => parsePlacementResult({ ...ok, makingAmount: 'NaN' }))).toBe('makingAmount');
    expect(pathOf(() => parsePlacementResult({ ...ok, makingAmount: 10 }))).toBe('makingAmount');
    expect(pathOf(() => parsePlacementResults([ok, { ...ok, orderID: 7 }]))).toBe('[1].orderID');
  });
});

describe('cancel results', () => {
  it('parses the real cancel answer', () => {
    const r = parseCancelResult(real.cancel_order);
    expect(r.canceled).toEqual([ID]);
    expect(r.notCanceled.size).toBe(0);
  });

  it('keeps not_canceled reasons in a Map', () => {
    const r = parseCancelResult({
      canceled: [],
      not_canceled: { [ID]: 'Order already matched', '0xab': 'Order not found or already canceled' },
    });
    expect(r.notCanceled.get(ID)).toBe('Order already matched');
    expect(r.notCanceled.get('0xab')).toBe('Order not found or already canceled');
    expect(pathOf(() => parseCancelResult({ canceled: [ID], not_canceled: { [ID]: 3 } }))).toBe(`not_canceled.${ID}`);
    expect(pathOf(() => parseCancelResult({ canceled: [''], not_canceled: {} }))).toBe('canceled[0]');
    expect(pathOf(() => parseCancelResult({ canceled: [ID] }))).toBe('not_canceled');
  });
});

describe('order lookup', () => {
  const w: WireOrderLookup = {
    order: {
      associateTrades: ['t1'],
      id: ID,
      status: 'LIVE',
      market: '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422',
      originalSize: '10.5',
      outcome: 'Yes',
      makerAddress: '0xa0f21e6d351baa9185716b5c00c2925ed9621848',
      owner: 'f4f247b7-4ac7-ff29-a152-04fda0a8755a',
      price: '0.152',
      side: 'BUY',
      sizeMatched: '2.25',
      assetId: '16040015440196279900485035793550429453516625694844857319147506590755961451627',
      type: 'GTC',
      createdAt: '2026-06-12T18:35:37.000Z',
    },
  };

  it('parses the record into exact amounts and a time', () => {
    const r = parseOrderLookup(w);
    expect(r.price).toBe(152_000);
    expect(r.originalSize).toBe(10_500_000);
    expect(r.sizeMatched).toBe(2_250_000);
    expect(r.createdAtMs).toBe(Date.UTC(2026, 5, 12, 18, 35, 37));
    expect(r.status).toBe('LIVE');
    expect(r.associateTrades).toEqual(['t1']);
  });

  it('normalises ORDER_STATUS_ prefixed statuses', () => {
    const v = clone(w);
    (v.order as unknown as Record<string, unknown>)['status'] = 'ORDER_STATUS_CANCELED_MARKET_RESOLVED';
    expect(parseOrderLookup(v).status).toBe('CANCELED_MARKET_RESOLVED');
    for (const s of ['LIVE', 'MATCHED', 'CANCELED', 'CANCELED_MARKET_RESOLVED', 'INVALID']) {
      expect(parseOrderStatus(s, 's')).toBe(s);
      expect(parseOrderStatus(`ORDER_STATUS_${s}`, 's')).toBe(s);
    }
    expect(pathOf(() => parseOrderStatus('ORDER_STATUS_', 's'))).toBe('s');
    expect(pathOf(() => parseOrderStatus('live', 's'))).toBe('s');
  });

  it('rejects malformed records with the path', () => {
    const mut = (f: (o: Record<string, unknown>) => void): unknown => {
      const v = clone(w) as unknown as { order: Record<string, unknown> };
      f(v.order);
      return v;
    };
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['price'] = '1e-1';
          }),
        ),
      ),
    ).toBe('order.price');
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['originalSize'] = '-1';
          }),
        ),
      ),
    ).toBe('order.originalSize');
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['sizeMatched'] = '11';
          }),
        ),
      ),
    ).toBe('order.sizeMatched');
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['side'] = 'buy';
          }),
        ),
      ),
    ).toBe('order.side');
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['type'] = 'IOC';
          }),
        ),
      ),
    ).toBe('order.type');
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['createdAt'] = 1781289337;
          }),
        ),
      ),
    ).toBe('order.createdAt');
    expect(
      pathOf(() =>
        parseOrderLookup(
          mut((o) => {
            o['associateTrades'] = null;
          }),
        ),
      ),
    ).toBe('order.associateTrades');
    expect(pathOf(() => parseOrderLookup({}))).toBe('order');
  });
});

// The client's account-lifecycle methods against a local server: the exact method, CLOB path,
// query (cursor included, `MA==` first) and body the official clients send, L2 signing, the real
// answers parsed (test/fixtures/real/wire/lifecycle/), cursor following and its loop guard, the
// heartbeat's resynchronisation on a 400 that carries the current id, and every client-side check
// refusing before anything is sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientValidationError, ExchangeHttpError, ExchangeResponseError } from '../../../src/exchange/errors.js';
import { json, run } from '../http/test-server.js';
import { setup, type Harness } from './harness.js';
import { real } from './payloads.js';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});
afterEach(async () => {
  await h.close();
});

const life = (name: string): object => real(`wire/lifecycle/${name}`);
const page = (data: object[], next: string): object => ({ data, next_cursor: next, limit: 1, count: data.length });
const order = (id: string): object => ({
  ...((life('data_orders_page_rs_official.json') as { data: object[] }).data[0] as object),
  id,
});

function only(): { method: string; path: string; rawQuery: string; body: string; signed: boolean } {
  expect(h.server.requests).toHaveLength(1);
  const r = h.server.requests[0]!;
  return {
    method: r.method,
    path: r.path,
    rawQuery: r.rawQuery,
    body: r.body,
    signed: typeof r.headers['svc_signature'] === 'string',
  };
}

describe('GET /data/orders', () => {
  it('sends the filters and the first cursor, signed, and parses the page', async () => {
    h.on('GET /clob/data/orders', life('data_orders_page_rs_official.json'));
    const p = await run(h.clock, h.client.getOpenOrders({ market: '0xm', asset_id: '7' }));
    expect(only()).toEqual({
      method: 'GET',
      path: '/clob/data/orders',
      rawQuery: 'market=0xm&asset_id=7&next_cursor=MA%3D%3D',
      body: '',
      signed: true,
    });
    expect(p).toMatchObject({ nextCursor: 'next', limit: 1, count: 1, data: [{ id: '1', side: 'BUY' }] });
  });

  it('follows next_cursor to the end, and stops on a cursor seen before', async () => {
    h.on('GET /clob/data/orders', (req, res) => {
      const c = req.query.get('next_cursor');
      json(
        res,
        200,
        c === 'MA==' ? page([order('a')], 'MQ==') : c === 'MQ==' ? page([order('b')], 'LTE=') : page([], 'LTE='),
      );
    });
    const ids: string[] = [];
    await run(
      h.clock,
      (async () => {
        for await (const o of h.client.iterateOpenOrders({ id: 'x' })) ids.push(o.id);
      })(),
    );
    expect(ids).toEqual(['a', 'b']);
    expect(h.server.requests.map((r) => r.rawQuery)).toEqual([
      'id=x&next_cursor=MA%3D%3D',
      'id=x&next_cursor=MQ%3D%3D',
    ]);
    h.on('GET /clob/data/orders', (_req, res) => json(res, 200, page([order('a')], 'MA==')));
    const err = await run(
      h.clock,
      (async () => {
        for await (const _ of h.client.iterateOpenOrders()) {
          /* drain */
        }
      })(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeResponseError);
    expect(String((err as Error).message)).toMatch(/already visited/);
  });

  it('refuses the end cursor and unknown filters without sending', async () => {
    await expect(h.client.getOpenOrders({}, 'LTE=')).rejects.toBeInstanceOf(ClientValidationError);
    await expect(h.client.getOpenOrders({ owner: 'x' } as never)).rejects.toBeInstanceOf(ClientValidationError);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('GET /data/trades', () => {
  it('sends the filters in the official order and parses trades with their status', async () => {
    h.on('GET /clob/data/trades', life('data_trades_page_rs_official.json'));
    const p = await run(
      h.clock,
      h.client.getAccountTrades({ market: '0xm', after: 1_700_000_000, before: 1_800_000_000 }, 'MQ=='),
    );
    expect(only().rawQuery).toBe('market=0xm&before=1800000000&after=1700000000&next_cursor=MQ%3D%3D');
    expect(p.data[0]).toMatchObject({ status: 'MATCHED', traderSide: 'TAKER', matchTimeMs: 1_705_322_096_000 });
  });

  it('refuses an empty time window and a bad maker address before sending', async () => {
    await expect(h.client.getAccountTrades({ after: 10, before: 10 })).rejects.toThrow(/after: must be < before/);
    await expect(h.client.getAccountTrades({ maker_address: '0x12' })).rejects.toBeInstanceOf(ClientValidationError);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('GET /balance-allowance', () => {
  it('sends asset_type, token_id and signature_type and reads base units and allowances', async () => {
    h.on('GET /clob/balance-allowance', life('balance_allowance_conditional_nautilus.json'));
    const b = await run(
      h.clock,
      h.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: '123', signature_type: 0 }),
    );
    expect(only()).toMatchObject({ rawQuery: 'asset_type=CONDITIONAL&token_id=123&signature_type=0', signed: true });
    expect(b.allowances.size).toBe(3);
    await expect(h.client.getBalanceAllowance({ asset_type: 'CONDITIONAL' })).rejects.toThrow(
      /token_id: required when asset_type is CONDITIONAL/,
    );
    await expect(h.client.getBalanceAllowance({ asset_type: 'USDC' as never })).rejects.toBeInstanceOf(
      ClientValidationError,
    );
  });
});

describe('POST /v1/heartbeats', () => {
  it('starts with "" and chains the id', async () => {
    h.on('POST /clob/v1/heartbeats', { heartbeat_id: 'hb-2' });
    expect(await run(h.clock, h.client.postHeartbeat(null))).toEqual({ heartbeatId: 'hb-2', resynchronized: false });
    expect(only()).toEqual({
      method: 'POST',
      path: '/clob/v1/heartbeats',
      rawQuery: '',
      body: '{"heartbeat_id":""}',
      signed: true,
    });
    await run(h.clock, h.client.postHeartbeat('hb-2'));
    expect(h.server.requests[1]?.body).toBe('{"heartbeat_id":"hb-2"}');
  });

  it('returns the current id of a 400 as a resynchronisation, and throws other failures', async () => {
    h.on('POST /clob/v1/heartbeats', (_req, res) =>
      json(res, 400, { heartbeat_id: 'hb-current', error_msg: 'Invalid Heartbeat ID' }),
    );
    expect(await run(h.clock, h.client.postHeartbeat('hb-old'))).toEqual({
      heartbeatId: 'hb-current',
      resynchronized: true,
    });
    h.on('POST /clob/v1/heartbeats', (_req, res) => json(res, 400, { error: 'Invalid payload' }));
    await expect(run(h.clock, h.client.postHeartbeat('x'))).rejects.toBeInstanceOf(ExchangeHttpError);
    h.on('POST /clob/v1/heartbeats', { status: 'ok' });
    await expect(run(h.clock, h.client.postHeartbeat('x'))).rejects.toThrow(/heartbeat_id/);
  });
});

describe('batch cancels', () => {
  it('DELETE /orders sends the ids once each, as a JSON array', async () => {
    h.on('DELETE /clob/orders', life('cancel_orders_nautilus.json'));
    const r = await run(h.clock, h.client.cancelOrders(['0x1', '0x2', '0x1']));
    expect(only()).toEqual({
      method: 'DELETE',
      path: '/clob/orders',
      rawQuery: '',
      body: '["0x1","0x2"]',
      signed: true,
    });
    expect(r.canceled).toHaveLength(2);
    expect(await h.client.cancelOrders([])).toEqual({ canceled: [], notCanceled: new Map() });
    await expect(h.client.cancelOrders(['ok', ''])).rejects.toThrow(/orderIds\[1\]/);
    expect(h.server.requests).toHaveLength(1);
  });

  it('DELETE /cancel-all sends no body and reads the notCanceled spelling', async () => {
    h.on('DELETE /clob/cancel-all', life('cancel_all_rs_official.json'));
    const r = await run(h.clock, h.client.cancelAll());
    expect(only()).toEqual({ method: 'DELETE', path: '/clob/cancel-all', rawQuery: '', body: '', signed: true });
    expect(r.notCanceled.get('1')).toBe('the order is already canceled');
  });

  it('DELETE /cancel-market-orders sends only the keys given, and needs one', async () => {
    h.on('DELETE /clob/cancel-market-orders', life('cancel_orders_rs_official.json'));
    await run(h.clock, h.client.cancelMarketOrders({ assetId: '77' }));
    expect(only().body).toBe('{"asset_id":"77"}');
    await run(h.clock, h.client.cancelMarketOrders({ market: '0xm', assetId: '77' }));
    expect(h.server.requests[1]?.body).toBe('{"market":"0xm","asset_id":"77"}');
    await expect(h.client.cancelMarketOrders({})).rejects.toThrow(/market or assetId is required/);
    await expect(h.client.cancelMarketOrders({ market: '' })).rejects.toBeInstanceOf(ClientValidationError);
    expect(h.server.requests).toHaveLength(2);
  });
});

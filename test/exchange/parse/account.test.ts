// Parsers of the account-lifecycle answers over the real payloads (test/fixtures/real/wire/lifecycle/,
// SOURCES.md there): open-order pages, account trades with their settlement status and the
// account's own legs, batch-cancel answers, balance/allowance and the heartbeat id; and the
// errors, each naming its field path.
import { describe, expect, it } from 'vitest';
import {
  parseAccountTrade,
  parseAccountTradePage,
  parseBalanceAllowance,
  parseHeartbeatId,
  parseOpenOrderPage,
  parsePublicCancelResult,
  parseTradeStatus,
} from '../../../src/exchange/parse/index.js';
import { clone, pathOf, realJson } from './fixtures.js';

const life = (name: string): Record<string, unknown> => realJson(`wire/lifecycle/${name}`) as Record<string, unknown>;

describe('GET /data/orders pages', () => {
  it('reads the nautilus page: null associate_trades and expiration, created_at in ms, no limit/count', () => {
    const p = parseOpenOrderPage(life('data_orders_page_nautilus.json'));
    expect(p.nextCursor).toBeNull();
    expect(p.limit).toBeNull();
    expect(p.count).toBeNull();
    expect(p.data).toHaveLength(2);
    expect(p.data[0]).toMatchObject({
      id: '0xaaaa000000000000000000000000000000000000000000000000000000000001',
      status: 'LIVE',
      side: 'BUY',
      price: 600_000,
      originalSize: 200_000_000,
      sizeMatched: 0,
      type: 'GTC',
      associateTrades: [],
      createdAtMs: 1703875200001,
    });
    expect(p.data[0]).not.toHaveProperty('expiresAtMs');
    expect(p.data[1]).toMatchObject({ side: 'SELL', sizeMatched: 50_000_000, type: 'GTD', associateTrades: [] });
  });

  it("reads the official Rust client's page: lower-case side, seconds, a string expiration", () => {
    const p = parseOpenOrderPage(life('data_orders_page_rs_official.json'));
    expect(p).toMatchObject({ nextCursor: 'next', limit: 1, count: 1 });
    expect(p.data[0]).toMatchObject({
      id: '1',
      side: 'BUY',
      originalSize: 10_000_000,
      sizeMatched: 2_500_000,
      price: 450_000,
      createdAtMs: 1_705_322_096_000,
      expiresAtMs: 1_705_708_800_000,
      associateTrades: ['0xtradehash1', '0xtradehash2'],
    });
  });

  it('names the field of a malformed record or envelope', () => {
    const bad = clone(life('data_orders_page_rs_official.json'));
    ((bad['data'] as Record<string, unknown>[])[0] as Record<string, unknown>)['price'] = 0.45;
    expect(pathOf(() => parseOpenOrderPage(bad))).toBe('data[0].price');
    expect(pathOf(() => parseOpenOrderPage({ data: [] }))).toBe('next_cursor');
    expect(pathOf(() => parseOpenOrderPage({ data: null, next_cursor: 'LTE=' }))).toBe('data');
  });
});

describe('GET /data/trades', () => {
  it("reads the official Rust client's page: seconds, maker orders, the taker leg as its own", () => {
    const p = parseAccountTradePage(life('data_trades_page_rs_official.json'));
    const tr = p.data[0];
    expect(tr).toMatchObject({
      id: '1',
      takerOrderId: 'taker_123',
      side: 'BUY',
      size: 12_500_000,
      price: 420_000,
      feeRateBps: 5,
      status: 'MATCHED',
      matchTimeMs: 1_705_322_096_000,
      lastUpdateMs: 1_705_322_130_000,
      bucketIndex: 2,
      traderSide: 'TAKER',
      errorMsg: null,
      transactionHash: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcd',
    });
    expect(tr?.makerOrders.map((m) => [m.orderId, m.matchedAmount, m.side])).toEqual([
      ['maker_001', 5_000_000, 'SELL'],
      ['maker_002', 7_500_000, 'SELL'],
    ]);
    expect(tr?.ownLegs).toEqual([
      { orderId: 'taker_123', assetId: 'asset_xyz', side: 'BUY', price: 420_000, size: 12_500_000 },
    ]);
  });

  it('reads the nautilus payloads: ISO times, no maker order sides', () => {
    const p = parseAccountTradePage(life('data_trades_page_nautilus.json'));
    expect(p.data[0]).toMatchObject({
      status: 'CONFIRMED',
      matchTimeMs: Date.UTC(2024, 0, 1),
      lastUpdateMs: Date.UTC(2024, 0, 1, 0, 0, 10),
      makerOrders: [],
    });
    const one = parseAccountTrade(life('data_trade_maker_orders_nautilus.json'));
    expect(one.makerOrders.map((m) => [m.feeRateBps, m.side])).toEqual([
      [0, null],
      [10, null],
    ]);
  });

  it("finds a MAKER trade's own legs by owner, else by maker address", () => {
    const base = life('data_trade_maker_orders_nautilus.json');
    const asMaker = { ...base, trader_side: 'MAKER', owner: '00000000-0000-0000-0000-000000000003' };
    expect(parseAccountTrade(asMaker).ownLegs).toEqual([
      {
        orderId: '0xmaker02maker02maker02maker02maker02maker02maker02maker02maker02maker02',
        assetId: base['asset_id'],
        side: null,
        price: 500_000,
        size: 5_000_000,
      },
    ]);
    const byAddress = {
      ...base,
      trader_side: 'MAKER',
      owner: 'someone-else',
      maker_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    };
    expect(parseAccountTrade(byAddress).ownLegs.map((l) => l.size)).toEqual([25_000_000]);
    expect(pathOf(() => parseAccountTrade({ ...base, trader_side: 'MAKER', owner: 'x', maker_address: '0x0' }))).toBe(
      'maker_orders',
    );
  });

  it('reads every settlement status, prefixed or not, and refuses others', () => {
    for (const s of ['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED']) {
      expect(parseTradeStatus(s, 'status')).toBe(s);
      expect(parseTradeStatus(`TRADE_STATUS_${s}`, 'status')).toBe(s);
      expect(parseTradeStatus(s.toLowerCase(), 'status')).toBe(s);
    }
    const t = life('data_trade_maker_orders_nautilus.json');
    expect(pathOf(() => parseAccountTrade({ ...t, status: 'SETTLED' }))).toBe('status');
    expect(parseAccountTrade({ ...t, status: 'FAILED', err_msg: 'reverted' }).errorMsg).toBe('reverted');
    expect(parseAccountTrade({ ...t, error_msg: 'x' }).errorMsg).toBe('x');
    expect(parseAccountTrade({ ...t, transaction_hash: '' }).transactionHash).toBeNull();
    expect(pathOf(() => parseAccountTrade({ ...t, fee_rate_bps: '0.5' }))).toBe('fee_rate_bps');
    expect(pathOf(() => parseAccountTrade({ ...t, match_time: 'yesterday' }))).toBe('match_time');
    expect(pathOf(() => parseAccountTrade({ ...t, trader_side: 'BOTH' }))).toBe('trader_side');
  });
});

describe('batch cancels', () => {
  it('reads the answers in each real spelling', () => {
    const nau = parsePublicCancelResult(life('cancel_orders_nautilus.json'));
    expect(nau.canceled).toHaveLength(2);
    expect(nau.notCanceled.get('0x3333333333333333333333333333333333333333333333333333333333333333')).toBe(
      'already canceled or matched',
    );
    expect(parsePublicCancelResult(life('cancel_orders_rs_official.json'))).toEqual({
      canceled: ['1'],
      notCanceled: new Map(),
    });
    expect(parsePublicCancelResult(life('cancel_all_rs_official.json'))).toEqual({
      canceled: ['2'],
      notCanceled: new Map([['1', 'the order is already canceled']]),
    });
  });
});

describe('GET /balance-allowance', () => {
  it('reads the v2 allowances map, the older single allowance, and a numeric balance', () => {
    const cond = parseBalanceAllowance(life('balance_allowance_conditional_nautilus.json'));
    expect(cond.balance).toBe(0);
    expect([...cond.allowances.values()]).toEqual([(1n << 256n) - 1n, (1n << 256n) - 1n, (1n << 256n) - 1n]);
    const col = parseBalanceAllowance(life('balance_allowance_collateral_nautilus.json'));
    expect(col.balance).toBe(1_000_000_000); // base units: 1000 collateral
    expect(col.allowances).toEqual(new Map([['', 999_999_999_000_000n]]));
    const rs = parseBalanceAllowance(life('balance_allowance_rs_official.json'));
    expect(rs).toEqual({ balance: 0, allowances: new Map([['0x0000000000000000000000000000000000000000', 1n]]) });
  });

  it('refuses a decimal balance and a malformed allowance, naming the field', () => {
    expect(pathOf(() => parseBalanceAllowance({ balance: '250.500000' }))).toBe('balance');
    expect(pathOf(() => parseBalanceAllowance({ balance: '1', allowances: { '0xa': '-1' } }))).toBe('allowances.0xa');
    expect(pathOf(() => parseBalanceAllowance({ balance: '1', allowances: { '0xa': (1n << 256n).toString() } }))).toBe(
      'allowances.0xa',
    );
    expect(parseBalanceAllowance({ balance: '7' })).toEqual({ balance: 7, allowances: new Map() });
  });
});

describe('heartbeat', () => {
  it('reads the id and refuses an answer without one', () => {
    expect(parseHeartbeatId({ heartbeat_id: 'abc' })).toBe('abc');
    expect(pathOf(() => parseHeartbeatId({ heartbeat_id: '' }))).toBe('heartbeat_id');
    expect(pathOf(() => parseHeartbeatId({ status: 'ok' }))).toBe('heartbeat_id');
  });
});

// Portfolio and trades parsers. Real payload: ccxt's recorded GET /trades page (numbers sent as
// strings). No licensed real payload of the interface's camelCase /positions shape exists (the
// recorded one is Polymarket's v2 snake_case API, see SOURCES.md): the position records here carry
// the real v2 values under the interface's field names, and the v2 record itself is shown rejected.
import { describe, expect, it } from 'vitest';
import { parseClosedPositions, parsePositions, parseTrades } from '../../../src/exchange/parse/portfolio.js';
import type { WireClosedPosition, WirePosition, WireTrade } from '../../../src/exchange/wire.js';
import { clone, realJson, pathOf } from './fixtures.js';

describe('GET /trades', () => {
  const real = realJson('wire/portfolio/trades_get_ccxt_2026-06-12.json') as Array<Record<string, unknown>>;

  it('parses the real page (numbers as strings) exactly', () => {
    const t = parseTrades(real);
    expect(t).toHaveLength(3);
    expect(t[0]).toMatchObject({
      side: 'BUY',
      size: 256_000_000,
      price: 152_000,
      timestamp: 1781289172,
      outcomeIndex: 0,
      outcome: 'Yes',
    });
    expect(t[1]).toMatchObject({ side: 'SELL', size: 11_770_000, price: 848_000, timestamp: 1781288635 });
  });

  it('parses the interface form (numbers as numbers)', () => {
    const w: WireTrade = {
      proxyWallet: '0xa0f2',
      side: 'BUY',
      asset: '1604',
      conditionId: '0x7ad4',
      size: 256,
      price: 0.152,
      timestamp: 1781289172,
      title: 't',
      slug: 's',
      outcome: 'Yes',
      outcomeIndex: 0,
      transactionHash: '0x3c49',
    };
    expect(parseTrades([w])[0]).toMatchObject({ size: 256_000_000, price: 152_000, timestamp: 1781289172 });
  });

  it('rejects malformed trades with the path', () => {
    const mut = (i: number, f: (o: Record<string, unknown>) => void): unknown => {
      const v = clone(real);
      f(v[i]!);
      return v;
    };
    expect(
      pathOf(() =>
        parseTrades(
          mut(2, (o) => {
            o['size'] = '-3';
          }),
        ),
      ),
    ).toBe('[2].size');
    expect(
      pathOf(() =>
        parseTrades(
          mut(1, (o) => {
            o['price'] = '1e-1';
          }),
        ),
      ),
    ).toBe('[1].price');
    expect(
      pathOf(() =>
        parseTrades(
          mut(0, (o) => {
            o['price'] = Number.NaN;
          }),
        ),
      ),
    ).toBe('[0].price');
    expect(
      pathOf(() =>
        parseTrades(
          mut(0, (o) => {
            o['timestamp'] = '17812.5';
          }),
        ),
      ),
    ).toBe('[0].timestamp');
    expect(
      pathOf(() =>
        parseTrades(
          mut(0, (o) => {
            o['side'] = 'buy';
          }),
        ),
      ),
    ).toBe('[0].side');
    expect(
      pathOf(() =>
        parseTrades(
          mut(0, (o) => {
            delete o['transactionHash'];
          }),
        ),
      ),
    ).toBe('[0].transactionHash');
  });
});

describe('GET /positions and /closed-positions', () => {
  const pos: WirePosition = {
    proxyWallet: '0x7c3db723f1d4d8cb9c550095203b686cb11e5c6b',
    asset: '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422:1',
    conditionId: '0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422',
    size: 400000,
    avgPrice: 0.5,
    initialValue: 200000,
    currentValue: 301800,
    cashPnl: 101800,
    percentPnl: 50.9,
    totalBought: 10386654,
    realizedPnl: 0,
    percentRealizedPnl: -94.1886,
    curPrice: 0.7545,
    redeemable: false,
    mergeable: true,
    negativeRisk: true,
    title: 'Will JD Vance win the 2028 US Presidential Election?',
    slug: 'will-jd-vance-win-the-2028-us-presidential-election',
    icon: '',
    eventSlug: 'presidential-election-winner-2028',
    outcome: 'No',
    oppositeOutcome: 'Yes',
    oppositeAsset: '16040015440196279900485035793550429453516625694844857319147506590755961451627',
    outcomeIndex: 1,
    timestamp: 1787499970,
    endDate: '2028-11-07',
  };

  it('converts money to millionths and keeps percentages as numbers', () => {
    const [p] = parsePositions([pos]);
    expect(p).toMatchObject({
      size: 400_000_000_000,
      avgPrice: 500_000,
      curPrice: 754_500,
      cashPnl: 101_800_000_000,
      percentPnl: 50.9,
      negativeRisk: true,
      outcomeIndex: 1,
    });
    expect(p!.percentRealizedPnl).toBe(-94.1886);
  });

  it('rounds values with more than 6 decimals by the named rules (sizes truncate, values half-even)', () => {
    const [p] = parsePositions([{ ...pos, size: 1.2345678, cashPnl: -0.0000005, avgPrice: 0.1234565 }]);
    expect(p!.size).toBe(1_234_567);
    expect(p!.cashPnl).toBe(0);
    expect(p!.avgPrice).toBe(123_456);
  });

  it('closed positions have no negativeRisk', () => {
    const { negativeRisk: _drop, ...closed } = pos;
    const c: WireClosedPosition = closed;
    const [p] = parseClosedPositions([c]);
    expect(p).not.toHaveProperty('negativeRisk');
    expect(p!.realizedPnl).toBe(0);
  });

  it('rejects malformed positions with the path', () => {
    expect(pathOf(() => parsePositions([pos, { ...pos, size: -1 }]))).toBe('[1].size');
    expect(pathOf(() => parsePositions([{ ...pos, curPrice: 1.5 }]))).toBe('[0].curPrice');
    expect(pathOf(() => parsePositions([{ ...pos, cashPnl: Infinity }]))).toBe('[0].cashPnl');
    expect(pathOf(() => parsePositions([{ ...pos, size: '400000' }]))).toBe('[0].size');
    expect(pathOf(() => parsePositions([{ ...pos, outcomeIndex: 0.5 }]))).toBe('[0].outcomeIndex');
    const { negativeRisk: _n, ...noNeg } = pos;
    expect(pathOf(() => parsePositions([noNeg]))).toBe('[0].negativeRisk');
  });

  it("Polymarket's v2 snake_case record is not the interface's shape and is refused", () => {
    expect(pathOf(() => parsePositions(realJson('data_api_v2_positions.json')))).toBe('[0].proxyWallet');
  });
});

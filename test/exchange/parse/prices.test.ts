// Price resource parsers. Real payload: the recorded GET /prices-history page (numbers sent as
// strings). The other shapes have no recorded real payload; they are built per interface §2.7 and
// docs/protocol.md §8, with values taken from the real book of 2026-06-12.
import { describe, expect, it } from 'vitest';
import {
  parseBestPrices,
  parseLastTradePrices,
  parseMidpointResponse,
  parseMidpoints,
  parsePriceHistory,
  parsePriceHistoryBatch,
  parsePriceResponse,
} from '../../../src/exchange/parse/prices.js';
import type {
  WireBestPrices,
  WireLastTradePrice,
  WireMidpoints,
  WirePriceHistoryBatch,
} from '../../../src/exchange/wire.js';
import { realJson, pathOf } from './fixtures.js';

const YES = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
const NO = '94476829201604408463453426454480212459887267917122244941405244686637914508323';

describe('price history', () => {
  const real = realJson('wire/markets/prices_history_get_ccxt_2026-06-12.json');

  it('parses the real GET /prices-history page (t and p sent as strings)', () => {
    const pts = parsePriceHistory(real);
    expect(pts).toHaveLength(30);
    expect(pts[0]).toEqual({ t: 1781282044, p: 151_000 });
    expect(pts[17]).toEqual({ t: 1781283064, p: 150_500 });
    for (let i = 1; i < pts.length; i++) expect(pts[i]!.t).toBeGreaterThan(pts[i - 1]!.t);
  });

  it('parses the interface form (numbers) and the batch form keyed by market', () => {
    const batch: WirePriceHistoryBatch = {
      history: {
        [YES]: [
          { t: 1781282044, p: 0.151 },
          { t: 1781282118, p: 0.1505 },
        ],
        [NO]: [],
      },
    };
    const m = parsePriceHistoryBatch(batch);
    expect(m.get(YES)).toEqual([
      { t: 1781282044, p: 151_000 },
      { t: 1781282118, p: 150_500 },
    ]);
    expect(m.get(NO)).toEqual([]);
  });

  it('rejects malformed points with the path', () => {
    expect(
      pathOf(() =>
        parsePriceHistory({
          history: [
            { t: 1, p: 0.5 },
            { t: 2, p: Number.NaN },
          ],
        }),
      ),
    ).toBe('history[1].p');
    expect(pathOf(() => parsePriceHistory({ history: [{ t: 1.5, p: 0.5 }] }))).toBe('history[0].t');
    expect(pathOf(() => parsePriceHistory({ history: [{ t: 1, p: '1e-3' }] }))).toBe('history[0].p');
    expect(pathOf(() => parsePriceHistory({ history: [{ t: 1, p: 1.2 }] }))).toBe('history[0].p');
    expect(pathOf(() => parsePriceHistory({ history: [{ t: '-1', p: 0.2 }] }))).toBe('history[0].t');
    expect(pathOf(() => parsePriceHistory({}))).toBe('history');
    expect(pathOf(() => parsePriceHistoryBatch({ history: { [YES]: [{ t: 1 }] } }))).toBe(`history.${YES}[0].p`);
  });
});

describe('best prices, midpoints, last trades', () => {
  it('best prices: BUY is the best bid, SELL the best ask, an absent side is null', () => {
    const w: WireBestPrices = { [YES]: { BUY: '0.005', SELL: '0.995' }, [NO]: { BUY: '0.002' } };
    const m = parseBestPrices(w);
    expect(m.get(YES)).toEqual({ bid: 5000, ask: 995_000 });
    expect(m.get(NO)).toEqual({ bid: 2000, ask: null });
    expect(pathOf(() => parseBestPrices({ [YES]: { BUY: 0.5 } }))).toBe(`${YES}.BUY`);
    expect(pathOf(() => parseBestPrices({ [YES]: '0.5' }))).toBe(YES);
  });

  it('token ids that look like object properties stay plain map keys', () => {
    const m = parseMidpoints(JSON.parse('{"__proto__": "0.5", "constructor": "0.25"}'));
    expect(m.get('__proto__')).toBe(500_000);
    expect(m.get('constructor')).toBe(250_000);
  });

  it('midpoints are exact', () => {
    const w: WireMidpoints = { [YES]: '0.5', [NO]: '0.1505' };
    expect([...parseMidpoints(w)]).toEqual([
      [YES, 500_000],
      [NO, 150_500],
    ]);
    expect(pathOf(() => parseMidpoints({ [YES]: 'NaN' }))).toBe(YES);
    expect(pathOf(() => parseMidpoints({ [YES]: '-0.1' }))).toBe(YES);
  });

  it('last trade prices: "" price is null, never zero', () => {
    const w: WireLastTradePrice[] = [
      { token_id: YES, price: '0.152', side: 'BUY' },
      { token_id: NO, price: '', side: 'SELL' },
    ];
    expect(parseLastTradePrices(w)).toEqual([
      { tokenId: YES, price: 152_000, side: 'BUY' },
      { tokenId: NO, price: null, side: 'SELL' },
    ]);
    expect(pathOf(() => parseLastTradePrices([w[0], { token_id: NO, price: '0.1', side: 'HOLD' }]))).toBe('[1].side');
    expect(pathOf(() => parseLastTradePrices([{ price: '0.1', side: 'BUY' }]))).toBe('[0].token_id');
  });

  it('GET /price and GET /midpoint', () => {
    expect(parsePriceResponse({ price: '0.52' })).toBe(520_000);
    expect(parsePriceResponse({ price: '' })).toBeNull();
    expect(parseMidpointResponse({ mid: '0.525' })).toBe(525_000);
    expect(pathOf(() => parseMidpointResponse({ mid: 0.525 }))).toBe('mid');
    expect(pathOf(() => parsePriceResponse('0.52'))).toBe('');
  });
});

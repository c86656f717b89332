import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price } from '../../../src/core/money.js';
import { cursorPage, decodeCursor, encodeCursor, END_CURSOR, FIRST_CURSOR } from '../../../src/sim/world/cursor.js';
import {
  getClobMarketSettings,
  getMarket,
  getNegRisk,
  getTickSize,
  listMarkets,
  listSamplingMarkets,
  listSamplingSimplifiedMarkets,
  MARKETS_PAGE_SIZE,
} from '../../../src/sim/world/query-markets.js';
import { body, failure, makeWorld, START } from './helpers.js';

describe('cursor', () => {
  it('uses the protocol spellings', () => {
    expect(encodeCursor(0)).toBe(FIRST_CURSOR);
    expect(FIRST_CURSOR).toBe('MA==');
    expect(encodeCursor(-1)).toBe(END_CURSOR);
    expect(END_CURSOR).toBe('LTE=');
    expect(encodeCursor(100)).toBe('MTAw');
    expect(decodeCursor('MTAw')).toBe(100);
    expect(decodeCursor('LTE=')).toBe(-1);
  });

  it('round-trips every offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => decodeCursor(encodeCursor(n)) === n),
    );
  });

  it('rejects non-canonical or malformed cursors', () => {
    for (const bad of [
      '',
      'abc',
      'MA',
      '!!!!',
      Buffer.from('01').toString('base64'),
      Buffer.from('-2').toString('base64'),
      Buffer.from('1.5').toString('base64'),
      Buffer.from('+1').toString('base64'),
    ]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });

  it('following next cursors visits every record exactly once and ends with LTE=', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 50 }), (n, size) => {
        const all = Array.from({ length: n }, (_, i) => i);
        const seen: number[] = [];
        let offset: number | null = 0;
        let pages = 0;
        for (;;) {
          const pg = cursorPage(all, offset ?? -1, size);
          seen.push(...pg.items);
          pages++;
          if (pg.nextCursor === END_CURSOR) break;
          offset = decodeCursor(pg.nextCursor);
          if (offset === null || pages > n + 2) return false;
        }
        return seen.length === n && seen.every((v, i) => v === i);
      }),
    );
  });
});

describe('market listings', () => {
  const w = makeWorld(260, 'listing');

  it('first page: default page size, cursor to the next page', () => {
    const b = body(listMarkets(w, {}));
    expect(b.limit).toBe(MARKETS_PAGE_SIZE);
    expect(b.count).toBe(100);
    expect(b.data).toHaveLength(100);
    expect(b.next_cursor).toBe(encodeCursor(100));
    expect(body(listMarkets(w, { next_cursor: 'MA==' }))).toEqual(b);
    expect(body(listMarkets(w, { next_cursor: '' }))).toEqual(b);
  });

  it('walks all pages in market-id order, the last answering LTE=', () => {
    const ids: string[] = [];
    let cursor = FIRST_CURSOR;
    for (let i = 0; i < 10 && cursor !== END_CURSOR; i++) {
      const b = body(listMarkets(w, { next_cursor: cursor }));
      expect(b.count).toBe(b.data.length);
      ids.push(...b.data.map((m) => m.condition_id));
      cursor = b.next_cursor;
    }
    expect(cursor).toBe(END_CURSOR);
    expect(ids).toEqual(w.markets.map((m) => m.conditionId));
    const last = body(listMarkets(w, { next_cursor: encodeCursor(200) }));
    expect(last.count).toBe(60);
    expect(last.next_cursor).toBe(END_CURSOR);
  });

  it('past the end or at LTE=: empty page', () => {
    expect(body(listMarkets(w, { next_cursor: 'LTE=' }))).toEqual({
      data: [],
      next_cursor: 'LTE=',
      limit: 100,
      count: 0,
    });
    expect(body(listMarkets(w, { next_cursor: encodeCursor(5000) })).count).toBe(0);
  });

  it('page size is configurable', () => {
    const b = body(listMarkets(w, {}, { pageSize: 7 }));
    expect(b.limit).toBe(7);
    expect(b.next_cursor).toBe(encodeCursor(7));
  });

  it('bad cursor or unknown parameter → 400 {error}', () => {
    expect(failure(listMarkets(w, { next_cursor: 'zzz' }))).toEqual({
      status: 400,
      body: { error: 'invalid next_cursor' },
    });
    expect(failure(listMarkets(w, { limit: '5' }))).toEqual({ status: 400, body: { error: 'unknown_field: limit' } });
    expect(failure(listMarkets(w, { next_cursor: ['MA==', 'MA=='] })).status).toBe(400);
  });

  it('sampling listings hold exactly the open, accepting, rewarded markets', () => {
    const expected = w.markets
      .filter((m) => m.rewards !== null && !m.state.closed && m.state.acceptingOrders)
      .map((m) => m.conditionId);
    expect(expected.length).toBeGreaterThan(0);
    const got = body(listSamplingMarkets(w, {}, { pageSize: 1000 })).data;
    expect(got.map((m) => m.condition_id)).toEqual(expected);
    for (const m of got) {
      expect(m.rewards.rates.length).toBe(1);
      expect(m.status).toBe('active');
      expect(m.assets_ids).toEqual(m.tokens.map((t) => t.token_id));
    }
    const simple = body(listSamplingSimplifiedMarkets(w, {}, { pageSize: 1000 })).data;
    expect(simple.map((m) => m.condition_id)).toEqual(expected);
  });
});

describe('per-market settings and live state', () => {
  it('/clob-markets reflects tick changes, closing and resolution', () => {
    const w = makeWorld(80, 'settings');
    const m = w.markets.find((x) => !x.state.closed && x.state.tick === 10_000);
    if (m === undefined) throw new Error('no open market on 0.01');
    const s = body(getClobMarketSettings(w, m.conditionId));
    expect(s.c).toBe(m.conditionId);
    expect(s.mts).toBe(0.01);
    expect(String(s.mts)).toBe('0.01'); // the public client does result.mts.toString()
    expect(s.t).toEqual([
      { t: m.tokenIds[0], o: m.outcomes[0] },
      { t: m.tokenIds[1], o: m.outcomes[1] },
    ]);
    expect(s.mos).toBe(m.state.minOrderSize / 1e6);

    w.setTick(m.conditionId, 1_000 as Price, START + 1);
    expect(body(getClobMarketSettings(w, m.conditionId)).mts).toBe(0.001);
    expect(body(getTickSize(w, { token_id: m.tokenIds[1] }))).toEqual({ minimum_tick_size: 0.001 });
    expect(body(getMarket(w, m.conditionId)).minimum_tick_size).toBe(0.001);

    w.resolve(m.conditionId, 1, START + 2);
    const rec = body(getMarket(w, m.conditionId));
    expect(rec.closed).toBe(true);
    expect(rec.accepting_orders).toBe(false);
    expect(rec.tokens.map((t) => [t.price, t.winner])).toEqual([
      [0, false],
      [1, true],
    ]);
    expect(body(getNegRisk(w, { token_id: m.tokenIds[0] }))).toEqual({ neg_risk: m.negRisk });
  });

  it('fees: fd mirrors the fee schedule', () => {
    const w = makeWorld(400, 'fees');
    const fee = w.markets.find((m) => m.fee.takerBaseFeeBps === 1000);
    if (fee === undefined) throw new Error('no fee market');
    const s = body(getClobMarketSettings(w, fee.conditionId));
    expect(s.fd).toEqual({ r: 0.07, e: 1, to: true });
    expect([s.mbf, s.tbf]).toEqual([0, 1000]);
    const free = w.markets.find((m) => m.fee.takerBaseFeeBps === 0);
    if (free === undefined) throw new Error('no free market');
    expect(body(getClobMarketSettings(w, free.conditionId)).fd).toEqual({ r: 0, e: 0, to: false });
  });

  it('unknown market or token → 404 market not found; token_id required', () => {
    const w = makeWorld(10, 'x');
    expect(failure(getClobMarketSettings(w, '0x' + '0'.repeat(64)))).toEqual({
      status: 404,
      body: { error: 'market not found' },
    });
    expect(failure(getTickSize(w, { token_id: '123' }))).toEqual({ status: 404, body: { error: 'market not found' } });
    expect(failure(getTickSize(w, {}))).toEqual({ status: 400, body: { error: 'missing_field: token_id' } });
  });
});

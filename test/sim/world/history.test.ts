import { describe, expect, it } from 'vitest';
import type { Price } from '../../../src/core/money.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { HistoryError, LastTrades, PriceHistory } from '../../../src/sim/world/history.js';
import { body, failure, makeWorld, START } from './helpers.js';

const T = 'tok-a';
const S0 = Math.floor(START / 1000);

/** One sample a minute for `minutes` minutes: price 0.500, 0.501, … */
function filled(minutes: number, cap = 10_080): PriceHistory {
  const h = new PriceHistory(cap);
  for (let i = 0; i < minutes; i++) h.record(T, START + i * 60_000, (500_000 + i * 1_000) as Price);
  return h;
}

describe('PriceHistory', () => {
  it('startTs/endTs window, inclusive, points as {t seconds, p number}', () => {
    const h = filled(10);
    const b = body(h.query({ market: T, startTs: String(S0 + 120), endTs: String(S0 + 300) }, START));
    expect(b.history).toEqual([
      { t: S0 + 120, p: 0.502 },
      { t: S0 + 180, p: 0.503 },
      { t: S0 + 240, p: 0.504 },
      { t: S0 + 300, p: 0.505 },
    ]);
    expect(body(h.query({ market: T, startTs: String(S0 + 500) }, START)).history.map((x) => x.t)).toEqual([S0 + 540]);
    expect(body(h.query({ market: T, endTs: String(S0 + 60) }, START)).history).toHaveLength(2);
    expect(body(h.query({ market: T }, START)).history).toHaveLength(10);
  });

  it('interval ends at now; 1h keeps the last hour', () => {
    const h = filled(180);
    const now = START + 179 * 60_000;
    const hour = body(h.query({ market: T, interval: '1h' }, now)).history;
    expect(hour).toHaveLength(61);
    expect(hour[0]?.t).toBe(S0 + 119 * 60);
    expect(body(h.query({ market: T, interval: 'max' }, now)).history).toHaveLength(180);
    expect(body(h.query({ market: T, interval: '1d' }, now)).history).toHaveLength(180);
  });

  it('fidelity keeps the last sample of each bucket', () => {
    const h = filled(10);
    const b = body(h.query({ market: T, fidelity: '5' }, START)).history;
    const bucket = (t: number): number => Math.floor(t / 300);
    expect(new Set(b.map((x) => bucket(x.t))).size).toBe(b.length);
    // Each returned point is the latest sample of its bucket.
    for (const x of b) {
      const later = Array.from({ length: 10 }, (_, i) => S0 + i * 60).filter(
        (t) => bucket(t) === bucket(x.t) && t > x.t,
      );
      expect(later).toEqual([]);
    }
  });

  it('ring keeps the newest samples; same second replaces; older refused', () => {
    const h = filled(50, 20);
    const all = body(h.query({ market: T }, START)).history;
    expect(all).toHaveLength(20);
    expect(all[0]?.t).toBe(S0 + 30 * 60);
    expect(all[19]?.p).toBe(0.549);
    h.record(T, START + 49 * 60_000 + 500, 100_000 as Price);
    expect(body(h.query({ market: T }, START)).history[19]?.p).toBe(0.1);
    expect(() => h.record(T, START, 1 as Price)).toThrow(HistoryError);
    expect(() => h.record(T, START + 10 ** 9, 2_000_000 as Price)).toThrow(HistoryError);
  });

  it('errors', () => {
    const h = filled(3);
    expect(failure(h.query({}, START))).toEqual({ status: 400, body: { error: 'missing_field: market' } });
    expect(failure(h.query({ market: T, interval: '1h', startTs: '1' }, START))).toEqual({
      status: 400,
      body: { error: 'invalid_field: interval' },
    });
    expect(failure(h.query({ market: T, interval: '2h' }, START)).body).toEqual({ error: 'invalid_field: interval' });
    expect(failure(h.query({ market: T, fidelity: '0' }, START)).body).toEqual({ error: 'invalid_field: fidelity' });
    expect(failure(h.query({ market: T, startTs: '10', endTs: '5' }, START)).body).toEqual({
      error: 'invalid_field: startTs',
    });
    expect(failure(h.query({ market: T, token: 'x' }, START)).body).toEqual({ error: 'unknown_field: token' });
    expect(body(h.query({ market: 'never-sampled' }, START))).toEqual({ history: [] });
  });

  it('batch: per-market histories with start_ts/end_ts/interval/fidelity; at most 20 markets', () => {
    const h = filled(10);
    h.record('tok-b', START, 250_000 as Price);
    const b = body(h.batch({ markets: [T, 'tok-b', 'tok-c'], start_ts: S0, end_ts: S0 + 60 }, START));
    expect(b.history).toEqual({
      [T]: [
        { t: S0, p: 0.5 },
        { t: S0 + 60, p: 0.501 },
      ],
      'tok-b': [{ t: S0, p: 0.25 }],
      'tok-c': [],
    });
    expect(body(h.batch({ markets: [T], interval: '1h', fidelity: 2 }, START + 9 * 60_000)).history[T]).toHaveLength(5);
    expect(failure(h.batch({ markets: Array.from({ length: 21 }, (_, i) => `t${i}`) }, START)).body).toEqual({
      error: 'Payload exceeds the limit',
    });
    expect(failure(h.batch({}, START)).body).toEqual({ error: 'missing_field: markets' });
    expect(failure(h.batch({ markets: [] }, START)).body).toEqual({ error: 'invalid_field: markets' });
    expect(failure(h.batch({ markets: [T], start_ts: '5' }, START)).body).toEqual({ error: 'invalid_field: start_ts' });
    expect(failure(h.batch({ markets: [T], interval: '1h', end_ts: 5 }, START)).body).toEqual({
      error: 'invalid_field: interval',
    });
    expect(failure(h.batch({ markets: [T], extra: 1 }, START)).body).toEqual({ error: 'unknown_field: extra' });
    expect(failure(h.batch([T], START)).body).toEqual({ error: 'Invalid payload' });
  });

  it('sampleMids records open markets on a virtual clock', () => {
    const w = makeWorld(30, 'hist');
    const clock = new VirtualClock(START);
    const h = new PriceHistory();
    const open = w.markets.filter((m) => !m.state.closed);
    const mid = (t: string): Price | null => {
      const ref = w.token(t);
      return ref === undefined ? null : ref.market.state.prices[ref.outcomeIndex];
    };
    clock.setInterval(() => h.sampleMids(w, mid, clock.now()), 60_000);
    clock.advance(5 * 60_000);
    const m = open[0];
    if (m === undefined) throw new Error('none');
    const pts = body(h.query({ market: m.tokenIds[0] }, clock.now())).history;
    expect(pts).toHaveLength(5);
    expect(pts.every((p) => p.p === m.state.prices[0] / 1e6)).toBe(true);
    const closed = w.markets.find((x) => x.state.closed);
    if (closed !== undefined) expect(body(h.query({ market: closed.tokenIds[0] }, clock.now())).history).toEqual([]);
  });
});

describe('LastTrades', () => {
  it('keeps the latest trade per token and answers /last-trades-prices', () => {
    const l = new LastTrades();
    expect(l.priceText('a')).toBe('');
    l.record('a', 520_000 as Price, 'BUY', 10);
    l.record('a', 530_000 as Price, 'SELL', 20);
    l.record('a', 100_000 as Price, 'BUY', 15); // older: ignored
    l.record('b', 5_000 as Price, 'BUY', 1);
    expect(l.priceText('a')).toBe('0.53');
    expect(
      body(l.lastTradesPrices([{ token_id: 'b' }, { token_id: 'zz' }, { token_id: 'a' }, { token_id: 'b' }])),
    ).toEqual([
      { token_id: 'b', price: '0.005', side: 'BUY' },
      { token_id: 'a', price: '0.53', side: 'SELL' },
    ]);
    expect(failure(l.lastTradesPrices({ token_id: 'a' })).body).toEqual({ error: 'Invalid payload' });
    expect(failure(l.lastTradesPrices(Array.from({ length: 501 }, () => ({ token_id: 'a' })))).body).toEqual({
      error: 'Payload exceeds the limit',
    });
    expect(() => l.record('a', -1 as Price, 'BUY', 30)).toThrow(HistoryError);
  });
});

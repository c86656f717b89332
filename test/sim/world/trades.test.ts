import { describe, expect, it } from 'vitest';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import { PortfolioError, type Fill } from '../../../src/sim/world/portfolio.js';
import { TradeLog } from '../../../src/sim/world/trades.js';
import { body, failure, makeWorld, START } from './helpers.js';

const w = makeWorld(60, 'trades');
const [m1, m2] = w.markets.filter((m) => !m.state.closed);
const A = '0x' + 'aa'.repeat(20);
const B = '0x' + 'bb'.repeat(20);

function f(user: string, m: typeof m1, i: number, timeMs: number, hash?: string): Fill {
  if (m === undefined) throw new Error('no market');
  const base = {
    user,
    tokenId: m.tokenIds[i % 2 === 0 ? 0 : 1],
    conditionId: m.conditionId,
    side: (i % 2 === 0 ? 'BUY' : 'SELL') as 'BUY' | 'SELL',
    price: (400_000 + i * 10_000) as Price,
    size: (1_000_000 * (i + 1)) as Shares,
    feeMicros: 0 as Micros,
    timeMs,
  };
  return hash === undefined ? base : { ...base, transactionHash: hash };
}

describe('TradeLog /trades', () => {
  it('lists newest first with the protocol fields; filters by user and market', () => {
    const log = new TradeLog(w);
    log.append(f(A, m1, 0, START + 1_000, '0x' + '11'.repeat(32)));
    log.append(f(B, m1, 1, START + 2_000));
    log.append(f(A, m2, 2, START + 3_000));
    const all = body(log.query({}));
    expect(all.map((t) => t.timestamp)).toEqual(
      [START + 3_000, START + 2_000, START + 1_000].map((x) => Math.floor(x / 1000)),
    );
    const first = all[2];
    expect(first).toEqual({
      proxyWallet: A,
      side: 'BUY',
      asset: m1?.tokenIds[0],
      conditionId: m1?.conditionId,
      size: 1,
      price: 0.4,
      timestamp: Math.floor((START + 1_000) / 1000),
      title: m1?.question,
      slug: m1?.slug,
      outcome: m1?.outcomes[0],
      outcomeIndex: 0,
      transactionHash: '0x' + '11'.repeat(32),
    });
    expect(all[1]?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body(log.query({ user: A.toUpperCase().replace('0X', '0x') }))).toHaveLength(2);
    expect(body(log.query({ market: m1?.conditionId ?? '' }))).toHaveLength(2);
    expect(body(log.query({ user: A, market: `${m1?.conditionId ?? ''},${m2?.conditionId ?? ''}` }))).toHaveLength(2);
    expect(body(log.query({ limit: '1', offset: '1' }))).toEqual([all[1]]);
  });

  it('the derived hash is deterministic for the same fill sequence', () => {
    const a = new TradeLog(w);
    const b = new TradeLog(w);
    for (const log of [a, b]) {
      log.append(f(A, m1, 0, START));
      log.append(f(B, m2, 1, START));
    }
    expect(body(a.query({}))).toEqual(body(b.query({})));
  });

  it('bounded capacity drops the oldest', () => {
    const log = new TradeLog(w, 3);
    for (let i = 0; i < 5; i++) log.append(f(A, m1, i, START + i * 1000));
    expect(log.size).toBe(3);
    expect(body(log.query({})).map((t) => t.size)).toEqual([5, 4, 3]);
  });

  it('bounds and validation', () => {
    const log = new TradeLog(w);
    expect(failure(log.query({ limit: '0' })).body).toEqual({ error: 'invalid_field: limit' });
    expect(failure(log.query({ limit: '501' })).body).toEqual({ error: 'invalid_field: limit' });
    expect(failure(log.query({ offset: '10001' })).body).toEqual({ error: 'invalid_field: offset' });
    expect(failure(log.query({ user: 'x' })).body).toEqual({ error: 'invalid_field: user' });
    expect(failure(log.query({ side: 'BUY' })).body).toEqual({ error: 'unknown_field: side' });
    expect(() => log.append({ ...f(A, m1, 0, START), tokenId: '1' })).toThrow(PortfolioError);
    expect(() => log.append({ ...f(A, m1, 0, START), conditionId: m2?.conditionId ?? '' })).toThrow(PortfolioError);
  });
});

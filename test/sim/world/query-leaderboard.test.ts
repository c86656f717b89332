import { describe, expect, it } from 'vitest';
import { getLeaderboard } from '../../../src/sim/world/query-leaderboard.js';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_PERIODS } from '../../../src/sim/world/model.js';
import { body, failure, makeWorld } from './helpers.js';

const w = makeWorld(300, 'board');

describe('GET /v1/leaderboard', () => {
  it('defaults: OVERALL, DAY, by PNL descending, 25 rows, ranks 1..25', () => {
    const b = body(getLeaderboard(w, {}));
    expect(b).toHaveLength(Math.min(25, w.leaderboardFigures('OVERALL', 'DAY').length));
    expect(b.map((r) => r.rank)).toEqual(b.map((_, i) => String(i + 1)));
    for (let i = 1; i < b.length; i++) expect((b[i]?.pnl ?? 0) <= (b[i - 1]?.pnl ?? 0)).toBe(true);
    expect(
      body(getLeaderboard(w, { category: 'OVERALL', timePeriod: 'DAY', orderBy: 'PNL', limit: '25', offset: '0' })),
    ).toEqual(b);
  });

  it('orderBy VOL sorts by volume; every category and period answers', () => {
    for (const category of LEADERBOARD_CATEGORIES) {
      for (const timePeriod of LEADERBOARD_PERIODS) {
        const b = body(getLeaderboard(w, { category, timePeriod, orderBy: 'VOL', limit: '50' }));
        for (let i = 1; i < b.length; i++) expect((b[i]?.vol ?? 0) <= (b[i - 1]?.vol ?? 0)).toBe(true);
      }
    }
  });

  it('offset pages keep global ranks', () => {
    const all = body(getLeaderboard(w, { timePeriod: 'ALL', limit: '50' }));
    const second = body(getLeaderboard(w, { timePeriod: 'ALL', limit: '10', offset: '10' }));
    expect(second).toEqual(all.slice(10, 20));
    expect(second[0]?.rank).toBe('11');
  });

  it('user and userName filters return the row with its board rank', () => {
    const all = body(getLeaderboard(w, { timePeriod: 'ALL', limit: '50' }));
    const row = all[7];
    if (row === undefined) throw new Error('short board');
    expect(
      body(getLeaderboard(w, { timePeriod: 'ALL', user: row.proxyWallet.toUpperCase().replace('0X', '0x') })),
    ).toEqual([row]);
    expect(body(getLeaderboard(w, { timePeriod: 'ALL', userName: row.userName }))).toEqual([row]);
    expect(body(getLeaderboard(w, { timePeriod: 'ALL', userName: 'nobody-here' }))).toEqual([]);
    expect(body(getLeaderboard(w, { timePeriod: 'ALL', user: row.proxyWallet, userName: 'someone-else' }))).toEqual([]);
  });

  it('bounds and values: data-shaped errors', () => {
    const cases: [Record<string, string>, string][] = [
      [{ limit: '0' }, 'invalid_field: limit'],
      [{ limit: '51' }, 'invalid_field: limit'],
      [{ offset: '1001' }, 'invalid_field: offset'],
      [{ offset: '-1' }, 'invalid_field: offset'],
      [{ category: 'overall' }, 'invalid_field: category'],
      [{ category: 'SPORT' }, 'invalid_field: category'],
      [{ timePeriod: 'YEAR' }, 'invalid_field: timePeriod'],
      [{ orderBy: 'ROI' }, 'invalid_field: orderBy'],
      [{ user: '0x12' }, 'invalid_field: user'],
      [{ window: '1d' }, 'unknown_field: window'],
    ];
    for (const [q, error] of cases) expect(failure(getLeaderboard(w, q))).toEqual({ status: 400, body: { error } });
    expect(body(getLeaderboard(w, { limit: '50', offset: '1000' }))).toEqual([]);
  });
});

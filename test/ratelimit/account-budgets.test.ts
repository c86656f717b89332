// Budgets of the account-lifecycle routes (not in table 8): the public exchange's documented
// limits, each route resolved to its own buckets plus the CLOB general cap, the heartbeat to the
// general cap only, and every route key the client sends known to the limiter's route → group map.
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/exchange/client/routes.js';
import { AMBIGUOUS_ROUTES, ROUTE_API, TABLE8, budgetTableProblems } from '../../src/ratelimit/budgets.js';
import { EdgeThrottle } from '../../src/ratelimit/edge.js';
import { RouteResolver, type RouteSpec } from '../../src/ratelimit/plan.js';

const specOf = (route: string): RouteSpec => new RouteResolver<RouteSpec>(TABLE8, (s) => s).resolve(route);

describe('account-lifecycle budgets', () => {
  it('hold the documented limits', () => {
    const b = TABLE8.buckets;
    const w = (limit: number, windowMs = 10_000): { limit: number; windowMs: number } => ({ limit, windowMs });
    expect(b['clob GET /data/orders']).toEqual([w(500)]);
    expect(b['clob GET /data/trades']).toEqual([w(500)]);
    expect(b['clob GET /balance-allowance']).toEqual([w(200)]);
    expect(b['clob DELETE /orders']).toEqual([w(1000), w(15_000, 600_000)]);
    expect(b['clob DELETE /cancel-all']).toEqual([w(250), w(6000, 600_000)]);
    expect(b['clob DELETE /cancel-market-orders']).toEqual([w(1000), w(1500, 600_000)]);
    expect(budgetTableProblems(TABLE8)).toEqual([]);
  });

  it('resolve each route to its own buckets and the CLOB general cap; the heartbeat to the cap only', () => {
    expect(specOf('DELETE /cancel-all').buckets).toEqual(['clob DELETE /cancel-all', 'clob general']);
    expect(specOf('GET /data/trades').pauseBuckets).toEqual(['clob GET /data/trades']);
    expect(specOf('POST /v1/heartbeats').buckets).toEqual(['clob general']);
    expect(specOf('POST /heartbeats').api).toBe('clob');
  });

  it('know the group of every route key the client sends', () => {
    for (const d of Object.values(ROUTES)) {
      if (AMBIGUOUS_ROUTES.has(d.key)) continue;
      expect([d.key, ROUTE_API[d.key]]).toEqual([d.key, d.api === 'catalog' ? 'catalog' : d.api]);
    }
  });

  it('are enforced at the edge in every window of a route', () => {
    const edge = new EdgeThrottle(TABLE8);
    for (let i = 0; i < 250; i++) expect(edge.check('k', 'clob', 'DELETE /cancel-all', i).admitted).toBe(true);
    const refused = edge.check('k', 'clob', 'DELETE /cancel-all', 300);
    expect(refused).toMatchObject({ admitted: false, bucket: 'clob DELETE /cancel-all' });
    // The long window of DELETE /cancel-market-orders (1500 / 10 min) binds before its 10 s one over time.
    let t = 0;
    let admitted = 0;
    for (let i = 0; i < 2000; i++, t += 200)
      if (edge.check('k2', 'clob', 'DELETE /cancel-market-orders', t).admitted) admitted++;
    expect(admitted).toBe(1500);
  });
});

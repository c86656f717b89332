// Table 8 as data, route keys and groups, config validation and merging, Retry-After parsing,
// and the simulator-side EdgeThrottle.
import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS_ROUTES,
  ROUTE_API,
  TABLE8,
  budgetTableProblems,
  routeId,
  routeKey,
  scaleBudgets,
} from '../../src/ratelimit/budgets.js';
import { isRateLimitConfig, resolveRateLimitConfig } from '../../src/ratelimit/config.js';
import { RateLimitConfigError, RateLimitRouteError } from '../../src/ratelimit/errors.js';
import { RouteResolver, type RouteSpec } from '../../src/ratelimit/plan.js';
import { parseRetryAfterMs } from '../../src/ratelimit/retry-after.js';
import { EdgeThrottle } from '../../src/ratelimit/edge.js';

const specOf = (route: string, api?: 'clob' | 'catalog' | 'data'): RouteSpec =>
  new RouteResolver<RouteSpec>(TABLE8, (s) => s).resolve(route, api);

describe('table 8 as data', () => {
  it('holds the interface limits', () => {
    const b = TABLE8.buckets;
    expect(b['clob POST /order']).toEqual([
      { limit: 2400, windowMs: 10_000 },
      { limit: 24_000, windowMs: 600_000 },
    ]);
    expect(b['clob DELETE /order']).toEqual(b['clob POST /order']);
    expect(b['clob general']).toEqual([{ limit: 5000, windowMs: 10_000 }]);
    expect(b['catalog general']).toEqual([{ limit: 4000, windowMs: 10_000 }]);
    expect(b['catalog listings (/events + /markets)']).toEqual([{ limit: 900, windowMs: 10_000 }]);
    const tens = (name: string): number | undefined => b[name]?.[0]?.limit;
    expect([
      tens('catalog GET /events'),
      tens('catalog GET /markets'),
      tens('catalog GET /tags'),
      tens('catalog GET /public-search'),
      tens('clob GET /'),
      tens('clob GET /book'),
      tens('clob POST /books'),
      tens('clob GET /price'),
      tens('clob POST /prices'),
      tens('clob GET /midpoint'),
      tens('clob GET /prices-history'),
      tens('clob POST /batch-prices-history'),
      tens('data GET /trades'),
    ]).toEqual([500, 300, 200, 350, 50, 200, 80, 200, 80, 200, 100, 80, 150]);
    expect(budgetTableProblems(TABLE8)).toEqual([]);
  });

  it('maps each route to its own buckets plus its group general cap', () => {
    expect(specOf('POST /orders').buckets).toEqual(['clob POST /order', 'clob general']);
    expect(specOf('GET /events').buckets).toEqual([
      'catalog GET /events',
      'catalog listings (/events + /markets)',
      'catalog general',
    ]);
    expect(specOf('GET /markets', 'catalog').buckets).toEqual([
      'catalog GET /markets',
      'catalog listings (/events + /markets)',
      'catalog general',
    ]);
    expect(specOf('GET /markets', 'clob').buckets).toEqual(['clob general']);
    expect(specOf('GET /events/slug/{slug}').buckets).toEqual(['catalog general']);
    expect(specOf('GET /positions').buckets).toEqual(['data general']);
    expect(specOf('GET /trades').buckets).toEqual(['data GET /trades', 'data general']);
    expect(specOf('GET /v1/leaderboard').api).toBe('data');
    // 429 pauses: the route's own budget, or the general cap when it has none.
    expect(specOf('POST /orders').pauseBuckets).toEqual(['clob POST /order']);
    expect(specOf('GET /data/order/{id}').pauseBuckets).toEqual(['clob general']);
  });

  it('refuses GET /markets without a group, and unknown routes without a group', () => {
    expect(AMBIGUOUS_ROUTES.has('GET /markets')).toBe(true);
    expect(ROUTE_API['GET /markets']).toBeUndefined();
    expect(() => specOf('GET /markets')).toThrow(RateLimitRouteError);
    expect(() => specOf('GET /somewhere')).toThrow(/pass its api group/);
  });

  it('normalises request paths to route keys', () => {
    expect(routeKey('post', '/order')).toBe('POST /order');
    expect(routeKey('GET', '/book?token_id=123')).toBe('GET /book');
    expect(routeKey('GET', '/data/order/0xabc')).toBe('GET /data/order/{id}');
    expect(routeKey('GET', '/clob-markets/0xdef/')).toBe('GET /clob-markets/{condition_id}');
    expect(routeKey('GET', '/events/slug/some-event')).toBe('GET /events/slug/{slug}');
    expect(routeKey('GET', '/markets/123/tags')).toBe('GET /markets/{id}/tags');
    expect(routeKey('GET', '/comments/user_address/0x1')).toBe('GET /comments/user_address/{user_address}');
    expect(routeKey('GET', '/comments/42')).toBe('GET /comments/{id}');
    expect(routeKey('GET', '')).toBe('GET /');
    expect(routeKey('GET', '/?x=1')).toBe('GET /');
    expect(routeId('clob', 'GET /book')).toBe('clob GET /book');
  });

  it('scales every limit down by the safety factor, never below 1', () => {
    const t = scaleBudgets(TABLE8, 0.9);
    expect(t.buckets['clob POST /order']).toEqual([
      { limit: 2160, windowMs: 10_000 },
      { limit: 21_600, windowMs: 600_000 },
    ]);
    expect(scaleBudgets(TABLE8, 0.001).buckets['clob GET /']?.[0]?.limit).toBe(1);
    expect(() => scaleBudgets(TABLE8, 0)).toThrow(RateLimitConfigError);
    expect(() => scaleBudgets(TABLE8, 1.5)).toThrow(RateLimitConfigError);
  });
});

describe('resolveRateLimitConfig', () => {
  it('defaults to table 8, a 200 ms margin, no in-flight cap, memory backend; frozen', () => {
    const c = resolveRateLimitConfig();
    expect(c.marginMs).toBe(200);
    expect(c.safetyFactor).toBe(1);
    expect(c.maxInFlight).toBe(Number.POSITIVE_INFINITY);
    expect(c.backend).toEqual({ kind: 'memory' });
    expect(c.budgets.buckets['clob POST /order']).toEqual(TABLE8.buckets['clob POST /order']);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.budgets.buckets)).toBe(true);
    expect(isRateLimitConfig(c)).toBe(true);
    expect(isRateLimitConfig({ ...c })).toBe(false);
  });

  it('merges overrides, removes a general cap with null, applies the safety factor', () => {
    const c = resolveRateLimitConfig({
      safetyFactor: 0.5,
      budgets: {
        buckets: { 'data GET /positions': [{ limit: 150, windowMs: 10_000 }] },
        routes: { 'data GET /positions': ['data GET /positions'] },
        general: { data: null },
      },
      backend: { kind: 'redis', url: 'redis://:hunter2@127.0.0.1:6379' },
    });
    expect(c.budgets.buckets['data GET /positions']).toEqual([{ limit: 75, windowMs: 10_000 }]);
    expect(c.budgets.general.data).toBeUndefined();
    expect(c.budgets.buckets['clob GET /book']).toEqual([{ limit: 100, windowMs: 10_000 }]);
    expect(c.backend).toEqual({
      kind: 'redis',
      url: 'redis://:hunter2@127.0.0.1:6379',
      keyPrefix: 'oddsmaker:rl',
      timeSource: 'clock',
      connectTimeoutMs: 3000,
      commandTimeoutMs: 2000,
    });
  });

  it('names the path and the value of a bad setting, and never echoes a Redis URL', () => {
    expect(() => resolveRateLimitConfig({ marginMs: -5 })).toThrow(/ratelimit\.marginMs: .*\(got -5\)/);
    expect(() => resolveRateLimitConfig({ budgets: { buckets: { x: [{ limit: 1.5, windowMs: 10 }] } } })).toThrow(
      /ratelimit\.budgets\.buckets\.x\.0\.limit: .*\(got 1\.5\)/,
    );
    expect(() => resolveRateLimitConfig({ budgets: { routes: { 'clob GET /x': ['nope'] } } })).toThrow(
      /ratelimit\.budgets\.routes\.clob GET \/x: unknown bucket "nope"/,
    );
    expect(() => resolveRateLimitConfig({ budgets: { routes: { 'GET /x': [] } } })).toThrow(
      /must start with an API group/,
    );
    expect(() => resolveRateLimitConfig({ safetyFactor: 2 })).toThrow(RateLimitConfigError);
    expect(() => resolveRateLimitConfig({ surprise: 1 })).toThrow(/surprise/);
    let msg = '';
    try {
      resolveRateLimitConfig({ backend: { kind: 'redis', url: 5 } });
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/backend\.url.*redacted/);
    try {
      resolveRateLimitConfig({ backend: { kind: 'redis', url: 'redis://:hunter2@h', timeSource: 'moon' } });
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/timeSource/);
    expect(msg).not.toContain('hunter2');
    // Not a Redis URL: a config error (exit 2), the value not echoed either.
    try {
      resolveRateLimitConfig({ backend: { kind: 'redis', url: 'http://:hunter2@h:1' } });
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/backend\.url: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(msg).not.toContain('hunter2');
    expect(() => resolveRateLimitConfig({ backend: { kind: 'redis', url: 'redis://h', connectTimeoutMs: 0 } })).toThrow(
      /connectTimeoutMs/,
    );
  });
});

describe('parseRetryAfterMs', () => {
  it('reads delta-seconds and HTTP-dates, refuses anything else', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('1.5', now)).toBe(1500);
    expect(parseRetryAfterMs(['2', '9'], now)).toBe(2000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    for (const bad of [null, undefined, '', '-1', '1e3', 'soon', '3 s', 'NaN'])
      expect(parseRetryAfterMs(bad, now)).toBeNull();
  });
});

describe('EdgeThrottle (the simulator side)', () => {
  it('keeps each client to every window of its route, exactly, and does not count refusals', () => {
    const edge = new EdgeThrottle();
    let ok = 0;
    for (let i = 0; i < 2500; i++) if (edge.check('k1', 'clob', 'POST /orders', 0).admitted) ok++;
    expect(ok).toBe(2400);
    const d = edge.check('k1', 'clob', 'POST /order', 9_999);
    expect(d).toEqual({ admitted: false, retryAfterMs: 1, bucket: 'clob POST /order' });
    expect(edge.check('k2', 'clob', 'POST /order', 9_999).admitted).toBe(true); // another API key
    expect(edge.check('k1', 'clob', 'POST /order', 10_000).admitted).toBe(true); // refusals were not counted
    // The general cap covers routes the table does not name.
    let more = 0;
    for (let i = 0; i < 5500; i++) if (edge.check('k1', 'clob', 'GET /sampling-markets', 10_000).admitted) more++;
    expect(more).toBe(4999); // the sends at 0 have aged out; one POST /order at 10 s counts
    expect(edge.check('k1', 'clob', 'GET /sampling-markets', 10_000).admitted).toBe(false);
    edge.reset();
    expect(edge.check('k1', 'clob', 'POST /order', 10_000).admitted).toBe(true);
  });
});

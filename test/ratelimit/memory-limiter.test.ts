// MemoryRateLimiter behaviour on the virtual clock: table-8 budgets and caps, route groups,
// priorities and reservations, 429 pauses, waits and maxWaitMs, aborts, in-flight cap, metrics.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { RateLimitClosedError, RateLimitRouteError, RateLimitWaitError } from '../../src/ratelimit/errors.js';
import type { Permit, Priority } from '../../src/ratelimit/types.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/config.js';

function make(config: RateLimitConfigInput = {}): { clock: VirtualClock; lim: MemoryRateLimiter } {
  const clock = new VirtualClock();
  // The windows alone: the per-signer buckets have their own tests (signer-*.test.ts).
  return { clock, lim: new MemoryRateLimiter({ clock, config: { signerTier: 'off', ...config } }) };
}

/** A small table so that orderings are easy to read: general 10 / 1 s, trading 5 / 1 s each. */
const SMALL: RateLimitConfigInput = {
  marginMs: 0,
  budgets: {
    replace: true,
    buckets: {
      general: [{ limit: 10, windowMs: 1000 }],
      post: [{ limit: 5, windowMs: 1000 }],
      del: [{ limit: 5, windowMs: 1000 }],
      book: [{ limit: 8, windowMs: 1000 }],
    },
    general: { clob: 'general' },
    routes: {
      'clob POST /order': ['post'],
      'clob POST /orders': ['post'],
      'clob DELETE /order': ['del'],
      'clob GET /book': ['book'],
    },
  },
};

function admitN(lim: MemoryRateLimiter, route: string, n: number, priority: Priority = 'new'): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (lim.tryAcquire(route, { priority }) !== null) ok++;
  return ok;
}

describe('MemoryRateLimiter with table 8', () => {
  it('admits 2400 POST /order in a burst, then waits one window plus the margin', async () => {
    const { clock, lim } = make({ marginMs: 200 });
    expect(admitN(lim, 'POST /order', 2500)).toBe(2400);
    expect(lim.peekWaitMs('POST /order')).toBe(10_200);
    clock.advance(10_199);
    expect(lim.tryAcquire('POST /order', { priority: 'new' })).toBeNull();
    clock.advance(1);
    expect(lim.tryAcquire('POST /order', { priority: 'new' })).not.toBeNull();
  });

  it('holds the 10-minute window of 24000 on top of the 10 s burst', () => {
    const { clock, lim } = make({ marginMs: 0 });
    let admitted = 0;
    // 2400 every 10 s: the 10-minute window fills after 100 s.
    for (let s = 0; s < 600; s += 10) {
      admitted += admitN(lim, 'POST /order', 2400);
      clock.advance(10_000);
    }
    expect(admitted).toBe(24_000);
    // At t = 600 s the first burst (sent at 0) ages out of the 10-minute window.
    expect(clock.monotonic()).toBe(600_000);
    expect(admitN(lim, 'POST /order', 2500)).toBe(2400);
  });

  it('counts POST /orders in the POST /order budget, one request per call', () => {
    const { lim } = make();
    expect(admitN(lim, 'POST /orders', 1000)).toBe(1000);
    expect(admitN(lim, 'POST /order', 2000)).toBe(1400);
    expect(admitN(lim, 'DELETE /order', 10)).toBe(10);
  });

  it('applies the CLOB general cap on top of route budgets, and to routes the table does not name', () => {
    const { lim } = make();
    expect(admitN(lim, 'DELETE /order', 2400, 'cancel')).toBe(2400);
    expect(admitN(lim, 'POST /order', 2400)).toBe(2400);
    expect(admitN(lim, 'GET /book', 300, 'read')).toBe(200);
    // 5000 reached: a route without its own budget (general cap only) is refused too.
    expect(lim.tryAcquire('GET /sampling-markets', { priority: 'read' })).toBeNull();
    expect(lim.tryAcquire('GET /events', { priority: 'read' })).not.toBeNull(); // catalog is another API
    const u = lim.peekUtilisation('GET /book');
    expect(u.windows.map((w) => [w.bucket, w.used, w.limit])).toEqual([
      ['clob GET /book', 200, 200],
      ['clob general', 5000, 5000],
    ]);
  });

  it('tells the catalog markets listing from the CLOB cursor listing by api group', () => {
    const { lim } = make();
    expect(() => lim.tryAcquire('GET /markets', { priority: 'read' })).toThrow(RateLimitRouteError);
    expect(admitN2(lim, 'catalog', 400)).toBe(300);
    expect(admitN2(lim, 'clob', 400)).toBe(400);
    function admitN2(l: MemoryRateLimiter, api: 'clob' | 'catalog', n: number): number {
      let ok = 0;
      for (let i = 0; i < n; i++) if (l.tryAcquire('GET /markets', { priority: 'read', api }) !== null) ok++;
      return ok;
    }
  });

  it('enforces the combined /events + /markets cap', () => {
    const { lim } = make({
      budgets: { buckets: { 'catalog listings (/events + /markets)': [{ limit: 600, windowMs: 10_000 }] } },
    });
    expect(admitN(lim, 'GET /events', 500, 'read')).toBe(500);
    let markets = 0;
    for (let i = 0; i < 300; i++)
      if (lim.tryAcquire('GET /markets', { priority: 'read', api: 'catalog' }) !== null) markets++;
    expect(markets).toBe(100);
    // Other catalog routes only see the general cap.
    expect(admitN(lim, 'GET /events/slug/{slug}', 50, 'read')).toBe(50);
  });

  it('refuses a route it cannot place and a cost that never fits', () => {
    const { lim } = make();
    expect(() => lim.tryAcquire('GET /nowhere', { priority: 'read' })).toThrow(RateLimitRouteError);
    expect(lim.tryAcquire('GET /nowhere', { priority: 'read', api: 'clob' })).not.toBeNull();
    expect(() => lim.tryAcquire('GET /book', { priority: 'read', cost: 201 })).toThrow(RateLimitRouteError);
    expect(() => lim.tryAcquire('GET /book', { priority: 'read', cost: 0 })).toThrow(RateLimitRouteError);
    expect(lim.tryAcquire('GET /book', { priority: 'read', cost: 200 })).not.toBeNull();
    expect(lim.tryAcquire('GET /book', { priority: 'read' })).toBeNull();
  });

  it('applies the safety factor to every limit', () => {
    const { lim } = make({ safetyFactor: 0.5 });
    expect(admitN(lim, 'POST /order', 2000)).toBe(1200);
    expect(admitN(lim, 'GET /', 100, 'read')).toBe(25);
  });
});

describe('MemoryRateLimiter scheduling', () => {
  it('waits on the virtual clock and reports the send time and the wait', async () => {
    const { clock, lim } = make(SMALL);
    expect(admitN(lim, 'POST /order', 5)).toBe(5);
    let permit: Permit | undefined;
    void lim.acquire('POST /order', { priority: 'new' }).then((p) => {
      permit = p;
    });
    await clock.advanceAsync(999);
    expect(permit).toBeUndefined();
    expect(lim.queueDepth()).toEqual({ total: 1, cancel: 0, replace: 0, new: 1, read: 0 });
    await clock.advanceAsync(1);
    expect(permit?.sentAt).toBe(1000);
    expect(permit?.waitedMs).toBe(1000);
    expect(permit?.api).toBe('clob');
    expect(lim.queueDepth().total).toBe(0);
  });

  it('admits cancels first, then replacements, then new placements, then reads', async () => {
    const { clock, lim } = make(SMALL);
    // Fill the general cap with reads sent 0..9 ms: one slot frees per ms from t = 1000.
    for (let i = 0; i < 10; i++) {
      expect(lim.tryAcquire('GET /sampling-markets', { priority: 'read' })).not.toBeNull();
      clock.advance(1);
    }
    const order: string[] = [];
    const go = (route: string, priority: Priority, tag: string): void => {
      void lim.acquire(route, { priority }).then(() => order.push(tag));
    };
    go('GET /book', 'read', 'read1');
    go('POST /order', 'new', 'new1');
    go('POST /orders', 'replace', 'replace1');
    go('DELETE /order', 'cancel', 'cancel1');
    go('POST /order', 'new', 'new2');
    go('DELETE /order', 'cancel', 'cancel2');
    await clock.advanceAsync(2000);
    expect(order).toEqual(['cancel1', 'cancel2', 'replace1', 'new1', 'new2', 'read1']);
  });

  it('lets a read through past a placement blocked by its own window, keeping room for the placement', async () => {
    const { clock, lim } = make(SMALL);
    expect(admitN(lim, 'POST /order', 5)).toBe(5); // general: 5 of 10 used
    let placed = false;
    void lim.acquire('POST /order', { priority: 'new' }).then(() => {
      placed = true;
    });
    // Reads share only the general cap: they may use it, but one slot stays held for the placement.
    expect(admitN(lim, 'GET /book', 8, 'read')).toBe(4);
    await clock.advanceAsync(1000);
    expect(placed).toBe(true);
  });

  it('never lets reads starve a write: a flood of reads leaves each queued write its slot', async () => {
    const { clock, lim } = make(SMALL);
    const writes: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < 20; i++)
      void lim.acquire('POST /order', { priority: 'new' }).then((p) => writes.push(p.sentAt));
    // A read every 10 ms for 5 s.
    for (let t = 0; t < 5000; t += 10) {
      void lim.acquire('GET /sampling-markets', { priority: 'read' }).then((p) => reads.push(p.sentAt));
      await clock.advanceAsync(10);
    }
    // The writes went at their own window's pace: 5 per second, the first 5 at once.
    expect(writes.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(writes.slice(5, 10)).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(writes.length).toBe(20);
    expect(writes[19]).toBe(3000);
    expect(reads.length).toBeGreaterThan(0);
  });

  it.each([
    ['cancel', 'DELETE /order', 'new', 'POST /order'],
    ['new', 'POST /order', 'read', 'GET /book'],
  ] as const)(
    'holds room for every queued %s (%s), not only the first, against later %s (%s) requests',
    async (hiPrio, hiRoute, loPrio, loRoute) => {
      // The high-priority route's own window (2 per 2 s) outlasts the general cap's (4 per 1 s).
      const clock = new VirtualClock();
      const lim = new MemoryRateLimiter({
        clock,
        config: {
          marginMs: 0,
          budgets: {
            replace: true,
            buckets: { general: [{ limit: 4, windowMs: 1000 }], hi: [{ limit: 2, windowMs: 2000 }] },
            general: { clob: 'general' },
            routes: { [`clob ${hiRoute}`]: ['hi'] },
          },
        },
      });
      const hi: number[] = [];
      const lo: number[] = [];
      for (let i = 0; i < 4; i++) void lim.acquire(hiRoute, { priority: hiPrio }).then((p) => hi.push(p.sentAt));
      await clock.advanceAsync(1500);
      for (let i = 0; i < 3; i++) void lim.acquire(loRoute, { priority: loPrio }).then((p) => lo.push(p.sentAt));
      await clock.advanceAsync(2000);
      // Two queued high-priority requests hold two general slots: only two of the later ones go
      // at 1500, and both queued requests go the moment their own window frees.
      expect(hi).toEqual([0, 0, 2000, 2000]);
      expect(lo).toEqual([1500, 1500, 2500]);
    },
  );

  it('keeps arrival order within a route and class', async () => {
    const { clock, lim } = make(SMALL);
    const order: number[] = [];
    for (let i = 0; i < 12; i++) void lim.acquire('DELETE /order', { priority: 'cancel' }).then(() => order.push(i));
    await clock.advanceAsync(3000);
    expect(order).toEqual([...Array(12).keys()]);
  });

  it('pauses the route budget on a 429 for the Retry-After, other routes unaffected', async () => {
    const { clock, lim } = make(SMALL);
    lim.onThrottled('POST /order', 2000);
    expect(lim.tryAcquire('POST /orders', { priority: 'new' })).toBeNull();
    expect(lim.tryAcquire('DELETE /order', { priority: 'cancel' })).not.toBeNull();
    expect(lim.peekWaitMs('POST /order')).toBe(2000);
    expect(lim.peekUtilisation('POST /order').pausedForMs).toBe(2000);
    let sentAt = -1;
    void lim.acquire('POST /order', { priority: 'new' }).then((p) => {
      sentAt = p.sentAt;
    });
    await clock.advanceAsync(2500);
    expect(sentAt).toBe(2000);
  });

  it('pauses the general cap on a 429 for a route the table does not name, and uses the default pause', () => {
    const { clock, lim } = make({ ...SMALL, defaultPauseMs: 700 });
    lim.onThrottled('GET /sampling-markets', null);
    expect(lim.tryAcquire('GET /book', { priority: 'read' })).toBeNull();
    expect(lim.peekWaitMs('DELETE /order', { priority: 'cancel' })).toBe(700);
    clock.advance(700);
    expect(lim.tryAcquire('GET /book', { priority: 'read' })).not.toBeNull();
  });

  it('never refunds a request: budget used by a failed send stays used', () => {
    const { clock, lim } = make(SMALL);
    const permits = [];
    for (let i = 0; i < 5; i++) permits.push(lim.tryAcquire('POST /order', { priority: 'new' }));
    for (const p of permits) p?.release();
    clock.advance(999);
    expect(lim.tryAcquire('POST /order', { priority: 'new' })).toBeNull();
  });

  it('predicts the wait including the queue ahead, and refuses past maxWaitMs', async () => {
    const { lim } = make(SMALL);
    expect(admitN(lim, 'POST /order', 5)).toBe(5);
    expect(lim.peekWaitMs('POST /order')).toBe(1000);
    for (let i = 0; i < 5; i++) void lim.acquire('POST /order', { priority: 'new' });
    // 5 queued take the slots freeing at 1000; a sixth goes one window later.
    expect(lim.peekWaitMs('POST /order', { priority: 'new' })).toBe(2000);
    expect(lim.peekWaitMs('DELETE /order', { priority: 'cancel' })).toBe(0);
    const err = await lim.acquire('POST /order', { priority: 'new', maxWaitMs: 1500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitWaitError);
    expect((err as RateLimitWaitError).retryable).toBe(true);
    expect((err as RateLimitWaitError).retryAfterMs).toBe(2000);
    expect(lim.queueDepth().new).toBe(5);
    expect(await lim.nextFreeAt('POST /order')).toBe(Date.UTC(2026, 0, 1) + 2000);
  });

  it('removes an aborted request from the queue and lets the next one take its slot', async () => {
    const { clock, lim } = make(SMALL);
    expect(admitN(lim, 'DELETE /order', 5, 'cancel')).toBe(5);
    const ac = new AbortController();
    const first = lim.acquire('DELETE /order', { priority: 'cancel', signal: ac.signal }).catch((e: unknown) => e);
    let second: Permit | undefined;
    void lim.acquire('DELETE /order', { priority: 'cancel' }).then((p) => {
      second = p;
    });
    expect(lim.queueDepth().cancel).toBe(2);
    ac.abort(new Error('stale'));
    expect(((await first) as Error).message).toBe('stale');
    expect(lim.queueDepth().cancel).toBe(1);
    await clock.advanceAsync(1000);
    expect(second?.sentAt).toBe(1000);
    const pre = new AbortController();
    pre.abort(new Error('already'));
    await expect(lim.acquire('GET /book', { priority: 'read', signal: pre.signal })).rejects.toThrow('already');
  });

  it('caps requests in flight when maxInFlight is set, in priority order', async () => {
    const { lim } = make({ ...SMALL, maxInFlight: 2 });
    const a = lim.tryAcquire('GET /book', { priority: 'read' });
    const b = lim.tryAcquire('GET /book', { priority: 'read' });
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(lim.tryAcquire('DELETE /order', { priority: 'cancel' })).toBeNull();
    const got: string[] = [];
    void lim.acquire('GET /book', { priority: 'read' }).then(() => got.push('read'));
    void lim.acquire('DELETE /order', { priority: 'cancel' }).then(() => got.push('cancel'));
    a?.release();
    a?.release(); // idempotent
    await Promise.resolve();
    expect(got).toEqual(['cancel']);
    expect(lim.inFlightCount()).toBe(2);
    b?.release();
    await Promise.resolve();
    expect(got).toEqual(['cancel', 'read']);
  });

  it('tryAcquire honours the queue: it does not overtake a queued request of its priority', () => {
    const { lim } = make(SMALL);
    expect(admitN(lim, 'POST /order', 5)).toBe(5);
    void lim.acquire('POST /order', { priority: 'new' });
    // General has 5 free, but the queued placement holds one and POST is full anyway.
    expect(lim.tryAcquire('POST /orders', { priority: 'new' })).toBeNull();
    expect(lim.queueDepth().total).toBe(1);
    expect(lim.tryAcquire('GET /book', { priority: 'read' })).not.toBeNull();
  });

  it('rejects every waiter on close', async () => {
    const { lim } = make(SMALL);
    admitN(lim, 'POST /order', 5);
    const p = lim.acquire('POST /order', { priority: 'new' });
    await lim.close();
    await expect(p).rejects.toBeInstanceOf(RateLimitClosedError);
    await expect(lim.acquire('GET /book', { priority: 'read' })).rejects.toBeInstanceOf(RateLimitClosedError);
    expect(lim.queueDepth().total).toBe(0);
  });

  it('reports utilisation per window', () => {
    const { clock, lim } = make(SMALL);
    admitN(lim, 'POST /order', 4);
    clock.advance(500);
    admitN(lim, 'GET /book', 2, 'read');
    const u = lim.peekUtilisation('POST /order');
    expect(u.windows).toEqual([
      { bucket: 'post', limit: 5, windowMs: 1000, used: 4, utilisation: 0.8 },
      { bucket: 'general', limit: 10, windowMs: 1000, used: 6, utilisation: 0.6 },
    ]);
    clock.advance(500);
    expect(lim.peekUtilisation('POST /order').windows[1]?.used).toBe(2);
    expect(
      lim
        .bucketUsage()
        .map((w) => w.bucket)
        .sort(),
    ).toEqual(['book', 'general', 'post']);
  });
});

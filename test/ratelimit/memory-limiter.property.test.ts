// Property tests of the in-memory limiter on the virtual clock: whatever the arrivals,
// priorities and costs, no budget window ever holds more than its limit (checked by an
// independent checker), and no request is delayed by a later request of lower priority.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import type { RateLimitConfigInput } from '../../src/ratelimit/config.js';
import type { Priority } from '../../src/ratelimit/types.js';
import { checkWindow } from './support/checker.js';

type Route = 'POST /order' | 'POST /orders' | 'DELETE /order' | 'GET /book' | 'GET /sampling-markets';

/** Which table-8 budget each route's sends count in (besides the CLOB general cap). */
const BUDGET_OF: Record<Route, string | null> = {
  'POST /order': 'post',
  'POST /orders': 'post',
  'DELETE /order': 'del',
  'GET /book': 'book',
  'GET /sampling-markets': null,
};

interface Sends {
  post: number[];
  del: number[];
  book: number[];
  general: number[];
}

function newSends(): Sends {
  return { post: [], del: [], book: [], general: [] };
}

function note(s: Sends, route: Route, at: number, cost: number): void {
  const b = BUDGET_OF[route];
  for (let i = 0; i < cost; i++) {
    s.general.push(at);
    if (b !== null) s[b as 'post' | 'del' | 'book'].push(at);
  }
}

function assertTable8(s: Sends, margin: number): void {
  // The exchange's windows carry no margin: the limiter must hold them exactly.
  for (const [times, limit, w] of [
    [s.post, 2400, 10_000],
    [s.post, 24_000, 600_000],
    [s.del, 2400, 10_000],
    [s.del, 24_000, 600_000],
    [s.book, 200, 10_000],
    [s.general, 5000, 10_000],
  ] as const) {
    const c = checkWindow(times, limit, w);
    expect(c.violations).toBe(0);
    // With the margin, any limit + 1 consecutive sends are a full window + margin apart.
    expect(checkWindow(times, limit, w + margin).violations).toBe(0);
  }
}

const routeArb = fc.constantFrom<Route>(
  'POST /order',
  'POST /orders',
  'DELETE /order',
  'GET /book',
  'GET /sampling-markets',
);
const prioArb = fc.constantFrom<Priority>('cancel', 'replace', 'new', 'read');

describe('MemoryRateLimiter properties (table 8, virtual clock)', () => {
  it('tryAcquire bursts over up to 45 virtual minutes never exceed 2400 / 10 s nor 24000 / 10 min, whatever the alignment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.array(
          fc.record({
            gap: fc.integer({ min: 0, max: 9000 }),
            n: fc.integer({ min: 0, max: 900 }),
            route: routeArb,
            priority: prioArb,
            cost: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 100, maxLength: 300 },
        ),
        (margin, bursts) => {
          const clock = new VirtualClock();
          const lim = new MemoryRateLimiter({ clock, config: { marginMs: margin } });
          const sends = newSends();
          let admittedPost = 0;
          for (const b of bursts) {
            clock.advance(b.gap);
            for (let i = 0; i < b.n; i++) {
              const p = lim.tryAcquire(b.route, { priority: b.priority, cost: b.cost });
              if (p === null) break; // the rest of the burst would be refused too
              note(sends, b.route, p.sentAt, b.cost);
              if (BUDGET_OF[b.route] === 'post') admittedPost += b.cost;
            }
          }
          assertTable8(sends, margin);
          expect(admittedPost).toBe(sends.post.length);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('queued acquires with random priorities, costs and aborts never exceed any window and keep FIFO per route and class', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 300 }),
        fc.array(
          fc.record({
            gap: fc.integer({ min: 0, max: 40 }),
            n: fc.integer({ min: 1, max: 60 }),
            route: routeArb,
            priority: prioArb,
            cost: fc.integer({ min: 1, max: 3 }),
            abortAfter: fc.option(fc.integer({ min: 0, max: 20_000 }), { freq: 5 }),
          }),
          { minLength: 50, maxLength: 150 },
        ),
        async (margin, arrivals) => {
          const clock = new VirtualClock();
          const lim = new MemoryRateLimiter({ clock, config: { marginMs: margin } });
          const sends = newSends();
          const admittedSeq = new Map<string, number[]>();
          let outstanding = 0;
          let seq = 0;
          for (const a of arrivals) {
            await clock.advanceAsync(a.gap);
            for (let i = 0; i < a.n; i++) {
              const id = seq++;
              const key = `${a.route}|${a.priority}`;
              const ac = new AbortController();
              if (a.abortAfter !== null) clock.setTimeout(() => ac.abort(new Error('aborted')), a.abortAfter);
              outstanding++;
              lim
                .acquire(a.route, { priority: a.priority, cost: a.cost, signal: ac.signal })
                .then(
                  (p) => {
                    note(sends, a.route, p.sentAt, a.cost);
                    const list = admittedSeq.get(key) ?? [];
                    list.push(id);
                    admittedSeq.set(key, list);
                  },
                  () => undefined,
                )
                .finally(() => {
                  outstanding--;
                });
            }
          }
          await clock.runUntil(() => outstanding === 0 && lim.queueDepth().total === 0);
          expect(outstanding).toBe(0);
          assertTable8(sends, margin);
          for (const ids of admittedSeq.values()) expect(ids).toEqual([...ids].sort((x, y) => x - y));
        },
      ),
      { numRuns: 12 },
    );
  });
});

/** A tight table so that contention is frequent in short scenarios. */
const TIGHT: RateLimitConfigInput = {
  marginMs: 0,
  budgets: {
    replace: true,
    buckets: {
      general: [{ limit: 12, windowMs: 1000 }],
      post: [
        { limit: 6, windowMs: 1000 },
        { limit: 30, windowMs: 10_000 },
      ],
      del: [
        { limit: 4, windowMs: 1000 },
        { limit: 8, windowMs: 5000 },
      ],
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

interface Req {
  readonly at: number;
  readonly route: Route;
  readonly priority: Priority;
  readonly cost: number;
}

/** Runs the requests (sorted by arrival) and returns each one's send time, by index. */
async function runScenario(reqs: readonly Req[]): Promise<number[]> {
  const clock = new VirtualClock();
  const lim = new MemoryRateLimiter({ clock, config: TIGHT });
  const out: number[] = new Array<number>(reqs.length).fill(Number.NaN);
  let pending = 0;
  let now = 0;
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i] as Req;
    if (r.at > now) {
      await clock.advanceAsync(r.at - now);
      now = r.at;
    }
    pending++;
    void lim.acquire(r.route, { priority: r.priority, cost: r.cost }).then((p) => {
      out[i] = p.sentAt;
      pending--;
    });
  }
  await clock.runUntil(() => pending === 0);
  expect(pending).toBe(0);
  return out;
}

const reqsArb = (routes: fc.Arbitrary<{ route: Route; priority: Priority }>): fc.Arbitrary<Req[]> =>
  fc
    .array(fc.record({ gap: fc.integer({ min: 0, max: 80 }), rp: routes, cost: fc.integer({ min: 1, max: 2 }) }), {
      minLength: 20,
      maxLength: 150,
    })
    .map((xs) => {
      let t = 0;
      return xs.map((x) => {
        t += x.gap;
        return { at: t, route: x.rp.route, priority: x.rp.priority, cost: x.cost };
      });
    });

describe('MemoryRateLimiter priority properties (virtual clock)', () => {
  it('a cancel never waits behind a placement or read that arrived after it', async () => {
    const mixed = fc.oneof(
      fc.constant({ route: 'DELETE /order' as Route, priority: 'cancel' as Priority }),
      fc
        .constantFrom<Route>('POST /order', 'POST /orders')
        .chain((route) => fc.constantFrom<Priority>('replace', 'new').map((priority) => ({ route, priority }))),
      fc
        .constantFrom<Route>('GET /book', 'GET /sampling-markets')
        .map((route) => ({ route, priority: 'read' as Priority })),
    );
    await fc.assert(
      fc.asyncProperty(reqsArb(mixed), fc.nat(), async (reqs, cutSeed) => {
        const full = await runScenario(reqs);
        // Remove every non-cancel arriving after the cut: cancels arriving up to the cut must be
        // sent at exactly the same times, so no later placement or read delayed any of them.
        const cut = (reqs[cutSeed % reqs.length] as Req).at;
        const keep = reqs.map((r, i) => ({ r, i })).filter(({ r }) => r.priority === 'cancel' || r.at <= cut);
        const partial = await runScenario(keep.map((k) => k.r));
        keep.forEach(({ r, i }, j) => {
          if (r.priority === 'cancel' && r.at <= cut) expect(partial[j]).toBe(full[i]);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('reads never delay a trading write that arrived before them', async () => {
    const mixed = fc.oneof(
      fc.constant({ route: 'POST /order' as Route, priority: 'new' as Priority }),
      fc
        .constantFrom<Route>('GET /book', 'GET /sampling-markets')
        .map((route) => ({ route, priority: 'read' as Priority })),
    );
    await fc.assert(
      fc.asyncProperty(reqsArb(mixed), fc.nat(), async (reqs, cutSeed) => {
        const full = await runScenario(reqs);
        const cut = (reqs[cutSeed % reqs.length] as Req).at;
        const keep = reqs.map((r, i) => ({ r, i })).filter(({ r }) => r.priority !== 'read' || r.at <= cut);
        const partial = await runScenario(keep.map((k) => k.r));
        keep.forEach(({ r, i }, j) => {
          if (r.priority !== 'read' && r.at <= cut) expect(partial[j]).toBe(full[i]);
        });
      }),
      { numRuns: 100 },
    );
  });
});

// A rate limiter that cannot answer (its shared store down) is a failure the order manager
// surfaces, not a full budget it waits out: the apply rejects with the limiter's error within
// bounded virtual time, nothing is placed, the failure is counted in health() and logged once per
// streak, and placements resume when the limiter answers again. A route whose cost can never fit
// stays what it was: the placements are dropped as pressure.
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitRouteError, RateLimitStoreError } from '../../src/ratelimit/errors.js';
import type { RateLimiter } from '../../src/ratelimit/types.js';
import { TOKEN_A, drive, q, setup, type Harness, type HarnessOptions } from './harness.js';

const harnesses: Harness[] = [];
function make(opts: HarnessOptions): Harness {
  const h = setup(opts);
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

type Answer = 'ok' | 'store-down' | 'never-fits' | 'budget-unreadable';

/** The manager's view of the limiter; `answer` says how its next calls end. */
function switchable(): { limiter: Pick<RateLimiter, 'wouldWaitMs' | 'utilisation'>; set: (a: Answer) => void } {
  let answer: Answer = 'ok';
  const fail = (): Promise<never> =>
    Promise.reject(
      answer === 'never-fits'
        ? new RateLimitRouteError('POST /orders: a cost of 2 never fits the window')
        : new RateLimitStoreError('rate-limit store unavailable: Redis at 127.0.0.1:6379 closed the connection', null),
    );
  return {
    set: (a) => {
      answer = a;
    },
    limiter: {
      wouldWaitMs: () => (answer === 'ok' || answer === 'budget-unreadable' ? Promise.resolve(0) : fail()),
      utilisation: (route) =>
        answer === 'store-down' || answer === 'budget-unreadable'
          ? fail()
          : Promise.resolve({ route, api: 'clob', windows: [], pausedForMs: 0, queued: 0 }),
    },
  };
}

function logger(): {
  lines: Array<{ level: string; msg: string }>;
  log: Record<'debug' | 'info' | 'warn' | 'error', (o: object, m?: string) => void>;
} {
  const lines: Array<{ level: string; msg: string }> = [];
  const at =
    (level: string) =>
    (_o: object, msg?: string): void => {
      lines.push({ level, msg: msg ?? '' });
    };
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('OrderManager: a failing rate limiter', () => {
  it('fails the apply with the limiter error, counts it, logs it once per streak, and resumes', async () => {
    const s = switchable();
    const l = logger();
    const h = make({ manager: { limiter: s.limiter, logger: l.log } });
    s.set('store-down');
    const started = h.clock.now();
    await expect(drive(h.clock, h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]))).rejects.toMatchObject({
      code: 'RATE_LIMIT_STORE',
    });
    await expect(drive(h.clock, h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]))).rejects.toMatchObject({
      code: 'RATE_LIMIT_STORE',
    });
    // Bounded: the failure is immediate, no virtual time waited out.
    expect(h.clock.now() - started).toBe(0);
    expect(h.venue.liveOrders()).toHaveLength(0);
    expect(h.om.health().limiterFailures).toBe(2);
    expect(h.om.fillReads().limiterFailures).toBe(2); // what /status, /healthz and /metrics read
    expect(l.lines.filter((x) => x.level === 'error' && x.msg.includes('rate limiter failed'))).toHaveLength(1);

    s.set('ok');
    const r = await drive(h.clock, h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]));
    expect(r.accepted).toBe(1);
    expect(h.venue.liveOrders()).toHaveLength(1);
    expect(l.lines.some((x) => x.level === 'info' && x.msg.includes('answers again'))).toBe(true);
    expect(h.om.health().limiterFailures).toBe(2);
  });

  it('a cancel budget that cannot be read fails the apply too, rather than holding placements as cancel-reserve', async () => {
    const s = switchable();
    const h = make({ manager: { limiter: s.limiter } });
    s.set('budget-unreadable');
    await expect(drive(h.clock, h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]))).rejects.toMatchObject({
      code: 'RATE_LIMIT_STORE',
    });
    expect(h.venue.liveOrders()).toHaveLength(0);
    expect(h.om.health()).toMatchObject({ limiterFailures: 1, placementHold: null });
  });

  it('a cost that can never fit a window is dropped as pressure, not a failure', async () => {
    const s = switchable();
    const h = make({ manager: { limiter: s.limiter } });
    s.set('never-fits');
    const r = await drive(h.clock, h.cycle([q(TOKEN_A, 'BUY', 0.4, 10)]));
    expect(r.dropped.map((d) => d.reason)).toEqual(['pressure']);
    expect(h.om.health().limiterFailures).toBe(0);
  });
});

// SlidingWindowLog and WindowSet: exact admission (admitted iff the window ending now has room),
// margin, costs and reservations, checked against a brute-force count and the independent checker.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SlidingWindowLog, WindowSet } from '../../src/ratelimit/window.js';
import { checkWindow } from './support/checker.js';
import { RateLimitConfigError } from '../../src/ratelimit/errors.js';

describe('SlidingWindowLog', () => {
  it('admits exactly limit sends in a window and frees each slot one window after its send', () => {
    const w = new SlidingWindowLog(3, 1000);
    expect(w.tryAdmit(0)).toBe(true);
    expect(w.tryAdmit(100)).toBe(true);
    expect(w.tryAdmit(200)).toBe(true);
    expect(w.tryAdmit(999)).toBe(false);
    expect(w.retryAfterMs(999)).toBe(1);
    expect(w.tryAdmit(1000)).toBe(true); // the send at 0 has aged out
    expect(w.tryAdmit(1099)).toBe(false);
    expect(w.retryAfterMs(1099)).toBe(1);
    expect(w.tryAdmit(1100)).toBe(true);
  });

  it('adds the margin to the window', () => {
    const w = new SlidingWindowLog(1, 1000, 50);
    expect(w.tryAdmit(0)).toBe(true);
    expect(w.tryAdmit(1000)).toBe(false);
    expect(w.retryAfterMs(1000)).toBe(50);
    expect(w.tryAdmit(1050)).toBe(true);
  });

  it('counts a cost as that many sends and keeps reservations free', () => {
    const w = new SlidingWindowLog(5, 1000);
    expect(w.tryAdmit(0, 3)).toBe(true);
    expect(w.hasRoom(10, 3)).toBe(false);
    expect(w.hasRoom(10, 2)).toBe(true);
    expect(w.hasRoom(10, 1, 1)).toBe(true);
    expect(w.hasRoom(10, 1, 2)).toBe(false);
    expect(w.waitMs(10, 1, 2)).toBe(990);
    expect(w.waitMs(10, 3, 3)).toBe(Number.POSITIVE_INFINITY);
    expect(w.count(10)).toBe(3);
    expect(w.count(1000)).toBe(0);
  });

  it('records a time that goes backwards as the last time (never expires early)', () => {
    const w = new SlidingWindowLog(2, 1000);
    w.record(500);
    w.record(400);
    expect(w.count(1499)).toBe(2);
    expect(w.count(1500)).toBe(0);
  });

  it('predicts slots beyond one window by chaining spans', () => {
    const w = new SlidingWindowLog(2, 1000);
    w.record(0);
    w.record(0);
    expect(w.waitForSlotMs(0, 1)).toBe(1000);
    expect(w.waitForSlotMs(0, 2)).toBe(1000);
    expect(w.waitForSlotMs(0, 3)).toBe(2000);
    expect(w.waitForSlotMs(0, 5)).toBe(3000);
  });

  it('rejects invalid shapes', () => {
    expect(() => new SlidingWindowLog(0, 1000)).toThrow(RateLimitConfigError);
    expect(() => new SlidingWindowLog(1.5, 1000)).toThrow(RateLimitConfigError);
    expect(() => new SlidingWindowLog(1, 0)).toThrow(RateLimitConfigError);
    expect(() => new SlidingWindowLog(1, 10, -1)).toThrow(RateLimitConfigError);
  });

  it('property: greedy admission never puts more than limit sends in any window, and refuses only when full', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 120 }), cost: fc.integer({ min: 1, max: 4 }) }), {
          maxLength: 400,
        }),
        (limit, windowMs, margin, arrivals) => {
          const w = new SlidingWindowLog(limit, windowMs, margin);
          const sent: number[] = [];
          let now = 0;
          for (const a of arrivals) {
            now += a.gap;
            const cost = Math.min(a.cost, limit);
            const before = sent.filter((t) => now - t < windowMs + margin).length;
            const ok = w.tryAdmit(now, cost);
            // Exactness both ways: admitted iff it fits in the window ending now.
            expect(ok).toBe(before + cost <= limit);
            if (ok) for (let i = 0; i < cost; i++) sent.push(now);
            expect(w.count(now)).toBe(sent.filter((t) => now - t < windowMs + margin).length);
          }
          expect(checkWindow(sent, limit, windowMs + margin).violations).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('WindowSet', () => {
  it('admits only when every window has room and records in all', () => {
    const set = WindowSet.of([
      { limit: 2, windowMs: 100 },
      { limit: 3, windowMs: 1000 },
    ]);
    expect(set.tryAdmit(0)).toBe(true);
    expect(set.tryAdmit(0)).toBe(true);
    expect(set.tryAdmit(50)).toBe(false); // short window full
    expect(set.retryAfterMs(50)).toBe(50);
    expect(set.tryAdmit(100)).toBe(true);
    expect(set.tryAdmit(200)).toBe(false); // long window full, short has room
    expect(set.retryAfterMs(200)).toBe(800);
    expect(set.windows[0]?.count(150)).toBe(1);
    expect(set.windows[0]?.count(200)).toBe(0);
    expect(set.tryAdmit(1000)).toBe(true);
  });
});

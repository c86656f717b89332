// The virtual clock: time moves only when advanced; timers fire in time order, ties in creation order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';

describe('VirtualClock', () => {
  it('fires timers in time order, ties in creation order', () => {
    const c = new VirtualClock(1_000);
    const seen: string[] = [];
    c.setTimeout(() => seen.push('b@20'), 20);
    c.setTimeout(() => seen.push('a@10'), 10);
    c.setTimeout(() => seen.push('c@20'), 20);
    const cancelled = c.setTimeout(() => seen.push('never'), 15);
    c.clearTimeout(cancelled);
    c.advance(19);
    expect(seen).toEqual(['a@10']);
    expect(c.now()).toBe(1_019);
    c.advance(1);
    expect(seen).toEqual(['a@10', 'b@20', 'c@20']);
    expect(c.pending()).toBe(0);
  });
  it('a timer sees the time it was due at, and can schedule more', () => {
    const c = new VirtualClock(0);
    const at: number[] = [];
    c.setTimeout(() => {
      at.push(c.now());
      c.setTimeout(() => at.push(c.now()), 5);
    }, 10);
    c.advance(100);
    expect(at).toEqual([10, 15]);
    expect(c.now()).toBe(100);
  });
  it('intervals repeat until cleared', () => {
    const c = new VirtualClock(0);
    let n = 0;
    const id = c.setInterval(() => {
      n++;
      if (n === 3) c.clearInterval(id);
    }, 10);
    c.advance(1_000);
    expect(n).toBe(3);
  });
  it('sleep resolves on advanceAsync and rejects on abort', async () => {
    const c = new VirtualClock(0);
    let done = false;
    void c.sleep(50).then(() => {
      done = true;
    });
    await c.advanceAsync(49);
    expect(done).toBe(false);
    await c.advanceAsync(1);
    expect(done).toBe(true);
    const ac = new AbortController();
    const p = c.sleep(10, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
  });
  it('runs any schedule in nondecreasing time order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.boolean()), { maxLength: 200 }), (specs) => {
        const c = new VirtualClock(0);
        const fired: number[] = [];
        const ids = specs.map(([d]) => c.setTimeout(() => fired.push(c.now()), d));
        specs.forEach(([, cancel], i) => {
          if (cancel) c.clearTimeout(ids[i] as number);
        });
        c.advance(2000);
        expect(fired.length).toBe(specs.filter(([, x]) => !x).length);
        for (let i = 1; i < fired.length; i++) expect(fired[i]).toBeGreaterThanOrEqual(fired[i - 1] as number);
      }),
    );
  });
});

// The flow's agenda pops in (time, insertion) order, whatever the order of pushes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../../src/sim/flow/event-queue.js';

describe('EventQueue', () => {
  it('pops by time, ties in push order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 }), (times) => {
        const q = new EventQueue();
        const ran: number[] = [];
        times.forEach((t, i) =>
          q.push(t, {
            run: () => {
              ran.push(i);
            },
          }),
        );
        expect(q.size).toBe(times.length);
        let last = -1;
        for (;;) {
          const at = q.peekTime();
          const e = q.pop();
          if (e === undefined) break;
          expect(e.at).toBe(at);
          expect(e.at).toBeGreaterThanOrEqual(last);
          last = e.at;
          e.task.run(e.at);
        }
        const want = times
          .map((t, i) => [t, i] as const)
          .sort((a, b) => a[0] - b[0] || a[1] - b[1])
          .map(([, i]) => i);
        expect(ran).toEqual(want);
        expect(q.peekTime()).toBe(Number.POSITIVE_INFINITY);
      }),
    );
  });

  it('accepts pushes while popping', () => {
    const q = new EventQueue();
    const seen: string[] = [];
    q.push(10, {
      run: (at) => {
        seen.push(`a${at}`);
        q.push(at + 5, {
          run: (t) => {
            seen.push(`c${t}`);
          },
        });
      },
    });
    q.push(12, {
      run: (at) => {
        seen.push(`b${at}`);
      },
    });
    for (let e = q.pop(); e !== undefined; e = q.pop()) e.task.run(e.at);
    expect(seen).toEqual(['a10', 'b12', 'c15']);
  });
});

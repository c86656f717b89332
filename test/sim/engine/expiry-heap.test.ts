// The expiry heap pops in expiry order, ties in insertion order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpiryHeap } from '../../../src/sim/engine/expiry-heap.js';
import type { OrderNode } from '../../../src/sim/engine/order.js';

describe('ExpiryHeap', () => {
  it('pops by (expiry, insertion order)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 300 }), (times) => {
        const h = new ExpiryHeap();
        const nodes = times.map((t, i) => ({ id: `o${i}`, expiresAtMs: t }) as unknown as OrderNode);
        for (const n of nodes) h.push(n);
        expect(h.size).toBe(nodes.length);
        const out: OrderNode[] = [];
        for (let n = h.pop(); n !== undefined; n = h.pop()) out.push(n);
        const want = nodes
          .map((n, i) => ({ n, i }))
          .sort((a, b) => a.n.expiresAtMs - b.n.expiresAtMs || a.i - b.i)
          .map((x) => x.n);
        expect(out).toEqual(want);
        expect(h.peekTime()).toBe(Number.POSITIVE_INFINITY);
      }),
    );
  });
});

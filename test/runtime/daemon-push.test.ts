// The daemon's push feed (the backtester's update-by-update cadence): no poller runs, each push()
// is one cycle on the snapshot given, in push order, never overlapping; a polling daemon refuses
// push(); stop() waits for the pushed cycle in progress.
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../../src/core/errors.js';
import { harness } from './harness.js';

async function snapshotOf(h: ReturnType<typeof harness>) {
  const tokens = h.daemon.status().markets.flatMap((m) => m.tokens);
  const [books, mids] = await Promise.all([h.gw.getBooks(tokens), h.gw.getMidpoints(tokens)]);
  return { receivedAtMs: h.clock.now(), books, mids, complete: true };
}

describe('daemon push feed', () => {
  it('cycles only when pushed, once per push, in order', async () => {
    const h = harness({ feed: 'push' });
    await h.daemon.start();
    await h.clock.advanceAsync(10_000);
    // No poller: ten poll intervals passed and no cycle ran, no book was fetched by the daemon.
    expect(h.cycleLines()).toHaveLength(0);
    expect(h.trace.filter((t) => t === 'strategy.quote')).toHaveLength(0);
    const s1 = await snapshotOf(h);
    const fetched = h.gw.calls.books.length;
    await Promise.all([h.daemon.push(s1), h.daemon.push(s1), h.daemon.push(s1)]);
    expect(h.gw.calls.books.length).toBe(fetched);
    expect(h.cycleLines()).toHaveLength(3);
    expect(h.daemon.status().cycles).toBe(3);
    // The first push quoted every market (2 × 2 tokens × 3 bids); the next two changed nothing.
    expect(h.executor.liveOrders()).toHaveLength(12);
    expect(h.cycleLines().map((l) => l['placed'])).toEqual([12, 0, 0]);
    const r = await h.daemon.stop();
    expect(r.cancelAll?.cancelled).toBe(12);
  });

  it('a polling daemon refuses push()', async () => {
    const h = harness();
    await h.daemon.start();
    expect(() => h.daemon.push({ receivedAtMs: h.clock.now(), books: [], mids: new Map(), complete: true })).toThrow(
      InvariantError,
    );
    await h.daemon.stop();
  });

  it('a push after stop runs no cycle', async () => {
    const h = harness({ feed: 'push' });
    await h.daemon.start();
    const s = await snapshotOf(h);
    await h.daemon.stop();
    await h.daemon.push(s);
    expect(h.cycleLines()).toHaveLength(0);
  });
});

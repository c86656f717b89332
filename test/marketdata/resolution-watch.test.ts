// ResolutionWatch against a fake GET /markets listing on the virtual clock (no sleeps): found on a
// later page, found-not-resolved then resolved through the remembered page only, the request budget
// (sliding window and page cap, also as a property), an unfinished scan resumed, give-up, two
// markets, failures retried, stop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { MarketsPage } from '../../src/core/market.js';
import {
  FIRST_PAGE_CURSOR,
  ResolutionWatch,
  type GiveUp,
  type ListedMarket,
  type MarketResolved,
  type ResolutionWatchOptions,
} from '../../src/marketdata/resolution-watch.js';
import { T0 } from './helpers.js';
import { OptionError } from '../../src/core/errors.js';

const MIN = 60_000;

interface Rec {
  conditionId: string;
  closed: boolean;
  tokens: Array<{ tokenId: string | null; winner: boolean }>;
}

const cursorOf = (offset: number): string => Buffer.from(String(offset), 'ascii').toString('base64');
const offsetOf = (cursor: string): number => Number(Buffer.from(cursor, 'base64').toString('ascii'));

/** A listing of `n` markets c0…c(n-1), `pageSize` per page, cursors base64 offsets as the exchange's. */
class FakeListing {
  readonly markets: Rec[];
  readonly calls: Array<{ cursor: string; atMs: number }> = [];
  failNext = 0;
  /** Cursor → how many more requests of it fail. */
  readonly failCursor = new Map<string, number>();
  constructor(
    private readonly clock: VirtualClock,
    n: number,
    private readonly pageSize: number,
  ) {
    this.markets = Array.from({ length: n }, (_, i) => ({
      conditionId: `c${i}`,
      closed: false,
      tokens: [
        { tokenId: `c${i}-yes`, winner: false },
        { tokenId: `c${i}-no`, winner: false },
      ],
    }));
  }

  resolve(id: string, winner: 0 | 1): void {
    const m = this.markets.find((x) => x.conditionId === id) as Rec;
    m.closed = true;
    (m.tokens[winner] as { winner: boolean }).winner = true;
  }

  pageOf(id: string): string {
    const i = this.markets.findIndex((x) => x.conditionId === id);
    return cursorOf(Math.floor(i / this.pageSize) * this.pageSize);
  }

  readonly list = async (cursor: string, signal: AbortSignal): Promise<MarketsPage<ListedMarket>> => {
    signal.throwIfAborted();
    this.calls.push({ cursor, atMs: this.clock.now() });
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('HTTP 503');
    }
    const f = this.failCursor.get(cursor) ?? 0;
    if (f > 0) {
      this.failCursor.set(cursor, f - 1);
      throw new Error(`HTTP 400 at ${cursor}`);
    }
    const off = offsetOf(cursor);
    const data = this.markets
      .slice(off, off + this.pageSize)
      .map((m) => ({ ...m, tokens: m.tokens.map((t) => ({ ...t })) }));
    const end = off + this.pageSize >= this.markets.length;
    return { data, nextCursor: end ? null : cursorOf(off + this.pageSize), limit: this.pageSize, count: data.length };
  };
}

function setup(n: number, pageSize: number, over: Partial<ResolutionWatchOptions> = {}) {
  const clock = new VirtualClock(T0);
  const listing = new FakeListing(clock, n, pageSize);
  const resolved: MarketResolved[] = [];
  const gaveUp: GiveUp[] = [];
  const errors: unknown[] = [];
  const watch = new ResolutionWatch({
    clock,
    listPage: listing.list,
    onResolved: (r) => {
      resolved.push(r);
    },
    onGiveUp: (g) => {
      gaveUp.push(g);
    },
    onError: (e) => {
      errors.push(e);
    },
    ...over,
  });
  return { clock, listing, watch, resolved, gaveUp, errors };
}

describe('ResolutionWatch', () => {
  it('scans the listing and reports a resolved market found on a later page, once', async () => {
    const s = setup(10, 3);
    s.listing.resolve('c7', 1);
    s.watch.watch('c7');
    await s.clock.advanceAsync(0);
    expect(s.resolved).toEqual([
      {
        conditionId: 'c7',
        winnerTokenId: 'c7-no',
        tokens: [
          { tokenId: 'c7-yes', winner: false },
          { tokenId: 'c7-no', winner: true },
        ],
      },
    ]);
    // Pages 0, 3, 6: the scan stops once nothing is left to find.
    expect(s.listing.calls.map((c) => c.cursor)).toEqual([FIRST_PAGE_CURSOR, cursorOf(3), cursorOf(6)]);
    expect(s.watch.watching()).toEqual([]);
    // Nothing watched: no more turns, and the reported market is not watched again.
    s.watch.watch('c7');
    await s.clock.advanceAsync(60 * MIN);
    expect(s.listing.calls).toHaveLength(3);
    expect(s.resolved).toHaveLength(1);
    expect(s.clock.pending()).toBe(0);
  });

  it('remembers the page of a market found not resolved and fetches only that page afterwards', async () => {
    const s = setup(10, 3, { intervalMs: 10 * MIN });
    s.watch.watch('c4');
    await s.clock.advanceAsync(0);
    expect(s.listing.calls.map((c) => c.cursor)).toEqual([FIRST_PAGE_CURSOR, cursorOf(3)]);
    expect(s.resolved).toEqual([]);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.listing.calls.map((c) => c.cursor).slice(2)).toEqual([cursorOf(3)]);
    s.listing.resolve('c4', 0);
    await s.clock.advanceAsync(10 * MIN - 1);
    expect(s.resolved).toEqual([]);
    await s.clock.advanceAsync(1);
    expect(s.listing.calls.map((c) => c.cursor).slice(3)).toEqual([cursorOf(3)]);
    expect(s.resolved.map((r) => [r.conditionId, r.winnerTokenId])).toEqual([['c4', 'c4-yes']]);
    expect(s.watch.stats()).toMatchObject({ requests: 4, resolved: 1, turns: 3 });
  });

  it('a closed market with no winner yet is not resolved; a winner not closed neither', async () => {
    const s = setup(4, 2, { intervalMs: MIN });
    const m = s.listing.markets[1] as Rec;
    m.closed = true;
    s.listing.markets[2]!.tokens[0]!.winner = true; // not closed
    s.watch.watch('c1');
    s.watch.watch('c2');
    await s.clock.advanceAsync(0);
    expect(s.resolved).toEqual([]);
    s.listing.markets[1]!.tokens[1]!.winner = true;
    await s.clock.advanceAsync(MIN);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c1']);
    expect(s.watch.watching()).toEqual(['c2']);
  });

  it('keeps to the sliding-window budget, waiting on the clock', async () => {
    const s = setup(40, 2, { budget: { requests: 3, windowMs: 10_000 } });
    s.listing.resolve('c39', 0);
    s.watch.watch('c39');
    await s.clock.runUntil(() => s.resolved.length > 0);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c39']);
    const times = s.listing.calls.map((c) => c.atMs);
    expect(times).toHaveLength(20);
    for (let i = 3; i < times.length; i++)
      expect((times[i] as number) - (times[i - 3] as number)).toBeGreaterThanOrEqual(10_000);
    // 20 pages at 3 per 10 s: the last one goes out after 60 s, not sooner.
    expect((times.at(-1) as number) - T0).toBe(60_000);
    expect(s.watch.stats().budgetWaits).toBe(6);
  });

  it('never exceeds the budget or the per-turn page cap (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1_000, max: 20_000 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        async (n, pageSize, requests, windowMs, cap, picks) => {
          const s = setup(n, pageSize, { budget: { requests, windowMs }, maxPagesPerTurn: cap, intervalMs: MIN });
          const ids = [...new Set(picks.map((p) => `c${p % n}`))];
          for (const id of ids) {
            s.listing.resolve(id, 0);
            s.watch.watch(id);
          }
          await s.clock.runUntil(() => s.resolved.length === ids.length, 24 * 60 * MIN);
          expect(s.resolved.map((r) => r.conditionId).sort()).toEqual([...ids].sort());
          const times = s.listing.calls.map((c) => c.atMs);
          for (let i = requests; i < times.length; i++)
            expect((times[i] as number) - (times[i - requests] as number)).toBeGreaterThanOrEqual(windowMs);
          // Each turn starts a minute after the previous one ended; at most `cap` pages in any turn.
          expect(s.watch.stats().requests).toBeLessThanOrEqual(s.watch.stats().turns * cap);
          // No page twice in one pass: the whole listing is read at most once for all the markets.
          expect(times.length).toBeLessThanOrEqual(Math.ceil(n / pageSize));
          await s.watch.stop();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('resumes an unfinished scan at the next turn where it stopped', async () => {
    const s = setup(20, 2, { maxPagesPerTurn: 3, intervalMs: 10 * MIN });
    s.listing.resolve('c15', 1);
    s.watch.watch('c15');
    await s.clock.advanceAsync(0);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 2, 4]);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 2, 4, 6, 8, 10]);
    expect(s.resolved).toEqual([]);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(s.resolved.map((r) => r.winnerTokenId)).toEqual(['c15-no']);
  });

  it('a market watched in the middle of a scan, before its position, is found from the top next turn', async () => {
    const s = setup(20, 2, { maxPagesPerTurn: 3, intervalMs: 10 * MIN });
    s.watch.watch('c19'); // not resolved: scanned for over several turns
    await s.clock.advanceAsync(0);
    s.listing.resolve('c1', 0);
    s.watch.watch('c1');
    // watch() on an idle watch runs a turn at once (pages 6..10), then 12..16 and 18, the end.
    await s.clock.advanceAsync(20 * MIN);
    expect(s.resolved).toEqual([]);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c1']);
    expect(s.listing.calls.at(-1)?.cursor).toBe(FIRST_PAGE_CURSOR);
  });

  it('gives up on a market after maxWatchMs, with the hook, and stops asking', async () => {
    const s = setup(6, 2, { intervalMs: 10 * MIN, maxWatchMs: 60 * MIN });
    s.watch.watch('c3');
    await s.clock.advanceAsync(59 * MIN);
    expect(s.gaveUp).toEqual([]);
    const asked = s.listing.calls.length;
    expect(asked).toBe(2 + 5); // the scan to its page, then that page at each of 5 turns
    await s.clock.advanceAsync(MIN);
    expect(s.gaveUp).toEqual([{ conditionId: 'c3', reason: 'timeout', watchedMs: 60 * MIN }]);
    expect(s.listing.calls).toHaveLength(asked);
    await s.clock.advanceAsync(120 * MIN);
    expect(s.listing.calls).toHaveLength(asked);
    expect(s.watch.watching()).toEqual([]);
  });

  it('two watched markets: one request for a shared page, each reported once', async () => {
    const s = setup(10, 4, { intervalMs: 10 * MIN });
    s.watch.watch('c5');
    s.watch.watch('c6');
    s.watch.watch('c9');
    await s.clock.advanceAsync(0);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 4, 8]);
    s.listing.resolve('c6', 0);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor)).slice(3)).toEqual([4, 8]);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c6']);
    s.listing.resolve('c5', 1);
    s.listing.resolve('c9', 1);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c6', 'c5', 'c9']);
    await s.clock.advanceAsync(60 * MIN);
    expect(s.listing.calls).toHaveLength(7);
  });

  it('a failed request is reported, never thrown, and the work is retried at the next turn', async () => {
    const s = setup(6, 2, { intervalMs: 10 * MIN });
    s.listing.resolve('c5', 0);
    s.listing.failNext = 1;
    s.watch.watch('c5');
    await s.clock.advanceAsync(0);
    expect(s.errors).toHaveLength(1);
    expect(s.resolved).toEqual([]);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c5']);
    expect(s.watch.stats()).toMatchObject({ errors: 1, resolved: 1 });
  });

  it('a market gone from its remembered page is scanned for again', async () => {
    const s = setup(6, 2, { intervalMs: 10 * MIN });
    s.watch.watch('c3');
    await s.clock.advanceAsync(0);
    // The listing shifted (not expected of the exchange, but the watch must not lose the market).
    const [moved] = s.listing.markets.splice(3, 1);
    s.listing.markets.push(moved as Rec);
    s.listing.resolve('c3', 1);
    await s.clock.advanceAsync(10 * MIN);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c3']);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 2, 2, 0, 4]);
  });

  it('remembered pages take turns under the page cap (none starves), and the scan keeps half a turn', async () => {
    const s = setup(4, 1, { maxPagesPerTurn: 2, intervalMs: MIN });
    for (const id of ['c0', 'c1', 'c2', 'c3']) s.watch.watch(id);
    const perTurn: number[][] = [];
    let seen = 0;
    const turn = async (ms: number): Promise<void> => {
      await s.clock.advanceAsync(ms);
      perTurn.push(s.listing.calls.slice(seen).map((c) => offsetOf(c.cursor)));
      seen = s.listing.calls.length;
    };
    await turn(0);
    await turn(MIN);
    await turn(MIN);
    // The scan advances every turn (pages 0,1 | 2 | 3) while the known pages share the rest.
    expect(perTurn).toEqual([
      [0, 1],
      [0, 2],
      [1, 3],
    ]);
    for (let i = 0; i < 4; i++) await turn(MIN);
    // All placed: two pages a turn, least recently checked first, each page every other turn.
    expect(perTurn.slice(3)).toEqual([
      [0, 2],
      [1, 3],
      [0, 2],
      [1, 3],
    ]);
    s.listing.resolve('c3', 1);
    await turn(MIN);
    await turn(MIN);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c3']);
  });

  it('a cursor that keeps failing is forgotten: its market is scanned for from the top', async () => {
    const s = setup(6, 2, { intervalMs: MIN });
    s.watch.watch('c5');
    await s.clock.advanceAsync(0);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor))).toEqual([0, 2, 4]);
    s.listing.failCursor.set(cursorOf(4), 3);
    await s.clock.advanceAsync(3 * MIN);
    expect(s.errors).toHaveLength(3);
    s.listing.resolve('c5', 0);
    await s.clock.advanceAsync(MIN);
    expect(s.listing.calls.map((c) => offsetOf(c.cursor)).slice(3)).toEqual([4, 4, 4, 0, 2, 4]);
    expect(s.resolved.map((r) => r.conditionId)).toEqual(['c5']);
  });

  it('several winners: given up, not reported', async () => {
    const s = setup(2, 2);
    s.listing.markets[0]!.closed = true;
    for (const t of s.listing.markets[0]!.tokens) t.winner = true;
    s.watch.watch('c0');
    await s.clock.advanceAsync(0);
    expect(s.resolved).toEqual([]);
    expect(s.gaveUp.map((g) => [g.conditionId, g.reason])).toEqual([['c0', 'several-winners']]);
  });

  it('unwatch drops a market; a throwing onResolved is reported and the market still leaves', async () => {
    const s = setup(4, 2, {
      onResolved: () => {
        throw new Error('ledger closed');
      },
    });
    s.listing.resolve('c0', 0);
    s.listing.resolve('c2', 0);
    s.watch.watch('c0');
    s.watch.watch('c2');
    s.watch.unwatch('c2');
    await s.clock.advanceAsync(0);
    expect(s.errors.map(String)).toEqual(['Error: ledger closed']);
    expect(s.watch.watching()).toEqual([]);
    expect(s.listing.calls).toHaveLength(1);
  });

  it('stop aborts a budget wait, resolves, and nothing runs afterwards', async () => {
    const s = setup(20, 1, { budget: { requests: 2, windowMs: 10_000 } });
    s.listing.resolve('c19', 0);
    s.watch.watch('c19');
    await s.clock.advanceAsync(0);
    expect(s.listing.calls).toHaveLength(2);
    await s.watch.stop();
    await s.clock.advanceAsync(60 * MIN);
    expect(s.listing.calls).toHaveLength(2);
    expect(s.resolved).toEqual([]);
    expect(s.errors).toEqual([]);
    s.watch.watch('c3');
    expect(s.watch.watching()).toEqual(['c19']);
    expect(s.clock.pending()).toBe(0);
  });

  it('rejects bad options', () => {
    const clock = new VirtualClock(T0);
    const base = {
      clock,
      listPage: async () => ({ data: [], nextCursor: null, limit: 1, count: 0 }),
      onResolved: () => undefined,
    };
    expect(() => new ResolutionWatch({ ...base, intervalMs: 0 })).toThrow(OptionError);
    expect(() => new ResolutionWatch({ ...base, budget: { requests: 0, windowMs: 1 } })).toThrow(OptionError);
    expect(() => new ResolutionWatch({ ...base, maxPagesPerTurn: 1.5 })).toThrow(OptionError);
  });
});

// The daemon's resolution wiring on the virtual clock with the runtime harness (fake venue, fake
// executor, real in-memory ledger): a market that leaves the universe is watched on a fake GET
// /markets listing; once it shows closed with a winner the ledger settles it (settlement rows,
// position closed), the recorder is told, and one info line carries the realized PnL; a market
// held outside the universe at start is watched from the start; the watch stops with the daemon.
import { describe, expect, it } from 'vitest';
import type { MarketsPage } from '../../src/core/market.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import type { MarketResolution } from '../../src/marketdata/recorder.js';
import type { ListedMarket } from '../../src/marketdata/resolution-watch.js';
import type { DaemonRecorder } from '../../src/runtime/daemon.js';
import { SH } from '../marketdata/helpers.js';
import { harness } from './harness.js';

interface Rec {
  conditionId: string;
  closed: boolean;
  tokens: Array<{ tokenId: string; winner: boolean }>;
}

/** GET /markets with one market per page (so the watch pages), cursors as the exchange's. */
function listing(ids: readonly string[]) {
  const recs: Rec[] = ids.map((id) => ({
    conditionId: id,
    closed: false,
    tokens: [
      { tokenId: `${id}-yes`, winner: false },
      { tokenId: `${id}-no`, winner: false },
    ],
  }));
  const calls: string[] = [];
  const list = async (cursor: string): Promise<MarketsPage<ListedMarket>> => {
    calls.push(cursor);
    const i = Number(Buffer.from(cursor, 'base64').toString('ascii'));
    const data = recs.slice(i, i + 1).map((r) => ({ ...r, tokens: r.tokens.map((t) => ({ ...t })) }));
    return {
      data,
      nextCursor: i + 1 >= recs.length ? null : Buffer.from(String(i + 1)).toString('base64'),
      limit: 1,
      count: data.length,
    };
  };
  const resolve = (id: string, winner: 0 | 1): void => {
    const r = recs.find((x) => x.conditionId === id) as Rec;
    r.closed = true;
    (r.tokens[winner] as { winner: boolean }).winner = true;
  };
  return { list, calls, resolve };
}

function recorderSpy(): DaemonRecorder & { seen: MarketResolution[] } {
  const seen: MarketResolution[] = [];
  return {
    seen,
    markets: () => undefined,
    snapshot: () => undefined,
    resolutions: (ms) => {
      seen.push(...ms);
    },
  };
}

const selector = { markets: { selector: { max: 5 } } };

describe('daemon resolutions', () => {
  it('settles a market that left the universe once the listing shows its winner, and tells the recorder', async () => {
    const l = listing(['m0', 'm1', 'm2']);
    const rec = recorderSpy();
    const h = harness({
      markets: ['m1', 'm2'],
      config: selector,
      marketsListing: l.list,
      recorder: rec,
      refreshMs: 60_000,
      resolutionWatch: { intervalMs: 30_000 },
    });
    await h.daemon.start();
    await h.clock.advanceAsync(0);
    const bid = h.executor.ordersOf('m1-yes').find((o) => o.price === 490_000);
    h.executor.fill(bid?.id as string, 4 * SH);
    await h.clock.advanceAsync(1_000);
    expect(h.ledger.position('m1-yes')?.size).toBe(4 * SH);
    expect(l.calls).toEqual([]); // nothing watched: no request

    // The market closes: the next refresh drops it; it is not resolved yet.
    h.gw.addMarket({ conditionId: 'm1', closed: true, acceptingOrders: false });
    await h.clock.advanceAsync(60_000);
    expect(h.daemon.status().markets.map((m) => m.conditionId)).not.toContain('m1');
    expect(l.calls.length).toBe(2); // pages 0 and 1: found, not resolved, page remembered
    expect(h.ledger.settlements('m1')).toEqual([]);
    expect(h.daemon.status().awaitingResolution).toEqual(['m1']);

    l.resolve('m1', 0);
    await h.clock.advanceAsync(30_000);
    expect(l.calls.slice(2)).toEqual([Buffer.from('1').toString('base64')]); // only its page
    const rows = h.ledger.settlements('m1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tokenId: 'm1-yes', payout: SH, size: 4 * SH, realizedDelta: 4 * (SH - 490_000) });
    expect(h.ledger.position('m1-yes')?.size).toBe(0);
    expect(h.ledger.resolution('m1')?.winnerTokenId).toBe('m1-yes');
    const line = h.lines.find((x) => x.msg === 'market resolved');
    expect(line).toMatchObject({ level: 30, market: 'm1', winner: 'm1-yes', settlements: 1, realized: '2.04' });
    expect(rec.seen).toEqual([
      {
        conditionId: 'm1',
        closed: true,
        tokens: [
          { tokenId: 'm1-yes', winner: true },
          { tokenId: 'm1-no', winner: false },
        ],
      },
    ]);
    expect(h.daemon.status().awaitingResolution).toEqual([]);

    // Done: no further requests.
    const n = l.calls.length;
    await h.clock.advanceAsync(300_000);
    expect(l.calls.length).toBe(n);
    await h.daemon.stop();
  });

  it('watches a market held outside the universe from the start', async () => {
    const l = listing(['m1', 'm2', 'm9']);
    const h = harness({ markets: ['m1', 'm2'], config: selector, marketsListing: l.list });
    h.ledger.recordFill({
      tokenId: 'm9-no',
      conditionId: 'm9',
      side: 'BUY',
      price: 300_000 as Price,
      size: (10 * SH) as Shares,
      feeMicros: 0 as Micros,
      liquidity: 'maker',
      timeMs: h.clock.now() - 1,
      source: 'sim',
      dedupKey: 'old',
    });
    l.resolve('m9', 0);
    await h.daemon.start();
    await h.clock.advanceAsync(0);
    expect(h.ledger.settlements('m9')).toMatchObject([
      { tokenId: 'm9-no', payout: 0, size: 10 * SH, realizedDelta: -3 * SH },
    ]);
    await h.daemon.stop();
  });

  it('a market back in the universe is no longer watched, and stop ends the watch before the ledger closes', async () => {
    const l = listing(['m1', 'm2']);
    const h = harness({
      markets: ['m1', 'm2'],
      config: selector,
      marketsListing: l.list,
      refreshMs: 60_000,
      resolutionWatch: { intervalMs: 30_000 },
    });
    await h.daemon.start();
    await h.clock.advanceAsync(0);
    h.gw.addMarket({ conditionId: 'm2', closed: true });
    await h.clock.advanceAsync(60_000);
    const afterDrop = l.calls.length;
    expect(afterDrop).toBe(2);
    h.gw.addMarket({ conditionId: 'm2' });
    await h.clock.advanceAsync(60_000);
    // One more turn may have run before the refresh brought it back; none after.
    const afterBack = l.calls.length;
    await h.clock.advanceAsync(300_000);
    expect(l.calls.length).toBe(afterBack);
    h.gw.addMarket({ conditionId: 'm2', closed: true });
    await h.clock.advanceAsync(60_000);
    expect(l.calls.length).toBeGreaterThan(afterBack);
    const r = await h.daemon.stop();
    expect(r.timedOut).toBe(false);
    const n = l.calls.length;
    l.resolve('m2', 1);
    await h.clock.advanceAsync(600_000);
    expect(l.calls.length).toBe(n);
  });
});

// The backtest executor's requests in virtual time: each one passes the rate limiter (its wait is
// an event on the clock, not a promise), then its latency, and only then reaches the venue; cancels
// are answered before a plan's placements go; a plan that waits makes the executor busy until its
// report is handed back; with no latency and no wait a plan completes synchronously.
import { describe, expect, it } from 'vitest';
import { BacktestExecutor } from '../../../src/backtest/replay/executor.js';
import type { ReplayVenuePort } from '../../../src/backtest/replay/venue-port.js';
import { DeltaVenue } from '../../../src/backtest/venue/index.js';
import { latencySampler } from '../../../src/backtest/latency.js';
import { digestOnlySigner } from '../../../src/backtest/signer.js';
import { makeBook } from '../../../src/core/book.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { mulberry32 } from '../../../src/core/random.js';
import { validateConfig } from '../../../src/config/load.js';
import { orderParties } from '../../../src/execution/apply-decisions.js';
import { resolveManagerConfig, type ApplyReport } from '../../../src/execution/order-manager-types.js';
import { reconcile } from '../../../src/execution/reconcile.js';
import { MemoryLedger } from '../../../src/ledger/memory-ledger.js';
import { MemoryRateLimiter } from '../../../src/ratelimit/index.js';
import { seededKey } from '../../support/keys.js';
import { testMarket, YES } from './support.js';

const { paper: MARKET, markets: MARKETS } = testMarket({ makerBps: 0, takerBps: 0 });

/** `changes`: the venue tells its order changes (the read skip's feed), as the delta venue does. */
function setup(latency: { placeMs: number; cancelMs: number } | undefined, changes = false) {
  const clock = new VirtualClock(0);
  const inner = new DeltaVenue({ clock, capital: (1_000 * SCALE) as Micros, fillModel: 'cross' });
  inner.addMarket(MARKET);
  const arrived: number[] = [];
  const reads = { progress: 0, order: 0 };
  const venue: ReplayVenuePort = {
    ...(changes ? { takeOrderChanges: () => inner.takeOrderChanges() } : {}),
    place: (o) => {
      arrived.push(clock.now());
      return inner.place(o);
    },
    cancel: (id) => {
      arrived.push(-clock.now());
      return inner.cancel(id);
    },
    order: (id) => {
      reads.order++;
      return inner.order(id);
    },
    orderProgress: (id) => {
      reads.progress++;
      return inner.orderProgress(id);
    },
    forgetOrder: (id) => {
      inner.forgetOrder(id);
    },
    hasMarket: (c) => inner.hasMarket(c),
    addMarket: (m) => inner.addMarket(m),
    applyBook: (b) => inner.applyBook(b),
    applyTrade: (t) => inner.applyTrade(t),
    openOrderCount: (c) => inner.openOrderCount(c),
    resolveMarket: (c, w) => inner.resolveMarket(c, w),
    onFill: (l) => inner.onFill(l),
    stats: () => inner.stats(),
  };
  const limiter = new MemoryRateLimiter({
    clock,
    config: {
      marginMs: 0,
      budgets: { buckets: { slow: [{ limit: 2, windowMs: 10_000 }] }, routes: { 'clob POST /orders': ['slow'] } },
    },
  });
  const signer = digestOnlySigner(seededKey('executor test'), validateConfig({}));
  // A horizon past the waits below: the limiter delays the placements instead of the pressure rule dropping them.
  const config = resolveManagerConfig({ pressureHorizonMs: 60_000 });
  const ledger = MemoryLedger.open({ clock });
  const ex = new BacktestExecutor({
    clock,
    venue,
    ledger,
    limiter,
    latency: latencySampler(latency, mulberry32(1)),
    sign: (os) => signer.signNow(os),
    parties: orderParties({ signerAddress: signer.address, postOnly: config.postOnly, random: mulberry32(2) }),
    config,
    owner: 'test',
    strategy: 'test',
  });
  return { clock, ex, arrived, inner, ledger, reads };
}

const bid = (price: number, size = 10) => ({
  tokenId: YES,
  side: 'BUY' as const,
  price: Math.round(price * SCALE) as Price,
  size: (size * SCALE) as Shares,
});

describe('BacktestExecutor in virtual time', () => {
  it('passes order entry through the rate limiter and the latency, cancels before placements', () => {
    const { clock, ex, arrived } = setup({ placeMs: 100, cancelMs: 30 });
    const reports: ApplyReport[] = [];
    ex.apply(reconcile([bid(0.4)], ex.liveOrders()), MARKETS, (r) => reports.push(r));
    expect(ex.busy).toBe(true);
    clock.advanceTo(100);
    expect(reports).toHaveLength(1);
    expect(ex.busy).toBe(false);
    // The first bid rests; now replace it by two others: its cancel goes first (30 ms), then the
    // placements in two chunks (a replacement, a new quote): the first takes the bucket's second
    // slot at once, the second waits for the first placement's slot to free (10 s after 0), each
    // then 100 ms on the way.
    ex.apply(reconcile([bid(0.41), bid(0.42)], ex.liveOrders()), MARKETS, (r) => reports.push(r));
    for (let next = clock.nextTimerAt(); next !== null && reports.length < 2; next = clock.nextTimerAt())
      clock.advanceTo(next);
    expect(arrived).toEqual([100, -130, 230, 10_100]);
    expect(reports[1]).toMatchObject({ cancelled: 1, accepted: 2, placementsSent: 2 });
    expect(
      ex
        .liveOrders()
        .map((o) => o.price)
        .sort(),
    ).toEqual([410_000, 420_000]);
  });

  it('with no latency and no limiter wait a plan completes before apply returns', () => {
    const { ex, arrived } = setup(undefined);
    let report: ApplyReport | null = null;
    ex.apply(reconcile([bid(0.4)], ex.liveOrders()), MARKETS, (r) => {
      report = r;
    });
    expect(report).toMatchObject({ accepted: 1 });
    expect(arrived).toEqual([0]);
    expect(ex.busy).toBe(false);
  });

  it('lets the venue forget an order once its final state is read, and not before', () => {
    const { ex, inner, ledger } = setup(undefined);
    const done = (): void => undefined;
    ex.apply(reconcile([bid(0.4)], ex.liveOrders()), MARKETS, done);
    const [first] = ex.liveOrders();
    if (first === undefined) throw new Error('no order rests');
    // Resting: read every poll, so kept.
    ex.pollNow();
    expect(inner.order(first.id)?.status).toBe('LIVE');
    // Replaced: cancelled at the venue, its final read owed, so still kept.
    ex.apply(reconcile([bid(0.41)], ex.liveOrders()), MARKETS, done);
    expect(inner.order(first.id)?.status).toBe('CANCELED');
    // The final read: the ledger has the order's end, and the venue no longer holds it.
    ex.pollNow();
    expect(ledger.order(first.id)?.state).toBe('canceled');
    expect(inner.order(first.id)).toBeNull();
    // The replacement rests and is kept.
    expect(ex.liveOrders().map((o) => inner.order(o.id)?.status)).toEqual(['LIVE']);
  });

  it('does not look a resting order up again until the venue or the ledger changes it', () => {
    const { clock, ex, inner, ledger, reads } = setup(undefined, true);
    const done = (): void => undefined;
    ex.apply(reconcile([bid(0.4), bid(0.3)], ex.liveOrders()), MARKETS, done);
    const [first, second] = ex.liveOrders();
    if (first === undefined || second === undefined) throw new Error('no order rests');
    // The first poll reads both (news: the ledger has no lookup yet), the second finds nothing new.
    expect(ex.pollNow()).toEqual([]);
    expect(reads.order).toBe(2);
    expect(ex.pollNow()).toEqual([]);
    const once = { ...reads };
    expect(once).toEqual({ progress: 4, order: 2 });
    // Nothing touched either order since: the next polls look nothing up at all.
    clock.advanceTo(1_000);
    expect(ex.pollNow()).toEqual([]);
    expect(ex.pollNow()).toEqual([]);
    expect(reads).toEqual(once);
    // The book comes down to the first bid: the venue fills it, and the next poll finds the fill.
    inner.applyBook(
      makeBook({
        market: MARKET.conditionId,
        assetId: YES,
        timestampMs: 2_000,
        bids: [{ price: 350_000 as Price, size: (100 * SCALE) as Shares }],
        asks: [{ price: 390_000 as Price, size: (4 * SCALE) as Shares }],
      }),
    );
    clock.advanceTo(2_000);
    const fills = ex.pollNow();
    expect(fills.map((f) => f.orderId)).toEqual([first.id]);
    expect(ledger.order(first.id)?.sizeMatched).toBe(4 * SCALE);
    // Only the order the venue changed was looked up again.
    expect(reads.order - once.order).toBe(1);
    // Checked once more and found unchanged, the first is quiet again: a poll looks nothing up.
    ex.pollNow();
    const quiet = { ...reads };
    ex.pollNow();
    expect(reads).toEqual(quiet);
    // A write to the ledger's record of the other order (a cancel requested) makes it checked again.
    ledger.markCancelling([second.id], 'test');
    ex.pollNow();
    expect(reads.progress - quiet.progress).toBe(1);
  });
});

// The cycle's pieces: free collateral, the strategy input and risk's token view built from the
// cache, the plan under quoting/staleness/kill switch, the steady state (a plan applied, the next
// one is empty), the expected reward score of the accepted quotes (per market, in the report and
// the ledger's cycle row), and reading new fills from the ledger in pages.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { midSamples } from '../../src/core/book.js';
import { utcDate } from '../../src/core/iso-time.js';
import { mulMicros, type Micros, type Price, type Shares } from '../../src/core/money.js';
import type { Rewards } from '../../src/core/market.js';
import type { LiveOrder } from '../../src/core/order.js';
import type { DesiredQuote } from '../../src/core/quote.js';
import { KILL_SWITCH_ARMED, tripKillSwitch } from '../../src/execution/risk.js';
import { Ledger } from '../../src/ledger/index.js';
import { BookCache } from '../../src/marketdata/book-cache.js';
import {
  buildStrategyInput,
  collateral,
  cycleRewardScores,
  lastFillSeq,
  marketsByToken,
  newFills,
  planCycle,
  positionMaps,
  riskTokens,
  runCycle,
  scoreMillionths,
  strategyFill,
  type CycleContext,
  type CycleControl,
} from '../../src/runtime/cycle.js';
import { IncrementalReconciler } from '../../src/runtime/incremental-reconcile.js';
import { riskLimitsFromConfig } from '../../src/runtime/limits.js';
import { validateConfig } from '../../src/config/load.js';
import { bands } from '../../strategies/bands/index.js';
import { midSeriesOf, silentLogger, type TokenView } from '../../src/strategy/context.js';
import { expectedRewardScores } from '../../src/strategy/rewards-score.js';
import { binary, bookAround, SH, T0 } from '../marketdata/helpers.js';
import { FakeExecutor } from './fake-executor.js';
import { ledgerPosition as position } from '../ledger/helpers.js';

function order(
  id: string,
  side: 'BUY' | 'SELL',
  price: number,
  size: number,
  matched = 0,
  state: LiveOrder['state'] = 'live',
): LiveOrder {
  return {
    id,
    tokenId: 't',
    side,
    price: price as Price,
    originalSize: size as Shares,
    sizeMatched: matched as Shares,
    state,
    createdAtMs: T0,
  };
}

describe('collateral', () => {
  it('is capital + realized − cost of held shares, minus what open bids reserve', () => {
    const c = collateral(
      (1_000 * SH) as Micros,
      [position('a', 10 * SH, 5 * SH, 2 * SH), position('b', 0, 0, -1 * SH)],
      [
        order('1', 'BUY', 400_000, 10 * SH, 4 * SH),
        order('2', 'SELL', 600_000, 10 * SH),
        order('3', 'BUY', 333_333, 3 * SH, 0, 'inflight'),
      ],
    );
    // 1000 + 2 − 1 − 5 = 996; bids: 0.4 × 6 = 2.4, 0.333333 × 3 = 0.999999 (rounded up)
    expect(c.available).toBe(996 * SH);
    expect(c.reserved).toBe(2_400_000 + 999_999);
    expect(c.free).toBe(996 * SH - 3_399_999);
  });

  it('property: free is never negative and equals available − reserved when that is not', () => {
    const ord = fc.record({
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      price: fc.integer({ min: 1, max: 999_999 }),
      size: fc.integer({ min: 1, max: 1_000 }),
      matched: fc.integer({ min: 0, max: 1_000 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.array(ord, { maxLength: 20 }), (cap, os) => {
        const open = os.map((o, i) =>
          order(String(i), o.side, o.price, o.size * 10_000, Math.min(o.matched, o.size) * 10_000),
        );
        const c = collateral((cap * SH) as Micros, [], open);
        let reserved = 0;
        for (const o of open)
          if (o.side === 'BUY') reserved += mulMicros(o.price, o.originalSize - o.sizeMatched, 'ceil');
        return c.reserved === reserved && c.free === Math.max(0, cap * SH - reserved) && c.free >= 0;
      }),
    );
  });
});

describe('views built from the cache', () => {
  function filled(): BookCache {
    const cache = new BookCache({ maxBookAgeMs: 5_000 });
    cache.setUniverse([binary('m')]);
    cache.apply({ receivedAtMs: T0, books: [bookAround('m', 'm-yes', 400_000)], mids: new Map() });
    cache.apply({ receivedAtMs: T0 + 500, books: [bookAround('m', 'm-no', 600_000)], mids: new Map() });
    return cache;
  }

  it('the strategy input carries books, mids, recent mids, positions, complements and open orders per token', () => {
    const cache = filled();
    const o: LiveOrder = { ...order('x', 'BUY', 390_000, 10 * SH), tokenId: 'm-yes' };
    const input = buildStrategyInput(
      cache,
      T0 + 1_000,
      new Map([['m-no', (3 * SH) as Shares]]),
      [o],
      (50 * SH) as Micros,
    );
    expect(input.nowMs).toBe(T0 + 1_000);
    expect(input.freeCollateral).toBe(50 * SH);
    expect(input.openOrders).toEqual([o]);
    const [yes, no] = input.markets[0]?.tokens ?? [];
    expect(yes).toMatchObject({
      tokenId: 'm-yes',
      outcome: 'Yes',
      complementTokenId: 'm-no',
      bookAtMs: T0,
      mid: 400_000,
      position: 0,
      openOrders: [o],
    });
    expect(yes?.recentMids).toEqual([{ atMs: T0, mid: 400_000 }]);
    // the list is data: later polls do not change it
    cache.apply({ receivedAtMs: T0 + 900, books: [bookAround('m', 'm-no', 700_000)], mids: new Map() });
    expect(no?.recentMids).toEqual([{ atMs: T0 + 500, mid: 600_000 }]);
    const later = buildStrategyInput(cache, T0 + 1_000, new Map(), [], 0 as Micros).markets[0]?.tokens[1];
    expect(later?.recentMids.map((x) => x.mid)).toEqual([600_000, 700_000]);
    expect(no).toMatchObject({
      tokenId: 'm-no',
      complementTokenId: 'm-yes',
      bookAtMs: T0 + 500,
      mid: 600_000,
      position: 3 * SH,
      openOrders: [],
    });
    expect(input.markets[0]?.settings.conditionId).toBe('m');
  });

  it('recent mids are read from the window the input was built on, once, and serialise with the token', () => {
    const cache = filled();
    const input = buildStrategyInput(cache, T0 + 1_000, new Map(), [], 0 as Micros);
    const yes = input.markets[0]?.tokens[0];
    // later polls change nothing of an input already built, read or not
    for (let i = 1; i <= 150; i++)
      cache.apply({
        receivedAtMs: T0 + 500 + i,
        books: [bookAround('m', 'm-yes', 400_000 + i * 1_000)],
        mids: new Map(),
      });
    const mids = yes?.recentMids;
    expect(mids).toEqual([{ atMs: T0, mid: 400_000 }]);
    expect(yes?.recentMids).toBe(mids);
    // the columns the guards read are the same samples, handed out without a copy
    const series = midSeriesOf(yes as TokenView);
    expect(midSamples(series)).toEqual(mids);
    expect(midSeriesOf(yes as TokenView)).toBe(series);
    const plain = JSON.parse(JSON.stringify(input)) as typeof input;
    expect(plain.markets[0]?.tokens[0]).toEqual({
      tokenId: 'm-yes',
      outcome: 'Yes',
      complementTokenId: 'm-no',
      book: JSON.parse(JSON.stringify(yes?.book)) as unknown,
      bookAtMs: T0,
      mid: 400_000,
      recentMids: [{ atMs: T0, mid: 400_000 }],
      position: 0,
      openOrders: [],
    });
    expect(Object.keys(plain.markets[0]?.tokens[1] ?? {})).toContain('recentMids');
  });

  it('position maps are the last ones while the ledger hands the same positions, new ones when one moves', () => {
    const ledger = {};
    const a = position('a', 5 * SH, 0, 0);
    const b = position('b', -2 * SH, 0, 0);
    const c = position('c', 0, 0, 0);
    const first = positionMaps(ledger, [a, b, c]);
    expect([...first.held]).toEqual([['a', 5 * SH]]);
    expect([...first.signed]).toEqual([
      ['a', 5 * SH],
      ['b', -2 * SH],
    ]);
    expect(positionMaps(ledger, [a, b, c])).toBe(first);
    // another ledger's positions are its own
    expect(positionMaps({}, [a, b, c])).not.toBe(first);
    const moved = positionMaps(ledger, [a, b, position('c', 1 * SH, 0, 0)]);
    expect(moved).not.toBe(first);
    expect(moved.held.get('c')).toBe(SH);
    expect(first.held.has('c')).toBe(false);
    expect(positionMaps(ledger, [a, b])).not.toBe(moved);
  });

  it("risk's token view dates both tokens of a market by its older book", () => {
    const t = riskTokens(filled());
    expect(t.get('m-yes')).toMatchObject({
      marketId: 'm',
      complementTokenId: 'm-no',
      tickSize: 10_000,
      minOrderSize: 5 * SH,
      mark: 400_000,
      dataAtMs: T0,
    });
    expect(t.get('m-no')?.dataAtMs).toBe(T0);
  });

  it('markets by token are the current settings and are rebuilt only when they change', () => {
    const cache = filled();
    const a = marketsByToken(cache);
    expect(marketsByToken(cache)).toBe(a);
    expect(a.get('m-no')?.tickSize).toBe(10_000);
    cache.apply({
      receivedAtMs: T0 + 600,
      books: [bookAround('m', 'm-no', 600_000, { tick: 1_000 })],
      mids: new Map(),
    });
    const b = marketsByToken(cache);
    expect(b).not.toBe(a);
    expect(b.get('m-yes')?.tickSize).toBe(1_000);
  });
});

describe('planCycle', () => {
  function setup(markets = 2) {
    const clock = new VirtualClock(T0);
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    const cache = new BookCache({ maxBookAgeMs: 3_000 });
    const ms = Array.from({ length: markets }, (_, i) => binary(`m${i}`));
    cache.setUniverse(ms);
    const executor = new FakeExecutor(clock, ledger);
    const config = validateConfig({ poll: { maxBookAgeMs: 3_000 } });
    const ctx: CycleContext = {
      clock,
      cache,
      executor,
      ledger,
      limits: riskLimitsFromConfig(config),
      capital: (1_000 * SH) as Micros,
      reconciler: new IncrementalReconciler({ toleranceBps: 1_000 }),
      runner: bands.create({}, { clock, log: silentLogger }),
    };
    const feed = (mid = 500_000): void => {
      cache.apply({
        receivedAtMs: clock.now(),
        books: ms.flatMap((m) => m.tokens.map((t) => bookAround(m.conditionId, t.tokenId, mid))),
        mids: new Map(),
      });
    };
    const control: CycleControl = { quoting: true, killSwitch: KILL_SWITCH_ARMED, pollFills: false, fillSeq: 0 };
    ctx.runner.start(buildStrategyInput(cache, clock.now(), new Map(), [], ctx.capital));
    return { clock, ledger, cache, executor, ctx, feed, control };
  }

  it('runCycle reads the trade feed before the order lookups, and only when fills are due', async () => {
    const s = setup();
    const ctx: CycleContext = {
      ...s.ctx,
      tradeFeed: {
        poll: () => {
          s.executor.events.push('tradeFeed.poll');
          return Promise.resolve({ complete: true });
        },
      },
    };
    s.feed();
    const snapshot = (): Parameters<typeof runCycle>[2] => ({
      receivedAtMs: s.clock.now(),
      books: [],
      mids: new Map(),
      complete: true,
    });
    await runCycle(ctx, s.control, snapshot());
    expect(s.executor.events).toEqual(['apply']);
    await runCycle(ctx, { ...s.control, pollFills: true }, snapshot());
    expect(s.executor.events).toEqual(['apply', 'apply', 'tradeFeed.poll', 'pollFills', 'resolveUnknown']);
  });

  it('quotes with the real bands strategy through risk and reconcile', async () => {
    const s = setup();
    s.feed();
    const p = planCycle(s.ctx, s.control, s.clock.now());
    expect(p.desired).toBe(12);
    expect(p.risk.accepted).toHaveLength(12);
    expect(p.plan.placements).toHaveLength(12);
    expect(p.quotesByMarket).toEqual(
      new Map([
        ['m0', 6],
        ['m1', 6],
      ]),
    );
    expect(p.staleMarkets).toEqual([]);
  });

  it('property: applying a plan and planning again on the same data gives an empty plan', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 10, max: 90 }),
        fc.integer({ min: 10, max: 90 }),
        async (n, a, b) => {
          const s = setup(n);
          s.feed(a * 10_000);
          await s.executor.apply(planCycle(s.ctx, s.control, s.clock.now()).plan, marketsByToken(s.cache));
          s.feed(b * 10_000);
          await s.executor.apply(planCycle(s.ctx, s.control, s.clock.now()).plan, marketsByToken(s.cache));
          const again = planCycle(s.ctx, s.control, s.clock.now()).plan;
          s.ledger.close();
          return again.placements.length === 0 && again.cancels.length === 0;
        },
      ),
      { numRuns: 25 },
    );
  });

  it('with quoting off the strategy is not asked and every resting quote is cancelled', async () => {
    const s = setup();
    s.feed();
    await s.executor.apply(planCycle(s.ctx, s.control, s.clock.now()).plan, marketsByToken(s.cache));
    const p = planCycle(s.ctx, { ...s.control, quoting: false }, s.clock.now());
    expect(p.desired).toBe(0);
    expect(p.plan.cancels).toHaveLength(12);
    expect(p.plan.placements).toEqual([]);
  });

  it('a tripped kill switch drops every quote, so every resting quote is cancelled', async () => {
    const s = setup();
    s.feed();
    await s.executor.apply(planCycle(s.ctx, s.control, s.clock.now()).plan, marketsByToken(s.cache));
    const p = planCycle(
      s.ctx,
      { ...s.control, killSwitch: tripKillSwitch(KILL_SWITCH_ARMED, 'test', T0) },
      s.clock.now(),
    );
    expect(p.desired).toBe(12);
    expect(p.risk.dropped.every((d) => d.reason === 'kill-switch')).toBe(true);
    expect(p.plan.cancels).toHaveLength(12);
  });

  it('stale data: quotes of the stale markets are dropped and their orders cancelled', async () => {
    const s = setup();
    s.feed();
    await s.executor.apply(planCycle(s.ctx, s.control, s.clock.now()).plan, marketsByToken(s.cache));
    s.clock.advance(3_001);
    const p = planCycle(s.ctx, s.control, s.clock.now());
    expect(p.staleMarkets).toEqual(['m0', 'm1']);
    expect(p.risk.accepted).toEqual([]);
    expect(p.risk.dropped.map((d) => d.reason)).toEqual(Array(12).fill('stale-data'));
    expect(p.plan.cancels).toHaveLength(12);
  });

  it('a throwing strategy is reported and quotes nothing', () => {
    const s = setup();
    s.feed();
    const ctx: CycleContext = {
      ...s.ctx,
      runner: {
        name: 'x',
        params: {},
        start: () => undefined,
        fill: () => undefined,
        stop: () => undefined,
        quote: () => {
          throw new RangeError('boom');
        },
      },
    };
    const p = planCycle(ctx, s.control, s.clock.now());
    expect(p.strategyError).toBeInstanceOf(RangeError);
    expect(p.desired).toBe(0);
    expect(p.plan.placements).toEqual([]);
  });
});

describe('expected reward score', () => {
  // 3 ¢ window, 10-share minimum, a market paying rewards next to one that does not.
  const REWARDS: Rewards = {
    rates: [],
    dailyRate: (100 * SH) as Micros,
    minSize: (10 * SH) as Shares,
    maxSpreadCents: 3,
    maxSpread: 30_000 as Price,
  };
  const q = (tokenId: string, side: 'BUY' | 'SELL', price: number, size: number): DesiredQuote => ({
    tokenId,
    side,
    price: price as Price,
    size: (size * SH) as Shares,
  });
  const QUOTES: readonly DesiredQuote[] = [
    q('r-yes', 'BUY', 490_000, 40), // s = 1 ¢: ((3 − 1)/3)² · 40 = 160/9, Q_one
    q('r-no', 'BUY', 490_000, 20), // a bid on the complement, s = 1 ¢: ((3 − 1)/3)² · 20 = 80/9, Q_two
    q('r-no', 'BUY', 480_000, 10), // s = 2 ¢: ((3 − 2)/3)² · 10 = 10/9, Q_two
    q('r-yes', 'BUY', 460_000, 20), // s = 4 ¢ ≥ max_spread: 0
    q('r-yes', 'BUY', 480_000, 6), // below min_size: 0
    q('r-yes', 'SELL', 510_000, 20), // nothing held: risk drops it, so it must not count (Q_two would be 170/9)
    q('n-yes', 'BUY', 490_000, 20), // no rewards in that market
  ];

  function setup(quotes: readonly DesiredQuote[] = QUOTES) {
    const clock = new VirtualClock(T0);
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    const cache = new BookCache({ maxBookAgeMs: 3_000 });
    const ms = [binary('r', { rewards: REWARDS }), binary('n')];
    cache.setUniverse(ms);
    const executor = new FakeExecutor(clock, ledger);
    const config = validateConfig({ poll: { maxBookAgeMs: 3_000 } });
    const ctx: CycleContext = {
      clock,
      cache,
      executor,
      ledger,
      limits: riskLimitsFromConfig(config),
      capital: (1_000 * SH) as Micros,
      reconciler: new IncrementalReconciler({ toleranceBps: 1_000 }),
      runner: {
        name: 'fixed',
        params: {},
        start: () => undefined,
        fill: () => undefined,
        stop: () => undefined,
        quote: () => quotes,
      },
    };
    const books = ms.flatMap((m) => m.tokens.map((t) => bookAround(m.conditionId, t.tokenId, 500_000)));
    const control: CycleControl = { quoting: true, killSwitch: KILL_SWITCH_ARMED, pollFills: false, fillSeq: 0 };
    return { clock, ledger, cache, executor, ctx, books, control };
  }

  it('scores the accepted quotes of a rewards market as protocol §6 does, 0 for a market without rewards', () => {
    const s = setup();
    s.cache.apply({ receivedAtMs: T0, books: s.books, mids: new Map() });
    const p = planCycle(s.ctx, s.control, s.clock.now());
    expect(p.risk.dropped.map((d) => [d.quote.side, d.reason])).toEqual([['SELL', 'insufficient-inventory']]);
    expect(p.risk.accepted).toHaveLength(QUOTES.length - 1);
    // Q_one = 160/9, Q_two = 80/9 + 10/9 = 10; the size-cutoff mid is 0.50, inside [0.10, 0.90]:
    // Q_min = max(min(Q_one, Q_two), max / 3) = max(10, 160/27) = 10.
    expect(p.rewardScores.get('r')).toBeCloseTo(10, 12);
    expect(p.rewardScores.get('n')).toBe(0);
    expect(p.rewardScore).toBeCloseTo(10, 12);
    // The same figure as the score module's own entry point.
    expect(p.rewardScores.get('r')).toBe(expectedRewardScores(p.input.markets, p.risk.accepted).get('r')?.qMin);
  });

  it('scores only what risk accepted: a stale market scores 0', () => {
    const s = setup();
    s.cache.apply({ receivedAtMs: T0, books: s.books, mids: new Map() });
    s.clock.advance(3_001);
    const p = planCycle(s.ctx, s.control, s.clock.now());
    expect(p.risk.accepted).toEqual([]);
    expect(p.rewardScores).toEqual(
      new Map([
        ['r', 0],
        ['n', 0],
      ]),
    );
    expect(p.rewardScore).toBe(0);
  });

  it('runCycle reports the scores and records the total in share millionths in the ledger', async () => {
    const s = setup();
    const r = await runCycle(s.ctx, s.control, { receivedAtMs: T0, books: s.books, mids: new Map(), complete: true });
    expect(r.rewardScores.get('r')).toBeCloseTo(10, 12);
    expect(r.rewardScores.get('n')).toBe(0);
    expect(r.rewardScore).toBeCloseTo(10, 12);
    expect(s.ledger.recentCycles(1)[0]?.rewardScore).toBe(10_000_000);
    // Next cycle, with our quotes now resting: they are taken off the book before scoring (same mid).
    s.clock.advance(1_000);
    const r2 = await runCycle(s.ctx, s.control, {
      receivedAtMs: s.clock.now(),
      books: s.books,
      mids: new Map(),
      complete: true,
    });
    expect(r2.rewardScores.get('r')).toBeCloseTo(10, 12);
    expect(s.ledger.recentCycles(1)[0]?.rewardScore).toBe(10_000_000);
    s.ledger.close();
  });

  it('property: the total is the sum over markets and no market scores more than its qualifying size', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            token: fc.constantFrom('r-yes', 'r-no', 'n-yes', 'n-no'),
            side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
            price: fc.integer({ min: 1, max: 99 }),
            size: fc.integer({ min: 1, max: 50 }),
          }),
          { maxLength: 20 },
        ),
        (qs) => {
          const s = setup();
          s.cache.apply({ receivedAtMs: T0, books: s.books, mids: new Map() });
          const quotes = qs.map((x) => q(x.token, x.side, x.price * 10_000, x.size));
          const input = buildStrategyInput(s.cache, T0, new Map(), [], (1_000 * SH) as Micros);
          const { byMarket, total } = cycleRewardScores(input.markets, quotes);
          s.ledger.close();
          const sized = quotes
            .filter((x) => x.tokenId.startsWith('r-') && x.size >= 10 * SH)
            .reduce((a, x) => a + x.size / SH, 0);
          const r = byMarket.get('r') ?? -1;
          return byMarket.get('n') === 0 && r >= 0 && r <= sized + 1e-9 && Math.abs(total - r) < 1e-12;
        },
      ),
      { numRuns: 50 },
    );
  });

  it('stores a score as share millionths, rounded to the nearest, never negative', () => {
    expect(scoreMillionths(80 / 9)).toBe(8_888_889);
    expect(scoreMillionths(0)).toBe(0);
    expect(scoreMillionths(1.2345674)).toBe(1_234_567);
  });
});

describe('fills from the ledger', () => {
  it('reads every fill after a sequence number, across pages, in order', () => {
    const clock = new VirtualClock(T0);
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    for (let i = 0; i < 2_500; i++) {
      ledger.recordFill({
        tokenId: 't',
        conditionId: 'c',
        side: i % 2 === 0 ? 'BUY' : 'SELL',
        price: 500_000 as Price,
        size: SH as Shares,
        feeMicros: 0 as Micros,
        liquidity: 'maker',
        timeMs: T0 + i,
        source: 'sim',
        dedupKey: `f${i}`,
      });
    }
    const all = newFills(ledger, 0);
    expect(all).toHaveLength(2_500);
    expect(all.map((f) => f.seq)).toEqual([...all.map((f) => f.seq)].sort((a, b) => a - b));
    const tail = newFills(ledger, all[2_399]?.seq ?? 0);
    expect(tail.map((f) => f.dedupKey)).toEqual(Array.from({ length: 100 }, (_, i) => `f${2_400 + i}`));
    expect(newFills(ledger, all[2_499]?.seq ?? 0)).toEqual([]);
    expect(lastFillSeq(ledger)).toBe(all[2_499]?.seq);
    expect(strategyFill(all[0] as never, new Map())).toEqual({
      orderId: '',
      tokenId: 't',
      side: 'BUY',
      price: 500_000,
      size: SH,
      atMs: T0,
    });
    ledger.close();
  });

  it('the last fill sequence of an empty ledger is 0', () => {
    const ledger = Ledger.open(':memory:', { clock: new VirtualClock(T0), synchronous: 'NORMAL' });
    expect(lastFillSeq(ledger)).toBe(0);
    ledger.close();
  });

  it('names UTC days as risk does', () => {
    expect(utcDate(Date.UTC(2026, 0, 5, 23, 59, 59, 999))).toBe('2026-01-05');
    expect(utcDate(Date.UTC(2026, 0, 6))).toBe('2026-01-06');
  });
});

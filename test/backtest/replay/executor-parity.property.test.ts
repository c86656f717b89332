// The two executors of a plan decide alike (issue #15): the live OrderManager (asynchronous, over
// the paper gateway's HTTP-shaped routes, SQLite ledger) and the backtest's BacktestExecutor
// (synchronous, straight against its venue, in-memory ledger) are fed the same random sequences of
// books, desired quotes (planned by reconcile from each one's own live orders), fill reads and
// clock steps, each against its own venue: the paper venue behind the paper gateway for the live
// one, the backtest's delta venue for the backtest one. After every step: the plans are
// equal, the apply reports are equal, the fills found are equal, the live orders are equal, and
// the two ledgers hold the same orders, fills and positions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BacktestExecutor } from '../../../src/backtest/replay/executor.js';
import { DeltaVenue } from '../../../src/backtest/venue/index.js';
import { digestOnlySigner } from '../../../src/backtest/signer.js';
import type { Book, Level } from '../../../src/core/book.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { Side } from '../../../src/core/order.js';
import type { DesiredQuote } from '../../../src/core/quote.js';
import { mulberry32 } from '../../../src/core/random.js';
import { validateConfig } from '../../../src/config/load.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { OrderManager } from '../../../src/execution/order-manager.js';
import { orderParties } from '../../../src/execution/apply-decisions.js';
import { resolveManagerConfig, type ApplyReport } from '../../../src/execution/order-manager-types.js';
import { reconcile } from '../../../src/execution/reconcile.js';
import { Ledger } from '../../../src/ledger/index.js';
import { MemoryLedger } from '../../../src/ledger/memory-ledger.js';
import type { LedgerOrder } from '../../../src/ledger/types.js';
import { PaperGateway, PaperVenue } from '../../../src/sim/paper/index.js';
import { seededKey } from '../../support/keys.js';
import { COND, testMarket, TICK, YES } from './support.js';

const T0 = Date.UTC(2026, 5, 12, 12, 0, 0);
const KEY = seededKey('executor parity');
const CONFIG = validateConfig({});

const FEES = { makerBps: 100, takerBps: 200 };
const { markets: MARKETS } = testMarket(FEES);

type Step =
  | { readonly kind: 'book'; readonly mid: number; readonly spread: number; readonly sizes: readonly number[] }
  | {
      readonly kind: 'quote';
      readonly quotes: ReadonlyArray<{ side: Side; ticks: number; size: number; postOnly: boolean }>;
    }
  | { readonly kind: 'poll' }
  | { readonly kind: 'advance'; readonly ms: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('book' as const),
    mid: fc.integer({ min: 30, max: 70 }),
    spread: fc.integer({ min: 1, max: 3 }),
    sizes: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 6, maxLength: 6 }),
  }),
  fc.record({
    kind: fc.constant('quote' as const),
    quotes: fc.array(
      fc.record({
        side: fc.constantFrom<Side>('BUY', 'SELL'),
        ticks: fc.integer({ min: 25, max: 75 }),
        size: fc.integer({ min: 5, max: 30 }),
        postOnly: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
  }),
  fc.constant({ kind: 'poll' as const }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 5_000 }) }),
);

function bookOf(s: Extract<Step, { kind: 'book' }>, now: number): Book {
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 0; i < 3; i++) {
    bids.push({ price: ((s.mid - s.spread - i) * TICK) as Price, size: ((s.sizes[i] as number) * SCALE) as Shares });
    asks.push({
      price: ((s.mid + s.spread + i) * TICK) as Price,
      size: ((s.sizes[i + 3] as number) * SCALE) as Shares,
    });
  }
  return {
    market: COND,
    assetId: YES,
    timestampMs: now,
    hash: '',
    bids,
    asks,
    tickSize: TICK as Price,
    minOrderSize: (5 * SCALE) as Shares,
    negRisk: false,
    lastTradePrice: null,
  };
}

/** What both ledgers must agree on of an order (the backtest keeps no signed submission). */
function orderView(o: LedgerOrder | null): unknown {
  if (o === null) return null;
  const { signedJson: _s, ...rest } = o as LedgerOrder & { signedJson?: unknown };
  return rest;
}

function world() {
  const clock = new VirtualClock(T0);
  const { md, paper } = testMarket(FEES);
  const venue = new PaperVenue({
    clock,
    capital: (1_000 * SCALE) as Micros,
    retainFinishedMs: Number.POSITIVE_INFINITY,
  });
  venue.addMarket(paper);
  return { clock, md, paper, venue };
}

describe('the live order manager and the backtest executor decide alike', () => {
  it('same plans, same reports, same fills, same live orders, same ledger, on random sequences', async () => {
    // What the runs went through (so the property is known to cover fills, cancels and rejections).
    const seen = { fills: 0, cancelled: 0, rejected: 0, cancelsRefused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 40 }), async (steps) => {
        const signer = digestOnlySigner(KEY, CONFIG);
        // One request at a time: concurrent requests' answers interleave as the transport decides
        // (over the paper gateway, by how many submissions each decodes), an order no two runs
        // need share; sequential requests make both executors' sends one order.
        const managerConfig = { backoff: { baseDelayMs: 0 }, concurrency: 1 };
        const live = world();
        const liveLedger = Ledger.open(':memory:', { clock: live.clock });
        const gateway = new PaperGateway({
          marketData: live.md,
          venue: live.venue,
          dialect: DIALECTS.spec,
          clock: live.clock,
          kind: 'backtest',
          closeMarketData: false,
        });
        const om = new OrderManager({
          clock: live.clock,
          gateway,
          ledger: liveLedger,
          signer,
          dialect: DIALECTS.spec,
          owner: 'parity',
          random: mulberry32(11),
          strategy: 'parity',
          config: managerConfig,
        });
        const bt = world();
        const btVenue = new DeltaVenue({
          clock: bt.clock,
          capital: (1_000 * SCALE) as Micros,
          fillModel: 'cross',
          retainFinishedMs: Number.POSITIVE_INFINITY,
        });
        btVenue.addMarket(bt.paper);
        const btLedger = MemoryLedger.open({ clock: bt.clock });
        const config = resolveManagerConfig(managerConfig);
        const ex = new BacktestExecutor({
          clock: bt.clock,
          venue: btVenue,
          ledger: btLedger,
          limiter: null,
          latency: { place: () => 0, cancel: () => 0 },
          sign: (os) => signer.signNow(os),
          parties: orderParties({ signerAddress: signer.address, postOnly: config.postOnly, random: mulberry32(11) }),
          config,
          owner: 'parity',
          strategy: 'parity',
        });
        try {
          for (const s of steps) {
            if (s.kind === 'book') {
              live.venue.applyBook(bookOf(s, live.clock.now()));
              btVenue.applyBook(bookOf(s, bt.clock.now()));
            } else if (s.kind === 'advance') {
              // The live manager's timers start asynchronous lookups: let them finish.
              await live.clock.advanceAsync(s.ms);
              bt.clock.advance(s.ms);
            } else if (s.kind === 'poll') {
              const a = await om.pollFills({});
              const b = ex.pollNow({});
              expect(b).toEqual(a.fills);
            } else {
              const desired: DesiredQuote[] = s.quotes.map((x) => ({
                tokenId: YES,
                side: x.side,
                price: (x.ticks * TICK) as Price,
                size: (x.size * SCALE) as Shares,
                postOnly: x.postOnly,
              }));
              const planA = reconcile(desired, om.liveOrders());
              const planB = reconcile(desired, ex.liveOrders());
              expect(planB).toEqual(planA);
              const a = await om.apply(planA, MARKETS);
              let b: ApplyReport | null = null;
              ex.apply(planB, MARKETS, (r) => {
                b = r;
              });
              expect(b).toEqual(a);
              seen.cancelled += a.cancelled;
              seen.rejected += a.rejected.length;
              seen.cancelsRefused += a.cancelsFailed;
            }
            expect(ex.liveOrders()).toEqual(om.liveOrders());
            expect(btLedger.fills(0)).toEqual(liveLedger.fills(0));
            expect(btLedger.positions()).toEqual(liveLedger.positions());
            expect(btLedger.openOrders().map(orderView)).toEqual(liveLedger.openOrders().map(orderView));
          }
          for (const o of liveLedger.openOrders()) expect(orderView(btLedger.order(o.id))).toEqual(orderView(o));
          seen.fills += liveLedger.fills(0).length;
        } finally {
          await om.close();
          liveLedger.close();
        }
      }),
      { numRuns: 120 },
    );
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  }, 120_000);
});

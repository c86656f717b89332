// The real OrderManager, a real Ledger (':memory:') and an OrderSigner with a seeded key, against
// the PaperGateway serving the recorded burst one poll per cycle on a VirtualClock: quotes rest,
// a taker quote fills on arrival, a book move fills a resting quote as maker, and the ledger's
// fills, positions and PnL equal the venue's to the millionth.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Micros, Price, Shares } from '../../../src/core/money.js';
import type { DesiredQuote } from '../../../src/core/quote.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { OrderSigner, type SignedOrder, type UnsignedOrder } from '../../../src/exchange/signing/index.js';
import type { FillEvent } from '../../../src/execution/fill-tracker.js';
import { OrderManager, type BatchSigner } from '../../../src/execution/order-manager.js';
import type { MarketInfo } from '../../../src/execution/order-manager-types.js';
import { reconcile } from '../../../src/execution/reconcile.js';
import { Ledger } from '../../../src/ledger/index.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import { PaperGateway, PaperVenue, type PaperFill } from '../../../src/sim/paper/index.js';
import { API_KEY, FakeMarketData, loadBurst, settings, u } from './helpers.js';
import { mulberry32 as seeded } from '../../../src/core/random.js';
import { seededKey } from '../../support/keys.js';

const burst = loadBurst();
const B = burst.books;

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function inlineSigner(): BatchSigner {
  const s = new OrderSigner(seededKey('paper order-manager'), DIALECTS.spec);
  return {
    address: s.address,
    signBatch: (os: readonly UnsignedOrder[]): Promise<SignedOrder[]> => Promise.resolve(os.map((o) => s.sign(o))),
  };
}

const q = (price: number, size: number): DesiredQuote => ({
  tokenId: burst.yes,
  side: 'BUY',
  price: u(price) as Price,
  size: u(size) as Shares,
});

describe('OrderManager + Ledger against the PaperGateway', () => {
  it("quotes rest, fill as taker on arrival and as maker on a book move; the ledger's fills equal the venue's", async () => {
    const clock = new VirtualClock(B[0]!.timestampMs);
    const md = new FakeMarketData();
    md.settings.set(
      burst.conditionId,
      settings({
        conditionId: burst.conditionId,
        yes: burst.yes,
        no: burst.no,
        tick: 0.001,
        minSize: 5,
        makerBps: 100,
        takerBps: 200,
      }),
    );
    const venue = new PaperVenue({ clock, capital: u(1000) as Micros });
    const gw = new PaperGateway({ marketData: md, venue, dialect: DIALECTS.spec, clock });
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    closers.push(
      () => ledger.close(),
      () => gw.close(),
    );
    const venueFills: PaperFill[] = [];
    venue.onFill((f) => venueFills.push(f));
    const managerFills: FillEvent[] = [];
    const om = new OrderManager({
      clock,
      gateway: gw,
      ledger,
      signer: inlineSigner(),
      dialect: DIALECTS.spec,
      owner: API_KEY,
      random: seeded(11),
      // This test takes liquidity on purpose (a taker fill on arrival): quotes are not post-only.
      onFill: (f) => managerFills.push(f),
      config: { backoff: { baseDelayMs: 0 }, postOnly: false },
    });
    closers.push(() => om.close());
    const settingsNow = await gw.getMarketSettings(burst.conditionId);
    const market: MarketInfo = {
      conditionId: burst.conditionId,
      tickSize: settingsNow.tickSize as Price,
      negRisk: false,
      makerBaseFeeBps: 100,
      takerBaseFeeBps: 200,
    };
    const markets = new Map([[burst.yes, market]]);

    const cycle = async (i: number, desired: DesiredQuote[]): Promise<void> => {
      clock.advanceTo(B[i]!.timestampMs);
      md.books.set(burst.yes, B[i]!);
      await gw.getBooks([burst.yes]);
      const r = await om.apply(reconcile(desired, om.liveOrders()), markets);
      expect(r.rejected).toEqual([]);
      await om.pollFills();
      expect(auditEngine(venue.engine)).toEqual([]);
    };

    // Cycle 0: two bids under the ask (0.397) rest.
    await cycle(0, [q(0.36, 10), q(0.35, 10)]);
    expect(
      venue
        .openOrders()
        .map((o) => o.price)
        .sort(),
    ).toEqual([u(0.35), u(0.36)]);
    expect(ledger.openOrders().map((o) => o.state)).toEqual(['live', 'live']);
    expect(om.liveOrders().every((o) => o.state === 'live')).toBe(true);

    // The ask walks down; at cycle 9 (ask 0.389 × 60) a quote at 0.389 takes 20 on arrival.
    for (let i = 1; i <= 12; i++)
      await cycle(i, i === 9 ? [q(0.36, 10), q(0.35, 10), q(0.389, 20)] : [q(0.36, 10), q(0.35, 10)]);
    expect(venueFills.map((f) => [f.price, f.size, f.liquidity])).toEqual([[u(0.389), u(20), 'taker']]);

    // Cycle 13: the real ask reaches 0.36 and fills the resting 0.36 bid at 0.36, as maker; the
    // manager's lookup records it. Cycle 14 re-quotes the key, which now crosses (taker).
    await cycle(13, [q(0.36, 10), q(0.35, 10)]);
    expect(venueFills.at(-1)).toMatchObject({ price: u(0.36), size: u(10), liquidity: 'maker' });
    await cycle(14, [q(0.36, 10), q(0.35, 10)]);
    expect(venueFills.map((f) => f.liquidity)).toEqual(['taker', 'maker', 'taker']);

    const report = await om.cancelAll();
    expect(report.remaining).toEqual([]);
    expect(venue.openOrders()).toEqual([]);
    expect(ledger.openOrders()).toEqual([]);

    // The ledger's fills are the venue's: order, side, price, size, fee, maker/taker.
    const shape = (f: {
      orderId: string | null;
      side: string;
      price: number;
      size: number;
      feeMicros: number;
      liquidity: string;
    }) => [f.orderId, f.side, f.price, f.size, f.feeMicros, f.liquidity];
    expect(ledger.fills().map(shape)).toEqual(venueFills.map(shape));
    expect(managerFills.map(shape)).toEqual(venueFills.map(shape));

    // Positions and PnL agree: size, cost basis, realized (fees), average price.
    const lp = ledger.position(burst.yes)!;
    const [vp] = venue.positions('0xw');
    expect(vp).toMatchObject({ size: lp.size, initialValue: lp.cost, realizedPnl: lp.realized, avgPrice: lp.avgPrice });
    expect(lp.size).toBe(u(40));
    expect(lp.cost).toBe(u(0.389 * 20) + u(0.36 * 10) + u(0.36 * 10));
    // Cash: the venue's collateral moved by exactly the ledger's notional and fees.
    const spent = ledger.fills().reduce((s, f) => s + f.notional + f.feeMicros, 0);
    expect(venue.balances().collateral).toEqual({ available: u(1000) - spent, reserved: 0 });
    expect(venue.balances().tokens.get(burst.yes)?.available).toBe(lp.size);
  });
});

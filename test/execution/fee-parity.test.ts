// The ledger and the simulator charge the same fee, to the millionth, for the same fill: the
// simulator (in-process HTTP server, each dialect) matches a taker against a resting maker in its
// engine; the daemon's path reads the market's settings over HTTP (GET /clob-markets, parsed in
// the dialect), resolves the universe with the dialect's fee schedule, and books both legs through
// the fill tracker. Polymarket dialect: the taker pays C × r × (p(1 − p))^e from `fd`, the maker
// nothing; spec dialect: the base bps × min(p, 1 − p). One fee function (src/core/fees.ts) on both
// sides.
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock, VirtualClock } from '../../src/core/clock.js';
import { fillFee } from '../../src/core/fees.js';
import type { Micros, Price, Shares } from '../../src/core/money.js';
import { ExchangeClient } from '../../src/exchange/client/index.js';
import { DIALECTS, type DialectName } from '../../src/exchange/dialect.js';
import { FillTracker, type FeeRates } from '../../src/execution/fill-tracker.js';
import { Ledger } from '../../src/ledger/index.js';
import { resolveUniverse } from '../../src/marketdata/universe.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server/start.js';
import type { OrderRecord } from '../../src/core/market.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const MAKER = 'maker-account';
const TAKER = 'taker-account';

// The seeded world (seed 11, 200 markets) has open markets of both fee kinds it generates:
// crypto (fd r 0.07, e 1; base 0 / 1000 bps) and small (fd r 0.025, e 2; base 0 / 200 bps).
const cases: Array<[DialectName, number]> = [
  ['polymarket', 70_000],
  ['polymarket', 25_000],
  ['spec', 70_000],
  ['spec', 25_000],
];

describe.each(cases)('fee parity, %s dialect, fd rate %i millionths', (dialectName, rate) => {
  it('the ledger books the fee the simulator charged, both legs, to the millionth', async () => {
    const clock = new VirtualClock();
    const sim: RunningSimulator = await startSimulator({
      host: '127.0.0.1',
      port: 0,
      seed: 11,
      markets: 200,
      flow: 'none',
      limits: 'off',
      dialect: dialectName,
      clock,
    });
    closers.push(() => sim.close());
    const dialect = DIALECTS[dialectName];
    const m = sim.venue.world.markets.find((x) => x.fee.rate === rate && x.state.acceptingOrders && !x.state.closed);
    if (m === undefined) throw new Error('the seeded world has no open market with these fees');
    const [yes, no] = m.tokenIds;

    // The daemon's path to the market's fees: GET /clob-markets over HTTP, the dialect's parser,
    // the universe with the dialect's schedule.
    const client = new ExchangeClient({ clobUrl: sim.url, dialect, clock: new SystemClock() });
    closers.push(() => client.close());
    const universe = await resolveUniverse(
      {
        getMarketSettings: (id) => client.getClobMarket(id),
        getBooks: () => Promise.reject(new Error('unused')),
        samplingMarkets: () => {
          throw new Error('unused');
        },
      },
      {
        tokens: [],
        conditions: [m.conditionId],
        selector: { active: true, acceptingOrders: true, tags: [], rewardsOnly: false, max: 1 },
      },
      undefined,
      dialect.fees,
    );
    const settings = universe[0]!.settings;
    const rates: FeeRates = settings;

    // The simulator's engine: a resting maker bid for YES at 0.37, a taker buying NO at 0.63
    // (an ask at YES 0.37): a mint of 123.45 sets.
    const engine = sim.venue.engine;
    engine.deposit(MAKER, 1_000_000_000 as Micros);
    engine.deposit(TAKER, 1_000_000_000 as Micros);
    const tick = m.state.tick;
    const yesPx = Math.round(370_000 / tick) * tick;
    const size = 123_450_000;
    const makerRes = engine.submit({
      id: 'maker-1',
      owner: MAKER,
      tokenId: yes,
      side: 'BUY',
      price: yesPx as Price,
      size: 200_000_000 as Shares,
      orderType: 'GTC',
    });
    expect(makerRes.ok).toBe(true);
    const takerRes = engine.submit({
      id: 'taker-1',
      owner: TAKER,
      tokenId: no,
      side: 'BUY',
      price: (1_000_000 - yesPx) as Price,
      size: size as Shares,
      orderType: 'GTC',
    });
    if (!takerRes.ok) throw new Error(takerRes.message);
    expect(takerRes.trades).toHaveLength(1);
    const trade = takerRes.trades[0]!;
    expect(trade.size).toBe(size);

    // The ledger's path: both orders ours (two trackers, one each), booked from what the exchange answers.
    const ledger = Ledger.open(':memory:', { clock, synchronous: 'NORMAL' });
    closers.push(() => ledger.close());
    const tracker = new FillTracker(ledger, clock, () => rates);
    const record = (id: string, tokenId: string, price: number, sz: number): void => {
      ledger.recordSignedOrder({
        id,
        tokenId,
        conditionId: m.conditionId,
        side: 'BUY',
        price: price as Price,
        size: sz as Shares,
        orderType: 'GTC',
        salt: id,
        createdAtMs: clock.now(),
      });
      ledger.markSent(id);
    };
    record('taker-1', no, 1_000_000 - yesPx, size);
    const taker = tracker.applyPlacement('taker-1', {
      success: true,
      errorMsg: '',
      orderId: 'taker-1',
      status: 'matched',
      makingAmount: takerRes.makingAmount,
      takingAmount: takerRes.takingAmount,
      accepted: true,
    });
    record('maker-1', yes, yesPx, 200_000_000);
    tracker.applyPlacement('maker-1', {
      success: true,
      errorMsg: '',
      orderId: 'maker-1',
      status: 'live',
      makingAmount: null,
      takingAmount: null,
      accepted: true,
    });
    const rec = engine.getOrder('maker-1');
    if (rec === undefined) throw new Error('maker order');
    const makerRecord: OrderRecord = {
      id: 'maker-1',
      status: 'LIVE',
      market: m.conditionId,
      assetId: yes,
      side: 'BUY',
      price: yesPx as Price,
      originalSize: 200_000_000 as Shares,
      sizeMatched: rec.sizeMatched,
      outcome: m.outcomes[0],
      makerAddress: MAKER,
      owner: MAKER,
      type: 'GTC',
      createdAt: '0',
      createdAtMs: clock.now(),
      associateTrades: [trade.id],
    };
    const maker = tracker.applyLookup('maker-1', makerRecord, true);

    expect(taker.events).toHaveLength(1);
    expect(maker.events).toHaveLength(1);
    expect(taker.events[0]).toMatchObject({ size, liquidity: 'taker', feeKnown: true, feeMicros: trade.takerFee });
    expect(maker.events[0]).toMatchObject({ size, liquidity: 'maker', feeKnown: true, feeMicros: trade.makerFee });
    expect(
      ledger
        .fills()
        .map((f) => f.feeMicros)
        .sort((a, b) => a - b),
    ).toEqual([trade.makerFee, trade.takerFee].sort((a, b) => a - b));

    // And what each dialect's exchange charges, independently of both.
    if (dialectName === 'polymarket') {
      expect(settings.fees).toMatchObject({
        curve: { kind: 'variance-power', exponent: m.fee.exponent },
        makerRate: 0,
      });
      const r = m.fee.rate / 1_000_000;
      const p = (1_000_000 - yesPx) / 1_000_000;
      const expected = Math.floor(123.45 * r * (p * (1 - p)) ** m.fee.exponent * 1_000_000 + 1e-6);
      expect(trade.takerFee).toBe(expected);
      expect(trade.makerFee).toBe(0);
    } else {
      expect(settings.fees).toBeUndefined(); // the base fees
      expect(trade.takerFee).toBe(
        Math.floor((m.fee.takerBaseFeeBps * Math.min(yesPx, 1_000_000 - yesPx) * size) / 1e10),
      );
    }
    expect(trade.takerFee).toBe(
      fillFee(
        settings.fees ?? {
          curve: { kind: 'min-price' },
          makerRate: settings.makerBaseFeeBps * 1e8,
          takerRate: settings.takerBaseFeeBps * 1e8,
        },
        'taker',
        1_000_000 - yesPx,
        size,
      ),
    );
    expect(trade.takerFee).toBeGreaterThan(0);
  });
});

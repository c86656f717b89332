// Our ExchangeClient in the polymarket dialect against the simulator in the same dialect (both in
// the public exchange's read shapes): every read route the daemon uses parses, values hold across
// the reshaping (token-id assets, eventId, no position timestamp, sparse /clob-markets), and the
// daemon's users of those routes keep working: the universe selector over /sampling-markets (whose
// public records lack the interface's sampling fields), explicit markets through /clob-markets,
// and the positions check over GET /positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamplingMarket } from '../../../src/core/market.js';
import type { Shares } from '../../../src/core/money.js';
import { ClockRefreshScheduler } from '../../../src/marketdata/refresh-scheduler.js';
import { resolveUniverse, type UniversePort } from '../../../src/marketdata/universe.js';
import { createLogger } from '../../../src/runtime/logger.js';
import { PositionsCheck } from '../../../src/runtime/positions-check.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, secondAccount, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let b: Awaited<ReturnType<typeof secondAccount>>;
let held: MarketRec;
let closed: MarketRec;

beforeAll(async () => {
  t = await startTestSim({ dialect: 'polymarket' });
  b = await secondAccount(t, '0x' + 'd8'.repeat(32));
  held = openMarket(t.sim, 0, 10_000);
  closed = openMarket(t.sim, 1, 10_000);
  const bs = { ...t, signer: b.signer };
  await b.client.postOrder(submission(bs, { market: held, outcome: 1, price: px(0.6), size: px(40) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: held, price: px(0.4), size: px(40) }));
  await b.client.postOrder(
    submission(bs, { market: closed, outcome: 1, price: px(0.8), size: px(20) }, b.creds.apiKey),
  );
  await t.client.postOrder(submission(t, { market: closed, price: px(0.2), size: px(20) }));
  await b.client.postOrder(submission(bs, { market: closed, price: px(0.3), size: px(20) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: closed, side: 'SELL', price: px(0.3), size: px(20) }));
});
afterAll(async () => {
  await b.client.close();
  await t.close();
});

const port = (): UniversePort => ({
  getBooks: (ids, signal) => t.client.getBooks(ids, signal === undefined ? undefined : { signal }),
  samplingMarkets: (signal) =>
    t.client.iterateSamplingMarkets(undefined, signal === undefined ? undefined : { signal }),
  getMarketSettings: (id, signal) => t.client.getClobMarket(id, signal === undefined ? undefined : { signal }),
});

describe('the client in the polymarket dialect reads the simulator in the same dialect', () => {
  it('market data: books with their times, midpoints, tick size', async () => {
    const [book] = await t.client.getBooks([held.tokenIds[0]]);
    expect(book?.timestampMs).toBe(t.clock.now());
    expect(await t.client.getTickSize(held.tokenIds[0])).toBe(held.state.tick);
  });

  it('listings: sampling records without the interface-only fields, simplified records with seven keys', async () => {
    const sampling: SamplingMarket[] = [];
    for await (const m of t.client.iterateSamplingMarkets()) sampling.push(m);
    expect(sampling.length).toBeGreaterThan(0);
    expect(
      sampling.every((m) => m.status === null && m.marketId === null && m.event === null && m.rawMetadata === null),
    ).toBe(true);
    const page = await t.client.getSamplingSimplifiedMarkets();
    expect(page.data[0]).toMatchObject({ status: null, question: null, slug: null, negRisk: null });
    expect(page.data[0]?.tokens).toHaveLength(2);
  });

  it('GET /clob-markets: settings from the sparse record, keyed by the market asked for', async () => {
    const s = await t.client.getClobMarket(held.conditionId);
    expect(s).toMatchObject({
      conditionId: held.conditionId,
      negRisk: held.negRisk,
      tickSize: held.state.tick,
      minOrderSize: held.state.minOrderSize,
      makerBaseFeeBps: held.fee.makerBaseFeeBps,
      takerBaseFeeBps: held.fee.takerBaseFeeBps,
      acceptingOrders: true,
      rewards: null,
    });
    expect(s.tokens.map((x) => x.tokenId)).toEqual([...held.tokenIds]);
    expect(s.rewardConfig === null).toBe(held.rewards === null);
  });

  it('portfolio: token-id assets, eventId, no timestamp on current positions; closed positions without current figures', async () => {
    const [p] = await t.client.getPositions({ user: t.sim.account.address });
    expect(p).toMatchObject({
      asset: held.tokenIds[0],
      oppositeAsset: held.tokenIds[1],
      size: px(40),
      timestamp: null,
    });
    expect(p?.eventId).toBe(t.sim.venue.world.eventOf(held).id);
    const [c] = await t.client.getClosedPositions({ user: t.sim.account.address });
    expect(c).toMatchObject({ asset: closed.tokenIds[0], size: null, currentValue: null, redeemable: null });
    expect(c?.realizedPnl).toBeGreaterThan(0);
    const board = await t.client.getLeaderboard({ limit: 5 });
    expect(board.every((e) => typeof e.verifiedBadge === 'boolean')).toBe(true);
    expect((await t.client.getTrades({ user: t.sim.account.address })).length).toBeGreaterThan(0);
  });
});

describe('daemon users of these routes, in the polymarket dialect', () => {
  it('the universe selector resolves markets from the public sampling records', async () => {
    const u = await resolveUniverse(port(), {
      tokens: [],
      conditions: [],
      selector: { active: true, acceptingOrders: true, tags: [], rewardsOnly: true, max: 3 },
    });
    expect(u).toHaveLength(3);
    for (const m of u) {
      expect(m.tokens).toHaveLength(2);
      expect(m.settings.rewards?.dailyRate).toBeGreaterThan(0);
    }
  });

  it('explicit markets resolve through the public /clob-markets record', async () => {
    const [m] = await resolveUniverse(port(), {
      tokens: [],
      conditions: [held.conditionId],
      selector: { active: true, acceptingOrders: true, tags: [], rewardsOnly: false, max: 1 },
    });
    expect(m?.settings).toMatchObject({
      tickSize: held.state.tick,
      minOrderSize: held.state.minOrderSize,
      acceptingOrders: true,
      negRisk: held.negRisk,
    });
    expect(m?.tokens.map((x) => x.complementTokenId)).toEqual([held.tokenIds[1], held.tokenIds[0]]);
  });

  it("the positions check agrees with a ledger holding the account's fills, and reports a difference", async () => {
    const held40 = [{ tokenId: held.tokenIds[0], size: px(40) as Shares }];
    const run = async (ledger: ReadonlyArray<{ tokenId: string; size: number }>) => {
      const check = new PositionsCheck({
        port: {
          getPositions: (user, signal) =>
            t.client.getPositions({ user }, signal === undefined ? undefined : { signal }),
          getMarketSettings: (id, signal) => t.client.getClobMarket(id, signal === undefined ? undefined : { signal }),
        },
        address: t.sim.account.address,
        ledger: { positions: () => ledger },
        markets: () => [],
        scheduler: new ClockRefreshScheduler(t.clock, 60_000),
        clock: t.clock,
        log: createLogger({ clock: t.clock, level: 'silent', destination: { write: () => undefined } }),
      });
      return check.run();
    };
    expect(await run(held40)).toMatchObject({ outcome: 'agree', exchangePositions: 1, differences: [] });
    const off = await run([{ tokenId: held.tokenIds[0], size: px(39) }]);
    expect(off).toMatchObject({ outcome: 'differ' });
    expect(off?.differences[0]).toMatchObject({ tokenId: held.tokenIds[0] });
  });
});

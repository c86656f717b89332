// Portfolio routes (interface §4.4) and the public trade history over HTTP: positions from the
// engine's fills with §2.11/§2.12 fields, the §7 errors (`missing_field: user`, `unknown_field`,
// bounds), and the IP allowlist (`unauthorized: ip_not_allowlisted`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WirePosition } from '../../../src/exchange/wire.js';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, secondAccount, startTestSim, submission, type TestSim } from './helpers.js';

let t: TestSim;
let b: Awaited<ReturnType<typeof secondAccount>>;
let m: MarketRec;
let m2: MarketRec;

beforeAll(async () => {
  t = await startTestSim();
  b = await secondAccount(t, '0x' + 'b6'.repeat(32));
  m = openMarket(t.sim, 0, 10_000);
  m2 = openMarket(t.sim, 1, 10_000);
  const bs = { ...t, signer: b.signer };
  // A buys 40 YES of m at 0.40 (B's NO bids at 0.60 are the asks), then sells 10 back at 0.50.
  await b.client.postOrder(submission(bs, { market: m, outcome: 1, price: px(0.6), size: px(40) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: m, price: px(0.4), size: px(40) }));
  await b.client.postOrder(submission(bs, { market: m, price: px(0.5), size: px(10) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: m, side: 'SELL', price: px(0.5), size: px(10) }));
  // A buys 20 YES of m2 at 0.20 and sells all 20 at 0.30: a closed position.
  await b.client.postOrder(submission(bs, { market: m2, outcome: 1, price: px(0.8), size: px(20) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: m2, price: px(0.2), size: px(20) }));
  await b.client.postOrder(submission(bs, { market: m2, price: px(0.3), size: px(20) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: m2, side: 'SELL', price: px(0.3), size: px(20) }));
});
afterAll(async () => {
  await b.client.close();
  await t.close();
});

describe('GET /positions', () => {
  it('lists current positions from fills with every §2.11 field', async () => {
    const r = await raw(t.sim, 'GET', `/positions?user=${t.sim.account.address}`);
    expect(r.status).toBe(200);
    const list = r.json as WirePosition[];
    expect(list.length).toBe(1);
    const p = list[0] as WirePosition;
    expect(Object.keys(p)).toEqual([
      'proxyWallet',
      'asset',
      'conditionId',
      'size',
      'avgPrice',
      'initialValue',
      'currentValue',
      'cashPnl',
      'percentPnl',
      'totalBought',
      'realizedPnl',
      'percentRealizedPnl',
      'curPrice',
      'redeemable',
      'mergeable',
      'negativeRisk',
      'title',
      'slug',
      'icon',
      'eventSlug',
      'outcome',
      'oppositeOutcome',
      'oppositeAsset',
      'outcomeIndex',
      'timestamp',
      'endDate',
    ]);
    const fee = (m.fee.takerBaseFeeBps / 10_000) * 0.4 * 40; // taker fee on the buy, in collateral
    expect(p).toMatchObject({
      proxyWallet: t.sim.account.address.toLowerCase(),
      asset: `${m.conditionId}:0`,
      conditionId: m.conditionId,
      size: 30,
      totalBought: 40,
      redeemable: false,
      mergeable: false,
      negativeRisk: m.negRisk,
      title: m.question,
      outcomeIndex: 0,
      outcome: m.outcomes[0],
      oppositeOutcome: m.outcomes[1],
      oppositeAsset: `${m.conditionId}:1`,
      timestamp: Math.floor(t.clock.now() / 1000),
    });
    expect(p.avgPrice).toBeCloseTo((16 + fee) / 40, 6);
    expect(p.realizedPnl).toBeCloseTo(
      10 * 0.5 - (m.fee.takerBaseFeeBps / 10_000) * 0.5 * 10 - 10 * ((16 + fee) / 40),
      5,
    );
    const typed = await t.client.getPositions({ user: t.sim.account.address });
    expect(typed.map((x) => x.size)).toEqual([px(30)]);
  });

  it('filters, sorts and pages as the table says', async () => {
    const none = await t.client.getPositions({ user: t.sim.account.address, sizeThreshold: 31 });
    expect(none).toEqual([]);
    expect(await t.client.getPositions({ user: t.sim.account.address, market: [m2.conditionId] })).toEqual([]);
    expect(
      (await t.client.getPositions({ user: t.sim.account.address, title: m.question.slice(0, 10).toUpperCase() }))
        .length,
    ).toBe(1);
    const bPos = await t.client.getPositions({ user: b.address, sortBy: 'TOKENS', sortDirection: 'ASC' });
    expect(bPos.map((x) => x.size)).toEqual([...bPos.map((x) => x.size)].sort((x, y) => x - y));
    expect((await t.client.getPositions({ user: b.address, limit: 1, offset: 1 })).length).toBe(1);
  });

  it('answers the §7 errors: missing user, unknown parameter, bounds', async () => {
    expect(await raw(t.sim, 'GET', '/positions')).toMatchObject({
      status: 400,
      json: { error: 'missing_field: user' },
    });
    expect(await raw(t.sim, 'GET', `/positions?user=${b.address}&foo=1`)).toMatchObject({
      status: 400,
      json: { error: 'unknown_field: foo' },
    });
    expect(await raw(t.sim, 'GET', `/positions?user=${b.address}&limit=501`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: limit' },
    });
    expect(await raw(t.sim, 'GET', `/positions?user=${b.address}&offset=10001`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: offset' },
    });
    expect(await raw(t.sim, 'GET', `/positions?user=${b.address}&title=${'x'.repeat(101)}`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: title' },
    });
    expect(await raw(t.sim, 'GET', `/positions?user=${b.address}&sortBy=SIZE`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: sortBy' },
    });
    expect(await raw(t.sim, 'GET', '/closed-positions')).toMatchObject({
      status: 400,
      json: { error: 'missing_field: user' },
    });
    expect(await raw(t.sim, 'GET', `/closed-positions?user=${b.address}&limit=51`)).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: limit' },
    });
    expect(await raw(t.sim, 'GET', `/closed-positions?user=${b.address}&x=1`)).toMatchObject({
      status: 400,
      json: { error: 'unknown_field: x' },
    });
  });
});

describe('GET /closed-positions and GET /trades', () => {
  it('shows a position sold out as closed, with its realized PnL', async () => {
    const closed = await t.client.getClosedPositions({ user: t.sim.account.address });
    expect(closed.length).toBe(1);
    const c = closed[0];
    expect(c).toMatchObject({ conditionId: m2.conditionId, size: 0, totalBought: px(20) });
    const r = await raw(t.sim, 'GET', `/closed-positions?user=${t.sim.account.address}`);
    expect('negativeRisk' in ((r.json as object[])[0] as object)).toBe(false);
  });

  it('lists the public trades newest first, by user and market', async () => {
    const all = await t.client.getTrades({ user: t.sim.account.address });
    expect(all.length).toBe(4);
    expect(all.map((x) => x.side)).toEqual(['SELL', 'BUY', 'SELL', 'BUY']);
    const inM = await t.client.getTrades({ market: [m.conditionId], limit: 500 });
    expect(inM.every((x) => x.conditionId === m.conditionId)).toBe(true);
    // The market's listing also holds the world's past trades (before its start), listed after ours.
    const ours = new Set([t.sim.account.address.toLowerCase(), b.address.toLowerCase()]);
    expect(inM.slice(0, 4).every((x) => ours.has(x.proxyWallet))).toBe(true);
    expect(inM.filter((x) => ours.has(x.proxyWallet)).length).toBe(4);
    expect(inM.slice(4).every((x) => x.timestamp * 1000 < t.sim.venue.world.startMs)).toBe(true);
    expect(await raw(t.sim, 'GET', '/trades?limit=0')).toMatchObject({
      status: 400,
      json: { error: 'invalid_field: limit' },
    });
  });
});

describe('the portfolio IP allowlist', () => {
  it('refuses portfolio calls from other addresses with 401 unauthorized: ip_not_allowlisted', async () => {
    const u = await startTestSim({ allowIps: ['10.9.8.7'] });
    try {
      for (const path of [
        `/positions?user=${u.sim.account.address}`,
        `/closed-positions?user=${u.sim.account.address}`,
      ]) {
        expect(await raw(u.sim, 'GET', path)).toMatchObject({
          status: 401,
          json: { error: 'unauthorized: ip_not_allowlisted' },
        });
      }
      const e = await u.client.getPositions({ user: u.sim.account.address }).catch((x: unknown) => x);
      expect((e as { reason: string }).reason).toBe('unauthorized');
      // Other routes are not behind it.
      expect((await raw(u.sim, 'GET', '/trades')).status).toBe(200);
    } finally {
      await u.close();
    }
    const v = await startTestSim({ allowIps: ['10.9.8.7', '127.0.0.1'] });
    try {
      expect((await raw(v.sim, 'GET', `/positions?user=${v.sim.account.address}`)).status).toBe(200);
    } finally {
      await v.close();
    }
  });
});

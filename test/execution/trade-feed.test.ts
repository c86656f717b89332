// The trade feed against the real simulator over HTTP, in both dialects (GET /data/trades through
// HttpGateway and a real limiter, VirtualClock driving settlement): a maker fill a lookup booked first is claimed by its trade (no new
// fill) and moves MATCHED → MINED → CONFIRMED with the clock; a taker trade read first books the
// fill at the trade's price and fee (a FillEvent, source 'trade') and the lookup after it adds
// nothing; a trade the simulator fails is reversed once, after which the ledger's positions equal
// GET /positions; paging under a read budget reaches every trade and re-reading books nothing
// twice; a trade of an order the ledger does not know is skipped and logged once; a missing
// trades route turns the feed off.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../src/core/account.js';
import { formatMicros, toFloat, type Price, type Shares } from '../../src/core/money.js';
import { ExchangeHttpError } from '../../src/exchange/errors.js';
import { feeMicros, type FillEvent } from '../../src/execution/fill-tracker.js';
import type { ManagerLogger } from '../../src/execution/order-manager-types.js';
import { TradeFeed } from '../../src/execution/trade-feed.js';
import { Ledger } from '../../src/ledger/index.js';
import { diffPositions } from '../../src/ledger/positions-diff.js';
import type { FillReversal } from '../../src/ledger/types.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { HttpGateway } from '../../src/runtime/http-gateway.js';
import type { MarketRec } from '../../src/sim/world/index.js';
import {
  openMarket,
  px,
  raw,
  secondAccount,
  signOrder,
  startTestSim,
  submission,
  type OrderSpec,
  type TestSim,
} from '../sim/server/helpers.js';
import { toWireSubmission } from '../../src/exchange/signing/index.js';

interface LogEntry {
  level: string;
  msg: string;
  obj: object;
}

let t: TestSim;
let b: Awaited<ReturnType<typeof secondAccount>>;
let m: MarketRec;
let gw: HttpGateway;
let limiter: MemoryRateLimiter;
let ledger: Ledger;
let logs: LogEntry[];
let fills: FillEvent[];
let reversals: FillReversal[];

const logger: ManagerLogger = {
  debug: (obj, msg) => {
    logs.push({ level: 'debug', msg: msg ?? '', obj });
  },
  info: (obj, msg) => {
    logs.push({ level: 'info', msg: msg ?? '', obj });
  },
  warn: (obj, msg) => {
    logs.push({ level: 'warn', msg: msg ?? '', obj });
  },
  error: (obj, msg) => {
    logs.push({ level: 'error', msg: msg ?? '', obj });
  },
};

function feed(over: Partial<ConstructorParameters<typeof TradeFeed>[0]> = {}): TradeFeed {
  return new TradeFeed({
    gateway: gw,
    ledger,
    clock: t.clock,
    logger,
    onFill: (f) => {
      fills.push(f);
    },
    onReversal: (r) => {
      reversals.push(r);
    },
    ...over,
  });
}

async function setUp(dialect: 'spec' | 'polymarket'): Promise<void> {
  t = await startTestSim({ accountPageSize: 2, dialect, settlement: { minedAfterMs: 1_000, confirmedAfterMs: 4_000 } });
  b = await secondAccount(t, '0x' + 'd2'.repeat(32));
  m = openMarket(t.sim, 0, 10_000);
  limiter = new MemoryRateLimiter({ clock: t.clock, config: {} });
  gw = new HttpGateway({
    client: {
      clobUrl: t.sim.url,
      dialect: t.sim.venue.dialect,
      clock: t.clock,
      random: () => 0,
      address: t.sim.account.address,
      credentials: { apiKey: t.sim.account.apiKey, secret: t.sim.account.secret, passphrase: t.sim.account.passphrase },
    },
    limiter,
  });
  ledger = Ledger.open(':memory:', { clock: t.clock, synchronous: 'NORMAL' });
  logs = [];
  fills = [];
  reversals = [];
}

async function tearDown(): Promise<void> {
  ledger.close();
  await gw.close();
  await limiter.close();
  await b.client.close();
  await t.close();
}

/** Places one of our orders (the test account), written to the ledger first as the daemon does. */
async function ours(spec: Omit<OrderSpec, 'market'>): Promise<string> {
  const full: OrderSpec = { market: m, ...spec };
  const signed = signOrder(t, full);
  ledger.recordSignedOrder({
    id: signed.id,
    tokenId: signed.tokenId,
    conditionId: m.conditionId,
    side: spec.side ?? 'BUY',
    price: spec.price as Price,
    size: spec.size as Shares,
    orderType: spec.orderType ?? 'GTC',
    salt: signed.salt,
    createdAtMs: t.clock.now(),
  });
  ledger.markSent(signed.id);
  const r = await t.client.postOrder(
    toWireSubmission(signed, {
      orderType: spec.orderType ?? 'GTC',
      owner: t.sim.account.apiKey,
      dialect: t.sim.venue.dialect,
    }),
  );
  expect(r.success).toBe(true);
  return signed.id;
}

/** The other account takes our resting YES bid at p (it buys NO at 1 − p: a mint). */
async function theyTakeOurBid(p: number, size: number): Promise<void> {
  const r = await b.client.postOrder(
    submission(
      { ...t, signer: b.signer },
      { market: m, outcome: 1, price: px(1 - p), size: px(size), orderType: 'FOK' },
      b.creds.apiKey,
    ),
  );
  expect(r.status).toBe('matched');
}

/** The other account rests a NO bid at 1 − p (our YES buy at p will take it). */
async function theyRestNoBid(p: number, size: number): Promise<void> {
  const r = await b.client.postOrder(
    submission({ ...t, signer: b.signer }, { market: m, outcome: 1, price: px(1 - p), size: px(size) }, b.creds.apiKey),
  );
  expect(r.success).toBe(true);
}

/** What an order lookup books (the order manager's fallback path). */
async function lookup(id: string): Promise<number> {
  const rec = await gw.getOrder(id);
  if (rec === null) throw new Error(`no order ${id}`);
  return ledger.markLookup(id, { status: rec.status, sizeMatched: rec.sizeMatched }).newlyMatched;
}

async function exchangeTrades(): Promise<TradeRecord[]> {
  const out: TradeRecord[] = [];
  for await (const x of gw.accountTrades(0)) out.push(x);
  return out;
}

describe.each(['spec', 'polymarket'] as const)('trade feed against the simulator (%s dialect)', (dialect) => {
  beforeEach(async () => {
    await setUp(dialect);
  });
  afterEach(tearDown);

  it('claims a maker fill a lookup booked first, and follows its settlement to CONFIRMED', async () => {
    const f = feed();
    const id = await ours({ price: px(0.4), size: px(25) });
    ledger.markAccepted(id, { status: 'live', makingAmount: null, takingAmount: null });
    await theyTakeOurBid(0.4, 25);
    expect(await lookup(id)).toBe(px(25));
    const r1 = await f.poll();
    expect(r1).toMatchObject({
      read: 1,
      recorded: 1,
      updated: 0,
      fills: [],
      reversals: [],
      unknown: 0,
      error: null,
      complete: true,
    });
    const [leg] = ledger.tradeLegs({ orderId: id });
    expect(leg).toMatchObject({
      status: 'MATCHED',
      side: 'BUY',
      price: px(0.4),
      size: px(25),
      liquidity: 'maker',
      claimedSize: px(25),
      fillSeq: null,
    });
    expect(ledger.fills()).toHaveLength(1); // the lookup's
    expect(ledger.position(m.tokenIds[0]!)).toMatchObject({ size: px(25), pendingSize: px(25) });

    t.clock.advance(1_000);
    expect(await f.poll()).toMatchObject({ read: 1, recorded: 0, updated: 1 });
    expect(ledger.tradeLegs({ orderId: id })[0]?.status).toBe('MINED');
    expect(await f.poll()).toMatchObject({ read: 1, recorded: 0, updated: 0 }); // re-read, nothing written
    t.clock.advance(3_000);
    expect(await f.poll()).toMatchObject({ updated: 1 });
    expect(ledger.tradeLegs({ orderId: id })[0]?.status).toBe('CONFIRMED');
    expect(ledger.position(m.tokenIds[0]!)).toMatchObject({ size: px(25), pendingSize: 0 });
    expect(ledger.oldestUnsettledTradeMs()).toBeNull();
    expect(fills).toEqual([]);
  });

  it('books a taker trade read before any lookup at its price and fee; the lookup then adds nothing', async () => {
    const f = feed({ marketName: (tokenId) => (tokenId === m.tokenIds[0] ? 'Will it rain? · Yes' : undefined) });
    await theyRestNoBid(0.4, 30);
    const id = await ours({ price: px(0.42), size: px(30), orderType: 'FOK' });
    const r = await f.poll();
    expect(r).toMatchObject({ read: 1, recorded: 1 });
    const [trade] = await exchangeTrades();
    const fee = feeMicros(trade!.feeRateBps, px(0.4), px(30));
    expect(r.fills).toEqual([
      {
        orderId: id,
        tokenId: m.tokenIds[0],
        conditionId: m.conditionId,
        side: 'BUY',
        price: px(0.4),
        size: px(30),
        cumulative: px(30),
        feeMicros: fee,
        feeKnown: true,
        liquidity: 'taker',
        source: 'trade',
        timeMs: trade!.matchTimeMs,
      },
    ]);
    expect(fills).toEqual(r.fills);
    // The fill line in human units, with the market's short name; no raw millionths.
    const line = logs.find((l) => l.msg === 'fill');
    expect(line?.obj).toEqual({
      market: 'Will it rain? · Yes',
      orderId: id,
      tokenId: m.tokenIds[0],
      side: 'BUY',
      price: '0.4',
      size: '30',
      fee: formatMicros(fee),
      liquidity: 'taker',
      source: 'trade',
    });
    expect(ledger.fills()).toEqual([
      expect.objectContaining({ source: 'trade', price: px(0.4), size: px(30), notional: 12_000_000, feeMicros: fee }),
    ]);
    expect(ledger.order(id)).toMatchObject({ sizeMatched: px(30), state: 'matched' });
    expect(await lookup(id)).toBe(0);
    expect(ledger.position(m.tokenIds[0]!)).toMatchObject({ size: px(30), cost: 12_000_000, pendingSize: px(30) });
  });

  it('reverses a trade the simulator fails, once; the ledger then agrees with GET /positions', async () => {
    const set = await raw(t.sim, 'POST', '/_sim/settlement', { body: JSON.stringify({ failNext: 1 }) });
    expect(set.status).toBe(200);
    const f = feed();
    const id = await ours({ price: px(0.4), size: px(25) });
    ledger.markAccepted(id, { status: 'live', makingAmount: null, takingAmount: null });
    await theyTakeOurBid(0.4, 25);
    expect(await lookup(id)).toBe(px(25));
    await f.poll();
    expect(ledger.position(m.tokenIds[0]!)?.size).toBe(px(25));
    t.clock.advance(1_000);
    await f.poll();
    expect(ledger.tradeLegs({ orderId: id })[0]?.status).toBe('RETRYING');
    expect(ledger.position(m.tokenIds[0]!)).toMatchObject({ size: px(25), pendingSize: px(25) });
    t.clock.advance(3_000);
    const r = await f.poll();
    expect(r.reversals).toEqual([
      expect.objectContaining({
        orderId: id,
        side: 'BUY',
        size: px(25),
        notional: 10_000_000,
        feeMicros: 0,
        realizedDelta: 0,
      }),
    ]);
    expect(reversals).toHaveLength(1);
    expect(logs.find((l) => l.msg.startsWith('trade failed on chain'))?.obj).toMatchObject({
      market: null,
      size: '25',
      notional: '10',
      feeRefund: '0',
      realized: '0',
    });
    expect(ledger.position(m.tokenIds[0]!)).toMatchObject({ size: 0, cost: 0, realized: 0, pendingSize: 0 });
    // The exchange keeps the order's match, and so does the ledger: a lookup books nothing again.
    expect(ledger.order(id)?.sizeMatched).toBe(px(25));
    expect(await lookup(id)).toBe(0);
    // Exactly once, however often it is read again.
    t.clock.advance(1_000);
    expect((await f.poll()).reversals).toEqual([]);
    expect(ledger.fillReversals()).toHaveLength(1);
    const exchange = await gw.getPositions(t.sim.account.address);
    expect(exchange).toEqual([]);
    expect(
      diffPositions(
        ledger.positions(),
        exchange.map((p) => ({ asset: p.asset, size: toFloat(p.size) })),
      ),
    ).toEqual([]);
  });

  it("works through more trades than one poll reads, in turns; re-reading books nothing twice; others' orders are skipped, logged once", async () => {
    const f = feed({ maxTradesPerPoll: 2, overlapMs: 2_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await ours({ price: px(0.4), size: px(10) });
      ledger.markAccepted(id, { status: 'live', makingAmount: null, takingAmount: null });
      ids.push(id);
      await theyTakeOurBid(0.4, 10);
      t.clock.advance(3_000);
    }
    // Two more fills of one order the ledger never recorded (placed by "another process").
    const stranger = await t.client.postOrder(submission(t, { market: m, price: px(0.4), size: px(20) }));
    await theyTakeOurBid(0.4, 10);
    await theyTakeOurBid(0.4, 10);
    // 7 trades, 2 a poll: each poll goes on from the last record read (read again: `after` is inclusive).
    const reports = [];
    while (reports.length < 10 && reports.at(-1)?.complete !== true) reports.push(await f.poll());
    expect(reports.map((r) => r.read)).toEqual([2, 2, 2, 2, 2, 2, 0]);
    expect(reports.at(-1)?.complete).toBe(true);
    expect(ledger.tradeLegs()).toHaveLength(5);
    expect(ledger.fills().filter((x) => x.source === 'trade')).toHaveLength(5);
    expect(fills.map((x) => x.orderId).sort()).toEqual([...ids].sort());
    expect(ledger.position(m.tokenIds[0]!)?.size).toBe(px(50));
    // The stranger's trade is read, counted as unknown and not booked.
    expect(reports.some((r) => r.unknown > 0)).toBe(true);
    expect(ledger.tradeLegs({ orderId: stranger.orderId as string })).toEqual([]);
    expect(fills.map((x) => x.orderId)).not.toContain(stranger.orderId);
    // Everything settles; reading on books nothing new and leaves nothing pending.
    t.clock.advance(10_000);
    for (let i = 0; i < 6; i++) await f.poll();
    expect(ledger.tradeLegs().map((l) => l.status)).toEqual(Array(5).fill('CONFIRMED'));
    expect(ledger.position(m.tokenIds[0]!)).toMatchObject({ size: px(50), pendingSize: 0 });
    expect(ledger.fills()).toHaveLength(5);
  });

  it('a fresh feed on a ledger with legs starts from them; close() stops it', async () => {
    const id = await ours({ price: px(0.4), size: px(10) });
    ledger.markAccepted(id, { status: 'live', makingAmount: null, takingAmount: null });
    await theyTakeOurBid(0.4, 10);
    await feed().poll();
    t.clock.advance(600_000 + 5_000); // longer than the start look-back
    const again = feed();
    const r = await again.poll();
    // It re-read from the pending leg (whose status moved on), not from 10 minutes ago.
    expect(r).toMatchObject({ read: 1, updated: 1 });
    expect(ledger.tradeLegs()[0]?.status).toBe('CONFIRMED');
    again.close();
    expect(await again.poll()).toMatchObject({ read: 0 });
    expect(again.status().enabled).toBe(false);
  });
});

describe('trade feed without a trades route', () => {
  beforeEach(async () => {
    await setUp('spec');
  });
  afterEach(tearDown);

  it('turns itself off on a 404, said once', async () => {
    let calls = 0;
    const f = feed({
      gateway: {
        // eslint-disable-next-line require-yield
        async *accountTrades() {
          calls++;
          throw new ExchangeHttpError({
            code: 'EXCHANGE_NOT_FOUND',
            route: 'GET /data/trades',
            message: 'not found',
            retryable: false,
            status: 404,
          });
        },
      },
    });
    const r = await f.poll();
    expect(r.error).toBeInstanceOf(ExchangeHttpError);
    expect(await f.poll()).toMatchObject({ read: 0, error: null });
    expect(calls).toBe(1);
    expect(f.status().enabled).toBe(false);
  });
});

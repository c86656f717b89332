// The external liquidity's caps and funding (a real book with multi-million-share levels), the
// retention of our finished order records, and order ids in a neg-risk market (the real REST book
// of 2026-06-12 is neg-risk: the id is the digest in the neg-risk exchange's domain).
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Level } from '../../../src/core/book.js';
import { SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { auditEngine } from '../../../src/sim/engine/audit.js';
import {
  DEFAULT_EXTERNAL_LIMITS,
  EXTERNAL_ACCOUNT,
  paperMarketFromSettings,
  PaperGateway,
  PaperVenue,
  resolveExternalLimits,
  sanitizeSide,
} from '../../../src/sim/paper/index.js';
import { FakeMarketData, loadRestBook, settings, TestSigner, u } from './helpers.js';

const lv = (p: number, s: number): Level => ({ price: u(p) as Price, size: u(s) as Shares });

describe('sanitizeSide', () => {
  it('truncates sizes to the 0.01 lot, caps each level and the side, keeps best-first order, drops what the engine cannot hold', () => {
    const limits = resolveExternalLimits({
      maxLevelSize: u(100) as Shares,
      maxSideSize: u(250) as Shares,
      maxLevels: 10,
    });
    const out = sanitizeSide(
      [
        lv(0.5, 10.129), // → 10.12
        lv(0.49, 0.004), // under one lot → dropped
        { price: 485_050 as Price, size: u(5) as Shares }, // 0.48505: off the 0.0001 grid → dropped
        lv(0.48, 1_000), // capped at 100
        lv(0.47, 1_000), // capped at 100
        lv(0.46, 1_000), // only 39.88 left of the side's 250
        lv(0.45, 1_000), // side full
      ],
      limits,
    );
    expect(out).toEqual([lv(0.5, 10.12), lv(0.48, 100), lv(0.47, 100), lv(0.46, 39.88)]);
    expect(sanitizeSide([lv(0.5, 1), lv(0.4, 1), lv(0.3, 1)], resolveExternalLimits({ maxLevels: 2 }))).toEqual([
      lv(0.5, 1),
      lv(0.4, 1),
    ]);
  });

  it('rejects limits that are not positive integers within range', () => {
    expect(() => resolveExternalLimits({ maxLevels: 0 })).toThrow(/maxLevels/);
    expect(() => resolveExternalLimits({ maxLevelSize: 1.5 as Shares })).toThrow(/maxLevelSize/);
    expect(() => resolveExternalLimits({ maxSideSize: (200_000_000 * SCALE) as Shares })).toThrow(/maxSideSize/);
    expect(resolveExternalLimits()).toEqual(DEFAULT_EXTERNAL_LIMITS);
  });
});

describe('external liquidity from a real book', () => {
  it('caps the real 10-million-share levels, funds exactly what the orders reserve, and passes the audit', async () => {
    const book = loadRestBook(); // bids 0.001 … 0.005 (2,202,468 at 0.001), asks 0.995 … 0.999 (5,007,500 at 0.998)
    const clock = new VirtualClock(book.timestampMs);
    const venue = new PaperVenue({
      clock,
      capital: u(100) as Micros,
      external: { maxLevelSize: u(1_000_000) as Shares },
    });
    const no = '999';
    venue.addMarket(
      paperMarketFromSettings(
        settings({
          conditionId: book.market,
          yes: book.assetId,
          no,
          tick: 0.001,
          minSize: 5,
          negRisk: true,
          makerBps: 0,
          takerBps: 0,
        }),
      ),
    );
    expect(venue.applyBook(book)).toBe('fed');
    const view = venue.engine.bookView(book.assetId)!;
    expect(view.bids.map((l) => [l.price, l.size])).toEqual([
      [u(0.005), u(1000)],
      [u(0.004), u(12364)],
      [u(0.003), u(135826.51)],
      [u(0.002), u(1_000_000)],
      [u(0.001), u(1_000_000)],
    ]);
    expect(view.asks[3]).toEqual({ price: u(0.998), size: u(1_000_000) });
    // Funding: YES tokens for the asks (minted), collateral for the bids (fees 0: the notional).
    const asks = 222222 + 5000 + 7.06 + 1_000_000 + 45521.44;
    const bidsNotional = 0.005 * 1000 + 0.004 * 12364 + 0.003 * 135826.51 + 0.002 * 1_000_000 + 0.001 * 1_000_000;
    const st = venue.stats().external;
    expect(st.minted).toBe(u(asks));
    expect(st.deposited).toBe(u(bidsNotional));
    expect(venue.engine.balances(EXTERNAL_ACCOUNT).collateral).toEqual({ available: 0, reserved: u(bidsNotional) });
    // Fed again with a new timestamp: nothing more is needed, nothing more is deposited.
    venue.applyBook({ ...book, timestampMs: book.timestampMs + 1 });
    expect(venue.stats().external).toMatchObject({ minted: u(asks), deposited: u(bidsNotional) });
    expect(auditEngine(venue.engine)).toEqual([]);
  });

  it('in a neg-risk market the order id is the digest in the neg-risk domain, as the signer computed it', async () => {
    const book = loadRestBook();
    const clock = new VirtualClock(book.timestampMs);
    const md = new FakeMarketData();
    md.settings.set(
      book.market,
      settings({ conditionId: book.market, yes: book.assetId, no: '999', tick: 0.001, minSize: 5, negRisk: true }),
    );
    md.books.set(book.assetId, book);
    const gw = new PaperGateway({ marketData: md, clock, dialect: DIALECTS.spec, capital: u(100) as Micros });
    await gw.getBooks([book.assetId]);
    const signer = new TestSigner();
    const neg = signer.submit(
      {
        tokenId: book.assetId,
        conditionId: book.market,
        side: 'BUY',
        price: 0.1,
        size: 10,
        tick: 0.001,
        negRisk: true,
      },
      clock.now(),
    );
    const plain = signer.submit(
      {
        tokenId: book.assetId,
        conditionId: book.market,
        side: 'BUY',
        price: 0.1,
        size: 10,
        tick: 0.001,
        negRisk: false,
      },
      clock.now(),
    );
    const [a, b] = await gw.postOrders([neg.sub, plain.sub], 'new');
    expect(a).toMatchObject({ accepted: true, orderId: neg.id });
    // Signed for the other domain: accepted, but under the neg-risk digest, not the signer's id.
    expect(b?.accepted).toBe(true);
    expect(b?.orderId).not.toBe(plain.id);
    expect(auditEngine(gw.venue.engine)).toEqual([]);
  });
});

describe('our finished order records', () => {
  it('stay for lookup `retainFinishedMs` after they finished, then read as unknown', async () => {
    const book = loadRestBook();
    const clock = new VirtualClock(book.timestampMs);
    const md = new FakeMarketData();
    md.settings.set(
      book.market,
      settings({ conditionId: book.market, yes: book.assetId, no: '999', tick: 0.001, minSize: 5, negRisk: true }),
    );
    const venue = new PaperVenue({ clock, capital: u(100) as Micros, retainFinishedMs: 60_000 });
    const gw = new PaperGateway({ marketData: md, clock, dialect: DIALECTS.spec, venue });
    const signer = new TestSigner();
    const live = signer.submit(
      {
        tokenId: book.assetId,
        conditionId: book.market,
        side: 'BUY',
        price: 0.1,
        size: 10,
        tick: 0.001,
        negRisk: true,
      },
      clock.now(),
    );
    const gone = signer.submit(
      {
        tokenId: book.assetId,
        conditionId: book.market,
        side: 'BUY',
        price: 0.11,
        size: 10,
        tick: 0.001,
        negRisk: true,
      },
      clock.now(),
    );
    await gw.postOrders([live.sub, gone.sub], 'new');
    await gw.cancelOrder(gone.id);
    clock.advance(60_000);
    expect((await gw.getOrder(gone.id))?.status).toBe('CANCELED');
    clock.advance(1);
    expect(await gw.getOrder(gone.id)).toBeNull();
    expect((await gw.getOrder(live.id))?.status).toBe('LIVE'); // a resting order is never dropped
    expect(venue.stats().ordersKept).toBe(1);
  });
});

// Benchmark of paper mode's simulated venue (src/sim/paper): how fast polled books are fed as
// external liquidity (the cross fill model: external orders of levels that changed are cancelled
// and the new levels posted, the account funded; here every level changes, the worst case) and how fast signed orders go through the PaperGateway
// (decode, EIP-712 digest, engine placement, cancel). Prints
//   BENCH paper_book_feed_rate <books/s>      20 levels a side, 1 market, our 4 orders resting
//   BENCH paper_book_feed_rate_50m <books/s>  the same spread over 50 markets
//   BENCH paper_place_cancel_rate <orders/s>  POST /orders of 15 pre-signed GTC orders + cancels
// Books are deterministic (an LCG, no Math.random) and distinct, so none is skipped as unchanged.
import { makeBook, type Book, type Level } from '../src/core/book.js';
import { VirtualClock } from '../src/core/clock.js';
import type { ClobMarketSettings } from '../src/core/market.js';
import type { Micros, Price, Shares } from '../src/core/money.js';
import { DIALECTS } from '../src/exchange/dialect.js';
import type { MarketDataPort } from '../src/exchange/gateway.js';
import { buildOrder, OrderSigner, toWireSubmission } from '../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../src/exchange/wire.js';
import { paperMarketFromSettings, PaperGateway, PaperVenue } from '../src/sim/paper/index.js';
import { seededKey } from '../test/support/keys.js';

const LEVELS = 20;
const TICK = 1_000; // 0.001

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function settingsOf(i: number): ClobMarketSettings {
  return {
    conditionId: `0x${i.toString(16).padStart(64, '0')}`,
    gameStartTime: null,
    rewards: { rates: [], dailyRate: 0 as Micros, minSize: 0 as Shares, maxSpreadCents: 0, maxSpread: 0 as Price },
    rewardConfig: null,
    acceptingOrders: null,
    negRisk: false,
    tokens: [
      { tokenId: String(1_000_000 + 2 * i), outcome: 'Yes' },
      { tokenId: String(1_000_001 + 2 * i), outcome: 'No' },
    ],
    tickSize: TICK as Price,
    minOrderSize: 5_000_000 as Shares,
    feeDetails: { r: 0, e: 0, to: false },
    makerBaseFeeBps: 100,
    takerBaseFeeBps: 200,
    rfqe: false,
    itode: false,
    ibce: false,
    oas: 0,
  };
}

/** Distinct books of a market around a wandering mid (0.30–0.70), YES token, 20 levels a side. */
function books(s: ClobMarketSettings, n: number, rnd: () => number, t0: number): Book[] {
  const out: Book[] = [];
  let mid = 500;
  for (let k = 0; k < n; k++) {
    mid = Math.min(700, Math.max(300, mid + Math.floor(rnd() * 5) - 2));
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let j = 1; j <= LEVELS; j++) {
      bids.push({ price: ((mid - j) * TICK) as Price, size: (Math.floor(1 + rnd() * 50_000) * 10_000) as Shares });
      asks.push({ price: ((mid + j) * TICK) as Price, size: (Math.floor(1 + rnd() * 50_000) * 10_000) as Shares });
    }
    out.push(
      makeBook({
        market: s.conditionId,
        assetId: (s.tokens[0] as { tokenId: string }).tokenId,
        timestampMs: t0 + k,
        hash: `h${k}`,
        bids,
        asks,
        tickSize: TICK as Price,
      }),
    );
  }
  return out;
}

function feedRate(markets: number, perMarket: number): { rate: number; posted: number } {
  const clock = new VirtualClock(Date.UTC(2026, 5, 1));
  const venue = new PaperVenue({ clock, capital: (1_000_000 * 1_000_000) as Micros });
  const rnd = lcg(7);
  const all: Book[][] = [];
  for (let m = 0; m < markets; m++) {
    const s = settingsOf(m);
    venue.addMarket(paperMarketFromSettings(s));
    all.push(books(s, perMarket, rnd, clock.now()));
    // Four resting orders of ours far from the book (never filled): the engine holds them throughout.
    for (let j = 0; j < 4; j++) {
      venue.place({
        id: `o${m}-${j}`,
        tokenId: (s.tokens[0] as { tokenId: string }).tokenId,
        side: 'BUY',
        price: ((100 + j) * TICK) as Price,
        size: 10_000_000 as Shares,
        orderType: 'GTC',
        maker: '0x0',
        owner: 'k',
      });
    }
  }
  // Warm-up, then measure.
  for (let m = 0; m < markets; m++) for (const b of (all[m] as Book[]).slice(0, 50)) venue.applyBook(b);
  const t = performance.now();
  let n = 0;
  for (let k = 50; k < perMarket; k++) {
    for (let m = 0; m < markets; m++) {
      venue.applyBook((all[m] as Book[])[k] as Book);
      n++;
    }
  }
  const ms = performance.now() - t;
  return { rate: (n / ms) * 1000, posted: venue.stats().external.posted };
}

class StaticData implements MarketDataPort {
  constructor(
    private readonly s: ClobMarketSettings,
    private readonly book: Book,
  ) {}
  async getBooks(): Promise<Book[]> {
    return [this.book];
  }
  async getMidpoints(): Promise<Map<string, Price>> {
    return new Map();
  }
  async *samplingMarkets(): AsyncIterable<never> {
    /* none */
  }
  async getMarketSettings(): Promise<ClobMarketSettings> {
    return this.s;
  }
}

async function placeCancelRate(orders: number): Promise<number> {
  const clock = new VirtualClock(Date.UTC(2026, 5, 1));
  const s = settingsOf(0);
  const yes = (s.tokens[0] as { tokenId: string }).tokenId;
  const venue = new PaperVenue({ clock, capital: (1_000_000 * 1_000_000) as Micros });
  const gw = new PaperGateway({
    marketData: new StaticData(s, books(s, 1, lcg(3), clock.now())[0] as Book),
    venue,
    dialect: DIALECTS.spec,
    clock,
  });
  await gw.getBooks([yes]);
  const signer = new OrderSigner(seededKey('paper-venue bench'), DIALECTS.spec);
  const subs: WireOrderSubmission[] = [];
  const ids: string[] = [];
  for (let i = 0; i < orders; i++) {
    const signed = signer.sign(
      buildOrder(
        {
          tokenId: yes,
          conditionId: s.conditionId,
          side: 'BUY',
          price: ((200 + (i % 50)) * TICK) as Price,
          size: 10_000_000 as Shares,
          orderType: 'GTC',
          tick: TICK as Price,
          negRisk: false,
        },
        { maker: signer.address, signer: signer.address, signatureType: 0, timestampMs: clock.now(), salt: i + 1 },
      ),
    );
    subs.push(toWireSubmission(signed, { orderType: 'GTC', owner: 'key', dialect: DIALECTS.spec }));
    ids.push(signed.id);
  }
  const t = performance.now();
  for (let i = 0; i < orders; i += 15) {
    const rs = await gw.postOrders(subs.slice(i, i + 15), 'new');
    for (const r of rs) if (!r.accepted) throw new Error(`rejected: ${r.errorMsg}`);
  }
  for (const id of ids) {
    const c = await gw.cancelOrder(id);
    if (c.canceled.length !== 1) throw new Error('cancel failed');
  }
  const ms = performance.now() - t;
  return (orders / ms) * 1000;
}

export async function run(): Promise<void> {
  const one = feedRate(1, 20_050);
  process.stdout.write(`# one market: 20,000 distinct 20x20 books fed, ${one.posted} external orders posted in all\n`);
  process.stdout.write(`BENCH paper_book_feed_rate ${one.rate.toFixed(0)} books/s\n`);
  const many = feedRate(50, 450);
  process.stdout.write(`# 50 markets: 400 books each, round-robin\n`);
  process.stdout.write(`BENCH paper_book_feed_rate_50m ${many.rate.toFixed(0)} books/s\n`);
  const pc = await placeCancelRate(3_000);
  process.stdout.write(
    '# 3,000 pre-signed GTC orders in POST /orders batches of 15, then one cancel each (signing excluded)\n',
  );
  process.stdout.write(`BENCH paper_place_cancel_rate ${pc.toFixed(0)} orders/s\n`);
}

// Shared pieces of the paper-venue tests: real books as a sequence of polls (the recorded burst of
// test/fixtures/real, replayed level by level), a fake market-data port serving whatever the test
// set, market settings, and signed submissions made with a seeded key exactly as the order manager
// makes them (buildOrder → OrderSigner → toWireSubmission).
import { readFileSync } from 'node:fs';
import { makeBook, type Book, type Level, type TimedBook } from '../../../src/core/book.js';
import type { ClobMarketSettings, SamplingMarket } from '../../../src/core/market.js';
import { parsePrice, parseShares, SCALE, type Micros, type Price, type Shares } from '../../../src/core/money.js';
import type { OrderType } from '../../../src/core/order.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { ExchangeHttpError } from '../../../src/exchange/errors.js';
import type { MarketDataPort } from '../../../src/exchange/gateway.js';
import { parseBook } from '../../../src/exchange/parse/index.js';
import { buildOrder, OrderSigner, toWireSubmission } from '../../../src/exchange/signing/index.js';
import type { WireOrderSubmission } from '../../../src/exchange/wire.js';
import { seededKey } from '../../support/keys.js';
import { realFixturePath } from '../../support/fixtures.js';

const fixture = realFixturePath;

interface WireLevel {
  price: string;
  size: string;
}
interface BookMsg {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  bids: WireLevel[];
  asks: WireLevel[];
}
interface Change {
  asset_id: string;
  price: string;
  size: string;
  side: 'BUY' | 'SELL';
  hash: string;
}
interface ChangeMsg {
  timestamp: string;
  price_changes: Change[];
}

export interface Burst {
  readonly conditionId: string;
  /** Token A of the recording: outcome 0 here. */
  readonly yes: string;
  /** Its complement B: outcome 1. */
  readonly no: string;
  /** Token A's book after the snapshot and after each of its changes, in order. */
  readonly books: readonly TimedBook[];
}

function levels(side: Map<string, string>): Level[] {
  const out: Level[] = [];
  for (const [p, s] of side) {
    const size = parseShares(s);
    if (size > 0) out.push({ price: parsePrice(p), size });
  }
  return out;
}

/** The recorded burst as a sequence of token A books (tick 0.001). */
export function loadBurst(): Burst {
  const lines = readFileSync(fixture('clob_ws_market_burst_2tokens.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const first = JSON.parse(lines[0] as string) as BookMsg;
  const a = first.asset_id;
  const bids = new Map(first.bids.map((l) => [l.price, l.size] as const));
  const asks = new Map(first.asks.map((l) => [l.price, l.size] as const));
  const tick = parsePrice('0.001');
  const book = (ts: string, hash: string): TimedBook =>
    makeBook({
      market: first.market,
      assetId: a,
      timestampMs: Number(ts),
      hash,
      bids: levels(bids),
      asks: levels(asks),
      tickSize: tick,
    });
  const books: TimedBook[] = [book(first.timestamp, first.hash)];
  let no = '';
  for (const line of lines.slice(1, -1)) {
    const m = JSON.parse(line) as ChangeMsg;
    for (const c of m.price_changes) {
      if (c.asset_id !== a) {
        no = c.asset_id;
        continue;
      }
      (c.side === 'BUY' ? bids : asks).set(c.price, c.size);
      books.push(book(m.timestamp, c.hash));
    }
  }
  return { conditionId: first.market, yes: a, no, books };
}

/** The real REST book of 2026-06-12 (tick 0.001, minimum 5, neg-risk), through the real parser. */
export function loadRestBook(): TimedBook {
  return parseBook(JSON.parse(readFileSync(fixture('wire/markets/book_get_ccxt_2026-06-12.json'), 'utf8')));
}

/** The complement token's book of a YES book (what the exchange publishes for the NO token). */
export function mirrorBook(b: TimedBook, noToken: string): TimedBook {
  const flip = (ls: readonly Level[]): Level[] => ls.map((l) => ({ price: (SCALE - l.price) as Price, size: l.size }));
  return makeBook({
    market: b.market,
    assetId: noToken,
    timestampMs: b.timestampMs,
    hash: `${b.hash}-no`,
    bids: flip(b.asks),
    asks: flip(b.bids),
    ...(b.tickSize !== null ? { tickSize: b.tickSize } : {}),
    ...(b.minOrderSize !== null ? { minOrderSize: b.minOrderSize } : {}),
  });
}

/** A book with the given levels in plain units ([price, size] pairs), for hand-made moves. */
export function bookOf(
  base: Book,
  ts: number,
  bids: readonly (readonly [number, number])[],
  asks: readonly (readonly [number, number])[],
  tick?: number,
): TimedBook {
  const lv = (ps: readonly (readonly [number, number])[]): Level[] =>
    ps.map(([p, s]) => ({ price: Math.round(p * SCALE) as Price, size: Math.round(s * SCALE) as Shares }));
  return makeBook({
    market: base.market,
    assetId: base.assetId,
    timestampMs: ts,
    hash: `h${ts}`,
    bids: lv(bids),
    asks: lv(asks),
    tickSize: (tick === undefined ? base.tickSize : Math.round(tick * SCALE)) as Price | null,
    minOrderSize: base.minOrderSize,
  });
}

export interface SettingsInit {
  readonly conditionId: string;
  readonly yes: string;
  readonly no: string;
  readonly tick?: number;
  readonly minSize?: number;
  readonly makerBps?: number;
  readonly takerBps?: number;
  readonly negRisk?: boolean;
}

/** GET /clob-markets settings of a binary market (fees and minimum are the test's choice). */
export function settings(s: SettingsInit): ClobMarketSettings {
  return {
    conditionId: s.conditionId,
    gameStartTime: null,
    rewards: { rates: [], dailyRate: 0 as Micros, minSize: 0 as Shares, maxSpreadCents: 0, maxSpread: 0 as Price },
    rewardConfig: null,
    acceptingOrders: null,
    negRisk: s.negRisk ?? false,
    tokens: [
      { tokenId: s.yes, outcome: 'Yes' },
      { tokenId: s.no, outcome: 'No' },
    ],
    tickSize: Math.round((s.tick ?? 0.001) * SCALE) as Price,
    minOrderSize: Math.round((s.minSize ?? 5) * SCALE) as Shares,
    feeDetails: { r: 0, e: 0, to: false },
    makerBaseFeeBps: s.makerBps ?? 0,
    takerBaseFeeBps: s.takerBps ?? 0,
    rfqe: false,
    itode: false,
    ibce: false,
    oas: 0,
  };
}

/** A market-data port answering from what the test set; counts its calls. */
export class FakeMarketData implements MarketDataPort {
  readonly books = new Map<string, Book>();
  readonly settings = new Map<string, ClobMarketSettings>();
  readonly sampling: SamplingMarket[] = [];
  readonly settingsCalls: string[] = [];
  bookCalls = 0;
  closed = false;
  /** When set, the next settings call throws it. */
  failNextSettings: Error | null = null;

  async getBooks(tokenIds: readonly string[]): Promise<Book[]> {
    this.bookCalls++;
    return tokenIds.flatMap((t) => {
      const b = this.books.get(t);
      return b === undefined ? [] : [b];
    });
  }

  async getMidpoints(): Promise<Map<string, Price>> {
    return new Map();
  }

  async *samplingMarkets(): AsyncIterable<SamplingMarket> {
    yield* this.sampling;
  }

  async getMarketSettings(conditionId: string): Promise<ClobMarketSettings> {
    this.settingsCalls.push(conditionId);
    const f = this.failNextSettings;
    if (f !== null) {
      this.failNextSettings = null;
      throw f;
    }
    const s = this.settings.get(conditionId);
    if (s === undefined) {
      throw new ExchangeHttpError({
        code: 'EXCHANGE_NOT_FOUND',
        route: 'GET /clob-markets/{condition_id}',
        status: 404,
        message: 'not found',
        retryable: false,
        exchangeMessage: 'market not found',
      });
    }
    return s;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export const API_KEY = '8c2b1f7e-3d4a-4b6c-9e8f-1a2b3c4d5e6f';

export interface Intent {
  readonly tokenId: string;
  readonly conditionId: string;
  readonly side: 'BUY' | 'SELL';
  /** Plain units: 0.36. */
  readonly price: number;
  readonly size: number;
  readonly tick: number;
  readonly negRisk?: boolean;
  readonly orderType?: OrderType;
  readonly postOnly?: boolean;
  readonly expirationSec?: number;
}

/** Signs orders with a seeded test key, as the order manager does. */
export class TestSigner {
  readonly signer = new OrderSigner(seededKey('paper helpers'), DIALECTS.spec);
  private salt = 1;

  get address(): string {
    return this.signer.address;
  }

  /** A signed submission and its id (the digest). */
  submit(i: Intent, nowMs: number): { sub: WireOrderSubmission; id: string } {
    const orderType = i.orderType ?? 'GTC';
    const unsigned = buildOrder(
      {
        tokenId: i.tokenId,
        conditionId: i.conditionId,
        side: i.side,
        price: Math.round(i.price * SCALE) as Price,
        size: Math.round(i.size * SCALE) as Shares,
        orderType,
        tick: Math.round(i.tick * SCALE) as Price,
        negRisk: i.negRisk ?? false,
        ...(i.expirationSec !== undefined ? { expirationSec: i.expirationSec } : {}),
        ...(i.postOnly === true ? { postOnly: true } : {}),
      },
      { maker: this.address, signer: this.address, signatureType: 0, timestampMs: nowMs, salt: this.salt++ },
    );
    const signed = this.signer.sign(unsigned);
    const sub = toWireSubmission(signed, {
      orderType,
      owner: API_KEY,
      dialect: DIALECTS.spec,
      ...(i.postOnly === true ? { postOnly: true } : {}),
      ...(i.expirationSec !== undefined ? { expirationSec: i.expirationSec } : {}),
    });
    return { sub, id: signed.id };
  }
}

/** Plain units → millionths. */
export const u = (x: number): number => Math.round(x * SCALE);

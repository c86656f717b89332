// Every real payload of test/fixtures/real/wire/markets/ and portfolio/ through the client's
// parser of the polymarket dialect (the public exchange's read shapes, Dialect.readWire 'public'):
// each success body parses to the values it holds, each error body decodes to its message, the
// docs examples whose placeholder values lie outside the domain's ranges fail exactly at the first
// placeholder (so everything before it parsed), and malformed variants fail naming the field path.
// A file added to those folders without a row here fails the coverage test.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readParsers } from '../../../src/exchange/client/read-parsers.js';
import { parseNegRiskResponse, parseTimeResponse } from '../../../src/exchange/client/service.js';
import { DIALECTS } from '../../../src/exchange/dialect.js';
import { decodeErrorBody } from '../../../src/exchange/http/error-body.js';
import { parseTrades } from '../../../src/exchange/parse/portfolio.js';
import {
  parseBestPrices,
  parseLastTradePrices,
  parseMidpoints,
  parsePriceHistory,
  parsePriceResponse,
} from '../../../src/exchange/parse/prices.js';
import { parsePublicTickSizeResponse } from '../../../src/exchange/parse/public-reads.js';
import { clone, pathOf } from './fixtures.js';

const ROOT = fileURLToPath(new URL('../../fixtures/real/wire/', import.meta.url));
const load = (f: string): unknown => JSON.parse(readFileSync(ROOT + f, 'utf8')) as unknown;
const P = readParsers(DIALECTS.polymarket);
const CID = '0x5c19f205507ce03ff5f3be08a8090a5969ea6870cc07b902a4ca2e61dfe48fdd';

interface Row {
  readonly file: string;
  readonly parse: (json: unknown) => unknown;
  /** Checks on the parsed value. */
  readonly check?: (v: never) => void;
  /** Docs example with placeholder values: the path of the first one, where parsing must stop. */
  readonly placeholderAt?: string;
}

const ROWS: readonly Row[] = [
  // markets/ — GET /book, POST /books
  {
    file: 'markets/book_get_ccxt_2026-06-12.json',
    parse: P.book,
    check: (b: ReturnType<typeof P.book>) => {
      expect(b.timestampMs).toBe(1781289337944);
      expect(b.bids[0]?.price).toBe(5000);
      expect(b.tickSize).toBe(1000);
    },
  },
  {
    file: 'markets/book_get_empty_ask_nautilus_2026-08-03.json',
    parse: P.book,
    check: (b: ReturnType<typeof P.book>) => {
      expect(b.asks).toEqual([]);
      expect(b.lastTradePrice).toBeNull();
    },
  },
  {
    file: 'markets/book_get_pysdk_official.json',
    parse: P.book,
    check: (b: ReturnType<typeof P.book>) => {
      expect(b.timestampMs).toBe(1716000000000);
      expect(b.lastTradePrice).toBe(520_000);
    },
  },
  {
    file: 'markets/book_get_pysdk_null_timestamp_official.json',
    parse: P.book,
    check: (b: ReturnType<typeof P.book>) => {
      expect(b.timestampMs).toBeNull(); // never an invented 0
      expect(b.lastTradePrice).toBeNull();
      expect(b.asks.map((l) => l.price)).toEqual([530_000, 540_000]); // best first
    },
  },
  {
    file: 'markets/books_post_pysdk_official.json',
    parse: P.books,
    check: (bs: ReturnType<typeof P.books>) => {
      expect(bs).toHaveLength(2);
      expect(bs[1]?.assetId).toBe('8501497');
    },
  },
  // POST /midpoints, GET /midpoint, GET /price, POST /prices, POST /last-trades-prices
  {
    file: 'markets/midpoints_post_pysdk_official.json',
    parse: (j) => parseMidpoints(j),
    check: (m: Map<string, number>) => {
      expect([...m]).toEqual([
        ['1', 500_000],
        ['2', 400_000],
      ]);
    },
  },
  {
    file: 'markets/midpoints_post_docs_example.json',
    parse: (j) => parseMidpoints(j),
    check: (m: Map<string, number>) => {
      expect(m.get('0xdef456abc123...')).toBe(520_000);
    },
  },
  {
    file: 'markets/midpoint_get_pysdk_official.json',
    parse: P.midpoint,
    check: (p: number | null) => {
      expect(p).toBe(530_000);
    },
  },
  {
    file: 'markets/midpoint_get_docs_example.json',
    parse: P.midpoint,
    check: (p: number | null) => {
      expect(p).toBe(450_000);
    },
  },
  {
    file: 'markets/price_get_pysdk_official.json',
    parse: (j) => parsePriceResponse(j),
    check: (p: number | null) => {
      expect(p).toBe(520_000);
    },
  },
  {
    file: 'markets/prices_post_pysdk_official.json',
    parse: (j) => parseBestPrices(j),
    check: (m: ReturnType<typeof parseBestPrices>) => {
      expect(m.get('1')).toEqual({ bid: 520_000, ask: 530_000 });
    },
  },
  {
    file: 'markets/last_trades_prices_post_pysdk_official.json',
    parse: (j) => parseLastTradePrices(j),
    check: (a: ReturnType<typeof parseLastTradePrices>) => {
      expect(a[1]).toEqual({ tokenId: '2', price: 600_000, side: 'SELL' });
    },
  },
  // GET /tick-size, /neg-risk, /time, /prices-history
  {
    file: 'markets/tick_size_get_pysdk_official.json',
    parse: (j) => parsePublicTickSizeResponse(j),
    check: (t: number) => {
      expect(t).toBe(10_000);
    },
  },
  {
    file: 'markets/tick_size_get_rs_official.json',
    parse: (j) => parsePublicTickSizeResponse(j),
    check: (t: number) => {
      expect(t).toBe(100_000);
    },
  },
  {
    file: 'markets/neg_risk_get_pysdk_official.json',
    parse: parseNegRiskResponse,
    check: (v: boolean) => {
      expect(v).toBe(true);
    },
  },
  {
    file: 'markets/time_get_rs_official.json',
    parse: parseTimeResponse,
    check: (v: number) => {
      expect(v).toBe(1764612536);
    },
  },
  {
    file: 'markets/prices_history_get_pysdk_official.json',
    parse: (j) => parsePriceHistory(j),
    check: (h: ReturnType<typeof parsePriceHistory>) => {
      expect(h).toEqual([
        { t: 1000, p: 500_000 },
        { t: 1060, p: 510_000 },
      ]);
    },
  },
  {
    file: 'markets/prices_history_get_ccxt_2026-06-12.json',
    parse: (j) => parsePriceHistory(j),
    check: (h: ReturnType<typeof parsePriceHistory>) => {
      expect(h).toHaveLength(30);
      expect(h[0]).toEqual({ t: 1781282044, p: 151_000 });
    },
  },
  // GET /markets, /sampling-markets, /sampling-simplified-markets, /clob-markets/{id}
  {
    file: 'markets/markets_get_page_nautilus_2024.json',
    parse: (j) => P.marketsPage(j, 'markets'),
    check: (p: ReturnType<typeof P.marketsPage>) => {
      expect(p.data).toHaveLength(100);
      expect(p.nextCursor).toBe('MTAw');
    },
  },
  {
    file: 'markets/market_get_nautilus_2026-04.json',
    parse: (j) => P.marketsPage({ data: [j], next_cursor: 'LTE=', limit: 1, count: 1 }, 'markets'),
    check: (p: ReturnType<typeof P.marketsPage>) => {
      const m = p.data[0] as { gameStartTime: string | null; rewards: { dailyRate: number; maxSpread: number } };
      expect(m.gameStartTime).toBe('2026-05-08T20:00:00Z');
      expect(m.rewards.dailyRate).toBe(30_000_000);
      expect(m.rewards.maxSpread).toBe(35_000); // 3.5 cents
    },
  },
  {
    file: 'markets/sampling_markets_get_rs_official.json',
    parse: (j) => P.marketsPage(j, 'sampling'),
    check: (p: ReturnType<typeof P.marketsPage>) => {
      const m = p.data[0] as import('../../../src/core/market.js').SamplingMarket;
      expect(m.tickSize).toBe(10_000); // "0.01" as a string
      expect(m.minOrderSize).toBe(1_000_000);
      expect(m.rewards.rates).toEqual([]); // rates null
      // The interface's sampling fields are absent on the public exchange: null, never invented.
      expect([m.status, m.marketId, m.slug, m.assetsIds, m.outcomes, m.event, m.rawMetadata]).toEqual([
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
      expect(p.nextCursor).toBe('next');
    },
  },
  {
    file: 'markets/sampling_simplified_markets_get_rs_official.json',
    parse: (j) => P.marketsPage(j, 'simplified'),
    check: (p: ReturnType<typeof P.marketsPage>) => {
      const m = p.data[0] as import('../../../src/core/market.js').SimplifiedMarket;
      expect(m.conditionId).toBe('cond_12345');
      expect(m.tokens.map((t) => t.price)).toEqual([550_000, 450_000]);
      expect([m.status, m.negRisk, m.marketId, m.question, m.slug, m.assetsIds, m.outcomes]).toEqual([
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    },
  },
  {
    file: 'markets/sampling_simplified_markets_get_docs_example.json',
    parse: (j) => P.marketsPage(j, 'simplified'),
    placeholderAt: 'data[0].tokens[0].price',
  },
  {
    file: 'markets/clob_market_get_docs_example.json',
    parse: (j) => P.clobMarket(j, CID),
    check: (s: ReturnType<typeof P.clobMarket>) => {
      expect(s.conditionId).toBe(CID); // no `c`: the market asked for
      expect(s.rewardConfig).toEqual({ minSize: null, maxSpreadCents: null, enabled: null, minOrderAgeSeconds: null }); // r: {}
      expect(s.rewards).toBeNull();
      expect(s.negRisk).toBe(false); // nr omitted when false
      expect(s.tokens).toHaveLength(1);
      expect([s.tickSize, s.minOrderSize, s.oas, s.itode]).toEqual([10_000, 5_000_000, 123, true]);
      expect(s.feeDetails).toEqual({ r: 0.02, e: 2, to: true });
    },
  },
  {
    file: 'markets/clob_market_get_pysdk_official.json',
    parse: (j) => P.clobMarket(j, CID),
    check: (s: ReturnType<typeof P.clobMarket>) => {
      expect([s.tickSize, s.negRisk, s.minOrderSize, s.makerBaseFeeBps, s.rfqe]).toEqual([
        1000,
        true,
        null,
        null,
        null,
      ]);
      expect(s.feeDetails).toEqual({ r: 0.0005, e: 1, to: false }); // `to` omitted when false
      expect(s.itode).toBe(false);
      expect(s.rewardConfig).toBeNull();
    },
  },
  {
    file: 'markets/clob_market_get_pysdk_fd_only_official.json',
    parse: (j) => P.clobMarket(j, CID),
    check: (s: ReturnType<typeof P.clobMarket>) => {
      expect(s.tickSize).toBeNull();
      expect(s.tokens).toEqual([]);
    },
  },
  // portfolio/ — GET /positions, /closed-positions, /trades, /v1/leaderboard
  {
    file: 'portfolio/positions_get_captured_notebook_2026-04.json',
    parse: P.positions,
    check: (ps: ReturnType<typeof P.positions>) => {
      expect(ps).toHaveLength(3);
      expect(ps[0]?.eventId).toBe('382090');
      expect(ps[0]?.timestamp).toBeNull(); // none on the wire: null, not 0
      expect(ps[0]?.size).toBe(181_369_131_400);
      expect(ps[0]?.cashPnl).toBe(-54_974_253_300);
      expect(ps[2]?.negativeRisk).toBe(true);
    },
  },
  {
    file: 'portfolio/positions_get_rs_official.json',
    parse: P.positions,
    check: (ps: ReturnType<typeof P.positions>) => {
      expect(ps[0]?.eventId).toBeNull();
      expect(ps[0]?.curPrice).toBe(700_000);
    },
  },
  { file: 'portfolio/positions_get_docs_example.json', parse: P.positions, placeholderAt: '[0].avgPrice' },
  {
    file: 'portfolio/closed_positions_get_rs_official.json',
    parse: P.closedPositions,
    check: (ps: ReturnType<typeof P.closedPositions>) => {
      expect(ps[0]?.realizedPnl).toBe(55_000_000);
      expect(ps[0]?.timestamp).toBe(1703980800);
      expect([ps[0]?.size, ps[0]?.currentValue, ps[0]?.redeemable]).toEqual([null, null, null]);
    },
  },
  { file: 'portfolio/closed_positions_get_docs_example.json', parse: P.closedPositions, placeholderAt: '[0].avgPrice' },
  {
    file: 'portfolio/trades_get_ccxt_2026-06-12.json',
    parse: (j) => parseTrades(j),
    check: (ts: ReturnType<typeof parseTrades>) => {
      expect(ts).toHaveLength(3);
      expect(ts[1]).toMatchObject({ side: 'SELL', size: 11_770_000, price: 848_000, outcomeIndex: 1 });
    },
  },
  {
    file: 'portfolio/trades_get_rs_official.json',
    parse: (j) => parseTrades(j),
    check: (ts: ReturnType<typeof parseTrades>) => {
      expect(ts[0]).toMatchObject({ size: 50_000_000, price: 550_000, timestamp: 1703980800 });
    },
  },
  { file: 'portfolio/trades_get_docs_example.json', parse: (j) => parseTrades(j), placeholderAt: '[0].price' },
  {
    file: 'portfolio/leaderboard_get_rs_official.json',
    parse: P.leaderboard,
    check: (es: ReturnType<typeof P.leaderboard>) => {
      expect(es[0]).toMatchObject({ rank: 1, verifiedBadge: true, vol: 1_000_000_000_000, xUsername: 'toptrader' });
      expect(es[1]).toMatchObject({ rank: 2, verifiedBadge: false, profileImage: null, xUsername: null });
    },
  },
  { file: 'portfolio/leaderboard_get_docs_example.json', parse: P.leaderboard, placeholderAt: '[0].rank' },
];

/** Error answers: status and the message the transport reports. */
const ERRORS: ReadonlyArray<{ file: string; status: number; message: string }> = [
  {
    file: 'markets/book_get_404_no_orderbook_pmxt836.http.json',
    status: 404,
    message: 'No orderbook exists for the requested token id',
  },
  { file: 'portfolio/positions_get_400_rs_official.http.json', status: 400, message: 'Invalid user address' },
];

describe('real payloads of the public exchange through the polymarket-dialect parsers', () => {
  for (const row of ROWS) {
    if (row.placeholderAt === undefined) {
      it(`parses ${row.file}`, () => {
        const v = row.parse(load(row.file));
        (row.check as ((v: unknown) => void) | undefined)?.(v);
      });
    } else {
      it(`parses ${row.file} up to its first placeholder (${row.placeholderAt})`, () => {
        expect(pathOf(() => row.parse(load(row.file)))).toBe(row.placeholderAt);
      });
    }
  }

  for (const e of ERRORS) {
    it(`decodes the error answer ${e.file}`, () => {
      const f = load(e.file) as { status: number; body: string };
      expect(f.status).toBe(e.status);
      expect(decodeErrorBody(f.body)).toEqual({ message: e.message, errorType: null, structured: true });
    });
  }

  it('covers every file of the two folders', () => {
    const listed = new Set([...ROWS.map((r) => r.file), ...ERRORS.map((e) => e.file)]);
    for (const dir of ['markets', 'portfolio']) {
      for (const f of readdirSync(ROOT + dir)) {
        if (f.endsWith('.json')) expect(listed.has(`${dir}/${f}`), `${dir}/${f} has no row`).toBe(true);
      }
    }
  });
});

describe('malformed public payloads fail naming the field path', () => {
  it('GET /book: a timestamp that is not an integer string', () => {
    const b = clone(load('markets/book_get_pysdk_official.json')) as Record<string, unknown>;
    b['timestamp'] = 1716000000000;
    expect(pathOf(() => P.book(b))).toBe('timestamp');
  });

  it('POST /books: a bad level in the second book', () => {
    const bs = clone(load('markets/books_post_pysdk_official.json')) as Array<{ asks: Array<{ size: string }> }>;
    (bs[1] as { asks: Array<{ size: string }> }).asks[1] = { size: '-1' } as never;
    expect(pathOf(() => P.books(bs))).toBe('[1].asks[1].price');
  });

  it('GET /clob-markets: an unknown tick, a token without id, a `c` of another market', () => {
    const s = load('markets/clob_market_get_pysdk_official.json') as Record<string, unknown>;
    expect(pathOf(() => P.clobMarket({ ...s, mts: 0.02 }, CID))).toBe('mts');
    expect(pathOf(() => P.clobMarket({ ...s, t: [{ o: 'Yes' }] }, CID))).toBe('t[0].t');
    expect(pathOf(() => P.clobMarket({ ...s, c: '0x' + '1'.repeat(64) }, CID))).toBe('c');
    expect(pathOf(() => P.clobMarket({ ...s, r: { mi: 'many' } }, CID))).toBe('r.mi');
  });

  it('GET /sampling-simplified-markets: a record without condition_id', () => {
    const p = clone(load('markets/sampling_simplified_markets_get_rs_official.json')) as {
      data: Array<Record<string, unknown>>;
    };
    delete p.data[0]!['condition_id'];
    expect(pathOf(() => P.marketsPage(p, 'simplified'))).toBe('data[0].condition_id');
  });

  it('GET /positions: an eventId of another type, a price above 1', () => {
    const ps = clone(load('portfolio/positions_get_captured_notebook_2026-04.json')) as Array<Record<string, unknown>>;
    ps[1]!['eventId'] = true;
    expect(pathOf(() => P.positions(ps))).toBe('[1].eventId');
    ps[1]!['eventId'] = '382090';
    ps[2]!['curPrice'] = 1.5;
    expect(pathOf(() => P.positions(ps))).toBe('[2].curPrice');
  });

  it('GET /closed-positions: a missing timestamp', () => {
    const ps = clone(load('portfolio/closed_positions_get_rs_official.json')) as Array<Record<string, unknown>>;
    delete ps[0]!['timestamp'];
    expect(pathOf(() => P.closedPositions(ps))).toBe('[0].timestamp');
  });

  it('GET /v1/leaderboard: a string badge', () => {
    const es = clone(load('portfolio/leaderboard_get_rs_official.json')) as Array<Record<string, unknown>>;
    es[1]!['verifiedBadge'] = 'yes';
    expect(pathOf(() => P.leaderboard(es))).toBe('[1].verifiedBadge');
  });

  it('GET /midpoint: neither mid nor mid_price', () => {
    expect(pathOf(() => P.midpoint({ price: '0.5' }))).toBe('mid');
  });
});

// The simulator in the polymarket dialect answers in the public exchange's shapes (read, order and account routes):
// for each route, the key paths and JSON types of its answers (several calls merged, so optional
// keys and nullable values count) are compared with those of the real payloads in
// test/fixtures/real/wire/ (SOURCES.md in each folder). A path a real payload has that the simulator
// never sends fails, as does a path it sends that no real payload has, or a JSON type no real
// payload has there, unless the row's allow-list says why (an official client's type, a docs
// schema). Arrays compare their elements' merged shape; `maps` names objects keyed by ids.
//
// The order routes (orders/) and the account routes (lifecycle/) are rows too. Adding a route is one more row of ROWS: its
// fixtures (with `types: false` for payloads whose JSON types are not trusted, `adapt` to take the
// body of an `.http.json` file), the status it must answer, and `answers`, which makes the calls
// (raw HTTP through `raw`/`signedRaw` of helpers.ts, after what setup the row needs).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketRec } from '../../../src/sim/world/index.js';
import { openMarket, px, raw, secondAccount, signedRaw, startTestSim, submission, type TestSim } from './helpers.js';
import { compareShapes, shapeOf, type Allowances } from './wire-shape.js';

const ROOT = fileURLToPath(new URL('../../fixtures/real/wire/', import.meta.url));

interface FixtureRef {
  readonly file: string;
  /** false: the payload's keys count, its JSON types do not (a recorder that stringified numbers). */
  readonly types?: boolean;
  /** Takes the part to compare (the body of an .http.json file, a record wrapped as a page). */
  readonly adapt?: (json: unknown) => unknown;
}

interface Answer {
  readonly status: number;
  readonly json: unknown;
}

interface Ctx {
  readonly t: TestSim;
  /** A market with a two-sided book; the test account holds YES of `held`, closed out of `closed`. */
  readonly quoted: MarketRec;
  readonly held: MarketRec;
  readonly closed: MarketRec;
  readonly b: string;
}

interface Row {
  readonly route: string;
  readonly fixtures: readonly FixtureRef[];
  /** Status every answer must have (default 200). */
  readonly status?: number;
  readonly answers: (c: Ctx) => Promise<Answer[]>;
  readonly maps?: readonly string[];
  readonly allow?: Allowances;
}

const http = (json: unknown): unknown => JSON.parse((json as { body: string }).body) as unknown;
const asPage = (record: unknown): unknown => ({ data: [record], next_cursor: 'LTE=', limit: 1, count: 1 });
const get = (c: Ctx, path: string): Promise<Answer> => raw(c.t.sim, 'GET', path);
const post = (c: Ctx, path: string, body: unknown): Promise<Answer> =>
  raw(c.t.sim, 'POST', path, { body: JSON.stringify(body) });
const all = (ps: ReadonlyArray<Promise<Answer>>): Promise<Answer[]> => Promise.all(ps);
const signed = (c: Ctx, method: string, path: string, body?: unknown): Promise<Answer> =>
  signedRaw(c.t, method, path, body === undefined ? undefined : JSON.stringify(body));
/** The order POST /order's row matched in full (GET /data/order/{id} reads it). */
let matchedId = '';
/** Rests a fresh bid of the test account on the quoted market (below B's bid: it never trades). */
const restBid = async (c: Ctx, price = 0.1): Promise<string> => {
  const a = await signed(c, 'POST', '/order', submission(c.t, { market: c.quoted, price: px(price), size: px(20) }));
  return (a.json as { orderID: string }).orderID;
};

/** Keys of clob-client-v2's MarketDetails that neither fixture of GET /clob-markets shows. */
const MARKET_DETAILS = 'Polymarket/clob-client-v2 src/types/clob.ts@f3e1a05 MarketDetails';

const ROWS: readonly Row[] = [
  {
    route: 'GET /book',
    fixtures: [
      { file: 'markets/book_get_ccxt_2026-06-12.json', types: false },
      { file: 'markets/book_get_empty_ask_nautilus_2026-08-03.json' },
      { file: 'markets/book_get_pysdk_official.json' },
      { file: 'markets/book_get_pysdk_null_timestamp_official.json' },
    ],
    answers: (c) =>
      all([get(c, `/book?token_id=${c.quoted.tokenIds[0]}`), get(c, `/book?token_id=${c.held.tokenIds[1]}`)]),
  },
  {
    route: 'GET /book (unknown token)',
    fixtures: [{ file: 'markets/book_get_404_no_orderbook_pmxt836.http.json', adapt: http }],
    status: 404,
    answers: (c) => all([get(c, '/book?token_id=123456789')]),
  },
  {
    route: 'POST /books',
    fixtures: [{ file: 'markets/books_post_pysdk_official.json' }],
    answers: (c) => all([post(c, '/books', [{ token_id: c.quoted.tokenIds[0] }, { token_id: c.quoted.tokenIds[1] }])]),
  },
  {
    route: 'POST /midpoints',
    fixtures: [
      { file: 'markets/midpoints_post_pysdk_official.json' },
      { file: 'markets/midpoints_post_docs_example.json' },
    ],
    maps: [''],
    answers: (c) =>
      all([post(c, '/midpoints', [{ token_id: c.quoted.tokenIds[0] }, { token_id: c.quoted.tokenIds[1] }])]),
  },
  {
    // The newer API reference's `{mid_price}` (midpoint_get_docs_example.json) is left out: every
    // official client reads `mid` (markets/SOURCES.md), and so does this client, besides mid_price.
    route: 'GET /midpoint',
    fixtures: [{ file: 'markets/midpoint_get_pysdk_official.json' }],
    answers: (c) => all([get(c, `/midpoint?token_id=${c.quoted.tokenIds[0]}`)]),
  },
  {
    route: 'GET /price',
    fixtures: [{ file: 'markets/price_get_pysdk_official.json' }],
    answers: (c) =>
      all([
        get(c, `/price?token_id=${c.quoted.tokenIds[0]}&side=BUY`),
        get(c, `/price?token_id=${c.quoted.tokenIds[0]}&side=SELL`),
      ]),
  },
  {
    route: 'POST /prices',
    fixtures: [{ file: 'markets/prices_post_pysdk_official.json' }],
    maps: [''],
    answers: (c) =>
      all([
        post(c, '/prices', [
          { token_id: c.quoted.tokenIds[0], side: 'BUY' },
          { token_id: c.quoted.tokenIds[0], side: 'SELL' },
        ]),
      ]),
  },
  {
    route: 'POST /last-trades-prices',
    fixtures: [{ file: 'markets/last_trades_prices_post_pysdk_official.json' }],
    answers: (c) =>
      all([post(c, '/last-trades-prices', [{ token_id: c.held.tokenIds[0] }, { token_id: c.held.tokenIds[1] }])]),
  },
  {
    // rs-clob-client's mock sends the tick as a string (tick_size_get_rs_official.json): its
    // Decimal reads both; the py-sdk mock's number is the type the simulator keeps.
    route: 'GET /tick-size',
    fixtures: [
      { file: 'markets/tick_size_get_pysdk_official.json' },
      { file: 'markets/tick_size_get_rs_official.json', types: false },
    ],
    answers: (c) => all([get(c, `/tick-size?token_id=${c.quoted.tokenIds[0]}`)]),
  },
  {
    route: 'GET /neg-risk',
    fixtures: [{ file: 'markets/neg_risk_get_pysdk_official.json' }],
    answers: (c) => all([get(c, `/neg-risk?token_id=${c.quoted.tokenIds[0]}`)]),
  },
  {
    route: 'GET /time',
    fixtures: [{ file: 'markets/time_get_rs_official.json' }],
    answers: (c) => all([get(c, '/time')]),
  },
  {
    route: 'GET /prices-history',
    fixtures: [
      { file: 'markets/prices_history_get_pysdk_official.json' },
      { file: 'markets/prices_history_get_ccxt_2026-06-12.json', types: false },
    ],
    answers: (c) => all([get(c, `/prices-history?market=${c.quoted.tokenIds[0]}&interval=1h`)]),
  },
  {
    route: 'GET /markets',
    fixtures: [
      { file: 'markets/markets_get_page_nautilus_2024.json' },
      { file: 'markets/market_get_nautilus_2026-04.json', adapt: asPage },
    ],
    answers: (c) => all([get(c, '/markets')]),
  },
  {
    // rs-clob-client reads /sampling-markets pages as Page<MarketResponse>, the type of /markets
    // records: the captured /markets records give the JSON types, the Rust mock (numbers as
    // strings) the keys of this route.
    route: 'GET /sampling-markets',
    fixtures: [
      { file: 'markets/sampling_markets_get_rs_official.json', types: false },
      { file: 'markets/markets_get_page_nautilus_2024.json' },
      { file: 'markets/market_get_nautilus_2026-04.json', adapt: asPage },
    ],
    answers: (c) => all([get(c, '/sampling-markets')]),
  },
  {
    route: 'GET /sampling-simplified-markets',
    fixtures: [
      { file: 'markets/sampling_simplified_markets_get_rs_official.json', types: false },
      { file: 'markets/sampling_simplified_markets_get_docs_example.json' },
    ],
    answers: (c) => all([get(c, '/sampling-simplified-markets')]),
  },
  {
    route: 'GET /clob-markets/{condition_id}',
    fixtures: [
      { file: 'markets/clob_market_get_docs_example.json' },
      { file: 'markets/clob_market_get_pysdk_official.json' },
      { file: 'markets/clob_market_get_pysdk_fd_only_official.json' },
    ],
    // Every market of the world: the keys sent only when true (nr, itode, fd.to) or set (gst) show.
    answers: (c) => all(c.t.sim.venue.world.markets.map((m) => get(c, `/clob-markets/${m.conditionId}`))),
    allow: {
      extra: {
        c: `${MARKET_DETAILS}: \`c\` (condition id), required there`,
        ao: `${MARKET_DETAILS}: \`ao\` (accepting orders)`,
        sd: `${MARKET_DETAILS}: \`sd\` (seconds delay)`,
        aot: `${MARKET_DETAILS}: \`aot\` (accepting orders timestamp)`,
        'r.mi': `${MARKET_DETAILS} → ClobRewards.mi (min size)`,
        'r.ma': `${MARKET_DETAILS} → ClobRewards.ma (max spread)`,
        'r.e': `${MARKET_DETAILS} → ClobRewards.e (enabled)`,
      },
      types: { r: { add: ['null'], why: `${MARKET_DETAILS}: \`r: ClobRewards | null\` (null when unset)` } },
    },
  },
  {
    route: 'GET /positions',
    fixtures: [
      { file: 'portfolio/positions_get_captured_notebook_2026-04.json' },
      { file: 'portfolio/positions_get_rs_official.json' },
    ],
    answers: (c) => all([get(c, `/positions?user=${c.t.sim.account.address}`), get(c, `/positions?user=${c.b}`)]),
  },
  {
    route: 'GET /positions (bad user)',
    fixtures: [{ file: 'portfolio/positions_get_400_rs_official.http.json', adapt: http }],
    status: 400,
    answers: (c) => all([get(c, '/positions?user=nobody')]),
  },
  {
    route: 'GET /closed-positions',
    fixtures: [
      { file: 'portfolio/closed_positions_get_rs_official.json' },
      { file: 'portfolio/closed_positions_get_docs_example.json' },
    ],
    answers: (c) => all([get(c, `/closed-positions?user=${c.t.sim.account.address}`)]),
  },
  {
    route: 'GET /trades',
    fixtures: [
      { file: 'portfolio/trades_get_ccxt_2026-06-12.json', types: false },
      { file: 'portfolio/trades_get_rs_official.json' },
      { file: 'portfolio/trades_get_docs_example.json' },
    ],
    answers: (c) => all([get(c, `/trades?user=${c.t.sim.account.address}`), get(c, '/trades')]),
  },
  {
    route: 'GET /v1/leaderboard',
    fixtures: [
      { file: 'portfolio/leaderboard_get_rs_official.json' },
      { file: 'portfolio/leaderboard_get_docs_example.json' },
    ],
    answers: (c) => all(['DAY', 'WEEK', 'MONTH', 'ALL'].map((p) => get(c, `/v1/leaderboard?timePeriod=${p}&limit=50`))),
  },
  // The order routes (fixtures in orders/) and the account routes (lifecycle/), L2-signed. The
  // quoted market's YES ask (B's NO bid at 0.6, 20 shares, the minimum size) is taken whole by
  // POST /order's second answer, whose order GET /data/order/{id} then reads (with its trades).
  {
    route: 'POST /order',
    fixtures: [
      { file: 'orders/order_post_matched_issue217.json' },
      { file: 'orders/order_post_delayed_nautilus.json' },
      { file: 'orders/order_post_trade_ids_only_nautilus.json' },
    ],
    answers: (c) =>
      all([
        signed(c, 'POST', '/order', submission(c.t, { market: c.quoted, price: px(0.11), size: px(20) })),
        signed(c, 'POST', '/order', submission(c.t, { market: c.quoted, price: px(0.4), size: px(20) })).then((a) => {
          matchedId = (a.json as { orderID: string }).orderID;
          return a;
        }),
      ]),
  },
  {
    route: 'GET /data/order/{id}',
    fixtures: [{ file: 'orders/order_get_rs_official.json' }, { file: 'orders/order_get_nautilus.json' }],
    answers: async (c) =>
      all([signed(c, 'GET', `/data/order/${await restBid(c, 0.12)}`), signed(c, 'GET', `/data/order/${matchedId}`)]),
  },
  {
    route: 'DELETE /order',
    fixtures: [{ file: 'orders/cancel_mixed_tssdk_official.json' }, { file: 'orders/cancel_failed_nautilus.json' }],
    maps: ['not_canceled'],
    answers: async (c) =>
      all([
        signed(c, 'DELETE', '/order', { orderID: await restBid(c, 0.13) }),
        signed(c, 'DELETE', '/order', { orderID: '0x' + 'ee'.repeat(32) }),
      ]),
  },
  {
    route: 'GET /data/orders',
    fixtures: [
      { file: 'lifecycle/data_orders_page_rs_official.json' },
      { file: 'lifecycle/data_orders_page_nautilus.json' },
    ],
    answers: async (c) => {
      await restBid(c, 0.14);
      return all([signed(c, 'GET', '/data/orders?next_cursor=MA==')]);
    },
    allow: {
      missing: {
        'data[].associate_trades[]':
          'our live orders here have no trades yet; the same record with trades (ids as strings) is compared on GET /data/order/{id}',
      },
    },
  },
  {
    route: 'GET /data/trades',
    fixtures: [
      { file: 'lifecycle/data_trades_page_rs_official.json' },
      { file: 'lifecycle/data_trades_page_nautilus.json' },
    ],
    answers: (c) => all([signed(c, 'GET', '/data/trades?next_cursor=MA==')]),
  },
  {
    route: 'DELETE /orders',
    fixtures: [{ file: 'lifecycle/cancel_orders_rs_official.json' }, { file: 'lifecycle/cancel_orders_nautilus.json' }],
    maps: ['not_canceled'],
    answers: async (c) => all([signed(c, 'DELETE', '/orders', [await restBid(c, 0.15), '0x' + 'ee'.repeat(32)])]),
  },
  {
    route: 'DELETE /cancel-all',
    fixtures: [{ file: 'lifecycle/cancel_all_rs_official.json' }, { file: 'orders/cancel_mixed_tssdk_official.json' }],
    maps: ['not_canceled', 'notCanceled'],
    answers: async (c) => {
      await restBid(c, 0.16);
      return all([signed(c, 'DELETE', '/cancel-all')]);
    },
    allow: {
      missing: {
        'not_canceled.*':
          'cancel-all of live orders refuses none here; a refusal entry (id → reason string) is compared on DELETE /order and DELETE /orders',
        notCanceled:
          'rs-clob-client tests/clob.rs@d84e8e1 spells it notCanceled (its client reads both); the API reference and every other client send not_canceled, as we do',
      },
    },
  },
  {
    route: 'GET /balance-allowance',
    // The older single-`allowance` answer (nautilus' collateral fixture) is left out: the v2 clients
    // read the `allowances` map (clob-client-v2 BalanceAllowanceResponse).
    fixtures: [
      { file: 'lifecycle/balance_allowance_conditional_nautilus.json' },
      { file: 'lifecycle/balance_allowance_rs_official.json', types: false },
    ],
    maps: ['allowances'],
    answers: (c) => all([signed(c, 'GET', '/balance-allowance?asset_type=COLLATERAL&signature_type=0')]),
  },
];

let t: TestSim;
let ctx: Ctx;
let closeB: () => Promise<void>;

beforeAll(async () => {
  t = await startTestSim({ dialect: 'polymarket' });
  const b = await secondAccount(t, '0x' + 'c7'.repeat(32));
  closeB = () => b.client.close();
  const bs = { ...t, signer: b.signer };
  const held = openMarket(t.sim, 0, 10_000);
  const closed = openMarket(t.sim, 1, 10_000);
  const quoted = openMarket(t.sim, 2, 10_000);
  // A buys 40 YES of `held` against B's NO bid (a current position for both), and buys then sells
  // 20 YES of `closed` (a closed position); B rests a bid and an ask on `quoted`.
  await b.client.postOrder(submission(bs, { market: held, outcome: 1, price: px(0.6), size: px(40) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: held, price: px(0.4), size: px(40) }));
  await b.client.postOrder(
    submission(bs, { market: closed, outcome: 1, price: px(0.8), size: px(20) }, b.creds.apiKey),
  );
  await t.client.postOrder(submission(t, { market: closed, price: px(0.2), size: px(20) }));
  await b.client.postOrder(submission(bs, { market: closed, price: px(0.3), size: px(20) }, b.creds.apiKey));
  await t.client.postOrder(submission(t, { market: closed, side: 'SELL', price: px(0.3), size: px(20) }));
  await b.client.postOrder(submission(bs, { market: quoted, price: px(0.3), size: px(20) }, b.creds.apiKey));
  await b.client.postOrder(
    submission(bs, { market: quoted, outcome: 1, price: px(0.6), size: px(20) }, b.creds.apiKey),
  );
  await raw(t.sim, 'POST', '/_sim/sample');
  t.clock.advance(5 * 60_000);
  ctx = { t, quoted, held, closed, b: b.address };
});
afterAll(async () => {
  await closeB();
  await t.close();
});

describe("the simulator in the polymarket dialect answers in the real payloads' shapes", () => {
  for (const row of ROWS) {
    it(row.route, async () => {
      const typed: unknown[] = [];
      const keysOnly: unknown[] = [];
      for (const f of row.fixtures) {
        const json = JSON.parse(readFileSync(ROOT + f.file, 'utf8')) as unknown;
        (f.types === false ? keysOnly : typed).push(f.adapt === undefined ? json : f.adapt(json));
      }
      const answers = await row.answers(ctx);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => row.status ?? 200));
      const sim = shapeOf(
        answers.map((a) => a.json),
        row.maps,
      );
      const diff = compareShapes(sim, shapeOf(typed, row.maps), new Set(shapeOf(keysOnly, row.maps).keys()), row.allow);
      expect(diff).toEqual({ missing: [], extra: [], types: [] });
    });
  }
});

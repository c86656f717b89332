// Market data of interface §4.3 and docs/protocol.md §5/§8: GET /book, POST /books, /prices, /midpoints,
// /last-trades-prices, /batch-prices-history, GET /price, /midpoint, /prices-history. Invariants:
// - batch bodies are arrays of `{token_id}` (an item may add `side` on /prices, as Polymarket's
//   client sends; where the dialect says /prices items carry a side (Dialect.pricesItemSide) an
//   item without one is 400 `Invalid payload`: the public exchange's docs say "Each request must
//   include both token_id and side"); more than 500 items → 400 `Payload exceeds the limit`;
//   anything else malformed → 400 `Invalid payload`; unknown tokens are left out of batch answers
//   (an empty result is valid);
// - GET routes read their query strictly (`missing_field: token_id`, `unknown_field: <name>`,
//   `invalid_field: side`), and an unknown token is 404 `No orderbook exists for the requested
//   token id`;
// - `/prices`: BUY = best bid, SELL = best ask, an empty side absent; `/midpoints` lists only
//   tokens with a two-sided book; GET /price and /midpoint answer `""` for a missing price;
// - every answer is computed from the engine at the time of the request.
import type { FastifyInstance } from 'fastify';
import { formatMicros } from '../../../core/money.js';
import type {
  WireBestPrices,
  WireBook,
  WireMidpointResponse,
  WireMidpoints,
  WirePriceResponse,
} from '../../../exchange/wire.js';
import { DATA_STYLE, Params, runQuery } from '../../world/query.js';
import { isBadJson } from '../body.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { MAX_TOKENS_PER_CALL, MSG_INVALID_PAYLOAD, MSG_NO_ORDERBOOK, MSG_PAYLOAD_LIMIT, sendError } from '../errors.js';
import { book } from '../render.js';

interface TokenItem {
  token_id: string;
  side?: 'BUY' | 'SELL';
}

/** Reads a `[{token_id}]` body: the items, or the error text. */
function tokenItems(body: unknown): TokenItem[] | string {
  if (isBadJson(body) || !Array.isArray(body)) return MSG_INVALID_PAYLOAD;
  if (body.length > MAX_TOKENS_PER_CALL) return MSG_PAYLOAD_LIMIT;
  const out: TokenItem[] = [];
  for (const x of body as unknown[]) {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return MSG_INVALID_PAYLOAD;
    const o = x as Record<string, unknown>;
    const id = o['token_id'];
    const side = o['side'];
    if (typeof id !== 'string' || id === '') return MSG_INVALID_PAYLOAD;
    if (side !== undefined && side !== 'BUY' && side !== 'SELL') return MSG_INVALID_PAYLOAD;
    out.push(side === undefined ? { token_id: id } : { token_id: id, side });
  }
  return out;
}

export function registerMarketDataRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { venue, clock } = ctx;
  const engine = venue.engine;

  app.get('/book', async (req, reply) => {
    const r = runQuery(() => new Params(rawQuery(req.query), DATA_STYLE).only(['token_id']).required('token_id'));
    if (!r.ok) return sendResult(reply, r);
    const v = engine.bookView(r.body);
    if (v === undefined) return sendError(reply, 404, MSG_NO_ORDERBOOK);
    return book(v);
  });

  app.post('/books', async (req, reply) => {
    const items = tokenItems(req.body);
    if (typeof items === 'string') return sendError(reply, 400, items);
    const out: WireBook[] = [];
    for (const it of items) {
      const v = engine.bookView(it.token_id);
      if (v !== undefined) out.push(book(v));
    }
    return out;
  });

  app.post('/prices', async (req, reply) => {
    const items = tokenItems(req.body);
    if (typeof items === 'string') return sendError(reply, 400, items);
    if (ctx.dialect.pricesItemSide && items.some((it) => it.side === undefined))
      return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    const out: WireBestPrices = {};
    for (const it of items) {
      const t = engine.topOfBook(it.token_id);
      if (t === undefined) continue;
      const entry = out[it.token_id] ?? {};
      if (t.bid !== null && it.side !== 'SELL') entry.BUY = formatMicros(t.bid);
      if (t.ask !== null && it.side !== 'BUY') entry.SELL = formatMicros(t.ask);
      out[it.token_id] = entry;
    }
    return out;
  });

  app.post('/midpoints', async (req, reply) => {
    const items = tokenItems(req.body);
    if (typeof items === 'string') return sendError(reply, 400, items);
    const out: WireMidpoints = {};
    for (const it of items) {
      const m = engine.midpoint(it.token_id);
      if (m !== null && m !== undefined) out[it.token_id] = formatMicros(m);
    }
    return out;
  });

  app.post('/last-trades-prices', async (req, reply) => {
    if (isBadJson(req.body)) return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    return sendResult(reply, venue.lastTrades.lastTradesPrices(req.body));
  });

  app.post('/batch-prices-history', async (req, reply) => {
    if (isBadJson(req.body)) return sendError(reply, 400, MSG_INVALID_PAYLOAD);
    return sendResult(reply, venue.history.batch(req.body, clock.now()));
  });

  app.get('/price', async (req, reply) => {
    const r = runQuery(() => {
      const p = new Params(rawQuery(req.query), DATA_STYLE).only(['token_id', 'side']);
      const token = p.required('token_id');
      p.required('side');
      return { token, side: p.oneOf('side', ['BUY', 'SELL'] as const, 'BUY') };
    });
    if (!r.ok) return sendResult(reply, r);
    const t = engine.topOfBook(r.body.token);
    if (t === undefined) return sendError(reply, 404, MSG_NO_ORDERBOOK);
    const p = r.body.side === 'BUY' ? t.bid : t.ask;
    const body: WirePriceResponse = { price: p === null ? '' : formatMicros(p) };
    return body;
  });

  app.get('/midpoint', async (req, reply) => {
    const r = runQuery(() => new Params(rawQuery(req.query), DATA_STYLE).only(['token_id']).required('token_id'));
    if (!r.ok) return sendResult(reply, r);
    const m = engine.midpoint(r.body);
    if (m === undefined) return sendError(reply, 404, MSG_NO_ORDERBOOK);
    const body: WireMidpointResponse = { mid: m === null ? '' : formatMicros(m) };
    return body;
  });

  app.get('/prices-history', async (req, reply) =>
    sendResult(reply, venue.history.query(rawQuery(req.query), clock.now())),
  );
}

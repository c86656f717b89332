// Market listings and per-market settings (interface §4.3, docs/protocol.md §5/§8): GET /markets,
// /sampling-markets, /sampling-simplified-markets (cursor paged: `next_cursor` base64 of the
// offset, `MA==` first, `LTE=` after the last page), GET /markets/{condition_id} (the public
// exchange's single-market read), /clob-markets/{condition_id}, /tick-size, /neg-risk. The world's
// query functions do the reading, paging and error shapes; listings read the live market state.
// In a dialect whose reads are in the public exchange's shapes (Dialect.readWire 'public'), the
// records are reshaped by render-public-reads.ts: plain base records on /markets and
// /sampling-markets, the seven-key simplified record, and the abbreviated MarketDetails of
// /clob-markets; error answers are the same in both.
import type { FastifyInstance } from 'fastify';
import type { WireMarketsEnvelope } from '../../../exchange/wire.js';
import {
  getClobMarketSettings,
  getMarket,
  getNegRisk,
  getTickSize,
  listMarkets,
  listSamplingMarkets,
  listSamplingSimplifiedMarkets,
} from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';
import { mapBody, publicClobMarket, publicMarket, publicSimplifiedMarket } from '../render-public-reads.js';
import { InvariantError } from '../../../core/errors.js';

function records<T, U>(f: (t: T) => U): (e: WireMarketsEnvelope<T>) => WireMarketsEnvelope<U> {
  return (e) => ({ data: e.data.map(f), next_cursor: e.next_cursor, limit: e.limit, count: e.count });
}

export function registerMarketRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { world } = ctx.venue;
  const opts = { pageSize: ctx.marketsPageSize };
  if (ctx.dialect.readWire === 'public') {
    app.get('/markets', async (req, reply) =>
      sendResult(reply, mapBody(listMarkets(world, rawQuery(req.query), opts), records(publicMarket))),
    );
    app.get('/sampling-markets', async (req, reply) =>
      sendResult(reply, mapBody(listSamplingMarkets(world, rawQuery(req.query), opts), records(publicMarket))),
    );
    app.get('/sampling-simplified-markets', async (req, reply) =>
      sendResult(
        reply,
        mapBody(listSamplingSimplifiedMarkets(world, rawQuery(req.query), opts), records(publicSimplifiedMarket)),
      ),
    );
    app.get<{ Params: { id: string } }>('/markets/:id', async (req, reply) =>
      sendResult(reply, mapBody(getMarket(world, req.params.id), publicMarket)),
    );
    app.get<{ Params: { id: string } }>('/clob-markets/:id', async (req, reply) =>
      sendResult(
        reply,
        mapBody(getClobMarketSettings(world, req.params.id), (s) =>
          publicClobMarket(world.marketByCondition(s.c) ?? missing(s.c)),
        ),
      ),
    );
  } else {
    app.get('/markets', async (req, reply) => sendResult(reply, listMarkets(world, rawQuery(req.query), opts)));
    app.get('/sampling-markets', async (req, reply) =>
      sendResult(reply, listSamplingMarkets(world, rawQuery(req.query), opts)),
    );
    app.get('/sampling-simplified-markets', async (req, reply) =>
      sendResult(reply, listSamplingSimplifiedMarkets(world, rawQuery(req.query), opts)),
    );
    app.get<{ Params: { id: string } }>('/markets/:id', async (req, reply) =>
      sendResult(reply, getMarket(world, req.params.id)),
    );
    app.get<{ Params: { id: string } }>('/clob-markets/:id', async (req, reply) =>
      sendResult(reply, getClobMarketSettings(world, req.params.id)),
    );
  }
  app.get('/tick-size', async (req, reply) => sendResult(reply, getTickSize(world, rawQuery(req.query))));
  app.get('/neg-risk', async (req, reply) => sendResult(reply, getNegRisk(world, rawQuery(req.query))));
}

/** The world found the market a moment ago: not finding it now is a broken invariant. */
function missing(conditionId: string): never {
  throw new InvariantError(`market ${conditionId} vanished from the world`);
}

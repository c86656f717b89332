// Market listings and per-market settings (interface §4.3, protocol.md §5/§8): GET /markets,
// /sampling-markets, /sampling-simplified-markets (cursor paged: `next_cursor` base64 of the
// offset, `MA==` first, `LTE=` after the last page), GET /markets/{condition_id} (the public
// exchange's single-market read), /clob-markets/{condition_id}, /tick-size, /neg-risk. The world's
// query functions do the reading, paging and error shapes; listings read the live market state.
import type { FastifyInstance } from 'fastify';
import {
  getClobMarketSettings, getMarket, getNegRisk, getTickSize, listMarkets, listSamplingMarkets, listSamplingSimplifiedMarkets,
} from '../../world/index.js';
import { rawQuery, sendResult, type ServerContext } from '../context.js';

export function registerMarketRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { world } = ctx.venue;
  const opts = { pageSize: ctx.marketsPageSize };
  app.get('/markets', async (req, reply) => sendResult(reply, listMarkets(world, rawQuery(req.query), opts)));
  app.get('/sampling-markets', async (req, reply) => sendResult(reply, listSamplingMarkets(world, rawQuery(req.query), opts)));
  app.get('/sampling-simplified-markets', async (req, reply) => sendResult(reply, listSamplingSimplifiedMarkets(world, rawQuery(req.query), opts)));
  app.get<{ Params: { id: string } }>('/markets/:id', async (req, reply) => sendResult(reply, getMarket(world, req.params.id)));
  app.get<{ Params: { id: string } }>('/clob-markets/:id', async (req, reply) => sendResult(reply, getClobMarketSettings(world, req.params.id)));
  app.get('/tick-size', async (req, reply) => sendResult(reply, getTickSize(world, rawQuery(req.query))));
  app.get('/neg-risk', async (req, reply) => sendResult(reply, getNegRisk(world, rawQuery(req.query))));
}
